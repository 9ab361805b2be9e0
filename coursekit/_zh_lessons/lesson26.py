"""Lesson 26's own hints in Chinese (coursekit/lesson26.py), keyed by their English text."""

ZH = {
    # -- exercise 1: a graph pass ---------------------------------------------------------------------
    "a Module whose forward calls self.linear(x).relu() and x.relu(), new = torch.sigmoid":
        "一个 forward 中调用 self.linear(x).relu() 和 x.relu() 的 Module，new = torch.sigmoid",
    "x -> x.exp().sum(1) (no relu at all), new = torch.tanh": "x -> x.exp().sum(1)（根本没有 relu），new = torch.tanh",
    "An nn.ReLU layer is a call_module node: its target is the submodule's path (a string such as '1'); look the "
    "module up in dict(gm.named_modules()) and test isinstance(..., nn.ReLU).":
        "nn.ReLU 层是一个 call_module 节点：它的 target 是子模块的路径（像 '1' 这样的字符串）；"
        "在 dict(gm.named_modules()) 里查出这个模块，再用 isinstance(..., nn.ReLU) 判断。",
    "x.relu() is a call_method node: its target is the method's name, the string 'relu'.":
        "x.relu() 是一个 call_method 节点：它的 target 是方法名，即字符串 'relu'。",
    "torch.relu(x) is a call_function node whose target is the function torch.relu itself.":
        "torch.relu(x) 是一个 call_function 节点，它的 target 就是函数 torch.relu 本身。",
    "F.relu is another function than torch.relu: a call_function node whose target is F.relu needs its own test.":
        "F.relu 和 torch.relu 是两个不同的函数：target 为 F.relu 的 call_function 节点需要单独判断。",
    "The new node is in, but the old relu node is still in the graph, read by nobody: remove it with "
    "gm.graph.erase_node(node) once its users read the new node.":
        "新节点已经加进去了，可旧的 relu 节点还留在图里，没有谁读它：等它的使用者都改读新节点之后，"
        "用 gm.graph.erase_node(node) 把它删掉。",
    "A relu is left unchanged. {how}": "有一个 relu 没有被替换。{how}",
    "Call the function you are given, `new` (here torch.{name}): gm.graph.call_function(new, ...).":
        "调用传给你的那个函数 `new`（这里是 torch.{name}）：gm.graph.call_function(new, ...)。",
    "The new node must take the relu's input, node.args[0], and only that (F.relu's node also has "
    "kwargs={'inplace': False}, which the new function does not take).":
        "新节点必须接收 relu 的输入 node.args[0]，而且只接收它（F.relu 的节点还带着 "
        "kwargs={'inplace': False}，新函数并不接受它）。",
    "F.relu's node has kwargs={'inplace': False}: give the new node the input alone, (node.args[0],), not the old "
    "node's kwargs.":
        "F.relu 的节点带有 kwargs={'inplace': False}：只把输入 (node.args[0],) 交给新节点，不要带上旧节点的 kwargs。",
    "A node can be erased only when nobody reads it: first node.replace_all_uses_with(new_node), then "
    "gm.graph.erase_node(node).":
        "只有没人读一个节点时，才能删掉它：先 node.replace_all_uses_with(new_node)，再 gm.graph.erase_node(node)。",
    "Insert the new node after the old one: `with gm.graph.inserting_after(node):`.":
        "把新节点插在旧节点之后：`with gm.graph.inserting_after(node):`。",
    "replace_relu on {label}": "replace_relu 在 {label} 上",
    "on {label}, the graph's nodes are {nodes}": "在 {label} 上，图的节点是 {nodes}",
    "Call gm.recompile() after changing the graph: it writes forward again from it.":
        "改完图之后要调用 gm.recompile()：它会根据图重新写出 forward。",
    "the rewritten GraphModule on {label}": "改写后的 GraphModule 在 {label} 上",
    "what the rewritten GraphModule computes": "改写后的 GraphModule 算出的结果",
    "on {label}, {found}": "在 {label} 上，{found}",
    "The graph is right, but forward was not written again from it: call gm.recompile() after the last change.":
        "图是对的，但 forward 没有根据它重新写出来：最后一处改动之后，要调用 gm.recompile()。",
    "replace_relu returned {returned}, not the GraphModule it was given":
        "replace_relu 返回了 {returned}，而不是传给它的那个 GraphModule",
    "A pass changes gm in place and returns it, so that passes can be chained: end with `return gm`.":
        "图变换原地修改 gm 并把它返回，这样几个变换才能串起来：最后写 `return gm`。",
    "the body of replace_relu (every relu node becomes a call of new; recompile; return gm)":
        "函数 replace_relu 的函数体（每个 relu 节点都变成对 new 的调用；重新编译；返回 gm）",
    "`replace_relu` should be a function (gm, new) -> gm; it is {kind}.":
        "`replace_relu` 应当是一个函数 (gm, new) -> gm；它却是{kind}。",
    "`{name}` {found}.": "`{name}` {found}。",
    "A pass is a loop over graph.nodes: find, insert, rewire, erase -- then lint and recompile.":
        "图变换就是一个遍历 graph.nodes 的循环：查找、插入、改接、删除——然后 lint，再 recompile。",
    # -- exercise 2: an Interpreter that records shapes -----------------------------------------------
    "a Module with .relu() and .sum(1, keepdim=True)": "一个用到 .relu() 和 .sum(1, keepdim=True) 的 Module",
    "a Module that reads x.shape[0] and x.size(1)": "一个读取 x.shape[0] 和 x.size(1) 的 Module",
    "Use the node's name as the key: self.shapes[n.name] (a Node prints as its name, but is not a string).":
        "用节点的名字作键：self.shapes[n.name]（Node 打印出来是它的名字，但它不是字符串）。",
    "Only tensor values have a shape to record: the value of {name} is not a tensor (test "
    "isinstance(result, torch.Tensor)).":
        "只有张量值才有形状可记：{name} 的值不是张量（用 isinstance(result, torch.Tensor) 判断一下）。",
    "The shapes of some nodes are missing ({names}: {kinds}): override run_node, which every node passes through, "
    "rather than one kind's method.":
        "有些节点的形状没记下来（{names}：{kinds}）：要重写每个节点都会经过的 run_node，而不是某一类节点的方法。",
    "Record tuple(result.shape) of the value run_node computed for that node.":
        "记下 run_node 为那个节点算出的值的 tuple(result.shape)。",
    "Make it as the lesson does: `ShapeRecorder(gm)`, calling super().__init__(module) first.":
        "像课里那样创建它：`ShapeRecorder(gm)`，并先调用 super().__init__(module)。",
    "making the recorder": "创建记录器时",
    "Write `class ShapeRecorder(fx.Interpreter):` and override run_node.":
        "写成 `class ShapeRecorder(fx.Interpreter):`，并重写 run_node。",
    "Not every node's value is a tensor (x.shape gives a torch.Size, x.size(1) an int): record a shape only when "
    "isinstance(result, torch.Tensor).":
        "并不是每个节点的值都是张量（x.shape 得到一个 torch.Size，x.size(1) 得到一个整数）："
        "只在 isinstance(result, torch.Tensor) 时记录形状。",
    "run_node must return the node's value: the nodes after it read it from there.":
        "run_node 必须返回节点的值：后面的节点要从那里读取它。",
    "Call super().run_node(n) to compute the value, record, then return it.":
        "调用 super().run_node(n) 算出值，记录下来，再把它返回。",
    "ShapeRecorder(gm).run(x) on {label}": "ShapeRecorder(gm).run(x) 在 {label} 上",
    "what run(x) returned": "run(x) 返回的结果",
    "run_node must return the value super().run_node(n) computed, unchanged.":
        "run_node 必须原样返回 super().run_node(n) 算出的值。",
    "the recorder's `shapes` is {kind}, not a dict": "记录器的 `shapes` 是{kind}，不是字典",
    "Make `self.shapes = {}` in __init__ and fill it in run_node.": "在 __init__ 里写 `self.shapes = {}`，再在 run_node 里填它。",
    "on {label}, shapes is {shapes}": "在 {label} 上，shapes 是 {shapes}",
    "the body of run_node (compute the node's value, record its shape if it is a tensor, return it)":
        "方法 run_node 的函数体（算出节点的值，如果是张量就记下它的形状，然后返回它）",
    "run_node sees every node -- the shape propagation torch.fx ships (ShapeProp) works this way.":
        "run_node 能看到每一个节点——torch.fx 自带的形状传播（ShapeProp）就是这样工作的。",
    # -- exercise 3: predictions ----------------------------------------------------------------------
    "the op of the node recorded for {code}": "为 {code} 记录的节点的 op",
    "A submodule that tracing keeps whole (tensorlab.nn's layers are leaves) is called by its path. The six kinds: "
    "{kinds}.":
        "追踪时被整个保留下来的子模块（tensorlab.nn 的层都是叶子模块）是按它的路径来调用的。六种节点：{kinds}。",
    "Reading a parameter is not a call: which kind of node fetches an attribute of the module?":
        "读取参数不是调用：哪一种节点负责取出模块的属性？",
    "A function called through its first argument, with a dot: which kind names it by a string?":
        "通过第一个参数加一个点来调用的函数：哪一种节点用字符串来称呼它？",
    "Count one node per input, per attribute read, per call (the * too), and the output -- print(gm.graph) to check.":
        "每个输入、每次属性读取、每次调用（* 也算）各一个节点，再加上输出——用 print(gm.graph) 核对一下。",
    "a tuple of 4 predictions, e.g. ('placeholder', 'output', 'call_function', 3)":
        "一个含 4 个预测的元组，例如 ('placeholder', 'output', 'call_function', 3)",
    "You can read a graph's nodes off the code that made them.": "现在你能从生成图的代码里直接读出图的节点了。",
}
