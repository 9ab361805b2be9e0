r"""Checkpoints: ``tensorlab.save(obj, f)`` and ``tensorlab.load(f)`` -- a safe, documented file format.

PyTorch's ``.pth`` files are pickles: loading one may run any code its author chose (which is why
PyTorch added ``weights_only=True``). A checkpoint only needs *data*, so tensorlab writes a format
that holds data and nothing else: a JSON description of the object tree plus the raw bytes of the
tensors. Loading parses JSON and copies bytes; it never imports, calls or evaluates anything named
in the file. See course/19_saving_and_loading.

**What can be saved**: tensors (and ``nn.Parameter``), ``None``, ``bool``, ``int``, ``float``,
``str``, ``tensorlab.Size``, dtypes, devices, and ``list``/``tuple``/``dict``/``OrderedDict``/
``Counter`` containers of these (dict keys too) -- everything a ``state_dict`` of a model, optimizer
or lr scheduler holds. NumPy scalars are saved as the matching Python number. An ``OrderedDict``'s
order and its ``_metadata`` attribute are kept. Other objects (a whole ``nn.Module``, a NumPy array,
a lambda) raise ``TypeError``: save ``state_dict()`` instead.

**Sharing**: tensors are saved by their *storage*, as PyTorch does. The same tensor object reached
twice is written once and loads as one object; two views of one storage (``w`` and ``w.t()``, a
slice and its base) are written as one block of data and load as two views of one new storage, so
a write through one is seen by the other. Only the part of a storage that the saved tensors reach
is written: ``zeros(1).expand(2**27)`` takes 4 bytes of data, and a small slice of a huge tensor
does not drag the whole tensor along. Strides are kept (a transposed weight loads transposed).

**File layout, version 2** (all integers little-endian)::

    offset   size  field
    0        14    magic b"\x89TENSORLAB\r\n\x1a\n"  (PNG's trick: a non-ASCII first byte, and
                   CR LF / SUB / LF that betray a file mangled by a text-mode transfer)
    14       4     format version, uint32 (= 2)
    18       8     M: manifest length in bytes, uint64
    26       8     D: tensor-data length in bytes, uint64
    34       4     CRC32 of the manifest, uint32
    38       4     CRC32 of bytes 14..37 (the four fields above), uint32
    42       M     manifest: UTF-8 JSON
    42+M     D     tensor data: the blocks, one after another

The manifest is ``{"format": "tensorlab-checkpoint", "version": 2, "root": NODE, "blocks": [BLOCK]}``
where ``BLOCK = {"name": "fc.weight", "offset": 0, "nbytes": 48, "crc32": 12345}`` (offset within
the data section; name = the key path of the first tensor using it, for error messages) and
``NODE`` is one of::

    {"type": "none"}            {"type": "bool", "value": true}      {"type": "int", "value": 3}
    {"type": "float", "value": "0.1"}       (repr string: exact, and allows "inf" and "nan")
    {"type": "str", "value": "..."}         {"type": "dtype", "value": "float32"}
    {"type": "device", "value": "cuda:0"}   {"type": "size", "items": [2, 3]}
    {"type": "list" | "tuple", "items": [NODE, ...]}
    {"type": "dict" | "OrderedDict" | "Counter", "items": [[KEY_NODE, NODE], ...]} (+ "metadata": NODE)
    {"type": "tensor", "tensor": 0, "dtype": "float32", "shape": [2, 3], "stride": [3, 1],
     "storage_offset": 0, "device": "cpu", "requires_grad": false, "parameter": false, "block": 0}

A block holds a run of storage elements as little-endian bytes (bool: one byte); a tensor reads it
as a view: element ``(i, j)`` is block element ``storage_offset + i * stride[0] + j * stride[1]``,
and every element it reads must lie inside the block. ``"tensor"`` numbers the distinct tensors
(the same number twice is the same object). Version 1 files (no ``tensor``, ``stride`` or
``storage_offset``: each block one contiguous tensor) are still read.

**Errors**: a file that does not start with the magic raises "not a tensorlab checkpoint"; a short
file "truncated checkpoint"; a damaged manifest or tensor "checksum mismatch" (naming the tensor);
a manifest that breaks the rules above "malformed checkpoint" (including shapes of more than 64
dimensions or more elements than an int64 counts, and object trees nested more than 100 containers
deep) -- all ``CheckpointError``, a ``RuntimeError``; none allocates memory for what it refuses.

**Atomic saves**: saving to a path writes a temporary file in the same directory and then renames
it over the target (``os.replace``), so a crash mid-save leaves the previous checkpoint intact --
while keeping what a plain write would: a write-protected file is refused, permission bits are
kept, a symlink is written through; in a read-only directory a writable file is overwritten in
place (no crash-safety there). Temporary files of killed saves are removed by the next save to the
same path. See tensorlab/_safe_write.py. (Saving to an open file object writes straight into it.)
"""
import json
import os
import zlib
from collections import Counter, OrderedDict

