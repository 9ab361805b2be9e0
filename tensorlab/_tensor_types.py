"""The legacy tensor types -- ``torch.FloatTensor``, ``torch.LongTensor``... -- from before dtypes existed.

Older tutorials still write ``torch.FloatTensor([0.1, 1.0])``, ``torch.LongTensor(3)`` or
``x.type(torch.DoubleTensor)``. Each name is a *type object* standing for a (dtype, device) pair, not a
subclass of Tensor:

* calling it makes an ordinary Tensor of that dtype -- ``FloatTensor(2, 3)`` uninitialised of that size,
  ``FloatTensor([1, 2])`` a copy of the data (a tuple is data too: ``FloatTensor((2, 3))`` is
  ``tensor([2., 3.])``), ``FloatTensor(t)`` the same memory as a float tensor ``t``;
* ``isinstance(t, torch.FloatTensor)`` asks "is ``t`` a float32 tensor on the CPU?";
* ``t.type()`` names the type of ``t`` (``'torch.FloatTensor'``), and ``t.type(torch.LongTensor)`` converts.

``torch.tensor(data, dtype=...)`` says the same more clearly; these exist so old code runs.
See course/01_tensors.
"""
from . import _dtype
from .tensor import Tensor

_NAMES = {"Float": _dtype.float32, "Double": _dtype.float64, "Half": _dtype.float16, "Byte": _dtype.uint8,
          "Char": _dtype.int8, "Short": _dtype.int16, "Int": _dtype.int32, "Long": _dtype.int64,
          "Bool": _dtype.bool}


class tensortype(type):
    """The class of ``FloatTensor`` & co. (PyTorch calls it ``torch.tensortype`` too)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == cls._device_type

    def __call__(cls, *args, device=None):
        from .ops.creation import legacy_new
        if device is None and cls._device_type != "cpu":
            device = cls._device_type
        return legacy_new(args, cls.dtype, device, cls.__name__)

    def __getattr__(cls, name):
        """``torch.FloatTensor.add`` is ``torch.Tensor.add``: a type's methods are Tensor's."""
        return getattr(Tensor, name)


def _make_types(module, device_type):
    """One type per dtype, e.g. ``FloatTensor``, printing as ``<class 'tensorlab.FloatTensor'>``."""
    types = {}
    for prefix, dt in _NAMES.items():
        name = prefix + "Tensor"
        types[name] = tensortype(name, (), {"dtype": dt, "_device_type": device_type, "is_cuda": device_type == "cuda",
                                            "is_sparse": False, "layout": "torch.strided", "__module__": module})
    return types


globals().update(_make_types("tensorlab", "cpu"))
__all__ = ["tensortype", *(prefix + "Tensor" for prefix in _NAMES), "typename", "set_default_tensor_type"]


def tensor_type_of(name_or_type):
    """(dtype, device type) for a legacy type or its name (``'torch.cuda.LongTensor'``); None if neither."""
    if isinstance(name_or_type, tensortype):
        return name_or_type.dtype, name_or_type._device_type
    if isinstance(name_or_type, str):
        prefix, _, name = name_or_type.rpartition(".")
        if prefix in ("torch", "torch.cuda") and name.endswith("Tensor") and name[:-len("Tensor")] in _NAMES:
            return _NAMES[name[:-len("Tensor")]], "cuda" if prefix == "torch.cuda" else "cpu"
    return None


def typename(obj):
    """``torch.typename``: ``'torch.FloatTensor'`` for a float tensor (what ``t.type()`` says), the type's
    own name for a legacy type, ``'module.Class'`` for anything else (``'int'`` for builtins)."""
    if isinstance(obj, Tensor):
        return obj.type()
    if isinstance(obj, tensortype):
        return ("torch.cuda." if obj._device_type == "cuda" else "torch.") + obj.__name__
    module, name = getattr(obj, "__module__", "") or "", getattr(obj, "__qualname__", type(obj).__qualname__)
    if not isinstance(obj, type):
        module, name = type(obj).__module__, type(obj).__qualname__
    return name if module in ("builtins", "") else f"{module}.{name}"


_warned = False


def set_default_tensor_type(t):
    """Deprecated: ``set_default_tensor_type(torch.DoubleTensor)`` is ``set_default_dtype(torch.float64)``."""
    global _warned
    if not _warned:  # (once per process, as PyTorch)
        import warnings
        _warned = True
        warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                      "torch.set_default_dtype() and torch.set_default_device() as alternatives.", UserWarning,
                      stacklevel=2)
    found = tensor_type_of(t)
    if found is None:
        raise TypeError(f"invalid type: '{t}'")
    if not found[0].is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtype.set_default_dtype(found[0])
