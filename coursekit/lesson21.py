"""Exercise checks of course/21_sequences.ipynb (reference solutions: coursekit/solutions/lesson21.py).

    >>> _ = check_lstm_shapes(solution.predictions)
    Correct! Weights stack the 4 gates as rows; outputs are the last layer at every step,
             h_n every layer at the last step.
    >>> _ = check_lstm_step(solution.lstm_step)
    Correct! Four gates from one matmul; the cell state is only scaled and added to -- the
             path gradients travel along.
"""
from .check import Case, Question, check_function, check_predictions
from .compare import differences
from .language import tr
from .solutions import lesson21 as solution

# -- exercise 1: shapes of a two-layer LSTM --------------------------------------------------------------


def _lstm(torch):
    torch.manual_seed(0)
    return torch.nn.LSTM(input_size=3, hidden_size=5, num_layers=2)


def _run(torch):
    lstm = _lstm(torch)
    output, (h_n, c_n) = lstm(torch.zeros(7, 4, 3))
    return output, h_n


def _w0_hint(got, truth):
    if got == (5, 3):
        return tr("An LSTM has 4 gates (input, forget, cell, output), stacked as rows: 4 * hidden_size rows.")
    if got == (3, 20) or got == (3, 5):
        return tr("Like nn.Linear's weight: [rows = outputs, columns = inputs], and the 4 gates are stacked as "
                  "rows.")
    return tr("4 gates x hidden_size rows, input_size columns.")


def _w1_hint(got, truth):
    if got == (20, 3):
        return tr("Layer 1 does not see x: its input is layer 0's hidden state, hidden_size features.")
    return _w0_hint(got, truth)


def _output_hint(got, truth):
    if got == (2, 4, 5) or got == (4, 5):
        return tr("output holds the last layer's h at *every* time step: (seq, batch, hidden).")
    if got == (4, 7, 5):
        return tr("batch_first is False by default: the time dimension comes first, (seq, batch, ...).")
    return tr("(seq, batch, hidden_size): one hidden state per time step and sequence.")


def _hn_hint(got, truth):
    if got == (7, 4, 5) or got == (4, 5) or got == (1, 4, 5):
        return tr("h_n holds the *last* step's h of *every* layer: (num_layers, batch, hidden).")
    return tr("(num_layers * directions, batch, hidden_size).")


LSTM_QUESTIONS = [
    Question("lstm.weight_ih_l0.shape", lambda torch: tuple(_lstm(torch).weight_ih_l0.shape), _w0_hint),
    Question("lstm.weight_ih_l1.shape", lambda torch: tuple(_lstm(torch).weight_ih_l1.shape), _w1_hint),
    Question("output.shape", lambda torch: tuple(_run(torch)[0].shape), _output_hint),
    Question("h_n.shape", lambda torch: tuple(_run(torch)[1].shape), _hn_hint),
]


def check_lstm_shapes(answer):
    """Exercise 1: four shapes of a two-layer LSTM and of its outputs."""
    return check_predictions(answer, LSTM_QUESTIONS, what=tr("a tuple of 4 shapes"),
                             note=tr("Weights stack the 4 gates as rows; outputs are the last layer at every step, "
                                     "h_n every layer at the last step."))


# -- exercise 2: one LSTM step by hand ---------------------------------------------------------------


def _case(batch, input_size, hidden):
    def make(torch):
        cell = torch.nn.LSTMCell(input_size, hidden)
        with torch.no_grad():
            for k, p in enumerate(cell.parameters()):
                p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape).flip(0) * (0.5 + 0.25 * k))
        x = torch.linspace(-2.0, 2.0, batch * input_size).reshape(batch, input_size)
        h = torch.linspace(0.5, -0.5, batch * hidden).reshape(batch, hidden)
        c = torch.linspace(-1.0, 1.5, batch * hidden).reshape(batch, hidden)
        return x, h, c, cell
    return Case(tr("a batch of {batch}, {inputs} inputs, hidden size {hidden}", batch=batch, inputs=input_size,
                   hidden=hidden), make)


LSTM_CASES = [_case(2, 3, 4), _case(3, 1, 2)]


def _variant(x, h, c, cell, torch, order="ifgo", forget=True, tanh_c=True, tanh_g=True):
    gates = x @ cell.weight_ih.T + cell.bias_ih + h @ cell.weight_hh.T + cell.bias_hh
    parts = dict(zip(order, gates.chunk(4, dim=1)))
    i, f, g, o = parts["i"], parts["f"], parts["g"], parts["o"]
    g = torch.tanh(g) if tanh_g else torch.sigmoid(g)
    c = (torch.sigmoid(f) * c if forget else c) + torch.sigmoid(i) * g
    return torch.sigmoid(o) * (torch.tanh(c) if tanh_c else c), c


VARIANTS = [
    (dict(order="ifog"), tr("PyTorch stacks the gates in the order input, forget, cell (g), output: chunk(4) gives "
                            "i, f, g, o.")),
    (dict(order="iofg"), tr("PyTorch stacks the gates in the order input, forget, cell (g), output.")),
    (dict(forget=False), tr("The old cell state is multiplied by the forget gate, sigmoid(f), before the new part "
                            "is added: that is how an LSTM forgets.")),
    (dict(tanh_c=False), tr("The output squashes the cell state first: h = sigmoid(o) * tanh(c).")),
    (dict(tanh_g=False), tr("The candidate g goes through tanh (values in -1..1), not sigmoid: only the gates are "
                            "sigmoids.")),
]


