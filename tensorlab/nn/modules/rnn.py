"""Recurrent layers: RNN, LSTM, GRU -- one cell applied at every time step, carrying a hidden state.

A cell maps (input x_t, state h_{t-1}) to a new state h_t using the *same* weights at every step:

    RNN:  h = tanh(W_ih x + b_ih + W_hh h + b_hh)
    LSTM: i, f, g, o = split(W_ih x + b_ih + W_hh h + b_hh)      (gates, 4 * hidden_size rows)
          c = sigmoid(f) * c + sigmoid(i) * tanh(g);  h = sigmoid(o) * tanh(c)
    GRU:  r, z = sigmoids of the first two gates;  n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
          h = (1 - z) * n + z * h

Written with ordinary tensor ops, so backward is "backpropagation through time" for free: autograd
unrolls the loop. The input projections of all time steps are computed in one matmul up front.
Layers stack (each layer's outputs are the next one's inputs); ``bidirectional`` adds a second pass
over the reversed sequence. Parameter names and shapes are PyTorch's, so state_dicts interchange.
See course/21_sequences.
"""
import math
import warnings

from ... import ops as _ops
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import _empty
from .module import Module

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _rnn_step(mode):
    def step(x_proj, h, w_hh, b_hh):
        pre = x_proj + F.linear(h, w_hh, b_hh)
        return pre.tanh() if mode == "RNN_TANH" else pre.relu()
    return step


