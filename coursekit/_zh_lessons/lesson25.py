"""Lesson 25's own hints in Chinese (coursekit/lesson25.py), keyed by their English text."""

ZH = {
    # -- making the answer's mode ---------------------------------------------------------------------
    "{kind} cannot be called": "{kind}不能被调用",
    "Write the class as the lesson does, and make it with no arguments: `mode = YourClass()`.":
        "像课里那样写这个类，并且不带参数地创建它：`mode = YourClass()`。",
    "making the mode": "创建模式时",
    "the answer should be a subclass of {base}; calling it gave {kind}": "答案应当是 {base} 的子类；调用它得到的却是{kind}",
    "Write `class ...({base}):` with a method __torch_{which}__(self, func, types, args=(), kwargs=None).":
        "写成 `class ...({base}):`，并带一个方法 __torch_{which}__(self, func, types, args=(), kwargs=None)。",
    # -- exercise 1: count the ops --------------------------------------------------------------------
    "an MLP's mse_loss and its backward": "一个 MLP 的 mse_loss 及其反向传播",
    "`self.counts` should be a dict from op name to count; make it `{}` in __init__ and add to it in "
    "__torch_dispatch__.":
        "`self.counts` 应当是一个从算子名到次数的字典：在 __init__ 里把它设为 `{}`，在 __torch_dispatch__ 里往上加。",
    "Use str(func) as the key -- 'aten.<operator>.<overload>' -- not the OpOverload object itself (the printed dict "
    "must be readable and equal to another mode's).":
        "用 str(func) 作键——即 'aten.<operator>.<overload>'——而不是 OpOverload 对象本身"
        "（打印出来的字典要能读懂，并且能和另一个模式的字典相等）。",
    "func.__name__ leaves out the namespace: str(func) names the op in full, starting with 'aten.'.":
        "func.__name__ 漏掉了命名空间：str(func) 才是算子的全名，以 'aten.' 开头。",
    "Count each overload, not each operator: str(func.overloadpacket) drops the part after the last dot (Tensor, "
    "default, dim_IntList...), which is what tells aten.add.Tensor from aten.add.Scalar.":
        "要按重载计数，而不是按算子：str(func.overloadpacket) 去掉了最后一个点之后的部分"
        "（Tensor、default、dim_IntList……），而正是这一部分区分了 aten.add.Tensor 和 aten.add.Scalar。",
    "Each name is counted once only: add one to what is already there (counts.get(name, 0) + 1).":
        "每个名字只计了一次：要在已有的次数上加一（counts.get(name, 0) + 1）。",
    "__torch_dispatch__ must return what the op returns: `return func(*args, **kwargs)`. Returning nothing "
    "replaces every op's result by None.":
        "__torch_dispatch__ 必须返回算子的返回值：`return func(*args, **kwargs)`。什么都不返回，每个算子的结果就都变成了 None。",
    "Count, then run the op with func(*args, **(kwargs or {})) and return its result.":
        "先计数，再用 func(*args, **(kwargs or {})) 运行算子，并返回它的结果。",
    "after {label}, __torch_dispatch__ was never called": "运行 {label} 之后，__torch_dispatch__ 一次也没有被调用",
    "Name the method exactly __torch_dispatch__(self, func, types, args=(), kwargs=None).":
        "方法名必须一字不差：__torch_dispatch__(self, func, types, args=(), kwargs=None)。",
    "{label} gave another result inside your mode": "在你的模式里，{label} 得到了另一个结果",
    "A counting mode must change nothing: run func exactly once, with the arguments it was given.":
        "计数的模式不能改变任何东西：用传进来的参数，把 func 恰好运行一次。",
    "the mode has no attribute `counts`": "这个模式没有属性 `counts`",
    "Make `self.counts = {}` in __init__ (after super().__init__()).":
        "在 __init__ 里（super().__init__() 之后）写 `self.counts = {}`。",
    "after {label}, counts is {shown}, with the ops of the programs checked before it":
        "运行 {label} 之后，counts 是 {shown}，里面还有之前检查过的程序的算子",
    "Every OpCounter() shares one dict: make `self.counts = {}` in __init__ -- a dict written in the class body is "
    "shared by every instance.":
        "所有 OpCounter() 共用了同一个字典：要在 __init__ 里写 `self.counts = {}`——写在类体里的字典由所有实例共享。",
    "after {label}, counts is {shown}": "运行 {label} 之后，counts 是 {shown}",
    "Add one to counts[str(func)] for every op the mode sees.": "模式每看到一个算子，就给 counts[str(func)] 加一。",
    "the body of __torch_dispatch__ (count str(func) in self.counts, then run the op and return its result)":
        "方法 __torch_dispatch__ 的函数体（在 self.counts 里给 str(func) 计数，然后运行算子并返回它的结果）",
    "`{name}`: {found}.": "`{name}`：{found}。",
    "A TorchDispatchMode sees every op below autograd -- backward's too -- by its overload name.":
        "TorchDispatchMode 能看到 autograd 之下的每一个算子——反向传播的也不例外——而且叫得出它的重载名。",
    # -- exercise 2: change what relu does ------------------------------------------------------------
    "Only relu changes: every other call must run as it was asked, `return func(*args, **kwargs)` (kwargs may be "
    "None: use `**(kwargs or {})`).":
        "只改 relu：其余每个调用都必须照原样运行，`return func(*args, **kwargs)`（kwargs 可能是 None：请用 "
        "`**(kwargs or {})`）。",
    "Here relu ran unchanged: this program calls it as {spelling}, which your test does not catch. torch.relu, "
    "F.relu and Tensor.relu are three different callables; compare func with each (or look at func.__name__).":
        "这里的 relu 原样运行了：这个程序用的写法是 {spelling}，你的判断没有抓住它。torch.relu、F.relu 和 "
        "Tensor.relu 是三个不同的可调用对象；把 func 和每一个都比一比（或者看 func.__name__）。",
    "That is leaky_relu's default slope, 0.01: pass negative_slope=0.1.":
        "那是 leaky_relu 的默认斜率 0.01：请传入 negative_slope=0.1。",
    "The slope has the wrong sign: leaky_relu keeps 0.1 * x for negative x.":
        "斜率的符号反了：对负的 x，leaky_relu 保留 0.1 * x。",
    "Negative values must be scaled by 0.1, not passed through.": "负值要乘以 0.1，而不是原样放过。",
    "Where relu was called, return F.leaky_relu(x, 0.1) of the same input x (args[0]).":
        "在调用 relu 的地方，对同一个输入 x（args[0]）返回 F.leaky_relu(x, 0.1)。",
    "Returning NotImplemented means 'not mine', and with no one else to ask the call fails. Run every other call "
    "yourself: `return func(*args, **kwargs)`.":
        "返回 NotImplemented 的意思是“不归我管”，而没有别人可问时，调用就失败了。其余的调用请你自己运行："
        "`return func(*args, **kwargs)`。",
    "__torch_function__ must return the call's result for *every* call, relu or not: a call it answers with None "
    "gives None to the code that made it.":
        "__torch_function__ 必须为*每一个*调用返回结果，不管是不是 relu：它用 None 回答的调用，会把 None 交给发起调用的代码。",
    "F.relu hands over its options spelled out (F.relu(x, inplace=False)): the function you call instead takes "
    "only the input and the slope.":
        "F.relu 会把它的选项明确写出来传过来（F.relu(x, inplace=False)）：而你换上的那个函数只接受输入和斜率。",
    "{label} gave None inside your mode": "在你的模式里，{label} 得到了 None",
    "__torch_function__ must return the call's result for every call (`return func(*args, **kwargs)`).":
        "__torch_function__ 必须为每一个调用返回结果（`return func(*args, **kwargs)`）。",
    "inside your mode, {label} never reached __torch_function__": "在你的模式里，{label} 从未到达 __torch_function__",
    "Name the method exactly __torch_function__(self, func, types, args=(), kwargs=None).":
        "方法名必须一字不差：__torch_function__(self, func, types, args=(), kwargs=None)。",
    "the result of {label}": "{label} 的结果",
    "the body of __torch_function__ (leaky_relu with slope 0.1 where relu was called, else the call itself)":
        "方法 __torch_function__ 的函数体（调用 relu 的地方换成斜率为 0.1 的 leaky_relu，其余照常调用）",
    "`{name}` on {label}: {found}.": "`{name}` 在 {label} 上：{found}。",
    "A TorchFunctionMode can change what a public call does, whichever way relu was spelled.":
        "TorchFunctionMode 能改变一个公开调用做的事，不管 relu 是怎么写的。",
    # -- exercise 3: predictions ----------------------------------------------------------------------
    "The operator is right, not the overload. PyTorch's argument parser wraps a Python number given to + into a "
    "0-d tensor before dispatch: which overload takes two tensors?":
        "算子对了，重载不对。PyTorch 的参数解析器在分发之前，会把传给 + 的 Python 数包装成 0 维张量：哪个重载接受两个张量？",
    "Operator + is add; the log names the namespace, the operator and the overload.":
        "运算符 + 就是 add；日志里写的是命名空间、算子和重载。",
    "That overload sums everything into a 0-d tensor; x.sum(0) reduces along a list of dims.":
        "那个重载把所有元素加成一个 0 维张量；x.sum(0) 是沿着一组维度归约。",
    "sum's overload for a reduction over given dims is named after its argument, a list of ints.":
        "sum 在给定维度上归约的那个重载，是以它的参数——一个整数列表——命名的。",
    "addmm is bias + x @ w.t() in one kernel: without a bias there is nothing to add.":
        "addmm 是在一个内核里算 bias + x @ w.t()：没有偏置，就没有东西可加。",
    "F.linear computes x @ w.t(): the transpose is an op of its own (a view, but still an op).":
        "F.linear 计算的是 x @ w.t()：转置本身就是一个算子（是视图，但仍然是算子）。",
    "F.linear(x, w) computes x @ w.t(), and each of those steps is an op: list them in the order they run.":
        "F.linear(x, w) 计算的是 x @ w.t()，其中每一步都是一个算子：按运行的顺序把它们列出来。",
    "x + 1 (x a float tensor): the one op logged": "x + 1（x 是浮点张量）记录下的那一个算子",
    "x.sum(0): the one op logged": "x.sum(0) 记录下的那一个算子",
    "F.linear(x, w), no bias: every op logged, in order": "F.linear(x, w)（没有偏置）按顺序记录下的每个算子",
    "torch.add(s, 1) for a subclass s inside a TorchFunctionMode: who is asked first, 'mode' or 'subclass'?":
        "在 TorchFunctionMode 里对子类 s 调用 torch.add(s, 1)：先问谁，'mode' 还是 'subclass'？",
    "Think of the precedence rule of the lesson: which of the two sees calls that have no tensor at all?":
        "想想课里讲的优先级规则：两者之中，哪一个连没有任何张量的调用也看得到？",
    "a tuple of 4 predictions, e.g. ('aten.x.y', 'aten.x.y', ('aten.x.y',), 'mode')":
        "一个含 4 个预测的元组，例如 ('aten.x.y', 'aten.x.y', ('aten.x.y',), 'mode')",
    "You can read an ATen log now: operator, overload, and who was asked first.":
        "现在你能读懂 ATen 日志了：算子、重载，以及先问的是谁。",
}
