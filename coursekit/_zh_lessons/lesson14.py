"""Lesson 14's own hints in Chinese (coursekit/lesson14.py), keyed by their English text."""

ZH = {
    # -- exercise 1: output shapes -----------------------------------------------------------------
    "The first two sizes are the batch (2) and the output channels (16); only the last two, height and width, "
    "depend on the window.":
        "前两个尺寸是批次（2）和输出通道数（16）；只有最后两个，高和宽，取决于窗口。",
    "Without padding, a k x k window fits n - k + 1 times along a side of n pixels.":
        "没有填充时，在 n 个像素长的一条边上，k x k 的窗口能放 n - k + 1 次。",
    "That is the size with padding=1; without padding the window cannot be centred on the border pixels.":
        "这是 padding=1 时的尺寸；没有填充时，窗口没法以边界上的像素为中心。",
    "padding=1 adds a row/column of zeros on *both* sides of each dimension before the window slides.":
        "padding=1 在窗口滑动之前，给每个维度的*两侧*各加一行/一列零。",
    "padding=1 pads both sides: that adds 2, not 1, to each side length.":
        "padding=1 两侧都填充：每条边的长度加的是 2，不是 1。",
    "Pad first (both sides), then count the window positions: stride 2 keeps every second one -- "
    "(n + 2*padding - k) // stride + 1.":
        "先填充（两侧），再数窗口的位置：步长为 2 时每隔一个保留一个——(n + 2*padding - k) // stride + 1。",
    "stride=2 keeps only every second window position: the size is about halved.":
        "stride=2 只保留每隔一个的窗口位置：尺寸大约减半。",
    "Count the window positions: with stride 2 they start at 0, 2, 4, ..., as long as the whole window still fits.":
        "数一数窗口的位置：步长为 2 时它们从 0、2、4……开始，只要整个窗口还放得下。",
    "The division rounds *down*: a window that would stick out of the image is not counted.":
        "除法是*向下*取整的：会伸出图像之外的窗口不算。",
    "Count the windows, not the steps between them: the + 1 in (n - k) // stride + 1.":
        "数的是窗口，不是窗口之间的步数：就是 (n - k) // stride + 1 里的那个 + 1。",
    "dilation=2 spreads the taps apart: the window spans dilation*(k-1) + 1 pixels and slides like any window of "
    "that size.":
        "dilation=2 把卷积核的各个抽头拉开：窗口跨越 dilation*(k-1) + 1 个像素，并像同样大小的任何窗口一样滑动。",
    "dilation leaves gaps between the kernel's taps: a dilated 3x3 window spans more pixels than 3.":
        "膨胀会在卷积核的抽头之间留出空隙：膨胀后的 3x3 窗口跨越的像素不止 3 个。",
    "dilation is not stride: it spreads the kernel's taps apart; the windows still start at every pixel.":
        "膨胀不是步长：它把卷积核的抽头拉开；窗口仍然从每一个像素开始。",
    "Output channels come first: [out_channels, in_channels, kH, kW].":
        "输出通道在前：[out_channels, in_channels, kH, kW]。",
    "One 3x3 kernel per (output channel, input channel) pair: [out_channels, in_channels, kH, kW].":
        "每一对（输出通道，输入通道）一个 3x3 卷积核：[out_channels, in_channels, kH, kW]。",
    "unfold gives one *column* per window: (N, C*k*k, L), with the window's numbers down the column.":
        "unfold 为每个窗口给出一*列*：(N, C*k*k, L)，窗口里的数沿着这一列竖着排。",
    "One column per window position (as many as a 3x3 convolution has output pixels), each holding every number "
    "its window reads, across all channels.":
        "每个窗口位置一列（列数和 3x3 卷积的输出像素数一样多），每一列装着它的窗口在所有通道上读到的每一个数。",
    "The stride defaults to the kernel size, and a window that would stick out is dropped (ceil_mode=False).":
        "步长默认等于窗口大小，而会伸出去的窗口会被丢掉（ceil_mode=False）。",
    "15 / 2 rounds *down* (ceil_mode=False): the last, odd row is dropped.":
        "15 / 2 *向下*取整（ceil_mode=False）：最后那个落单的行被丢掉了。",
    "MaxPool2d(2) has stride 2 by default (stride=kernel_size): the windows do not overlap.":
        "MaxPool2d(2) 默认步长为 2（stride=kernel_size）：窗口互不重叠。",
    "a tuple of 8 shapes, one per line of the table": "一个含 8 个形状的元组，表格每行一个",
    "Every size follows one formula: (n + 2*padding - dilation*(k - 1) - 1) // stride + 1.":
        "每个尺寸都遵循同一个公式：(n + 2*padding - dilation*(k - 1) - 1) // stride + 1。",
    # -- exercise 2: conv2d from unfold and a matrix product ----------------------------------------
    "x of shape (1, 1, 4, 4), weight (1, 1, 3, 3)": "形状为 (1, 1, 4, 4) 的 x，weight (1, 1, 3, 3)",
    "bias has shape (out_channels,): added to the (N, out_channels, L) product it lines up with the *last* "
    "dimension. Give it shape (1, out_channels, 1) (bias.view(1, -1, 1)).":
        "bias 的形状是 (out_channels,)：把它加到 (N, out_channels, L) 的乘积上时，它对齐的是*最后*一维。"
        "把它变成形状 (1, out_channels, 1)（bias.view(1, -1, 1)）。",
    "The view needs the output's height and width from the output-size formula, (h + 2*padding - k) // stride + 1, "
    "computed for height and width separately -- and F.unfold must get the same stride and padding.":
        "view 需要用输出尺寸公式 (h + 2*padding - k) // stride + 1 算出的输出高和宽，高和宽分开算"
        "——而且 F.unfold 必须拿到相同的 stride 和 padding。",
    "weight.view(out_channels, -1) is (out_channels, C*k*k) and F.unfold gives (N, C*k*k, L): the weight goes on "
    "the left of @.":
        "weight.view(out_channels, -1) 是 (out_channels, C*k*k)，F.unfold 给出 (N, C*k*k, L)：权重放在 @ 的左边。",
    "That is the convolution without the bias: add one bias per output channel.":
        "这是没有偏置的卷积：每个输出通道加上一个偏置。",
    "That kernel was flipped: PyTorch's conv2d is a cross-correlation, each weight multiplies the pixel at the "
    "same place in the window.":
        "这个卷积核被翻转了：PyTorch 的 conv2d 是互相关，每个权重乘的是窗口中相同位置上的像素。",
    "Reshape the (N, out_channels, L) product to (N, out_channels, h_out, w_out).":
        "把 (N, out_channels, L) 的乘积变形为 (N, out_channels, h_out, w_out)。",
    "Height and width are swapped: the columns of F.unfold go row by row, (h_out, w_out).":
        "高和宽弄反了：F.unfold 的各列是逐行排列的，(h_out, w_out)。",
    "a function body that returns F.conv2d(x, weight, bias, stride, padding), computed with F.unfold and one "
    "matrix product":
        "一个函数体，用 F.unfold 和一次矩阵乘法算出 F.conv2d(x, weight, bias, stride, padding) 并返回",
    "That is how tensorlab/ops/nn_conv.py computes every convolution: im2col, then one matrix product.":
        "tensorlab/ops/nn_conv.py 正是这样计算每一个卷积的：先 im2col，再做一次矩阵乘法。",
    # -- exercise 3: the backward of max pooling ---------------------------------------------------
    "the lesson's x of shape (1, 1, 4, 4), grad_output of ones": "课里形状为 (1, 1, 4, 4) 的 x，grad_output 全为 1",
    "x of shape (2, 3, 4, 6), grad_output (2, 3, 2, 3) = linspace(-1, 2, 36)":
        "形状为 (2, 3, 4, 6) 的 x，grad_output (2, 3, 2, 3) = linspace(-1, 2, 36)",
    "The gradient of x has x's shape (N, C, H, W): one number per input pixel, not per window.":
        "x 的梯度和 x 形状相同 (N, C, H, W)：每个输入像素一个数，而不是每个窗口一个。",
    "That is *average* pooling's backward: each pixel gets a quarter. A max depends only on its winner; the other "
    "three pixels of the window do not change the output at all.":
        "这是*平均*池化的反向传播：每个像素得到四分之一。最大值只取决于胜出的那个像素；"
        "窗口里另外三个像素根本不影响输出。",
    "Every pixel of a window got the window's gradient; only the winner (the max) moves the output, so the other "
    "three get 0.":
        "窗口里的每个像素都拿到了这个窗口的梯度；只有胜出者（最大值）会影响输出，所以另外三个应得 0。",
    "The right pixels, but each winner must receive its window's grad_output value, not 1.":
        "像素选对了，但每个胜出者应当收到它所在窗口的 grad_output 值，而不是 1。",
    "a function body that returns the gradient of x (shape (N, C, H, W)) through F.max_pool2d(x, 2), given "
    "grad_output (N, C, H/2, W/2)":
        "一个函数体，给定 grad_output (N, C, H/2, W/2)，返回 x 经过 F.max_pool2d(x, 2) 的梯度（形状 (N, C, H, W)）",
    "That is MaxPool2DWithIndicesBackward0: a scatter of grad_output onto the saved indices.":
        "这就是 MaxPool2DWithIndicesBackward0：把 grad_output 按保存下来的索引散布回去。",
}
