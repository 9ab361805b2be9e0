"""Reductions that *select* an element: ``max``, ``min``, ``amax``, ``amin``, ``argmax``, ``argmin``,
``median``, ``mode``.

Only the selected element influenced the result, so only it gets a gradient. Two rules for ties:
- with ``dim`` (``x.max(dim)`` returns ``(values, indices)``), the gradient goes to the returned index;
- without (``x.max()``, ``x.amax(dims)``), it is shared evenly among all the tied elements.
See course/04_ops_and_reductions.
"""
from .. import _dtype, _layout, return_types
from ..autograd.function import Function
from ._pointwise import no_complex, reject
from ._util import method, wrap, xp_of
from .reduce import expand_back, reduced_dims
from .. import tensor as _t

Tensor = _t.Tensor


def _nonempty(x, name, dims=None):
    """PyTorch refuses to select from nothing (the error type differs between ops, as PyTorch's does)."""
    if dims is None and x.numel() == 0:
        if name in ("argmax", "argmin"):
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                           "the reduction dim with the 'dim' argument.")
    for d in dims or ():
        if x._shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def share_among_ties(grad, x, value, dims, keepdim):
    """``grad`` split evenly among the elements of ``x`` equal to ``value`` (nan counts as equal to nan)."""
    value = expand_back(value, x._shape, dims, keepdim)
    ties = ((x == value) | (x.isnan() & value.isnan())).to(grad.dtype)
    count = ties.sum(dims, keepdim=True)
    return expand_back(grad, x._shape, dims, keepdim) / count * ties


def to_index(grad, x, indices, dim, keepdim):
    """``grad`` placed at ``indices`` along ``dim``, zeros elsewhere (a one-hot mask, so it stays differentiable)."""
    from ._pointwise import keep_where
    xp = xp_of(x)
    idx = indices._array if keepdim else xp.expand_dims(indices._array, dim)
    positions = xp.arange(x._shape[dim]).reshape([-1 if d == dim else 1 for d in range(x.dim())])
    chosen = wrap(positions == idx, x.device)
    return keep_where(expand_back(grad, x._shape, (dim,), keepdim), chosen)


# -- max / min over everything or over dims (values only) ------------------------------------------


class MaxAll(Function):
    """``x.max()``: the largest element (nan if any is nan)."""

    node_name = "MaxBackward1"

    @staticmethod
    def forward(ctx, x, reduce):
        no_complex(x, kernel=f"{reduce}_all")
        _nonempty(x, reduce)
        out = wrap(getattr(x._array, reduce)(), x.device)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return share_among_ties(grad, x, out, tuple(range(x.dim())), False), None


class MinAll(MaxAll):
    node_name = "MinBackward1"


class Amax(Function):
    """``x.amax(dims)``: values only, over one or several dims; ties share the gradient."""

    node_name = "AmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, reduce):
        no_complex(x, kernel=f"{reduce[1:]}_values_cpu")
        dims = reduced_dims(dim, x.dim())
        _nonempty(x, reduce, None if dim is None or dim == () or dim == [] else dims)
        out = wrap(getattr(x._array, reduce[1:])(axis=dims, keepdims=keepdim), x.device)  # amax -> .max
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return share_among_ties(grad, x, out, ctx.dims, ctx.keepdim), None, None, None


class Amin(Amax):
    node_name = "AminBackward0"


@method()
def amax(input, dim=(), keepdim=False):
    """The largest value over ``dim`` (all dims by default)."""
    return Amax.apply(input, dim, keepdim, "amax")


@method()
def amin(input, dim=(), keepdim=False):
    """The smallest value over ``dim`` (all dims by default)."""
    return Amin.apply(input, dim, keepdim, "amin")


# -- selections along one dim: (values, indices) ---------------------------------------------------


class MaxDim(Function):
    """``x.max(dim)``: values and the index (first occurrence) of each; the gradient goes to that index."""

    node_name = "MaxBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, name):
        if name in ("max", "min"):
            no_complex(x, f"{name}(): does not support complex input", error=RuntimeError)
        no_complex(x, kernel={"median": "median_out", "mode": "mode_cpu"}.get(name))
        d = _layout.normalize_dim(dim, max(x.dim(), 1))
        if x.dim() == 0:
            return wrap(x._array.copy(), x.device), wrap(xp_of(x).zeros((), "int64"), x.device)
        _nonempty(x, name, (d,))
        xp = xp_of(x)
        index = _select_index(xp, x._array, d, name)
        values = xp.take_along_axis(x._array, index, axis=d)
        if not keepdim:
            index, values = xp.squeeze(index, axis=d), xp.squeeze(values, axis=d)
        indices = wrap(index.astype("int64", copy=False), x.device)
        ctx.save_for_backward(x, indices)
        ctx.dim, ctx.keepdim = d, keepdim
        ctx.mark_non_differentiable(indices)
        return wrap(values, x.device), indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        x, indices = ctx.saved_tensors
        if x.dim() == 0:
            return grad, None, None, None
        return to_index(grad, x, indices, ctx.dim, ctx.keepdim), None, None, None


class MinDim(MaxDim):
    node_name = "MinBackward0"


class MedianDim(MaxDim):
    node_name = "MedianBackward1"


class ModeDim(MaxDim):
    node_name = "ModeBackward0"


