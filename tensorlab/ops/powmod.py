"""Powers and remainders: ``**`` (``pow``), ``%`` (``remainder``) and ``fmod``.

``pow`` has three forms with three autograd nodes: tensor ** number (PowBackward0), tensor ** tensor
(PowBackward1, differentiable in the exponent too) and number ** tensor (PowBackward2). Integer
tensors stay integers: ``2 ** -1`` is 0 for them, as integer division would give.
See course/04_ops_and_reductions.
"""
import cmath
import math

from .. import _dtype
from ..autograd.function import Function
from ._pointwise import (NotDifferentiable, broadcast_operands, check_operands, inplace_method,
                         inplace_operator, no_integer_zero_division, operator, reject, save_operands,
                         saved_or_scalar, xp_of_operands, zero_where)
from ._util import method, unbroadcast, wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor


class Remainder(Function):
    """``a % b`` takes the sign of ``b`` (Python's rule, rounding the quotient down); ``fmod`` takes the
    sign of ``a`` (C's rule, rounding toward zero). Gradients: 1 for ``a``, -quotient for ``b``."""

    node_name = "RemainderBackward1"

    @staticmethod
    def forward(ctx, a, b, rounding):
        (x, y), dtype, device = broadcast_operands(a, b)
        reject(dtype, "remainder" if rounding == "floor" else "fmod", _dtype.bool, *_dtype.COMPLEX)
        xp = xp_of_operands(a, b)
        if not dtype.is_floating_point:
            no_integer_zero_division(y)
        needs_b = ctx.needs_input_grad[1]
        save_operands(ctx, a, b, keep_a=needs_b, keep_b=needs_b)
        ctx.rounding = rounding
        return wrap(xp.remainder(x, y) if rounding == "floor" else xp.fmod(x, y), device)

    @staticmethod
    def backward(ctx, grad):
        a, b = saved_or_scalar(ctx)
        ga = unbroadcast(grad, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = None
        if ctx.needs_input_grad[1]:
            gb = unbroadcast(-grad * a.div(b, rounding_mode=ctx.rounding), ctx.shapes[1])
        return ga, gb, None


class RemainderScalar(Remainder):
    node_name = "RemainderBackward0"


class Fmod(Remainder):
    node_name = "FmodBackward1"


class FmodScalar(Remainder):
    node_name = "FmodBackward0"


def _int_power(xp, a, e, dtype):
    """Integer powers; a negative exponent truncates like integer division (2 ** -1 == 0)."""
    negative = e < 0
    if not (negative.any() if hasattr(negative, "any") else negative):
        return xp.power(a, e)
    out = xp.power(a, xp.where(negative, 0, e))
    odd = (e % 2) != 0
    inverse = xp.where(a == 1, 1, xp.where(a == -1, xp.where(odd, -1, 1), 0))
    return xp.where(negative, inverse, out).astype(dtype.np, copy=False)


class Pow(Function):
    """``tensor ** scalar``: d/dx x^e = e * x^(e-1)."""

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, x, exponent):
        (a, e), dtype, device = broadcast_operands(x, exponent)
        if not dtype.is_floating_point and isinstance(exponent, int) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        out = xp_of(x).power(a, e)
        return wrap(out if out.dtype == dtype.np else out.astype(dtype.np), device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return grad.new_zeros(x._shape), None
        return grad * (e * x.pow(e - 1)), None


class PowTensor(Function):
    """``tensor ** tensor``: also differentiable in the exponent, d/de x^e = x^e * log(x)."""

    scalar_edges = (0, 1)
    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, x, exponent):
        (a, e), dtype, device = broadcast_operands(x, exponent)
        reject(dtype, "pow", _dtype.bool, kernel="pow")
        xp = xp_of_operands(x, exponent)
        out = wrap(xp.power(a, e) if dtype.is_floating_point or dtype.is_complex else _int_power(xp, a, e, dtype),
                   device)
        ctx.save_for_backward(x, exponent, out if ctx.needs_input_grad[1] else None)
        ctx.shapes = (x._shape, exponent._shape)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, e, out = ctx.saved_tensors
        gx = ge = None
        if ctx.needs_input_grad[0]:
            gx = unbroadcast(zero_where(grad * (e * x.pow(e - 1)), e == 0), ctx.shapes[0])
        if ctx.needs_input_grad[1]:
            # 0 ** e has derivative 0 in e for e >= 0 (log(0) would give nan)
            ge = unbroadcast(grad * zero_where(out * x.log(), (x == 0) & (e.real >= 0)), ctx.shapes[1])
        return gx, ge


class PowScalarBase(Function):
    """``scalar ** tensor``: d/de b^e = b^e * log(b)."""

    node_name = "PowBackward2"  # the number base gets no edge (PyTorch keeps it as a scalar)

    @staticmethod
    def forward(ctx, base, exponent):
        (b, e), dtype, device = broadcast_operands(base, exponent)
        reject(dtype, "pow", _dtype.bool, kernel="pow")
        xp = xp_of(exponent)
        out = wrap(xp.power(b, e) if dtype.is_floating_point or dtype.is_complex
                   else _int_power(xp, xp.asarray(b, dtype.np), e, dtype),
                   device)
        ctx.save_for_backward(out, exponent if base == 0 else None)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        out, exponent = ctx.saved_tensors
        if ctx.base == 0:
            return None, grad * zero_where(out * -math.inf, exponent.real >= 0)
        if isinstance(ctx.base, complex):
            return None, grad * (out * cmath.log(ctx.base))
        log_base = math.log(ctx.base) if ctx.base > 0 else math.nan
        return None, grad * (out * log_base)


# -- the public functions and methods -----------------------------------------------------------


@method()
def pow(input, exponent):
    """``input ** exponent``: tensor ** number, tensor ** tensor, or number ** tensor."""
    if isinstance(exponent, Tensor):
        if not isinstance(input, Tensor):
            return PowScalarBase.apply(input, exponent)
        return PowTensor.apply(input, exponent)
    check_operands("pow", input, exponent, arg="exponent")
    return Pow.apply(input, exponent)


@method()
def remainder(input, other):
    """Python's ``%``: the result has the sign of ``other``."""
    if not isinstance(input, Tensor) and isinstance(other, Tensor):  # torch.remainder(2, x)
        return NotDifferentiable.apply(input, other, _remainder_values, "remainder")
    check_operands("remainder", input, other)
    return (Remainder if isinstance(other, Tensor) else RemainderScalar).apply(input, other, "floor")


def _remainder_values(a, b):
    return Remainder.apply(a, b, "floor")


@method()
def fmod(input, other):
    """C's ``fmod``: the result has the sign of ``input``."""
    check_operands("fmod", input, other)
    return (Fmod if isinstance(other, Tensor) else FmodScalar).apply(input, other, "trunc")


def _rmod(other, self):
    """``2 % x``: PyTorch defines no gradient for a number divided by a tensor."""
    return NotDifferentiable.apply(other, self, _remainder_values, "remainder")


Tensor.__pow__ = operator(pow)
Tensor.__rpow__ = operator(pow, reflected=True)
Tensor.__mod__ = operator(remainder)
Tensor.__rmod__ = operator(_rmod, reflected=True)

for _name, _fn in [("pow_", pow), ("remainder_", remainder), ("fmod_", fmod)]:
    inplace_method(_name, _fn)

Tensor.__imod__ = inplace_operator("remainder_")
Tensor.__ipow__ = inplace_operator("pow_")

__all__ = ["pow", "remainder", "fmod"]
