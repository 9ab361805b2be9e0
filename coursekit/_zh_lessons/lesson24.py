"""Lesson 24's own hints in Chinese (coursekit/lesson24.py), keyed by their English text."""

ZH = {
    # -- exercise 1: per-sample gradient norms -----------------------------------------------------
    "a Linear(3, 4)-Tanh-Linear(4, 1) model, x of shape (5, 3), y of shape (5, 1)":
        "一个 Linear(3, 4)-Tanh-Linear(4, 1) 模型，形状为 (5, 3) 的 x，形状为 (5, 1) 的 y",
    "the same model with 6 hidden units, x of shape (2, 3), y of shape (2, 1)":
        "同样的模型但有 6 个隐藏单元，形状为 (2, 3) 的 x，形状为 (2, 1) 的 y",
    "Every sample shares the parameters: map over x and y (in_dims 0) but not over the parameters (in_dims None).":
        "所有样本共用同一组参数：对 x 和 y 做映射（in_dims 为 0），但不对参数做映射（in_dims 为 None）。",
    "grad needs a function returning one number: the loss of one sample, reduced to a scalar (mse_loss does that).":
        "grad 需要一个只返回一个数的函数：一个样本的损失，归约成标量（mse_loss 会这么做）。",
    "That is one number for the whole batch: the gradient of the batch's loss mixes the samples. Write the loss of "
    "ONE sample and let vmap map it over the batch: one norm per sample.":
        "这是整批数据共用的一个数：整批损失的梯度把各个样本混在了一起。写出*一个*样本的损失，"
        "再让 vmap 把它映射到整批上：每个样本一个范数。",
    "Those are squared norms: take the square root of the sum of squares.": "这些是范数的平方：对平方和开平方根。",
    "That adds up one norm per parameter tensor; the norm of the whole gradient is the square root of the sum of ALL "
    "squares (square the per-parameter norms, add, then take the root).":
        "这是把每个参数张量的范数加了起来；整个梯度的范数是*所有*平方之和的平方根"
        "（先把各参数的范数平方，相加，再开平方根）。",
    "Only the first parameter's gradient counts there: the norm covers every parameter of the model.":
        "这里只算了第一个参数的梯度：范数要涵盖模型的每一个参数。",
    "a function body that returns one gradient norm per sample, with vmap, grad and functional_call":
        "一个函数体，用 vmap、grad 和 functional_call，为每个样本返回一个梯度范数",
    "One call of grad, mapped over the samples by vmap: the per-sample gradients that the gradient of a batch's "
    "loss averages away.":
        "一次 grad 调用，由 vmap 映射到各个样本上：这些逐样本梯度，正是整批损失的梯度在求平均时抹掉的东西。",
    # -- exercise 2: pairwise distances with in_dims -----------------------------------------------
    "a of shape {a}, b of shape {b}": "形状为 {a} 的 a，形状为 {b} 的 b",
    "One vmap over both a and b pairs a[i] with b[i] only. For every pair, nest two vmaps: each maps one argument, "
    "with in_dims None for the other.":
        "一个同时映射 a 和 b 的 vmap 只会把 a[i] 和 b[i] 配对。要得到所有的配对，就嵌套两个 vmap："
        "每个只映射一个参数，另一个参数的 in_dims 为 None。",
    "That is the transpose: rows should follow a -- the OUTER vmap maps a (in_dims (0, None)), the inner one maps b.":
        "这是转置：行应当对应 a——*外层*的 vmap 映射 a（in_dims 为 (0, None)），内层的映射 b。",
    "Those are squared distances: take the square root of the sum of squares.": "这些是距离的平方：对平方和开平方根。",
    "Only the pairs (a[i], b[i]): one vmap over both. For every pair, nest two vmaps, each mapping one argument "
    "(in_dims None for the other).":
        "只有 (a[i], b[i]) 这些配对：这是一个同时映射两者的 vmap。要得到所有的配对，就嵌套两个 vmap，"
        "每个只映射一个参数（另一个参数的 in_dims 为 None）。",
    "a function body that returns the (N, M) distances, from a function of one pair and two vmaps":
        "一个函数体，由一个处理一对向量的函数和两个 vmap 返回 (N, M) 的距离",
    "A function of one pair, batched twice by in_dims: no loop, no broadcasting by hand.":
        "一个处理一对向量的函数，借助 in_dims 批处理两次：没有循环，也不用手动广播。",
    # -- exercise 3: predictions -------------------------------------------------------------------
    "in_dims=1 maps over dim 1 of the first argument: one dot product per column, not per row.":
        "in_dims=1 沿第一个参数的第 1 维映射：每列一个点积，而不是每行一个。",
    "Each sample is one column of the first argument (in_dims=1), dotted with the whole second one.":
        "每个样本是第一个参数的一列（in_dims=1），与整个第二个参数做点积。",
    "That is where out_dims=0 would put the batch; out_dims=1 puts it in dim 1 of each result.":
        "那是 out_dims=0 放置批维度的位置；out_dims=1 把它放在每个结果的第 1 维。",
    "Each sample gives x.sum(0) of one (2, 3) sample; out_dims says where the batch dim goes.":
        "每个样本是一个 (2, 3) 的张量，得到它的 x.sum(0)；out_dims 决定批维度放在哪里。",
    "That is the input's shape alone; a Jacobian has the output's shape followed by the input's.":
        "这只是输入的形状；雅可比矩阵的形状是输出的形状后面接着输入的形状。",
    "A Jacobian has the output's shape followed by the input's (lesson 10).":
        "雅可比矩阵的形状是输出的形状后面接着输入的形状（第 10 课）。",
    "x.shape inside f, in vmap(f)(torch.ones(5, 3))": "vmap(f)(torch.ones(5, 3)) 中，f 内部的 x.shape",
    "Inside vmap, f sees one sample: the shape without the mapped dim.": "在 vmap 内部，f 看到的是一个样本：不含被映射那一维的形状。",
    "a tuple of 4 predictions, e.g. ((1,), (1, 1), (1,), (1, 1))": "一个含 4 个预测的元组，例如 ((1,), (1, 1), (1,), (1, 1))",
    "Inside vmap a function sees one sample; the batch dim comes back where out_dims puts it.":
        "在 vmap 内部，函数看到的是一个样本；批维度会回到 out_dims 指定的位置。",
}
