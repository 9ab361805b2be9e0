"""Lesson 18's own hints in Chinese (coursekit/lesson18.py), keyed by their English text."""

ZH = {
    # -- exercise 1: count the batches ------------------------------------------------------------
    "The short last batch counts too (drop_last is False by default): ceil, not floor.":
        "最后那个不满的批次也算（drop_last 默认为 False）：向上取整，而不是向下取整。",
    "len(loader) is the number of batches: ceil(len(dataset) / batch_size).":
        "len(loader) 是批次的个数：ceil(len(dataset) / batch_size)。",
    "drop_last=True throws the short last batch away: floor, not ceil.":
        "drop_last=True 会扔掉最后那个不满的批次：向下取整，而不是向上取整。",
    "With drop_last=True only full batches remain: floor(len(dataset) / batch_size).":
        "drop_last=True 时只剩下满的批次：floor(len(dataset) / batch_size)。",
    "The last batch holds what is left after the full batches of 4: it is short.":
        "最后一个批次装的是凑满若干个 4 之后剩下的样本：它是不满的。",
    "Batches stack examples of shape (3,) along a new first dimension; how many are left for the last one?":
        "批次沿着新的第一个维度把形状为 (3,) 的样本堆叠起来；留给最后一个批次的还有几个？",
    "Each Digits image has a channel dimension too (look at dataset[0][0].shape); the batch adds one in front.":
        "每张 Digits 图像还有一个通道维度（看看 dataset[0][0].shape）；批次再在最前面加上一个维度。",
    "A batch of images is [batch_size, *image.shape].": "一批图像的形状是 [batch_size, *image.shape]。",
    "default_collate turns a batch of Python ints into one tensor, of the dtype torch.tensor gives Python ints.":
        "default_collate 把一批 Python 整数变成一个张量，数据类型就是 torch.tensor 给 Python 整数的那个。",
    "a tuple of 7 predictions: ints, shapes as tuples, a dtype": "一个含 7 个预测的元组：整数、写成元组的形状、一个数据类型",
    "ceil(n / batch_size) batches, floor with drop_last; collation stacks tensors and turns ints into int64.":
        "批次数是 ceil(n / batch_size)，有 drop_last 时向下取整；整理（collate）会堆叠张量，并把整数变成 int64。",
    # -- exercise 2: a Dataset of windows ---------------------------------------------------------
    "{where}: {what}": "{where}：{what}",
    "The last k values have no next value to predict: count the start positions whose window still has a value "
    "after it.":
        "最后 k 个值后面没有可以预测的下一个值：数一数那些窗口后面还有一个值的起始位置。",
    "One too many: the window starting at len(series) - k has no next value after it.":
        "多了一个：从 len(series) - k 开始的窗口后面没有下一个值。",
    "One too few: the last window ends just before the series' last value, which is its target.":
        "少了一个：最后一个窗口正好结束在序列最后一个值之前，那个值就是它的目标。",
    "Count the start positions i for which series[i + k] exists.": "数一数使 series[i + k] 存在的起始位置 i。",
    "{where}: len() is {length!r}, expected {n}": "{where}：len() 是 {length!r}，应当是 {n}",
    "Item i is a pair: the window of k values starting at i, and the value right after it.":
        "第 i 项是一对：从 i 开始的 k 个值组成的窗口，以及紧跟在它后面的那个值。",
    "{item} is {kind}, not a pair": "{item}是{kind}，不是一对",
    "Return a tuple (window, target), as a dataset of examples and labels does.":
        "返回一个元组 (window, target)，就像由样本和标签组成的数据集那样。",
    "{item} (the window)": "{item}（窗口）",
    "The window is the k values starting at position i.": "窗口是从位置 i 开始的 k 个值。",
    "{item} (the target)": "{item}（目标）",
    "The target is the value right *after* the window.": "目标是紧跟在窗口*之后*的那个值。",
    "That is the window's own last value; the target is the one after it.": "这是窗口自己的最后一个值；目标是它后面的那个。",
    "A DataLoader calls len() and [i] and stacks the items: each window must be a tensor of k values, each target "
    "one value.":
        "DataLoader 会调用 len() 和 [i]，再把各项堆叠起来：每个窗口必须是含 k 个值的张量，每个目标是一个值。",
    "a DataLoader over {dataset}": "遍历 {dataset} 的 DataLoader",
    "a DataLoader over {dataset} gives batches of shapes {batches}": "遍历 {dataset} 的 DataLoader 给出的批次形状是 {batches}",
    "Windows should batch into (4, 3) and (3, 3).": "Windows 应当组成 (4, 3) 和 (3, 3) 两个批次。",
    "the bodies of __len__ and __getitem__": "__len__ 和 __getitem__ 的函数体",
    "`Windows` should be a class; it is {kind}.": "`Windows` 应当是一个类；它却是{kind}。",
    "{found}.": "{found}。",
    "__len__ and __getitem__ are all a DataLoader needs: it batches your windows into (B, k) inputs and (B,) "
    "targets.":
        "DataLoader 需要的只有 __len__ 和 __getitem__：它把你的窗口组成 (B, k) 的输入和 (B,) 的目标。",
    # -- exercise 3: random_split by hand ---------------------------------------------------------
    "randperm(n, generator=generator).tolist() shuffles the indices once; then cut it.":
        "randperm(n, generator=generator).tolist() 把索引打乱一次；然后把它切开。",
    "{label} returned None": "{label} 返回了 None",
    "{label} returned {kind}": "{label} 返回了{kind}",
    "Return a list with one list of ints per split, as [s.indices for s in random_split(...)].":
        "返回一个列表，每个划分一个整数列表，就像 [s.indices for s in random_split(...)] 那样。",
    "{label} gives splits of sizes {sizes}, which add up to {total}, not {n}":
        "{label} 给出的各划分大小是 {sizes}，加起来是 {total}，而不是 {n}",
    "floor(n * fraction) leaves some items over: PyTorch gives them out one each to the first splits, in order.":
        "floor(n * fraction) 会剩下几项：PyTorch 按顺序把它们一个一个分给排在前面的划分。",
    "{label} gives splits of sizes {sizes}": "{label} 给出的各划分大小是 {sizes}",
    "Each split gets floor(n * fraction) items; the leftover ones go one each to the first splits, in order.":
        "每个划分得到 floor(n * fraction) 项；剩下的按顺序一个一个分给排在前面的划分。",
    "Counts are used as they are: split i has lengths[i] items.": "给的是个数时就照用：第 i 个划分有 lengths[i] 项。",
    "{label} does not use every index 0..{last} exactly once": "{label} 没有把 0..{last} 的每个索引恰好用一次",
    "Shuffle all n indices once (randperm), then cut the shuffled list into consecutive pieces.":
        "把全部 n 个索引打乱一次（randperm），再把打乱后的列表切成连续的几段。",
    "{label}: each split's indices are sorted": "{label}：每个划分的索引都是排好序的",
    "Keep the order randperm gives: do not sort.": "保持 randperm 给出的顺序：不要排序。",
    "{label} is {parts}, not the split random_split makes with the same generator":
        "{label} 是 {parts}，不是 random_split 用同一个生成器做出的划分",
    "Draw the permutation from the generator you are given -- randperm(n, generator=generator) -- once, and cut "
    "it in order: the first lengths[0] indices, then the next lengths[1] ...":
        "用交给你的生成器抽一次排列——randperm(n, generator=generator)——再按顺序切开："
        "先是前 lengths[0] 个索引，然后是接下来的 lengths[1] 个……",
    "a function body that returns one list of indices per split": "一个函数体：每个划分返回一个索引列表",
    "random_split is one randperm, cut in order: seed its generator and the split is the same on every run.":
        "random_split 就是一次 randperm，再按顺序切开：给它的生成器设定种子，每次运行的划分就都一样。",
}
