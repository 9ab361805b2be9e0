"""Lesson 13's own hints in Chinese (coursekit/lesson13.py), keyed by their English text."""

ZH = {
    # -- exercise 1: shapes and values -------------------------------------------------------------
    "The number is right; write it as a float (.item() of a float tensor is a Python float).":
        "数值对了；请写成浮点数（浮点张量的 .item() 是一个 Python 浮点数）。",
    "The weight is [out_features, in_features]: one row of input weights per output feature.":
        "权重是 [out_features, in_features]：每个输出特征一行输入权重。",
    "A Linear maps each sample's in_features numbers to out_features numbers; the batch dimension stays as it is.":
        "Linear 把每个样本的 in_features 个数映射为 out_features 个数；批次维度保持不变。",
    "Linear only looks at the last dimension (x @ W.T broadcasts over the leading ones).":
        "Linear 只看最后一个维度（x @ W.T 会在前面的各维上广播）。",
    "Square each error (prediction minus target); the default reduction then takes their mean.":
        "把每个误差（预测值减目标值）平方；默认的归约方式再取它们的平均值。",
    'reduction="sum" adds the squared errors instead of averaging them.':
        'reduction="sum" 把误差的平方加起来，而不是取平均。',
    'reduction="none" keeps one loss per sample (the classes are summed over inside each loss).':
        'reduction="none" 为每个样本保留一个损失（类别在每个损失内部已经求和）。',
    "Softmax turns equal scores into equal probabilities, whatever the scores are: they sum to 1.":
        "不管得分是多少，softmax 都把相等的得分变成相等的概率：它们的和为 1。",
    "a tuple of 7 predictions: shapes as tuples, values as floats": "一个含 7 个预测的元组：形状写成元组，数值写成浮点数",
    'A Linear maps the last dimension from in_features to out_features; a loss reduces to one number unless '
    'reduction="none".':
        'Linear 把最后一个维度从 in_features 映射为 out_features；损失会归约为一个数，除非 reduction="none"。',
    # -- exercise 2: a linear layer by hand --------------------------------------------------------
    "x of shape (5, 3), weight (2, 3), bias (2,)": "形状为 (5, 3) 的 x，weight (2, 3)，bias (2,)",
    "x of shape (4, 7, 3), weight (2, 3), bias (2,)": "形状为 (4, 7, 3) 的 x，weight (2, 3)，bias (2,)",
    "weight is [out_features, in_features], so x (..., in_features) must meet its *transpose*.":
        "weight 是 [out_features, in_features]，所以 x (..., in_features) 要和它的*转置*相乘。",
    "torch.mm only takes 2-D matrices; @ (matmul) treats the leading dims of x as a batch.":
        "torch.mm 只接受二维矩阵；@（matmul）会把 x 前面的各维当作批次。",
    "That is x W^T without the bias: add bias (it broadcasts over the batch).":
        "这是没有偏置的 x W^T：加上 bias（它会在批次上广播）。",
    "The bias is added, not subtracted.": "偏置是加上去的，不是减去的。",
    "a function body that returns x W^T + b": "一个返回 x W^T + b 的函数体",
    "That is exactly F.linear, which nn.Linear.forward calls (as one fused addmm).":
        "这正是 F.linear，nn.Linear.forward 调用的就是它（作为一次融合的 addmm）。",
    # -- exercise 3: cross-entropy from log_softmax and nll ------------------------------------------
    "logits [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], target [0, 1]": "logits [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]，target [0, 1]",
    "logits of shape (4, 5), target [4, 0, 2, 2]": "形状为 (4, 5) 的 logits，target [4, 0, 2, 2]",
    "large logits [[1000.0, 0.0, -1000.0], [0.0, 1000.0, 10.0]], target [1, 0]":
        "很大的 logits [[1000.0, 0.0, -1000.0], [0.0, 1000.0, 10.0]]，target [1, 0]",
    "Pick one log-probability per row, the one at that row's target: index the rows and the columns together (or "
    "let nll_loss do it).":
        "每行取一个对数概率，即该行目标类别处的那个：行和列一起索引（或者让 nll_loss 来做）。",
    "Return a tensor (the loss), so that backward() can run through it.": "返回一个张量（损失），这样 backward() 才能穿过它。",
    "Taking exp of large logits overflows (exp(1000) is inf in float32) or rounds the other probabilities to 0, and "
    "log(0) = -inf. log_softmax computes x - logsumexp(x) without ever forming those numbers.":
        "对很大的 logits 取 exp 会溢出（在 float32 中 exp(1000) 是 inf），或者把其他概率舍入成 0，"
        "而 log(0) = -inf。log_softmax 计算 x - logsumexp(x)，从头到尾都不会构造出这些数。",
    "Cross-entropy is the *negative* log-likelihood: -log p of the true class.":
        "交叉熵是*负*对数似然：真实类别的 -log p。",
    "Average over the batch (the default reduction is the mean), not the sum.": "在批次上取平均（默认的归约方式是均值），而不是求和。",
    "Reduce the per-sample losses to their mean: one number for the batch.": "把每个样本的损失归约为它们的平均值：整个批次一个数。",
    "nll_loss expects *log*-probabilities: use log_softmax, not softmax.": "nll_loss 要的是*对数*概率：用 log_softmax，不是 softmax。",
    "nll_loss does not apply a softmax; give it log-probabilities, not the raw logits.":
        "nll_loss 不会做 softmax；给它对数概率，而不是原始的 logits。",
    "Normalise over the classes of each sample: log_softmax(logits, dim=1), not dim=0.":
        "在每个样本的各个类别上归一化：log_softmax(logits, dim=1)，不是 dim=0。",
    "the result does not depend on the logits in autograd's eyes (no grad_fn)":
        "在自动求导看来，结果并不依赖于 logits（没有 grad_fn）",
    "Compute the loss with tensor operations on the logits (no .item(), .detach() or .numpy()).":
        "用对 logits 的张量运算来计算损失（不要 .item()、.detach() 或 .numpy()）。",
    "The values are right but the gradient is not: is part of the loss computed outside autograd?":
        "数值对了，梯度却不对：损失是不是有一部分是在自动求导之外算的？",
    "a function body that returns the mean cross-entropy of `logits` (N, C) against class indices `target` (N,)":
        "一个函数体，返回 `logits` (N, C) 相对于类别索引 `target` (N,) 的平均交叉熵",
    "log_softmax + nll_loss is exactly how F.cross_entropy is built, and its gradient is (softmax - one_hot) / N.":
        "F.cross_entropy 正是由 log_softmax + nll_loss 搭成的，它的梯度是 (softmax - one_hot) / N。",
}
