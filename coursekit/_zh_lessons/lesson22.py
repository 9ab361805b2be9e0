"""Lesson 22's own hints in Chinese (coursekit/lesson22.py), keyed by their English text."""

ZH = {
    # -- exercise 1: devices ----------------------------------------------------------------------
    "torch.device('cuda') means 'the current GPU' and has no index; 'cuda:0' names GPU 0. Compare their .index: "
    "devices are equal when type and index are. (A tensor's device is always concrete.)":
        "torch.device('cuda') 的意思是“当前的 GPU”，它没有索引；'cuda:0' 指的是 0 号 GPU。比较一下它们的 .index："
        "类型和索引都相等时，设备才相等。（张量的设备总是具体的。）",
    "The number after the colon is the index -- an int, not a string.": "冒号后面的数就是索引——是整数，不是字符串。",
    "When the tensor is already on that device (and has that dtype), .to returns the tensor itself -- no copy. "
    "(And when it moves, it returns a new tensor and leaves the old one where it was.)":
        "张量已经在那个设备上（并且是那个数据类型）时，.to 返回的就是张量本身——不复制。"
        "（而当它需要移动时，它返回一个新张量，旧的那个留在原处。）",
    "With an index, str() writes 'type:index'.": "有索引时，str() 写成 'type:index'。",
    "str(device) writes 'type:index', as you pass it to .to(...).": "str(device) 写成 'type:index'，和你传给 .to(...) 的写法一样。",
    "a tuple of 4 predictions: True/False, a number, True/False, a string":
        "一个含 4 个预测的元组：True/False、一个数、True/False、一个字符串",
    "A device is a name -- type and index -- that any machine can make; only putting data there needs the GPU.":
        "设备只是一个名字——类型加索引——任何机器都能造出来；只有把数据放到那里才需要 GPU。",
    # -- exercise 2: a checkpoint from a GPU machine ----------------------------------------------
    "The file says its tensors live on cuda:0, and loading puts them back there -- which needs a GPU. "
    "torch.load(path, map_location=...) says where they should go instead. Moving them after loading is too "
    "late: the load itself fails.":
        "文件里说它的张量在 cuda:0 上，而加载会把它们放回那里——这需要 GPU。"
        "torch.load(path, map_location=...) 可以指定它们改放到哪里。加载之后再移动就太晚了：加载本身就会失败。",
    "torch.load(path, map_location=...) loads and moves in one go.": "torch.load(path, map_location=...) 一次完成加载和移动。",
    "a function body that loads `path` with its tensors on the CPU": "一个函数体：加载 `path`，并让其中的张量都在 CPU 上",
    "`load_on_cpu` returned {kind} ({value}); expected the saved dict.":
        "`load_on_cpu` 返回了{kind}（{value}）；应当是保存的那个字典。",
    "Return what torch.load returns.": "返回 torch.load 返回的东西。",
    "the loaded weight is on {device}, not on the CPU.": "加载出来的权重在 {device} 上，不在 CPU 上。",
    "This machine has a GPU, so the load worked -- but the exercise asks for CPU tensors: tell torch.load where "
    "the tensors should go.":
        "这台机器有 GPU，所以加载成功了——但练习要的是 CPU 上的张量：告诉 torch.load 张量应当放到哪里。",
    "the loaded weight": "加载出来的权重",
    "{found}.": "{found}。",
    "the loaded step is not 3": "加载出来的步数不是 3",
    "Return the loaded checkpoint unchanged.": "原样返回加载出来的检查点。",
    "map_location decides where the loaded tensors go, whatever device they were saved from.":
        "map_location 决定加载出来的张量放到哪里，不管它们是从哪个设备保存的。",
}
