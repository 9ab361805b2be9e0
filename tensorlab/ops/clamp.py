"""Ops that pick or blend values: ``clamp``/``clip``, ``maximum``/``minimum``, ``lerp``, ``addcmul``, ``addcdiv``.

Their gradients are *routed*: ``clamp`` passes the gradient only where the input was inside the
bounds (the bound itself gets it where the input was outside), ``maximum`` sends it to the larger
input (half to each on a tie). The routing is a mask applied with ``where``/``masked_fill``, which are
autograd ops themselves, so the backward can be differentiated again.
See course/04_ops_and_reductions.
"""
import numpy as np

from .. import _dtype
from ..autograd.function import Function
from ._pointwise import broadcast_operands, c_type_name, inplace_method, keep_where, no_complex, zero_where
from ._util import method, unbroadcast, wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor


# -- clamp -------------------------------------------------------------------------------------------


class Clamp(Function):
    """``clamp(x, min, max)`` with number bounds: min(max(x, min), max)."""

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, x, lo, hi):
        no_complex(x, "clamp is not supported for complex types")
        if x._array.dtype.kind == "f" and type(lo) in _PLAIN and type(hi) in _PLAIN:
            a, dtype, device = x._array, x.dtype, x.device  # the common case: nothing to promote
        else:
            arrays, dtype, device = broadcast_operands(x, *(b for b in (lo, hi) if b is not None))
            a = arrays[0]
        ctx.save_for_backward(x)
        ctx.bounds = (lo, hi)
        return wrap(xp_of(x).clip(a, _cast(lo, dtype), _cast(hi, dtype)), device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        lo, hi = ctx.bounds
        inside = (x >= lo) if hi is None else (x <= hi) if lo is None else (x >= lo) & (x <= hi)
        return keep_where(grad, inside), None, None


_PLAIN = (int, float, type(None))


def _cast(bound, dtype):
    if bound is None or dtype.is_floating_point:
        return bound
    return int(bound) if dtype is not _dtype.bool else bool(bound)


class ClampTensor(Function):
    """``clamp(x, min, max)`` with tensor bounds: each bound gets the gradient where it won."""

    node_name = "ClampBackward0"

    @staticmethod
    def forward(ctx, x, lo, hi):
        no_complex(x, "clamp is not supported for complex types")
        bounds = [b for b in (lo, hi) if b is not None]
        (a, *arrays), dtype, device = broadcast_operands(x, *bounds)
        lo_a = arrays.pop(0) if lo is not None else None
        hi_a = arrays.pop(0) if hi is not None else None
        xp = xp_of(x)
        out = a
        if lo_a is not None:
            out = xp.maximum(out, lo_a)
        if hi_a is not None:
            out = xp.minimum(out, hi_a)
        ctx.save_for_backward(x, lo, hi)
        return wrap(out if out is not a else a.copy(), device)

    @staticmethod
    def backward(ctx, grad):
        x, lo, hi = ctx.saved_tensors
        need_x, need_lo, need_hi = ctx.needs_input_grad
        gx = glo = ghi = None
        if lo is not None and hi is not None:
            if need_x:
                gx = keep_where(grad, (x >= lo) & (x <= hi))
            if need_lo:
                glo = keep_where(grad, (x < lo) & (lo < hi))
            if need_hi:
                ghi = keep_where(grad, (x > hi) | (hi < lo))
        elif lo is not None:
            gx = keep_where(grad, x >= lo) if need_x else None
            glo = keep_where(grad, x < lo) if need_lo else None
        else:
            gx = keep_where(grad, x <= hi) if need_x else None
            ghi = keep_where(grad, x > hi) if need_hi else None
        return (_sum_to(gx, x), _sum_to(glo, lo), _sum_to(ghi, hi))


def _sum_to(grad, like):
    """A bound's gradient has the output's shape: sum it down to the bound's own shape."""
    return None if grad is None else unbroadcast(grad, like._shape)


class ClampMin(Clamp):
    node_name = "ClampMinBackward0"


class ClampMax(Clamp):
    node_name = "ClampMaxBackward0"


class ClampMinTensor(ClampTensor):
    node_name = "ClampMinBackward1"


class ClampMaxTensor(ClampTensor):
    node_name = "ClampMaxBackward1"


def _bounds(min, max):
    """Number bounds stay numbers; a 0-dim tensor next to a number is read as a number (as PyTorch does)."""
    if not all(b is None or isinstance(b, (Tensor, int, float, np.generic)) for b in (min, max)):
        raise TypeError(f"clamp() received an invalid combination of arguments - got ({_arg_type(min)}, "
                        f"{_arg_type(max)}), but expected one of:\n * (Tensor min = None, Tensor max = None)\n"
                        " * (Number min = None, Number max = None)")
    if isinstance(min, Tensor) != isinstance(max, Tensor) and min is not None and max is not None:
        tensor_bound = min if isinstance(min, Tensor) else max
        if tensor_bound.dim() != 0:
            raise TypeError(f"clamp() received an invalid combination of arguments - got ({_arg_type(min)}, "
                            f"{_arg_type(max)}), but expected one of:\n * (Tensor min = None, Tensor max = None)\n"
                            " * (Number min = None, Number max = None)")
        min = min.item() if isinstance(min, Tensor) else min
        max = max.item() if isinstance(max, Tensor) else max
    return min, max


def _arg_type(x):
    return "Tensor" if isinstance(x, Tensor) else type(x).__name__


@method("clamp", "clip")
def clamp(input, min=None, max=None):  # noqa: A002 - PyTorch's argument names
    """Limit every element to [min, max] (either may be None; if min > max, the result is max)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    min, max = _bounds(min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return ClampTensor.apply(input, min, max)
    return Clamp.apply(input, min, max)


clip = clamp


@method()
def clamp_min(input, min):  # noqa: A002
    """``max(input, min)`` elementwise."""
    return (ClampMinTensor if isinstance(min, Tensor) else ClampMin).apply(input, min, None)


@method()
def clamp_max(input, max):  # noqa: A002
    """``min(input, max)`` elementwise."""
    return (ClampMaxTensor if isinstance(max, Tensor) else ClampMax).apply(input, None, max)


# -- maximum / minimum --------------------------------------------------------------------------------


class Maximum(Function):
    """The larger of two tensors; the gradient goes to the larger one, split in half on ties."""

    node_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx, a, b, ufunc):
        (x, y), dtype, device = broadcast_operands(a, b)
        if dtype.is_complex:
            raise RuntimeError(f"{ufunc} not implemented for complex tensors.")
        ctx.save_for_backward(a, b)
        ctx.ufunc = ufunc
        return wrap(getattr(xp_of(a), ufunc)(x, y), device)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        tie = a == b
        shared = grad * (1 - tie.to(grad.dtype) * 0.5) if tie._array.any() else grad
        a_loses, b_loses = (a < b, a > b) if ctx.ufunc == "maximum" else (a > b, a < b)
        ga = unbroadcast(zero_where(shared, a_loses), a._shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(zero_where(shared, b_loses), b._shape) if ctx.needs_input_grad[1] else None
        return ga, gb, None


class Minimum(Maximum):
    node_name = "MinimumBackward0"


def _two_tensors(name, input, other):
    for position, (arg, value) in enumerate((("input", input), ("other", other)), start=1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")


@method()
def maximum(input, other):
    """Elementwise larger value (nan if either is nan)."""
    _two_tensors("maximum", input, other)
    return Maximum.apply(input, other, "maximum")


@method()
def minimum(input, other):
    """Elementwise smaller value (nan if either is nan)."""
    _two_tensors("minimum", input, other)
    return Minimum.apply(input, other, "minimum")


# -- lerp, addcmul, addcdiv ------------------------------------------------------------------------------


class Lerp(Function):
    """``start + weight * (end - start)``: the gradient splits as (1 - weight) and weight."""

    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx, start, end, weight):
        (s, e, w), dtype, device = broadcast_operands(start, end, weight)
        xp = xp_of(start)
        diff = e - s
        if isinstance(weight, Tensor):  # PyTorch's formula, exact at both ends
            out = xp.where(xp.abs(w) < 0.5, s + w * diff, e - diff * (1 - w))
        else:
            out = s + w * diff if abs(w) < 0.5 else e - diff * (1 - w)
        ctx.save_for_backward(start, end, weight if isinstance(weight, Tensor) else None)
        ctx.weight = weight
        return wrap(out, device)

    @staticmethod
    def backward(ctx, grad):
        start, end, weight = ctx.saved_tensors
        w = ctx.weight if weight is None else weight
        gs = unbroadcast(grad * (1 - w), start._shape) if ctx.needs_input_grad[0] else None
        ge = unbroadcast(grad * w, end._shape) if ctx.needs_input_grad[1] else None
        gw = unbroadcast(grad * (end - start), weight._shape) if ctx.needs_input_grad[2] else None
        return gs, ge, gw


class LerpTensor(Lerp):
    node_name = "LerpBackward1"


def _same_dtype_as(input, name, other):
    """lerp needs ``end`` (and a dimensioned ``weight``) in ``input``'s dtype; a 0-dim weight may promote."""
    if isinstance(other, Tensor) and other.dtype is not input.dtype and (name != "weight" or other.dim()):
        raise RuntimeError(f"expected dtype {c_type_name(input.dtype)} for `{name}` but got dtype "
                           f"{c_type_name(other.dtype)}")


@method()
def lerp(input, end, weight):
    """Linear interpolation ``input + weight * (end - input)``; ``weight`` is a number or a tensor."""
    _same_dtype_as(input, "end", end)
    _same_dtype_as(input, "weight", weight)
    tensor_weight = isinstance(weight, Tensor)
    dtype = _dtype.result_type(input, end, weight) if tensor_weight else input.dtype  # a 0-dim weight promotes
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"lerp_kernel_{"tensor" if tensor_weight else "scalar"}" not implemented for '
                                  f"'{dtype._legacy[:-6]}'")
    return (LerpTensor if isinstance(weight, Tensor) else Lerp).apply(input, end, weight)


