"""Activation layers: module wrappers around the functions in nn.functional, so a nonlinearity can
sit in a Sequential. They hold no parameters (PReLU excepted) -- a ReLU in ``_modules`` contributes
nothing to ``parameters()``.
See course/13_layers_and_losses.
"""
from .. import functional as F
from ..parameter import Parameter
from .module import Module


def _inplace(inplace):
    return "inplace=True" if inplace else ""


class ReLU(Module):
    """``max(x, 0)``."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace(self.inplace)


class ReLU6(ReLU):
    """``min(max(x, 0), 6)``."""

    def forward(self, input):
        return F.relu6(input, inplace=self.inplace)


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class LeakyReLU(Module):
    """``x if x > 0 else negative_slope * x``: a small gradient for negative inputs."""

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class CELU(ELU):
    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class SELU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return _inplace(self.inplace)


class GELU(Module):
    """``x * Phi(x)``: a smooth relu used in transformers."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(SELU):
    """``x * sigmoid(x)``."""

    def forward(self, input):
        return F.silu(input, self.inplace)


class Mish(SELU):
    def forward(self, input):
        return F.mish(input, self.inplace)


class Hardswish(SELU):
    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Hardsigmoid(SELU):
    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class _NoArgs(Module):
    _fn = None

    def forward(self, input):
        return type(self)._fn(input)


class Sigmoid(_NoArgs):
    """``1 / (1 + exp(-x))``."""

    _fn = staticmethod(F.sigmoid)


class Tanh(_NoArgs):
    _fn = staticmethod(F.tanh)


class LogSigmoid(_NoArgs):
    _fn = staticmethod(F.logsigmoid)


class Softsign(_NoArgs):
    _fn = staticmethod(F.softsign)


class Tanhshrink(_NoArgs):
    _fn = staticmethod(F.tanhshrink)


class Softmax(Module):
    """``exp(x) / exp(x).sum(dim)``: scores -> probabilities along ``dim``."""

    _fn = staticmethod(F.softmax)

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return type(self)._fn(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    _fn = staticmethod(F.log_softmax)


class Softmin(Softmax):
    _fn = staticmethod(F.softmin)


class Softmax2d(Module):
    """Softmax over the channels at each position of an (N, C, H, W) or (C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3)


class PReLU(Module):
    """Leaky relu with a learned slope (one per channel, or one shared)."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        from ...ops.creation import empty
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        from .. import init as nn_init
        nn_init.constant_(self.weight, self.init)

    def forward(self, input):
        shape = [1] * input.dim()
        if input.dim() >= 2 and self.num_parameters > 1:
            shape[1] = self.num_parameters
        slope = self.weight.reshape(shape) if input.dim() else self.weight.reshape(())
        return input.relu() - slope * (-input).relu()

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"
