"""Lesson 09's own hints in Chinese (coursekit/lesson09.py), keyed by their English text."""

ZH = {
    # -- running a learner's Function class ------------------------------------------------------
    "forward returned {kind} ({value}), expected a tensor": "forward 返回了{kind}（{value}），应当是一个张量",
    "Return the result of forward.": "返回 forward 的计算结果。",
    "the result of forward": "forward 的结果",
    "forward computes the value: the same formula as without autograd.":
        "forward 负责计算值：公式和不用自动求导时一样。",
    "the result does not require grad": "结果不需要梯度（requires_grad 为 False）",
    "Call the Function through .apply(...), with inputs that require grad.":
        "通过 .apply(...) 调用这个 Function，并传入需要梯度的输入。",
    "{name}.grad is None": "{name}.grad 是 None",
    "backward returned None in position {i}, the place of {name}'s gradient.":
        "backward 在第 {i} 个位置返回了 None，而那里是 {name} 的梯度的位置。",
    "`{name}` should be a subclass of torch.autograd.Function ({what}); it is {kind}.":
        "`{name}` 应当是 torch.autograd.Function 的子类（{what}）；它却是{kind}。",
    "Write `class ...(torch.autograd.Function):` with two @staticmethods, forward and backward.":
        "写成 `class ...(torch.autograd.Function):`，带两个 @staticmethod：forward 和 backward。",
    "`{name}` on {case}: {found}.": "`{name}` 在 {case} 上：{found}。",
    "backward returns one gradient per input of forward, in the same order ({order}): {n} values, None for an "
    "input that needs none.":
        "forward 的每个输入，backward 都要返回一个梯度，顺序相同（{order}）：共 {n} 个值，不需要梯度的输入返回 None。",
    "ctx.saved_tensors gives back exactly the tensors forward passed to ctx.save_for_backward, in that order: "
    "unpack as many as you saved.":
        "ctx.saved_tensors 原样交回 forward 传给 ctx.save_for_backward 的那些张量，顺序不变：保存了几个，就解包几个。",
    "ctx.save_for_backward(...) takes tensors (inputs or outputs of forward), not other values.":
        "ctx.save_for_backward(...) 只接受张量（forward 的输入或输出），不接受别的值。",
    # -- exercise 1: sigmoid -----------------------------------------------------------------------
    "x = [-2, 0, 0.5, 3] and grad = [1, -1, 2, 0.5]": "x = [-2, 0, 0.5, 3]、grad = [1, -1, 2, 0.5]",
    "Multiply by grad: backward receives d(loss)/dy and must return d(loss)/dx = grad * dy/dx -- the chain rule.":
        "要乘上 grad：backward 收到的是 d(loss)/dy，必须返回 d(loss)/dx = grad * dy/dx——这就是链式法则。",
    "The right formula, but with x where y belongs: it is written in terms of the *output* y = sigmoid(x) -- "
    "save it in forward.":
        "公式对了，但该用 y 的地方用了 x：这个公式是用*输出* y = sigmoid(x) 写的——在 forward 里把它保存下来。",
    "Only part of the derivative: y alone is the rule for exp; sigmoid's derivative has a second factor.":
        "只有导数的一部分：单单一个 y 是 exp 的求导法则；sigmoid 的导数还有第二个因子。",
    "One factor is missing: sigmoid's derivative is a product of two factors, both made of y.":
        "少了一个因子：sigmoid 的导数是两个因子的乘积，两个都由 y 构成。",
    "Mind the sign: sigmoid is increasing, so its derivative is positive.":
        "注意符号：sigmoid 是增函数，所以它的导数是正的。",
    "backward returns grad * dy/dx: work out the derivative of 1 / (1 + exp(-x)) and write it in terms of y, the "
    "saved output.":
        "backward 返回 grad * dy/dx：求出 1 / (1 + exp(-x)) 的导数，并用保存下来的输出 y 把它写出来。",
    "the bodies of forward (compute y = 1 / (1 + exp(-x)), save what backward needs, return y) and backward "
    "(return the gradient for x)":
        "forward 的函数体（计算 y = 1 / (1 + exp(-x))，保存 backward 需要的东西，返回 y）和 backward 的函数体（返回 x 的梯度）",
    "Saving the output y makes backward one line: grad * y * (1 - y) -- as PyTorch's own SigmoidBackward0 does.":
        "保存输出 y，backward 就只需一行：grad * y * (1 - y)——PyTorch 自己的 SigmoidBackward0 正是这么做的。",
    # -- exercise 2: hypot -------------------------------------------------------------------------
    "x = [3, -1, 0.5], y = [4, 2, -1.5] and grad = [1, -2, 0.5]": "x = [3, -1, 0.5]、y = [4, 2, -1.5]、grad = [1, -2, 0.5]",
    "Still half the right size: d sqrt(u)/du = 1 / (2 sqrt(u)), and du/d{name} = 2 {name}, so the 2s cancel.":
        "还是只有正确值的一半：d sqrt(u)/du = 1 / (2 sqrt(u))，而 du/d{name} = 2 {name}，两个 2 正好约掉。",
    "Multiply by grad: backward must scale the local derivative by the gradient it receives.":
        "要乘上 grad：backward 必须用收到的梯度去缩放局部导数。",
    "That is the other input's formula: the gradient for {name} has {name} on top.":
        "这是另一个输入的公式：{name} 的梯度，分子上是 {name}。",
    "Divide by r, do not multiply: a square root's derivative has it in the denominator.":
        "要除以 r，而不是乘：平方根的导数里，它在分母上。",
    "gradcheck says which input is wrong; work out d r/d{name} with the chain rule through the square root.":
        "gradcheck 会告诉你哪个输入错了；用链式法则穿过平方根，求出 d r/d{name}。",
    "a repaired Hypot class (copy the class, fix its backward)": "一个修好的 Hypot 类（复制这个类，修好它的 backward）",
    "gradcheck agrees with your backward now: d r/dy = y / r.": "现在 gradcheck 认可你的 backward 了：d r/dy = y / r。",
    # -- exercise 3: predictions about a Function's node --------------------------------------------
    "Letter case counts: the node is named after the class exactly as it is spelled, plus 'Backward'.":
        "大小写也算数：节点的名字就是类名，一字不差，再加上 'Backward'。",
    "No number for a custom Function: the 0 of MulBackward0 tells apart the overloads of a built-in op. Yours is "
    "the class name plus 'Backward'.":
        "自定义 Function 没有编号：MulBackward0 的 0 用来区分内置运算的各个重载。你的节点是类名加上 'Backward'。",
    "A custom Function's node is named after its class, the way MulBackward0 is named after mul (print "
    "type(out.grad_fn).__name__ for a built-in op to see the pattern).":
        "自定义 Function 的节点以它的类命名，就像 MulBackward0 以 mul 命名一样"
        "（对一个内置运算打印 type(out.grad_fn).__name__，就能看出规律）。",
    "needs_input_grad in line.apply(w, x, 2.0), only w requiring grad":
        "line.apply(w, x, 2.0) 中的 needs_input_grad，只有 w 需要梯度",
    "One bool per argument of forward, in order: True where that input requires grad (a Python number never does).":
        "forward 的每个参数对应一个布尔值，按顺序排列：该输入需要梯度处为 True（Python 数字永远不需要）。",
    "Count one edge per *tensor* argument of apply, whether it requires grad or not; does a Python number get one? "
    "(backward still returns a value for it, None.)":
        "apply 的每个*张量*参数算一条边，不管它需不需要梯度；Python 数字也有一条吗？（backward 仍要为它返回一个值：None。）",
    "Under no_grad, apply records nothing: no node, and the result does not require grad.":
        "在 no_grad 下，apply 什么也不记录：没有节点，结果也不需要梯度。",
    "a tuple of 4 predictions, e.g. ('xBackward', (True, True, True), 3, True)":
        "一个含 4 个预测的元组，例如 ('xBackward', (True, True, True), 3, True)",
    "A custom Function joins the graph exactly like a built-in op.": "自定义 Function 加入计算图的方式和内置运算完全一样。",
}
