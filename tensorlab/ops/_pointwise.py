"""Helpers shared by the pointwise op families (elementwise, unary, compare, clamp).

A pointwise op reads its inputs at the same (broadcast) position and writes one output element there.
Three small ideas recur in all of them and live here:
- checking that shapes broadcast, so a mismatch raises PyTorch's error (not NumPy's);
- the dtype a float-only function (``exp``, ``sin``...) computes in: integers become the default float;
- zeroing a gradient where a condition holds (``relu``, ``clamp``, ``maximum``...), written as an
  autograd Function so the backward stays differentiable (double backward works).
See course/04_ops_and_reductions.
"""
import numpy as np

from .. import _dtype, _layout
from ..autograd.function import Function
from ._util import method, operands, wrap, xp_of
from .inplace import apply_inplace
from .. import tensor as _t

Tensor = _t.Tensor


def shape_of(x):
    """The shape of a tensor operand; a Python scalar counts as 0-dim."""
    return x._shape if isinstance(x, Tensor) else ()


def broadcast_operands(*xs, dtype=None):
    """``operands`` (promoted arrays, dtype, device) after checking the shapes broadcast.

    NumPy would broadcast too, but its error message is not PyTorch's.
    """
    shapes = [x._shape for x in xs if isinstance(x, Tensor)]
    if any(s != shapes[0] for s in shapes):
        _layout.broadcast_shapes(*shapes)
    return operands(*xs, dtype=dtype)


def float_dtype(*xs):
    """The dtype a float function computes in: the promoted dtype, or the default float for ints/bools."""
    dtype = _dtype.result_type(*xs)
    return dtype if dtype.is_floating_point else _dtype.get_default_dtype()


def float_array(x):
    """``x``'s array in its float dtype (no copy when it is floating already)."""
    a = x._array
    return a if a.dtype.kind == "f" else a.astype(_dtype.get_default_dtype().np)


def reject(dtype, op_name, *dtypes, kernel=None):
    """PyTorch has no kernel of ``op_name`` for ``dtype`` (one of ``dtypes``): raise its NotImplementedError."""
    if dtype in dtypes:
        legacy = {"bool": "Bool", "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                  "uint8": "Byte", "float16": "Half", "float32": "Float", "float64": "Double"}[dtype.name]
        raise NotImplementedError(f'"{kernel or op_name + "_cpu"}" not implemented for \'{legacy}\'')


# -- masking a gradient -----------------------------------------------------------------------


class MaskedFill(Function):
    """``x`` with the positions where ``mask`` is True set to ``value`` (``x.masked_fill(mask, value)``).

    Backward formulas use it to zero a gradient where the input had no influence (``relu`` below 0,
    ``clamp`` outside its bounds). Its own backward is the same masking, so double backward works.
    """

    node_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.mask = mask
        return wrap(xp_of(x).where(mask._array, x._array.dtype.type(value), x._array), x.device)

    @staticmethod
    def backward(ctx, grad):
        return (MaskedFill.apply(grad, ctx.mask, 0) if ctx.needs_input_grad[0] else None), None, None


def zero_where(x, mask):
    """``x`` with zeros where the bool tensor ``mask`` is True (``mask`` may broadcast)."""
    if mask._shape != x._shape:
        mask = mask.expand(x._shape)
    return MaskedFill.apply(x, mask, 0)


def keep_where(x, mask):
    """``x`` where ``mask`` is True, zero elsewhere."""
    return zero_where(x, logical_not_array(mask))


def logical_not_array(mask):
    return wrap(~mask._array, mask.device)


# -- in-place forms ----------------------------------------------------------------------------


def inplace_method(name, out_of_place):
    """Attach ``Tensor.<name>``: ``out_of_place(self, ...)`` written back into ``self``'s memory.

    ``x.add_(y)`` is ``add(x, y)`` plus a write-back (version bump, history rebase): see ops/inplace.py.
    """
    def inplace(self, *args, **kwargs):
        return apply_inplace(self, out_of_place, *args, **kwargs)
    inplace.__name__ = inplace.__qualname__ = name
    inplace.__doc__ = f"In-place ``{out_of_place.__name__}``: writes the result into ``self``."
    method(name)(inplace)
    return inplace


def np_errstate():
    """Silence NumPy's warnings for 1/0, log(0)...: PyTorch returns inf/nan quietly."""
    return np.errstate(all="ignore")
