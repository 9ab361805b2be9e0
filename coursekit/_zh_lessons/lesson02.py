"""Lesson 02's own hints in Chinese (coursekit/lesson02.py), keyed by their English text."""

ZH = {
    "That is column-major (Fortran) order. PyTorch is row-major: the *last* index moves through neighbouring "
    "elements, so its stride is 1; each stride is the product of the sizes to its right.":
        "这是列优先（Fortran）顺序。PyTorch 是行优先的：*最后一个*下标走过的是相邻的元素，"
        "所以它的步长是 1；每个步长都是它右边各维大小的乘积。",
    "Row-major: the last dim has stride 1, and each stride is the product of the sizes to its right.":
        "行优先：最后一个维度的步长是 1，每个步长都是它右边各维大小的乘积。",
    "permute moves no data, so the strides cannot be those of a fresh (4, 2, 3) tensor: new dim k takes old dim "
    "dims[k] *with its stride* -- reorder t.stride() the way the dims are reordered.":
        "permute 不移动任何数据，所以步长不可能是新建的 (4, 2, 3) 张量的那些："
        "新的第 k 维取的是旧的第 dims[k] 维，*连同它的步长*——维度怎么重排，"
        "t.stride() 就怎么重排。",
    "permute reorders the (size, stride) pairs: new dim k is old dim dims[k], stride and all.":
        "permute 重排的是 (大小, 步长) 对：新的第 k 维就是旧的第 dims[k] 维，步长一并带上。",
    "stride(dim) is one entry of stride(): how far to move in storage for one step along dim 1.":
        "stride(dim) 是 stride() 中的一项：沿第 1 维走一步，在存储区中要移动多远。",
    "transpose swaps two (size, stride) pairs and leaves the rest alone; nothing moves in memory.":
        "transpose 交换两个 (大小, 步长) 对，其余的不动；内存中什么都没有移动。",
    "An integer index removes its dim (it only adds 1*stride[1] to the offset); the dims that stay keep their "
    "strides -- so this (2, 4) tensor has a gap between its rows.":
        "整数索引会去掉它所在的维度（它只是给偏移加上 1*stride[1]）；留下的维度保持各自的步长——"
        "所以这个 (2, 4) 张量的行与行之间有空隙。",
    "A slice with step k multiplies that dim's stride by k (every k-th element); the other dims are untouched.":
        "步长为 k 的切片把那个维度的步长乘以 k（每隔 k 个取一个元素）；其他维度不受影响。",
    "The view starts at element [1, 2, 0] of t: its offset is the sum of index * stride over t's dims.":
        "这个视图从 t 的元素 [1, 2, 0] 开始：它的偏移是 t 各维上 下标 * 步长 之和。",
    "contiguous() of a non-contiguous tensor copies it into a fresh row-major layout of its *current* shape, (4, "
    "2, 3).":
        "对不连续的张量调用 contiguous()，"
        "会把它复制成按它*当前*形状 (4, 2, 3) 新排的行优先布局。",
    "a tuple of 8 answers -- a tuple of strides, or an int for lines 2 and 7 -- one per line of the table":
        "一个含 8 个答案的元组——每个是一个步长元组，第 2 行和第 7 行是一个整数——表格每行一个",
    "Strides describe memory; views only rearrange them, copies start afresh.":
        "步长描述的是内存；视图只是重排步长，副本则从头来过。",
    "{t}, index {index}": "{t}，下标 {index}",
    "That is a tensor (the element, or a piece of t): the answer is a plain int, the number of elements from the "
    "start of the storage.":
        "这是一个张量（那个元素，或 t 的一部分）：答案应是一个普通的整数，即从存储区开头数起的元素个数。",
    "You left out storage_offset(): a view that does not start at the first element of the storage begins "
    "further along it.":
        "你漏掉了 storage_offset()：不从存储区第一个元素开始的视图，起点要往后挪。",
    "Those are the strides a fresh tensor of this shape would have. A view keeps the strides of the memory it "
    "reads: take them from t.stride().":
        "这是一个这种形状的新建张量会有的步长。视图保留的是它所读内存的步长：要从 t.stride() 取。",
    "a function body that returns the storage position of t[index], an int":
        "一个函数体，返回 t[index] 在存储区中的位置（一个整数）",
    "offset + sum of index*stride; t[index].storage_offset() is the library's own answer, and agrees.":
        "偏移 + 下标*步长 之和；t[index].storage_offset() 是库自己给出的答案，"
        "两者一致。",
    "Return a Python bool (True/False); a comparison of tensors gives a tensor -- use bool(...) or .all().":
        "返回一个 Python 布尔值（True/False）；张量之间的比较得到的是张量——"
        "用 bool(...) 或 .all()。",
    "Here shape is {shape} and strides {strides}: a dim of size 1 is never stepped along, so its stride does not "
    "matter. PyTorch skips size-1 dims when it checks the rule.":
        "这里形状是 {shape}，步长是 {strides}：大小为 1 的维度从来不会沿它走一步，"
        "所以它的步长无关紧要。PyTorch 检查这条规则时会跳过大小为 1 的维度。",
    "The rule between neighbours, stride[i] == stride[i+1] * shape[i+1], says nothing about the last dim: its "
    "stride must also be 1, so that its elements sit side by side.":
        "相邻维度之间的规则 stride[i] == stride[i+1] * shape[i+1] "
        "对最后一个维度什么也没说：它的步长也必须是 1，这样它的元素才一个挨着一个。",
    "The last stride is 1, but strides {strides} for shape {shape} leave gaps between rows: check every dim, "
    "stride[i] == stride[i+1] * shape[i+1].":
        "最后一个步长是 1，但形状 {shape} 配上步长 {strides}，行与行之间会留下空隙："
        "每个维度都要检查 stride[i] == stride[i+1] * shape[i+1]。",
    "Strides {strides}: a stride of 0 reads one element many times (expand). Check stride[i] == stride[i+1] * "
    "shape[i+1] for every dim.":
        "步长 {strides}：步长为 0 会把同一个元素读很多遍（expand）。"
        "对每个维度检查 stride[i] == stride[i+1] * shape[i+1]。",
    "a function body that returns True or False from t.shape and t.stride()":
        "一个函数体，根据 t.shape 和 t.stride() 返回 True 或 False",
    "The last stride is 1, each other stride is the next size times the next stride, and size-1 dims do not "
    "count.":
        "最后一个步长是 1，其余每个步长都等于下一维的大小乘以下一维的步长，大小为 1 的维度不算。",
}
