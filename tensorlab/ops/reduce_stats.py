"""Statistics over dims: ``var``, ``std`` (and ``var_mean``/``std_mean``), ``norm``, ``logsumexp``.

``var`` divides the squared deviations by ``N - correction``: ``correction=1`` (the default, Bessel's
correction, also spelled ``unbiased=True``) estimates a population's variance from a sample.
See course/04_ops_and_reductions.
"""
import math
import warnings

from .. import _dtype, _layout
from ..autograd.function import Function
from ._pointwise import zero_where
from ._util import method, wrap, xp_of
from .reduce import expand_back, reduced_dims


def _float_only(x, message):
    if not x.dtype.is_floating_point:
        raise RuntimeError(message)


# -- var and std ----------------------------------------------------------------------------------


def _var_forward(ctx, x, dim, correction, keepdim):
    """Variance on arrays, in float64 for narrower floats (as PyTorch accumulates on the CPU: the
    squares of float32 values near 1e21 would overflow); keeps what the backward needs on ``ctx``.
    Returns (variance, mean, count); the caller casts back with ``_narrow``."""
    _float_only(x, "std and var only support floating point and complex dtypes")
    dims = reduced_dims(dim, x.dim())
    n = _layout.numel([x._shape[d] for d in dims])
    if n - correction <= 0:
        warnings.warn("var(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      "reduction factor (input numel divided by output numel).", UserWarning, stacklevel=4)
    ctx.dims, ctx.keepdim, ctx.divisor = dims, keepdim, n - correction
    a = x._array
    if a.dtype.itemsize < 8:
        a = a.astype("float64")
    mean = a.mean(axis=dims, keepdims=True)
    squares = xp_of(x).square(a - mean)
    return squares.sum(axis=dims, keepdims=keepdim) / max(n - correction, 0), mean, n


def _var_backward(ctx, x, grad):
    """d var / d x_i = 2 (x_i - mean) / (N - correction)."""
    grad = expand_back(grad, x._shape, ctx.dims, ctx.keepdim)
    scale = 2.0 / ctx.divisor if ctx.divisor else math.inf  # no degrees of freedom: inf (nan), as PyTorch
    return grad * scale * (x - x.mean(ctx.dims, keepdim=True))


def _narrow(array, x):
    """An array computed in float64 back in ``x``'s dtype, as a tensor on ``x``'s device."""
    return wrap(array.astype(x._array.dtype, copy=False), x.device)


class Var(Function):
    node_name = "VarBackward0"

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        var, _, _ = _var_forward(ctx, x, dim, correction, keepdim)
        ctx.save_for_backward(x)
        return _narrow(var, x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return _var_backward(ctx, x, grad), None, None, None


class Std(Function):
    """sqrt(var); d std = d var / (2 std)."""

    node_name = "StdBackward0"

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        var, _, _ = _var_forward(ctx, x, dim, correction, keepdim)
        out = _narrow(xp_of(x).sqrt(var), x)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, std = ctx.saved_tensors
        return _var_backward(ctx, x, grad / (2 * std)), None, None, None


class VarMean(Function):
    """(var, mean) in one pass; one node with two outputs."""

    node_name = "VarMeanBackward0"

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        var, mean, n = _var_forward(ctx, x, dim, correction, keepdim)
        ctx.count = n
        ctx.save_for_backward(x)
        return _narrow(var, x), _narrow(mean if keepdim else mean.reshape(var.shape), x)

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        x, = ctx.saved_tensors
        return _var_backward(ctx, x, grad_var) + _mean_backward(ctx, x, grad_mean), None, None, None


class StdMean(Function):
    node_name = "StdMeanBackward0"

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        var, mean, n = _var_forward(ctx, x, dim, correction, keepdim)
        ctx.count = n
        std = _narrow(xp_of(x).sqrt(var), x)
        ctx.save_for_backward(x, std)
        return std, _narrow(mean if keepdim else mean.reshape(var.shape), x)

    @staticmethod
    def backward(ctx, grad_std, grad_mean):
        x, std = ctx.saved_tensors
        return _var_backward(ctx, x, grad_std / (2 * std)) + _mean_backward(ctx, x, grad_mean), None, None, None


def _mean_backward(ctx, x, grad):
    return expand_back(grad / ctx.count, x._shape, ctx.dims, ctx.keepdim)


def _correction(dim, unbiased, correction):
    """PyTorch's three spellings: ``var(False)``, ``var(dim, unbiased, keepdim)``, ``var(dim, correction=c)``."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


def _stat(fn_class, name):
    def stat(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
        dim, correction = _correction(dim, unbiased, correction)
        return fn_class.apply(input, dim, correction, keepdim)
    stat.__name__ = stat.__qualname__ = name
    return stat


var = method("var")(_stat(Var, "var"))
var.__doc__ = "Variance over ``dim``: sum of squared deviations / (N - correction)."
std = method("std")(_stat(Std, "std"))
std.__doc__ = "Standard deviation: the square root of ``var``."
var_mean = _stat(VarMean, "var_mean")
var_mean.__doc__ = "``(var, mean)`` over ``dim`` as a tuple."
std_mean = _stat(StdMean, "std_mean")
std_mean.__doc__ = "``(std, mean)`` over ``dim`` as a tuple."


# -- norm ---------------------------------------------------------------------------------------------


class VectorNorm(Function):
    """``(sum |x|^p)^(1/p)`` over ``dim``; p = inf is the largest |x|, p = 0 counts nonzeros."""

    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, x, p, dim, keepdim, dtype):
        _float_only(x, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                       f"{x.dtype._legacy[:-6]}")
        if dtype is not None and dtype is not x.dtype:
            x = x.to(dtype)
        dims = reduced_dims(dim, x.dim())
        xp, a = xp_of(x), x._array
        if p == 2:
            out = xp.sqrt(xp.sum(a * a, axis=dims, keepdims=keepdim))
        elif p == math.inf:
            out = xp.amax(xp.abs(a), axis=dims, keepdims=keepdim)
        elif p == -math.inf:
            out = xp.amin(xp.abs(a), axis=dims, keepdims=keepdim)
        elif p == 0:
            out = xp.sum(a != 0, axis=dims, keepdims=keepdim).astype(a.dtype)
        elif p == 1:
            out = xp.sum(xp.abs(a), axis=dims, keepdims=keepdim)
        else:
            out = xp.sum(xp.abs(a) ** p, axis=dims, keepdims=keepdim) ** (1.0 / p)
        out = wrap(xp.asarray(out, dtype=a.dtype), x.device)
        ctx.save_for_backward(x, out)
        ctx.p, ctx.dims, ctx.keepdim = p, dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, norm = ctx.saved_tensors
        p = ctx.p
        grad = expand_back(grad, x._shape, ctx.dims, ctx.keepdim)
        norm = expand_back(norm, x._shape, ctx.dims, ctx.keepdim)
        if p == 0:
            gx = grad * 0
        elif p == 1:
            gx = x.sign() * grad
        elif p == 2:
            gx = x * zero_where(grad / norm, norm == 0)
        elif math.isinf(p):  # the gradient of max |x|, shared among ties
            ties = ((x.abs() == norm) | x.isnan()).to(x.dtype)
            gx = x.sign() * (grad / ties.sum(ctx.dims, keepdim=True) * ties)
        else:
            gx = x * x.abs().pow(p - 2) * zero_where(grad / norm.pow(p - 1), norm == 0)
        return gx, None, None, None, None


@method()
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """The p-norm over ``dim`` (all elements by default). ``'fro'`` (Frobenius) is the 2-norm of all entries."""
    if p == "fro":
        p = 2
    elif p == "nuc":
        if dim is not None and not (isinstance(dim, (tuple, list)) and len(dim) == 2):
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {dim}")
        raise NotImplementedError("tensorlab does not implement the nuclear norm (p='nuc': the sum of the "
                                  "singular values)")
    elif isinstance(p, str):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    if isinstance(dim, int):
        dim = (dim,)
    if input.dtype.is_complex:  # the norm of complex numbers is the norm of their lengths
        input = input.abs()
    return VectorNorm.apply(input, float(p), dim, keepdim, dtype)


# -- logsumexp ----------------------------------------------------------------------------------------


class Logsumexp(Function):
    """``log(sum(exp(x)))`` computed stably: shift by the max first. d/dx_i = exp(x_i - out) (softmax)."""

    node_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        if not (x.dtype.is_floating_point or x.dtype.is_complex):
            x = x.to(_dtype.get_default_dtype())
        dims = reduced_dims(dim, x.dim())
        xp, a = xp_of(x), x._array
        # (complex numbers shift by the largest real part: that is what sets the size of exp)
        shift = xp.amax(a.real, axis=dims, keepdims=True) if a.size else xp.zeros((1,) * a.ndim, a.real.dtype)
        shift = xp.where(xp.isinf(shift), 0, shift)  # all -inf (or an inf): no shift needed
        out = xp.log(xp.sum(xp.exp(a - shift), axis=dims, keepdims=True)) + shift
        if not keepdim:
            out = out.reshape(tuple(n for d, n in enumerate(out.shape) if d not in dims))
        out = wrap(out.astype(a.dtype, copy=False), x.device)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        grad = expand_back(grad, x._shape, ctx.dims, ctx.keepdim)
        return grad * (x - expand_back(out, x._shape, ctx.dims, ctx.keepdim)).exp(), None, None


_REQUIRED = object()


@method()
def logsumexp(input, dim=_REQUIRED, keepdim=False):
    """``log(exp(x).sum(dim))`` without overflow."""
    if dim is _REQUIRED:
        raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
    return Logsumexp.apply(input, dim, keepdim)


__all__ = ["var", "std", "var_mean", "std_mean", "norm", "logsumexp"]
