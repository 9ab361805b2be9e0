"""Masks: boolean tensors that choose elements. ``masked_fill`` overwrites where the mask is True,
``masked_select`` keeps only those elements (a 1-D copy), ``where`` picks from two tensors, and
``nonzero`` turns a mask into the positions of its True entries.

Masks broadcast against the tensor they select from. In backward, the gradient flows only to the
elements that were chosen; the others get zero.
See course/05_indexing_and_gather.
"""
from .. import _dtype, _layout
from ..autograd.function import Function
from ._util import method, number_or_tensor_arg, operands, tensor_arg, unbroadcast, wrap, xp_of
from .copying import c_contiguous, cat, is_dense
from .inplace import apply_fill_inplace, apply_inplace
from .gather_scatter import legacy_name
from .. import tensor as _t


def _check_mask(mask, op):
    if mask.dtype is not _dtype.bool:
        raise RuntimeError(f"{op} only supports boolean masks, but got mask with dtype {mask.dtype.name}")


def _shape(x):
    return x._shape if isinstance(x, _t.Tensor) else ()


class MaskedFill(Function):
    node_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, x, mask, value):
        _check_mask(mask, "masked_fill_")
        shape = _layout.broadcast_shapes(mask._shape, x._shape)
        xp = xp_of(x)
        fill = value._array.astype(x.dtype.np) if isinstance(value, _t.Tensor) else value
        out = xp.where(mask._array, xp.asarray(fill, dtype=x.dtype.np), x._array)
        ctx.save_for_backward(mask)
        ctx.in_shape = x._shape
        return wrap(c_contiguous(xp, xp.broadcast_to(out, shape)), x.device)

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        return unbroadcast(grad.masked_fill(mask, 0), ctx.in_shape), None, None


class MaskedFillTensor(MaskedFill):
    node_name = "MaskedFillBackward1"

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        gx = unbroadcast(grad.masked_fill(mask, 0), ctx.in_shape) if ctx.needs_input_grad[0] else None
        gv = where(mask, grad, 0).sum() if ctx.needs_input_grad[2] else None
        return gx, None, gv


