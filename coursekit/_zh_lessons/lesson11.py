"""Lesson 11's own hints in Chinese (coursekit/lesson11.py), keyed by their English text."""

ZH = {
    # -- exercise 1: count the parameters ----------------------------------------------------------
    "running_mean and running_var (and num_batches_tracked) are *buffers*: saved in state_dict, but not "
    "parameters. BatchNorm learns only weight and bias, one of each per channel.":
        "running_mean 和 running_var（以及 num_batches_tracked）是*缓冲区*：会存进 state_dict，但不是参数。"
        "BatchNorm 只学习 weight 和 bias，每个通道各一个。",
    "BatchNorm2d(8) learns a scale (weight) and a shift (bias) per channel.":
        "BatchNorm2d(8) 为每个通道学习一个缩放（weight）和一个平移（bias）。",
    "The weight has one 3x3 kernel per (output channel, input channel) pair: [out_channels, in_channels, 3, 3].":
        "每一对（输出通道，输入通道）都有一个 3x3 卷积核：[out_channels, in_channels, 3, 3]。",
    "A Conv2d weight is [out_channels, in_channels, k, k], plus one bias per output channel.":
        "Conv2d 的权重是 [out_channels, in_channels, k, k]，另外每个输出通道还有一个偏置。",
    "Count weight and bias: weight is [out_features, in_features], and there is one bias per output feature.":
        "weight 和 bias 都要数：weight 是 [out_features, in_features]，每个输出特征还有一个偏置。",
    "bias=False registers no bias at all (bias is None): only the weight is left.":
        "bias=False 根本不注册偏置（bias 是 None）：只剩下权重。",
    "parameters() recurses into every registered submodule: add up each Linear's weight and bias; ReLU adds "
    "nothing.":
        "parameters() 会递归进入每个已注册的子模块：把每个 Linear 的 weight 和 bias 加起来；ReLU 什么也不加。",
    "Pooling takes the largest value of each window: is there anything in that to learn?":
        "池化取每个窗口里的最大值：这里面有什么需要学习的吗？",
    "a tuple of 6 numbers of parameters, one per line of the table": "一个含 6 个参数个数的元组，表格每行一个",
    "parameters() walks every registered submodule; buffers and layers without weights add nothing.":
        "parameters() 会走遍每个已注册的子模块；缓冲区和没有权重的层不计入。",
    # -- exercise 2: which names are registered ----------------------------------------------------
    "Write the names as a list or tuple of strings.": "把名字写成由字符串组成的列表或元组。",
    "offset is a plain tensor: requires_grad=True does not make it a Parameter, so Module.__setattr__ stores it "
    "as an ordinary attribute.":
        "offset 是一个普通张量：requires_grad=True 并不会让它成为 Parameter，"
        "所以 Module.__setattr__ 把它当作普通属性存起来。",
    "heads is a Python list: __setattr__ does not look inside lists, so its Linears are never registered (lesson "
    "12's nn.ModuleList is the fix).":
        "heads 是一个 Python 列表：__setattr__ 不会往列表里面看，所以其中的 Linear 从未被注册"
        "（第 12 课的 nn.ModuleList 可以解决）。",
    "persistent=False is exactly what keeps a buffer out of state_dict.":
        "persistent=False 的作用正是让缓冲区不进入 state_dict。",
    "state_dict() saves the parameters *and* the persistent buffers.": "state_dict() 保存参数，*以及*持久的缓冲区。",
    "persistent=False keeps a buffer out of state_dict(), not out of buffers().":
        "persistent=False 让缓冲区不进入 state_dict()，但它仍在 buffers() 里。",
    "The right names, in another order: a module lists its *own* entries first (in the order they were "
    "registered), then each child's, prefixed with the child's name.":
        "名字对了，顺序不对：模块先列出*自己的*条目（按注册的顺序），再列出每个子模块的条目，前面加上子模块的名字。",
    "{n} registered name(s) missing": "缺了 {n} 个已注册的名字",
    "not registered: {names}": "未注册：{names}",
    "{problems}. Go through Probe.__init__: which attributes are Parameters, Modules or buffers, and what are "
    "their own parameters called?":
        "{problems}。逐行看 Probe.__init__：哪些属性是 Parameter、Module 或缓冲区，它们自己的参数又叫什么？",
    "The two Linears in the list are not registered, so they are not children.":
        "列表里的两个 Linear 没有注册，所以它们不是子模块。",
    "children() yields the registered submodules (the values of _modules), not parameters or buffers.":
        "children() 产出的是已注册的子模块（_modules 的值），不是参数或缓冲区。",
    "a tuple of 4 predictions: three lists of names, then a number": "一个含 4 个预测的元组：三个名字列表，然后是一个数",
    "Only Parameters, Modules and register_buffer are registered -- and only what is registered is found, saved, "
    "moved and trained.":
        "只有 Parameter、Module 和 register_buffer 会被注册——而只有注册了的东西才会被找到、保存、移动和训练。",
    # -- exercise 3: freeze all but the last layer -------------------------------------------------
    "requires_grad was set as an attribute of a layer, and the parameters did not change":
        "requires_grad 被设成了某一层的属性，参数本身并没有改变",
    "`layer.requires_grad = False` just creates an ordinary attribute on the Module. Set it on each parameter, or "
    "call `layer.requires_grad_(False)` (with the underscore), which does that for you.":
        "`layer.requires_grad = False` 只是在 Module 上新建了一个普通属性。要在每个参数上设置它，"
        "或者调用 `layer.requires_grad_(False)`（带下划线），它会替你这么做。",
    "every parameter still has requires_grad=True (the model was switched to eval mode)":
        "每个参数仍然是 requires_grad=True（模型被切换到了评估模式）",
    "eval() changes how Dropout and BatchNorm behave; it does not stop gradients. Freezing means "
    "requires_grad=False on the parameters.":
        "eval() 改变的是 Dropout 和 BatchNorm 的行为；它并不阻止梯度。冻结的意思是参数上的 requires_grad=False。",
    "every parameter still has requires_grad=True: nothing was frozen": "每个参数仍然是 requires_grad=True：什么都没冻结",
    "Change the Parameters themselves (p.requires_grad_(False)) -- not a copy such as p.detach() or p.clone(), "
    "which are new tensors.":
        "要修改 Parameter 本身（p.requires_grad_(False)）——而不是 p.detach() 或 p.clone() 这样的副本，它们是新的张量。",
    "every parameter is frozen, the last layer's too": "每个参数都被冻结了，最后一层的也是",
    "The last layer must stay trainable: after freezing everything, unfreeze model[-1]'s parameters.":
        "最后一层必须保持可训练：冻结全部之后，再解冻 model[-1] 的参数。",
    "it is the other way round: the last layer is frozen and the others are trainable":
        "正好反了：最后一层被冻结了，其他层却可训练",
    "model[-1] is the layer to keep training; every earlier parameter gets requires_grad=False.":
        "model[-1] 是要继续训练的那一层；之前的每个参数都设为 requires_grad=False。",
    "{names} is still frozen": "{names} 仍被冻结",
    "{names} are still frozen": "{names} 仍被冻结",
    "{names} is still trainable": "{names} 仍可训练",
    "{names} are still trainable": "{names} 仍可训练",
    "Every parameter of the last layer stays trainable, its bias too.": "最后一层的每个参数都保持可训练，它的偏置也是。",
    "Freeze *every* parameter of the earlier layers: biases too, and BatchNorm's weight and bias.":
        "冻结前面各层的*每一个*参数：偏置也要，还有 BatchNorm 的 weight 和 bias。",
    "a function body that freezes every parameter of `model` except those of `model[-1]`":
        "一个函数体，冻结 `model` 中除 `model[-1]` 之外的所有参数",
    "model[-1] is the last layer of a Sequential; model.parameters() and model[-1].parameters() give the tensors "
    "to change.":
        "model[-1] 是 Sequential 的最后一层；model.parameters() 和 model[-1].parameters() 给出要修改的张量。",
    "`{name}` on {case}: {found}.": "`{name}` 在 {case} 上：{found}。",
    "An optimizer now changes only the last layer: the frozen parameters get no .grad.":
        "现在优化器只会改变最后一层：被冻结的参数得不到 .grad。",
    # -- exercise 4: a module with a buffer and a parameter ----------------------------------------
    "mean is a parameter": "mean 是一个参数",
    "parameters() hands mean to the optimizer, which would change it at every step. A tensor that belongs to the "
    "module but is not learned is a *buffer*: register_buffer.":
        "parameters() 会把 mean 交给优化器，优化器每一步都会改变它。属于模块、但不学习的张量是*缓冲区*：register_buffer。",
    "gain is a buffer, not a parameter": "gain 是缓冲区，不是参数",
    "Buffers are not learned: an optimizer built from parameters() would never see gain. Wrap it in nn.Parameter.":
        "缓冲区不参与学习：用 parameters() 建立的优化器永远看不到 gain。用 nn.Parameter 把它包起来。",
    "gain is not in parameters(): it is a plain tensor attribute": "gain 不在 parameters() 里：它是一个普通的张量属性",
    "requires_grad=True does not register a tensor; Module.__setattr__ registers an nn.Parameter (or use "
    "register_parameter).":
        "requires_grad=True 并不会注册张量；Module.__setattr__ 注册的是 nn.Parameter（或者用 register_parameter）。",
    "Standardize has no parameter named gain": "Standardize 没有名为 gain 的参数",
    "parameters() gives {names}; make gain an nn.Parameter of `self`.":
        "parameters() 给出的是 {names}；让 gain 成为 `self` 的一个 nn.Parameter。",
    "nothing": "（空）",
    "mean is not in buffers(): it is a plain tensor attribute": "mean 不在 buffers() 里：它是一个普通的张量属性",
    "self.mean = tensor keeps it out of buffers() and state_dict(), and .to() leaves it behind. "
    "register_buffer(name, tensor) registers it.":
        "self.mean = tensor 会让它不进入 buffers() 和 state_dict()，.to() 也会把它落下。"
        "register_buffer(name, tensor) 才会注册它。",
    "Standardize has no buffer named mean": "Standardize 没有名为 mean 的缓冲区",
    "Register the given mean with register_buffer.": "用 register_buffer 注册传入的 mean。",
    "it also registers {names}": "它还注册了 {names}",
    "Standardize holds exactly two tensors: the buffer mean and the parameter gain.":
        "Standardize 恰好持有两个张量：缓冲区 mean 和参数 gain。",
    "state_dict() has the keys {keys}": "state_dict() 的键是 {keys}",
    "persistent=False keeps a buffer out of state_dict(): a saved model would lose its mean. Register mean as an "
    "ordinary (persistent) buffer.":
        "persistent=False 让缓冲区不进入 state_dict()：保存下来的模型会丢掉它的 mean。把 mean 注册成普通的（持久的）缓冲区。",
    "gain has shape {shape}, not the shape of mean, {mean_shape}": "gain 的形状是 {shape}，而不是 mean 的形状 {mean_shape}",
    "One gain per feature: make it like mean.": "每个特征一个 gain：让它和 mean 一样。",
    "gain does not start at ones": "gain 的初始值不是全 1",
    "At first the module should only shift: (x - mean) * 1. torch.ones_like(mean) has the right shape and dtype.":
        "一开始模块应当只做平移：(x - mean) * 1。torch.ones_like(mean) 的形状和数据类型都正合适。",
    "the buffer mean does not hold the given values": "缓冲区 mean 存的不是传入的值",
    "Register the tensor passed to __init__.": "注册传给 __init__ 的那个张量。",
    "forward computes (x - self.mean) * self.gain for x of shape (batch, n): broadcasting lines the (n,) tensors "
    "up with x's last dimension.":
        "forward 对形状为 (batch, n) 的 x 计算 (x - self.mean) * self.gain：广播会把形状为 (n,) 的张量与 x 的最后一维对齐。",
    "the output": "输出",
    "{found} (when gain is not all ones)": "{found}（当 gain 不全为 1 时）",
    "forward must use self.gain -- the registered Parameter -- so that training changes what the module "
    "computes.":
        "forward 必须用 self.gain——那个已注册的 Parameter——这样训练才会改变模块计算的结果。",
    "Subtract the mean first, then scale.": "先减去均值，再缩放。",
    "forward returns (x - self.mean) * self.gain.": "forward 返回 (x - self.mean) * self.gain。",
    "the output does not require grad": "输出不需要梯度（requires_grad 为 False）",
    "forward must use self.gain itself, not self.gain.data or a detached copy: the graph has to reach the "
    "parameter.":
        "forward 必须直接用 self.gain，而不是 self.gain.data 或分离出来的副本：计算图必须连到这个参数。",
    "after backward, gain.grad is None": "backward 之后 gain.grad 是 None",
    "The output must be computed from self.gain.": "输出必须由 self.gain 计算出来。",
    "forward returns (x - self.mean) * self.gain, computed from self.gain.":
        "forward 返回 (x - self.mean) * self.gain，由 self.gain 计算得到。",
    "after .to(torch.float64), mean or gain is still float32": ".to(torch.float64) 之后，mean 或 gain 仍是 float32",
    "Only registered tensors are converted: register mean with register_buffer and gain as a Parameter.":
        "只有注册了的张量才会被转换：用 register_buffer 注册 mean，把 gain 注册为 Parameter。",
    "a class Standardize: __init__ registers the buffer mean and the parameter gain, forward computes "
    "(x - mean) * gain":
        "一个 Standardize 类：__init__ 注册缓冲区 mean 和参数 gain，forward 计算 (x - mean) * gain",
    "`Standardize` should be a class (a subclass of nn.Module); it is {kind}.":
        "`Standardize` 应当是一个类（nn.Module 的子类）；它却是{kind}。",
    "__init__ gets the mean tensor: register it with register_buffer, and make gain an nn.Parameter.":
        "__init__ 收到 mean 张量：用 register_buffer 注册它，并让 gain 成为一个 nn.Parameter。",
    "Call super().__init__() first: it creates the dictionaries that hold parameters, buffers and submodules.":
        "先调用 super().__init__()：它会创建存放参数、缓冲区和子模块的那些字典。",
    "register_buffer for state that is kept but not learned, nn.Parameter for what training changes: both are "
    "saved in state_dict() and converted by .to().":
        "要保存但不学习的状态用 register_buffer，训练要改变的用 nn.Parameter：两者都会存进 state_dict()，也都会被 .to() 转换。",
    "{found}.": "{found}。",
}
