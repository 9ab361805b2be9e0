"""Running reductions: ``cumsum`` and ``cumprod`` keep every partial result along one dim.

``cumsum([a, b, c]) = [a, a+b, a+b+c]``. Element i is used by every output from i on, so its
gradient is the sum of the gradients of outputs i, i+1, ...: a cumsum run backwards
(``flip``, ``cumsum``, ``flip``).
See course/04_ops_and_reductions.
"""
from .. import _layout
from ..autograd import grad_mode
from ..autograd.function import Function
from ._pointwise import inplace_method, keep_where
from ._util import method, wrap, xp_of
from .reduce import _sum_dtype


def _scan_dim(x, dim):
    return _layout.normalize_dim(dim, max(x.dim(), 1))


def _scan(x, dim, dtype, ufunc):
    """``ufunc`` (cumsum or cumprod) of ``x``'s array along ``dim``; a 0-dim tensor is its own scan."""
    a = x._array if x.dim() else x._array.reshape(1)
    out = getattr(xp_of(x), ufunc)(a, axis=_scan_dim(x, dim), dtype=_sum_dtype(x, dtype).np)
    return wrap(out if x.dim() else out.reshape(()), x.device)


def reverse_cumsum(t, dim):
    """``out[i] = t[i] + t[i+1] + ...`` along ``dim``."""
    return t.flip(dim).cumsum(dim).flip(dim)


class Cumsum(Function):
    node_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx, x, dim, dtype):
        ctx.dim, ctx.scalar = _scan_dim(x, dim), x.dim() == 0
        return _scan(x, dim, dtype, "cumsum")

    @staticmethod
    def backward(ctx, grad):
        if ctx.scalar:
            return grad, None, None
        return reverse_cumsum(grad, ctx.dim), None, None


class Cumprod(Function):
    """Running product. Without zeros, d out_j / d x_i = out_j / x_i (for j >= i)."""

    node_name = "CumprodBackward0"

    @staticmethod
    def forward(ctx, x, dim, dtype):
        ctx.dim, ctx.scalar = _scan_dim(x, dim), x.dim() == 0
        out = _scan(x, dim, dtype, "cumprod")
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if ctx.scalar:
            return grad, None, None
        d = ctx.dim
        zero = x._array == 0
        if not zero.any():
            return reverse_cumsum(grad * out, d) / x, None, None
        if grad_mode.is_grad_enabled():  # create_graph: this backward will be differentiated again
            return _cumprod_backward_differentiable(grad, x, d), None, None
        return _cumprod_backward_with_zeros(grad, x, out, d, zero), None, None


def _cumprod_backward_with_zeros(grad, x, out, d, zero):
    """With a zero at position z of a slice: elements before z use the formula above (they are not zero);
    z itself gets ``sum_{j>=z} grad_j * (cumprod of x with x_z set to 1)_j``; elements after z get 0,
    since every output that uses them also contains the factor x_z = 0."""
    xp = xp_of(x)
    zeros_so_far = xp.cumsum(zero, axis=d)
    before = wrap(zeros_so_far == 0, x.device)
    first_zero = wrap(zero & (zeros_so_far == 1), x.device)
    x_safe = x.masked_fill(wrap(zeros_so_far != 0, x.device), 1)
    grad_before = keep_where(reverse_cumsum(grad * out, d) / x_safe, before)
    without_z = x.masked_fill(first_zero, 1).cumprod(d)
    grad_at_zero = keep_where(reverse_cumsum(grad * without_z, d), first_zero)
    return grad_before + grad_at_zero


def _cumprod_backward_differentiable(grad, x, d):
    """The same gradient without masks, so its own derivative is right too (O(n^2), as PyTorch's):
    element k's gradient is sum_{j>=k} grad_j * prod(x_0..x_{k-1}) * prod(x_{k+1}..x_j)."""
    from .copying import cat, stack
    n = x._shape[d]

    def part(start, stop):
        return (slice(None),) * d + (slice(start, stop),)
    ones = x.new_ones(x._shape[:d] + (1,) + x._shape[d + 1:])
    pieces = []
    for k in range(n):
        before = x[part(0, k)].prod(d, keepdim=True) if k else ones
        omitted = cat([before, before * x[part(k + 1, n)].cumprod(d)], d)
        pieces.append((grad[part(k, n)] * omitted).sum(d))
    return stack(pieces, d)


@method()
def cumsum(input, dim, *, dtype=None):
    """Running sum along ``dim`` (integers and bools accumulate as int64)."""
    return Cumsum.apply(input, dim, dtype)


@method()
def cumprod(input, dim, *, dtype=None):
    """Running product along ``dim`` (integers and bools accumulate as int64)."""
    return Cumprod.apply(input, dim, dtype)


inplace_method("cumsum_", cumsum)
inplace_method("cumprod_", cumprod)

__all__ = ["cumsum", "cumprod"]
