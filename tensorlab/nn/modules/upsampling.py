"""Upsampling layers: the module forms of F.interpolate (nearest, linear, bilinear, trilinear).
See course/14_convolution.
"""
from .. import functional as F
from .module import Module


class Upsample(Module):
    """Resize by ``scale_factor`` or to ``size`` (nearest, linear, bilinear, trilinear)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = (tuple(float(f) for f in scale_factor) if isinstance(scale_factor, (tuple, list))
                             else float(scale_factor) if scale_factor else None)
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``Upsample(mode='nearest')`` over (N, C, H, W) images (an older name PyTorch keeps)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(mode='bilinear', align_corners=True)`` (an older name PyTorch keeps)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
