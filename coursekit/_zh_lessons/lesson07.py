"""Lesson 07's own hints in Chinese (coursekit/lesson07.py), keyed by their English text."""

ZH = {
    "One edge per input, in order. A leaf that requires grad is reached through its AccumulateGrad node; an "
    "input that neither requires grad nor has a history has nothing to send a gradient to -- what can its edge "
    "hold?":
        "每个输入一条边，按顺序排列。需要求导的叶子节点要经由它的 AccumulateGrad 节点到达；"
        "一个既不需要求导、也没有历史的输入，没有可以接收梯度的东西——它的边里能放什么？",
    "One edge per input of the add, in order: each leads to the node that made that input -- the op's node for a "
    "computed tensor, the AccumulateGrad node for a leaf that requires grad.":
        "加法的每个输入一条边，按顺序排列：每条边通向产生那个输入的节点——计算出来的张量通向其运算的节点，"
        "需要求导的叶子节点通向 AccumulateGrad 节点。",
    "A multiplication has two inputs, so two edges -- even when both inputs are the same tensor. Where does an "
    "edge to a leaf that requires grad lead?":
        "乘法有两个输入，所以有两条边——即使两个输入是同一个张量。通向一个需要求导的叶子节点的边，指向哪里？",
    "sum has one input, so one edge, to the node that made that input. The edges of a node lead only one step "
    "back.":
        "sum 有一个输入，所以有一条边，通向产生那个输入的节点。一个节点的边只往回走一步。",
    "Does x * 2 require grad? A tensor made only from tensors that do not require grad has no grad_fn, so an "
    "edge to it has no node to lead to.":
        "x * 2 需要求导吗？只由不需要求导的张量算出的张量没有 grad_fn，所以通向它的边没有节点可指。",
    "detach() cuts the history: does w.detach() * 2 still have a grad_fn whose edges could be read? (The table "
    "asks for its edges only if it has one.)":
        "detach() 切断了历史：w.detach() * 2 还有可以读出边的 grad_fn "
        "吗？（只有它有 grad_fn 时，表格才问它的边。）",
    "You can read a graph's edges off the code that built it.": "现在你能从构建计算图的代码读出它的边了。",
    "a tuple of 6 answers, one per line of the table: each a tuple of names such as (\"MulBackward0\", None), or "
    "None":
        "一个含 6 个答案的元组，表格每行一个：每个是一个名字元组，"
        "如 (\"MulBackward0\", None)，或者 None",
    "Nothing uses loss -- but the engine starts from a node of its own, with one edge into the node of the "
    "tensor backward() was called on. Count the edges coming *in*.":
        "没有谁使用 loss——但引擎从它自己的一个节点出发，"
        "这个节点有一条边通向调用 backward() 的那个张量的节点。数一数*传入*的边。",
    "Count the uses of y: each operation that takes y as an input is one edge into y's node.":
        "数一数 y 被使用了几次：每个以 y 为输入的运算，都是一条通向 y 的节点的边。",
    "the MulBackward0 of h * h": "h * h 的 MulBackward0",
    "Count the edges coming *in* (the uses of the product), not the edges going out of it to h's node.":
        "数的是*传入*的边（乘积被使用的次数），不是从它出发、通向 h 的节点的边。",
    "h * h uses h twice (two edges) -- is that the only place y's formula uses h?":
        "h * h 使用了 h 两次（两条边）——y 的公式只在这里用到 h 吗？",
    "Count every use of h as an edge into ExpBackward0: an operation that uses h twice counts twice.":
        "把 h 的每一次使用都算作一条通向 ExpBackward0 的边：一个使用 h 两次的运算算两次。",
    "x's AccumulateGrad": "x 的 AccumulateGrad",
    "Count the uses of x itself; how often h is used does not matter to x's node.":
        "数一数 x 本身被使用的次数；h 被使用多少次与 x 的节点无关。",
    "x's AccumulateGrad in (x * x).sum()":
        "另一张计算图 (x * x).sum() 中 x 的 AccumulateGrad",
    "x * x is a multiplication with two inputs, and both are x: how many edges lead to x's AccumulateGrad? (It "
    "waits for a gradient along each, and runs once, on their sum.)":
        "x * x 是有两个输入的乘法，而两个输入都是 x："
        "有几条边通向 x 的 AccumulateGrad？（它沿每条边等待一个梯度，然后只运行一次，"
        "作用于它们的和。）",
    "That is the number each node's badge starts from in the GraphExplorer.":
        "这就是 GraphExplorer 中每个节点的徽标开始时的数字。",
    "a tuple of 6 ints, one per line of the table": "一个含 6 个整数的元组，表格每行一个",
    "The hook never ran, so nothing was collected: register it *before* loss.backward() -- a hook watches future "
    "backward passes.":
        "钩子从来没有运行，所以什么都没收集到：要在 loss.backward() *之前*注册它——"
        "钩子观察的是将来的反向传播。",
    "Register the hook on h (which requires grad because w does), not on x.":
        "把钩子注册在 h 上（h 需要求导，因为 w 需要），而不是 x 上。",
    "That is w.grad, the gradient of the leaf w. The gradient of h is what arrives at h's node before "
    "MulBackward0 multiplies it by x.":
        "这是 w.grad，叶子节点 w 的梯度。"
        "h 的梯度是在 MulBackward0 把它乘以 x 之前到达 h 的节点的那个梯度。",
    "w.grad is still None": "w.grad 仍然是 None",
    "Get h's gradient from the same loss.backward() that fills w.grad (a hook, or retain_grad), not from "
    "autograd.grad, which leaves .grad alone.":
        "从填充 w.grad 的同一次 loss.backward() 中取得 h 的梯度（用钩子，"
        "或 retain_grad），而不是用 autograd.grad——它不动 .grad。",
    "h is not a leaf, so h.grad stays None after backward: call h.retain_grad() before backward, or collect the "
    "gradient with h.register_hook(...). (Or did you forget `return`?)":
        "h 不是叶子节点，所以 backward 之后 h.grad 仍然是 None："
        "在 backward 之前调用 h.retain_grad()，"
        "或者用 h.register_hook(...) 收集梯度。（还是忘了写 `return`？）",
    "a function body that returns the gradient of the loss with respect to h": "一个函数体，返回损失对 h 的梯度",
    "A tensor hook sees the gradient of a non-leaf as it passes by.": "张量钩子能看到非叶子张量经过时的梯度。",
    "{loss} with {inner}": "{loss}，其中 {inner}",
    "{loss} with {inner}, c a constant": "{loss}，其中 {inner}，c 是常数",
    "it returned {kind}, not a list": "它返回了{kind}，而不是列表",
    "Collect the nodes in a list, in the order they would run, and return it.":
        "把节点按它们运行的顺序收集到一个列表里，然后返回它。",
    "the list holds strings": "列表里装的是字符串",
    "Return the nodes themselves (the grad_fn objects and AccumulateGrad nodes), not their names: a graph can "
    "have two nodes of one name, such as two MulBackward0.":
        "返回节点本身（grad_fn 对象和 AccumulateGrad 节点），而不是它们的名字："
        "一张图里可以有两个同名的节点，比如两个 MulBackward0。",
    "the list holds None": "列表里装着 None",
    "A None edge leads nowhere (an input that needs no gradient): skip it, it is not a node.":
        "值为 None 的边哪里也不通（一个不需要梯度的输入）：跳过它，它不是节点。",
    "the list holds tensors": "列表里装的是张量",
    "Return the graph's nodes: loss.grad_fn, then what you find along next_functions -- not tensors.":
        "返回图的节点：loss.grad_fn，以及沿 next_functions 找到的节点——而不是张量。",
    "{kind} ({node!r}) is not a node of this loss's graph":
        "{kind}（{node!r}）不是这个损失的计算图中的节点",
    "Start from loss.grad_fn and follow next_functions; every node you return must be reached that way.":
        "从 loss.grad_fn 出发，沿着 next_functions 走；"
        "你返回的每个节点都必须能这样到达。",
    "{node} appears {n} times": "{node} 出现了 {n} 次",
    "The engine runs each node once, when all its gradients have arrived. Did you add a node each time an edge "
    "reaches it? Count its edges down instead, and add it when the count reaches 0.":
        "引擎让每个节点只运行一次，在它所有的梯度都到齐之后。你是不是每当有一条边到达某个节点，"
        "就把它加一次？改为把它的边数往下减，减到 0 时再加入它。",
    "{node} is missing": "缺少 {node}",
    "AccumulateGrad nodes run too -- they are what puts the gradient into a leaf's .grad. Include every node you "
    "reach, the leaves' nodes as well.":
        "AccumulateGrad 节点也会运行——正是它们把梯度放进叶子节点的 .grad。"
        "把你到达的每个节点都包括进来，叶子张量的节点也不例外。",
    "{n} node(s) missing, e.g. {node}": "缺少 {n} 个节点，例如 {node}",
    "Follow every edge of a node (all of next_functions, not only the first), and visit each node that becomes "
    "ready.":
        "沿着一个节点的每条边走（next_functions 的全部，而不只是第一条），并访问每个变为就绪的节点。",
    "{node} comes first": "{node} 排在最前面",
    "That is the order reversed: backward starts at loss.grad_fn, where the gradient 1 enters, and ends at the "
    "leaves' AccumulateGrad nodes.":
        "这是反过来的顺序：反向传播从 loss.grad_fn 开始（梯度 1 从这里进入），"
        "到叶子节点的 AccumulateGrad 节点结束。",
    "{node} comes before {sender}, which sends it a gradient":
        "{node} 排在 {sender} 之前，而后者要给它送去梯度",
    "A node is ready only when every node with an edge into it has run: a node used twice must wait for both "
    "uses. Visiting in breadth-first or depth-first order is not enough -- count each node's incoming edges "
    "(dependency_counts), count them down as gradients are sent, and take a node only when its count reaches 0.":
        "只有当每个有边通向它的节点都运行过了，一个节点才就绪：被使用两次的节点必须等待两次使用。"
        "按广度优先或深度优先的顺序访问是不够的——先数出每个节点传入的边数（dependency_counts），"
        "每送出一个梯度就减一，只在计数降到 0 时才取出这个节点。",
    "a function body that returns the list of nodes in an order the engine could run them":
        "一个函数体，按引擎可以运行它们的顺序返回节点列表",
    "Start from loss.grad_fn; node.next_functions is a tuple of (node, input_nr) pairs whose node may be None -- "
    "skip those.":
        "从 loss.grad_fn 出发；node.next_functions 是由 (node, "
        "input_nr) 对组成的元组，其中的 node 可能是 None——跳过这些。",
    "A None edge (an input that needs no gradient) has no node behind it: skip it.":
        "值为 None 的边（一个不需要梯度的输入）背后没有节点：跳过它。",
    "That is the engine's schedule: count the edges in, then run what is ready.":
        "这就是引擎的调度：先数传入的边，再运行已就绪的节点。",
}
