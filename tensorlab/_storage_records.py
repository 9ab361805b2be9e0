"""Loading the storages of a checkpoint: a persistent id -> the bytes of its record -> a storage on a device.

The pickle names each storage by a *persistent id*, ``('storage', torch.FloatStorage, '0', 'cpu', 6)``:
kind, element type, key, the location it was saved from, and its number of elements. The loader
reads record ``data/<key>`` once (every later id with the same key gets the same storage -- that is
how views stay shared), checks that the record holds exactly ``6 x 4`` bytes, makes the storage, and
puts it where ``map_location`` says:

- ``None``: back where it was saved (``'cuda:0'`` needs a GPU);
- a string or a device (``'cpu'``): everything there;
- a dict from saved location to new location (``{'cuda:1': 'cuda:0'}``); locations it does not
  name stay where they were;
- a callable ``fn(storage, location)``, given each storage on the CPU; it returns the storage to use
  (``lambda storage, loc: storage`` keeps everything on the CPU), or None to restore it as saved.

See course/19_saving_and_loading and course/22_gpus.
"""
import sys

import numpy as np

from ._checkpoint_reader import CheckpointError
from ._device import as_device, device as Device
from ._torch_names import StorageType
from .backend import for_device
from .storage import UntypedStorage

_UINT8 = np.dtype(np.uint8)


class StorageLoader:
    """The ``persistent_load`` of both unpicklers: one storage per record key."""

    def __init__(self, archive, map_location=None, byteorder="little"):
        if byteorder not in ("little", "big"):
            raise CheckpointError(f"malformed checkpoint: unknown byte order {byteorder[:20]!r}")
        self.archive = archive
        self.map_location = map_location
        self.byteorder = byteorder
        self.raw = {}                          # key -> the record's bytes (uint8 array)
        self.storages = {}                     # (key, element type) -> storage

    def __call__(self, pid):
        if not (type(pid) is tuple and len(pid) == 5 and pid[0] in ("storage", b"storage")):
            raise CheckpointError(f"malformed checkpoint: a persistent id must be ('storage', type, key, "
                                  f"location, numel), not {pid!r}"[:200])
        _, storage_type, key, location, numel = pid
        if isinstance(storage_type, StorageType):
            element = storage_type.dtype.np
        elif storage_type is UntypedStorage:
            element = _UINT8
        else:
            raise CheckpointError(f"malformed checkpoint: {storage_type!r} is not a storage type"[:200])
        if not (isinstance(key, str) and isinstance(location, str) and type(numel) is int and numel >= 0):
            raise CheckpointError(f"malformed checkpoint: bad key, location or size in {pid!r}"[:200])
        if (key, element) not in self.storages:
            self.storages[key, element] = self._restore(self._cpu_storage(key, element, numel), location)
        return self.storages[key, element]

    def _cpu_storage(self, key, element, numel):
        record = f"data/{key}"
        if key not in self.raw:
            info = self.archive.records.get(record)
            if info is None:
                raise CheckpointError(f"malformed checkpoint: the archive has no record {record} for a storage")
            if info.file_size != numel * element.itemsize:          # checked before a byte is read
                raise CheckpointError(f"malformed checkpoint: record {record} holds {info.file_size} bytes, but "
                                      f"its storage claims {numel} elements of {element.itemsize} bytes")
            self.raw[key] = np.frombuffer(self.archive.read(record), dtype=np.uint8) \
                if self.archive.mmap is None else self.archive.read(record)
        raw = self.raw[key]
        if raw.size != numel * element.itemsize:
            raise CheckpointError(f"malformed checkpoint: storage {key} is read with two different sizes")
        if self.byteorder == sys.byteorder or element.itemsize == 1:
            flat = raw.view(element)                  # tensorlab's own dtype object: ops compare them with ``is``
        else:                                         # a big-endian file on a little-endian machine, or back
            flat = raw.view(element.newbyteorder(">" if self.byteorder == "big" else "<")).astype(element)
        return UntypedStorage(flat, as_device("cpu"))

    def _restore(self, storage, location):
        where = self.map_location
        if where is None or isinstance(where, (str, Device)):
            return _move(storage, location if where is None else where)
        if isinstance(where, dict):
            return _move(storage, where.get(location, location))
        if callable(where):
            moved = where(storage, location)
            if moved is None:
                return _move(storage, location)
            if not isinstance(moved, UntypedStorage):
                raise TypeError(f"map_location returned {type(moved).__name__}, not a storage")
            return moved
        raise TypeError(f"map_location should be a str, a device, a dict or a callable, not {type(where).__name__}")


def _move(storage, target):
    """``storage`` (on the CPU) on device ``target``; a CUDA target needs a GPU, as in PyTorch."""
    device = as_device(target)
    if device.type == "cpu":
        return storage
    from . import cuda
    if not cuda.is_available():
        raise RuntimeError(
            "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are "
            "running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map "
            "your storages to the CPU.")
    return UntypedStorage(for_device(device).asarray(storage._flat), device)
