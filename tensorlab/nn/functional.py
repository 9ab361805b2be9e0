"""torch.nn.functional: every layer as a plain function of tensors (no parameters are stored).

``nn.Linear`` holds a weight and a bias and calls ``F.linear(x, weight, bias)``; ``nn.ReLU`` calls
``F.relu``. The functions check their arguments like PyTorch does and then call one autograd Function
(tensorlab/ops/nn*.py) or a few tensor ops. This file has activations, linear, dropout, embedding and
normalisation; convolution/pooling are in _functional_conv.py, padding/resizing in
_functional_resize.py, losses in _functional_loss.py -- all importable from here.
See course/13_layers_and_losses.
"""
from .. import ops as _ops
from ..ops import nn as _nn
from ..ops.linalg import Addmm as _Addmm
from ..ops import nn_activation as _act
from ..ops import nn_norm as _norm
from ..ops.inplace import apply_inplace
from ._functional_attention import *  # noqa: F401,F403
from ._functional_attention import __all__ as _attention_all
from ._functional_conv import *  # noqa: F401,F403
from ._functional_conv import __all__ as _conv_all
from ._functional_loss import *  # noqa: F401,F403
from ._functional_loss import __all__ as _loss_all
from ._functional_resize import *  # noqa: F401,F403
from ._functional_resize import __all__ as _resize_all


def _inplace_or_not(fn, input, inplace, *args):
    """``fn(input, *args)``, written back into ``input`` when ``inplace`` (PyTorch's ``relu_`` style)."""
    if inplace:
        return apply_inplace(input, lambda x: fn(x, *args))
    return fn(input, *args)


# -- activations --------------------------------------------------------------------------------------


def relu(input, inplace=False):
    """``max(x, 0)``."""
    return input.relu_() if inplace else input.relu()


def relu_(input):
    return input.relu_()


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def threshold(input, threshold, value, inplace=False):
    """``x if x > threshold else value``."""
    return _inplace_or_not(_act.Threshold.apply, input, inplace, threshold, value)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """``x if x > 0 else negative_slope * x``."""
    return _inplace_or_not(_act.LeakyRelu.apply, input, inplace, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """``x if x > 0 else alpha * (exp(x) - 1)``."""
    return _inplace_or_not(_act.Elu.apply, input, inplace, alpha, 1.0, 1.0)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    return _inplace_or_not(_act.Elu.apply, input, inplace, _SELU_ALPHA, _SELU_SCALE, 1.0)


def celu(input, alpha=1.0, inplace=False):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    return _inplace_or_not(_act.Celu.apply, input, inplace, alpha, 1.0, 1.0 / alpha)


def gelu(input, approximate="none"):
    """``x * Phi(x)`` (Phi: standard normal CDF); ``approximate="tanh"`` uses the tanh formula."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError(f"approximate argument must be either none or tanh.")
    return _act.Gelu.apply(input, approximate)


def silu(input, inplace=False):
    """``x * sigmoid(x)``."""
    return _inplace_or_not(_act.Silu.apply, input, inplace)


def mish(input, inplace=False):
    return _inplace_or_not(_act.Mish.apply, input, inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta * x)) / beta`` (linear above ``threshold`` for stability)."""
    return _act.Softplus.apply(input, beta, threshold)


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def logsigmoid(input):
    return _act.LogSigmoid.apply(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """``clamp(x, min_val, max_val)``."""
    return _inplace_or_not(_act.Hardtanh.apply, input, inplace, min_val, max_val)


def hardsigmoid(input, inplace=False):
    return _inplace_or_not(_act.Hardsigmoid.apply, input, inplace)


def hardswish(input, inplace=False):
    return _inplace_or_not(_act.Hardswish.apply, input, inplace)


def softsign(input):
    """``x / (1 + |x|)``."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``exp(x) / exp(x).sum(dim)``, computed stably (the max is subtracted first)."""
    if dtype is not None:
        input = input.to(dtype)
    return _act.Softmax.apply(input, _act.softmax_dim(dim, input.dim()))


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    return _act.Softmax.apply(-input, _act.softmax_dim(dim, input.dim(), "softmin"))


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``log(softmax(x))`` without forming ``exp(x)``: ``x - logsumexp(x)``."""
    if dtype is not None:
        input = input.to(dtype)
    return _act.LogSoftmax.apply(input, _act.softmax_dim(dim, input.dim(), "log_softmax"))


# -- linear layers -------------------------------------------------------------------------------


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``. With a bias, a 2-d input is one ``addmm`` (AddmmBackward0), as in
    PyTorch, and other inputs are flattened to 2-d and viewed back; without one it is a ``matmul``."""
    if weight.dim() != 2 or input.dim() == 0:
        out = input.matmul(weight.t() if weight.dim() == 2 else weight)
        return out if bias is None else out + bias
    if input._shape[-1] != weight._shape[1]:
        rows = input.numel() // input._shape[-1] if input._shape[-1] else 0
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows if input.dim() > 1 else 1}x"
                           f"{input._shape[-1]} and {weight._shape[1]}x{weight._shape[0]})")
    if bias is None:
        return input.matmul(weight.t())
    # (the op itself, Addmm, rather than the public ``addmm``: its arguments are known tensors, and
    # a TorchFunctionMode sees ``linear`` alone, as in PyTorch)
    if input.dim() == 2:
        return _Addmm.apply(bias, input, weight.t(), 1, 1)
    flat = input.reshape(-1, input._shape[-1])
    return _Addmm.apply(bias, flat, weight.t(), 1, 1).view(input._shape[:-1] + weight._shape[:1])


