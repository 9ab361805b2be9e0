"""Lesson 04's own hints in Chinese (coursekit/lesson04.py), keyed by their English text."""

ZH = {
    "A reduction removes the dimension it reduces over (unless keepdim=True): which size of x is dim 1?":
        "归约会去掉它所归约的那个维度（除非 keepdim=True）：x 的第 1 维是哪个大小？",
    "keepdim=True keeps the reduced dimension, with size 1 -- so the result still lines up with x for "
    "broadcasting.":
        "keepdim=True 会保留被归约的维度，大小为 1——这样结果仍能与 x 对齐，用于广播。",
    "A tuple of dims reduces all of them at once; only the dimensions not listed remain.":
        "维度元组会一次归约其中所有的维度；只有没列出的维度留下来。",
    "cumsum is a scan, not a reduction: every position gets its running total. How many positions does the "
    "result have, then?":
        "cumsum 是扫描，不是归约：每个位置都得到它的累计和。那么结果有多少个位置？",
    "max(dim=...) reduces like sum: its values and indices both lose that dimension.":
        "max(dim=...) 像 sum 一样做归约：它的 values 和 indices 都失去那个维度。",
    "matmul multiplies the last two dims as matrices and treats the leading dims as a batch, over which the 2-d "
    "w is broadcast: what shape has a product of those two matrices?":
        "matmul 把最后两维当作矩阵相乘，把前面的维度当作批次，二维的 w 在批次上广播："
        "这样两个矩阵的乘积是什么形状？",
    "The output has exactly the letters after '->', in that order, each with its size; a letter missing there is "
    "summed over.":
        "输出恰好含有 '->' 之后的那些字母，按那个顺序，各取其大小；那里没有的字母会被求和掉。",
    "cat joins along an existing dimension; stack is the one that adds a new dimension.":
        "cat 沿一个已有的维度拼接；新增一个维度的是 stack。",
    "dim=-1 is the last dimension: cat adds up the sizes along it and leaves the others alone.":
        "dim=-1 是最后一个维度：cat 把这个维度上的大小相加，其他维度不变。",
    "a tuple of 8 shapes such as ((5, 6), ...), one per line of the table":
        "一个含 8 个形状的元组，如 ((5, 6), ...)，表格每行一个",
    "Reductions remove the dims they reduce (unless keepdim=True); scans keep the shape.":
        "归约去掉它们所归约的维度（除非 keepdim=True）；扫描保持形状不变。",
    "scores of shape {shape}": "形状为 {shape} 的 scores",
    "scores.sum(dim=1) has shape (rows,), and broadcasting lines shapes up from the right, so it meets the "
    "columns. Keep the summed dim with keepdim=True: shape (rows, 1).":
        "scores.sum(dim=1) 的形状是 (rows,)，而广播从右边对齐形状，所以它对上的是列。"
        "用 keepdim=True 保留求和的维度：形状 (rows, 1)。",
    "This divides column j by the sum of *row j*: scores.sum(dim=1) has shape (rows,), which broadcasting lines "
    "up with the last dim -- the columns. It only runs because the matrix is square. keepdim=True gives shape "
    "(rows, 1), one sum per row.":
        "这是把第 j 列除以*第 j 行*的和：scores.sum(dim=1) 的形状是 (rows,)，"
        "广播把它与最后一维——也就是列——对齐。它能运行，只是因为矩阵恰好是方阵。"
        "keepdim=True 给出形状 (rows, 1)，每行一个和。",
    "You divided by the total of all entries; each row needs its own sum (reduce along dim=1 only).":
        "你除以的是所有元素的总和；每一行需要它自己的和（只沿 dim=1 归约）。",
    "Your columns sum to 1: dim=0 runs down the rows, so sum(dim=0) adds up each column. Rows need dim=1.":
        "你的各列之和为 1：dim=0 是沿着行往下走的，所以 sum(dim=0) 加起来的是每一列。"
        "行需要 dim=1。",
    "softmax exponentiates first; here, divide the scores themselves by their row sums.":
        "softmax 会先取指数；这里要把 scores 本身除以它们的行和。",
    "a function body that returns scores with every row divided by its sum":
        "一个函数体，返回每一行都除以了该行之和的 scores",
    "keepdim=True keeps the sums as a (rows, 1) column that broadcasts across each row.":
        "keepdim=True 把这些和保留成一个 (rows, 1) 的列，它在每一行上广播。",
    "a, b of shape {shape}": "形状为 {shape} 的 a、b",
    "Each operand needs one letter per dimension: 'nd' for a matrix of shape (n, d); the output, after '->', "
    "lists the letters to keep.":
        "每个操作数的每个维度都需要一个字母：形状为 (n, d) 的矩阵写作 'nd'；输出写在 '->' 之后，"
        "列出要保留的字母。",
    "You got one number: a letter missing from the output is summed over, so '->' with nothing (or .sum() "
    "without dim) sums over n too. Keep n in the output.":
        "你得到的是一个数：输出中没有的字母会被求和掉，"
        "所以 '->' 后面什么都不写（或不带 dim 的 .sum()）也会对 n 求和。把 n 留在输出里。",
    "That is every row of a with every row of b (n x n dot products, a @ b.T); you want only row i with row i -- "
    "the diagonal. In einsum, use the same letter n for both rows.":
        "这是 a 的每一行与 b 的每一行相乘（n x n 个点积，a @ b.T）；你只要第 i 行配第 i 行—"
        "—也就是对角线。在 einsum 中，两边的行用同一个字母 n。",
    "You summed over the rows (n) and kept d; the dot product sums over d, the features.":
        "你对行（n）求了和，保留了 d；点积要对 d（特征）求和。",
    "a function body that returns the tensor of the n dot products a[i] . b[i]":
        "一个函数体，返回由 n 个点积 a[i] . b[i] 组成的张量",
    "n appears in both inputs and the output (kept, paired up); d appears only in the inputs (multiplied, then "
    "summed).":
        "n 出现在两个输入和输出中（保留，并一一配对）；d 只出现在输入中（相乘，然后求和）。",
    "arange(start, end) stops before end: to count 1, ..., n, end must be n + 1.":
        "arange(start, end) 在 end 之前就停下：要数 1, ..., n，"
        "end 必须是 n + 1。",
    "That is one mean of everything; the running mean has one value per position (a scan).":
        "这是所有元素的一个平均值；累计平均值每个位置都有一个值（是扫描）。",
    "Position 0 divides by 0: arange(n) starts at 0, but the k-th prefix has k + 1 elements.":
        "位置 0 除以了 0：arange(n) 从 0 开始，但第 k 个前缀有 k + 1 个元素。",
    "You divided every prefix sum by n; the prefix ending at position k has only k + 1 elements.":
        "你把每个前缀和都除以了 n；以位置 k 结尾的前缀只有 k + 1 个元素。",
    "a function body that returns the running mean of x": "一个函数体，返回 x 的累计平均值",
    "cumsum gives the prefix sums; dividing by 1, 2, ..., n (broadcast, element by element) turns them into "
    "means.":
        "cumsum 给出前缀和；再（逐元素广播地）除以 1, 2, ..., n，就把它们变成了平均值。",
}
