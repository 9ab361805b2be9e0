"""Gather and scatter: read or write elements at positions given by an index tensor.

``gather`` *reads*: ``out[i][j] = x[index[i][j]][j]`` (for ``dim=0``). ``scatter`` *writes* the other
way round: ``out[index[i][j]][j] = src[i][j]``; ``scatter_add`` adds instead of overwriting, which is
how counting and segment sums are done (``bincount`` is ``scatter_add`` of ones). The two are each
other's backward: the gradient of a gather is a scatter-add of the gradient, and vice versa.
The ``index_*`` family does the same with one 1-D index that picks whole slices along ``dim``.
See course/05_indexing_and_gather.
"""
import operator

from .. import _dtype, _layout
from ..autograd.function import Function
from ._util import method, wrap, xp_of
from .inplace import apply_inplace
from .. import tensor as _t

_INDEX_DTYPES = (_dtype.int32, _dtype.int64)


def legacy_name(dtype):
    """PyTorch's short type name used in messages: ``Float``, ``Long``..."""
    return dtype._legacy[:-len("Tensor")]


def _shape_str(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _at_least_1d(array):
    return array.reshape(1) if array.ndim == 0 else array


def positions_along(xp, index, dim):
    """A NumPy index tuple: element ``p`` of ``index`` addresses ``p`` with ``p[dim]`` replaced by
    ``index[p]``. So ``x[positions_along(xp, index, d)]`` is gather; assigning through it is scatter."""
    grids = []
    for d, n in enumerate(index.shape):
        shape = [1] * index.ndim
        shape[d] = n
        grids.append(index if d == dim else xp.arange(n).reshape(shape))
    return tuple(grids)


def check_bounds(values, size, dim, error=RuntimeError, prefix=""):
    """Every index must lie in ``[0, size)``; report the first one that does not."""
    if values.size == 0:
        return
    bad = (values < 0) | (values >= size)
    if bad.any():
        first = int(values.reshape(-1)[bad.reshape(-1).argmax()])
        raise error(f"{prefix}index {first} is out of bounds for dimension {dim} with size {size}")


# -- gather ------------------------------------------------------------------------------------


def _check_gather(x, d, index):
    if index.dtype not in _INDEX_DTYPES:
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if max(index.dim(), 1) != max(x.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    xs, ix = x._shape or (1,), index._shape or (1,)
    for k in range(len(xs)):
        if k != d and ix[k] > xs[k]:
            raise RuntimeError(f"Size does not match at dimension {k} expected index {_shape_str(index._shape)} "
                               f"to be no larger than self {_shape_str(x._shape)} apart from dimension {d}")
    check_bounds(index._array, xs[d], d)


class Gather(Function):
    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        d = _layout.normalize_dim(dim, x.dim())
        _check_gather(x, d, index)
        ctx.save_for_backward(index)
        ctx.in_shape, ctx.dim = x._shape, d
        values = _at_least_1d(x._array)[positions_along(xp_of(x), _at_least_1d(index._array), d)]
        return wrap(values.reshape(index._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return grad.new_zeros(ctx.in_shape).scatter_add(ctx.dim, index, grad), None, None


@method()
def gather(input, dim, index, *, sparse_grad=False, out=None):
    """``out[i][j] = input[index[i][j]][j]`` for ``dim=0``: pick one element per index entry."""
    return Gather.apply(input, dim, index)


def take_along_dim(input, indices, dim=None, *, out=None):
    """NumPy's take_along_axis: gather after broadcasting ``input`` and ``indices`` (except along ``dim``)."""
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    d = _layout.normalize_dim(dim, input.dim())
    a, b = list(input._shape), list(indices._shape)
    a[d] = b[d] = 1
    common = list(_layout.broadcast_shapes(tuple(a), tuple(b)))
    x_shape, i_shape = list(common), list(common)
    x_shape[d], i_shape[d] = input._shape[d], indices._shape[d]
    return input.expand(x_shape).gather(d, indices.expand(i_shape))


method()(take_along_dim)


# -- scatter -----------------------------------------------------------------------------------


def check_scatter(x, d, index, src):
    """PyTorch's checks for scatter/scatter_add/scatter_reduce (``src`` is None for a scalar value)."""
    if index.dtype not in _INDEX_DTYPES:
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src.dtype is not x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if max(index.dim(), 1) != max(x.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None and max(index.dim(), 1) != max(src.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    xs, ix = x._shape or (1,), index._shape or (1,)
    ss = (src._shape or (1,)) if src is not None else None
    too_big = any(k != d and ix[k] > xs[k] for k in range(len(xs)))
    if too_big or (ss is not None and any(i > s for i, s in zip(ix, ss))):
        message = (f"Expected index {_shape_str(index._shape)} to be no larger than self {_shape_str(x._shape)} "
                   f"apart from dimension {d}")
        if src is not None:
            message += f" and to be no larger size than src {_shape_str(src._shape)}"
        raise RuntimeError(message)
    check_bounds(index._array, xs[d], d)


def scatter_arrays(x, d, index, src):
    """The arrays a scatter works with: output copy, position tuple, and the values to write."""
    out = _at_least_1d(x._array).copy()
    idx = _at_least_1d(index._array)
    where = positions_along(xp_of(x), idx, d)
    if isinstance(src, _t.Tensor):
        values = _at_least_1d(src._array)[tuple(slice(0, n) for n in idx.shape)]
    else:
        values = src
    return out, where, values


def _src_grad(grad, dim, index, src_shape):
    """Gradient for ``src``: the gathered gradient, zero-padded where ``src`` was larger than ``index``."""
    picked = grad.gather(dim, index)
    if picked._shape == tuple(src_shape):
        return picked
    full = grad.new_zeros(src_shape)
    return full.scatter(dim, _arange_like(index, dim), picked) if picked.numel() else full


def _arange_like(index, dim):
    """An index tensor shaped like ``index`` whose entries are their own position along ``dim``."""
    xp = xp_of(index)
    shape = [1] * max(index.dim(), 1)
    n = (index._shape or (1,))[dim]
    shape[dim] = n
    positions = xp.broadcast_to(xp.arange(n).reshape(shape), index._shape or (1,))
    return wrap(xp.ascontiguousarray(positions).reshape(index._shape), index.device)


class Scatter(Function):
    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, x, dim, index, src):
        d = _layout.normalize_dim(dim, x.dim())
        check_scatter(x, d, index, src)
        out, where, values = scatter_arrays(x, d, index, src)
        out[where] = values
        ctx.save_for_backward(index)
        ctx.dim, ctx.src_shape = d, src._shape
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        gx = grad.scatter(ctx.dim, index, 0) if ctx.needs_input_grad[0] else None
        gs = _src_grad(grad, ctx.dim, index, ctx.src_shape) if ctx.needs_input_grad[3] else None
        return gx, None, None, gs


class ScatterValue(Function):
    node_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx, x, dim, index, value):
        d = _layout.normalize_dim(dim, x.dim())
        check_scatter(x, d, index, None)
        out, where, _ = scatter_arrays(x, d, index, None)
        out[where] = value
        ctx.save_for_backward(index)
        ctx.dim = d
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return grad.scatter(ctx.dim, index, 0), None, None, None


class ScatterLegacyReduce(Function):
    """``scatter(..., reduce='add'|'multiply')``: deprecated in PyTorch, which has no derivative for it."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, x, dim, index, src, reduce):
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        d = _layout.normalize_dim(dim, x.dim())
        check_scatter(x, d, index, src if isinstance(src, _t.Tensor) else None)
        out, where, values = scatter_arrays(x, d, index, src)
        xp = xp_of(x)
        (xp.add if reduce == "add" else xp.multiply).at(out, where, values)
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::scatter_ is not implemented")


@method()
def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """A copy of ``input`` with ``out[index[i][j]][j] = src[i][j]`` (dim 0); ``src`` may be a number."""
    if src is None:
        src = value
    if reduce is not None:
        return ScatterLegacyReduce.apply(input, dim, index, src, reduce)
    if isinstance(src, _t.Tensor):
        return Scatter.apply(input, dim, index, src)
    return ScatterValue.apply(input, dim, index, src)


@method()
def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    return apply_inplace(self, scatter, dim, index, src, value=value, reduce=reduce)


class ScatterAdd(Function):
    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, x, dim, index, src):
        d = _layout.normalize_dim(dim, x.dim())
        check_scatter(x, d, index, src)
        out, where, values = scatter_arrays(x, d, index, src)
        xp_of(x).add.at(out, where, values)  # unlike ``out[where] += values``, repeats add up
        ctx.save_for_backward(index)
        ctx.dim, ctx.src_shape = d, src._shape
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        gs = _src_grad(grad, ctx.dim, index, ctx.src_shape) if ctx.needs_input_grad[3] else None
        return grad, None, None, gs


@method()
def scatter_add(input, dim, index, src):
    """A copy of ``input`` with ``out[index[i][j]][j] += src[i][j]``: repeated indices accumulate."""
    return ScatterAdd.apply(input, dim, index, src)


@method()
def scatter_add_(self, dim, index, src):
    return apply_inplace(self, scatter_add, dim, index, src)


# -- index_select / index_add / index_copy / index_fill ------------------------------------------


def _slices(d, idx):
    """The NumPy index ``[:, :, idx]`` that addresses whole slices along dim ``d``."""
    return (slice(None),) * d + (idx,)


class IndexSelect(Function):
    node_name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        d = _layout.normalize_dim(dim, x.dim())
        if index.dtype not in _INDEX_DTYPES:
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        if index.dim() > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        size = (x._shape or (1,))[d]
        idx = index._array.reshape(-1)
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= size):
            raise IndexError("index out of range in self")
        ctx.save_for_backward(index)
        ctx.in_shape, ctx.dim = x._shape, d
        out = xp_of(x).take(_at_least_1d(x._array), idx, axis=d)
        return wrap(out.reshape(()) if x.dim() == 0 else out, x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return grad.new_zeros(ctx.in_shape).index_add(ctx.dim, index.reshape(-1), grad), None, None


@method()
def index_select(input, dim, index, *, out=None):
    """The slices ``index[0], index[1], ...`` of ``input`` along ``dim``, stacked (a copy)."""
    return IndexSelect.apply(input, dim, index)


def _check_index_add(x, d, index, source):
    if index.dtype not in _INDEX_DTYPES:
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {legacy_name(index.dtype)}")
    if index.dim() > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{legacy_name(index.dtype)} and size: {_shape_str(index._shape)}")
    n = (source._shape or (1,))[d] if source.dim() > d or source.dim() == 0 else 1
    if index.numel() != n:
        raise RuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be equal to source.size(dim): "
                           f"({n}), for dim: {d}")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"index_add_(): self ({legacy_name(x.dtype)}) and source ({legacy_name(source.dtype)}) "
                           "must have the same scalar type")
    others = lambda s: [n for k, n in enumerate(s) if k != d]  # noqa: E731
    if source.dim() and (source.dim() != x.dim() or others(source._shape) != others(x._shape)):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {_shape_str(x._shape)} source.shape = {_shape_str(source._shape)}")
    check_bounds(index._array, (x._shape or (1,))[d], d)


class IndexAdd(Function):
    node_name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx, x, dim, index, source, alpha):
        d = _layout.normalize_dim(dim, x.dim())
        _check_index_add(x, d, index, source)
        xp = xp_of(x)
        out = _at_least_1d(x._array).copy()
        values = source._array if alpha == 1 else (source._array * alpha).astype(x.dtype.np)
        if source.dim() == 0:
            values = values.reshape((1,) * max(x.dim(), 1))
        xp.add.at(out, _slices(d, index._array.reshape(-1)), values)  # repeated indices accumulate
        ctx.save_for_backward(index)
        ctx.dim, ctx.alpha, ctx.source_shape = d, alpha, source._shape
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        gs = None
        if ctx.needs_input_grad[3]:
            gs = grad.index_select(ctx.dim, index.reshape(-1))
            gs = (gs if ctx.alpha == 1 else gs * ctx.alpha).reshape(ctx.source_shape)
        return grad, None, None, gs, None


@method()
def index_add(input, dim, index, source, *, alpha=1):
    """A copy of ``input`` with ``source``'s slices added at positions ``index`` along ``dim``."""
    return IndexAdd.apply(input, dim, index, source, alpha)


@method()
def index_add_(self, dim, index, source, *, alpha=1):
    return apply_inplace(self, index_add, dim, index, source, alpha=alpha)


def _check_index_copy(x, d, index, source):
    if index.dtype is not _dtype.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {legacy_name(index.dtype)}")
    if index.dim() > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    n = (source._shape or (1,))[d] if source.dim() > d else 1
    if index.numel() != n:
        raise IndexError(f"index_copy_(): Number of indices ({index.numel()}) should be equal to source.size(dim) "
                         f"({n})")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{legacy_name(x.dtype)} and (source) {legacy_name(source.dtype)}")
    dst = [n for k, n in enumerate(x._shape) if k != d]
    src = [n for k, n in enumerate(source._shape) if k != d]
    if source.dim() and dst != src:
        k = next((k for k, (a, b) in enumerate(zip(dst, src)) if a != b), min(len(dst), len(src)))
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice shapes. Destination "
                           f"slice shape: {dst[k] if k < len(dst) else 1} at dimension {k} and source slice shape: "
                           f"{src[k] if k < len(src) else 1} at dimension {k}.")
    check_bounds(index._array, (x._shape or (1,))[d], d, IndexError, "index_copy_(): ")


class IndexCopy(Function):
    node_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx, x, dim, index, source):
        d = _layout.normalize_dim(dim, x.dim())
        _check_index_copy(x, d, index, source)
        out = _at_least_1d(x._array).copy()
        values = source._array.reshape(out[_slices(d, index._array.reshape(-1))].shape)
        out[_slices(d, index._array.reshape(-1))] = values
        ctx.save_for_backward(index)
        ctx.dim, ctx.source_shape = d, source._shape
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        gx = grad.index_fill(ctx.dim, index, 0) if ctx.needs_input_grad[0] else None
        gs = grad.index_select(ctx.dim, index.reshape(-1)).reshape(ctx.source_shape) if ctx.needs_input_grad[3] else None
        return gx, None, None, gs


@method()
def index_copy(input, dim, index, source):
    """A copy of ``input`` whose slices at ``index`` along ``dim`` are replaced by ``source``'s."""
    return IndexCopy.apply(input, dim, index, source)


@method()
def index_copy_(self, dim, index, source):
    return apply_inplace(self, index_copy, dim, index, source)


def _fill_positions(x, dim, index, value):
    """Validate index_fill's arguments; return (dim, index array with negatives wrapped)."""
    d = _layout.normalize_dim(dim, x.dim())
    if index.dtype is not _dtype.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, _t.Tensor) and value.dim() != 0:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value.dim()} dimension(s).")
    size = (x._shape or (1,))[d]
    idx = index._array.reshape(-1)
    check_bounds(idx + size * (idx < 0), size, d, IndexError)
    return d, idx + size * (idx < 0)


