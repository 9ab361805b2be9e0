"""Lesson 01's own hints in Chinese (coursekit/lesson01.py), keyed by their English text."""

ZH = {
    "Python ints make an integer tensor of PyTorch's *default integer* dtype: how wide must it be so that the "
    "Python ints people write fit? (torch.tensor([1]).dtype shows it.)":
        "Python 整数生成的是 PyTorch *默认整数*类型的整数张量：它得多宽，才装得下人们写出来的 Python 整数？"
        "（torch.tensor([1]).dtype 会告诉你。）",
    "One float in the data is enough: the whole tensor gets the default float dtype (torch.get_default_dtype()).":
        "数据里只要有一个浮点数就够了：整个张量都取默认浮点类型（torch.get_default_dtype()）。",
    "arange looks at start, end and step: if any of them is a float, the result has the default float dtype.":
        "arange 会看 start、end 和 step：只要其中有一个是浮点数，结果就是默认浮点类型。",
    "A Python float lifts an int tensor to floating point -- to the *default* float dtype, although a Python "
    "float has 64 bits.":
        "Python 浮点数会把整数张量提升为浮点类型——提升到*默认*浮点类型，尽管 Python 浮点数有 64 位。",
    "A Python float is a higher category (float > int > bool) than the tensor: the result must be able to hold 0.5.":
        "Python 浮点数的类别比这个张量高（浮点 > 整数 > 布尔）：结果必须装得下 0.5。",
    "torch.tensor(7) is int64 but 0-dimensional, and in promotion a 0-d tensor counts like a Python number: does "
    "adding a Python int change the tensor's dtype?":
        "torch.tensor(7) 是 int64，但它是 0 维的，而在类型提升中 0 维张量和 Python 数字同等对待："
        "加上一个 Python 整数会改变张量的数据类型吗？",
    "torch.tensor([7]) has one dimension, so it takes full part in promotion like any tensor: which dtype can "
    "hold every value of both integer dtypes?":
        "torch.tensor([7]) 有一个维度，所以它像任何张量一样完全参与类型提升：哪种数据类型能容纳这两种整数类型的所有值？",
    "True division `/` always gives floating point, even when the ints divide exactly (`//` is the one that keeps "
    "integers).":
        "真除法 `/` 总是得到浮点数，即使两个整数恰好整除（保持整数的是 `//`）。",
    "Summing bools counts the Trues: sum() of a bool (or any integer) tensor gives the default integer dtype, so "
    "that the count cannot overflow.":
        "对布尔值求和就是数 True 的个数：布尔（或任何整数）张量的 sum() 得到默认整数类型，这样计数才不会溢出。",
    "You can now read a result's dtype off its inputs.": "现在你能从输入看出结果的数据类型了。",
    "a tuple of 8 dtypes such as (torch.float64, ...), one per line of the table":
        "一个含 8 个数据类型的元组，如 (torch.float64, ...)，表格每行一个",
    "mean() refuses integer tensors (what would the mean of int64s be?): convert the counts to floating point "
    "first, or pass dtype=torch.float32.":
        "mean() 拒绝整数张量（int64 的平均值该是什么类型？）：先把计数转换成浮点数，或者传入 dtype=torch.float32。",
    "Keep the answer a tensor: .item() or float() turn it into a Python number, which cannot take part in further "
    "tensor computations (or autograd).":
        "让答案保持为张量：.item() 或 float() 会把它变成 Python 数字，它就不能再参与后续的张量计算（或自动求导）了。",
    "Integer division `//` (or an integer tensor's sum) keeps integers and drops the fraction: convert to floating "
    "point before dividing.":
        "整数除法 `//`（或整数张量的和）保持整数、丢掉小数部分：除之前先转换成浮点数。",
    ".double() gives 64-bit floats; PyTorch's default float dtype is 32-bit: .float().":
        ".double() 得到 64 位浮点数；PyTorch 的默认浮点类型是 32 位的：.float()。",
    "The mean of all the counts is one number: a 0-dimensional tensor.": "所有计数的平均值是一个数：一个 0 维张量。",
    "a function body that returns the mean of `counts` as a float32 0-d tensor":
        "一个函数体，以 float32 的 0 维张量返回 `counts` 的平均值",
    "Convert first, then reduce: counts.float().mean() (or counts.mean(dtype=torch.float32)).":
        "先转换，再归约：counts.float().mean()（或 counts.mean(dtype=torch.float32)）。",
    "the first tensor did not change when `a[0] = 100` changed the array: it is a copy":
        "`a[0] = 100` 改了数组，第一个张量却没有变：它是副本",
    "torch.tensor(data) always copies its data; torch.from_numpy(a) wraps the array's own memory (same dtype, no "
    "copy).":
        "torch.tensor(data) 总是复制数据；torch.from_numpy(a) 包装的是数组自己的内存（数据类型相同，不复制）。",
    "the second tensor changed too when `a[0] = 100` changed the array: it shares a's memory":
        "`a[0] = 100` 改了数组，第二个张量也跟着变了：它与 a 共享内存",
    "torch.from_numpy (and torch.as_tensor) share; torch.tensor(a), or .clone() of a shared tensor, copies.":
        "torch.from_numpy（以及 torch.as_tensor）共享内存；torch.tensor(a)，或对共享内存的张量调用 .clone()，会复制。",
    "Return two tensors: `return shared, copied`.": "返回两个张量：`return shared, copied`。",
    "torch.Tensor(a) (capital T, the legacy constructor) always makes float32; torch.tensor(a) and "
    "torch.from_numpy(a) keep the array's dtype.":
        "torch.Tensor(a)（大写 T，旧式构造函数）总是生成 float32；torch.tensor(a) 和 torch.from_numpy(a) 保留数组的数据类型。",
    "a function body that returns (shared, copied)": "一个返回 (shared, copied) 的函数体",
    "from_numpy shares the array's memory; tensor() copies it.": "from_numpy 共享数组的内存；tensor() 复制它。",
}

