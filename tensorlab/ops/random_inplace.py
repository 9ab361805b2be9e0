"""Random in-place fillers: ``uniform_``, ``normal_``, ``bernoulli_``, ``exponential_``, ``random_``,
``geometric_``, ``log_normal_``, ``cauchy_`` -- what ``nn.init`` is built on.

Each checks its arguments the way PyTorch does *before* drawing a single number, so a bad call
(``uniform_(5, 2)``, a probability of 1.5, a negative standard deviation) raises PyTorch's
RuntimeError and leaves both the tensor and the random generator as they were.
See course/01_tensors.
"""
import math

import numpy as np

from .. import _layout, tensor as _t
from ._util import method
from .inplace import _LEGACY, check_inplace, check_writable
from .sampling import _rng

# the C++ type names PyTorch's range errors use
_C_TYPES = {"float16": "c10::Half", "float32": "float", "float64": "double", "int8": "signed char",
            "int16": "short", "int32": "int", "int64": "long", "uint8": "unsigned char", "bool": "bool"}


def _fill(self, draw):
    """Check that ``self`` can be written, then draw ``draw(shape)`` and store it (no autograd record)."""
    check_writable(self)
    check_inplace(self)
    return self._fill_inplace(draw(self._shape))


def _float_arg(op, name, position, value):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be float, not "
                        f"{type(value).__name__}")
    return float(value)


def _needs_floating(self, kernel):
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_LEGACY[self.dtype.name]}\'')


def _fmt(x):
    """A number as PyTorch's messages print it: 5, 1.5, -0.1, nan."""
    return f"{x:g}"


@method()
def uniform_(self, a=0.0, b=1.0, *, generator=None):
    """Fill in place with uniform samples on [a, b)."""
    a, b = _float_arg("uniform_", "from", 1, a), _float_arg("uniform_", "to", 2, b)
    _needs_floating(self, "check_uniform_bounds")
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={_fmt(a)} > to={_fmt(b)}")
    limit = float(np.finfo(self.dtype.np).max)
    for name, v in (("from", a), ("to", b)):
        if not -limit <= v <= limit:
            raise RuntimeError(f"{name} is out of bounds for {_C_TYPES[self.dtype.name]}")
    return _fill(self, lambda shape: _rng(generator).uniform(a, b, shape))


@method()
def normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fill in place with normal samples."""
    mean, std = _float_arg("normal_", "mean", 1, mean), _float_arg("normal_", "std", 2, std)
    _needs_floating(self, "normal_kernel_cpu")
    if not std >= 0.0:                          # (a NaN std fails this too)
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt(std)}")
    return _fill(self, lambda shape: _rng(generator).normal(mean, std, shape))


@method()
def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fill in place with ``exp(x)`` for normal ``x``."""
    mean, std = _float_arg("log_normal_", "mean", 1, mean), _float_arg("log_normal_", "std", 2, std)
    _needs_floating(self, "log_normal_cpu")
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_fmt(std)}")
    return _fill(self, lambda shape: _rng(generator).lognormal(mean, std, shape))


@method()
def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fill in place with Cauchy samples: ``median + sigma * tan(pi * (u - 1/2))``."""
    median, sigma = _float_arg("cauchy_", "median", 1, median), _float_arg("cauchy_", "sigma", 2, sigma)
    _needs_floating(self, "cauchy_cpu")
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_fmt(sigma)}")
    return _fill(self, lambda shape: median + sigma * _rng(generator).standard_cauchy(shape))


@method()
def exponential_(self, lambd=1.0, *, generator=None):
    """Fill in place with exponential samples of rate ``lambd``."""
    lambd = _float_arg("exponential_", "lambd", 1, lambd)
    if not self.dtype.is_floating_point:
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_LEGACY[self.dtype.name]}")
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_fmt(lambd)}")
    return _fill(self, lambda shape: _rng(generator).exponential(1.0 / lambd, shape))


@method()
def geometric_(self, p, *, generator=None):
    """Fill in place with the number of Bernoulli(p) trials up to the first success (1, 2, ...)."""
    p = _float_arg("geometric_", "p", 1, p)
    if not 0.0 < p < 1.0:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt(p)}")
    return _fill(self, lambda shape: _rng(generator).geometric(p, shape))


@method()
def bernoulli_(self, p=0.5, *, generator=None):
    """Fill in place with 1 with probability ``p`` (a number, or a tensor of per-element probabilities)."""
    if isinstance(p, _t.Tensor):
        probs = p.detach().cpu().numpy()
        if not np.all((probs >= 0) & (probs <= 1)):
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                               "message be improved?  If so, please report an enhancement request to PyTorch.)")
        _layout.expand_strides(p._shape, p._stride, self._shape, "torch." + p.dtype._legacy)  # PyTorch's errors
        probs = np.broadcast_to(probs, self._shape)
    elif isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise TypeError(f"bernoulli_() received an invalid combination of arguments - got ({type(p).__name__}), "
                        "but expected one of:\n * (Tensor p, *, torch.Generator generator = None)\n"
                        " * (float p = 0.5, *, torch.Generator generator = None)\n")
    elif not 0.0 <= p <= 1.0:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")
    else:
        probs = float(p)
    return _fill(self, lambda shape: _rng(generator).random(shape) < probs)


@method()
def random_(self, *args, generator=None, **kwargs):
    """``random_()``: integers over the dtype's whole exactly representable range; ``random_(to)``:
    from [0, to); ``random_(from, to)``: from [from, to)."""
    low, high = _random_range(self, args, kwargs)
    return _fill(self, lambda shape: _rng(generator).integers(low, high, shape))


def _random_range(self, args, kwargs):
    given = dict(zip(("to",) if len(args) == 1 else ("from", "to"), args), **kwargs)
    if len(args) > 2 or set(given) - {"from", "to"} or any(
            isinstance(v, (bool, float)) or not isinstance(v, (int, np.integer)) for v in given.values()):
        got = ", ".join(type(v).__name__ for v in args)
        raise TypeError(f"random_() received an invalid combination of arguments - got ({got}), but expected one "
                        "of:\n * (*, torch.Generator generator = None)\n * (int from, int to, *, torch.Generator "
                        "generator = None)\n * (int to, *, torch.Generator generator = None)\n")
    for v in given.values():
        if not -2 ** 63 <= v < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
    if "to" not in given:
        return given.get("from", 0), _full_range(self)
    low, high = int(given.get("from", 0)), int(given["to"])
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    lo_limit, hi_limit = _representable(self)
    if low < lo_limit:
        raise RuntimeError(f"from is out of bounds for {_C_TYPES[self.dtype.name]}")
    if high - 1 > hi_limit:
        raise RuntimeError(f"to - 1 is out of bounds for {_C_TYPES[self.dtype.name]}")
    return low, high


def _representable(self):
    """The integers a dtype holds exactly: its whole range for ints, +-2**mantissa bits for floats."""
    if self.dtype.name == "bool":
        return 0, 1
    if self.dtype.is_floating_point:
        digits = np.finfo(self.dtype.np).nmant + 1
        return -2 ** digits, 2 ** digits
    info = np.iinfo(self.dtype.np)
    return int(info.min), int(info.max)


def _full_range(self):
    """``random_()``'s exclusive upper end: 2**digits + 1 for floats, max + 1 for ints (as PyTorch)."""
    return _representable(self)[1] + 1


__all__ = []
