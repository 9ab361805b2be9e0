"""Sorting and counting: sort, argsort, topk, kthvalue, bincount, unique.

Sorting ops return two tensors, ``values`` and ``indices`` (where each value came from), as a named
tuple that prints like PyTorch's (``torch.return_types.sort(values=..., indices=...)``). NaN sorts
as the largest value. The gradient of the values goes back to the positions named by ``indices``
(a scatter), and nowhere else.
See course/04_ops_and_reductions.
"""
import math
import operator

from .. import _dtype, _layout, return_types
from ..autograd.function import Function
from ._pointwise import no_complex
from ._util import method, wrap, xp_of
from .copying import c_contiguous, like_layout
from .gather_scatter import legacy_name


def sort_order(xp, array, axis, descending):
    """Indices that sort ``array`` along ``axis``, stably (equal values keep their order).

    Descending order is ascending order read backwards; sorting the reversed array first keeps
    equal values in their original order (and puts NaN, sorted last ascending, first).
    """
    if not descending:
        return xp.argsort(array, axis=axis, kind="stable")
    order = xp.argsort(xp.flip(array, axis), axis=axis, kind="stable")
    return (array.shape[axis] - 1) - xp.flip(order, axis)


def _scatter_back(grad, dim, indices, in_shape, keepdim=True):
    """Backward of value-selecting ops: each gradient goes back to the position its value came from."""
    if not in_shape:
        return grad.reshape(())
    if not keepdim:
        grad, indices = grad.unsqueeze(dim), indices.unsqueeze(dim)
    return grad.new_zeros(in_shape).scatter(dim, indices, grad)


class Sort(Function):
    node_name = "SortBackward0"

    @staticmethod
    def forward(ctx, x, dim, descending):
        no_complex(x, " Sort does not support complex dtypes on CPU", error=RuntimeError)
        d = _layout.normalize_dim(dim, x.dim())
        xp = xp_of(x)
        if x.dim() == 0:
            values, indices = x._array.copy(), xp.zeros((), dtype=xp.int64)
        else:
            indices = sort_order(xp, x._array, d, descending)
            values = xp.take_along_axis(x._array, indices, axis=d)
        ctx.dim, ctx.in_shape = d, x._shape
        indices = wrap(like_layout(x, indices), x.device)
        ctx.save_for_backward(indices)
        return wrap(like_layout(x, values), x.device), indices

    @staticmethod
    def backward(ctx, grad, _):
        indices, = ctx.saved_tensors
        return _scatter_back(grad, ctx.dim, indices, ctx.in_shape), None, None


class SortStable(Sort):
    node_name = "SortBackward1"


@method()
def sort(input, dim=-1, descending=False, stable=None, *, out=None):
    """Sort along ``dim``; returns ``(values, indices)``. Passing ``stable`` guarantees that equal
    values keep their order (tensorlab's sort is always stable)."""
    cls = Sort if stable is None else SortStable
    return return_types.sort(*cls.apply(input, dim, descending))


@method()
def argsort(input, dim=-1, descending=False, stable=False):
    """Only the indices of ``sort``: ``x[x.argsort()]`` is sorted."""
    no_complex(input, " Sort does not support complex dtypes on CPU", error=RuntimeError)
    d = _layout.normalize_dim(dim, input.dim())
    xp = xp_of(input)
    if input.dim() == 0:
        return wrap(xp.zeros((), dtype=xp.int64), input.device)
    return wrap(like_layout(input, sort_order(xp, input._array, d, descending)), input.device)


@method()
def msort(input):
    """Sort along dim 0 (values only)."""
    return Sort.apply(input, 0, False)[0]


class Topk(Function):
    node_name = "TopkBackward0"

    @staticmethod
    def forward(ctx, x, k, dim, largest):
        no_complex(x, " topk does not support complex dtypes on CPU", error=RuntimeError)
        d = _layout.normalize_dim(dim, x.dim())
        size = x._shape[d] if x.dim() else 1
        if not 0 <= k <= size:
            raise RuntimeError("selected index k out of range")
        xp = xp_of(x)
        array = x._array if x.dim() else x._array.reshape(1)
        indices = xp.take(sort_order(xp, array, d, largest), xp.arange(k), axis=d)
        values = xp.take_along_axis(array, indices, axis=d)
        if not x.dim():
            values, indices = values.reshape(()), indices.reshape(())
        ctx.dim, ctx.in_shape = d, x._shape
        indices = wrap(c_contiguous(xp, indices), x.device)
        ctx.save_for_backward(indices)
        return wrap(c_contiguous(xp, values), x.device), indices

    @staticmethod
    def backward(ctx, grad, _):
        indices, = ctx.saved_tensors
        return _scatter_back(grad, ctx.dim, indices, ctx.in_shape), None, None, None


@method()
def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):  # noqa: A002 - PyTorch's name
    """The ``k`` largest (or smallest) elements along ``dim`` and their indices, largest first."""
    return return_types.topk(*Topk.apply(input, operator.index(k), dim, largest))


class Kthvalue(Function):
    node_name = "KthvalueBackward0"

    @staticmethod
    def forward(ctx, x, k, dim, keepdim):
        d = _layout.normalize_dim(dim, x.dim())
        size = x._shape[d] if x.dim() else 1
        if not 1 <= k <= size:
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
        xp = xp_of(x)
        array = x._array if x.dim() else x._array.reshape(1)
        indices = xp.take(sort_order(xp, array, d, False), xp.asarray([k - 1]), axis=d)
        values = xp.take_along_axis(array, indices, axis=d)
        if not keepdim or not x.dim():
            values, indices = values.squeeze(d), indices.squeeze(d)
        ctx.dim, ctx.in_shape, ctx.keepdim = d, x._shape, keepdim
        indices = wrap(c_contiguous(xp, indices), x.device)
        ctx.save_for_backward(indices)
        return wrap(c_contiguous(xp, values), x.device), indices

    @staticmethod
    def backward(ctx, grad, _):
        indices, = ctx.saved_tensors
        return _scatter_back(grad, ctx.dim, indices, ctx.in_shape, ctx.keepdim), None, None, None


