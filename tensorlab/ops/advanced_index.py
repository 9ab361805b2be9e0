"""Advanced indexing: integer tensors and boolean masks as indices. These *copy*.

``x[[0, 2]]`` gathers rows 0 and 2 into a new tensor (IndexBackward0), ``x[mask]`` gathers the
elements where ``mask`` is True, and ``x[idx] = v`` / ``index_put_`` writes through them
(IndexPutBackward0; with ``accumulate=True`` repeated positions add up instead of overwriting).

Where the result's dims go follows NumPy's rule: the index tensors broadcast to one shape B; if all
indexed dims sit next to each other, B replaces them in place, otherwise B goes first
(``index_result_shape``). A mask is the same as the integer indices of its True elements.
See course/05_indexing_and_gather.
"""
import numpy as np

from .. import _dtype, _layout
from ..autograd import grad_mode
from ..autograd.function import Function
from ._util import method, tensor_arg, wrap, xp_of
from .inplace import (OVERLAP_ERROR, apply_inplace, check_inplace, check_writable, has_internal_overlap,
                      warn_expanded)
from .. import tensor as _t

_LEGACY = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
           "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


def as_index_tensor(data):
    """A list, tuple or NumPy array used as an index, as a tensor (``[]`` is an empty int64 index)."""
    from .creation import tensor
    if isinstance(data, (list, tuple)) and len(data) == 0:
        return tensor([], dtype=_dtype.int64)
    return tensor(np.asarray(data) if isinstance(data, np.ndarray) else data)


def index_result_shape(shape, index_shapes):
    """The shape of ``x[indices]`` for ``x`` of ``shape``; ``index_shapes`` has one entry per dim of
    ``x`` (fewer is fine): the shape of that dim's index tensor, or None for a full slice.

    >>> index_result_shape((5, 6, 7), [(2,), None, (2,)])   # indices apart: broadcast dims go first
    (2, 6)
    >>> index_result_shape((5, 6, 7), [None, (3, 1), (4,)])  # adjacent: they stay in place
    (5, 3, 4)
    """
    indexed = [d for d, s in enumerate(index_shapes) if s is not None]
    try:
        b = _layout.broadcast_shapes(*(index_shapes[d] for d in indexed))
    except RuntimeError:
        shapes = ", ".join(_layout._fmt(index_shapes[d]) for d in indexed)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes "
                         f"{shapes}") from None
    rest = [shape[d] for d in range(len(shape)) if d >= len(index_shapes) or index_shapes[d] is None]
    adjacent = indexed == list(range(indexed[0], indexed[-1] + 1))
    if adjacent:
        return tuple(rest[:indexed[0]]) + b + tuple(rest[indexed[0]:])
    return b + tuple(rest)


def prepare_indices(x, advanced):
    """Check the per-dim index tensors for ``x`` and turn masks into integer indices.

    Returns a tuple with one int64 tensor or None per dim of ``x`` (trailing Nones dropped).
    """
    out = []
    for t in advanced:
        if t is None:
            out.append(None)
            continue
        if t.dtype.name in ("bool", "uint8"):
            if t.dtype.name == "uint8":
                import warnings
                warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                              "torch.bool instead.", UserWarning, stacklevel=4)
            out.extend(_mask_to_indices(x, t, len(out)))
            continue
        if t.dtype.name not in ("int64", "int32", "int16", "int8"):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        out.append(t)
    if len(out) > x.dim():
        raise IndexError(f"too many indices for tensor of dimension {x.dim()} (got {len(out)})")
    for k, t in enumerate(i for i in out if i is not None):
        _check_bounds(t, x._shape[_nth_indexed(out, k)], k)
    while out and out[-1] is None:
        out.pop()
    index_result_shape(x._shape, [None if t is None else t._shape for t in out])  # broadcast check
    return tuple(out)


def _nth_indexed(indices, k):
    return [d for d, t in enumerate(indices) if t is not None][k]


def _mask_to_indices(x, mask, start):
    """A k-dim mask indexing dims ``start..start+k-1``: the coordinates of its True elements."""
    for j in range(mask.dim()):
        d = start + j
        if d >= x.dim() or mask._shape[j] != x._shape[d]:
            raise IndexError(f"The shape of the mask {_layout._fmt(mask._shape)} at index {j} does not match the "
                             f"shape of the indexed tensor {_layout._fmt(x._shape)} at index {d}")
    coords = xp_of(mask).nonzero(mask._array)
    return [wrap(c.astype("int64"), mask.device) for c in coords]


