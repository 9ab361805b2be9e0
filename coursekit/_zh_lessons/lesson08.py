"""Lesson 08's own hints in Chinese (coursekit/lesson08.py), keyed by their English text."""

ZH = {
    "Count the in-place ops: each one (a name ending in `_`) adds 1 to the counter.":
        "数一数原地操作：每一个（名字以 `_` 结尾的）都给计数器加 1。",
    "`a + 1` is out of place: b is a brand-new tensor with its own counter. Has anything written into b since it "
    "was made?":
        "`a + 1` 是非原地运算：b 是一个全新的张量，有它自己的计数器。自它创建以来，"
        "有什么东西写入过 b 吗？",
    "An assignment `a[...] = value` is an in-place write (a copy_ or fill_ into a view of a): one bump per "
    "assignment, however many elements it writes.":
        "赋值 `a[...] = value` 是一次原地写入（往 a 的一个视图里 copy_ 或 fill_）："
        "每次赋值加一次，不管它写了多少个元素。",
    "A view shares its base's storage *and* its version counter: which counter does a write through v bump?":
        "视图共享其基张量的存储区*和*版本计数器：通过 v 写入，加的是哪个计数器？",
    "detach() makes a new tensor without history -- but over the same storage, and with which version counter?":
        "detach() 生成一个没有历史的新张量——但建立在同一个存储区上，而版本计数器是哪一个？",
    ".data is the old escape hatch: same storage, but a *fresh* version counter of its own. Whose counter does a "
    "write through it bump?":
        ".data 是老式的后门：同一个存储区，却有一个自己的*全新*版本计数器。通过它写入，加的是谁的计数器？",
    "a tuple of 6 ints, one per line of the table, e.g. (1, 0, ...)":
        "一个含 6 个整数的元组，表格每行一个，如 (1, 0, ...)",
    "Every in-place write bumps the counter its storage's tensors share -- except through .data.":
        "每次原地写入都会给共享其存储区的张量们共用的计数器加一——通过 .data 写入除外。",
    "{saved} -- and {changed}, so its version no longer matches the one recorded when it was saved.":
        "{saved}——而 {changed}，所以它的版本与保存时记下的版本不再相符。",
    "{saved}; {changed}, which nothing saved, so backward has nothing to refuse.":
        "{saved}；{changed}，而它没有被任何节点保存，所以反向传播没有什么可拒绝的。",
    "ExpBackward0 saves its *output* (d exp(x)/dx = exp(x) = y)":
        "ExpBackward0 保存的是它的*输出*（d exp(x)/dx = exp(x) = y）",
    "add_ changed y": "add_ 改变了 y",
    "MulBackward0 saves its *inputs* (x and x), not its result":
        "MulBackward0 保存的是它的*输入*（x 和 x），而不是它的结果",
    "add_ changed the result y": "add_ 改变的是结果 y",
    "add_ changed h after that": "add_ 在那之后改变了 h",
    "the second MulBackward0 saved h (d(h*h)/dh needs h)":
        "第二个 MulBackward0 保存了 h（d(h*h)/dh 需要 h）",
    "AddBackward0 saves nothing (its derivative is 1), and multiplying by the number 2 needs only the 2":
        "AddBackward0 什么都不保存（它的导数是 1），而乘以数字 2 只需要这个 2",
    "mul_ changed y": "mul_ 改变的是 y",
    "detach() shares y's storage and version counter: zeroing it bumps the version ExpBackward0 recorded for y, "
    "so backward refuses.":
        "detach() 共享 y 的存储区和版本计数器：把它清零，"
        "会让 ExpBackward0 为 y 记下的版本对不上，所以反向传播拒绝运行。",
    "y.data has a fresh version counter, so autograd cannot see the write: backward runs -- and uses the zeroed "
    "y, a silently *wrong* gradient (x.grad is all zeros). That is why detach() replaced .data.":
        "y.data 有一个全新的版本计数器，所以自动求导看不到这次写入：反向传播照常运行——用的却是清零后的 y，"
        "悄无声息地得到一个*错误的*梯度（x.grad 全是 0）。"
        "这正是 detach() 取代 .data 的原因。",
    "a tuple of 6 bools (True: backward raises), one per line of the table":
        "一个含 6 个布尔值的元组（True：反向传播会抛出错误），表格每行一个",
    "Backward only refuses when a tensor some node *saved* was changed after it was saved.":
        "只有当某个节点*保存*的张量在保存之后被改变时，反向传播才会拒绝运行。",
    "An in-place change of a leaf that requires grad is refused while autograd is recording: do the update "
    "inside `with torch.no_grad():`.":
        "自动求导记录期间，对需要求导的叶子张量做原地修改会被拒绝："
        "在 `with torch.no_grad():` 里面做这次更新。",
    "A .grad is None: did you reset the gradients *before* using them? Update first, then reset.":
        "有一个 .grad 是 None：你是不是在使用梯度*之前*就把它们重置了？先更新，再重置。",
    "{name} did not change": "{name} 没有改变",
    "`p = p - lr * p.grad` only rebinds the local name p to a new tensor; the parameter itself is untouched. "
    "Write into the parameter itself, in place (an augmented assignment such as -=, or a method whose name ends "
    "in _).":
        "`p = p - lr * p.grad` 只是把局部变量名 p 重新绑定到一个新张量上；"
        "参数本身没有被动过。要原地写入参数本身（用 -= 这样的增强赋值，或名字以 _ 结尾的方法）。",
    "{name} moved to {got}, expected {expected}": "{name} 变成了 {got}，期望的是 {expected}",
    "That is a step uphill: the gradient points to where the loss grows, so subtract it.":
        "这是往上坡走了一步：梯度指向损失增大的方向，所以要减去它。",
    "Each parameter should become p - lr * p.grad, with the .grad it had before the step.":
        "每个参数都应当变成 p - lr * p.grad，用的是它在这一步之前的 .grad。",
    "{name} is no longer a leaf that requires grad (grad_fn={grad_fn}, requires_grad={requires_grad})":
        "{name} 不再是需要求导的叶子张量（grad_fn={grad_fn}，"
        "requires_grad={requires_grad}）",
    "Update the tensor in place under torch.no_grad(); do not replace it with a computed tensor.":
        "在 torch.no_grad() 下原地更新这个张量；不要用一个计算出来的张量替换它。",
    "{name}.grad still holds the old gradient {grad}": "{name}.grad 仍然保存着旧的梯度 {grad}",
    "Gradients accumulate: the next backward would add to this one. Reset it after the step (`p.grad = None`, or "
    "`p.grad.zero_()`), as optimizer.zero_grad() does.":
        "梯度会累加：下一次 backward 会加到这个梯度上。在这一步之后重置它（`p.grad = None`，"
        "或 `p.grad.zero_()`），就像 optimizer.zero_grad() 所做的那样。",
    "a function body that updates every parameter in place (p <- p - lr * p.grad) and then resets its .grad":
        "一个函数体，原地更新每个参数（p <- p - lr * p.grad），然后重置它的 .grad",
    "w (2, 2) and b (2,)": "w (2, 2) 和 b (2,)",
    "This is what optimizer.step() and optimizer.zero_grad() do for plain SGD.":
        "对于普通的 SGD，optimizer.step() 和 optimizer.zero_grad() "
        "做的就是这些。",
    "That is half the value: the buggy version also doubles y.": "这是一半的值：有问题的版本还把 y 翻了一倍。",
    "Compute what buggy_softplus_sum computes: 2 * log(1 + exp(x)), summed to one number.":
        "算出 buggy_softplus_sum 所算的东西：2 * log(1 + exp(x))，"
        "求和成一个数。",
    "A leaf that requires grad (x) cannot be changed in place: change only the tensors the function makes.":
        "需要求导的叶子张量（x）不能被原地修改：只修改函数自己生成的张量。",
    "Start from buggy_softplus_sum and change as little as you can.":
        "从 buggy_softplus_sum 出发，改得越少越好。",
    "it returned {kind} ({value}), not a tensor": "它返回了{kind}（{value}），而不是张量",
    "Return y.sum(), a 0-d tensor.": "返回 y.sum()，一个 0 维张量。",
    "the result does not require grad: backward has no graph to run": "结果不需要求导：反向传播没有可以运行的计算图",
    "detach() or torch.no_grad() cut the graph between x and the result. Keep every step recorded; only the "
    "in-place write that backward refuses has to go.":
        "detach() 或 torch.no_grad() 切断了 x 与结果之间的计算图。让每一步都被记录下来；"
        "只有反向传播拒绝的那次原地写入需要去掉。",
    "backward still raises {error}: a saved tensor was modified by an inplace operation":
        "反向传播仍然抛出 {error}：一个被保存的张量被原地操作修改了",
    "Read the error: 'output 0 of Exp' is the tensor, and ExpBackward0 saved it for its backward. Which in-place "
    "op changes it after that? Make that one out of place. (torch.no_grad() does not help: the write still moves "
    "the version counter.)":
        "读一读错误信息：'output 0 of Exp' 就是那个张量，"
        "ExpBackward0 为自己的反向计算保存了它。之后是哪个原地操作改变了它？把那一个改成非原地运算。"
        "（torch.no_grad() 没有用：写入照样会让版本计数器变化。）",
    "Call .backward() on your result yourself and read the error.":
        "亲自对你的结果调用 .backward()，读一读错误信息。",
    "{found}, although backward ran": "{found}，尽管反向传播运行了",
    "A change hidden from the version check -- through .data -- lets backward run on the changed tensor and "
    "compute a wrong gradient without a word. Make the change out of place instead.":
        "躲过版本检查的修改——通过 .data——会让反向传播在被改过的张量上运行，一声不响地算出错误的梯度。"
        "改为用非原地运算来做这个修改。",
    "a repaired buggy_softplus_sum: the same value, `(2 * log(1 + exp(x))).sum()`, and a backward that runs":
        "修好的 buggy_softplus_sum：值不变，"
        "仍是 `(2 * log(1 + exp(x))).sum()`，而且反向传播能够运行",
    "it returned Ellipsis": "它返回了 Ellipsis",
    "Only the write into a tensor that a node saved has to go; y.mul_(2) can stay, because log saves its input, "
    "not its output.":
        "只有写入某个节点所保存张量的那一次需要去掉；y.mul_(2) 可以保留，因为 log 保存的是它的输入，"
        "而不是输出。",
}
