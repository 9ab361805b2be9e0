"""Lesson 03's own hints in Chinese (coursekit/lesson03.py), keyed by their English text."""

ZH = {
    "Read row by row, x.t() visits storage positions 0, 4, 8, 1, 5, ... -- no single stride walks that, so "
    "reshape has to copy (view would raise).":
        "逐行读取时，x.t() 依次访问存储区位置 0, 4, 8, 1, 5, ……——没有哪一个步长能这样走，"
        "所以 reshape 只能复制（view 会报错）。",
    "Only dim 0 of x.t() (size 4, stride 1) is split, into (2, 2) with strides (2, 1); dim 1 keeps stride 4. "
    "Splitting a dim never needs a copy -- reshape copies only when no strides can work.":
        "只有 x.t() 的第 0 维（大小 4，步长 1）被拆开，拆成步长为 (2, 1) 的 (2, 2)；"
        "第 1 维保持步长 4。拆分一个维度从来不需要复制——只有当任何步长都行不通时，reshape 才复制。",
    "x[:, :2] reads 0, 1, then jumps to 4, 5, then 8, 9: the gaps between rows mean that flattening cannot be "
    "one stride -- a copy.":
        "x[:, :2] 读 0, 1，然后跳到 4, 5，再到 8, 9："
        "行与行之间的空隙意味着展平后无法用一个步长描述——是副本。",
    "The first two rows are positions 0..7, back to back: that part of x is contiguous, so the reshape is a view.":
        "前两行是位置 0..7，一个紧挨一个：x 的这一部分是连续的，所以这次 reshape 是视图。",
    "x is already contiguous, and contiguous() then returns x itself.":
        "x 本来就是连续的，这时 contiguous() 返回的就是 x 自己。",
    "x.t() is not contiguous, so contiguous() copies it into a new row-major storage.":
        "x.t() 不连续，所以 contiguous() 把它复制到一个新的行优先存储区里。",
    "expand never copies: the new dim gets stride 0, so both 'copies' read the same storage.":
        "expand 从不复制：新维度的步长是 0，所以两份“副本”读的是同一个存储区。",
    "repeat really writes the elements again into a new, bigger storage; expand is the one that does not copy.":
        "repeat 真的把元素再写一遍，写进一个新的、更大的存储区；不复制的是 expand。",
    "a tuple of 8 booleans (True: shares x's storage), one per line of the table":
        "一个含 8 个布尔值的元组（True：与 x 共享存储区），表格每行一个",
    "reshape is a view whenever some strides can describe the result, and copies only when none can.":
        "只要有某组步长能描述结果，reshape 就是视图；只有任何步长都描述不了时才复制。",
    "Does every pair pass that test? If one does not, a + b cannot run.":
        "每一对都能通过这个检验吗？只要有一对不能，a + b 就无法运行。",
    "They do broadcast: check each pair again.": "它们确实能广播：再逐对检查一遍。",
    "Here a size 1 meets a larger size, and one shape is shorter.":
        "这里大小 1 遇上了更大的大小，而且有一个形状更短。",
    "Line the shapes up on the right, a missing dim counting as 1: in each pair the sizes must be equal or one "
    "of them 1, and the result takes the larger.":
        "把形状靠右对齐，缺少的维度按 1 算：每一对中的两个大小必须相等，或者其中一个为 1，结果取较大的那个。",
    "The shorter shape is reused for every row of the longer one.": "较短的形状被较长形状的每一行重复使用。",
    "Shapes line up on the *right*: which size of (2, 3) does the 2 meet?":
        "形状是靠*右*对齐的：2 对上的是 (2, 3) 的哪个大小？",
    "Compare 4 with 1, then 1 with 3, then 5 with the dim (3, 1) does not have.":
        "先比较 4 和 1，再比较 1 和 3，然后是 5 和 (3, 1) 所没有的那个维度。",
    "Compare from the right: the last sizes, then the 1 with the 2, then the leading 2 with a missing dim.":
        "从右边开始比较：先是最后的大小，然后是 1 和 2，再是开头的 2 和一个缺少的维度。",
    "Broadcasting never lines shapes up on the left: which size of (3, 4) does the (3,) meet? (To add a value "
    "per row, give it shape (3, 1).)":
        "广播从来不把形状靠左对齐：(3,) 对上的是 (3, 4) 的哪个大小？（要给每一行加一个值，"
        "就让它的形状是 (3, 1)。）",
    "A size-1 dim stretches to anything.": "大小为 1 的维度可以拉伸成任意大小。",
    "a tuple of 7 answers, each a shape such as (2, 3) or the string \"error\", one per line of the table":
        "一个含 7 个答案的元组，每个是一个形状，如 (2, 3)，或字符串 \"error\"，表格每行一个",
    "Line the shapes up on the right; each pair must be equal or contain a 1.":
        "把形状靠右对齐；每一对必须相等，或者含有一个 1。",
    "expand takes the *result's* sizes, one per dim (-1 keeps a size): dim 0 keeps its size, and only the size-1 "
    "dim can grow.":
        "expand 接受的是*结果*的大小，每个维度一个（-1 表示保持原大小）：第 0 维保持它的大小，"
        "只有大小为 1 的维度才能变大。",
    "view/reshape keep the number of elements; reading elements again needs expand.":
        "view/reshape 保持元素个数不变；要重复读取元素，需要 expand。",
    "That is (k, n): the result should have one row per element of col, (n, k).":
        "这是 (k, n)：结果应当让 col 的每个元素占一行，即 (n, k)。",
    "The values are right, but they were written out: repeat (or arithmetic such as col * ones) makes a new "
    "storage. expand reads the one column again with stride 0.":
        "值是对的，但它们被重新写了一遍：repeat（或 col * ones 这样的运算）会生成新的存储区。"
        "expand 则用步长 0 把那一列重复读取。",
    "the result has a storage of its own: it is a copy": "结果有它自己的存储区：它是副本",
    "expand gives the stretched dim stride 0, so every column reads the same stored elements.":
        "expand 让被拉伸的维度步长为 0，所以每一列读的都是同样那些存储的元素。",
    "a function body that returns an (n, k) view of col, without copying":
        "一个函数体，不复制地返回 col 的一个 (n, k) 视图",
    "expand: the same storage, stride 0 along the stretched dim.":
        "expand：同一个存储区，被拉伸的维度上步长为 0。",
    "grad of shape {grad}, shape = {shape}": "形状为 {grad} 的 grad，shape = {shape}",
    "Right numbers, wrong shape: a dim where the operand had size 1 must stay, with size 1 (sum with "
    "keepdim=True), and only the dims it did not have at all disappear.":
        "数对了，形状错了：操作数大小为 1 的维度必须保留，大小仍为 1（用 keepdim=True 求和），"
        "只有它根本没有的维度才消失。",
    "The operand had fewer dims than the result: the extra leading dims were added by broadcasting, and the "
    "gradient must be summed over them too.":
        "操作数的维度比结果少：多出来的前导维度是广播加上的，梯度也必须在这些维度上求和。",
    "Every dim where the operand had size 1 (and the result more) was stretched: sum over it, keeping it as size "
    "1 (keepdim=True).":
        "操作数大小为 1（而结果更大）的每个维度都被拉伸过：在它上面求和，"
        "并保留为大小 1（keepdim=True）。",
    "Each element of the operand was read n times and receives n gradients: they add up -- sum, not mean.":
        "操作数的每个元素被读了 n 次，就收到 n 份梯度：它们要加起来——是求和，不是求平均。",
    "Every copy that broadcasting made contributes its own gradient: add them all up (taking one copy, grad[..., "
    ":1], keeps only one of them).":
        "广播造出的每一份副本都贡献自己的梯度：把它们全部加起来（只取一份，grad[..., :1]，"
        "就只留下了其中一个）。",
    "a function body that returns grad summed back to `shape`":
        "一个函数体，返回求和回 `shape` 的 grad",
    "Sum away the dims the operand did not have, and sum with keepdim=True where it had size 1 -- what autograd "
    "does for every broadcast operand (grad.sum_to_size(shape)).":
        "对操作数没有的维度求和消去，对它大小为 1 的维度用 keepdim=True 求和——"
        "自动求导对每个被广播的操作数做的正是这件事（grad.sum_to_size(shape)）。",
}
