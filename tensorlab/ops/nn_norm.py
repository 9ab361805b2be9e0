"""Normalisation layers: make activations zero-mean, unit-variance, then scale and shift.

All three share one formula, ``y = (x - mean) / sqrt(var + eps) * weight + bias``; they differ only in
*which elements* share a mean and variance:
* batch norm: each channel, over the batch and all positions (N, H, W);
* layer norm: each sample, over its last dims (``normalized_shape``);
* group norm: each sample and group of channels.

Batch norm in training mode also updates running averages of mean and (unbiased) variance, which it
uses instead of batch statistics in eval mode. The backward of normalisation is the classic
``invstd * (g - mean(g) - xhat * mean(g * xhat))``, written with tensor ops.
See course/15_normalization_and_regularization.
"""
from ..autograd.function import Function
from ._util import wrap, xp_of


def normalize_array(xp, a, axes, eps):
    """(xhat, mean, invstd) for array ``a`` over ``axes`` (biased variance, as in the forward pass)."""
    mean = a.mean(axis=axes, keepdims=True)
    centred = a - mean
    var = (centred * centred).mean(axis=axes, keepdims=True)
    invstd = 1.0 / xp.sqrt(var + eps)
    return centred * invstd, mean, var, invstd


def normalize_tensor(x, dims, eps):
    """The same with tensor ops (differentiable): used by backward so double backward works."""
    centred = x - x.mean(dims, keepdim=True)
    invstd = ((centred * centred).mean(dims, keepdim=True) + eps) ** -0.5
    return centred * invstd, invstd


def normalize_backward(gxhat, xhat, invstd, dims):
    """Gradient through ``xhat = (x - mean) * invstd`` when mean and invstd depend on x."""
    return invstd * (gxhat - gxhat.mean(dims, keepdim=True) - xhat * (gxhat * xhat).mean(dims, keepdim=True))


def _channel_shape(x):
    return (1, x._shape[1]) + (1,) * (x.dim() - 2)


class NativeBatchNorm(Function):
    node_name = "NativeBatchNormBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, running_mean, running_var, training, momentum, eps):
        xp, a = xp_of(x), x._array
        axes = (0,) + tuple(range(2, x.dim()))
        shape = _channel_shape(x)
        if training:
            xhat, mean, var, invstd = normalize_array(xp, a, axes, eps)
            if running_mean is not None:
                n = a.size // a.shape[1]
                _update_running(running_mean, mean.reshape(-1), momentum)
                _update_running(running_var, var.reshape(-1) * (n / max(n - 1, 1)), momentum)
        else:
            invstd = (1.0 / xp.sqrt(running_var._array + eps)).reshape(shape)
            xhat = (a - running_mean._array.reshape(shape)) * invstd
        y = xhat
        if weight is not None:
            y = y * weight._array.reshape(shape)
        if bias is not None:
            y = y + bias._array.reshape(shape)
        ctx.save_for_backward(x, weight, running_mean if not training else None,
                              running_var if not training else None)
        ctx.training, ctx.eps, ctx.axes = training, eps, axes
        return wrap(y.astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, weight, running_mean, running_var = ctx.saved_tensors
        dims, shape = ctx.axes, _channel_shape(x)
        if ctx.training:
            xhat, invstd = normalize_tensor(x, dims, ctx.eps)
        else:   # statistics are constants: the input gradient is just a per-channel scale
            invstd = ((running_var + ctx.eps) ** -0.5).reshape(shape)
            xhat = (x - running_mean.reshape(shape)) * invstd
        gxhat = grad * weight.reshape(shape) if weight is not None else grad
        gx = gw = gb = None
        if ctx.needs_input_grad[0]:
            gx = normalize_backward(gxhat, xhat, invstd, dims) if ctx.training else gxhat * invstd
        if weight is not None and ctx.needs_input_grad[1]:
            gw = (grad * xhat).sum(dims)
        if ctx.needs_input_grad[2]:
            gb = grad.sum(dims)
        return gx, gw, gb, None, None, None, None, None


def _update_running(buffer, value, momentum):
    """``running = (1 - momentum) * running + momentum * value``, in place, outside autograd."""
    a = buffer._array
    a[...] = (1 - momentum) * a + momentum * value.astype(a.dtype, copy=False)
    buffer._bump_version()


class NativeLayerNorm(Function):
    node_name = "NativeLayerNormBackward0"

    @staticmethod
    def forward(ctx, x, normalized_ndim, weight, bias, eps):
        xp, a = xp_of(x), x._array
        axes = tuple(range(x.dim() - normalized_ndim, x.dim()))
        xhat, _, _, _ = normalize_array(xp, a, axes, eps)
        y = xhat
        if weight is not None:
            y = y * weight._array
        if bias is not None:
            y = y + bias._array
        ctx.save_for_backward(x, weight)
        ctx.eps, ctx.axes = eps, axes
        return wrap(y.astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        dims = ctx.axes
        lead = tuple(range(x.dim() - len(dims)))
        xhat, invstd = normalize_tensor(x, dims, ctx.eps)
        gxhat = grad * weight if weight is not None else grad
        gx = normalize_backward(gxhat, xhat, invstd, dims) if ctx.needs_input_grad[0] else None
        gw = (grad * xhat).sum(lead) if lead else grad * xhat
        gb = grad.sum(lead) if lead else grad
        return (gx, None, gw if weight is not None and ctx.needs_input_grad[2] else None,
                gb if ctx.needs_input_grad[3] else None, None)


class NativeGroupNorm(Function):
    node_name = "NativeGroupNormBackward0"

    @staticmethod
    def forward(ctx, x, num_groups, weight, bias, eps):
        xp, a = xp_of(x), x._array
        n, c = x._shape[:2]
        grouped = a.reshape(n, num_groups, -1)
        xhat = normalize_array(xp, grouped, (2,), eps)[0].reshape(a.shape)
        shape = _channel_shape(x)
        y = xhat
        if weight is not None:
            y = y * weight._array.reshape(shape)
        if bias is not None:
            y = y + bias._array.reshape(shape)
        ctx.save_for_backward(x, weight)
        ctx.eps, ctx.groups = eps, num_groups
        return wrap(y.astype(a.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        n, shape = x._shape[0], _channel_shape(x)
        grouped = x.reshape(n, ctx.groups, -1)
        xhat_g, invstd = normalize_tensor(grouped, (2,), ctx.eps)
        xhat = xhat_g.reshape(x._shape)
        dims = (0,) + tuple(range(2, x.dim()))
        gx = gw = gb = None
        if ctx.needs_input_grad[0]:
            gxhat = (grad * weight.reshape(shape) if weight is not None else grad).reshape(n, ctx.groups, -1)
            gx = normalize_backward(gxhat, xhat_g, invstd, (2,)).reshape(x._shape)
        if weight is not None and ctx.needs_input_grad[2]:
            gw = (grad * xhat).sum(dims)
        if ctx.needs_input_grad[3]:
            gb = grad.sum(dims)
        return gx, None, gw, gb, None


__all__ = []