import numpy as np

from . import _dtype
from ._checkpoint_reader import (HEADER_CRC as _HEADER_CRC, FIELDS as _FIELDS, HEADER_SIZE, MAGIC, MAX_DEPTH,
                                 VERSION, CheckpointError, Reader)
from ._device import device as Device
from ._safe_write import write_file
from .backend import for_device
from .tensor import Size, Tensor

__all__ = ["save", "load", "CheckpointError"]

_MAPPINGS = {dict: "dict", OrderedDict: "OrderedDict", Counter: "Counter"}


# -- save ----------------------------------------------------------------------------------------


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write ``obj`` (e.g. ``model.state_dict()``) to ``f``: a path (str / PathLike) or a binary file.

    ``pickle_module`` and ``pickle_protocol`` are accepted for PyTorch compatibility and ignored:
    nothing is pickled.
    """
    encoder = _Encoder()
    root = encoder.node(obj, "", 0)         # raises TypeError before any file is touched
    manifest, arrays = encoder.manifest(root)
    if isinstance(f, (str, os.PathLike)):
        write_file(os.fspath(f), lambda file: _write(file, manifest, arrays))
    else:
        _write(f, manifest, arrays)


class _Encoder:
    """Turns an object tree into JSON nodes, collecting the storages of its tensors as numbered blocks."""

    def __init__(self):
        self.blocks = []                  # [name, flat storage array, [(node, tensor) reading it]]
        self._block_of = {}               # (id(storage), dtype) -> block index: one storage, one block
        self._node_of = {}                # id(tensor) -> its node: one tensor, one node
        self._keep = []                   # keep tensors alive so their ids stay unique
        self._open = set()                # containers being encoded (to refuse cycles)

    def node(self, obj, path, depth):
        if obj is None:
            return {"type": "none"}
        if isinstance(obj, (bool, np.bool_)):
            return {"type": "bool", "value": bool(obj)}
        if isinstance(obj, (int, np.integer)):
            return {"type": "int", "value": int(obj)}
        if isinstance(obj, (float, np.floating)):
            return {"type": "float", "value": repr(float(obj))}
        if isinstance(obj, str):
            return {"type": "str", "value": obj}
        if isinstance(obj, Tensor):
            return self._tensor(obj, path)
        if isinstance(obj, _dtype.dtype):
            return {"type": "dtype", "value": obj.name}
        if isinstance(obj, Device):
            return {"type": "device", "value": str(obj)}
        if isinstance(obj, Size):
            return {"type": "size", "items": [int(s) for s in obj]}
        if type(obj) in (list, tuple) or type(obj) in _MAPPINGS:
            return self._container(obj, path, depth)
        raise TypeError(
            f"tensorlab.save cannot save an object of type {type(obj).__name__} (at '{path or '<root>'}'): "
            "a checkpoint holds only tensors, numbers, strings, None, dtypes, devices and lists, tuples "
            "and dicts of them -- no pickle, so loading can never run code. To save a model, save "
            "model.state_dict().")

    def _container(self, obj, path, depth):
        if id(obj) in self._open:
            raise ValueError(f"cannot save a container that contains itself (at '{path or '<root>'}')")
        if depth >= MAX_DEPTH:
            raise ValueError(f"cannot save containers nested more than {MAX_DEPTH} levels deep "
                             f"(at '{path or '<root>'}')")
        self._open.add(id(obj))
        try:
            if type(obj) in (list, tuple):
                return {"type": type(obj).__name__,
                        "items": [self.node(v, _join(path, i), depth + 1) for i, v in enumerate(obj)]}
            out = {"type": _MAPPINGS[type(obj)],
                   "items": [[self.node(k, path, depth + 1), self.node(v, _join(path, k), depth + 1)]
                             for k, v in obj.items()]}
            metadata = getattr(obj, "_metadata", None)
            if metadata is not None:
                out["metadata"] = self.node(metadata, _join(path, "_metadata"), depth + 1)
            return out
        finally:
            self._open.discard(id(obj))

    def _tensor(self, t, path):
        node = self._node_of.get(id(t))
        if node is not None:
            return node
        flat = t._storage._flat             # (its dtype is the tensor's: ``view(dtype)`` makes a new storage)
        key = (id(flat), t.dtype)
        if key not in self._block_of:
            self._block_of[key] = len(self.blocks)
            self.blocks.append((path or "<root>", flat, []))
        node = {"type": "tensor", "tensor": len(self._node_of), "dtype": t.dtype.name, "shape": list(t.shape),
                "stride": list(t.stride()), "storage_offset": None, "device": str(t.device),
                "requires_grad": bool(t.requires_grad), "parameter": type(t).__name__ == "Parameter",
                "block": self._block_of[key]}
        self.blocks[node["block"]][2].append((node, t))
        self._node_of[id(t)] = node
        self._keep.append(t)
        return node

    def manifest(self, root):
        """The manifest bytes and the block arrays. Each block is the span of its storage that its
        tensors reach; the tensors' storage offsets are counted from the start of that span."""
        blocks, arrays, offset = [], [], 0
        for name, flat, uses in self.blocks:
            lo, hi = _span(t for _, t in uses)
            for node, t in uses:
                node["storage_offset"] = t._offset - lo if t.numel() else 0
            array = for_device(uses[0][1].device).to_numpy(flat[lo:hi])
            array = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False)
            blocks.append({"name": name, "offset": offset, "nbytes": array.nbytes,
                           "crc32": zlib.crc32(array) if array.nbytes else 0})
            arrays.append(array)
            offset += array.nbytes
        doc = {"format": "tensorlab-checkpoint", "version": VERSION, "root": root, "blocks": blocks}
        return json.dumps(doc, separators=(",", ":")).encode("utf-8"), arrays


