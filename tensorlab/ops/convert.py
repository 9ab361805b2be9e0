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
    """``to``'s forms: ``to(dtype)``, ``to(device, dtype)``, ``to(other)``, keywords; Python's
    ``float``/``int``/``bool`` stand for float64/int64/bool. Anything else is PyTorch's TypeError."""
    dtype, device = kwargs.get("dtype"), kwargs.get("device")
    if dtype is not None and not isinstance(dtype, _dtype.dtype):
        dtype = _resolve_or_fail(dtype, args, kwargs)
    for a in args:
        if isinstance(a, _t.Tensor):
            dtype, device = a.dtype, a.device
        elif isinstance(a, _dtype.dtype) or a is float or a is int or a is bool:
            dtype = _dtype.resolve(a, "to")
        elif isinstance(a, (str, _device_cls, int)):
            device = a
        else:
            _resolve_or_fail(a, args, kwargs)
    return dtype, device


def _type_name(value):
    return value.__class__.__name__        # (``type`` is Tensor.type in this module)


def _resolve_or_fail(value, args, kwargs):
    try:
        return _dtype.resolve(value, "to")
    except TypeError:
        got = ", ".join(_type_name(a) for a in args) + (", " if args and kwargs else "") + "".join(
            f"{k}={_type_name(v)}, " for k, v in kwargs.items())
        raise TypeError(f"to() received an invalid combination of arguments - got ({got}), but expected one "
                        "of:\n * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
                        "bool copy = False, *, torch.memory_format memory_format = None)\n * (torch.dtype dtype, "
                        "bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)"
                        "\n * (Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format "
                        "memory_format = None)\n") from None


@method()
def to(self, *args, **kwargs):
    """``to(dtype)``, ``to(device)``, ``to(other)``: ``self`` when nothing changes, else a copy."""
    dtype, device = _parse_to(args, kwargs)
    dtype = dtype or self.dtype
    device = as_device(device) if device is not None else self.device
    if device.type == "cuda":
        from ..backend import cuda_available
        if not cuda_available():
            asked = kwargs.get("device", next((a for a in args if isinstance(a, (int, str, _device_cls))), None))
            if isinstance(asked, int) and not isinstance(asked, bool):
                raise RuntimeError("Cannot access accelerator device when none is available.")
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
    from .._tensor_types import tensor_type_of, tensortype
    if isinstance(dtype, (str, tensortype)):  # 'torch.LongTensor', torch.LongTensor, torch.cuda.FloatTensor
        found = tensor_type_of(dtype)
        if found is None:
            raise ValueError(f"invalid type: '{dtype}'")
        return self.to(dtype=found[0], device=found[1])
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
    """True for complex64/complex128 tensors."""
    return input.dtype.is_complex


finfo, iinfo, can_cast = _dtype.finfo, _dtype.iinfo, _dtype.can_cast

__all__ = ["is_floating_point", "is_complex", "finfo", "iinfo", "can_cast"]
