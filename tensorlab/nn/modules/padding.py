"""Padding layers (module forms of F.pad); upsampling is in upsampling.py.
See course/14_convolution.
"""
from .. import functional as F
from .module import Module


class _PadNd(Module):
    _nd, _mode = 2, "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * self._nd)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, self._mode, self.value if self._mode == "constant" else None)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    _nd = 1


class ConstantPad2d(_ConstantPadNd):
    _nd = 2


class ConstantPad3d(_ConstantPadNd):
    _nd = 3


class ZeroPad1d(_PadNd):
    _nd = 1


class ZeroPad2d(_PadNd):
    _nd = 2


class ZeroPad3d(_PadNd):
    _nd = 3


class ReflectionPad1d(_PadNd):
    _nd, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    _nd, _mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    _nd, _mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    _nd, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    _nd, _mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    _nd, _mode = 3, "replicate"


class CircularPad1d(_PadNd):
    _nd, _mode = 1, "circular"


class CircularPad2d(_PadNd):
    _nd, _mode = 2, "circular"
