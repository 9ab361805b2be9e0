"""Making tensors: filled with one value (zeros, ones, full, empty and their ``*_like`` and ``new_*``
forms), the legacy ``Tensor(...)`` constructor, and the helpers every creation op shares.

From data -- ``tensor(data)`` always copies; ``from_numpy``/``as_tensor`` share memory with a NumPy
array when they can -- is in ``from_data.py``; ranges (arange, linspace...) in ``ranges.py``; random
tensors in ``sampling.py``. All of them are importable from here.
See course/01_tensors.
"""
import numbers
import operator

import numpy as np

from .. import _dtype, _layout
from .._device import as_device
from ..backend import for_device
from .. import tensor as _t
from ..storage import UntypedStorage
from ._util import method

# -- helpers ---------------------------------------------------------------------------------------


def _size(args, name="size"):
    """Accept ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` and ``f(torch.Size)``, like PyTorch."""
    if len(args) == 1 and not isinstance(args[0], (tuple, list, _t.Tensor)) and not hasattr(args[0], "__index__"):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(args[0]).__name__}")
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    shape = []
    for i, s in enumerate(args):
        try:
            if isinstance(s, _t.Tensor) and s.dtype.is_floating_point:
                raise TypeError
            shape.append(operator.index(s))
        except TypeError:
            kind = "float" if isinstance(s, _t.Tensor) else type(s).__name__
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {i + 1} with "
                            f"error \"type must be tuple of ints,but got {kind}\"") from None
    if any(s < 0 for s in shape):
        if name == "zeros":  # (PyTorch's zeros checks its sizes itself, in its own words)
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {_layout._fmt(shape)}")
    return tuple(shape)


def factory_shape(name, sizes, size, missing=None):
    """The shape a factory is asked for, positionally (``sizes``: ``zeros(2, 3)``, ``zeros((2, 3))``) or
    by keyword (``size``: ``zeros(size=(2, 3))``) -- one or the other, as PyTorch takes them."""
    if size is not None:
        if sizes:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not {type(size).__name__}")
        if not all(hasattr(s, "__index__") and not isinstance(s, _t.Tensor) for s in size):
            raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not {type(size).__name__}")
        sizes = (size,)
    elif not sizes:
        raise TypeError(missing or f'{name}() missing 1 required positional arguments: "size"')
    return _size(sizes, name)


def invalid_combination(name, args, signatures):
    """PyTorch's TypeError for a call that matches none of a function's signatures."""
    got = ", ".join(type(a).__name__ for a in args)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
                     "of:\n" + "".join(f" * ({sig})\n" for sig in signatures))


def _check_requires_grad(dtype, requires_grad):
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _new(flat, offset, shape, strides, device):
    """A tensor over a fresh (or shared) flat buffer with exactly this layout."""
    t = object.__new__(_t.Tensor)
    view = for_device(device).strided_view(flat, offset, shape, strides)
    t._init(UntypedStorage(flat, device), offset, shape, strides, view)
    return t


def _finish(array, device, requires_grad=False):
    """Wrap a NumPy array computed on the CPU as a tensor on ``device``."""
    device = as_device(device)
    if device.type != "cpu":
        array = for_device(device).asarray(array)
    t = _t.Tensor._from_array(array, device)
    if requires_grad:
        _check_requires_grad(t.dtype, True)
        t.requires_grad_(True)
    return t


def _legacy_constructor(self, args, device):
    """``Tensor(data)`` or ``Tensor(*sizes)`` -- the default float dtype (a tensor argument is aliased)."""
    src = legacy_new(args, _dtype.get_default_dtype(), device)
    self._init(src._storage, src._offset, src._shape, src._stride, src._array, src._version_counter,
               src._base)