def _span(tensors):
    """[first, last + 1) of the storage elements that the (non-empty) ``tensors`` read."""
    reached = [(t._offset, t._offset + sum((n - 1) * s for n, s in zip(t._shape, t._stride)))
               for t in tensors if t.numel()]
    if not reached:
        return 0, 0
    return min(lo for lo, _ in reached), max(hi for _, hi in reached) + 1


def _join(path, key):
    return f"{path}.{key}" if path else str(key)


def _write(f, manifest, arrays):
    data_nbytes = sum(a.nbytes for a in arrays)
    fields = _FIELDS.pack(VERSION, len(manifest), data_nbytes, zlib.crc32(manifest))
    f.write(MAGIC + fields + _HEADER_CRC.pack(zlib.crc32(fields)))
    f.write(manifest)
    for array in arrays:
        _write_block(f, array)


def _write_block(f, array):
    if array.nbytes:
        f.write(memoryview(array.reshape(-1)).cast("B"))


# -- load ----------------------------------------------------------------------------------------


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read a checkpoint written by ``save`` from a path or a binary file object.

    ``map_location`` moves the tensors: a device or string (``'cpu'``), a dict from saved location to
    new location (``{'cuda:0': 'cpu'}``), or a callable ``fn(tensor, saved_location)`` returning the
    tensor to use (or ``None`` to keep the saved location). ``weights_only`` is accepted for PyTorch
    compatibility: loading is always data-only here. The checks are in tensorlab/_checkpoint_reader.py.
    """
    if isinstance(f, (str, os.PathLike)):
        with open(os.fspath(f), "rb") as file:
            obj = Reader(file, map_location).read()
            if file.read(1):
                raise CheckpointError("malformed checkpoint: unexpected bytes after the end of the tensor data")
            return obj
    return Reader(f, map_location).read()
