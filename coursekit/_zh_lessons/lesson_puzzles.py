"""The tensor puzzles' checks (coursekit/build/puzzles.py) in Chinese."""

ZH = {
    # -- the verdicts ---------------------------------------------------------------------------------
    "a function `{signature}`": "一个函数 `{signature}`",
    "`{name}` should be a function ({what}).": "`{name}` 应当是一个函数（{what}）。",
    "`{call}`: {off}.": "`{call}`：{off}。",
    "compared with PyTorch's `{real}`": "与 PyTorch 的 `{real}` 比较",
    "compared with tensorlab's own `{real}` -- PyTorch is not installed":
        "与 tensorlab 自己的 `{real}` 比较——没有安装 PyTorch",
    "compared with what `{real}` gives, computed with tensorlab (which has no `{real}`) -- PyTorch is not installed":
        "与 `{real}` 应得的结果比较，由 tensorlab 算出（它没有 `{real}`）——没有安装 PyTorch",
    "Correct! ({n} inputs, {source})": "正确！（{n} 组输入，{source}）",
    "solved": "已解出",
    "there is no puzzle named `{name}`; the puzzles are: {names}.": "没有名为 `{name}` 的谜题；谜题有：{names}。",
    "`{name}` calls `{earlier}`, which is not answered yet.": "`{name}` 调用了 `{earlier}`，而它还没有作答。",
    "Solve `{earlier}` first (run its cell), or write this one without it.":
        "先解出 `{earlier}`（运行它的单元格），或者不用它来写这道题。",
    "not answered yet": "尚未作答",
    "not yet: its check cell says what is off": "还不对：它的检查单元格会说明哪里不对",
    "`torch.arange`, `torch.where`, `.sum(...)`, `.shape`, operators, indexing and your earlier puzzles":
        "`torch.arange`、`torch.where`、`.sum(...)`、`.shape`、运算符、索引和你前面做过的谜题",
    "{k}/{n} puzzles solved": "已解出 {k}/{n} 道谜题",
    "it returned {got}, not a tensor": "它返回了 {got}，而不是张量",
    # -- the rules ------------------------------------------------------------------------------------
    "`{name}` breaks the puzzle rules:": "`{name}` 违反了谜题规则：",
    "line {line}: {what}": "第 {line} 行：{what}",
    "{what} is not allowed": "不允许使用{what}",
    "`{name}` is not on the allowed list": "`{name}` 不在允许列表中",
    "`{name}` calls itself": "`{name}` 调用了它自己",
    "`torch` may only be used as `torch.arange` or `torch.where`": "`torch` 只能以 `torch.arange` 或 `torch.where` 的形式使用",
    "only plain assignments (`name = ...`) are allowed": "只允许普通赋值（`name = ...`）",
    "its source could not be read: write it as a `def` in a cell or a file":
        "读不到它的源代码：请在单元格或文件里用 `def` 写它",
    "Only these are allowed: {allowed}. No loops: let broadcasting do the repeating.":
        "只允许使用这些：{allowed}。不要循环：让广播来完成重复。",
    "a `for` loop": " `for` 循环",
    "a `while` loop": " `while` 循环",
    "a list comprehension": "列表推导式",
    "a set comprehension": "集合推导式",
    "a dict comprehension": "字典推导式",
    "a generator expression": "生成器表达式",
    "`import`": " `import`",
    "a `lambda`": " `lambda`",
    "an in-place update (`+=` ...)": "原地更新（`+=` 等）",
    "an `if` statement": " `if` 语句",
    "an `... if ... else ...` expression": " `... if ... else ...` 表达式",
    "a `try` statement": " `try` 语句",
    "a `with` statement": " `with` 语句",
    "a nested `def`": "嵌套的 `def`",
    "a `class`": " `class`",
    "`global`": " `global`",
    "`nonlocal`": " `nonlocal`",
    "`and`/`or`": " `and`/`or`",
    "`del`": " `del`",
    "`raise`": " `raise`",
    "`assert`": " `assert`",
    "a list literal": "列表字面量",
    "a dict literal": "字典字面量",
    "a set literal": "集合字面量",
    "`*` unpacking": " `*` 解包",
    "an f-string": " f-string",
    "`:=`": " `:=`",
    "`await`": " `await`",
    "`yield`": " `yield`",
    "a string or bytes literal": "字符串或字节字面量",
    "`is`": " `is`",
    "`is not`": " `is not`",
    "`in`": " `in`",
    "`not in`": " `not in`",
    "a statement other than `=` and `return`": " `=` 和 `return` 以外的语句",
    # -- the hints ------------------------------------------------------------------------------------
    "torch.eye gives float32, like torch.zeros. What dtype does `bool * 1` give -- and `bool * 1.0`?":
        "torch.eye 给出 float32，和 torch.zeros 一样。`bool * 1` 得到什么 dtype？`bool * 1.0` 呢？",
    "torch.cumsum keeps the integer dtype of its input.": "torch.cumsum 保留输入的整数 dtype。",
    "one_hot gives int64 -- a comparison gives bool. Which operation turns bool into int64 (and not float32)?":
        "one_hot 给出 int64——比较运算给出 bool。哪个运算能把 bool 变成 int64（而不是 float32）？",
    "torch.bincount counts in int64: what dtype does your sum have, and where did a float come in?":
        "torch.bincount 用 int64 计数：你的求和是什么 dtype？浮点数是从哪里混进来的？",
    "torch.linspace gives float32.": "torch.linspace 给出 float32。",
    "torch.heaviside keeps the float dtype of its inputs.": "torch.heaviside 保留输入的浮点 dtype。",
    "scatter_add keeps the dtype of `values`.": "scatter_add 保留 `values` 的 dtype。",
    "result[i, j] is a[i] * b[j]: `a` must vary down the rows (axis 0) and `b` along the columns (axis 1). "
    "Check which axis each one got.":
        "result[i, j] 是 a[i] * b[j]：`a` 应沿行方向（第 0 维）变化，`b` 沿列方向（第 1 维）变化。看看它们各自落在了哪一维。",
    "Two vectors without a new axis multiply element by element (or fail to broadcast): give each a length-1 "
    "axis with `None` so that they broadcast to a matrix.":
        "两个没有新维度的向量只会逐元素相乘（或无法广播）：用 `None` 给它们各加一个长度为 1 的维度，让它们广播成矩阵。",
    "Your ones are on the other diagonal: the identity has them where the row index equals the column index.":
        "你的 1 在另一条对角线上：单位矩阵的 1 在行号等于列号的位置。",
    "torch.diag of a matrix returns a vector of length n; yours is still a matrix. Keeping a[i, i] in place is "
    "not picking it out: index both axes with the same index tensor.":
        "对矩阵调用 torch.diag 返回长度为 n 的向量；你的结果仍是矩阵。把 a[i, i] 留在原位不等于把它取出来：用同一个索引张量同时索引两个维度。",
    "That is the sum of every element: the trace adds only the diagonal, a[i, i].":
        "这是所有元素之和：迹只加对角线上的 a[i, i]。",
    "The trace is one number, a 0-dim tensor: sum everything you picked, not along one axis.":
        "迹是一个数，即 0 维张量：把取出的全部加起来，而不是只沿一个维度求和。",
    "Off by one diagonal: you dropped diagonal k itself. With k = 0 the main diagonal (column == row) stays; "
    "check your comparison where column - row is exactly k.":
        "差了一条对角线：你丢掉了第 k 条对角线本身。k = 0 时主对角线（列 == 行）要保留；检查列 - 行恰好等于 k 处的比较。",
    "Off by one diagonal: you kept one diagonal too many below diagonal k. Check your comparison where column - "
    "row is exactly k - 1.":
        "差了一条对角线：你在第 k 条对角线下面多保留了一条。检查列 - 行恰好等于 k - 1 处的比较。",
    "You kept the lower triangle (torch.tril): the upper triangle is where the column index is at least the row "
    "index plus k -- and the row index must vary down axis 0.":
        "你保留的是下三角（torch.tril）：上三角是列号至少为行号加 k 的位置——而且行号应沿第 0 维变化。",
    "Each total must include a[i] itself: result[i] = a[0] + ... + a[i]. Check `<` against `<=` in your mask.":
        "每个累计和都要包含 a[i] 本身：result[i] = a[0] + ... + a[i]。检查掩码里用的是 `<` 还是 `<=`。",
    "You added from the far end (a[i] + ... + a[n-1]): your mask selects j >= i where it should select j <= i "
    "-- or you summed over the other axis.":
        "你是从另一端加起的（a[i] + ... + a[n-1]）：你的掩码选了 j >= i，应当选 j <= i——或者你沿另一个维度求了和。",
    "An index is out of range: the indices run from 0 to n - 1, so the mirror of position i is not n - i.":
        "有索引越界：索引从 0 到 n - 1，所以位置 i 的镜像不是 n - i。",
    "Off by one: the first element of the result must be the last one of `a`, a[n - 1].":
        "差了一位：结果的第一个元素应当是 `a` 的最后一个，a[n - 1]。",
    "Rolled the wrong way: with s = 1 the last element moves to the front, so result[i] comes from position "
    "i - s.":
        "滚动方向反了：s = 1 时最后一个元素移到最前面，所以 result[i] 来自位置 i - s。",
    "An index is out of range: every position must wrap around into 0 ... n - 1, also for a shift larger than "
    "the length.":
        "有索引越界：每个位置都要绕回到 0 ... n - 1 之内，位移大于长度时也一样。",
    "Rows and columns are swapped: the result has one row per element of `a` and n columns.":
        "行和列弄反了：结果中 `a` 的每个元素占一行，共 n 列。",
    "You summed over the wrong axis: there is one count per value 0 ... n - 1, so sum over the axis that runs "
    "along the elements of `a`.":
        "求和的维度错了：每个值 0 ... n - 1 各有一个计数，所以要沿 `a` 的元素所在的那个维度求和。",
    "Off by one: a row of length L keeps positions 0 ... L - 1, so position L is already 0.":
        "差了一位：长度为 L 的行保留位置 0 ... L - 1，位置 L 已经是 0。",
    "The lengths belong to the rows: `lengths` must vary down axis 0 and the positions along axis 1.":
        "长度属于各行：`lengths` 应沿第 0 维变化，位置沿第 1 维变化。",
    "The result must always have length j: when j is smaller than len(a), keep only the first j.":
        "结果的长度必须总是 j：当 j 小于 len(a) 时，只保留前 j 个。",
    "The new places must hold 0, not copies of `a`'s elements.": "新增的位置应当是 0，而不是 `a` 元素的副本。",
    "That repeats the whole vector r times (like `a.repeat(r)`); here each element repeats in place. Which "
    "element does output position p copy?":
        "这是把整个向量重复 r 次（像 `a.repeat(r)`）；这里要让每个元素就地重复。输出位置 p 复制的是哪个元素？",
    "n points make n - 1 gaps, and the last point must be exactly `stop`: check what you divide by.":
        "n 个点之间有 n - 1 个间隔，最后一个点必须正好是 `stop`：检查你除以的是什么。",
    "`a` and `b` ended up as columns: vstack makes them the two rows, shape (2, n).":
        "`a` 和 `b` 成了列：vstack 把它们作为两行，形状为 (2, n)。",
    "The rows are in the wrong order: `a` comes first.": "行的顺序反了：`a` 在前。",
    "At exactly a == 0 the result is b there, not 0 or 1.": "恰好在 a == 0 处，结果是那里的 b，而不是 0 或 1。",
    "The kept values must move to the front: the k-th True goes to position k. Count the Trues before each "
    "element (an earlier puzzle counts).":
        "保留的值要移到最前面：第 k 个 True 去位置 k。数一数每个元素前面有几个 True（前面有道谜题就是计数的）。",
    "You summed over the wrong axis: the result has one entry per target position 0 ... n - 1.":
        "求和的维度错了：结果中每个目标位置 0 ... n - 1 各有一项。",
}
