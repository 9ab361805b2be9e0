"""Changing dtype or device: ``to``, ``float()``, ``cuda()``... A copy is made only when needed.

``x.to(float64)`` returns ``x`` itself when it already is float64 on that device; otherwise a copy
that keeps the memory order (recorded as ToCopyBackward0, so gradients flow back in the old dtype).
See course/01_tensors.
"""
from .. import _dtype
from .._device import as_device, device as _device_cls
from ..autograd.function import Function
from ..backend import for_device
from ._util import method, wrap
from .. import tensor as _t


class ToCopy(Function):
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, dtype, device):
        ctx.src_dtype, ctx.src_device = x.dtype, x.device
        array = x._array
        if device != x.device:
            array = for_device(device).asarray(for_device(x.device).to_numpy(array))
        array = array.astype(dtype.np, copy=array is x._array)
        return wrap(array, device)

    @staticmethod
    def backward(ctx, grad):
        return grad.to(dtype=ctx.src_dtype, device=ctx.src_device), None, None


def _parse_to(args, kwargs):
    dtype, device = kwargs.get("dtype"), kwargs.get("device")
    for a in args:
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, _t.Tensor):
            dtype, device = a.dtype, a.device
        elif isinstance(a, (str, _device_cls, int)):
            device = a
    return dtype, device


@method()
def to(self, *args, **kwargs):
    """``to(dtype)``, ``to(device)``, ``to(other)``: ``self`` when nothing changes, else a copy."""
    dtype, device = _parse_to(args, kwargs)
    dtype = dtype or self.dtype
    device = as_device(device) if device is not None else self.device
    if device.type == "cuda":
        from ..backend import cuda_available
        if not cuda_available():
            raise AssertionError("Torch not compiled with CUDA enabled")
    if dtype is self.dtype and device == self.device and not kwargs.get("copy", False):
        return self
    return ToCopy.apply(self, dtype, device)


def _caster(dt):
    def cast(self, memory_format=None):
        return self.to(dt)
    return cast


for _name, _dt in [("float", _dtype.float32), ("double", _dtype.float64), ("half", _dtype.float16),
                   ("int", _dtype.int32), ("long", _dtype.int64), ("short", _dtype.int16),
                   ("char", _dtype.int8), ("byte", _dtype.uint8), ("bool", _dtype.bool)]:
    setattr(_t.Tensor, _name, _caster(_dt))


@method()
def type(self, dtype=None, non_blocking=False):
    """Without an argument: the legacy type name (``'torch.FloatTensor'``); with one, a cast."""
    if dtype is None:
        prefix = "torch.cuda." if self.device.type == "cuda" else "torch."
        return prefix + self.dtype._legacy
    if isinstance(dtype, str):
        name = dtype.split(".")[-1]
        match = [d for d in _dtype.ALL if d._legacy == name]
        if not match or not dtype.startswith("torch.") or dtype.count(".") > 2:
            raise ValueError(f"invalid type: '{dtype}'")
        device = "cuda" if dtype.startswith("torch.cuda.") else "cpu"
        return self.to(dtype=match[0], device=device)
    return self.to(dtype)


@method()
def type_as(self, other):
    return self.to(other.dtype)


@method()
def cpu(self, memory_format=None):
    return self.to("cpu")


@method()
def cuda(self, device=None, non_blocking=False, memory_format=None):
    return self.to(as_device("cuda" if device is None else device if not isinstance(device, int)
                             else f"cuda:{device}"))


def is_floating_point(input):
    """True for float16/32/64 tensors."""
    return input.dtype.is_floating_point


def is_complex(input):
    return False


finfo, iinfo, can_cast = _dtype.finfo, _dtype.iinfo, _dtype.can_cast

__all__ = ["is_floating_point", "is_complex", "finfo", "iinfo", "can_cast"]