def _check_bounds(t, size, k):
    a = t._array
    if a.size == 0:
        return
    lo, hi = int(a.min()), int(a.max())
    bad = lo if lo < -size else hi if hi >= size else None
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for dimension {k} with size {size}")


def _numpy_index(indices):
    return tuple(slice(None) if t is None else t._array for t in indices)


# -- reading: x[indices] ----------------------------------------------------------------------------


class Index(Function):
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, indices):
        ctx.in_shape, ctx.indices = x._shape, indices
        result = x._array[_numpy_index(indices)]
        return wrap(xp_of(x).ascontiguousarray(result), x.device)

    @staticmethod
    def backward(ctx, grad):
        from .creation import zeros
        gx = zeros(ctx.in_shape, dtype=grad.dtype, device=grad.device)
        return gx.index_put(ctx.indices, grad, accumulate=True), None


def index_with(x, advanced):
    """``x`` indexed by per-dim tensors (None for dims taken whole): the copying part of ``x[...]``."""
    return Index.apply(x, prepare_indices(x, advanced))


# -- writing: index_put ------------------------------------------------------------------------------


class IndexPut(Function):
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, x, indices, values, accumulate):
        _check_values(x, indices, values)
        ctx.indices, ctx.accumulate, ctx.values_shape = indices, accumulate, values._shape
        out = x.clone()
        _write(out._array, indices, values._array, accumulate, xp_of(x))
        return out

    @staticmethod
    def backward(ctx, grad):
        from .creation import zeros
        gx = grad
        if not ctx.accumulate:  # overwritten positions did not reach the output
            gx = grad.index_put(ctx.indices, zeros((), dtype=grad.dtype, device=grad.device))
        gv = Index.apply(grad, ctx.indices)
        if gv._shape != ctx.values_shape:
            gv = gv.sum_to_size(ctx.values_shape)
        return gx, None, gv, None


def _check_values(x, indices, values):
    if values.dtype is not x.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_LEGACY[x.dtype.name]} for the destination and {_LEGACY[values.dtype.name]} for "
                           f"the source.")
    target = index_result_shape(x._shape, [None if t is None else t._shape for t in indices]) if indices \
        else x._shape
    try:
        ok = _layout.broadcast_shapes(target, values._shape) == target
    except RuntimeError:
        ok = False
    if not ok:
        raise RuntimeError(f"shape mismatch: value tensor of shape {_layout._fmt(values._shape)} cannot be "
                           f"broadcast to indexing result of shape {_layout._fmt(target)}")


def _write(array, indices, values, accumulate, xp):
    index = _numpy_index(indices)
    if accumulate:
        xp.add.at(array, index, values)  # repeated positions add up
    else:
        array[index] = values  # repeated positions: the last write wins


def _as_indices(x, indices):
    """``index_put_``'s indices: a tuple of tensors (None allowed), masks turned into integers."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError("index_put_(): argument 'indices' must be tuple of Tensors")
    return prepare_indices(x, [None if i is None else i if isinstance(i, _t.Tensor) else as_index_tensor(i)
                               for i in indices])


@method()
def index_put(input, indices, values, accumulate=False):
    """A copy of ``input`` with ``values`` written at ``indices`` (added there if ``accumulate``)."""
    tensor_arg("index_put", "values", 3, values)
    return IndexPut.apply(input, _as_indices(input, indices), values, bool(accumulate))


@method()
def index_put_(self, indices, values, accumulate=False):
    """Write ``values`` at ``indices`` in place (``x[indices] = values`` with tensors)."""
    tensor_arg("index_put_", "values", 2, values)
    return _put_inplace(self, _as_indices(self, indices), values, bool(accumulate))


def _put_inplace(self, indices, values, accumulate):
    """Write only the indexed elements (so into an expanded tensor too, as PyTorch still allows)."""
    check_writable(self, overlap_ok=True)
    if has_internal_overlap(self):
        warn_expanded("index_put_", "tensor[indices] = tensor")
    recording = grad_mode.is_grad_enabled() and (self._requires_grad or values._requires_grad)
    if recording and has_internal_overlap(self):
        raise RuntimeError(OVERLAP_ERROR)
    if recording:
        return apply_inplace(self, IndexPut.apply, indices, values, accumulate)
    check_inplace(self)
    _check_values(self, indices, values)
    _write(self._array, indices, values._array, accumulate, xp_of(self))
    self._version_counter.value += 1
    return self


def index_put_with(target, advanced, values):
    """``target[advanced] = values`` (the advanced part of ``__setitem__``)."""
    _put_inplace(target, prepare_indices(target, advanced), values, False)


__all__ = ["index_put"]