@method()
def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """The ``k``-th smallest element along ``dim`` (k counts from 1) and its index."""
    return return_types.kthvalue(*Kthvalue.apply(input, operator.index(k), dim, keepdim))


# -- counting ------------------------------------------------------------------------------------


@method()
def bincount(input, weights=None, minlength=0):
    """``out[v]`` = how often ``v`` occurs in ``input`` (or the sum of its ``weights``).

    The same as ``zeros(n).scatter_add_(0, input, ones)`` -- see course/05_indexing_and_gather.
    """
    if input.dtype.is_floating_point or input.dtype is _dtype.bool:
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{legacy_name(input.dtype)}'")
    xp = xp_of(input)
    values = input._array
    if input.dim() != 1 or (values.size and int(values.min()) < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and (weights.dim() != 1 or weights.numel() != input.numel()):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    length = max(int(values.max()) + 1 if values.size else 0, minlength)
    if weights is None:
        return wrap(xp.bincount(values, minlength=length).astype(xp.int64), input.device)
    dtype = weights.dtype if weights.dtype is _dtype.float32 else _dtype.float64
    counts = xp.bincount(values, weights=weights._array.astype(xp.float64), minlength=length)
    return wrap(counts.astype(dtype.np), input.device)


def _unique_result(values, inverse, counts, return_inverse, return_counts, device):
    out = [wrap(values, device)]
    if return_inverse:
        out.append(wrap(inverse, device))
    if return_counts:
        out.append(wrap(counts, device))
    return out[0] if len(out) == 1 else tuple(out)


@method()
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct elements (or slices along ``dim``) in ascending order.

    ``return_inverse`` adds, for each input element, the position of its value in the result
    (so ``result[inverse]`` rebuilds the input); ``return_counts`` adds how often each occurs.
    NaNs are never equal, so each NaN is its own value.
    """
    xp = xp_of(input)
    if dim is None:
        values, inverse, counts = xp.unique(input._array.reshape(-1), return_inverse=True, return_counts=True,
                                            equal_nan=False)
        inverse = inverse.reshape(input._shape)
    else:
        d = _layout.normalize_dim(dim, input.dim())
        rows = c_contiguous(xp, xp.moveaxis(input._array, d, 0))  # each slice along ``dim`` is one row
        values, inverse, counts = xp.unique(rows, return_inverse=True, return_counts=True, axis=0)
        values, inverse = xp.moveaxis(c_contiguous(xp, values), 0, d), inverse.reshape(-1)
    return _unique_result(values, inverse.astype(xp.int64), counts.astype(xp.int64), return_inverse,
                          return_counts, input.device)


def _run_starts(xp, rows):
    """True where a new run starts: the first row, and each row that differs from the one before."""
    flat = rows.reshape(len(rows), math.prod(rows.shape[1:]))
    changed = (flat[1:] != flat[:-1]).any(axis=1)
    return xp.concatenate([xp.ones(min(len(rows), 1), dtype=bool), changed])


@method()
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (or slices along ``dim``) into one."""
    xp = xp_of(input)
    d = 0 if dim is None else _layout.normalize_dim(dim, input.dim())
    rows = input._array.reshape(-1) if dim is None else xp.moveaxis(input._array, d, 0)
    starts = _run_starts(xp, rows)
    first = xp.nonzero(starts)[0]
    values = xp.moveaxis(c_contiguous(xp, rows[first]), 0, d)
    counts = xp.diff(xp.concatenate([first, xp.asarray([len(starts)])]))
    inverse = xp.cumsum(starts) - 1
    inverse = inverse.reshape(input._shape) if dim is None else inverse
    return _unique_result(values, inverse.astype(xp.int64), counts.astype(xp.int64), return_inverse,
                          return_counts, input.device)


# -- searching a sorted sequence -----------------------------------------------------------------------


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """Where each value of ``input`` would go in ``sorted_sequence`` to keep it sorted: the index of the first
    element >= the value (``right=True`` or ``side='right'``: the first element > it). A sequence of more
    than one dim is searched row by row, each row for the values of the matching row of ``input``."""
    from .creation import tensor
    if side is not None and side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
    side = side or ("right" if right else "left")
    values = input if hasattr(input, "_array") else tensor(input)
    boundaries, xp = sorted_sequence._array, xp_of(sorted_sequence)
    if sorter is not None:
        boundaries = xp.take_along_axis(boundaries, sorter._array, axis=-1)
    if boundaries.ndim > 1 and boundaries.shape[:-1] != values._array.shape[:-1]:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(boundaries.shape)} and input value tensor "
                           f"{list(values._array.shape)}")
    if boundaries.ndim <= 1:
        found = xp.searchsorted(boundaries, values._array, side=side)
    else:
        rows, vals = boundaries.reshape(-1, boundaries.shape[-1]), values._array.reshape(-1, values._array.shape[-1])
        found = xp.stack([xp.searchsorted(r, v, side=side) for r, v in zip(rows, vals)]).reshape(values._array.shape)
    return wrap(xp.asarray(found).astype("int32" if out_int32 else "int64"), sorted_sequence.device)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value: i such that ``boundaries[i-1] < x <= boundaries[i]`` (``right=True``:
    ``boundaries[i-1] <= x < boundaries[i]``). ``boundaries`` must be 1-d and sorted."""
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "bincount", "unique", "unique_consecutive",
           "searchsorted", "bucketize"]
