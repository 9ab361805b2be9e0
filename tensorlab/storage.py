"""Storage: the flat 1-D buffer under every tensor.

A tensor never owns its numbers directly: it owns a reference to a Storage plus a recipe
(offset, shape, strides) for reading it. Views (slices, transposes, ``view``, ``expand``...) share the
same Storage with a different recipe, which is why writing through one is seen by the other.
``tensor.untyped_storage()`` is the raw bytes; ``tensor.storage()`` (deprecated in PyTorch) reads the
same bytes as elements of the tensor's dtype.
See course/02_storage_and_strides.
"""
from . import _dtype
from .backend import for_device


class UntypedStorage:
    """The raw bytes of a storage (``tensor.untyped_storage()``)."""

    _flat_array = None  # set by __init__, or, for an op's result, made by ``_flat`` when first asked

    def __init__(self, flat, device):
        self._flat_array = flat
        self.device = device

    @classmethod
    def _of_result(cls, array, device):
        """The storage of an op's fresh C-contiguous result, made without copying (the hot path)."""
        storage = object.__new__(cls)
        storage._result, storage.device = array, device
        return storage

    @property
    def _flat(self):
        """The buffer: a 1-D array of the storage's element type. For an op's result it is made the
        first time someone asks -- a view or a ``copy_`` does; an ordinary ``a + b`` never does."""
        flat = self._flat_array
        if flat is None:
            result = self._result
            flat = self._flat_array = result.reshape(result.size)
        return flat

    def data_ptr(self):
        """Address of the first byte (where storage offset 0 lives)."""
        return for_device(self.device).data_ptr(self._flat)

    def nbytes(self):
        return self._flat.size * self._flat.itemsize

    def size(self):
        return self.nbytes()

    def __len__(self):
        return self.nbytes()

    def element_size(self):
        return 1

    def _bytes(self):
        return for_device(self.device).to_numpy(self._flat).view("uint8")

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        return self._bytes().tolist()

    def __getitem__(self, i):
        return self._bytes()[i].tolist()

    def __repr__(self):
        body = "\n".join(f" {b}" for b in self.tolist())
        return (f"{body}\n" if body else "") + (
            f"[torch.storage.UntypedStorage(device={self.device}) of size {self.nbytes()}]")


class TypedStorage(UntypedStorage):
    """The same buffer read as elements of a dtype (``tensor.storage()``)."""

    def __init__(self, flat, device):
        super().__init__(flat, device)
        self.dtype = _dtype.from_numpy_dtype(flat.dtype)

    def size(self):
        return self._flat.size

    def __len__(self):
        return self._flat.size

    def element_size(self):
        return self._flat.itemsize

    def untyped(self):
        return UntypedStorage(self._flat, self.device)

    def tolist(self):
        return for_device(self.device).to_numpy(self._flat).tolist()

    def __getitem__(self, i):
        return self.tolist()[i]

    def __setitem__(self, i, value):
        """Write one element of the buffer: every tensor viewing this storage sees it."""
        self._flat[i] = value

    def __iter__(self):
        return iter(self.tolist())

    def fill_(self, value):
        self._flat[...] = value
        return self

    def __repr__(self):
        values = self.tolist()
        if self.dtype.is_floating_point:
            body = "\n".join(f" {v!r}" for v in values)
        else:
            body = "\n".join(f" {v}" for v in values)
        return (f"{body}\n" if body else "") + (
            f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {len(self)}]")


Storage = TypedStorage
