"""Reference solutions of course/21_sequences.ipynb's exercises (checks: coursekit/lesson21.py)."""
import tensorlab as torch

# Exercise 1: lstm = nn.LSTM(input_size=3, hidden_size=5, num_layers=2); x of shape (7, 4, 3)
predictions = (
    (20, 3),     # lstm.weight_ih_l0.shape: 4 gates x 5 rows, one column per input feature
    (20, 5),     # lstm.weight_ih_l1.shape: layer 1's input is layer 0's hidden state (5 features)
    (7, 4, 5),   # output.shape: (seq, batch, hidden) -- the last layer's h at every time step
    (2, 4, 5),   # h_n.shape: (num_layers, batch, hidden) -- every layer's h at the last step
)


# Exercise 2: one LSTM step by hand, with the weights of an nn.LSTMCell.
def lstm_step(x, h, c, cell):
    gates = x @ cell.weight_ih.T + cell.bias_ih + h @ cell.weight_hh.T + cell.bias_hh
    i, f, g, o = gates.chunk(4, dim=1)            # PyTorch's order: input, forget, cell (g), output
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    h = torch.sigmoid(o) * torch.tanh(c)
    return h, c


# Exercise 3: nn.RNN with num_layers = len(cells) -- each layer unrolls its cell over the sequence the
# layer below made; output is the top layer at every step, h_n every layer's last state.
def stacked_rnn(xs, cells):
    sequence, last = xs, []
    for cell in cells:
        h = torch.zeros(xs.shape[1], cell.hidden_size)     # the initial state, zeros as in nn.RNN
        states = []
        for x in sequence:                                  # one step per element along dim 0 (time)
            h = cell(x, h)
            states.append(h)
        sequence = torch.stack(states)                      # (seq, batch, hidden): the next layer's input
        last.append(h)
    return sequence, torch.stack(last)