@method()
def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` wherever ``mask`` is True (``mask`` broadcasts)."""
    tensor_arg("masked_fill", "mask", 2, mask)
    number_or_tensor_arg("masked_fill", "value", 3, value)
    if isinstance(value, _t.Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        return MaskedFillTensor.apply(input, mask, value)
    return MaskedFill.apply(input, mask, value)


@method()
def masked_fill_(self, mask, value):
    """Write ``value`` into this tensor wherever ``mask`` is True."""
    return apply_fill_inplace(self, "masked_fill_", masked_fill, mask, value)


class MaskedSelect(Function):
    node_name = "MaskedSelectBackward0"

    @staticmethod
    def forward(ctx, x, mask):
        if mask.dtype is not _dtype.bool:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        shape = _layout.broadcast_shapes(mask._shape, x._shape)
        xp = xp_of(x)
        ctx.save_for_backward(mask)
        ctx.in_shape, ctx.shape = x._shape, shape
        return wrap(xp.broadcast_to(x._array, shape)[xp.broadcast_to(mask._array, shape)], x.device)

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        full = grad.new_zeros(ctx.shape).masked_scatter(mask, grad)
        return unbroadcast(full, ctx.in_shape), None


@method()
def masked_select(input, mask, *, out=None):
    """The elements where ``mask`` is True, in row-major order, as a 1-D tensor (a copy)."""
    return MaskedSelect.apply(input, mask)


class MaskedScatter(Function):
    node_name = "MaskedScatterBackward0"

    @staticmethod
    def forward(ctx, x, mask, source):
        if mask.dtype is not _dtype.bool:
            raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                               f"{legacy_name(mask.dtype)}")
        if source.dtype is not x.dtype:
            raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                               f"{legacy_name(x.dtype)} and {legacy_name(source.dtype)}")
        shape = _layout.broadcast_shapes(mask._shape, x._shape)
        xp = xp_of(x)
        full_mask = xp.broadcast_to(mask._array, shape)
        count = int(full_mask.sum())
        if count > source.numel():
            raise RuntimeError("Number of elements of source < number of ones in mask")
        out = xp.array(xp.broadcast_to(x._array, shape))
        out[full_mask] = source._array.reshape(-1)[:count]
        ctx.save_for_backward(mask)
        ctx.in_shape, ctx.source_shape, ctx.count = x._shape, source._shape, count
        return wrap(out, x.device)

    @staticmethod
    def backward(ctx, grad):
        mask, = ctx.saved_tensors
        gx = unbroadcast(grad.masked_fill(mask, 0), ctx.in_shape) if ctx.needs_input_grad[0] else None
        gs = None
        if ctx.needs_input_grad[2]:
            used = grad.masked_select(mask)
            unused = grad.new_zeros(_layout.numel(ctx.source_shape) - ctx.count)
            gs = cat([used, unused]).reshape(ctx.source_shape)
        return gx, None, gs


@method()
def masked_scatter(input, mask, source):
    """A copy of ``input`` whose masked positions take ``source``'s elements, in order."""
    return MaskedScatter.apply(input, mask, source)


@method()
def masked_scatter_(self, mask, source):
    return apply_inplace(self, masked_scatter, mask, source)


# -- where and nonzero ---------------------------------------------------------------------------


def _result_layout(xp, array, candidates):
    """Memory order of an elementwise result, as PyTorch's TensorIterator picks it: follow the first
    operand that has the full shape and is dense (e.g. a transposed input gives a transposed result)."""
    for t in candidates:
        if isinstance(t, _t.Tensor) and t._shape == array.shape and 0 not in t._stride and is_dense(t):
            out = xp.empty_like(t._array, dtype=array.dtype, order="K")
            out[...] = array
            return out
    return c_contiguous(xp, array)


class Where(Function):
    node_name = "WhereBackward0"
    scalar_edges = (1, 2)

    @staticmethod
    def forward(ctx, condition, x, y):
        if condition.dtype is not _dtype.bool:
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                               f"{legacy_name(condition.dtype)}")
        (a, b), dtype, device = operands(x, y)
        shape = _layout.broadcast_shapes(condition._shape, _shape(x), _shape(y))
        xp = xp_of(condition)
        out = xp.broadcast_to(xp.where(condition._array, a, b), shape).astype(dtype.np, copy=False)
        ctx.save_for_backward(condition)
        ctx.shapes = (_shape(x), _shape(y))
        return wrap(_result_layout(xp, out, (condition, x, y)), device)

    @staticmethod
    def backward(ctx, grad):
        condition, = ctx.saved_tensors
        gx = unbroadcast(where(condition, grad, 0), ctx.shapes[0]) if ctx.needs_input_grad[1] else None
        gy = unbroadcast(where(condition, 0, grad), ctx.shapes[1]) if ctx.needs_input_grad[2] else None
        return None, gx, gy


def where(condition, input=None, other=None, *, out=None):
    """``where(cond, x, y)``: ``x`` where ``cond`` is True, else ``y`` (all three broadcast; ``x`` and
    ``y`` may be numbers). ``where(cond)`` alone is ``nonzero(cond, as_tuple=True)``."""
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return Where.apply(condition, input, other)


@method("where")
def _where_method(self, condition, other):
    """``x.where(cond, y)``: the method form takes the tensor first."""
    return Where.apply(condition, self, other)


@method()
def nonzero(input, *, as_tuple=False, out=None):
    """Positions of the non-zero elements: an ``(n, ndim)`` tensor, or one 1-D tensor per dim."""
    xp = xp_of(input)
    array = input._array if input.dim() or not as_tuple else input._array.reshape(1)
    positions = xp.argwhere(array)
    if as_tuple:
        return tuple(wrap(c_contiguous(xp, positions[:, d]), input.device) for d in range(array.ndim))
    return wrap(c_contiguous(xp, positions).astype(xp.int64), input.device)


@method()
def argwhere(input):
    """Same as ``nonzero(input)``: one row of indices per non-zero element."""
    return nonzero(input)


__all__ = ["masked_fill", "masked_select", "masked_scatter", "where", "nonzero", "argwhere"]
