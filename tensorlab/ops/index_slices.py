"""The ``index_*`` family: one 1-D index picks whole slices along ``dim``.

``index_select`` reads the slices ``index[0], index[1], ...``; ``index_add`` adds ``source``'s slices
at those positions (repeats accumulate, like ``scatter_add``); ``index_copy`` overwrites them;
``index_fill`` sets them to one value. ``index_select`` and ``index_add`` are each other's backward.
See course/05_indexing_and_gather.
"""
from .. import _dtype, _layout
from ..autograd.function import Function
from ._util import method, number_or_tensor_arg, tensor_arg, wrap, xp_of
from .inplace import apply_fill_inplace, apply_inplace
from .gather_scatter import _INDEX_DTYPES, _at_least_1d, _shape_str, check_bounds, legacy_name
from .. import tensor as _t


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
    return IndexSelect.apply(input, dim, tensor_arg("index_select", "index", 3, index))


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
    if x.dim() <= 1:       # PyTorch adds into a 1-d tensor by another kernel, with another message
        values, size = index._array, (x._shape or (1,))[0]
        if values.size and ((values < 0) | (values >= size)).any():
            raise IndexError("index out of range in self")
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
    tensor_arg("index_add", "index", 3, index)
    tensor_arg("index_add", "source", 4, source)
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
        gs = None
        if ctx.needs_input_grad[3]:
            gs = grad.index_select(ctx.dim, index.reshape(-1)).reshape(ctx.source_shape)
        return gx, None, None, gs


@method()
def index_copy(input, dim, index, source):
    """A copy of ``input`` whose slices at ``index`` along ``dim`` are replaced by ``source``'s."""
    tensor_arg("index_copy", "index", 3, index)
    tensor_arg("index_copy", "source", 4, source)
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
    tensor_arg("index_fill", "index", 3, index)
    number_or_tensor_arg("index_fill", "value", 4, value)
    if isinstance(value, _t.Tensor):
        return IndexFillTensor.apply(input, dim, index, value)
    return IndexFill.apply(input, dim, index, value)


@method()
def index_fill_(self, dim, index, value):
    return apply_fill_inplace(self, "index_fill_", index_fill, dim, index, value)


__all__ = ["index_select", "index_add", "index_copy", "index_fill"]