class IndexFill(Function):
    node_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx, x, dim, index, value):
        d, idx = _fill_positions(x, dim, index, value)
        out = _at_least_1d(x._array).copy()
        out[_slices(d, idx)] = value._array if isinstance(value, _t.Tensor) else value
        # negatives wrapped, repeats removed: each filled position counts once for ``value``'s gradient
        ctx.save_for_backward(wrap(xp_of(x).unique(idx), x.device))
        ctx.dim = d
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        return grad.index_fill(ctx.dim, index, 0), None, None, None


class IndexFillTensor(IndexFill):
    node_name = "IndexFillBackward1"

    @staticmethod
    def backward(ctx, grad):
        index, = ctx.saved_tensors
        gx = grad.index_fill(ctx.dim, index, 0) if ctx.needs_input_grad[0] else None
        gv = None
        if ctx.needs_input_grad[3]:
            gv = grad.index_select(ctx.dim, index).sum()
        return gx, None, None, gv


@method()
def index_fill(input, dim, index, value):
    """A copy of ``input`` with the slices at ``index`` along ``dim`` set to ``value``."""
    if isinstance(value, _t.Tensor):
        return IndexFillTensor.apply(input, dim, index, value)
    return IndexFill.apply(input, dim, index, value)


@method()
def index_fill_(self, dim, index, value):
    return apply_inplace(self, index_fill, dim, index, value)


__all__ = ["gather", "take_along_dim", "scatter", "scatter_add", "index_select", "index_add", "index_copy",
           "index_fill"]
