"""Normalisation layers that work per sample: LayerNorm (over its last features) and GroupNorm (over
groups of channels). BatchNorm, which normalises over the batch, is in batchnorm.py.
See course/15_normalization_and_regularization.
"""
import numbers

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


def _tensor(fill, *shape, device=None, dtype=None):
    from ...ops.creation import full
    return full(shape, fill, device=device, dtype=dtype)


def _affine_parameters(module, enabled, bias, shape, device, dtype):
    """The learned scale ``weight`` (ones) and shift ``bias`` (zeros) every normalisation layer has
    when ``affine`` (``elementwise_affine`` for LayerNorm); registered as None otherwise."""
    if enabled:
        module.weight = Parameter(_tensor(1.0, *shape, device=device, dtype=dtype))
        if bias:
            module.bias = Parameter(_tensor(0.0, *shape, device=device, dtype=dtype))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)


def _reset_affine(module):
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """Normalise each sample over its last dims (``normalized_shape``), then scale and shift."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        _affine_parameters(self, elementwise_affine, bias, self.normalized_shape, device, dtype)

    def reset_parameters(self):
        _reset_affine(self)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    """Normalise each sample over groups of ``num_channels / num_groups`` channels."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        _affine_parameters(self, affine, bias, (num_channels,), device, dtype)

    def reset_parameters(self):
        _reset_affine(self)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")
