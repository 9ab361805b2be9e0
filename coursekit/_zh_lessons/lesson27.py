"""Lesson 27's own hints in Chinese (coursekit/lesson27.py), keyed by their English text."""

ZH = {
    # -- exercise 1: float16 saved tensors --------------------------------------------------------------
    "pack_half gets one tensor and returns what to keep instead of it.":
        "pack_half 接收一个张量，返回要代替它保存下来的东西。",
    "pack_half({label}) changed the tensor it was given: {change}": "pack_half({label}) 修改了传给它的张量：{change}",
    "A pack hook must leave its input alone (autograd refuses a pack hook that writes into it): make a converted "
    "copy instead.":
        "打包钩子不能动它的输入（往输入里写的打包钩子会被自动求导拒绝）：改为做一份转换后的副本。",
    "unpack_half gets exactly what pack_half returned.": "unpack_half 收到的正是 pack_half 返回的东西。",
    "a float32 tensor of shape (4, 3)": "形状为 (4, 3) 的 float32 张量",
    "no tensor at all": "根本没有张量",
    "pack_half(a float32 tensor) keeps {dtypes}, not a float16 copy":
        "对 float32 张量调用 pack_half，保存的是 {dtypes}，而不是一份 float16 副本",
    "The pack hook's result is what autograd keeps: convert the tensor with .to(torch.float16) and return that "
    "(with whatever unpack needs to undo it).":
        "打包钩子的返回值就是自动求导要保存的东西：用 .to(torch.float16) 转换张量并返回它（连同解包时还原所需的信息）。",
    "pack_half(a float32 tensor) keeps the float32 tensor as well as the float16 copy":
        "对 float32 张量调用 pack_half，除了 float16 副本，还保存了原来的 float32 张量",
    "Keeping the original beside the copy saves nothing: keep only the float16 copy and what unpack needs to know "
    "(its dtype).":
        "在副本旁边还留着原张量，就什么也没省下：只保存 float16 副本和解包需要知道的东西（它的数据类型）。",
    "unpack_half(...) returned {kind}, not a tensor": "unpack_half(...) 返回了{kind}，而不是张量",
    "The unpack hook must give backward a tensor with the saved tensor's values.":
        "解包钩子必须交给反向传播一个张量，它的值就是保存的那个张量的值。",
    "unpack_half(pack_half(a float32 tensor)) has dtype {dtype}":
        "对 float32 张量做 unpack_half(pack_half(...))，得到的数据类型是 {dtype}",
    "Give backward the dtype that was saved: convert back with .to(...) in unpack_half.":
        "交给反向传播的应当是保存时的数据类型：在 unpack_half 里用 .to(...) 转换回去。",
    "unpack_half must give back the saved values (up to float16's rounding).":
        "unpack_half 必须还回保存的值（允许 float16 的舍入误差）。",
    "a float64 tensor": "一个 float64 张量",
    "unpack_half(pack_half(a float64 tensor)) gives {got}": "对 float64 张量做 unpack_half(pack_half(...))，得到的是 {got}",
    "Do not assume float32: remember the dtype of the tensor in pack_half (return it with the copy) and convert back "
    "to that dtype in unpack_half.":
        "不要假定是 float32：在 pack_half 里记下张量的数据类型（和副本一起返回），在 unpack_half 里再转换回这个数据类型。",
    "torch.arange(3000, 3008), an int64 tensor": "torch.arange(3000, 3008)，一个 int64 张量",
    "unpack_half(pack_half(torch.arange(3000, 3008))) gives {shown}, not the same int64 tensor":
        "unpack_half(pack_half(torch.arange(3000, 3008))) 得到的是 {shown}，而不是原样的 int64 张量",
    "Ops also save integer tensors (the indices of max, a loss's targets), and float16 cannot hold every integer: "
    "convert only floating-point tensors (tensor.is_floating_point()) and keep the others as they are.":
        "运算也会保存整数张量（max 的下标、损失的目标），而 float16 装不下每一个整数："
        "只转换浮点张量（tensor.is_floating_point()），其余的保持原样。",
    "Under the hooks, every saved tensor goes through pack_half and comes back through unpack_half: run the "
    "lesson's model under them and read the error.":
        "在钩子之下，每个保存的张量都要经过 pack_half，再经过 unpack_half 回来：在钩子下运行课里的模型，读一读报错。",
    "a backward under your hooks": "在你的钩子下做反向传播时",
    "{name} under your hooks": "你的钩子下的 {name}",
    "The gradients should stay within float16's rounding of those without hooks: does every tensor come back with "
    "its own values and dtype?":
        "梯度和不用钩子时的梯度相比，差别应当在 float16 的舍入误差之内：每个张量回来时，值和数据类型都还是它自己的吗？",
    "the bodies of pack_half and unpack_half": "函数 pack_half 和 unpack_half 的函数体",
    "`{name}` should be a function of one argument; it is {kind}.": "`{name}` 应当是一个单参数函数；它却是{kind}。",
    "your hooks": "你的钩子",
    "{found}.": "{found}。",
    "Half the bytes per saved tensor, and gradients within float16's rounding.":
        "每个保存的张量只占一半字节，而梯度的差别在 float16 的舍入误差之内。",
    # -- exercise 2: segments by hand -------------------------------------------------------------------
    "{n} layers in {k} segments": "{n} 层分成 {k} 段",
    "{n} layers in {k} segment": "{n} 层分成 {k} 段",
    "Each segment is a list of layers run one after the other; checkpoint(function, *args, use_reentrant=False) "
    "calls function(*args).":
        "每一段是一串依次运行的层；checkpoint(function, *args, use_reentrant=False) 会调用 function(*args)。",
    "run_in_segments on {label}": "run_in_segments 在 {label} 上",
    "Every layer must run exactly once, in order: the last segment also takes the layers left over.":
        "每一层都必须按顺序恰好运行一次：最后一段还要包揽剩下的层。",
    "The forward ran {got} Linear layers instead of {expected}: {why}":
        "前向传播运行了 {got} 个 Linear 层，而不是 {expected} 个：{why}",
    "on {label}, checkpoint warned: {warning}...": "在 {label} 上，checkpoint 发出了警告：{warning}...",
    "Pass use_reentrant=False to every checkpoint call (the variant built on saved-tensor hooks).":
        "给每次 checkpoint 调用都传入 use_reentrant=False（这是基于保存张量钩子的那个版本）。",
    "on {label}, backward ran no layer again and kept {kept} tensors (the reference keeps {ref_kept})":
        "在 {label} 上，反向传播没有重新运行任何一层，保存了 {kept} 个张量（参考答案保存 {ref_kept} 个）",
    "Nothing was checkpointed: run each segment but the last through torch.utils.checkpoint.checkpoint.":
        "什么都没有做检查点：除最后一段外，每一段都要经由 torch.utils.checkpoint.checkpoint 运行。",
    "on {label}, backward ran {recomputed} Linear layers again (the reference: {ref_recomputed})":
        "在 {label} 上，反向传播重新运行了 {recomputed} 个 Linear 层（参考答案：{ref_recomputed} 个）",
    "The last segment's activations are the first that backward needs: run it plainly, not under a checkpoint "
    "(checkpointing it costs one more forward and saves nothing).":
        "最后一段的激活值是反向传播最先需要的：直接运行它，不要放在检查点下（给它做检查点要多算一次前向，却什么也省不下）。",
    "a gradient": "一个梯度",
    "The output is right but backward's recomputation ran other layers: a function that a checkpoint keeps runs "
    "again during backward, and a lambda or inner function that reads the loop's variables then sees their last "
    "values. Pass the segment's layers as an argument (checkpoint(run, chunk, x, ...)) or bind them (a default "
    "argument, functools.partial).":
        "输出是对的，但反向传播重新计算时运行的是别的层：检查点留下的函数会在反向传播时再运行一次，"
        "而读取循环变量的 lambda 或内部函数那时看到的是这些变量最后的值。"
        "把这一段的层作为参数传进去（checkpoint(run, chunk, x, ...)），或者把它们绑定住（默认参数、functools.partial）。",
    "on {label}, the forward kept {kept} tensors and backward ran {recomputed} Linear layers again (the reference: "
    "{ref_kept} and {ref_recomputed})":
        "在 {label} 上，前向传播保存了 {kept} 个张量，反向传播重新运行了 {recomputed} 个 Linear 层"
        "（参考答案：{ref_kept} 和 {ref_recomputed}）",
    "Cut the layers into `segments` consecutive chunks of len(layers) // segments (the last one takes the rest) "
    "and checkpoint every chunk but the last, one checkpoint per chunk.":
        "把这些层切成 `segments` 个连续的块，每块 len(layers) // segments 层（最后一块包揽剩下的），"
        "除最后一块外，每块做一个检查点。",
    "the body of run_in_segments (checkpoint every segment but the last; return the output)":
        "函数 run_in_segments 的函数体（除最后一段外，每一段都做检查点；返回输出）",
    "`run_in_segments` should be a function (layers, segments, x) -> output; it is {kind}.":
        "`run_in_segments` 应当是一个函数 (layers, segments, x) -> output；它却是{kind}。",
    "Only the segments' inputs are kept; backward runs each segment again, once.":
        "只保存各段的输入；反向传播把每一段重新运行一次。",
    # -- exercise 3: predictions ------------------------------------------------------------------------
    "len(calls) after y = checkpoint(f, x, use_reentrant=False); y.sum().backward()":
        "y = checkpoint(f, x, use_reentrant=False); y.sum().backward() 之后的 len(calls)",
    "The forward runs f once and keeps none of its saved tensors; count what backward has to do before it can use "
    "them.":
        "前向传播运行 f 一次，它保存的张量一个也不留；数一数反向传播在能用上它们之前要做些什么。",
    "len(calls) after loss.backward(retain_graph=True) and then loss.backward()":
        "先 loss.backward(retain_graph=True) 再 loss.backward() 之后的 len(calls)",
    "Each backward pass unpacks the placeholders afresh, and what one pass recomputed is freed as it goes: count the "
    "runs of f per pass.":
        "每次反向传播都重新解包那些占位对象，而一次反向传播重新算出的东西边用边释放：数一数每次反向传播运行了几次 f。",
    "len(calls) after checkpoint(f, x, use_reentrant=False) under torch.no_grad()":
        "在 torch.no_grad() 下调用 checkpoint(f, x, use_reentrant=False) 之后的 len(calls)",
    "Under no_grad no graph is recorded: is anything saved, or ever recomputed?":
        "在 no_grad 下不记录计算图：有什么东西被保存、或者被重新计算吗？",
    "the bytes counted by the pack hook for x.exp().exp(), x of 1000 float32":
        "对 x.exp().exp()（x 是 1000 个 float32），打包钩子数到的字节数",
    "Which tensor does each exp save (lesson 08), how many elements has it, and how many bytes is one float32? Run "
    "the cell with the hook to check.":
        "每个 exp 保存的是哪个张量（第 08 课），它有多少个元素，一个 float32 又是几个字节？运行课里带钩子的那个单元格核对一下。",
    "a tuple of 4 predictions, e.g. (1, 1, 1, 4000)": "一个含 4 个预测的元组，例如 (1, 1, 1, 4000)",
    "A checkpoint trades the bytes it does not keep for one more run of the function.":
        "检查点用多运行一次函数，换来它不必保存的那些字节。",
}
