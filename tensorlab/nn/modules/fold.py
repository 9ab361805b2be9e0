"""Fold and Unfold: the sliding windows of a convolution as layers of their own.

``Unfold`` (im2col) lays every window of an image out as a column; a convolution is then one matrix
product with the flattened kernels. ``Fold`` (col2im) puts columns back, summing where windows overlap.
The functions behind them are in tensorlab/nn/_functional_conv.py. See course/14_convolution.
"""
from .. import functional as F
from .module import Module


class Unfold(Module):
    """im2col as a layer: (N, C, H, W) -> (N, C * kh * kw, number of windows)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Module):
    """col2im as a layer: (N, C * kh * kw, L) -> (N, C, *output_size), overlapping windows summed."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