def _select_index(xp, a, d, name):
    """Index (kept dim) along ``d`` of the element ``name`` selects in each slice."""
    if name in ("max", "min"):
        return xp.expand_dims((xp.argmax if name == "max" else xp.argmin)(a, axis=d), d)
    if name == "median":
        reject(_dtype.from_numpy_dtype(a.dtype), "median", _dtype.bool, kernel="median_out")
        return _median_index(xp, a, d)
    return _mode_index(xp, a, d)


def _median_index(xp, a, d):
    """The lower median: position (n - 1) // 2 in sorted order (a slice holding nan gives its first nan)."""
    order = xp.argsort(a, axis=d, kind="stable")
    k = (a.shape[d] - 1) // 2
    index = xp.take(order, [k], axis=d)
    if a.dtype.kind == "f":
        nan = xp.isnan(a)
        has_nan = nan.any(axis=d, keepdims=True)
        index = xp.where(has_nan, xp.expand_dims(xp.argmax(nan, axis=d), d), index)
    return index


def _mode_index(xp, a, d):
    """The most frequent value of each slice (the smallest on ties), at its last occurrence."""
    moved = xp.moveaxis(a, d, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    order = xp.argsort(rows, axis=-1, kind="stable")
    ranked = xp.take_along_axis(rows, order, axis=-1)
    starts = xp.ones(ranked.shape, bool)
    starts[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    run = xp.cumsum(starts, axis=-1) - 1                         # run id of each sorted position
    n = ranked.shape[-1]
    run_key = run + n * xp.arange(len(ranked))[:, None]        # unique across rows
    lengths = xp.bincount(run_key.reshape(-1), minlength=n * len(ranked))[run_key]
    best = xp.argmax(lengths, axis=-1)                          # first longest run = smallest value
    best_run = xp.take_along_axis(run, best[:, None], axis=-1)
    index = xp.where(run == best_run, order, -1).max(axis=-1)  # last occurrence of that value
    return xp.expand_dims(index.reshape(moved.shape[:-1]), d)


def _selection(fn_class, name, x, dim, keepdim):
    values, indices = fn_class.apply(x, dim, keepdim, name)
    return getattr(return_types, name)(values, indices)


# ``max_``/``min_`` here so this module keeps Python's own max/min; exported as tensorlab.max/min
@method("max")
def max_(input, dim=None, keepdim=False):
    """``max()``: the largest element; ``max(dim)``: (values, indices); ``max(other)``: ``maximum``."""
    if isinstance(dim, Tensor):
        from .clamp import maximum
        return maximum(input, dim)
    if dim is None:
        return MaxAll.apply(input, "max")
    return _selection(MaxDim, "max", input, dim, keepdim)


@method("min")
def min_(input, dim=None, keepdim=False):
    """``min()``: the smallest element; ``min(dim)``: (values, indices); ``min(other)``: ``minimum``."""
    if isinstance(dim, Tensor):
        from .clamp import minimum
        return minimum(input, dim)
    if dim is None:
        return MinAll.apply(input, "min")
    return _selection(MinDim, "min", input, dim, keepdim)


class MedianAll(Function):
    """``x.median()``: the lower median of all elements (nan if any is nan); ties share the gradient."""

    node_name = "MedianBackward0"

    @staticmethod
    def forward(ctx, x):
        reject(x.dtype, "median", _dtype.bool, *_dtype.COMPLEX)
        xp, flat = xp_of(x), x._array.reshape(-1)
        if flat.size == 0 or (flat.dtype.kind == "f" and xp.isnan(flat).any()):
            value = xp.asarray(float("nan"), flat.dtype) if flat.dtype.kind == "f" else flat[:1].sum()
        else:
            value = xp.partition(flat, (flat.size - 1) // 2)[(flat.size - 1) // 2]
        out = wrap(xp.asarray(value), x.device)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return share_among_ties(grad, x, out, tuple(range(x.dim())), False)


@method()
def median(input, dim=None, keepdim=False):
    """The lower median (of all elements, or ``(values, indices)`` along ``dim``)."""
    if dim is None:
        return MedianAll.apply(input)
    return _selection(MedianDim, "median", input, dim, keepdim)


@method()
def mode(input, dim=-1, keepdim=False):
    """The most frequent value along ``dim`` and an index where it occurs: ``(values, indices)``."""
    return _selection(ModeDim, "mode", input, dim, keepdim)


# -- argmax / argmin ---------------------------------------------------------------------------------


def _arg(name):
    def arg(input, dim=None, keepdim=False):
        if input.dtype is _dtype.bool:
            raise RuntimeError(f"{name}(): does not support bool input")
        no_complex(input, f"{name}(): does not support complex input", error=RuntimeError)
        xp, a = xp_of(input), input._array
        if dim is None:
            _nonempty(input, name)
            index = getattr(xp, name)(a.reshape(-1))
            shape = (1,) * input.dim() if keepdim else ()
            return wrap(xp.asarray(index, "int64").reshape(shape), input.device)
        d = _layout.normalize_dim(dim, max(input.dim(), 1))
        if input.dim() == 0:
            return wrap(xp.zeros((), "int64"), input.device)
        _nonempty(input, name, (d,))
        return wrap(getattr(xp, name)(a, axis=d, keepdims=keepdim).astype("int64", copy=False), input.device)
    arg.__name__ = arg.__qualname__ = name
    arg.__doc__ = f"Index of the {'largest' if name == 'argmax' else 'smallest'} element (flattened, or along ``dim``)."
    return method(name)(arg)


argmax = _arg("argmax")
argmin = _arg("argmin")


__all__ = ["max", "min", "amax", "amin", "argmax", "argmin", "median", "mode"]
