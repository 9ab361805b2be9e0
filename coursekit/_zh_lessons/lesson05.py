"""Lesson 05's own hints in Chinese (coursekit/lesson05.py), keyed by their English text."""

ZH = {
    "An integer index selects: the row starts at offset 4 and keeps stride 1 -- a view.":
        "整数索引做的是选取：这一行从偏移 4 开始，步长保持为 1——是视图。",
    "A column is every 4th element from offset 1: one stride describes it, so it is a view.":
        "一列就是从偏移 1 开始每隔 4 个取一个元素：一个步长就能描述它，所以它是视图。",
    "Slices, even with a step, only change offset, shape and strides: always a view.":
        "切片即使带步长，也只改变偏移、形状和步长：总是视图。",
    "A list or tensor of indices is *advanced* indexing: the picked elements may repeat or come in any order, "
    "which no (offset, strides) can describe -- so they are copied.":
        "用索引列表或索引张量做索引是*高级*索引：选出的元素可能重复、顺序任意，没有哪组 (偏移, 步长) 能描述—"
        "—所以它们会被复制。",
    "A mask picks a data-dependent set of elements into a new 1-d tensor: a copy.":
        "掩码按数据选出一组元素，放进一个新的一维张量：是副本。",
    "Reversing would need a negative stride, which PyTorch does not have: flip copies.":
        "反转需要负的步长，而 PyTorch 没有负步长：flip 会复制。",
    "Indexing every dimension with an integer gives a 0-d tensor that still points into x's storage (offset 6): "
    "a view. .item() is what copies the number out.":
        "每个维度都用整数索引，得到的是一个仍然指向 x 的存储区（偏移 6）的 0 维张量：是视图。"
        "把数复制出来的是 .item()。",
    "None adds a dimension of size 1 (like unsqueeze): only the shape and strides change.":
        "None 添加一个大小为 1 的维度（就像 unsqueeze）：只有形状和步长改变。",
    "a tuple of 8 booleans (True: a view that shares x's memory), one per line of the table":
        "一个含 8 个布尔值的元组（True：与 x 共享内存的视图），表格每行一个",
    "Slices and integers give views; index tensors, masks and flip copy.":
        "切片和整数得到视图；索引张量、掩码和 flip 会复制。",
    "logits of shape {shape}, {labels}": "形状为 {shape} 的 logits，{labels}",
    "gather's index must have as many dims as the input: labels has shape (N,), logits (N, C). "
    "labels.unsqueeze(1) makes it (N, 1) -- one column to pick per row.":
        "gather 的 index 必须与输入的维数相同：labels 的形状是 (N,)，"
        "logits 是 (N, C)。labels.unsqueeze(1) 把它变成 (N, 1)——"
        "每行要取一列。",
    "Along dim 0, gather picks a *row* for each column, so the labels were used as row numbers. A label chooses "
    "a column within each row: gather along dim 1, which picks within each row.":
        "沿第 0 维，gather 为每一列选一*行*，所以标签被当成了行号。标签是在每一行内选一列："
        "沿第 1 维 gather，它在每一行内选取。",
    "logits[:, labels] takes *every* label's column for *every* row: (N, N). To pair row i with labels[i], index "
    "the rows too, with a tensor of row numbers -- or use gather.":
        "logits[:, labels] 为*每一*行取出*每个*标签的列：(N, N)。"
        "要让第 i 行与 labels[i] 配对，行也要用一个行号张量来索引——或者用 gather。",
    "Right values, one dim too many: gather's output has the index's shape (N, 1); squeeze(1).":
        "值对了，但多了一个维度：gather 的输出形状与 index 相同，是 (N, 1)；"
        "用 squeeze(1)。",
    "gather along dim 0 picks a *row* for each column. The label chooses a column within each row: gather along "
    "dim 1, which picks within each row.":
        "沿第 0 维的 gather 为每一列选一*行*。标签是在每一行内选一列：沿第 1 维 gather，"
        "它在每一行内选取。",
    "a function body that returns each row's logit at its label, shape (N,)":
        "一个函数体，返回每一行在其标签处的 logit，形状为 (N,)",
    "out[i][j] = logits[i][index[i][j]]: gather along dim 1 picks within each row.":
        "out[i][j] = logits[i][index[i][j]]："
        "沿第 1 维的 gather 在每一行内选取。",
    "The last classes have no values here, so the result stops early: make room for all num_classes (start from "
    "zeros(num_classes), or bincount's minlength=).":
        "这里最后几个类别没有值，所以结果提前结束了："
        "要为全部 num_classes 个类别留出位置（从 zeros(num_classes) 开始，"
        "或用 bincount 的 minlength=）。",
    "Those are counts: bincount counts occurrences. To add the values, pass them as weights=values -- or add "
    "them in with index_add_ / scatter_add_.":
        "这些是计数：bincount 数的是出现次数。要把值加起来，"
        "就把它们作为 weights=values 传入——"
        "或者用 index_add_ / scatter_add_ 加进去。",
    "The sums should keep the values' dtype ({dtype}).":
        "这些和应当保持 values 的数据类型（{dtype}）。",
    "Only the classes that occur more than once are off: `out[labels] += values` (and scatter_) *write* once per "
    "position, so one value of a repeated class wins instead of all being added. index_add_ and scatter_add_ "
    "accumulate every occurrence.":
        "只有出现不止一次的类别不对：`out[labels] += values`（以及 scatter_）"
        "每个位置只*写入*一次，所以重复类别的值中只有一个胜出，而不是全部加起来。"
        "index_add_ 和 scatter_add_ 会累加每一次出现。",
    "a function body that returns the sum of the values of each class, shape (num_classes,)":
        "一个函数体，返回每个类别的值之和，形状为 (num_classes,)",
    "index_add_ and scatter_add_ add once per occurrence, repeated indices included (bincount(labels, "
    "weights=values) too).":
        "index_add_ 和 scatter_add_ 每出现一次就加一次，"
        "重复的索引也不例外（bincount(labels, weights=values) 也是）。",
    "values[indices] (or gather) applies the permutation a second time. indices[k] says where values[k] came "
    "*from*: put it back there (scatter writes to positions), or index with the inverse permutation (argsort of "
    "a permutation gives it).":
        "values[indices]（或 gather）把这个置换又做了一遍。"
        "indices[k] 说的是 values[k] *从*哪里来：把它放回那里（scatter 写入位置），"
        "或者用逆置换来索引（对一个置换做 argsort 就得到它）。",
    "That is still the sorted order: each values[k] must go back to position indices[k].":
        "这还是排好序的顺序：每个 values[k] 都必须回到位置 indices[k]。",
    "a function body that returns the original tensor, rebuilt from values and indices":
        "一个函数体，返回由 values 和 indices 重建的原始张量",
    "gather reads from positions (out[k] = src[index[k]]); scatter writes to them (out[index[k]] = src[k]) -- "
    "each undoes the other.":
        "gather 从位置读取（out[k] = src[index[k]]）；"
        "scatter 向位置写入（out[index[k]] = src[k]）——两者互为逆操作。",
}
