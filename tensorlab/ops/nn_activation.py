"""Activation functions and softmax: the nonlinearities between layers.

(relu, sigmoid and tanh are plain math functions of a tensor and live with them, in unary.py.)
Each activation here is applied elementwise (softmax: along one dim). Backward multiplies the
incoming gradient by the derivative ``f'(x)``. Where ``f'`` is itself smooth, it is written with tensor
ops (silu's ``s * (1 + x * (1 - s))``), so double backward works; where it is a step (leaky_relu's
slope), it is a constant mask -- its own derivative is zero anyway.
See course/13_layers_and_losses.
"""
import math

from ..autograd.function import Function
from ._util import wrap, xp_of
from .nn import attach_missing, constant_like, float_input


class Threshold(Function):
    """``y = x if x > threshold else value``."""

    node_name = "ThresholdBackward0"

    @staticmethod
    def forward(ctx, x, threshold, value):
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        return wrap(xp_of(x).where(x._array > threshold, x._array, x._array.dtype.type(value)), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * constant_like(x._array > ctx.threshold, grad), None, None


class LeakyRelu(Function):
    node_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, x, slope):
        float_input(x, "leaky_relu")
        a = x._array
        ctx.save_for_backward(x)
        ctx.slope = slope
        return wrap(xp_of(x).where(a > 0, a, a * a.dtype.type(slope)), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        xp = xp_of(x)
        return grad * constant_like(xp.where(x._array > 0, 1.0, ctx.slope), grad), None


class Elu(Function):
    """``scale * (x if x > 0 else alpha * (exp(input_scale * x) - 1))`` -- elu, selu and celu."""

    node_name = "EluBackward0"

    @staticmethod
    def forward(ctx, x, alpha, scale, input_scale):
        float_input(x, "elu")
        xp, a = xp_of(x), x._array
        ctx.save_for_backward(x)
        ctx.params = (alpha, scale, input_scale)
        neg = alpha * xp.expm1(xp.minimum(a, 0) * input_scale)
        return wrap((scale * xp.where(a > 0, a, neg)).astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        alpha, scale, input_scale = ctx.params
        positive = constant_like(x._array > 0, grad)
        negative_slope = (x * input_scale).exp() * (scale * alpha * input_scale)
        return grad * (positive * scale + (1 - positive) * negative_slope), None, None, None


class Celu(Elu):
    node_name = "CeluBackward0"


class Gelu(Function):
    """``x * Phi(x)`` (Phi: the standard normal CDF), or its tanh approximation."""

    node_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, x, approximate):
        float_input(x, "GeluKernelImpl")
        xp, a = xp_of(x), x._array
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        if approximate == "tanh":
            inner = math.sqrt(2 / math.pi) * (a + 0.044715 * a ** 3)
            return wrap((0.5 * a * (1 + xp.tanh(inner))).astype(a.dtype, copy=False), x.device)
        erf = (x * (1 / math.sqrt(2))).erf()._array
        return wrap((a * 0.5 * (1 + erf)).astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        if ctx.approximate == "tanh":
            k = math.sqrt(2 / math.pi)
            t = ((x + x * x * x * 0.044715) * k).tanh()
            dinner = (x * x * (3 * 0.044715) + 1) * k
            return grad * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * dinner), None
        cdf = ((x * (1 / math.sqrt(2))).erf() + 1) * 0.5
        pdf = (x * x * -0.5).exp() * (1 / math.sqrt(2 * math.pi))
        return grad * (cdf + x * pdf), None


class Silu(Function):
    """``x * sigmoid(x)`` (also called swish)."""

    node_name = "SiluBackward0"

    @staticmethod
    def forward(ctx, x):
        float_input(x, "silu")
        ctx.save_for_backward(x)
        return wrap(x._array * x.sigmoid()._array, x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        s = x.sigmoid()
        return grad * s * (1 + x * (1 - s))


class Mish(Function):
    """``x * tanh(softplus(x))``."""

    node_name = "MishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        xp, a = xp_of(x), x._array
        return wrap(a * xp.tanh(xp.logaddexp(0, a)).astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        t = Softplus.apply(x, 1.0, 20.0).tanh()
        return grad * (t + x * x.sigmoid() * (1 - t * t))


class Softplus(Function):
    """``log(1 + exp(beta * x)) / beta``; where ``beta * x > threshold`` it is just ``x``."""

    node_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx, x, beta, threshold):
        float_input(x, "softplus")
        xp, a = xp_of(x), x._array
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        bx = a * beta
        out = xp.where(bx > threshold, a, xp.logaddexp(0, bx) / beta)
        return wrap(out.astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        linear = constant_like(x._array * ctx.beta > ctx.threshold, grad)
        return grad * (linear + (1 - linear) * (x * ctx.beta).sigmoid()), None, None


class LogSigmoid(Function):
    """``log(sigmoid(x)) = -softplus(-x)``, stable for large |x|."""

    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        xp, a = xp_of(x), _float_array(x)
        ctx.save_for_backward(x)
        return wrap((-xp.logaddexp(0, -a)).astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * (-x).sigmoid()


class Hardtanh(Function):
    """``clamp(x, min_val, max_val)``; relu6 is ``hardtanh(x, 0, 6)``."""

    node_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, x, min_val, max_val):
        if min_val > max_val:
            raise ValueError("min_val cannot be greater than max_val")
        ctx.save_for_backward(x)
        ctx.bounds = (min_val, max_val)
        return wrap(xp_of(x).clip(x._array, min_val, max_val).astype(x._array.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        lo, hi = ctx.bounds
        return grad * constant_like((x._array > lo) & (x._array < hi), grad), None, None


class Hardsigmoid(Function):
    """``relu6(x + 3) / 6``."""

    node_name = "HardsigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._array
        return wrap((xp_of(x).clip(a + 3, 0, 6) / 6).astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        a = x._array
        return grad * constant_like(((a > -3) & (a < 3)) / 6.0, grad)


class Hardswish(Function):
    """``x * relu6(x + 3) / 6``."""

    node_name = "HardswishBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._array
        return wrap((a * xp_of(x).clip(a + 3, 0, 6) / 6).astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        a = x._array
        middle = constant_like((a >= -3) & (a <= 3), grad)
        upper = constant_like(a > 3, grad)
        return grad * (middle * (x / 3 + 0.5) + upper)


# -- softmax -----------------------------------------------------------------------------------------


class Softmax(Function):
    """``exp(x) / sum(exp(x))`` along ``dim``; the max is subtracted first so exp never overflows."""

    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        _softmax_input(x, "softmax")
        xp, a = xp_of(x), x._array
        e = xp.exp(a - a.max(axis=dim, keepdims=True))
        out = wrap(e / e.sum(axis=dim, keepdims=True), x.device)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, y, ctx.dim), None


class LogSoftmax(Function):
    """``x - logsumexp(x)`` along ``dim``: the log of softmax without ever forming exp(x)."""

    node_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        _softmax_input(x, "log_softmax")
        out = wrap(log_softmax_array(xp_of(x), x._array, dim), x.device)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, y, ctx.dim), None


# The two backward formulas are ops of their own (as PyTorch's _softmax_backward_data): one array
# computation in a plain backward, and differentiable -- their backward is written with tensor ops.


class SoftmaxBackwardData(Function):
    """``y * (g - sum(g * y))`` for softmax output ``y`` and incoming gradient ``g``."""

    node_name = "SoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, y, dim):
        g, p = grad._array, y._array
        ctx.save_for_backward(grad, y)
        ctx.dim = dim
        return wrap(p * (g - (g * p).sum(axis=dim, keepdims=True)), grad.device)

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        dim = ctx.dim
        g_grad = y * (gg - (gg * y).sum(dim, keepdim=True)) if ctx.needs_input_grad[0] else None
        g_y = None
        if ctx.needs_input_grad[1]:
            g_y = gg * (grad - (grad * y).sum(dim, keepdim=True)) - grad * (gg * y).sum(dim, keepdim=True)
        return g_grad, g_y, None


class LogSoftmaxBackwardData(Function):
    """``g - exp(y) * sum(g)`` for log_softmax output ``y`` and incoming gradient ``g``."""

    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, y, dim):
        g = grad._array
        ctx.save_for_backward(grad, y)
        ctx.dim = dim
        return wrap(g - xp_of(grad).exp(y._array) * g.sum(axis=dim, keepdims=True), grad.device)

    @staticmethod
    def backward(ctx, gg):
        grad, y = ctx.saved_tensors
        p = y.exp()
        g_grad = gg - (gg * p).sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[0] else None
        g_y = -(gg * p * grad.sum(ctx.dim, keepdim=True)) if ctx.needs_input_grad[1] else None
        return g_grad, g_y, None


def log_softmax_array(xp, a, dim):
    shifted = a - a.max(axis=dim, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=dim, keepdims=True))


def _softmax_input(x, op):
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f'"{op}_lastdim_kernel_impl" not implemented for '
                           f"'{x.dtype._legacy[:-len('Tensor')]}'")


def softmax_dim(dim, ndim, name="softmax"):
    """PyTorch's implicit choice when ``dim`` is None (deprecated, with a warning): 0 for 0-, 1- and 3-d
    inputs, else 1."""
    if dim is None:
        import warnings
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                      "dim=X as an argument.", UserWarning, stacklevel=3)
        return 0 if ndim in (0, 1, 3) else 1
    from .. import _layout
    return _layout.normalize_dim(dim, max(ndim, 1))


def _float_array(x):
    from .. import _dtype
    a = x._array
    return a if a.dtype.kind == "f" else a.astype(_dtype.get_default_dtype().np)


# -- functions and Tensor methods --------------------------------------------------------------------


def softmax(input, dim, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return Softmax.apply(input, softmax_dim(dim, input.dim()))


def log_softmax(input, dim, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return LogSoftmax.apply(input, softmax_dim(dim, input.dim(), "log_softmax"))


__all__ = attach_missing(globals(), ["relu", "relu_", "sigmoid", "sigmoid_", "tanh", "tanh_", "softmax",
                                     "log_softmax"])
