"""Lesson 12's own hints in Chinese (coursekit/lesson12.py), keyed by their English text."""

ZH = {
    # -- exercise 1: predict names and counts ------------------------------------------------------
    "Write the keys as a list or tuple of strings.": "把键写成由字符串组成的列表或元组。",
    "ReLU has nothing to save: no parameters, no buffers, so no keys.": "ReLU 没有什么要保存：没有参数，没有缓冲区，所以没有键。",
    "Flatten is head.0 and has no parameters; the Linear is head.1 -- a Sequential numbers its children by "
    "position, whether they have parameters or not.":
        "Flatten 是 head.0，它没有参数；Linear 是 head.1——Sequential 按位置给子模块编号，不管它们有没有参数。",
    "BatchNorm's running statistics are buffers, and persistent buffers are saved in state_dict.":
        "BatchNorm 的滑动统计量是缓冲区，而持久的缓冲区会存进 state_dict。",
    "BatchNorm keeps a third buffer, num_batches_tracked (a 0-d int64 counter), saved too.":
        "BatchNorm 还有第三个缓冲区 num_batches_tracked（一个 0 维 int64 计数器），它也会被保存。",
    "The right keys, in another order: children in the order they were registered, each with its parameters "
    "first and then its buffers.":
        "键对了，顺序不对：子模块按注册的顺序排列，每个子模块先列参数，再列缓冲区。",
    "{n} key(s) missing": "缺了 {n} 个键",
    "not keys: {keys}": "不是键：{keys}",
    "{problems}. Each child's keys are its name, a dot and its own parameter or buffer names.":
        "{problems}。每个子模块的键是它的名字、一个点，再加上它自己的参数名或缓冲区名。",
    "parameters() yields only Parameters: BatchNorm's three buffers are in state_dict, not here.":
        "parameters() 只产出 Parameter：BatchNorm 的三个缓冲区在 state_dict 里，不在这里。",
    "Count the Parameter tensors, not their elements: which layers have a weight and a bias? (Buffers are not "
    "parameters.)":
        "数的是 Parameter 张量的个数，不是元素个数：哪些层有 weight 和 bias？（缓冲区不是参数。）",
    "modules() starts with the model itself.": "modules() 从模型自身开始。",
    "modules() is recursive and starts with the model itself: head's own two children count too.":
        "modules() 是递归的，并且从模型自身开始：head 自己的两个子模块也要算上。",
    "modules() yields the model itself, then every module inside it, at any depth: count them.":
        "modules() 先产出模型自身，再产出它里面任意深度的每一个模块：数一数。",
    "A Linear weight is [out_features, in_features]: one row per output.":
        "Linear 的权重是 [out_features, in_features]：每个输出一行。",
    "A Linear weight is [out_features, in_features]; in_features is what Flatten makes of the conv's output: "
    "channels x height x width after a 3x3 convolution of the 8x8 input.":
        "Linear 的权重是 [out_features, in_features]；in_features 是 Flatten 把卷积输出展平后的长度："
        "8x8 的输入经过 3x3 卷积之后的 通道数 x 高 x 宽。",
    "a tuple of 4 predictions: a list of keys, two numbers and a shape": "一个含 4 个预测的元组：一个键的列表、两个数和一个形状",
    "A Sequential names its children by position (or by the OrderedDict's keys); state_dict saves parameters and "
    "buffers under those names.":
        "Sequential 按位置（或按 OrderedDict 的键）给子模块命名；state_dict 就用这些名字保存参数和缓冲区。",
    # -- exercise 2: a registered list of layers ---------------------------------------------------
    "{label}.parameters() is empty: `{attr}` is a Python {kind}": "{label}.parameters() 是空的：`{attr}` 是一个 Python {kind}",
    "Module.__setattr__ does not look inside Python lists, so the layers are never registered: an optimizer would "
    "train nothing. nn has a container for a list of layers that registers each of them.":
        "Module.__setattr__ 不会往 Python 列表里面看，所以这些层从未被注册：优化器什么也训练不到。"
        "nn 里有一个存放层列表的容器，会把每一层都注册上。",
    "{label}.parameters() is empty": "{label}.parameters() 是空的",
    "Create the Linear layers in __init__ and register them.": "在 __init__ 中创建 Linear 层，并注册它们。",
    "{label} saves {keys}..., not layers.0.weight ...": "{label} 保存的是 {keys}...，而不是 layers.0.weight ...",
    "Keep the layers in `self.layers`, so that their keys start with `layers.`.":
        "把各层放在 `self.layers` 里，这样它们的键才以 `layers.` 开头。",
    "{label}'s state_dict keys are {keys}": "{label} 的 state_dict 键是 {keys}",
    "Only the Linear layers go in self.layers (so they are layers.0, layers.1, ...); apply ReLU in forward with "
    "torch.relu.":
        "self.layers 里只放 Linear 层（这样它们才是 layers.0、layers.1……）；ReLU 在 forward 中用 torch.relu 施加。",
    "{label}'s state_dict keys are {keys}, expected {expected}": "{label} 的 state_dict 键是 {keys}，应当是 {expected}",
    "{label}: {name} has shape {shape}, expected {expected}": "{label}：{name} 的形状是 {shape}，应当是 {expected}",
    "nn.Linear(in_features, out_features): layer i maps sizes[i] features to sizes[i + 1].":
        "nn.Linear(in_features, out_features)：第 i 层把 sizes[i] 个特征映射为 sizes[i + 1] 个。",
    "No ReLU after the last layer: the output must be able to be negative.": "最后一层之后不加 ReLU：输出必须能取负值。",
    "Apply torch.relu between the layers.": "在层与层之间施加 torch.relu。",
    "a class Stack": "一个 Stack 类",
    "`{name}` should be a class (a subclass of nn.Module); it is {kind}.":
        "`{name}` 应当是一个类（nn.Module 的子类）；它却是{kind}。",
    "nn.ModuleList registers every layer it holds: parameters(), state_dict() and to() see them.":
        "nn.ModuleList 会注册它持有的每一层：parameters()、state_dict() 和 to() 都看得见它们。",
    # -- exercise 3: load an old checkpoint into the new model --------------------------------------
    "The ReLU has a position in the Sequential too, though no parameters: count the positions of the two Linears.":
        "ReLU 虽然没有参数，但在 Sequential 里也占一个位置：数一数两个 Linear 的位置。",
    "Every key must be renamed: the Sequential names its layers by position (compare with "
    "new_model.state_dict().keys()).":
        "每个键都要改名：Sequential 按位置给各层命名（和 new_model.state_dict().keys() 对比一下）。",
    "A value went under the wrong layer's name: match the layers by their shapes (hidden maps 4 -> 8, out maps "
    "8 -> 2).":
        "有个值放到了错误的层的名字下：按形状把层对应起来（hidden 把 4 映射到 8，out 把 8 映射到 2）。",
    "Keep every entry of the old state -- weights and biases -- under its new name.":
        "旧状态的每一项——权重和偏置——都要保留，放在它的新名字下。",
    "Only the names change: each value goes under its new key.": "只有名字变了：每个值放到它的新键下。",
    "a function body that returns a new dict with the keys renamed": "一个函数体，返回一个键已改名的新字典",
    "Loop over state.items() and build a new dict: {new_key: value}.":
        "遍历 state.items()，构建一个新字典：{new_key: value}。",
    "`convert` changed its input in place: {change}.": "`convert` 原地修改了输入：{change}。",
    "Leave `state` as it is (the old model's checkpoint) and build a new dict with the new keys.":
        "保持 `state` 原样（它是旧模型的检查点），用新的键构建一个新字典。",
    "`convert` returned None.": "`convert` 返回了 None。",
    "Did you forget `return`? (Changing the keys of a dict while looping over it does not work either.)":
        "是不是忘了写 `return`？（一边遍历字典一边改它的键，也行不通。）",
    "`convert` returned {kind}; load_state_dict needs a dict of tensors.":
        "`convert` 返回了{kind}；load_state_dict 需要一个由张量组成的字典。",
    "new_model.load_state_dict(convert(state)) raised RuntimeError: {error}":
        "new_model.load_state_dict(convert(state)) 抛出了 RuntimeError: {error}",
    "`convert` works on {tensorlab} but not on {library}: {found}":
        "`convert` 在 {tensorlab} 上可行，在 {library} 上却不行：{found}",
    "PyTorch is the reference (please report the difference).": "以 PyTorch 为准（请报告这处差异）。",
    "{found} (after loading, it should compute what old_model(x) computes).":
        "{found}（加载之后，它应当算出和 old_model(x) 一样的结果）。",
    "Did a value go under the wrong layer's name?": "是不是有个值放到了错误的层的名字下？",
    "load_state_dict matches tensors by name: rename the keys and any checkpoint loads.":
        "load_state_dict 按名字匹配张量：把键改好名，什么检查点都能加载。",
    # -- exercise 4: one body, a head per task -----------------------------------------------------
    "`{attr}` is a Python {kind}: Module.__setattr__ does not look inside it, so its layers are never registered. "
    "nn has a container for a dict of layers that registers each one under its key.":
        "`{attr}` 是一个 Python {kind}：Module.__setattr__ 不会往里面看，所以其中的层从未被注册。"
        "nn 里有一个存放层字典的容器，会把每一层注册在它的键下。",
    "`{attr}` is a Python {kind}: Module.__setattr__ does not look inside it, so its Parameters are never "
    "registered. nn has a container for a dict of Parameters that registers each one under its key.":
        "`{attr}` 是一个 Python {kind}：Module.__setattr__ 不会往里面看，所以其中的 Parameter 从未被注册。"
        "nn 里有一个存放 Parameter 字典的容器，会把每一个注册在它的键下。",
    "The right names in another order: build each container in the order of `tasks`.":
        "名字对了，顺序不对：按 `tasks` 的顺序构建每个容器。",
    "No parameter's name starts with `{attr}.`: keep that part in `self.{attr}`, as the exercise says.":
        "没有哪个参数的名字以 `{attr}.` 开头：按练习的要求，把这部分放在 `self.{attr}` 里。",
    "Keyed by the task's name, not by position: a dict container gives `heads.<task>.weight`, a list "
    "`heads.0.weight`.":
        "以任务名为键，而不是按位置：字典容器得到的是 `heads.<task>.weight`，列表得到的是 `heads.0.weight`。",
    "Names that should not be there: {names}.": "不该出现的名字：{names}。",
    "{label}.named_parameters() gives {names}": "{label}.named_parameters() 给出的是 {names}",
    "{label}.state_dict() has the keys {keys}, PyTorch's reference {expected}":
        "{label}.state_dict() 的键是 {keys}，PyTorch 参考答案的是 {expected}",
    "Keep only the body, the heads and the temperatures in the model: no extra buffers.":
        "模型里只放主体、各个输出头和各个温度：不要多余的缓冲区。",
    "A temperature is one scalar: nn.Parameter(torch.ones(())), shape ().":
        "温度是一个标量：nn.Parameter(torch.ones(()))，形状为 ()。",
    "nn.Linear(in_features, out_features): the body maps in_features to hidden, each head hidden to its task's "
    "number of outputs.":
        "nn.Linear(in_features, out_features)：主体把 in_features 映射到 hidden，每个输出头把 hidden 映射到它的任务的输出个数。",
    "{label}: {name} starts at {value}": "{label}：{name} 的初始值是 {value}",
    "Each temperature starts at 1.": "每个温度的初始值都是 1。",
    "forward(x, task) picks the task's head and temperature by its name.": "forward(x, task) 按任务名选出该任务的输出头和温度。",
    "forward(x, task) = heads[task](relu(body(x))) / temperature[task].":
        "forward(x, task) = heads[task](relu(body(x))) / temperature[task]。",
    "Divide the head's output by the task's temperature.": "把输出头的输出除以该任务的温度。",
    "Apply torch.relu to the body's output before the head.": "在输出头之前，对主体的输出施加 torch.relu。",
    "Divide by the temperature; do not multiply.": "除以温度，不是乘。",
    "code in MultiTask's __init__ (body, heads, temperature) and forward":
        "MultiTask 的 __init__（body、heads、temperature）和 forward 中的代码",
    "nn.ModuleDict and nn.ParameterDict register what they hold under its key: the task names are in "
    "named_parameters(), state_dict() and every checkpoint.":
        "nn.ModuleDict 和 nn.ParameterDict 把它们持有的东西注册在各自的键下：任务名出现在 named_parameters()、"
        "state_dict() 和每一个检查点里。",
    "{found}.": "{found}。",
}
