"""Lesson 10's own hints in Chinese (coursekit/lesson10.py), keyed by their English text."""

ZH = {
    # -- exercise 1: the second derivative ---------------------------------------------------------
    "f(x) = x ** 3 at x = 3": "f(x) = x ** 3，x = 3 处",
    "f(x) = sin(x) * x at x = 1": "f(x) = sin(x) * x，x = 1 处",
    "f(x) = exp(2 x) at x = 0.5": "f(x) = exp(2 x)，x = 0.5 处",
    "The first derivative came back as a plain tensor without history: compute it with create_graph=True, so that "
    "autograd records the backward pass and can differentiate it again.":
        "一阶导数回来时是一个没有历史的普通张量：用 create_graph=True 来求它，"
        "这样自动求导才会记录下反向传播本身，从而能再求一次导。",
    "The graph was freed after the first pass: create_graph=True (which also keeps the graph) on the first "
    "derivative.":
        "第一遍之后计算图就被释放了：求一阶导数时传入 create_graph=True（它也会保留计算图）。",
    "Return the tensor autograd gives you (not .item(), not the tuple autograd.grad returns).":
        "返回自动求导给你的那个张量（不要 .item()，也不要 autograd.grad 返回的那个元组）。",
    "That is f'(x), the first derivative: differentiate it once more.": "这是一阶导数 f'(x)：再对它求一次导。",
    "That is f'(x) + f''(x): x.grad accumulates, so a second backward() adds f'' to the f' the first one left "
    "there. Use torch.autograd.grad, which returns gradients without touching .grad.":
        "这是 f'(x) + f''(x)：x.grad 会累加，所以第二次 backward() 把 f'' 加到了第一次留下的 f' 上。"
        "改用 torch.autograd.grad，它直接返回梯度，不碰 .grad。",
    "a function body that returns f''(x), using torch.autograd.grad twice":
        "一个函数体，调用两次 torch.autograd.grad，返回 f''(x)",
    "create_graph=True made the first derivative a function of x that autograd can differentiate again.":
        "create_graph=True 让一阶导数成了 x 的函数，自动求导可以再对它求导。",
    # -- exercise 2: a Jacobian, row by row --------------------------------------------------------
    "f(v) = A @ v, A of shape (2, 3), v = [1, 2, 3]": "f(v) = A @ v，A 的形状为 (2, 3)，v = [1, 2, 3]",
    "Every autograd.grad call frees the graph it went through, and the rows share one graph: pass "
    "retain_graph=True to keep it for the next row.":
        "每次调用 autograd.grad 都会释放它走过的计算图，而各行共用同一张图：传入 retain_graph=True，把图留给下一行。",
    "Differentiate one output element at a time: y[i] is a scalar; y is not.":
        "一次只对一个输出元素求导：y[i] 是标量，y 不是。",
    "That is the transpose: row i of the Jacobian is the gradient of y[i], so stack the gradients as rows "
    "(torch.stack(rows) stacks along a new dim 0).":
        "这是转置：雅可比矩阵的第 i 行是 y[i] 的梯度，所以要把各个梯度作为行堆叠起来"
        "（torch.stack(rows) 沿新的第 0 维堆叠）。",
    "That is the gradient of y.sum(): the sum of the Jacobian's rows. One backward pass per output element gives "
    "one row each.":
        "这是 y.sum() 的梯度：雅可比矩阵各行之和。每个输出元素做一次反向传播，各得一行。",
    "a function body that returns the Jacobian of f at x, one autograd.grad call per row":
        "一个函数体，返回 f 在 x 处的雅可比矩阵，每一行调用一次 autograd.grad",
    "One backward pass per output element -- which is how torch.autograd.functional.jacobian builds it too.":
        "每个输出元素一次反向传播——torch.autograd.functional.jacobian 也是这样构造它的。",
    # -- exercise 3: predictions -------------------------------------------------------------------
    "The Jacobian keeps the input's shape: the output's shape followed by the input's, nothing flattened.":
        "雅可比矩阵保留输入的形状：输出的形状后面接着输入的形状，什么都不展平。",
    "The Jacobian has the output's shape followed by the input's: one block of the input's shape per output "
    "element.":
        "雅可比矩阵的形状是输出的形状后面接着输入的形状：每个输出元素对应一块输入形状的数据。",
    "Without create_graph, backward runs in no-grad mode: the gradient is a plain tensor with no history, and "
    "cannot be differentiated again.":
        "没有 create_graph 时，反向传播在 no-grad 模式下运行：梯度是一个没有历史的普通张量，不能再求导。",
    "create_graph=True records the backward pass's own operations: the gradient has a grad_fn.":
        "create_graph=True 会记录反向传播自己的运算：梯度有 grad_fn。",
    "The Hessian has one entry per pair (i, j) of input elements.": "输入元素的每一对 (i, j)，黑塞矩阵都有一项。",
    "a tuple of 4 predictions, e.g. (True, False, (3,), (2, 3))": "一个含 4 个预测的元组，例如 (True, False, (3,), (2, 3))",
    "A gradient is a tensor like any other: with create_graph=True, it has a graph of its own.":
        "梯度和其他张量一样也是张量：有了 create_graph=True，它就有自己的计算图。",
}