def legacy_new(args, dtype, device, type_name=None):
    """What the legacy constructors make -- ``Tensor(...)`` and ``FloatTensor(...)`` (``type_name``):
    no argument, an empty tensor; ints or a Size, an uninitialised tensor of that shape; a sequence or
    array, a copy of the data; a tensor, the same tensor (a typed constructor wants its own dtype)."""
    from .from_data import is_sequence
    if len(args) == 1 and isinstance(args[0], _t.Tensor):
        src = args[0]
        if type_name is not None and src.dtype is not dtype:
            raise TypeError(f"expected {_tensor_options(dtype, device)} (got {_tensor_options(src.dtype, src.device)})")
        return src
    if len(args) == 1 and is_sequence(args[0]) and not isinstance(args[0], _t.Size):
        return tensor(np.asarray(args[0]) if isinstance(args[0], np.ndarray) else args[0], dtype=dtype,
                      device=device)
    if len(args) == 1 and isinstance(args[0], (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(args[0]).__name__}'")
    if len(args) == 1 and not hasattr(args[0], "__index__") and not isinstance(args[0], _t.Size):
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
    return empty(*(args or (0,)), dtype=dtype, device=device)


def _tensor_options(dtype, device):
    """How PyTorch's C++ core prints a tensor's dtype and device in a type error."""
    from ._pointwise import c_type_name
    return (f"TensorOptions(dtype={c_type_name(dtype)}, device={as_device(device).type}, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))")


def _rebuild(array, requires_grad):
    t = from_numpy(array)
    t._requires_grad = requires_grad
    return t


# -- filled ----------------------------------------------------------------------------------------


def _check_fill_value(fn_name, value):
    """``full``'s fill value must be a number (or a one-element tensor standing for one)."""
    ok = isinstance(value, (numbers.Number, np.generic)) or (isinstance(value, _t.Tensor) and value.numel() == 1
                                                             and value.dim() == 0)
    if not ok:
        raise TypeError(f"{fn_name}(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(value).__name__}")


def _fill_dtype(value):
    """``full``'s dtype from its fill value: bool, int64 or the default float."""
    if isinstance(value, _t.Tensor):
        value = value.item()
    return _dtype.scalar_dtype(value)


def check_storage_size(shape, dtype, n=None):
    """PyTorch's errors for a tensor too big to exist: more bytes than an int64 counts (an overflow,
    whatever the machine), then more than the machine can give (``allocate`` with the byte count)."""
    n = _layout.numel(shape) if n is None else n
    if n * dtype.itemsize > 2 ** 63 - 1:
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{', '.join(map(str, shape))}]")
    return n


def _allocate(backend, n, dtype):
    try:
        return backend.empty(n, dtype.np)
    except (MemoryError, ValueError):
        raise cannot_allocate(n * dtype.itemsize) from None


def cannot_allocate(nbytes):
    """PyTorch's error when the machine cannot give a tensor its memory."""
    return RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes.")


def _filled(fill, shape, dtype, device, requires_grad, strides=None):
    """A new tensor of ``shape`` (and ``strides``, if given) holding ``fill`` (or garbage for None)."""
    _check_requires_grad(dtype, requires_grad)
    device = as_device(device)
    if isinstance(fill, _t.Tensor):
        fill = fill.item()
    backend = for_device(device)
    n = check_storage_size(shape, dtype, None if strides is None else _layout.storage_span(shape, strides))
    flat = _allocate(backend, n, dtype)
    if fill is not None:
        try:
            flat[...] = fill
        except OverflowError:
            raise OverflowError("int too big to convert") from None
    if strides is None:  # row-major, the common case: a fresh result, its Storage made when asked
        t = _t.Tensor._from_array(flat.reshape(shape), device)
    else:
        t = _new(flat, 0, shape, strides, device)
    if requires_grad:
        t.requires_grad_(True)
    return t


@_dtype.reads_dtype
def zeros(*sizes, size=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
          requires_grad=False):
    """A tensor of zeros (default float dtype): ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))``."""
    return _filled(0, factory_shape("zeros", sizes, size), dtype or _dtype.get_default_dtype(), device,
                   requires_grad)


@_dtype.reads_dtype
def ones(*sizes, size=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
         requires_grad=False):
    """A tensor of ones (default float dtype)."""
    return _filled(1, factory_shape("ones", sizes, size), dtype or _dtype.get_default_dtype(), device,
                   requires_grad)