class Addcmul(Function):
    """``input + value * tensor1 * tensor2`` in one op."""

    node_name = "AddcmulBackward0"

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        (a, b, c), dtype, device = broadcast_operands(x, t1, t2)
        if not dtype.is_floating_point:
            value = int(value)
        needs = ctx.needs_input_grad
        ctx.save_for_backward(t1 if needs[2] else None, t2 if needs[1] else None)
        ctx.shapes, ctx.value = (x._shape, t1._shape, t2._shape), value
        return wrap(a + value * b * c, device)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        v, (s0, s1, s2) = ctx.value, ctx.shapes
        needs = ctx.needs_input_grad
        return (unbroadcast(grad, s0) if needs[0] else None,
                unbroadcast(grad * t2 * v, s1) if needs[1] else None,
                unbroadcast(grad * t1 * v, s2) if needs[2] else None, None)


class Addcdiv(Function):
    """``input + value * tensor1 / tensor2`` in one op."""

    node_name = "AddcdivBackward0"

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        (a, b, c), dtype, device = broadcast_operands(x, t1, t2)
        ctx.save_for_backward(t1 if ctx.needs_input_grad[2] else None, t2)
        ctx.shapes, ctx.value = (x._shape, t1._shape, t2._shape), value
        return wrap(a + value * b / c, device)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        v, (s0, s1, s2) = ctx.value, ctx.shapes
        needs = ctx.needs_input_grad
        return (unbroadcast(grad, s0) if needs[0] else None,
                unbroadcast(grad * v / t2, s1) if needs[1] else None,
                unbroadcast(-grad * v * t1 / (t2 * t2), s2) if needs[2] else None, None)


@method()
def addcmul(input, tensor1, tensor2, *, value=1):
    return Addcmul.apply(input, tensor1, tensor2, value)


@method()
def addcdiv(input, tensor1, tensor2, *, value=1):
    if not _dtype.result_type(tensor1, tensor2).is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
            "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")
    return Addcdiv.apply(input, tensor1, tensor2, value)


# -- in-place forms ---------------------------------------------------------------------------------

for _name, _fn in [("clamp_", clamp), ("clip_", clamp), ("clamp_min_", clamp_min), ("clamp_max_", clamp_max),
                   ("lerp_", lerp), ("addcmul_", addcmul), ("addcdiv_", addcdiv)]:
    inplace_method(_name, _fn)


__all__ = ["clamp", "clip", "clamp_min", "clamp_max", "maximum", "minimum", "lerp", "addcmul", "addcdiv",
           "clamp_", "clip_", "clamp_min_", "clamp_max_"]  # torch.clamp_(x, ...) is x.clamp_(...)
