"""Lesson 15's own hints in Chinese (coursekit/lesson15.py), keyed by their English text."""

ZH = {
    # -- exercise 1: predictions -------------------------------------------------------------------
    "The number is right; write it as a float (.item() of a float tensor is a Python float).":
        "数值对了；请写成浮点数（浮点张量的 .item() 是一个 Python 浮点数）。",
    "BatchNorm2d(C) keeps one running mean per channel -- not per pixel or per sample.":
        "BatchNorm2d(C) 为每个通道保存一个滑动均值——不是每个像素，也不是每个样本。",
    "LayerNorm learns one scale per element of normalized_shape.": "LayerNorm 为 normalized_shape 的每个元素学习一个缩放。",
    "normalized_shape names all the trailing dims LayerNorm normalizes over: it learns one scale for every element "
    "of them, kept in that shape.":
        "normalized_shape 列出的是 LayerNorm 要归一化的全部末尾维度：它为其中每个元素学习一个缩放，并保持这个形状。",
    "BatchNorm2d computes one mean per *channel*, over the batch and all positions -- dims (0, 2, 3); after it, "
    "those means are ~0. A sample's mean over its channels (dims (1, 2, 3)) is not.":
        "BatchNorm2d 为每个*通道*计算一个均值，跨越整个批次和所有位置——即维度 (0, 2, 3)；"
        "归一化之后，这些均值约为 0。而一个样本在它各个通道上的均值（维度 (1, 2, 3)）则不然。",
    "LayerNorm([5, 5]) normalizes over the last two dims, separately for every (sample, channel): each 5 x 5 plane "
    "has mean ~0.":
        "LayerNorm([5, 5]) 在最后两个维度上归一化，每个（样本，通道）各自进行：每个 5 x 5 的平面均值约为 0。",
    "In training, the survivors are scaled by 1 / (1 - p).": "训练时，幸存下来的元素乘以 1 / (1 - p)。",
    "A new module is in training mode: the survivors are scaled by 1 / (1 - p), so that the expected value stays 1.":
        "新建的模块处于训练模式：幸存下来的元素乘以 1 / (1 - p)，这样期望值仍然是 1。",
    "The survivors are *divided* by (1 - p), not multiplied: 1 / 0.8.": "幸存的元素是*除以* (1 - p)，不是乘：1 / 0.8。",
    "In eval mode Dropout does nothing at all: no zeros, no scaling.": "在评估模式下 Dropout 什么也不做：不置零，也不缩放。",
    "kaiming_normal_ for relu draws with std = sqrt(2 / fan_in), and fan_in of a weight [out, in] is its number of "
    "inputs.":
        "针对 relu 的 kaiming_normal_ 以 std = sqrt(2 / fan_in) 采样，而权重 [out, in] 的 fan_in 是它的输入个数。",
    "fan_in is the number of *inputs* of each unit: the second size of a [out, in] weight, not the first.":
        "fan_in 是每个单元的*输入*个数：权重 [out, in] 的第二个尺寸，不是第一个。",
    "For relu the gain is sqrt(2): std = sqrt(2 / fan_in), not sqrt(1 / fan_in).":
        "对 relu 来说增益是 sqrt(2)：std = sqrt(2 / fan_in)，不是 sqrt(1 / fan_in)。",
    "a tuple of 8 predictions: shapes as tuples, True/False, floats": "一个含 8 个预测的元组：形状写成元组，还有 True/False 和浮点数",
    "BatchNorm shares statistics across the batch, LayerNorm within a sample; Dropout only acts in training.":
        "BatchNorm 在整个批次上共享统计量，LayerNorm 在单个样本内部；Dropout 只在训练时起作用。",
    # -- exercise 2: the running statistics by hand ------------------------------------------------
    "running_mean zeros(3), running_var ones(3), the lesson's x (4, 3), momentum 0.1":
        "running_mean zeros(3)，running_var ones(3)，课里的 x (4, 3)，momentum 0.1",
    "running_mean [1., -1.], running_var [2., 0.5], x of shape (6, 2), momentum 0.3":
        "running_mean [1., -1.]，running_var [2., 0.5]，形状为 (6, 2) 的 x，momentum 0.3",
    "One statistic per feature (column): reduce over the batch, dim=0.": "每个特征（列）一个统计量：在批次上归约，dim=0。",
    "Return a pair: (new running_mean, new running_var).": "返回一对值：(新的 running_mean, 新的 running_var)。",
    "momentum is the weight of the *new* batch statistic (the opposite of an optimizer's momentum): running = "
    "(1 - momentum) * running + momentum * batch.":
        "momentum 是*新*批次统计量的权重（和优化器的动量正好相反）：running = (1 - momentum) * running + momentum * batch。",
    "running_var uses the *unbiased* variance of the batch (divide by N - 1: x.var(dim=0)), while the "
    "normalization itself uses the biased one.":
        "running_var 用的是批次的*无偏*方差（除以 N - 1：x.var(dim=0)），而归一化本身用的是有偏方差。",
    "running_var holds a variance, not a standard deviation.": "running_var 存的是方差，不是标准差。",
    "Those are the batch's statistics; the running ones are an average: keep (1 - momentum) of the old value.":
        "这些是本批次的统计量；滑动统计量是一个平均：要保留旧值的 (1 - momentum)。",
    "a function body that returns (new running_mean, new running_var) after BatchNorm1d sees the batch x (N, C) in "
    "training mode":
        "一个函数体，返回 BatchNorm1d 在训练模式下看过批次 x (N, C) 之后的 (新的 running_mean, 新的 running_var)",
    "That is _update_running in tensorlab/ops/nn_norm.py: running = (1 - momentum) * running + momentum * batch, "
    "with the unbiased variance.":
        "这就是 tensorlab/ops/nn_norm.py 中的 _update_running：running = (1 - momentum) * running + momentum * batch，"
        "用的是无偏方差。",
    # -- exercise 3: BatchNorm in eval mode by hand ------------------------------------------------
    "the lesson's x (4, 3) and a BatchNorm1d(3) with running_var [4.0, 0.25, 1e-05]":
        "课里的 x (4, 3)，以及一个 running_var 为 [4.0, 0.25, 1e-05] 的 BatchNorm1d(3)",
    "x of shape (2, 2, 3, 4) and a BatchNorm2d(2)": "形状为 (2, 2, 3, 4) 的 x，以及一个 BatchNorm2d(2)",
    "running_mean has shape (C,): against an (N, C, H, W) input it lines up with the *last* dim. Reshape the "
    "statistics and parameters to (1, C, 1, 1), or (1, C) for (N, C).":
        "running_mean 的形状是 (C,)：对 (N, C, H, W) 的输入，它对齐的是*最后*一维。"
        "把统计量和参数变形为 (1, C, 1, 1)，对 (N, C) 的输入则是 (1, C)。",
    "That normalizes with the batch's own mean and variance -- what training mode does. In eval mode BatchNorm "
    "uses running_mean and running_var instead.":
        "这是用本批次自己的均值和方差做归一化——那是训练模式的做法。在评估模式下，BatchNorm 改用 running_mean 和 running_var。",
    "Add eps inside the square root, sqrt(running_var + eps): it matters when a variance is tiny (one channel here "
    "has running_var 1e-05).":
        "把 eps 加在平方根里面，sqrt(running_var + eps)：方差很小时它就很要紧（这里有一个通道的 running_var 是 1e-05）。",
    "Divide by the standard deviation, sqrt(running_var + eps), not by the variance.":
        "除以标准差 sqrt(running_var + eps)，而不是除以方差。",
    "Then scale by weight and shift by bias (the learned gamma and beta).":
        "然后用 weight 缩放、用 bias 平移（即学到的 gamma 和 beta）。",
    "Then shift by bias (the learned beta).": "然后用 bias 平移（即学到的 beta）。",
    "a function body that returns what bn.eval()(x) returns, computed from bn's running_mean, running_var, eps, "
    "weight and bias":
        "一个函数体，用 bn 的 running_mean、running_var、eps、weight 和 bias 算出 bn.eval()(x) 的返回值",
    "In eval mode BatchNorm is a fixed per-channel scale and shift: the same output for a sample whatever else is "
    "in the batch.":
        "在评估模式下，BatchNorm 是每个通道固定的缩放和平移：一个样本的输出与批次里还有什么无关。",
    # -- exercise 4: ResNet's basic block ----------------------------------------------------------
    "The block ends with a ReLU *after* the addition: relu(bn2(...) + shortcut).":
        "这个块以加法*之后*的一个 ReLU 结尾：relu(bn2(...) + shortcut)。",
    "The last ReLU comes after the addition, not before it: add the shortcut to bn2's output, then apply ReLU.":
        "最后一个 ReLU 在加法之后，而不是之前：先把捷径加到 bn2 的输出上，再施加 ReLU。",
    "Add the shortcut: the block returns relu(F(x) + shortcut), not relu(F(x)) -- the `+ x` is what makes it "
    "residual.":
        "要加上捷径：这个块返回 relu(F(x) + shortcut)，而不是 relu(F(x))——正是 `+ x` 让它成为残差块。",
    "A ReLU goes between the two convolutions too: conv1 -> bn1 -> relu -> conv2 -> bn2.":
        "两个卷积之间也要有一个 ReLU：conv1 -> bn1 -> relu -> conv2 -> bn2。",
    "Add the shortcut after bn2, not before it: bn2 normalizes only the residual branch.":
        "在 bn2 之后加捷径，而不是之前：bn2 只归一化残差分支。",
    "Keep __init__ as the lesson gives it; only forward is yours.": "__init__ 保持课里给出的样子；你只需要写 forward。",
    "{label}.load_state_dict(...) of a torchvision-style block failed: {error}":
        "{label}.load_state_dict(...) 加载 torchvision 风格的块失败：{error}",
    "Keep __init__ as the lesson gives it (conv1, bn1, relu, conv2, bn2, downsample): those names are what a "
    "ResNet's state_dict uses.":
        "__init__ 保持课里给出的样子（conv1、bn1、relu、conv2、bn2、downsample）：ResNet 的 state_dict 用的就是这些名字。",
    "With stride 2 or a change of channels the output no longer has x's shape: then the shortcut is "
    "self.downsample(x), not x.":
        "步长为 2 或通道数改变时，输出就不再是 x 的形状了：这时捷径是 self.downsample(x)，而不是 x。",
    "{label} in {mode}": "{mode} 模式下的 {label}",
    "{label} returned {kind}, not a tensor": "{label} 返回了{kind}，而不是张量",
    "forward computes relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut).":
        "forward 计算 relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut)。",
    "x.grad after {label}(x).backward(g)": "{label}(x).backward(g) 之后的 x.grad",
    "Build the output from the block's layers with differentiable tensor ops only.":
        "只用可求导的张量运算，由块里的各层构造输出。",
    "after one call in train() mode, {name} is {value}": "在 train() 模式下调用一次之后，{name} 是 {value}",
    "after one call in train() mode, {name} is off": "在 train() 模式下调用一次之后，{name} 不对",
    "Call each BatchNorm exactly once per forward: every call in training mode updates its running statistics.":
        "每次 forward 中每个 BatchNorm 只调用一次：训练模式下的每次调用都会更新它的滑动统计量。",
    "a forward that returns relu(residual branch + shortcut)": "一个返回 relu(残差分支 + 捷径) 的 forward",
    "`{name}` should be a class (a subclass of nn.Module); it is {kind}.":
        "`{name}` 应当是一个类（nn.Module 的子类）；它却是{kind}。",
    "{found}.": "{found}。",
    "That is torchvision's BasicBlock (tensorlab/vision/models.py): the shortcut adds the identity to the block's "
    "Jacobian, I + dF/dx.":
        "这就是 torchvision 的 BasicBlock（tensorlab/vision/models.py）：捷径给块的雅可比矩阵加上了单位矩阵，I + dF/dx。",
}
