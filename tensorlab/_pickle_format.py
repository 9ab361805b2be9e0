"""The pickle inside a checkpoint: tensors written as PyTorch writes them, read back fully if trusted.

``save`` pickles the object tree (protocol 2, as ``torch.save``), with two changes to plain pickling:

- a **tensor** is written as a call, ``torch._utils._rebuild_tensor_v2(storage, storage_offset, size,
  stride, requires_grad, OrderedDict())`` -- its window onto a storage, not its values;
- a **storage** is not pickled at all: it becomes a *persistent id*, the tuple
  ``('storage', torch.FloatStorage, '0', 'cpu', 6)`` (kind, element type, key, location, number of
  elements), and its bytes go into the archive's record ``data/0``. Each storage gets one key, however
  many tensors view it: views saved together load as views of one storage again.

tensorlab's classes and functions are written under PyTorch's names (tensorlab/_torch_names.py), so
``torch.load`` reads the file. ``pickle._Pickler`` -- the pure-Python pickler -- is used because
its ``save_global``, which writes a ``GLOBAL`` name, can be overridden; the C pickler would import
the name it writes to check it.

``load(f, weights_only=False)`` reads with Python's own unpickler, whose ``find_class`` maps
PyTorch's names back to tensorlab's objects. That unpickler runs whatever the file asks for: only
for files you trust (tensorlab/_weights_only.py is the safe one).
See course/19_saving_and_loading.
"""
import io
import pickle
from collections import OrderedDict

import numpy as np

from . import _dtype, _torch_names, _utils
from ._device import device as Device
from .backend import for_device
from .storage import TypedStorage, UntypedStorage
from .tensor import Size, Tensor


def dumps(obj, protocol=2):
    """``(data.pkl bytes, [(key, little-endian array of the storage)]``) for ``obj``."""
    buffer = io.BytesIO()
    pickler = CheckpointPickler(buffer, protocol)
    pickler.dump(obj)
    return buffer.getvalue(), [(key, array) for key, _, array in pickler.storages.values()]


class _TensorStorage:
    """A tensor's storage on its way into a persistent id: always typed by the tensor's dtype."""

    def __init__(self, storage):
        self.storage = storage


class CheckpointPickler(pickle._Pickler):
    """Pickles like ``torch.save``: storages as persistent ids, tensors as rebuild calls, PyTorch's names."""

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}                # id(flat buffer) -> (key, storage type, array to write)
        self._strings = {}                # key and location strings, reused so the pickle memoises them
        self._keep = []                   # every storage seen stays alive, so no id is reused

    def persistent_id(self, obj):
        if isinstance(obj, _TensorStorage):
            return self._storage_id(obj.storage, typed=True)
        if isinstance(obj, UntypedStorage):         # a storage saved by itself: t.untyped_storage(), t.storage()
            return self._storage_id(obj, typed=type(obj) is TypedStorage)
        return None

    def _storage_id(self, storage, typed):
        flat = storage._flat
        dt = _dtype.from_numpy_dtype(flat.dtype)
        storage_type = _torch_names.STORAGE_TYPE_OF[dt] if typed else UntypedStorage
        entry = self.storages.get(id(flat))
        if entry is None:
            array = np.ascontiguousarray(for_device(storage.device).to_numpy(flat))
            entry = (str(len(self.storages)), storage_type, array.astype(array.dtype.newbyteorder("<"), copy=False))
            self.storages[id(flat)] = entry
            self._keep.append(storage)
        elif entry[1] is not storage_type:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        numel = flat.size if typed else flat.size * flat.itemsize
        return ("storage", storage_type, entry[0], self._string(str(storage.device)), numel)

    def _string(self, text):
        return self._strings.setdefault(text, text)

    def reducer_override(self, obj):
        """How tensorlab's own values are pickled (everything else is pickled as usual)."""
        if isinstance(obj, Tensor):
            return _reduce_tensor(obj)
        names = _torch_names.torch_name(obj)
        if names is not None:                       # a class, a function, a dtype: by PyTorch's name
            return names[1]
        if type(obj) is Device:
            return Device, (obj.type,) if obj.index is None else (obj.type, obj.index)
        if type(obj) is Size:
            return Size, (tuple(obj),)
        if isinstance(obj, OrderedDict) and type(obj) is not OrderedDict and _torch_names.torch_name(type(obj)):
            return OrderedDict, (), None, None, iter(obj.items())    # a module's hook dicts: as in PyTorch
        return NotImplemented

    def save_global(self, obj, name=None):
        """Write a class or function by name -- PyTorch's name, if it is one of tensorlab's. (Called for
        what ``reducer_override`` names, and for classes; functions reach it through ``reducer_override``
        only, since the pickler's dispatch table calls the base class's ``save_global`` for them.)"""
        names = _torch_names.torch_name(obj, name)
        if names is None:
            return super().save_global(obj, name)
        module, qualname = names
        if self.proto >= 4:
            self.save(module)
            self.save(qualname)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{module}\n{qualname}\n".encode("utf-8"))
        self.memoize(obj)


def _reduce_tensor(t):
    """``torch.Tensor.__reduce_ex__``'s answer, for a tensorlab tensor."""
    from .nn import Parameter
    state = _utils.obj_state(t)
    if isinstance(t, Parameter):
        data = t.detach()
        if state:
            return _utils._rebuild_parameter_with_state, (data, t.requires_grad, OrderedDict(), state)
        return _utils._rebuild_parameter, (data, t.requires_grad, OrderedDict())
    args = (_TensorStorage(t._storage), t.storage_offset(), tuple(t.shape), tuple(t.stride()), t.requires_grad,
            OrderedDict())
    if not state:
        return _utils._rebuild_tensor_v2, args
    return _utils._rebuild_from_type_v2, (_utils._rebuild_tensor_v2, Tensor, args, state)


def full_unpickler(data, persistent_load, pickle_module=None, **load_args):
    """Python's unpickler (or ``pickle_module``'s), reading PyTorch's names as tensorlab's. Runs code."""
    base = getattr(pickle_module, "Unpickler", pickle.Unpickler)

    class Unpickler(base):
        def find_class(self, module, name):
            if _torch_names.is_torch_name(module):
                try:
                    return _torch_names.tensorlab_object(module, name)
                except LookupError as error:
                    raise AttributeError(str(error)) from None
            return super().find_class(module, name)

        def persistent_load(self, pid):
            return persistent_load(pid)

    return Unpickler(io.BytesIO(data), **load_args)
