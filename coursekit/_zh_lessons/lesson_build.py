"""The build track's grader (coursekit/build/: the report, the cases, the classic mistakes' hints,
the command line) in Chinese. The last line of a grade, ``N/M tests pass``, stays English: scripts
read it. PyTorch's words -- its error messages, code, API names -- stay as they are."""

ZH = {
    # -- grade.py: the report ---------------------------------------------------------------------------
    "Stage {number}: {title} -- your file: {file}": "第 {number} 阶段：{title}——你的文件：{file}",
    "still to write: {names}": "还要写的函数：{names}",
    "first failing case:": "第一个失败的用例：",
    "input:         {input}": "输入：         {input}",
    "PyTorch gives: {answer}": "PyTorch 给出：{answer}",
    "yours:         {answer}": "你的结果：     {answer}",
    "first failing test: {test}": "第一个失败的测试：{test}",
    "hint ({name}): {hint}": "提示（{name}）：{hint}",
    "no classic mistake recognised: work the failing input through your code by hand.":
        "没有认出典型错误：拿这个失败的输入，用手在你的代码里一步步走一遍。",
    "every test passes: tensorlab now runs on your code for this stage.":
        "全部测试通过：tensorlab 的这一部分现在运行的是你的代码。",
    "{n} tests skipped (they need PyTorch, which is not installed)": "跳过了 {n} 个测试（它们需要 PyTorch，而 PyTorch 没有安装）",
    "{file} does not exist: run python -m coursekit.build new": "{file} 不存在：请运行 python -m coursekit.build new",
    "{file} does not import: {error}": "{file} 无法导入：{error}",
    "{file} has no function {name}": "{file} 里没有函数 {name}",
    "the test marked itself as failing (xfail): {reason}": "这个测试把自己标记为失败（xfail）：{reason}",
    "grading stage {stage} failed:": "第 {stage} 阶段的评分出错了：",
    # the stages' titles (as the build notebooks' headings say them)
    "strides and views": "步长与视图",
    "broadcasting and summing a gradient back": "广播，以及把梯度加回去",
    "ops as Functions: forward and backward formulas": "把运算写成 Function：前向与反向公式",
    "the graph: nodes, edges and AccumulateGrad": "计算图：节点、边与 AccumulateGrad",
    "the engine: dependencies, the ready queue, accumulation, freeing": "引擎：依赖、就绪队列、累加与释放",
    "Module: registration, named parameters, state_dict, train/eval": "Module：注册、带名字的参数、state_dict、train/eval",
    "optimizers: SGD with momentum, Adam with bias correction": "优化器：带动量的 SGD，带偏差校正的 Adam",
    "convolution as unfold + matmul, and the capstone CNN": "卷积即 unfold + 矩阵乘法，以及毕业项目 CNN",

    # -- magic.py and __main__.py -------------------------------------------------------------------------
    "Your file for stage {stage}: {file}": "你在第 {stage} 阶段的文件：{file}",
    "Open it in JupyterLab (File > Open from Path...) or in your editor, write the functions, save, and run "
    "%grade {stage}.":
        "在 JupyterLab 里打开它（File > Open from Path...），或者用你的编辑器打开，写好函数，保存，然后运行 "
        "%grade {stage}。",
    "usage: %grade STAGE [DIR] -- STAGE is {stages} or all": "用法：%grade STAGE [DIR]——STAGE 是 {stages} 或 all",
    "no stage {which}: the stages are {stages} or all": "没有阶段 {which}：阶段有 {stages}，或者 all",
    "kept    {file} (yours; delete it to start the stage again)": "保留    {file}（你的文件；删掉它就能重新开始这一阶段）",
    "wrote   {file}  (stage {number}: {title})": "写出    {file}  （第 {number} 阶段：{title}）",
    "kept your version as {file}": "你的版本保存为 {file}",
    "solved  {file}  (stage {number}: tensorlab's own code)": "已解答  {file}  （第 {number} 阶段：tensorlab 自己的代码）",
    "wrote {file}": "写出 {file}",

    # -- cases: how an input and an answer are told ---------------------------------------------------------
    "{input}: PyTorch gives {expected}, yours {got}": "{input}：PyTorch 给出 {expected}，你的是 {got}",
    "raises {error}: {message}": "抛出 {error}: {message}",
    "a tensor of shape {shape}: {values}": "形状为 {shape} 的张量：{values}",
    "{values} (0-dim)": "{values}（0 维）",
    "same node": "同一个节点",
    "points at x": "指向 x",
    "edges": "边",
    "name": "名字",
    "order": "顺序",
    "after eval()": "eval() 之后",
    "after train()": "train() 之后",
    "eval() returns the model": "eval() 返回模型本身",
    "state_dict keys": "state_dict 的键",
    "p after step 1": "第 1 步后的 p",
    "p after step 3": "第 3 步后的 p",
    "p keeps its memory": "p 仍用原来的内存",
    "unbroadcast(grad, {shape}) with grad = arange of shape {grad_shape}":
        "unbroadcast(grad, {shape})，grad = 形状为 {grad_shape} 的 arange",
    "(a {op} b).grad_fn(grad) called directly, a: {a}, b: {b}, grad = 1, 2, 3, ...":
        "直接调用 (a {op} b).grad_fn(grad)，a: {a}，b: {b}，grad = 1, 2, 3, ...",
    "{program}, then backward with grad = 1, 2, 3, ...": "{program}，然后以 grad = 1, 2, 3, ... 做反向传播",
    "a * b, only b requires grad": "a * b，只有 b 需要梯度",
    "expand_back(grad, {shape}, dims={dims}, keepdim={keepdim}) with grad = 1, 2, 3, ... of shape {grad_shape}":
        "expand_back(grad, {shape}, dims={dims}, keepdim={keepdim})，grad = 1, 2, 3, ...，形状为 {grad_shape}",
    "mat{which}_grad for A: {a} @ B: {b}, grad = 1, 2, 3, ...":
        "A: {a} @ B: {b} 的 mat{which}_grad，grad = 1, 2, 3, ...",
    "mat{which}_grad for A: {a} @ B: {b}, {operand} column-major, grad = 1, 2, 3, ...":
        "A: {a} @ B: {b} 的 mat{which}_grad，{operand} 按列优先存储，grad = 1, 2, 3, ...",
    "x * c, c not requiring grad": "x * c，c 不需要梯度",
    "x * x: both edges lead to one node": "x * x：两条边通向同一个节点",
    "x * 2 and x.exp(): one AccumulateGrad for x": "x * 2 和 x.exp()：x 只有一个 AccumulateGrad",
    "names: x * 2, x.sum(), x.split(2)[1], x.exp()": "名字：x * 2、x.sum()、x.split(2)[1]、x.exp()",
    "a leaf x that requires grad": "需要梯度的叶子节点 x",
    "c, a leaf that does not require grad": "c，一个不需要梯度的叶子节点",
    "r, the second output of x.split(2)": "r，x.split(2) 的第二个输出",
    "a, b = grad_accumulator(x), grad_accumulator(x) for a leaf x":
        "对叶子节点 x 执行 a, b = grad_accumulator(x), grad_accumulator(x)",
    "a = x * 2 with a hook g -> g * 10; (a * a).sum().backward()":
        "a = x * 2，带一个钩子 g -> g * 10；(a * a).sum().backward()",
    " (as above)": "（同上）",
    "{program}, p = {p}, p.grad = {first}, then {second}, then {third}":
        "{program}，p = {p}，p.grad 依次为 {first}、{second}、{third}",

    # -- hints.py: stage 1, strides and views ------------------------------------------------------------------
    "column-major strides": "列优先的步长",
    "The strides come out in column-major (Fortran) order. In PyTorch the LAST dim moves fastest: its stride is 1, "
    "and each stride to its left is the product of the sizes to its right -- walk the shape from the right.":
        "步长排成了列优先（Fortran）的顺序。在 PyTorch 里变化最快的是最后一维：它的步长是 1，"
        "往左每一维的步长是它右边各维大小的乘积——从右往左走过形状。",
    "size-0 dims": "大小为 0 的维度",
    "A size-0 dim made the strides to its left 0. PyTorch counts a size-0 dim as size 1 when it multiplies the "
    "strides (max(size, 1)), so (2, 0, 3) has strides (3, 3, 1).":
        "一个大小为 0 的维度让它左边的步长都变成了 0。PyTorch 在连乘步长时把大小为 0 的维度当作 1"
        "（max(size, 1)），所以 (2, 0, 3) 的步长是 (3, 3, 1)。",
    "strides of size-1 dims": "大小为 1 的维度的步长",
    "A dim of size 1 is never stepped along, so its stride can be anything: PyTorch skips size-1 dims when it "
    "checks contiguity ((2, 1) with strides (1, 7) is contiguous).":
        "大小为 1 的维度从来不会沿着它走一步，所以它的步长可以是任何值：PyTorch 检查连续性时跳过大小为 1 的维度"
        "（形状 (2, 1)、步长 (1, 7) 是连续的）。",
    "offset forgotten": "忘了存储偏移",
    "The storage offset is missing: a view that starts at position 4 puts element (1, 2) at 4 + 1*3 + 2*1 = 9.":
        "少了存储偏移：一个从位置 4 开始的视图，元素 (1, 2) 在 4 + 1*3 + 2*1 = 9。",
    "span one short": "跨度少了 1",
    "The span is one short: the last element sits at offset + sum((n - 1) * stride), and the storage must hold "
    "it, so the span is that position + 1.":
        "跨度少了 1：最后一个元素位于 offset + sum((n - 1) * stride)，存储区必须容纳它，所以跨度是这个位置 + 1。",
    "view only of contiguous tensors": "只对连续张量做视图",
    "view() refused a tensor that is not contiguous as a whole but is contiguous inside each row (strides (8, "
    "1)): PyTorch cuts the old dims into chunks of mutually contiguous dims and only needs each new dim group to "
    "fall inside one chunk.":
        "view() 拒绝了一个整体不连续、但每一行内部连续的张量（步长 (8, 1)）：PyTorch 把旧的各维切成若干块，"
        "每块里的维度彼此连续，只要求新维度的每一组落在同一块里。",
    "view ignores strides": "视图忽略了步长",
    "A transposed matrix was flattened as a view: its rows are not evenly spaced in memory, so no single stride "
    "can walk them in order -- PyTorch says a view is impossible (None here; reshape then copies).":
        "一个转置过的矩阵被当作视图展平了：它的各行在内存里间隔不均匀，没有哪一个步长能按顺序走遍它们——"
        "PyTorch 认为视图不可能（这里返回 None；reshape 此时会复制）。",

    # -- hints.py: stage 2, broadcasting -------------------------------------------------------------------------
    "aligned from the left": "从左边对齐",
    "The shapes were lined up from the left. Broadcasting aligns them on the RIGHT: (5,) meets the last dim of "
    "(5, 1), so the result is (5, 5).":
        "形状是从左边对齐的。广播从右边对齐：(5,) 对上的是 (5, 1) 的最后一维，所以结果是 (5, 5)。",
    "sizes not checked": "没有检查大小",
    "Sizes 3 and 4 were combined by taking the larger one. Two sizes broadcast only when they are equal or one "
    "of them is 1; otherwise PyTorch raises RuntimeError ('The size of tensor a (3) must match the size of "
    "tensor b (4) at non-singleton dimension 0').":
        "大小 3 和 4 被合并成了较大的那个。两个大小只有在相等、或其中一个为 1 时才能广播；否则 PyTorch 抛出 "
        "RuntimeError（'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0'）。",
    "stretched dim keeps its stride": "被拉伸的维度保留了原步长",
    "A stretched size-1 dim kept its old stride, so the view walks off into other memory. expand() repeats the "
    "one element by giving that dim stride 0.":
        "一个被拉伸的大小为 1 的维度保留了原来的步长，于是视图走进了别的内存。expand() 让这一维的步长为 0，"
        "从而重复那一个元素。",
    "new leading dims not stride 0": "新的前导维度步长不是 0",
    "The new leading dim got a contiguous stride, as if the tensor were copied. A new dim that expand() adds "
    "reads the same memory again: stride 0.":
        "新的前导维度得到了连续张量的步长，好像张量被复制了一样。expand() 添加的新维度是把同一块内存再读一遍："
        "步长为 0。",
    "broadcast dims not summed": "没有对广播的维度求和",
    "The gradient still has the broadcast shape (3, 4). An input of shape (3, 1) was used 4 times along dim 1, "
    "so its gradient is the SUM over that dim, kept as size 1: grad.sum(1, keepdim=True).":
        "梯度还是广播后的形状 (3, 4)。形状为 (3, 1) 的输入沿第 1 维被用了 4 次，所以它的梯度是在这一维上的和，"
        "并保留为大小 1：grad.sum(1, keepdim=True)。",
    "leading dims not summed": "没有对前导维度求和",
    "The gradient kept the leading dim that broadcasting added. A (3,) input added to a (2, 3) one is used once "
    "per row: sum the gradient over the new leading dims.":
        "梯度保留了广播添加的前导维度。一个 (3,) 的输入加到 (2, 3) 的输入上，每一行都用了它一次："
        "在新的前导维度上对梯度求和。",
    "mean instead of sum": "用了平均而不是求和",
    "The gradient was averaged over the broadcast dims. Each use of a broadcast input adds its own contribution, "
    "so the gradients add up: sum, not mean.":
        "梯度在广播的维度上取了平均。被广播的输入每用一次就贡献一份，所以梯度是累加的：求和，而不是平均。",

    # -- hints_ops.py: stage 3, ops as Functions ---------------------------------------------------------------
    "gradient not summed back to the input's shape": "梯度没有加回输入的形状",
    "b has shape (3,) but was used once per row of the (2, 3) product, and your gradient for it kept the "
    "product's shape. A backward returns each gradient in its input's shape: sum it back over the broadcast dims "
    "with unbroadcast(..., ctx.shapes[1]). (The engine would repair it for .backward() -- PyTorch's does too -- "
    "but not for anyone who calls the node directly.)":
        "b 的形状是 (3,)，但在 (2, 3) 的乘积里每一行都用了它一次，而你给它的梯度保留了乘积的形状。backward "
        "返回的每个梯度都要是对应输入的形状：用 unbroadcast(..., ctx.shapes[1]) 在广播的维度上把它加回去。"
        "（对 .backward() 来说引擎会替你修正——PyTorch 的引擎也会——但直接调用这个节点的人就得不到修正。）",
    "the sign of a / b's gradient for b": "a / b 对 b 的梯度的符号",
    "b's gradient has the wrong sign. a / b falls as b grows (for positive a): d(a/b)/db = -a / b^2.":
        "b 的梯度符号反了。b 增大时 a / b 减小（a 为正时）：d(a/b)/db = -a / b^2。",
    "mean without the divide": "平均值忘了除法",
    "The gradient is 4 times too big -- it is the gradient of a sum. Each of the 4 elements averaged counts 1/4 "
    "in the mean: divide by ctx.count.":
        "梯度大了 4 倍——这是求和的梯度。参与平均的 4 个元素在平均值里各占 1/4：除以 ctx.count。",
    "one gradient instead of one per argument": "只返回了一个梯度，而不是每个参数一个",
    "Backward must return one gradient per argument of forward -- x, dim, keepdim, dtype -- with None for those "
    "that are not tensors: return (grad_x, None, None, None).":
        "backward 必须为 forward 的每个参数——x、dim、keepdim、dtype——各返回一个梯度，不是张量的参数返回 None："
        "return (grad_x, None, None, None)。",
    "the reduced dim not put back": "没有把归约掉的维度放回去",
    "The gradient came out transposed: a gradient of shape (3,) for a sum over dim 1 was expanded as a row. Put "
    "the reduced dim back first (unsqueeze(1): shape (3, 1)) so that each row gets its own value, then expand.":
        "梯度出来是转置的：对第 1 维求和时形状为 (3,) 的梯度被当作一行展开了。先把归约掉的维度放回去"
        "（unsqueeze(1)：形状 (3, 1)），让每一行得到自己的值，然后再展开。",
    "exp of the saved output": "对保存的输出又取了 exp",
    "exp's forward saved its OUTPUT e^x, not its input: multiply grad by the saved tensor itself (calling "
    ".exp() on it computes e^(e^x)).":
        "exp 的 forward 保存的是它的输出 e^x，而不是输入：直接用 grad 乘以保存的张量本身"
        "（对它再调用 .exp() 算出的是 e^(e^x)）。",
    "wrong transpose in A's gradient": "A 的梯度转置错了",
    "For C = A @ B, dL/dA = dL/dC @ B^T: the incoming gradient on the left, B transposed on the right -- the "
    "only order whose shapes give A's (n, m) from (n, p) and (m, p).":
        "对 C = A @ B，dL/dA = dL/dC @ B^T：传入的梯度在左边，转置的 B 在右边——只有这个顺序能由 (n, p) 和 "
        "(m, p) 得到 A 的形状 (n, m)。",
    "wrong transpose in B's gradient": "B 的梯度转置错了",
    "For C = A @ B, dL/dB = A^T @ dL/dC: A transposed on the left, the incoming gradient on the right -- check "
    "the shapes: (m, n) @ (n, p) gives B's (m, p).":
        "对 C = A @ B，dL/dB = A^T @ dL/dC：转置的 A 在左边，传入的梯度在右边——核对形状："
        "(m, n) @ (n, p) 得到 B 的形状 (m, p)。",

    # -- hints_graph.py: stage 4, the graph --------------------------------------------------------------------
    "an edge to an input that needs no gradient": "通向不需要梯度的输入的边",
    "c does not require grad, yet its edge leads to an AccumulateGrad -- backward would write c.grad. An input "
    "that needs no gradient gets the edge (None, 0): only a tensor that requires grad has somewhere for its "
    "gradient to go.":
        "c 不需要梯度，它的边却通向一个 AccumulateGrad——反向传播会写入 c.grad。不需要梯度的输入得到的边是 "
        "(None, 0)：只有需要梯度的张量，它的梯度才有地方可去。",
    "every edge's input_nr 0": "每条边的 input_nr 都是 0",
    "r is the SECOND output of split, yet its edge says input_nr 0, so its gradient would land on q. An edge is "
    "(the node that made the input, which of its outputs the input was): (t.grad_fn, t.output_nr) -- read it "
    "off the tensor, via gradient_edge.":
        "r 是 split 的第二个输出，它的边却写着 input_nr 0，于是它的梯度会落到 q 上。一条边是"
        "（产生这个输入的节点，这个输入是该节点的第几个输出）：(t.grad_fn, t.output_nr)——通过 gradient_edge "
        "从张量上读出来。",
    "an AccumulateGrad for a leaf that needs no gradient": "给不需要梯度的叶子节点建了 AccumulateGrad",
    "c does not require grad, so no gradient may go to it: gradient_edge gives None. Only a leaf that requires "
    "grad gets its AccumulateGrad.":
        "c 不需要梯度，所以不能有梯度流向它：gradient_edge 返回 None。只有需要梯度的叶子节点才有它的 "
        "AccumulateGrad。",
    "a new AccumulateGrad for every use of a leaf": "叶子节点每用一次就新建一个 AccumulateGrad",
    "Each call made a new AccumulateGrad, so two ops on x lead to two different nodes. A leaf has ONE "
    "accumulator while any graph uses it: keep it on the leaf (a weak reference, t._grad_accumulator, so the "
    "leaf does not keep it alive) and hand the same one out again.":
        "每次调用都新建了一个 AccumulateGrad，于是作用在 x 上的两个运算通向两个不同的节点。只要还有计算图在用，"
        "一个叶子节点就只有一个累加器：把它记在叶子节点上（一个弱引用 t._grad_accumulator，"
        "这样叶子节点不会让它一直存活），下次再交出同一个。",

    # -- hints_engine.py: stage 5, the engine ------------------------------------------------------------------
    "a node queued before all its gradients arrived": "节点在它的梯度全部到达之前就进了队列",
    "A node ran more than once: it was queued when its FIRST gradient arrived. a = x * 2 feeds three ops, so "
    "MulBackward0 must wait until all three have sent theirs -- count self.dependencies[receiver] down on every "
    "edge and push the receiver only when it reaches 0.":
        "有个节点运行了不止一次：它在第一个梯度到达时就进了队列。a = x * 2 喂给了三个运算，所以 MulBackward0 "
        "必须等到三个都送来梯度——每经过一条边就把 self.dependencies[receiver] 减一，只有减到 0 时才把接收者放进队列。",
    "incoming gradients not added up": "传入的梯度没有累加",
    "The nodes ran in the right order but x's gradient is wrong: when a second gradient arrives for the same "
    "slot of a buffer it must be ADDED to the first (_add_gradients), not put in its place -- a value used by "
    "several ops receives the sum of their gradients.":
        "节点的运行顺序是对的，但 x 的梯度不对：当第二个梯度送到缓冲里同一个位置时，必须把它加到第一个上"
        "（_add_gradients），而不是替换掉它——被多个运算用到的值，收到的是这些运算梯度的和。",
    "edges counted once per node": "每个节点只数了一条边",
    "x's gradient is wrong: x's AccumulateGrad ran after the first of its two gradients arrived (from the +), "
    "and the one from w * x came too late. Count EDGES into each node (x's accumulator has two), not nodes: add "
    "1 for every edge, also into a node you have seen before; walk on from a node only the first time you see "
    "it.":
        "x 的梯度不对：x 的 AccumulateGrad 在它的两个梯度中的第一个（来自 +）到达后就运行了，来自 w * x 的那个来得太晚。"
        "要数进入每个节点的边（x 的累加器有两条），而不是节点：每条边加 1，通向已经见过的节点的边也要加；"
        "只在第一次见到一个节点时才从它继续往下走。",
    "saved tensors kept without retain_graph": "没有 retain_graph 却保留了保存的张量",
    "A second backward through the same graph worked. PyTorch frees each node's saved tensors right after the "
    "node runs (so memory comes back during backward), unless retain_graph=True: call _release(node, "
    "self.observed) after _evaluate when not self.retain_graph.":
        "对同一个计算图的第二次反向传播居然成功了。PyTorch 在每个节点运行后立即释放它保存的张量"
        "（这样反向传播期间内存就能收回），除非 retain_graph=True：当 self.retain_graph 为假时，在 _evaluate "
        "之后调用 _release(node, self.observed)。",

    # -- hints_module.py: stage 6, Module ---------------------------------------------------------------------
    "a Parameter not registered by assignment": "赋值时没有注册 Parameter",
    "Some parameters are missing from named_parameters(): assigning a Parameter (self.w = ...) or a Module "
    "(self.fc = ...) must REGISTER it -- into self._parameters (register_parameter) or self._modules -- not "
    "store it as a plain attribute with object.__setattr__; only values that are none of these are plain "
    "attributes. (The same happens to a Parameter kept in a plain Python list: nothing registers it.)":
        "named_parameters() 里少了一些参数：给一个 Parameter（self.w = ...）或 Module（self.fc = ...）赋值时，"
        "必须注册它——放进 self._parameters（register_parameter）或 self._modules——而不是用 "
        "object.__setattr__ 存成普通属性；只有两者都不是的值才是普通属性。"
        "（放在普通 Python 列表里的 Parameter 也会这样：没有任何东西注册它。）",
    "the dot missing between prefix and name": "前缀和名字之间少了点号",
    "The names are the right ones run together: a parameter's name is its owner's dotted name, a DOT, and its "
    "own name -- '0.weight', '2.0.bias' -- with no dot only when the owner's name is '' (the module itself).":
        "名字本身是对的，只是连在了一起：参数的名字是它所属模块的带点名字、一个点号、再加它自己的名字——"
        "'0.weight'、'2.0.bias'——只有所属模块的名字是 ''（模块自身）时才没有点号。",
    "the submodule's name missing": "少了子模块的名字",
    "Every name lacks its submodule's: two layers both give 'weight', and a state_dict could not tell them "
    "apart. Walk named_modules(prefix=prefix) and put each owner's dotted name in front: '0.weight'.":
        "每个名字都缺了它所属子模块的名字：两个层都给出 'weight'，state_dict 就没法区分它们。遍历 "
        "named_modules(prefix=prefix)，把每个所属模块的带点名字放在前面：'0.weight'。",
    "a shared parameter listed twice": "共享的参数列出了两次",
    "A weight shared by two layers was listed twice, so an optimizer would step it twice. With "
    "remove_duplicate, remember every tensor already yielded (by id) and skip it the second time: PyTorch lists "
    "it once, under its first name.":
        "两个层共享的权重被列出了两次，于是优化器会把它更新两次。在 remove_duplicate 时，记住每个已经给出的张量"
        "（按 id），第二次遇到就跳过：PyTorch 只列一次，用它的第一个名字。",
    "train() not recursing into children": "train() 没有递归到子模块",
    "eval() switched the model itself but not its layers: the Dropout inside still trains. train(mode) must set "
    "self.training and call train(mode) on every child (which does the same for its own).":
        "eval() 只切换了模型本身，没有切换它的层：里面的 Dropout 仍在训练模式。train(mode) 必须设置 "
        "self.training，并对每个子模块调用 train(mode)（子模块再对它自己的子模块这样做）。",
    "non-persistent buffers saved": "保存了非持久缓冲区",
    "state_dict() saved 'scratch', a buffer registered with persistent=False: such a buffer is module state that "
    "is NOT saved -- skip the names in self._non_persistent_buffers_set.":
        "state_dict() 保存了 'scratch'，一个用 persistent=False 注册的缓冲区：这样的缓冲区是模块状态，但不保存——"
        "跳过 self._non_persistent_buffers_set 里的名字。",

    # -- hints_optim.py: stage 7, optimizers ------------------------------------------------------------------
    "Adam's bias correction off by one step": "Adam 的偏差校正差了一步",
    "Adam's first step should move every entry by about lr: at t = 1, m_hat = g and v_hat = g^2. Count the step "
    "BEFORE the bias corrections (state['step'].add_(1), then t = state['step'].item()), so that the first step "
    "uses 1 - beta1 ** 1 and 1 - beta2 ** 1 -- not t = 0 (a division by zero), not t + 1, and not no correction "
    "at all.":
        "Adam 的第一步应当让每个元素移动大约 lr：t = 1 时，m_hat = g，v_hat = g^2。在偏差校正之前计步"
        "（state['step'].add_(1)，然后 t = state['step'].item()），让第一步用 1 - beta1 ** 1 和 1 - beta2 ** 1——"
        "不是 t = 0（会除以零），不是 t + 1，也不是完全不校正。",
    "momentum buffer started at zero": "动量缓冲从零开始",
    "The first step was (1 - dampening) times too short: PyTorch starts the momentum buffer as a COPY OF THE "
    "FIRST GRADIENT (grad.detach().clone()), not as zeros; dampening applies from the second step on.":
        "第一步短了，只有应有的 (1 - dampening) 倍：PyTorch 的动量缓冲从第一个梯度的副本开始"
        "（grad.detach().clone()），而不是从零开始；dampening 从第二步起才起作用。",
    "weight decay added after momentum": "权重衰减加在了动量之后",
    "weight_decay * p was added to the step after the momentum buffer, so the buffer never saw it. Fold the "
    "decay into the gradient FIRST (grad = grad.add(p, alpha=weight_decay)): the buffer then averages the "
    "decayed gradients.":
        "weight_decay * p 是在动量缓冲之后才加到这一步里的，所以缓冲从来没见过它。先把衰减并入梯度"
        "（grad = grad.add(p, alpha=weight_decay)）：这样缓冲平均的就是衰减后的梯度。",
    "parameter not updated in place": "参数没有原地更新",
    "The parameter the optimizer holds did not change in place: p = p - lr * g only binds a new tensor to a "
    "local name (the model still has the old one), and p.data = ... gives it new memory. Update the tensor "
    "itself, in place -- p.add_(direction, alpha=-lr) -- as step() runs it under no_grad (an in-place op on a "
    "leaf that requires grad is allowed only there).":
        "优化器持有的参数没有被原地修改：p = p - lr * g 只是把一个新张量绑定到局部名字上（模型里还是旧的那个），"
        "而 p.data = ... 会给它换一块新内存。要原地更新张量本身——p.add_(direction, alpha=-lr)——"
        "step() 在 no_grad 下运行它（对需要梯度的叶子节点做原地操作，只有在那里才允许）。",
}
