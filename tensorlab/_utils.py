"""Rebuilding tensors from a checkpoint: the functions a checkpoint's pickle calls by name.

A PyTorch checkpoint does not store "a tensor"; its pickle says *call* ``torch._utils._rebuild_tensor_v2``
with (storage, storage offset, size, stride, requires_grad, hooks). This module is tensorlab's
``torch._utils``: the same names, so the name in the file maps onto it by swapping ``torch`` for
``tensorlab`` (tensorlab/_torch_names.py), and the same arguments. They are the only functions a
``weights_only`` load calls, so each checks its arguments before building anything: a size or a
stride that reaches past the end of the storage is refused, never read out of bounds or allocated.
See course/19_saving_and_loading.
"""

from ._checkpoint_reader import CheckpointError
from .backend import for_device
from .storage import UntypedStorage
from .tensor import Tensor

MAX_DIMS = 64                      # PyTorch's limit on a tensor's number of dimensions
_INT64_MAX = 2 ** 63 - 1


def _malformed(reason):
    """The arguments of a rebuild call do not describe a valid tensor: a malformed checkpoint."""
    return CheckpointError(f"malformed checkpoint: {reason}")


def _rebuild_tensor(storage, storage_offset, size, stride):
    """A tensor viewing ``storage``: element ``(i, j, ...)`` is storage element
    ``storage_offset + i * stride[0] + j * stride[1] + ...``. No copy: views saved together share."""
    if not isinstance(storage, UntypedStorage) or storage._flat.ndim != 1:
        raise _malformed(f"a tensor's storage must be a storage, not {type(storage).__name__}")
    offset, shape, strides = _checked_geometry(storage, storage_offset, size, stride)
    array = for_device(storage.device).strided_view(storage._flat, offset, shape, strides)
    tensor = object.__new__(Tensor)
    tensor._init(storage, offset, shape, strides, array)
    return tensor


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    """What ``torch.save`` writes for every plain tensor. ``backward_hooks`` (always empty in files that
    ``torch.save`` writes: it refuses to save hooks) and ``metadata`` (conjugate/negative bits, which
    tensorlab's real dtypes never have) are not installed: a checkpoint holds data, not callbacks."""
    if not isinstance(backward_hooks, dict) or (metadata is not None and not isinstance(metadata, dict)):
        raise _malformed("a tensor's backward hooks and metadata must be dicts")
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    if requires_grad is True:
        if not tensor.dtype.is_floating_point:
            raise _malformed(f"a tensor of dtype {tensor.dtype} cannot require gradients")
        tensor.requires_grad_(True)
    elif requires_grad is not False:
        raise _malformed("a tensor's requires_grad must be True or False")
    return tensor


def _rebuild_parameter(data, requires_grad, backward_hooks):
    """What ``torch.save`` writes for an ``nn.Parameter``: its data tensor, rebuilt first, wrapped."""
    from .nn import Parameter
    if type(data) is not Tensor or not isinstance(backward_hooks, dict) or type(requires_grad) is not bool:
        raise _malformed("a Parameter is rebuilt from a tensor, a bool and a dict of hooks")
    if requires_grad and not data.dtype.is_floating_point:
        raise _malformed(f"a Parameter of dtype {data.dtype} cannot require gradients")
    return Parameter(data, requires_grad=requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    """A Parameter with attributes of its own (``p.note = "frozen"``): rebuilt, then given them back."""
    return set_obj_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor with attributes of its own (or of a Tensor subclass): ``func(*args)``, then the attributes.
    (PyTorch keeps this one in ``torch._tensor``.)"""
    from .nn import Parameter
    if func not in (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_parameter, _rebuild_parameter_with_state):
        raise _malformed(f"cannot rebuild a tensor with {func!r}")
    if new_type not in (Tensor, Parameter) or not isinstance(args, tuple):
        raise _malformed(f"cannot rebuild a tensor of type {new_type!r}")
    tensor = func(*args)
    if type(tensor) is not new_type:
        tensor = Parameter(tensor, requires_grad=tensor.requires_grad) if new_type is Parameter else tensor.detach()
    return set_obj_state(tensor, state)


def set_obj_state(tensor, state):
    """Give back a tensor's own attributes. Only plain instance attributes: a name that the class
    defines (a property such as ``grad``, an internal field) is refused, so no setter ever runs."""
    if state is None:
        return tensor
    if isinstance(state, tuple) and len(state) == 2:           # (dict state, slots state)
        state = {**(state[0] or {}), **(state[1] or {})}
    if not isinstance(state, dict):
        raise _malformed("a tensor's state must be a dict of attributes")
    for name, value in state.items():
        if not isinstance(name, str) or hasattr(type(tensor), name):
            raise _malformed(f"cannot set attribute {name!r} on a loaded tensor")
        tensor.__dict__[name] = value
    return tensor


def obj_state(tensor):
    """The attributes a user gave a tensor (``t.note = ...``), which a checkpoint keeps -- not the
    autograd fields that tensorlab keeps in the same ``__dict__`` (their names are the class's)."""
    return {k: v for k, v in tensor.__dict__.items() if not hasattr(Tensor, k) and k != "persistent"}


def _checked_geometry(storage, storage_offset, size, stride):
    """(offset, shape, strides) as ints, checked so that every element the view reads lies in the storage."""
    shape, strides = _int_tuple(size, "size"), _int_tuple(stride, "stride")
    if type(storage_offset) is not int or storage_offset < 0:
        raise _malformed(f"a tensor's storage offset must be a non-negative int, not {storage_offset!r}")
    if len(shape) != len(strides) or len(shape) > MAX_DIMS:
        raise _malformed(f"a tensor's size {shape} and stride {strides} must have the same length "
                           f"(at most {MAX_DIMS})")
    numel, count = storage._flat.size, 1
    for n in shape:
        count *= n
        if count > _INT64_MAX:
            raise _malformed(f"a tensor of size {list(shape)} has more elements than an int64 can count")
    if count:
        last = storage_offset + sum((n - 1) * s for n, s in zip(shape, strides))
        if last >= numel:
            raise _malformed(f"a tensor of size {list(shape)}, stride {list(strides)} and storage offset "
                               f"{storage_offset} reads element {last} of a storage of {numel} elements")
    return storage_offset, shape, strides


def _int_tuple(value, what):
    if not isinstance(value, (tuple, list)) or not all(type(v) is int and v >= 0 for v in value):
        raise _malformed(f"a tensor's {what} must be a tuple of non-negative ints, not {value!r}"[:200])
    return tuple(value)