def bilinear(input1, input2, weight, bias=None):
    """``y[b, o] = sum_ij x1[b, i] W[o, i, j] x2[b, j] + bias[o]``, as a matmul and a row-wise dot."""
    lead = input1._shape[:-1]
    x1 = input1.reshape(-1, input1._shape[-1])
    x2 = input2.reshape(-1, input2._shape[-1])
    o, i, j = weight._shape
    # x1 @ W viewed as (i, o * j): for each sample and output, a vector to dot with x2
    t = x1.mm(weight.permute(1, 0, 2).reshape(i, o * j)).view(-1, o, j)
    out = (t * x2.unsqueeze(1)).sum(-1)
    if bias is not None:
        out = out + bias
    return out if input1.dim() == 2 else out.reshape(lead + (o,))


# -- dropout ----------------------------------------------------------------------------------------------


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    """In training, zero each element with probability ``p`` and scale the rest by ``1/(1-p)``; in eval,
    the identity. Seeded by ``tensorlab.manual_seed``."""
    _check_p(p)
    if not training or p == 0:
        return input
    mask = _nn.dropout_mask(input, p)
    return input.mul_(mask) if inplace else input * mask


def _feature_dropout(input, p, training, inplace, nd, name):
    """Drop whole channels: one coin flip per (sample, channel), shared by all its positions."""
    _check_p(p)
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}: Expected {nd + 1}D or {nd + 2}D input, but received a {input.dim()}D input.")
    if not training or p == 0:
        return input
    batched = input.dim() == nd + 2
    noise_shape = input._shape[:2 if batched else 1] + (1,) * nd
    from ..ops.creation import empty
    mask = _nn.dropout_mask(empty(noise_shape, dtype=input.dtype, device=input.device), p)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, inplace, 1, "dropout1d")


def dropout2d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, inplace, 2, "dropout2d")


def dropout3d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, inplace, 3, "dropout3d")


# -- embedding, one_hot, normalize --------------------------------------------------------------------------


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Rows of ``weight`` at the integer positions in ``input``: ``weight[input]``."""
    if padding_idx is not None:
        n = weight._shape[0]
        if not -n <= padding_idx < n:
            raise AssertionError("Padding_idx must be within num_embeddings")
    return _nn.embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse)


one_hot = _nn.one_hot


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """Divide by the ``p``-norm along ``dim`` (never by less than ``eps``)."""
    norm = input.norm(p, dim, keepdim=True)
    return input / norm.clamp_min(eps).expand_as(input)


# -- normalisation ---------------------------------------------------------------------------------------


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5):
    """Normalise each channel over the batch (training: batch statistics, updating the running ones in
    place; eval: the running statistics)."""
    _check_batch_norm(input, running_mean, running_var, weight, bias, training)
    return _norm.NativeBatchNorm.apply(input, weight, bias, running_mean, running_var, training,
                                       0.0 if momentum is None else momentum, eps)


def _check_batch_norm(input, running_mean, running_var, weight, bias, training):
    """Every check batch_norm makes, before anything (running statistics included) is touched."""
    if training:
        per_channel = input.numel() // input._shape[1] if input.dim() > 1 else input.numel()
        if per_channel <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"{input.shape}")
    c = input._shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise each sample over its last ``len(normalized_shape)`` dims."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if input._shape[input.dim() - len(shape):] != shape or input.dim() < len(shape):
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size{list(input._shape)}")
    return _norm.NativeLayerNorm.apply(input, len(shape), weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise each sample over groups of ``C / num_groups`` channels."""
    if input.dim() < 2 or input._shape[1] % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input "
                           f"of shape {list(input._shape)} and num_groups={num_groups}")
    return _norm.NativeGroupNorm.apply(input, num_groups, weight, bias, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalise each (sample, channel) over its positions: group norm with one channel per group."""
    out = group_norm(input, input._shape[1], None, None, eps)
    shape = (1, -1) + (1,) * (input.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


__all__ = (["relu", "relu_", "relu6", "threshold", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish",
            "softplus", "sigmoid", "tanh", "logsigmoid", "hardtanh", "hardsigmoid", "hardswish", "softsign",
            "tanhshrink", "softmax", "softmin", "log_softmax", "linear", "bilinear", "dropout", "dropout1d",
            "dropout2d", "dropout3d", "embedding", "one_hot", "normalize", "batch_norm", "layer_norm",
            "group_norm", "instance_norm"] + list(_conv_all) + list(_loss_all) + list(_resize_all)
           + list(_attention_all))