@_dtype.reads_dtype
def empty(*sizes, size=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
          requires_grad=False, memory_format=None):
    """A tensor whose memory is not initialised: fast, but the values are whatever was there."""
    return _filled(None, factory_shape("empty", sizes, size), dtype or _dtype.get_default_dtype(), device,
                   requires_grad)


@_dtype.reads_dtype
def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, pin_memory=False,
         requires_grad=False):
    """A tensor filled with ``fill_value``; its dtype follows the value (bool, int64 or float)."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    _check_fill_value("full", fill_value)
    from .ranges import _check_int64
    _check_int64(fill_value)
    return _filled(fill_value, _size((size,), "full"), dtype or _fill_dtype(fill_value), device, requires_grad)


@_dtype.reads_dtype
def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False):
    """An uninitialised tensor with exactly these strides (its storage is just big enough)."""
    size, stride = _size((size,), "empty_strided"), tuple(operator.index(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
                           f"({len(stride)})")
    return _filled(None, size, dtype or _dtype.get_default_dtype(), device, requires_grad, stride)


def _like(fill, input, dtype, device, requires_grad, memory_format):
    """A tensor shaped like ``input``, laid out in the same memory order (PyTorch's preserve_format)."""
    strides = None if memory_format is _layout.contiguous_format else \
        _layout.dense_strides_like(input._shape, input._stride)
    if strides == _t._contiguous_strides(input._shape):
        strides = None  # row-major (``_filled``'s common case)
    return _filled(fill, input._shape, dtype or input.dtype, device or input.device, requires_grad, strides)


@_dtype.reads_dtype
def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(0, input, dtype, device, requires_grad, memory_format)


@_dtype.reads_dtype
def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(1, input, dtype, device, requires_grad, memory_format)


@_dtype.reads_dtype
def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(None, input, dtype, device, requires_grad, memory_format)


@_dtype.reads_dtype
def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
    _check_fill_value("full_like", fill_value)
    return _like(fill_value, input, dtype, device, requires_grad, memory_format)


@method()
@_dtype.reads_dtype
def new_zeros(self, *sizes, size=None, dtype=None, device=None, requires_grad=False, layout=None,
              pin_memory=False):
    """A new tensor of zeros with this tensor's dtype and device (unless given)."""
    return _filled(0, factory_shape("new_zeros", sizes, size), dtype or self.dtype, device or self.device,
                   requires_grad)


@method()
@_dtype.reads_dtype
def new_ones(self, *sizes, size=None, dtype=None, device=None, requires_grad=False, layout=None,
             pin_memory=False):
    return _filled(1, factory_shape("new_ones", sizes, size), dtype or self.dtype, device or self.device,
                   requires_grad)


@method()
@_dtype.reads_dtype
def new_empty(self, *sizes, size=None, dtype=None, device=None, requires_grad=False, layout=None,
              pin_memory=False):
    return _filled(None, factory_shape("new_empty", sizes, size), dtype or self.dtype, device or self.device,
                   requires_grad)


@method()
@_dtype.reads_dtype
def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None,
             pin_memory=False):
    _check_fill_value("new_full", fill_value)
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                requires_grad=requires_grad)


@method()
@_dtype.reads_dtype
def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    """A copy of ``data`` with this tensor's dtype and device (unless given)."""
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


from .from_data import *  # noqa: E402,F401,F403 - tensor, as_tensor, from_numpy... live in from_data.py
from .ranges import *  # noqa: E402,F401,F403 - arange, linspace, logspace, eye live in ranges.py
from . import ranges as _ranges  # noqa: E402
from .sampling import *  # noqa: E402,F401,F403 - random tensors live in sampling.py
from .sampling import _rng  # noqa: E402,F401 - used by dropout and data shuffling
from . import sampling as _sampling  # noqa: E402

__all__ = ["tensor", "scalar_tensor", "as_tensor", "asarray", "from_numpy", "from_dlpack", "zeros", "ones",
           "empty", "full", "empty_strided", "zeros_like", "ones_like", "empty_like", "full_like"] + \
    _ranges.__all__ + _sampling.__all__
