"""``scatter_reduce``: scatter ``src`` into ``input`` and combine the values that land on the same
position with a reduction -- "sum", "prod", "mean", "amax" or "amin". With ``include_self=False``
the values already in ``input`` take no part where something lands (they are replaced).

The backward depends on the reduction: a sum passes the gradient to every contributor, a mean
divides it by the number of contributors, amax/amin share it among the contributors equal to the
result, and a product multiplies it by the product of the *other* contributors. Forward works these
factors out on arrays, so backward is one multiplication per input (its second derivative treats
the factors as constants -- exact for sum and mean).
See course/05_indexing_and_gather.
"""
from .. import _layout
from ..autograd.function import Function
from ._util import method, wrap, xp_of
from .gather_scatter import check_scatter, scatter_arrays
from .inplace import apply_inplace

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


def _identity(xp, dtype, reduce):
    """The value that leaves a reduction unchanged (what an excluded ``self`` counts as)."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    info = xp.finfo(dtype) if dtype.kind == "f" else xp.iinfo(dtype)
    if dtype.kind == "f":
        return -xp.inf if reduce == "amax" else xp.inf
    return info.min if reduce == "amax" else info.max


def _reduce_arrays(xp, out, where, values, reduce, include_self):
    """Apply the reduction in place on ``out``; return (landed mask, contributor counts)."""
    landed = xp.zeros(out.shape, dtype=bool)
    landed[where] = True
    if not include_self:
        out[landed] = _identity(xp, out.dtype, reduce)
    ufunc = {"sum": xp.add, "mean": xp.add, "prod": xp.multiply, "amax": xp.maximum, "amin": xp.minimum}[reduce]
    ufunc.at(out, where, values)
    counts = xp.zeros(out.shape, dtype=xp.int64) + (1 if include_self else 0)
    xp.add.at(counts, where, 1)
    if reduce == "mean":
        divisor = xp.maximum(counts, 1).astype(out.dtype)
        out[...] = out / divisor if out.dtype.kind == "f" else xp.floor_divide(out, divisor)
    return landed, counts


class ScatterReduce(Function):
    node_name = "ScatterReduceBackward0"

    @staticmethod
    def forward(ctx, x, dim, index, src, reduce, include_self):
        if reduce not in REDUCTIONS:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        d = _layout.normalize_dim(dim, x.dim())
        check_scatter(x, d, index, src)
        xp = xp_of(x)
        out, where, values = scatter_arrays(x, d, index, src)
        landed, counts = _reduce_arrays(xp, out, where, values, reduce, include_self)
        ctx.dim, ctx.src_shape = d, src._shape
        if any(ctx.needs_input_grad):
            # what each contributor's gradient is multiplied by, worked out now on arrays
            excluded = landed & (not include_self)
            self_factor, src_factor = _FACTORS[reduce](xp, x._array.reshape(out.shape), values, out, where,
                                                       excluded, counts)
            ctx.save_for_backward(index, wrap(self_factor.reshape(x._shape), x.device), wrap(src_factor, x.device))
        return wrap(out.reshape(x._shape), x.device)

    @staticmethod
    def backward(ctx, grad):
        index, self_factor, src_factor = ctx.saved_tensors
        gx = grad * self_factor
        gs = _padded(grad.gather(ctx.dim, index) * src_factor, ctx.src_shape)
        return gx, None, None, gs, None, None


def _sum_factors(xp, x, values, out, where, excluded, counts):
    """sum: every contributor passes the gradient on unchanged."""
    return (~excluded).astype(out.dtype), xp.ones(xp.shape(values), dtype=out.dtype)


def _mean_factors(xp, x, values, out, where, excluded, counts):
    """mean: each of the n contributors gets 1/n of the gradient."""
    share = 1.0 / xp.maximum(counts, 1)
    return (share * ~excluded).astype(out.dtype), share[where].astype(out.dtype)


def _extremum_factors(xp, x, values, out, where, excluded, counts):
    """amax/amin: the contributors equal to the result share the gradient equally (ties split it).

    As in PyTorch, an excluded ``self`` (``include_self=False``) that happens to equal the result
    still counts as a tie -- it just keeps no share of the gradient.
    """
    self_ties = x == out
    src_wins = values == out[where]
    ties = self_ties.astype(xp.int64)
    xp.add.at(ties, where, src_wins)
    share = 1.0 / xp.maximum(ties, 1)
    return (share * (self_ties & ~excluded)).astype(out.dtype), (share[where] * src_wins).astype(out.dtype)


def _prod_factors(xp, x, values, out, where, excluded, counts):
    """prod: each contributor gets the product of the *other* contributors.

    Dividing the result by the contributor fails when it is zero, so count the zeros of each group
    and multiply its non-zero members instead.
    """
    included = ~excluded
    zeros = ((x == 0) & included).astype(xp.int64)
    xp.add.at(zeros, where, values == 0)
    nonzero_prod = xp.where((x == 0) | excluded, 1, x).astype(out.dtype)
    xp.multiply.at(nonzero_prod, where, xp.where(values == 0, 1, values))

    def others(value, zero_count, prod):
        with xp.errstate(divide="ignore", invalid="ignore"):
            when_nonzero = xp.where(zero_count == 0, prod / xp.where(value == 0, 1, value), 0)
        return xp.where(value == 0, xp.where(zero_count == 1, prod, 0), when_nonzero)

    self_factor = others(x, zeros, nonzero_prod) * included
    return self_factor.astype(out.dtype), others(values, zeros[where], nonzero_prod[where]).astype(out.dtype)


_FACTORS = {"sum": _sum_factors, "mean": _mean_factors, "amax": _extremum_factors, "amin": _extremum_factors,
            "prod": _prod_factors}


def _padded(g, src_shape):
    """Zero-pad a gradient shaped like ``index`` up to ``src``'s shape (``src`` may be larger)."""
    if g._shape == tuple(src_shape):
        return g
    full = g.new_zeros(src_shape)
    full[tuple(slice(0, n) for n in g._shape)] = g
    return full


@method()
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """Scatter ``src`` into a copy of ``input``, combining collisions with ``reduce``."""
    return ScatterReduce.apply(input, dim, index, src, reduce, include_self)


@method()
def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    return apply_inplace(self, scatter_reduce, dim, index, src, reduce, include_self=include_self)


__all__ = ["scatter_reduce"]
