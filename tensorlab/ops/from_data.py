"""Making tensors from data: ``tensor`` (always a copy), ``as_tensor``/``asarray``/``from_numpy``
(sharing a NumPy array's memory when they can, so a write through one is seen by the other),
``scalar_tensor`` and ``from_dlpack``. The dtype is read off the data as PyTorch does: Python ints
give int64, Python floats the default dtype (float32), bools bool; nested lists must be rectangular.
Tensors filled with one value, and the shared helpers, are in creation.py. See course/01_tensors.
"""
import numbers
import warnings

import numpy as np

from .. import _dtype, _layout
from .._device import as_device
from ..backend import for_device
from .. import tensor as _t
from .creation import _check_requires_grad, _filled, _finish, _new

def _infer_dtype(data):
    """PyTorch's dtype for nested Python data: bool < int64 < default float; NumPy scalars and
    arrays and tensors inside keep their own dtype."""
    if isinstance(data, (np.ndarray, np.generic)):
        return _dtype.from_numpy_dtype(data.dtype)
    kinds, stack = [], [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, _t.Tensor):
            kinds.append(x.dtype)
        elif isinstance(x, (np.ndarray, np.generic)):
            kinds.append(_dtype.from_numpy_dtype(x.dtype))
        elif isinstance(x, bool):
            kinds.append(_dtype.bool)
        elif isinstance(x, int):
            kinds.append(_dtype.int64)
        elif isinstance(x, numbers.Real):
            kinds.append(_dtype.get_default_dtype())
        elif isinstance(x, (str, bytes, bytearray)):
            raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")
    result = None
    for d in kinds:
        result = d if result is None else _dtype.promote_types(result, d)
    return result or _dtype.get_default_dtype()


def _nested_array(data, np_dtype, nested=False):
    """Nested lists as one NumPy array, with PyTorch's error for ragged lists. A tensor *inside* a
    list stands for a number (as in PyTorch): it must have exactly one element."""
    if isinstance(data, _t.Tensor):
        if nested and data.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        array = for_device(data.device).to_numpy(data._array)
        return array.reshape(()) if nested else array
    if isinstance(data, (list, tuple)):
        parts = [_nested_array(x, np_dtype, True) for x in data]
        shapes = {np.shape(p) for p in parts}
        if len(shapes) > 1:
            first = np.shape(parts[0])
            bad = next(np.shape(p) for p in parts if np.shape(p) != first)
            if not first or not bad:
                raise TypeError("not a sequence")
            raise ValueError(f"expected sequence of length {first[0]} at dim 1 (got {bad[0]})")
        return np.array(parts, dtype=np_dtype) if parts else np.zeros((0,), np_dtype)
    return _number_array(data, np_dtype)


def _number_array(x, np_dtype):
    """One number as a 0-d array of ``np_dtype``, with PyTorch's errors for numbers that do not fit."""
    try:
        return np.asarray(x, dtype=np_dtype)
    except (OverflowError, ValueError):
        if isinstance(x, int) and not -2 ** 63 <= x < 2 ** 63:
            raise ValueError("Overflow when unpacking long long") from None
        if isinstance(x, numbers.Real):
            raise RuntimeError(f"value cannot be converted to type {np.dtype(np_dtype).name} without "
                               "overflow") from None
        raise


# -- from data -------------------------------------------------------------------------------------


