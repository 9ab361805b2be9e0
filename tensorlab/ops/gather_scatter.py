"""Gather and scatter: read or write elements at positions given by an index tensor.

``gather`` *reads*: ``out[i][j] = x[index[i][j]][j]`` (for ``dim=0``). ``scatter`` *writes* the other
way round: ``out[index[i][j]][j] = src[i][j]``; ``scatter_add`` adds instead of overwriting, which is
how counting and segment sums are done (``bincount`` is ``scatter_add`` of ones). The two are each
other's backward: the gradient of a gather is a scatter-add of the gradient, and vice versa.
The ``index_*`` family (ops/index_slices.py) does the same with a 1-D index that picks whole slices.
See course/05_indexing_and_gather.
"""
from .. import _dtype, _layout
from ..autograd.function import Function
from ._util import method, number_or_tensor_arg, tensor_arg, wrap, xp_of
from .copying import c_contiguous
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
    return Gather.apply(input, dim, tensor_arg("gather", "index", 3, index))


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
    return wrap(c_contiguous(xp, positions).reshape(index._shape), index.device)


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
    tensor_arg("scatter", "index", 3, index)
    if src is None:
        src = value
    number_or_tensor_arg("scatter", "src", 4, src)
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


__all__ = ["gather", "take_along_dim", "scatter", "scatter_add"]
