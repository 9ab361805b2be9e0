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

def is_sequence(x):
    """What PyTorch reads as one more dimension: any Python *sequence* -- something with a length and
    items by position (list, tuple, range, deque, array.array, torch.Size, a NumPy array...). Sets, dicts,
    iterators and generators are not sequences; a tensor inside a list stands for one number."""
    if isinstance(x, (list, tuple, range)):
        return True
    if isinstance(x, (str, bytes, dict, _t.Tensor, np.generic)):
        return False
    kind = type(x)
    return hasattr(kind, "__getitem__") and hasattr(kind, "__len__")


def _items(seq):
    return seq if isinstance(seq, (list, tuple)) else [seq[i] for i in range(len(seq))]


# Python's own number types and their dtypes (float and complex stand for the default float and complex
# dtypes, read when used)
_NUMBER_TYPES = {bool: _dtype.bool, int: _dtype.int64, float: float, complex: complex}


def _infer_dtype(data):
    """PyTorch's dtype for nested Python data: bool < int64 < default float; NumPy scalars and
    arrays and tensors inside keep their own dtype. Returns ``(dtype, plain)``: ``plain`` when the data
    is only lists and tuples of Python numbers, which NumPy can read in one call."""
    if isinstance(data, (np.ndarray, np.generic)):
        return _dtype.from_numpy_dtype(data.dtype), False
    kinds, stack, plain = set(), [data], True
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            if not x:  # an empty row counts as the default dtype: tensor([[], [1]]) is float
                kinds.add(float)
            types = set(map(type, x))
            if types <= _NUMBER_TYPES.keys():  # the common case, a row of Python numbers: read the types at once
                kinds.update(_NUMBER_TYPES[t] for t in types)
            else:
                stack.extend(x)
        elif type(x) in _NUMBER_TYPES:
            kinds.add(_NUMBER_TYPES[type(x)])
        else:
            plain = False
            if isinstance(x, _t.Tensor):
                kinds.add(x.dtype)
            elif isinstance(x, (np.ndarray, np.generic)):
                kinds.add(_dtype.from_numpy_dtype(x.dtype))
            elif isinstance(x, numbers.Real):
                kinds.add(_dtype.int64 if isinstance(x, numbers.Integral) else _dtype.get_default_dtype())
            elif isinstance(x, numbers.Complex):
                kinds.add(complex)
            elif isinstance(x, (str, bytes)):
                raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
            elif is_sequence(x):
                items = _items(x)
                stack.extend(items) if items else kinds.add(float)
            else:
                raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")
    kinds = {_dtype.get_default_dtype() if k is float else _dtype.default_complex_dtype() if k is complex else k
             for k in kinds}
    result = None
    for d in kinds:  # (promotion does not depend on the order)
        result = d if result is None else _dtype.promote_types(result, d)
    return result or _dtype.get_default_dtype(), plain


def _shape_of(data):
    """The shape PyTorch reads off nested data: the length at each level, following first items."""
    shape = []
    while is_sequence(data):
        if isinstance(data, np.ndarray):
            if data.ndim == 0:
                raise TypeError("len() of unsized object")
            return tuple(shape) + data.shape
        shape.append(len(data))
        if not shape[-1]:
            break
        data = data[0]
    return tuple(shape)


def _nested_array(data, np_dtype, plain=False):
    """Nested sequences as one NumPy array of ``np_dtype`` and PyTorch's shape, with PyTorch's errors for
    ragged data. Plain lists of numbers are read by NumPy in one call; anything else item by item."""
    shape = _shape_of(data)
    if 0 in shape:  # nothing to read: PyTorch does not look past the empty row
        return np.zeros(shape, np_dtype)
    if plain:
        try:
            with np.errstate(over="ignore"):
                array = np.array(data, dtype=np_dtype)
            if array.shape == shape:
                return array
        except (ValueError, OverflowError, TypeError):
            pass  # ragged, or a number that does not fit: read item by item for PyTorch's message
    return _read(data, shape, 0, np_dtype)


def _read(data, shape, dim, np_dtype):
    """Level ``dim`` of the data, checked against ``shape``, as an array."""
    if dim == len(shape):
        return _leaf(data, np_dtype)
    if not is_sequence(data):
        raise TypeError("not a sequence")
    if isinstance(data, np.ndarray) and data.shape == shape[dim:]:
        return data.astype(np_dtype)
    if isinstance(data, np.ndarray) and data.ndim == 0:
        raise TypeError("len() of unsized object")
    items = _items(data)
    if len(items) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(items)})")
    if not items:
        return np.zeros(shape[dim:], np_dtype)
    return np.stack([_read(x, shape, dim + 1, np_dtype) for x in items])


def _leaf(x, np_dtype):
    """One number at the innermost level (a one-element tensor counts as its number)."""
    integral = np.dtype(np_dtype).kind in "iub"
    if isinstance(x, _t.Tensor):
        if x.numel() != 1:
            if integral:
                raise TypeError("only integer tensors of a single element can be converted to an index")
            raise ValueError("only one element tensors can be converted to Python scalars")
        return for_device(x.device).to_numpy(x._array).reshape(()).astype(np_dtype)
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            return x.astype(np_dtype)
        raise TypeError("only integer scalar arrays can be converted to a scalar index" if integral else
                        "only 0-dimensional arrays can be converted to Python scalars")
    if is_sequence(x):
        if integral:
            raise TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
        raise TypeError(f"must be real number, not {type(x).__name__}")
    return _number_array(x, np_dtype)


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
    inferred, plain = _infer_dtype(data)
    dtype = dtype or inferred
    _check_requires_grad(dtype, requires_grad)
    device = as_device(device if device is not None else
                       (data.device if isinstance(data, _t.Tensor) else None))
    if isinstance(data, (np.ndarray, _t.Tensor)):
        out = _copy_of_array(data, dtype, device)
    else:
        _warn_if_list_of_arrays(data)
        out = _finish(_nested_array(data, dtype.np, plain), device)
    if requires_grad:
        out.requires_grad_(True)
    return out


_warned_list_of_arrays = False


def _warn_if_list_of_arrays(data):
    """PyTorch warns (once) that a list of NumPy arrays is read element by element: ``np.stack`` them."""
    global _warned_list_of_arrays
    if not _warned_list_of_arrays and isinstance(data, list) and data and isinstance(data[0], np.ndarray):
        _warned_list_of_arrays = True
        warnings.warn("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
                      "converting the list to a single numpy.ndarray with numpy.array() before converting to "
                      "a tensor.", UserWarning, stacklevel=3)


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
