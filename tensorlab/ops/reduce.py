"""Reductions: combine elements along dims (sum, mean, ...).

``dim`` may be an int, a tuple, or None (all dims); ``keepdim=True`` keeps reduced dims with size 1.
The backward of a reduction *expands* the gradient back over the reduced dims.
See course/04_ops_and_reductions.
"""
from .. import _dtype, _layout
from ..autograd.function import Function
from ._util import method, wrap, xp_of


def reduced_dims(dim, ndim):
    """Normalised tuple of dims to reduce (all of them for None or an empty tuple)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    dims = (dim,) if not isinstance(dim, (tuple, list)) else tuple(dim)
    out = tuple(_layout.normalize_dim(d, ndim) for d in dims)
    if len(set(out)) != len(out):
        raise RuntimeError(f"dim {out[0]} appears multiple times in the list of dims")
    return tuple(d for d in out if ndim > 0)


def expand_back(grad, in_shape, dims, keepdim):
    """Stretch a reduced gradient back to ``in_shape``: re-insert the dims, then expand."""
    if not keepdim:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return grad.expand(in_shape)


def _sum_dtype(x, dtype):
    """Sums of bool and integer tensors are int64, as in PyTorch."""
    if dtype is not None:
        return dtype
    return x.dtype if x.dtype.is_floating_point else _dtype.int64


class Sum(Function):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, dtype):
        dims = reduced_dims(dim, x.dim())
        ctx.in_shape, ctx.dims, ctx.keepdim = x._shape, dims, keepdim
        out_dtype = _sum_dtype(x, dtype)
        return wrap(xp_of(x).sum(x._array, axis=dims, keepdims=keepdim, dtype=out_dtype.np), x.device)

    @staticmethod
    def backward(ctx, grad):
        return expand_back(grad, ctx.in_shape, ctx.dims, ctx.keepdim), None, None, None


class SumDim(Sum):
    node_name = "SumBackward1"


@method()
def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Add up elements (over ``dim``, or all of them)."""
    if dim is None:
        return Sum.apply(input, None, False, dtype)
    return SumDim.apply(input, dim, keepdim, dtype)


@method()
def sum_to_size(self, *size):
    """Sum over broadcast dims so the result has ``size`` -- the inverse of ``expand``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(size)
    if size == self._shape:
        return self
    lead = self.dim() - len(size)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(size, self._shape[lead:])):
        raise RuntimeError(f"size {{[{', '.join(map(str, size))}]}} is not expandable to size "
                           f"{{[{', '.join(map(str, self._shape))}]}}.")
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and self._shape[lead + i] != 1)
    out = self.sum(dims, keepdim=True) if dims else self
    return out.view(size) if lead or out._shape != size else out


class Mean(Function):
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, dtype):
        if not (dtype or x.dtype).is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or "
                f"complex dtype. Got: {x.dtype.name.capitalize() if x.dtype is not _dtype.int64 else 'Long'}")
        dims = reduced_dims(dim, x.dim())
        ctx.in_shape, ctx.dims, ctx.keepdim = x._shape, dims, keepdim
        ctx.count = _layout.numel([x._shape[d] for d in dims])
        out_dtype = (dtype or x.dtype).np
        return wrap(xp_of(x).mean(x._array, axis=dims, keepdims=keepdim, dtype=out_dtype).astype(out_dtype,
                                                                                               copy=False),
                    x.device)

    @staticmethod
    def backward(ctx, grad):
        return expand_back(grad / ctx.count, ctx.in_shape, ctx.dims, ctx.keepdim), None, None, None


class MeanDim(Mean):
    node_name = "MeanBackward1"


@method()
def mean(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return Mean.apply(input, None, False, dtype)
    return MeanDim.apply(input, dim, keepdim, dtype)


__all__ = ["sum", "mean"]
