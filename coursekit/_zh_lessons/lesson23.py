"""Lesson 23's own hints in Chinese (coursekit/lesson23.py), keyed by their English text."""

ZH = {
    # -- exercise 1: softplus with backward and jvp -------------------------------------------------
    "x = [-2, 0, 0.5, 3] and grad = [1, -1, 2, 0.5]": "x = [-2, 0, 0.5, 3]、grad = [1, -1, 2, 0.5]",
    "x = [-2, 0, 0.5, 3] with the tangent t = [1, -1, 2, 0.5]": "x = [-2, 0, 0.5, 3]，切向量 t = [1, -1, 2, 0.5]",
    "Multiply by grad: backward receives d(loss)/dy and returns d(loss)/dx = grad * dy/dx.":
        "要乘上 grad：backward 收到的是 d(loss)/dy，返回的是 d(loss)/dx = grad * dy/dx。",
    "exp(x) is the derivative of exp; softplus is log(1 + exp(x)): the chain rule through the log divides by "
    "1 + exp(x).":
        "exp(x) 是 exp 的导数；softplus 是 log(1 + exp(x))：链式法则穿过 log 时，还要除以 1 + exp(x)。",
    "Mind the sign: softplus is increasing, and its slope tends to 1 for large x.":
        "注意符号：softplus 是增函数，x 很大时它的斜率趋于 1。",
    "That is the derivative of sigmoid -- one derivative too many.": "这是 sigmoid 的导数——多求了一次导。",
    "backward returns grad * dy/dx: work out d/dx log(1 + exp(x)).":
        "backward 返回 grad * dy/dx：先求出 d/dx log(1 + exp(x))。",
    "Add a third @staticmethod, jvp(ctx, x_tangent): forward mode calls it with the input's tangent and takes what "
    "it returns as the output's tangent.":
        "加上第三个 @staticmethod：jvp(ctx, x_tangent)。前向模式用输入的切向量调用它，并把它的返回值当作输出的切向量。",
    "In jvp, ctx.saved_tensors holds what forward passed to ctx.save_for_forward; the tensors of "
    "ctx.save_for_backward are kept for backward only.":
        "在 jvp 里，ctx.saved_tensors 装的是 forward 交给 ctx.save_for_forward 的东西；"
        "ctx.save_for_backward 保存的张量只留给 backward。",
    "jvp returns the output's tangent, of the output's shape: elementwise, nothing summed.":
        "jvp 返回输出的切向量，形状和输出一样：逐元素计算，什么都不求和。",
    "jvp returns one tangent per output of forward -- softplus has one.":
        "forward 有几个输出，jvp 就返回几个切向量——softplus 只有一个输出。",
    "Multiply by the tangent: jvp receives the input's tangent t and returns J t -- here dy/dx times t, "
    "elementwise.":
        "要乘上切向量：jvp 收到输入的切向量 t，返回 J t——在这里就是 dy/dx 逐元素乘以 t。",
    "That is the input's tangent unchanged: multiply it by the derivative dy/dx.":
        "这是原封不动的输入切向量：还要把它乘上导数 dy/dx。",
    "That is the output y times t; the tangent is the *derivative* times t.":
        "这是输出 y 乘以 t；切向量是*导数*乘以 t。",
    "jvp returns dy/dx * t: work out d/dx log(1 + exp(x)).": "jvp 返回 dy/dx * t：先求出 d/dx log(1 + exp(x))。",
    "forward-mode AD through Softplus.apply": "用前向模式自动求导穿过 Softplus.apply 时",
    "the output has no tangent": "输出没有切向量",
    "jvp must return the output's tangent (a tensor), not None.": "jvp 必须返回输出的切向量（一个张量），而不是 None。",
    "the output's tangent": "输出的切向量",
    "the bodies of forward (compute y = log(1 + exp(x)), save what backward and jvp need, return y), backward (grad "
    "times dy/dx) and jvp (dy/dx times the tangent)":
        "forward 的函数体（计算 y = log(1 + exp(x))，保存 backward 和 jvp 需要的东西，返回 y）、"
        "backward 的函数体（grad 乘以 dy/dx）和 jvp 的函数体（dy/dx 乘以切向量）",
    "Write `class Softplus(torch.autograd.Function):` with three @staticmethods: forward, backward and jvp.":
        "写成 `class Softplus(torch.autograd.Function):`，带三个 @staticmethod：forward、backward 和 jvp。",
    "backward gives grad * sigmoid(x) (a row of J at a time), jvp gives sigmoid(x) * t (a column) -- the same "
    "derivative, used in the two directions.":
        "backward 给出 grad * sigmoid(x)（一次得到 J 的一行），jvp 给出 sigmoid(x) * t（一列）——"
        "同一个导数，朝两个方向使用。",
    # -- exercise 2: a Jacobian, column by column ---------------------------------------------------
    "f(v) = A @ v, A of shape (2, 3), v = [1, 2, 3]": "f(v) = A @ v，A 的形状为 (2, 3)，v = [1, 2, 3]",
    "f(v) = Cube.apply(v), a Function with a jvp and no backward, v = [1, -2]":
        "f(v) = Cube.apply(v)，一个有 jvp、没有 backward 的 Function，v = [1, -2]",
    "make_dual works only inside `with fwAD.dual_level():` -- open the level first.":
        "make_dual 只能在 `with fwAD.dual_level():` 里面用——先打开层级。",
    "A tangent was None: leaving the dual level forgets every tangent made in it, so read each column with "
    "unpack_dual inside the `with` block.":
        "有个切向量是 None：离开对偶层级时，在其中造出的切向量全都会被忘掉，所以要在 `with` 块里面用 "
        "unpack_dual 读出每一列。",
    "This f can only be differentiated in forward mode: build each column from the tangent of a dual input "
    "(make_dual), not with backward, autograd.grad or jacobian().":
        "这个 f 只能用前向模式求导：每一列都要由一个对偶输入（make_dual）的切向量得到，"
        "而不是用 backward、autograd.grad 或 jacobian()。",
    "A tangent must be floating point, like x: build it with torch.zeros_like(x).":
        "切向量必须是浮点数，和 x 一样：用 torch.zeros_like(x) 来构造它。",
    "The tangent of x has x's shape: one vector e_j with a 1 at position j.":
        "x 的切向量和 x 形状相同：一个在位置 j 上为 1 的向量 e_j。",
    "Return one tensor: the columns stacked side by side.": "返回一个张量：把各列并排堆叠起来。",
    "That is the transpose: the tangent J e_j is column j, so stack the columns along dim 1.":
        "这是转置：切向量 J e_j 是第 j 列，所以要沿第 1 维把各列堆叠起来。",
    "Every column is J times a vector of ones (the row sums): the tangent for column j is e_j, a 1 at position j "
    "and 0 elsewhere.":
        "每一列都是 J 乘以全 1 向量（即各行之和）：第 j 列用的切向量是 e_j，位置 j 上为 1，其余为 0。",
    "Those columns are f(x): unpack_dual gives (primal, tangent), and the column is the tangent.":
        "这些列是 f(x)：unpack_dual 给出 (primal, tangent)，列是其中的切向量。",
    "a function body that returns the Jacobian of f at x, one dual input (make_dual) per column":
        "一个函数体，返回 f 在 x 处的雅可比矩阵，每一列用一个对偶输入（make_dual）",
    'One forward pass per input element, each giving a column J e_j -- what jacobian(..., strategy="forward-mode") '
    'and jacfwd do.':
        '每个输入元素一次前向传播，每次得到一列 J e_j——jacobian(..., strategy="forward-mode") 和 jacfwd 做的正是这件事。',
    # -- exercise 3: predictions -------------------------------------------------------------------
    "That counts the outputs; forward mode pays per input: one forward pass per column J e_j.":
        "这数的是输出个数；前向模式按输入计费：每一列 J e_j 一次前向传播。",
    "One forward pass gives one column J e_j of the Jacobian: how many columns does it have?":
        "一次前向传播给出雅可比矩阵的一列 J e_j：它一共有多少列？",
    "That is forward mode's price; reverse mode pays per output: one backward pass per row.":
        "这是前向模式的代价；反向模式按输出计费：每一行一次反向传播。",
    "One backward pass gives one row of the Jacobian (lesson 10): how many rows does it have?":
        "一次反向传播给出雅可比矩阵的一行（第 10 课）：它一共有多少行？",
    "y = fwAD.make_dual(x, v) * 2 inside the level -> fwAD.unpack_dual(y).tangent after it":
        "在层级内 y = fwAD.make_dual(x, v) * 2 -> 层级结束后 fwAD.unpack_dual(y).tangent",
    "Tangents belong to the level they were made in: what is left of them once it ends?":
        "切向量属于造出它们的那个层级：层级结束之后，它们还剩下什么？",
    "calls of f made by jacobian_columns(f, x), f: R^100 -> R^2": "jacobian_columns(f, x) 调用 f 的次数，f: R^100 -> R^2",
    "backward passes made by lesson 10's jacobian_rows(f, x), the same f":
        "第 10 课的 jacobian_rows(f, x) 做的反向传播次数，f 相同",
    "The tangent goes through the same linear steps as the value: doubled, then summed over every element.":
        "切向量经历和值一样的线性步骤：先乘以 2，再对所有元素求和。",
    "a tuple of 4 predictions, e.g. (0.0, 1, 1, 1.0)": "一个含 4 个预测的元组，例如 (0.0, 1, 1, 1.0)",
    "Forward mode pays per input, reverse mode per output.": "前向模式按输入计费，反向模式按输出计费。",
    # -- the figure: one column by a JVP, one row by a VJP -----------------------------------------
    "one JVP, J e₁:\none forward pass": "一次 JVP，J e₁：\n一次前向传播",
    "one VJP, e₂ᵀ J:\none backward pass": "一次 VJP，e₂ᵀ J：\n一次反向传播",
    "The Jacobian of f: 3 outputs × 4 inputs": "f 的雅可比矩阵：3 个输出 × 4 个输入",
    "The 3 x 4 Jacobian of f, its values in a grid: column 1, marked, is what one JVP (one forward pass) gives; "
    "row 2, marked, is what one VJP (one backward pass) gives.":
        "f 的 3 x 4 雅可比矩阵，各元素排成网格：标出的第 1 列是一次 JVP（一次前向传播）给出的；"
        "标出的第 2 行是一次 VJP（一次反向传播）给出的。",
}
