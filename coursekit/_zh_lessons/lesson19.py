"""Lesson 19's own hints in Chinese (coursekit/lesson19.py), keyed by their English text."""

ZH = {
    # -- exercise 1: what a loaded checkpoint shares ----------------------------------------------
    "The same tensor object reached twice is written once and loads as one object -- as PyTorch's pickle-based "
    "format does too (it memoises objects).":
        "同一个张量对象被引用两次，只写入一次，加载回来也是同一个对象——PyTorch 基于 pickle 的格式也是这样"
        "（它会记住已经写过的对象）。",
    "w[3:] is a view of w's storage. A checkpoint saves storages: both go into one block, and they load as two "
    "views of one new storage -- so a write through one is seen by the other.":
        "w[3:] 是 w 的存储区上的一个视图。检查点保存的是存储区：两者写进同一块，加载回来是同一个新存储区上的两个视图"
        "——所以通过一个写入，另一个也看得到。",
    "loaded['tail'] is loaded['w'][3:] again: its element 1 is element 4 of the storage.":
        "loaded['tail'] 依然是 loaded['w'][3:]：它的第 1 个元素就是存储区的第 4 个元素。",
    "clone() copies into a storage of its own; saving keeps it separate, so the write does not reach it.":
        "clone() 把数据复制到它自己的存储区里；保存时它仍是独立的，所以那次写入碰不到它。",
    "Loading does not make loaded['tail'] a separate tensor starting at 0: it is still a view, 3 elements into "
    "the storage it shares with loaded['w'].":
        "加载不会把 loaded['tail'] 变成一个从 0 开始的独立张量：它仍然是视图，"
        "从它与 loaded['w'] 共享的存储区的第 3 个元素开始。",
    "storage_offset() counts elements from the start of the storage that loaded['tail'] views.":
        "storage_offset() 从 loaded['tail'] 所查看的存储区的开头数元素个数。",
    "a tuple of 4 predictions: True/False, two numbers and an offset": "一个含 4 个预测的元组：True/False、两个数和一个偏移",
    "A checkpoint saves storages, not just values: what shared memory before saving shares it after loading.":
        "检查点保存的是存储区，而不只是值：保存前共享内存的，加载后依然共享。",
    # -- exercise 2: resume training exactly ------------------------------------------------------
    "{label} returned None": "{label} 返回了 None",
    "A checkpoint holds data that pickle can write: tensors, numbers, dicts and lists of them.":
        "检查点装的是 pickle 能写入的数据：张量、数字，以及由它们组成的字典和列表。",
    "A checkpoint holds data: save model.state_dict() and optimizer.state_dict(), not the model or optimizer "
    "objects -- torch.load (weights_only=True, the default) refuses to rebuild objects whose classes it does not "
    "know, because rebuilding them could run any code.":
        "检查点装的是数据：保存 model.state_dict() 和 optimizer.state_dict()，而不是模型或优化器对象"
        "——torch.load（默认 weights_only=True）拒绝重建它不认识的类的对象，因为重建它们可能会运行任何代码。",
    "torch.load of the checkpoint raised {error}": "用 torch.load 加载检查点时抛出了 {error}",
    "restore gets back what make_checkpoint returned.": "restore 拿到的就是 make_checkpoint 返回的东西。",
    "after restore, the model's weights are not the ones saved": "restore 之后，模型的权重不是保存的那些",
    "Save model.state_dict() and load it with model.load_state_dict(...) -- into the model passed to restore (a "
    "new model made inside restore is thrown away).":
        "保存 model.state_dict()，再用 model.load_state_dict(...) 把它加载进来——加载进传给 restore 的那个模型"
        "（在 restore 里新建的模型会被扔掉）。",
    "after restore, the optimizer has not got its running averages back (exp_avg, exp_avg_sq)":
        "restore 之后，优化器没有取回它的滑动平均（exp_avg、exp_avg_sq）",
    "Adam keeps state for every parameter -- two running averages and a step count -- and the next step depends "
    "on it: save optimizer.state_dict() and load it with optimizer.load_state_dict().":
        "Adam 为每个参数保存状态——两个滑动平均和一个步数——而下一步取决于它："
        "保存 optimizer.state_dict()，再用 optimizer.load_state_dict() 加载。",
    "after restore, the random generator is not where it was at the save: the next mini-batches differ":
        "restore 之后，随机数生成器不在保存时的位置：接下来的小批次会不一样",
    "The batches come from torch.randint. Save torch.get_rng_state() and put it back with torch.set_rng_state(...).":
        "批次来自 torch.randint。保存 torch.get_rng_state()，再用 torch.set_rng_state(...) 把它放回去。",
    "restore returned {got}, expected the step saved ({step})": "restore 返回了 {got}，应当是保存的步数（{step}）",
    "Return the step stored in the checkpoint, so the loop knows where to go on.":
        "返回检查点里存的步数，这样循环才知道从哪里接着走。",
    "the losses after resuming": "恢复之后的损失",
    "Something else that decides the next step was not saved.": "还有别的决定下一步的东西没有保存。",
    "two function bodies: make_checkpoint returns a dict, restore loads it and returns the step":
        "两个函数体：make_checkpoint 返回一个字典，restore 加载它并返回步数",
    "`{name}` should be a function; it is {kind}.": "`{name}` 应当是一个函数；它却是{kind}。",
    "it works on {tensorlab} but not on {library}: {found}.": "它在 {tensorlab} 上可行，在 {library} 上却不行：{found}。",
    "PyTorch is the reference (please report the difference).": "以 PyTorch 为准（请报告这处差异）。",
    "{found}.": "{found}。",
    "Weights, optimizer state, step and random generator: everything that decides the next step is in the "
    "checkpoint.":
        "权重、优化器状态、步数和随机数生成器：决定下一步的一切都在检查点里。",
    # -- exercise 3: the names a checkpoint imports -----------------------------------------------
    "a state_dict": "一个 state_dict",
    "a whole model saved to net.pth": "保存到 net.pth 的整个模型",
    "the surprise checkpoint": "那个藏着意外的检查点",
    "The records sit in a folder named after the file -- net.pth has net/data.pkl, a file object "
    "archive/data.pkl: find the name that ends with '/data.pkl' in the archive's namelist().":
        "记录放在一个以文件命名的文件夹里——net.pth 里是 net/data.pkl，文件对象里是 archive/data.pkl："
        "在归档的 namelist() 里找以 '/data.pkl' 结尾的名字。",
    "Don't unpickle it: unpickling is what runs a file's code. pickletools.genops(data) reads the instructions "
    "one by one and runs none of them.":
        "不要反序列化它：运行文件里的代码的正是反序列化。pickletools.genops(data) 逐条读取指令，一条也不执行。",
    "The checkpoint is a zip archive: zipfile.ZipFile(io.BytesIO(data)) opens bytes in memory.":
        "检查点是一个 zip 归档：zipfile.ZipFile(io.BytesIO(data)) 能打开内存里的字节。",
    "genops reads a pickle: give it the record data.pkl (archive.read(name)), not the zip archive around it.":
        "genops 读的是 pickle：把 data.pkl 这条记录（archive.read(name)）交给它，而不是外面那层 zip 归档。",
    "Open the archive with zipfile, read its data.pkl record, and walk it with pickletools.genops.":
        "用 zipfile 打开归档，读出它的 data.pkl 记录，再用 pickletools.genops 逐条走一遍。",
    "returned {what}": "返回了{what}",
    "Return a set: each name once (a file may name a global many times).":
        "返回一个集合：每个名字一次（一个文件可能多次提到同一个全局名字）。",
    "Return a set of strings, one 'module.name' per global.": "返回一个字符串集合，每个全局名字一个 'module.name'。",
    "genops gives GLOBAL's argument as 'module name', with a space: write it as 'module.name'.":
        "genops 给出的 GLOBAL 参数是带空格的 'module name'：把它写成 'module.name'。",
    "returned a set without {names}": "返回的集合里没有 {names}",
    "Every GLOBAL instruction of the pickle counts, wherever it is, not only the first.":
        "pickle 里的每一条 GLOBAL 指令都算，无论它在哪里，不只是第一条。",
    "returned a set with {names}, which the pickle does not name": "返回的集合里有 {names}，而 pickle 并没有提到它们",
    "Only the GLOBAL instructions name a global: strings pushed by BINUNICODE are data.":
        "只有 GLOBAL 指令才提到全局名字：BINUNICODE 压入的字符串是数据。",
    "a function body that returns the set of names the checkpoint's pickle imports":
        "一个函数体：返回检查点的 pickle 导入的名字组成的集合",
    "`globals_in` on {label} ran the checkpoint's pickle: its print() call printed.":
        "`globals_in` 在{label}上运行了检查点的 pickle：其中的 print() 调用打印了东西。",
    "Don't unpickle it -- that is what runs a file's code. pickletools.genops(data) reads the instructions one by "
    "one and runs none of them.":
        "不要反序列化它——运行文件里的代码的正是反序列化。pickletools.genops(data) 逐条读取指令，一条也不执行。",
    "{found} on {label}.": "{found}（在{label}上）。",
    "`globals_in` on {label} {found}.": "`globals_in` 在{label}上{found}。",
    "Those are the names a weights_only load looks up in its allow-list -- read from the pickle's instructions, "
    "without running one.":
        "这些就是 weights_only 加载时要在允许列表里查找的名字——从 pickle 的指令中读出，一条也没有执行。",
}