def _lstm_step(x_proj, state, w_hh, b_hh):
    h, c = state
    i, f, g, o = (x_proj + F.linear(h, w_hh, b_hh)).chunk(4, -1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c.tanh(), c


def _gru_step(x_proj, h, w_hh, b_hh):
    x_r, x_z, x_n = x_proj.chunk(3, -1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, -1)
    r, z = (x_r + h_r).sigmoid(), (x_z + h_z).sigmoid()
    n = (x_n + r * h_n).tanh()
    return (1 - z) * n + z * h


class RNNBase(Module):
    """Parameters, checks and the layer/direction loop shared by RNN, LSTM and GRU."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", UserWarning, stacklevel=3)
        if proj_size:
            raise NotImplementedError("LSTM with proj_size is not supported by tensorlab")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, proj_size
        directions = 2 if bidirectional else 1
        rows = _GATES[mode] * hidden_size
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * directions
            for suffix in ("", "_reverse")[:directions]:
                names = self._names(layer, suffix)
                setattr(self, names[0], Parameter(_empty(rows, layer_input, device=device, dtype=dtype)))
                setattr(self, names[1], Parameter(_empty(rows, hidden_size, device=device, dtype=dtype)))
                if bias:
                    setattr(self, names[2], Parameter(_empty(rows, device=device, dtype=dtype)))
                    setattr(self, names[3], Parameter(_empty(rows, device=device, dtype=dtype)))
        self.reset_parameters()

    @staticmethod
    def _names(layer, suffix):
        return tuple(f"{kind}_l{layer}{suffix}" for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))

    def reset_parameters(self):
        """Every weight and bias uniform on [-1/sqrt(hidden_size), 1/sqrt(hidden_size)]."""
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def _weights(self, layer, suffix):
        w_ih, w_hh, b_ih, b_hh = (getattr(self, n) if self.bias or n.startswith("weight") else None
                                  for n in self._names(layer, suffix))
        return w_ih, w_hh, b_ih, b_hh

    def _check(self, input, hx):
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D tensor "
                             "instead")
        if input._shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input._shape[-1]}")

    def _initial_state(self, input, batch, hx):
        directions = 2 if self.bidirectional else 1
        expected = (self.num_layers * directions, batch, self.hidden_size)
        if hx is None:
            from ...ops.creation import zeros
            return zeros(expected, dtype=input.dtype, device=input.device)
        if tuple(hx._shape) != expected:
            raise RuntimeError(f"Expected hidden size {expected}, got {list(hx._shape)}")
        return hx

    def forward(self, input, hx=None):
        self._check(input, hx)
        unbatched = input.dim() == 2
        if unbatched:
            input = input.unsqueeze(1)
            hx = _map_state(hx, lambda h: h.unsqueeze(1))
        elif self.batch_first:
            input = input.transpose(0, 1)
        batch = input._shape[1]
        if self.mode == "LSTM":
            h0, c0 = hx if hx is not None else (None, None)
            state = (self._initial_state(input, batch, h0), self._initial_state(input, batch, c0))
        else:
            state = self._initial_state(input, batch, hx)
        output, final = self._run_layers(input, state)
        if unbatched:
            output = output.squeeze(1)
            final = _map_state(final, lambda h: h.squeeze(1))
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, final

    def _run_layers(self, x, state):
        """Every layer over the whole sequence; returns (last layer's outputs, stacked final states)."""
        directions = 2 if self.bidirectional else 1
        step = {"LSTM": _lstm_step, "GRU": _gru_step}.get(self.mode) or _rnn_step(self.mode)
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(("", "_reverse")[:directions]):
                index = layer * directions + d
                h = _map_state(state, lambda s: s[index])
                out, h = _run_direction(x, h, self._weights(layer, suffix), step, reverse=d == 1)
                outputs.append(out)
                finals.append(h)
            x = outputs[0] if directions == 1 else _ops.cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        if self.mode == "LSTM":
            return x, (_ops.stack([h for h, _ in finals]), _ops.stack([c for _, c in finals]))
        return x, _ops.stack(finals)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


def _map_state(state, fn):
    if state is None:
        return None
    return tuple(fn(s) for s in state) if isinstance(state, tuple) else fn(state)


def _run_direction(x, h, weights, step, reverse):
    """One direction of one layer: project all inputs at once, then step through time."""
    w_ih, w_hh, b_ih, b_hh = weights
    x_proj = F.linear(x, w_ih, b_ih)                  # (seq, batch, gates * hidden): one matmul
    outputs = [None] * x._shape[0]
    times = range(x._shape[0] - 1, -1, -1) if reverse else range(x._shape[0])
    for t in times:
        h = step(x_proj[t], h, w_hh, b_hh)
        outputs[t] = h[0] if isinstance(h, tuple) else h
    return _ops.stack(outputs), h


class RNN(RNNBase):
    """Elman RNN: ``h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)`` (or relu)."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, device=device, dtype=dtype)


class LSTM(RNNBase):
    """Long short-term memory: a cell state ``c`` that gates decide to keep, forget and expose.
    ``forward(x, (h0, c0))`` returns ``output, (h_n, c_n)``."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)


class GRU(RNNBase):
    """Gated recurrent unit: an update gate ``z`` mixes the old state with a candidate ``n``."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)


class _CellBase(Module):
    """One time step: ``cell(x, h)`` -> new h (LSTMCell: ``(h, c)``)."""

    _gates, _step = 1, None

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        rows = self._gates * hidden_size
        self.weight_ih = Parameter(_empty(rows, input_size, device=device, dtype=dtype))
        self.weight_hh = Parameter(_empty(rows, hidden_size, device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_empty(rows, device=device, dtype=dtype))
            self.bias_hh = Parameter(_empty(rows, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        RNNBase.reset_parameters(self)

    def _zeros(self, input):
        from ...ops.creation import zeros
        shape = (input._shape[0], self.hidden_size) if input.dim() == 2 else (self.hidden_size,)
        return zeros(shape, dtype=input.dtype, device=input.device)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is None:
            hx = (self._zeros(input), self._zeros(input)) if self._gates == 4 else self._zeros(input)
        x_proj = F.linear(input, self.weight_ih, self.bias_ih)
        return type(self)._step(x_proj, hx, self.weight_hh, self.bias_hh)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(_CellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, bias, device, dtype)

    def forward(self, input, hx=None):
        if hx is None:
            hx = self._zeros(input)
        x_proj = F.linear(input, self.weight_ih, self.bias_ih)
        return _rnn_step("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU")(x_proj, hx, self.weight_hh,
                                                                                      self.bias_hh)


class LSTMCell(_CellBase):
    _gates, _step = 4, staticmethod(_lstm_step)


class GRUCell(_CellBase):
    _gates, _step = 3, staticmethod(_gru_step)
