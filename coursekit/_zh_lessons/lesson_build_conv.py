"""The build track's stage 8 (coursekit/build/hints_conv.py) and its capstone (coursekit/build/capstone.py,
capstone_tests.py) in Chinese."""

ZH = {
    # -- stage 8's cases, as the grading report shows them ------------------------------------------------
    "{code} with a = 0, 1, 2, ... of shape {shape}": "{code}，其中 a = 0, 1, 2, ...，形状为 {shape}",
    "{code} with cols = 1, 2, 3, ... of shape {shape}": "{code}，其中 cols = 1, 2, 3, ...，形状为 {shape}",
    # -- stage 8's classic mistakes ---------------------------------------------------------------------
    "output stride ignored": "忽略了输出的步幅",
    "Neighbouring windows start one pixel apart: the stride was left out of the output dims' steps. Moving "
    "to the next output position jumps `stride` input positions, so those dims' strides are "
    "a.strides[2 + i] * stride[i] -- and only (s - dilation * (k - 1) - 1) // stride + 1 windows fit.":
        "相邻的窗口只相隔一个像素：输出维度的步长里漏掉了 stride。移到下一个输出位置要跳过 `stride` 个输入位置，"
        "所以这些维度的步幅是 a.strides[2 + i] * stride[i]——而且只放得下 "
        "(s - dilation * (k - 1) - 1) // stride + 1 个窗口。",
    "dilation ignored": "忽略了膨胀（dilation）",
    "The kernel's taps sit next to each other: dilation was left out. With dilation d, the kernel reads "
    "every d-th pixel, so the kernel dims' strides are a.strides[2 + i] * dilation[i], and a window spans "
    "d * (k - 1) + 1 pixels.":
        "卷积核的各个抽头挨在一起：漏掉了 dilation。膨胀为 d 时，卷积核每隔 d 个像素读一个，所以卷积核维度的步幅是 "
        "a.strides[2 + i] * dilation[i]，一个窗口跨 d * (k - 1) + 1 个像素。",
    "kernel flipped": "卷积核被翻转了",
    "The kernel was flipped: that is convolution as a textbook writes it, but PyTorch's conv2d is a "
    "cross-correlation -- output[i, j] = sum of w[k, l] * x[i + k, j + l], the kernel laid on the window "
    "as it is. Multiply the flattened weight with the columns directly.":
        "卷积核被翻转了：教科书里的卷积是这样写的，但 PyTorch 的 conv2d 是互相关——output[i, j] = "
        "w[k, l] * x[i + k, j + l] 之和，卷积核原样盖在窗口上。直接用展平的权重去乘这些列即可。",
    "padding forgotten": "忘了填充",
    "The output is the size of an unpadded convolution: pads were not added. Zero-pad the input first "
    "(pad_array(xp, x, pads)), then read the windows of the padded array.":
        "输出的大小是不填充的卷积的大小：没有加上 pads。先给输入补零（pad_array(xp, x, pads)），"
        "再从填充后的数组里读窗口。",
    "overlapping windows overwritten": "重叠的窗口被覆盖了",
    "Where windows overlap, a pixel kept only the last value written to it. Every window that read a "
    "pixel sends it a gradient, and they all count: ADD them (result[region] += ..., never "
    "result[region] = ...).":
        "在窗口重叠的地方，一个像素只留下了最后写进去的值。每个读过这个像素的窗口都会把梯度送回给它，"
        "而且每一份都算数：要把它们加起来（result[region] += ...，绝不是 result[region] = ...）。",
    "stride ignored when adding back": "加回去时忽略了步幅",
    "Each kernel position's values went onto neighbouring pixels, as if the stride were 1. Output position "
    "o of kernel position p read pixel p * dilation + o * stride: take every stride-th pixel, "
    "slice(p * d, p * d + stride * (out - 1) + 1, stride).":
        "每个卷积核位置的值被加到了相邻的像素上，就好像步幅是 1。卷积核位置 p 的输出位置 o 读的是像素 "
        "p * dilation + o * stride：每隔 stride 个像素取一个，slice(p * d, p * d + stride * (out - 1) + 1, stride)。",
    # -- the capstone ------------------------------------------------------------------------------------
    "The capstone needs your stage 8 file, and it did not load: see the first failing test.":
        "毕业项目需要你的第 8 阶段文件，而它没能加载：请看第一个失败的测试。",
    "stage {stage}": "第 {stage} 阶段",
    "stage {stage} ({title})": "第 {stage} 阶段（{title}）",
    "The capstone trains with every stage written; still to write: {left}. Grade each with %grade N "
    "(python -m coursekit.build grade N).":
        "毕业项目要在每个阶段都写完之后才训练；还要写的有：{left}。逐个用 %grade N"
        "（python -m coursekit.build grade N）评分。",
    "No stage of yours changes the loss when it runs alone in tensorlab: the difference appears only when "
    "your stages work together (look at what one of your functions calls of another stage).":
        "你的任何一个阶段单独放进 tensorlab 时都不会改变损失：差别只在你的几个阶段一起工作时才出现"
        "（看看你的某个函数调用了另一个阶段的什么）。",
    "Likely cause: {stages} -- put in place alone, with the rest tensorlab's own, it changes the loss too. "
    "Grade it with %grade {first}.":
        "可能的原因：{stages}——把它单独放进去、其余都用 tensorlab 自己的代码，损失也会变。用 %grade {first} 给它评分。",
    " (raised in {where})": "（在 {where} 中抛出）",
    "Training stopped at step {step}: {message}{where}.": "训练在第 {step} 步停下：{message}{where}。",
    "tensorlab's own code": "tensorlab 自己的代码",
    "PyTorch (recorded in coursekit/build/reference.json)": "PyTorch（记录在 coursekit/build/reference.json 中）",
    "Step {step} of {steps}: the loss is {mine:.7f} with your code, {theirs:.7f} with {whose} -- they "
    "differ by {diff:.1e}, more than float32 tolerance (relative {rtol:g}).":
        "第 {step} 步（共 {steps} 步）：用你的代码损失是 {mine:.7f}，用{whose}是 {theirs:.7f}——"
        "相差 {diff:.1e}，超出了 float32 的容差（相对 {rtol:g}）。",
    "tensorlab's own run differs from PyTorch's record too: this machine computes differently; rerecord "
    "with python -m coursekit.build record.":
        "tensorlab 自己的运行也与 PyTorch 的记录不同：这台机器的计算方式不一样；请用 "
        "python -m coursekit.build record 重新记录。",
    "Test accuracy after {steps} steps: {accuracy:.1%} with your code, {reference:.1%} with tensorlab's own; "
    "the bar is {bar:.0%}.":
        "训练 {steps} 步后的测试准确率：用你的代码是 {accuracy:.1%}，用 tensorlab 自己的是 {reference:.1%}；"
        "要求是 {bar:.0%}。",
}