@_dtype.reads_dtype
def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a *copy* of ``data`` (nested lists, numbers, arrays or tensors)."""
    if isinstance(data, _t.Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                      "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    if not isinstance(requires_grad, bool):
        raise TypeError(f"tensor(): argument 'requires_grad' must be bool, not {type(requires_grad).__name__}")
    _refuse_string_rows(data)
    dtype = dtype or _infer_dtype(data)
    _check_requires_grad(dtype, requires_grad)
    device = as_device(device if device is not None else
                       (data.device if isinstance(data, _t.Tensor) else None))
    if isinstance(data, (np.ndarray, _t.Tensor)):
        out = _copy_of_array(data, dtype, device)
    else:
        out = _finish(_nested_array(data, dtype.np), device)
    if requires_grad:
        out.requires_grad_(True)
    return out


def _refuse_string_rows(data):
    """PyTorch reads the first element of each nesting level to find the shape; a string there is
    taken for one more dimension: ``tensor(['a'])`` is "too many dimensions 'str'"."""
    first, depth = data, 0
    while isinstance(first, (list, tuple)) and first:
        first, depth = first[0], depth + 1
    if depth and isinstance(first, str):
        raise ValueError(f"too many dimensions '{type(first).__name__}'")


def _copy_of_array(data, dtype, device):
    """A copy of an array or tensor that keeps its memory order (a transposed input stays transposed)."""
    if isinstance(data, _t.Tensor):
        array, strides = for_device(data.device).to_numpy(data._array), data._stride
    else:
        array = data
        item = array.itemsize
        ok = all(s >= 0 and s % item == 0 for s in array.strides)
        strides = tuple(s // item for s in array.strides) if ok else _layout.contiguous_strides(array.shape)
    out = _filled(None, array.shape, dtype, device, False, _layout.dense_strides_like(array.shape, strides))
    out._array[...] = for_device(out.device).asarray(array)
    return out


@_dtype.reads_dtype
def scalar_tensor(s, *, dtype=None, device=None, requires_grad=False):
    """A 0-d tensor holding the number ``s`` (default dtype unless given)."""
    return tensor(float(s) if dtype is None else s, dtype=dtype or _dtype.get_default_dtype(), device=device,
                  requires_grad=requires_grad)


@_dtype.reads_dtype
def as_tensor(data, dtype=None, device=None):
    """Like ``tensor`` but shares memory with a NumPy array or tensor when dtype and device allow."""
    if isinstance(data, _t.Tensor):
        if (dtype is None or data.dtype is dtype) and (device is None or data.device == as_device(device)):
            return data
        return data.to(device=device, dtype=dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np == data.dtype) and \
            as_device(device).type == "cpu":
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


@_dtype.reads_dtype
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """``as_tensor`` with a ``copy`` switch: True always copies, False refuses to."""
    if copy:
        out = tensor(obj, dtype=dtype, device=device) if not isinstance(obj, _t.Tensor) else \
            obj.to(dtype=dtype or obj.dtype, device=device or obj.device, copy=True)
    else:
        out = as_tensor(obj, dtype=dtype, device=device)
    if requires_grad:
        out.requires_grad_(True)
    return out


def from_numpy(ndarray):
    """A tensor over ``ndarray``'s own memory: a write through either is seen by the other.

    The storage starts at the array's first element; the strides are NumPy's byte strides divided by
    the element size -- so even a sliced (non-contiguous) array is shared, not copied.
    """
    array = ndarray
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative "
                         "strides are not currently supported. (You can probably work around this by making a "
                         "copy of your array  with array.copy().) ")
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                         "between byte orders is currently not supported.")
    dt = _dtype.from_numpy_dtype(array.dtype)
    item = array.itemsize
    if any(s % item for s in array.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. Copy the numpy "
                         "array to reallocate the memory.")
    if not array.flags.writeable:
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support non-writable "
                      "tensors. This means writing to this tensor will result in undefined behavior. You may "
                      "want to copy the array to protect its data or make it writable before converting it to "
                      "a tensor.", UserWarning, stacklevel=2)
    array = array.view(dt.np)
    strides = (0,) * array.ndim if array.size == 0 else tuple([s // item for s in array.strides])
    if array.flags.c_contiguous and array.size:  # the usual case: the array seen as 1-D is the storage
        flat = array.reshape(array.size)
    else:
        span = _layout.storage_span(array.shape, strides)
        flat = np.lib.stride_tricks.as_strided(array, (span,), (item,), writeable=array.flags.writeable)
    return _new(flat, 0, array.shape, strides, as_device("cpu"))


def from_dlpack(ext_tensor):
    """Zero-copy import from any object with ``__dlpack__`` (NumPy, PyTorch, CuPy...)."""
    if hasattr(ext_tensor, "__dlpack_device__") and ext_tensor.__dlpack_device__()[0] == 2:  # kDLCUDA
        device = as_device("cuda")
        return _t.Tensor._from_array(for_device(device).xp.from_dlpack(ext_tensor), device)
    return from_numpy(np.from_dlpack(ext_tensor))


__all__ = ["tensor", "scalar_tensor", "as_tensor", "asarray", "from_numpy", "from_dlpack"]
