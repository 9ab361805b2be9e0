"""Absolute value, sign and rounding: ``abs``, ``sign``, ``floor``, ``ceil``, ``trunc``, ``round``, ``frac``,
and ``nan_to_num``.

These keep integer dtypes (``abs`` of an int64 tensor is int64). Rounding is piecewise constant, so its
gradient is zero almost everywhere -- PyTorch defines it as exactly zero, and so does tensorlab.
See course/04_ops_and_reductions.
"""
from .. import _dtype
from ..autograd.function import Function
from ._pointwise import inplace_method, keep_where, no_complex, reject
from ._util import method, wrap, xp_of
from .. import tensor as _t


def _saved(ctx):
    return ctx.saved_tensors[0]


class Abs(Function):
    node_name = "AbsBackward0"

    @staticmethod
    def forward(ctx, x):
        reject(x.dtype, "abs", _dtype.bool)
        ctx.save_for_backward(x)
        return wrap(xp_of(x).abs(x._array), x.device)

    @staticmethod
    def backward(ctx, grad):
        return grad * _saved(ctx).sgn()                 # d/dx |x| = sign(x) (0 at 0); z/|z| for complex


class Sign(Function):
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        a, xp = x._array, xp_of(x)
        if x.dtype is _dtype.bool:
            return wrap(a.copy(), x.device)
        out = xp.asarray(xp.sign(a))  # asarray: a 0-dim input gives a NumPy scalar
        if x.dtype.is_floating_point:
            out[xp.isnan(out)] = 0  # PyTorch: sign(nan) is 0
        return wrap(out, x.device)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad._shape)


class Sgn(Sign):
    node_name = "SgnBackward0"


class Rounding(Function):
    """floor/ceil/trunc/round: piecewise constant, so the gradient is zero. Integers are returned as copies."""

    @staticmethod
    def forward(ctx, x, kind, decimals):
        xp = xp_of(x)
        if kind == "round":
            no_complex(x, kernel="round_cpu" if decimals else "round_vml_cpu")
        no_complex(x, f"{kind} is not supported for complex inputs")
        if not x.dtype.is_floating_point:
            reject(x.dtype, kind, _dtype.bool, kernel=f"{kind}_vml_cpu")
            if decimals:
                reject(x.dtype, "round", *_dtype.ALL)
            return wrap(x._array.copy(), x.device)
        if kind == "round":
            return wrap(xp.round(x._array, decimals) if decimals else xp.rint(x._array), x.device)
        return wrap(getattr(xp, kind)(x._array), x.device)

    @staticmethod
    def backward(ctx, grad):
        return grad.new_zeros(grad._shape), None, None


class Floor(Rounding):
    node_name = "FloorBackward0"


class Ceil(Rounding):
    node_name = "CeilBackward0"


class Trunc(Rounding):
    node_name = "TruncBackward0"


class Round(Rounding):
    node_name = "RoundBackward0"


class RoundDecimals(Rounding):
    node_name = "RoundBackward1"


class Frac(Function):
    """x - trunc(x): the gradient passes unchanged."""

    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, x):
        reject(x.dtype, "frac", *(d for d in _dtype.ALL if not d.is_floating_point), *_dtype.COMPLEX)
        return wrap(x._array - xp_of(x).trunc(x._array), x.device)

    @staticmethod
    def backward(ctx, grad):
        return grad


class NanToNum(Function):
    """Replace nan, +inf and -inf by finite numbers; their positions get no gradient."""

    node_name = "NanToNumBackward0"

    @staticmethod
    def forward(ctx, x, nan, posinf, neginf):
        ctx.save_for_backward(x)
        if not x.dtype.is_floating_point:
            return wrap(x._array.copy(), x.device)
        return wrap(xp_of(x).nan_to_num(x._array, nan=nan, posinf=posinf, neginf=neginf), x.device)

    @staticmethod
    def backward(ctx, grad):
        return keep_where(grad, _saved(ctx).isfinite()), None, None, None


# -- the public functions and methods ------------------------------------------------------------


@method("abs", "absolute")
def abs(input):  # noqa: A001 - PyTorch's name
    """``|input|`` (not defined for bool tensors)."""
    return Abs.apply(input)


absolute = abs


@method()
def sign(input):
    """-1, 0 or 1 by the sign of each element (bool tensors are returned unchanged)."""
    no_complex(input, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn "
                      "instead.")
    return Sign.apply(input)


@method()
def sgn(input):
    """``sign``, extended to complex numbers by PyTorch (z / |z|); the same for real tensors."""
    return Sgn.apply(input)


@method()
def frac(input):
    """The fractional part ``input - trunc(input)`` (floats only)."""
    return Frac.apply(input)


@method()
def floor(input):
    return Floor.apply(input, "floor", 0)


@method()
def ceil(input):
    return Ceil.apply(input, "ceil", 0)


@method("trunc", "fix")
def trunc(input):
    """Round toward zero."""
    return Trunc.apply(input, "trunc", 0)


fix = trunc


@method()
def round(input, *, decimals=0):  # noqa: A001 - PyTorch's name
    """Round half to even (``round(2.5) == 2``), to ``decimals`` digits after the point."""
    if decimals:
        return RoundDecimals.apply(input, "round", decimals)
    return Round.apply(input, "round", 0)


@method()
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """nan -> ``nan``, inf -> ``posinf`` (default: the dtype's largest), -inf -> ``neginf``."""
    return NanToNum.apply(input, nan, posinf, neginf)


_t.Tensor.__abs__ = lambda self: Abs.apply(self)


# -- in-place forms ---------------------------------------------------------------------------------

for _name, _fn in [("abs_", abs), ("absolute_", abs), ("sign_", sign), ("sgn_", sgn), ("frac_", frac),
                   ("floor_", floor), ("ceil_", ceil), ("trunc_", trunc), ("fix_", trunc), ("round_", round),
                   ("nan_to_num_", nan_to_num)]:
    inplace_method(_name, _fn)


__all__ = ["abs", "absolute", "sign", "sgn", "frac", "floor", "ceil", "trunc", "fix", "round", "nan_to_num",
           "abs_", "frac_", "floor_", "ceil_", "trunc_", "fix_", "round_", "nan_to_num_"]  # torch.floor_(x) ...
