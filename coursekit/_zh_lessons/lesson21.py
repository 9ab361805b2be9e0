"""Lesson 21's own hints in Chinese (coursekit/lesson21.py), keyed by their English text."""

ZH = {
    # -- exercise 1: shapes of a two-layer LSTM ---------------------------------------------------
    "An LSTM has 4 gates (input, forget, cell, output), stacked as rows: 4 * hidden_size rows.":
        "LSTM 有 4 个门（输入门、遗忘门、细胞、输出门），按行堆叠：共 4 * hidden_size 行。",
    "Like nn.Linear's weight: [rows = outputs, columns = inputs], and the 4 gates are stacked as rows.":
        "和 nn.Linear 的权重一样：[行 = 输出，列 = 输入]，而 4 个门是按行堆叠的。",
    "4 gates x hidden_size rows, input_size columns.": "4 个门 x hidden_size 行，input_size 列。",
    "Layer 1 does not see x: its input is layer 0's hidden state, hidden_size features.":
        "第 1 层看不到 x：它的输入是第 0 层的隐藏状态，有 hidden_size 个特征。",
    "output holds the last layer's h at *every* time step: (seq, batch, hidden).":
        "output 装的是最后一层在*每个*时间步的 h：(seq, batch, hidden)。",
    "batch_first is False by default: the time dimension comes first, (seq, batch, ...).":
        "batch_first 默认为 False：时间维度在最前面，(seq, batch, ...)。",
    "(seq, batch, hidden_size): one hidden state per time step and sequence.":
        "(seq, batch, hidden_size)：每个时间步、每条序列一个隐藏状态。",
    "h_n holds the *last* step's h of *every* layer: (num_layers, batch, hidden).":
        "h_n 装的是*每一*层在*最后*一步的 h：(num_layers, batch, hidden)。",
    "(num_layers * directions, batch, hidden_size).": "(num_layers * directions, batch, hidden_size)。",
    "a tuple of 4 shapes": "一个含 4 个形状的元组",
    "Weights stack the 4 gates as rows; outputs are the last layer at every step, h_n every layer at the last "
    "step.":
        "权重把 4 个门按行堆叠；output 是最后一层在每一步的输出，h_n 是每一层在最后一步的状态。",
    # -- exercise 2: one LSTM step by hand --------------------------------------------------------
    "a batch of {batch}, {inputs} inputs, hidden size {hidden}": "批次大小 {batch}，{inputs} 个输入，隐藏层大小 {hidden}",
    "PyTorch stacks the gates in the order input, forget, cell (g), output: chunk(4) gives i, f, g, o.":
        "PyTorch 按输入门、遗忘门、细胞（g）、输出门的顺序堆叠各个门：chunk(4) 给出 i、f、g、o。",
    "PyTorch stacks the gates in the order input, forget, cell (g), output.":
        "PyTorch 按输入门、遗忘门、细胞（g）、输出门的顺序堆叠各个门。",
    "The old cell state is multiplied by the forget gate, sigmoid(f), before the new part is added: that is how "
    "an LSTM forgets.":
        "旧的细胞状态要先乘以遗忘门 sigmoid(f)，再加上新的部分：LSTM 就是这样遗忘的。",
    "The output squashes the cell state first: h = sigmoid(o) * tanh(c).":
        "输出先把细胞状态压缩一下：h = sigmoid(o) * tanh(c)。",
    "The candidate g goes through tanh (values in -1..1), not sigmoid: only the gates are sigmoids.":
        "候选值 g 经过的是 tanh（取值在 -1..1），而不是 sigmoid：只有各个门才用 sigmoid。",
    "gates has 4 * hidden_size columns: gates.chunk(4, dim=1) splits it into i, f, g, o.":
        "gates 有 4 * hidden_size 列：gates.chunk(4, dim=1) 把它分成 i、f、g、o。",
    "Return the pair (h, c).": "返回 (h, c) 这一对。",
    "Return the pair (h, c): the new hidden state and the new cell state.":
        "返回 (h, c) 这一对：新的隐藏状态和新的细胞状态。",
    "The order of the pair is (h, c), as nn.LSTMCell returns it.": "这一对的顺序是 (h, c)，和 nn.LSTMCell 返回的一样。",
    "a function body that returns the pair (h, c)": "一个函数体：返回 (h, c) 这一对",
    "Four gates from one matmul; the cell state is only scaled and added to -- the path gradients travel along.":
        "四个门来自一次矩阵乘法；细胞状态只被缩放和加上新值——梯度就沿着这条路径传播。",
    # -- exercise 3: a two-layer RNN, by hand -----------------------------------------------------
    "xs of shape {shape} and two cells {cells}": "形状为 {shape} 的 xs，以及两个单元 {cells}",
    "xs of shape {shape} and three cells {cells}": "形状为 {shape} 的 xs，以及三个单元 {cells}",
    "Layer 0 reads xs; every later layer reads the hidden states of the layer below, one per step -- not xs.":
        "第 0 层读 xs；之后的每一层读的是下面那一层的隐藏状态，每一步一个——而不是 xs。",
    "Return the pair (output, h_n), as nn.RNN does.": "返回 (output, h_n) 这一对，和 nn.RNN 一样。",
    "That is the first layer's output; the RNN's output is the *last* layer's, at every step.":
        "这是第一层的输出；RNN 的 output 是*最后*一层在每一步的输出。",
    "h_n holds the last state of *every* layer: shape (num_layers, batch, hidden_size).":
        "h_n 装的是*每一*层的最后状态：形状为 (num_layers, batch, hidden_size)。",
    "h_n is ordered by layer: layer 0's last state first.": "h_n 按层排列：第 0 层的最后状态在最前面。",
    "The output has one hidden state per step of xs: leave out the initial zeros.":
        "输出在 xs 的每一步有一个隐藏状态：不要包括最初的那些零。",
    "a function body that returns the pair (output, h_n)": "一个函数体：返回 (output, h_n) 这一对",
    "That is nn.RNN with num_layers > 1: each layer unrolls its own cell over the hidden states of the layer "
    "below.":
        "这就是 num_layers > 1 的 nn.RNN：每一层都沿着下面那一层的隐藏状态展开它自己的单元。",
}