def _diagnose_lstm(got, expected, args, torch):
    if isinstance(got, Exception):
        if "chunk" in str(got) or "unpack" in str(got):
            return tr("gates has 4 * hidden_size columns: gates.chunk(4, dim=1) splits it into i, f, g, o.")
        return tr("Return the pair (h, c).")
    if not isinstance(got, tuple) or len(got) != 2:
        return tr("Return the pair (h, c): the new hidden state and the new cell state.")
    x, h, c, cell = args
    for kwargs, hint in VARIANTS:
        with torch.no_grad():
            wrong = _variant(x, h, c, cell, torch, **kwargs)
        if not any(differences(a.detach(), b, grads=False) for a, b in zip(got, wrong)):
            return hint
    swapped = (got[1], got[0])
    if not any(differences(a.detach(), b.detach(), grads=False) for a, b in zip(swapped, expected)):
        return tr("The order of the pair is (h, c), as nn.LSTMCell returns it.")
    return ""


def check_lstm_step(lstm_step):
    """Exercise 2: ``lstm_step(x, h, c, cell)`` -> (h, c), computed from an nn.LSTMCell's weights."""
    return check_function(lstm_step, solution.lstm_step, LSTM_CASES, name="lstm_step",
                          what=tr("a function body that returns the pair (h, c)"), diagnoses=[_diagnose_lstm],
                          note=tr("Four gates from one matmul; the cell state is only scaled and added to -- the "
                                  "path gradients travel along."))


# -- exercise 3: a two-layer RNN, by hand --------------------------------------------------------------------

def _cells(torch, input_size, hidden_size, layers):
    """``layers`` nn.RNNCells with fixed weights (the same on every library): layer 0 reads the input,
    each later layer the hidden states of the layer below."""
    cells = []
    for layer in range(layers):
        cell = torch.nn.RNNCell(input_size if layer == 0 else hidden_size, hidden_size)
        with torch.no_grad():
            for i, p in enumerate(cell.parameters()):
                p.copy_((torch.linspace(-1.0, 1.0, p.numel()) * (3 + i + layer)).sin().reshape(p.shape) * 0.6)
        cells.append(cell)
    return cells


STACK_CASES = [
    Case(tr("xs of shape {shape} and two cells {cells}", shape="(5, 4, 2)", cells="RNNCell(2, 3), RNNCell(3, 3)"),
         lambda torch: ((torch.linspace(-2, 2, 40) * 1.7).sin().reshape(5, 4, 2), _cells(torch, 2, 3, 2))),
    Case(tr("xs of shape {shape} and three cells {cells}", shape="(3, 2, 3)",
            cells="RNNCell(3, 3), RNNCell(3, 3), RNNCell(3, 3)"),
         lambda torch: ((torch.linspace(-2, 2, 18) * 2.3).cos().reshape(3, 2, 3), _cells(torch, 3, 3, 3))),
]


def _unroll(cell, xs, torch):
    h = torch.zeros(xs.shape[1], cell.hidden_size)
    outputs = []
    for x in xs:
        h = cell(x, h)
        outputs.append(h)
    return torch.stack(outputs)


def _diagnose_stack(got, expected, args, torch):
    xs, cells = args
    if isinstance(got, Exception):
        if "shape" in str(got) or "size" in str(got) or "match" in str(got):
            return tr("Layer 0 reads xs; every later layer reads the hidden states of the layer below, one per "
                      "step -- not xs.")
        return None
    if not (isinstance(got, (tuple, list)) and len(got) == 2):
        return tr("Return the pair (output, h_n), as nn.RNN does.")
    output, h_n = got
    with torch.no_grad():
        first = _unroll(cells[0], xs, torch)
        if not differences(output, first, grads=False):
            return tr("That is the first layer's output; the RNN's output is the *last* layer's, at every step.")
        if tuple(h_n.shape) == tuple(expected[1].shape[1:]):
            return tr("h_n holds the last state of *every* layer: shape (num_layers, batch, hidden_size).")
        if tuple(h_n.shape) == tuple(expected[1].shape) and not differences(h_n.flip(0), expected[1], grads=False):
            return tr("h_n is ordered by layer: layer 0's last state first.")
        if output.dim() == 3 and output.shape[0] > xs.shape[0]:
            return tr("The output has one hidden state per step of xs: leave out the initial zeros.")
    return None


def check_stacked_rnn(stacked_rnn):
    """Exercise 3: ``stacked_rnn(xs, cells)`` -> (output, h_n), what ``nn.RNN(num_layers=len(cells))``
    returns with the cells' weights."""
    return check_function(stacked_rnn, solution.stacked_rnn, STACK_CASES, name="stacked_rnn",
                          what=tr("a function body that returns the pair (output, h_n)"), diagnoses=[_diagnose_stack],
                          grads=False,
                          note=tr("That is nn.RNN with num_layers > 1: each layer unrolls its own cell over the "
                                  "hidden states of the layer below."))
