"""nn.init: fill a weight tensor, in place, with a good starting distribution.

Why it matters: if each layer multiplies the variance of its input by ``fan_in * Var(w)``, a deep
network's activations explode or vanish. The schemes here pick ``Var(w)`` to keep that factor near 1:
* Xavier/Glorot (for tanh/sigmoid): ``Var(w) = gain^2 * 2 / (fan_in + fan_out)``;
* Kaiming/He (for relu): ``Var(w) = gain^2 / fan`` with ``gain = sqrt(2)`` for relu.
A uniform distribution on [-b, b] has variance b^2 / 3, hence the ``sqrt(3)`` in the uniform forms.

Every function runs under ``no_grad`` (initialising is not part of the model's computation) and
draws from the generator ``tensorlab.manual_seed`` resets. ``nn.Linear`` and ``nn.Conv2d`` use
``kaiming_uniform_(w, a=sqrt(5))``, which works out to uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)).
See course/11_modules_and_parameters.
"""
import math
import warnings

import numpy as np

from ..autograd.grad_mode import no_grad


def calculate_gain(nonlinearity, param=None):
    """The factor that keeps activations' scale steady through ``nonlinearity`` (relu: sqrt(2))."""
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """fan_in = inputs feeding one output unit (in_features, or in_channels * kernel area)."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = math.prod(tensor.shape[2:]) if tensor.dim() > 2 else 1
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Samples from U(a, b)."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Samples from N(mean, std^2)."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """N(mean, std^2) restricted to [a, b] (values outside are redrawn)."""
    from ..ops.creation import _rng
    rng = _rng(generator)
    values = rng.normal(mean, std, tensor.shape)
    outside = (values < a) | (values > b)
    while outside.any():
        values[outside] = rng.normal(mean, std, int(outside.sum()))
        outside = (values < a) | (values > b)
    with no_grad():
        return tensor._fill_inplace(values)


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def eye_(tensor):
    """The identity matrix (a 2-d tensor only): a layer that starts by passing its input through."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return tensor._fill_inplace(np.eye(*tensor.shape))


def dirac_(tensor, groups=1):
    """Convolution weights that pass each input channel through unchanged (the conv identity)."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    out_per_group = tensor.shape[0] // groups
    values = np.zeros(tensor.shape)
    centre = tuple(s // 2 for s in tensor.shape[2:])
    for g in range(groups):
        for d in range(min(out_per_group, tensor.shape[1])):
            values[(g * out_per_group + d, d) + centre] = 1
    with no_grad():
        return tensor._fill_inplace(values)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))`` (Glorot & Bengio, 2010)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -math.sqrt(3.0) * std, math.sqrt(3.0) * std, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """N(0, std^2) with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """U(-b, b) with ``b = gain * sqrt(3 / fan)`` (He et al., 2015)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """N(0, std^2) with ``std = gain / sqrt(fan)``."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix: the Q of a QR decomposition of a Gaussian matrix, signs fixed so the
    result is uniformly distributed (Saxe et al., 2013)."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    from ..ops.creation import _rng
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = _rng(generator).standard_normal((rows, cols))
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with no_grad():
        return tensor._fill_inplace(gain * q.reshape(tensor.shape))


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Each column: normal values with a fraction ``sparsity`` of its rows set to zero."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from ..ops.creation import _rng
    rng = _rng(generator)
    rows, cols = tensor.shape
    values = rng.normal(0, std, (rows, cols))
    zeros = int(math.ceil(sparsity * rows))
    for c in range(cols):
        values[rng.permutation(rows)[:zeros], c] = 0
    with no_grad():
        return tensor._fill_inplace(values)


# the old names without the trailing underscore (deprecated in PyTorch)
uniform, normal, constant = uniform_, normal_, constant_
xavier_uniform, xavier_normal = xavier_uniform_, xavier_normal_
kaiming_uniform, kaiming_normal = kaiming_uniform_, kaiming_normal_
orthogonal = orthogonal_
