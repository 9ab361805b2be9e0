"""Small helpers shared by the op families: operand promotion, wrapping results, unbroadcasting."""
import numpy as np

from .. import _dtype
from .._device import CPU
from ..backend import for_device
from .. import tensor as _t


def method(*names):
    """Attach a function to Tensor under ``names`` (the function's own name if none given)."""
    def attach(fn):
        for name in names or (fn.__name__,):
            setattr(_t.Tensor, name, fn)
        return fn
    return attach


# ``wrap(array, device=CPU)``: a new tensor owning ``array`` -- the last step of every op's forward.
# (Tensor._from_array itself, not a function calling it: one Python call less per op.)
wrap = _t.Tensor._from_array


def xp_of(t):
    """The array module (numpy or cupy) of a tensor's device."""
    return for_device(t._device).xp


def device_of(*operands):
    """The device of the tensor operands; mixing devices is an error (0-dim CPU tensors excepted)."""
    found, found_cpu_scalar = None, False
    for x in operands:
        if isinstance(x, _t.Tensor):
            d = x._device
            cpu_scalar = d.type == "cpu" and x._shape == ()
            if found is None or (found_cpu_scalar and not cpu_scalar):
                found, found_cpu_scalar = d, cpu_scalar  # a 0-dim CPU tensor gives way to any device
            elif d is not found and d != found and not cpu_scalar:
                raise RuntimeError("Expected all tensors to be on the same device, but found at least two "
                                   f"devices, {found} and {d}!")
    return found or CPU


def operands(*xs, dtype=None):
    """Arrays of ``xs`` (tensors or Python scalars) converted to their common PyTorch dtype.

    Returns ``(arrays, dtype, device)``. Scalars stay Python numbers: NumPy treats them as "weak",
    which is PyTorch's rule too.
    """
    if dtype is None and len(xs) == 2:
        fast = _same_kind_pair(*xs)
        if fast is not None:
            return fast
    dtype = dtype or _dtype.result_type(*xs)
    device = device_of(*xs)
    npd = dtype.np
    arrays = []
    for x in xs:
        if isinstance(x, _t.Tensor):
            a = x._array
            if a.dtype != npd:
                a = a.astype(npd)
            if x._device != device:  # a 0-dim CPU tensor used with a cuda tensor
                a = for_device(device).asarray(for_device(x._device).to_numpy(a))
            arrays.append(a)
        else:
            arrays.append(_scalar(x, dtype))
    return arrays, dtype, device


def _same_kind_pair(a, b):
    """The common cases, answered without the general promotion machinery: two tensors of one dtype
    on one device, or a floating tensor with a Python number."""
    Tensor = _t.Tensor
    if isinstance(a, Tensor):
        ad = a._array.dtype
        if isinstance(b, Tensor):
            if b._array.dtype is ad and b._device is a._device:
                return (a._array, b._array), _dtype._FROM_NUMPY[ad], a._device
        elif ad.kind == "f" and type(b) in (float, int):
            return (a._array, float(b)), _dtype._FROM_NUMPY[ad], a._device
    elif isinstance(b, Tensor) and type(a) in (float, int) and b._array.dtype.kind == "f":
        return (float(a), b._array), _dtype._FROM_NUMPY[b._array.dtype], b._device
    return None


def _scalar(x, dtype):
    if dtype is _dtype.bool:
        return bool(x)
    if dtype.is_complex:
        return complex(x)
    if not dtype.is_floating_point:
        return int(x)
    return float(x)


def to_tensor(x, like):
    """A Python scalar as a 0-dim tensor on ``like``'s device (so backward formulas can use it)."""
    if isinstance(x, _t.Tensor):
        return x
    from .creation import tensor
    return tensor(x, dtype=_dtype.result_type(like, x), device=like.device)


# build: stage 2
def unbroadcast(grad, shape):
    """Sum ``grad`` down to ``shape``: the backward of broadcasting (a broadcast input was reused)."""
    shape = tuple(shape)
    if grad._shape == shape:
        return grad
    lead = len(grad._shape) - len(shape)
    if lead > 0 and grad._shape[lead:] == shape:  # only new leading dims (a bias added to a batch)
        return grad.sum(tuple(range(lead)))
    return grad.sum_to_size(shape)
# build: end


def tensor_arg(fn_name, name, position, value):
    """PyTorch's TypeError for an argument that must be a tensor: ``gather(): argument 'index'
    (position 3) must be Tensor, not list``. Returns ``value``."""
    if not isinstance(value, _t.Tensor):
        raise TypeError(f"{fn_name}(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}")
    return value


def number_or_tensor_arg(fn_name, name, position, value):
    """An argument that may be a number or a tensor (``masked_fill``'s value, ``scatter``'s src)."""
    if isinstance(value, bool) or isinstance(value, (int, float, complex, np.generic, _t.Tensor)):
        return value
    raise TypeError(f"{fn_name}(): argument '{name}' (position {position}) must be Number or Tensor, not "
                    f"{type(value).__name__}")
