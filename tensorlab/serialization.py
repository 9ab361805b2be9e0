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

**Sharing**: the same tensor object reached twice is written once and loads as one object. Distinct
tensors -- even two views of one storage -- are each written as their own (contiguous) data and load
as independent tensors.

**File layout, version 1** (all integers little-endian)::

    offset   size  field
    0        14    magic b"\x89TENSORLAB\r\n\x1a\n"  (PNG's trick: a non-ASCII first byte, and
                   CR LF / SUB / LF that betray a file mangled by a text-mode transfer)
    14       4     format version, uint32 (= 1)
    18       8     M: manifest length in bytes, uint64
    26       8     D: tensor-data length in bytes, uint64
    34       4     CRC32 of the manifest, uint32
    38       4     CRC32 of bytes 14..37 (the four fields above), uint32
    42       M     manifest: UTF-8 JSON
    42+M     D     tensor data: the blocks, one after another

The manifest is ``{"format": "tensorlab-checkpoint", "version": 1, "root": NODE, "blocks": [BLOCK]}``
where ``BLOCK = {"name": "fc.weight", "offset": 0, "nbytes": 48, "crc32": 12345}`` (offset within
the data section; name = the key path, for error messages) and ``NODE`` is one of::

    {"type": "none"}            {"type": "bool", "value": true}      {"type": "int", "value": 3}
    {"type": "float", "value": "0.1"}       (repr string: exact, and allows "inf" and "nan")
    {"type": "str", "value": "..."}         {"type": "dtype", "value": "float32"}
    {"type": "device", "value": "cuda:0"}   {"type": "size", "items": [2, 3]}
    {"type": "list" | "tuple", "items": [NODE, ...]}
    {"type": "dict" | "OrderedDict" | "Counter", "items": [[KEY_NODE, NODE], ...]} (+ "metadata": NODE)
    {"type": "tensor", "dtype": "float32", "shape": [2, 3], "device": "cpu", "requires_grad": false,
     "parameter": false, "block": 0}

A tensor's block holds its elements in row-major order as little-endian bytes (bool: one byte).

**Errors**: a file that does not start with the magic raises "not a tensorlab checkpoint"; a short
file "truncated checkpoint"; a damaged manifest or tensor "checksum mismatch" (naming the tensor);
a manifest that breaks the rules above "malformed checkpoint" -- all ``CheckpointError``, a
``RuntimeError``.

**Atomic saves**: saving to a path writes a temporary file in the same directory and then renames
it over the target (``os.replace``), so a crash mid-save leaves the previous checkpoint intact.
(Saving to an open file object writes straight into it.)
"""
import json
import os
import secrets
import struct
import zlib
from collections import Counter, OrderedDict

import numpy as np

from . import _dtype
from ._device import as_device, device as Device
from .tensor import Size, Tensor

__all__ = ["save", "load", "CheckpointError"]

MAGIC = b"\x89TENSORLAB\r\n\x1a\n"
VERSION = 1
_FIELDS = struct.Struct("<IQQI")          # version, manifest length, data length, manifest CRC32
_HEADER_CRC = struct.Struct("<I")
HEADER_SIZE = len(MAGIC) + _FIELDS.size + _HEADER_CRC.size
_DTYPES = {dt.name: dt for dt in _dtype.ALL}
_MAPPINGS = {dict: "dict", OrderedDict: "OrderedDict", Counter: "Counter"}
_CHUNK = 1 << 24


class CheckpointError(RuntimeError):
    """A file that is not a valid tensorlab checkpoint (wrong kind, truncated, corrupted, malformed)."""


# -- save ----------------------------------------------------------------------------------------


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write ``obj`` (e.g. ``model.state_dict()``) to ``f``: a path (str / PathLike) or a binary file.

    ``pickle_module`` and ``pickle_protocol`` are accepted for PyTorch compatibility and ignored:
    nothing is pickled.
    """
    encoder = _Encoder()
    root = encoder.node(obj, "")            # raises TypeError before any file is touched
    manifest, arrays = encoder.manifest(root)
    if isinstance(f, (str, os.PathLike)):
        _write_atomically(os.fspath(f), manifest, arrays)
    else:
        _write(f, manifest, arrays)


class _Encoder:
    """Turns an object tree into JSON nodes, collecting each tensor's bytes as a numbered block."""

    def __init__(self):
        self.arrays = []                  # (name, contiguous little-endian ndarray)
        self._block_of = {}               # id(tensor) -> block index: one tensor, one block
        self._keep = []                   # keep tensors alive so their ids stay unique
        self._open = set()                # containers being encoded (to refuse cycles)

    def node(self, obj, path):
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
            return self._container(obj, path)
        raise TypeError(
            f"tensorlab.save cannot save an object of type {type(obj).__name__} (at '{path or '<root>'}'): "
            "a checkpoint holds only tensors, numbers, strings, None, dtypes, devices and lists, tuples "
            "and dicts of them -- no pickle, so loading can never run code. To save a model, save "
            "model.state_dict().")

    def _container(self, obj, path):
        if id(obj) in self._open:
            raise ValueError(f"cannot save a container that contains itself (at '{path or '<root>'}')")
        self._open.add(id(obj))
        try:
            if type(obj) in (list, tuple):
                return {"type": type(obj).__name__,
                        "items": [self.node(v, _join(path, i)) for i, v in enumerate(obj)]}
            out = {"type": _MAPPINGS[type(obj)],
                   "items": [[self.node(k, path), self.node(v, _join(path, k))] for k, v in obj.items()]}
            metadata = getattr(obj, "_metadata", None)
            if metadata is not None:
                out["metadata"] = self.node(metadata, _join(path, "_metadata"))
            return out
        finally:
            self._open.discard(id(obj))

    def _tensor(self, t, path):
        index = self._block_of.get(id(t))
        if index is None:
            array = np.ascontiguousarray(t.detach().cpu().numpy())
            array = array.astype(array.dtype.newbyteorder("<"), copy=False)
            index = len(self.arrays)
            self.arrays.append((path or "<root>", array))
            self._block_of[id(t)] = index
            self._keep.append(t)
        return {"type": "tensor", "dtype": t.dtype.name, "shape": list(t.shape), "device": str(t.device),
                "requires_grad": bool(t.requires_grad), "parameter": type(t).__name__ == "Parameter",
                "block": index}

    def manifest(self, root):
        blocks, offset = [], 0
        for name, array in self.arrays:
            blocks.append({"name": name, "offset": offset, "nbytes": array.nbytes,
                           "crc32": zlib.crc32(array) if array.nbytes else 0})
            offset += array.nbytes
        doc = {"format": "tensorlab-checkpoint", "version": VERSION, "root": root, "blocks": blocks}
        return json.dumps(doc, separators=(",", ":")).encode("utf-8"), [a for _, a in self.arrays]


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


def _write_atomically(path, manifest, arrays):
    """Write to a temporary file beside ``path``, flush it to disk, then rename it over ``path``."""
    directory = os.path.dirname(path)
    if not os.path.isdir(directory or "."):
        raise RuntimeError(f"Parent directory {directory} does not exist.")
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            _write(f, manifest, arrays)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# -- load ----------------------------------------------------------------------------------------


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read a checkpoint written by ``save`` from a path or a binary file object.

    ``map_location`` moves the tensors: a device or string (``'cpu'``), a dict from saved location to
    new location (``{'cuda:0': 'cpu'}``), or a callable ``fn(tensor, saved_location)`` returning the
    tensor to use (or ``None`` to keep the saved location). ``weights_only`` is accepted for PyTorch
    compatibility: loading is always data-only here.
    """
    if isinstance(f, (str, os.PathLike)):
        with open(os.fspath(f), "rb") as file:
            obj = _Reader(file, map_location).read()
            if file.read(1):
                raise CheckpointError("malformed checkpoint: unexpected bytes after the end of the tensor data")
            return obj
    return _Reader(f, map_location).read()


class _Reader:
    """Reads and checks one checkpoint: header, manifest, then each tensor block."""

    def __init__(self, f, map_location):
        self.f = f
        self.map_location = map_location
        self._tensors = {}                 # block index -> loaded tensor (shared references)

    def read(self):
        manifest_nbytes, data_nbytes, manifest_crc = self._header()
        manifest = self._exact(manifest_nbytes, "the manifest")
        if zlib.crc32(manifest) != manifest_crc:
            raise CheckpointError("checksum mismatch in the checkpoint manifest: the file is corrupted")
        doc = _parse_json(manifest)
        self.blocks = _check_blocks(doc.get("blocks"), data_nbytes)
        self.data = [self._block(b) for b in self.blocks]
        try:
            return self._decode(doc.get("root"))
        except RecursionError:
            raise CheckpointError("malformed checkpoint: the object tree is nested too deeply") from None

    def _header(self):
        head = self.f.read(HEADER_SIZE)
        if len(head) < len(MAGIC) or head[:len(MAGIC)] != MAGIC:
            hint = (" (it looks like a PyTorch zip/pickle checkpoint, which tensorlab does not read: "
                    "pickles can run code)" if head[:2] == b"PK" or head[:1] == b"\x80" else "")
            raise CheckpointError(f"not a tensorlab checkpoint: the file does not start with the tensorlab "
                                  f"magic bytes{hint}")
        if len(head) < HEADER_SIZE:
            raise CheckpointError("truncated checkpoint: the header is incomplete")
        fields = head[len(MAGIC):len(MAGIC) + _FIELDS.size]
        (header_crc,) = _HEADER_CRC.unpack(head[-_HEADER_CRC.size:])
        if zlib.crc32(fields) != header_crc:
            raise CheckpointError("checksum mismatch in the checkpoint header: the file is corrupted")
        version, manifest_nbytes, data_nbytes, manifest_crc = _FIELDS.unpack(fields)
        if version != VERSION:
            raise CheckpointError(f"unsupported checkpoint format version {version} (this tensorlab reads "
                                  f"version {VERSION})")
        return manifest_nbytes, data_nbytes, manifest_crc

    def _exact(self, n, what):
        """Read exactly ``n`` bytes (in chunks, so a bad length cannot allocate a huge buffer)."""
        out = bytearray()
        while len(out) < n:
            chunk = self.f.read(min(_CHUNK, n - len(out)))
            if not chunk:
                raise CheckpointError(f"truncated checkpoint: {what} ends after {len(out)} of {n} bytes")
            out += chunk
        return out

    def _block(self, block):
        data = self._exact(block["nbytes"], f"the data of tensor '{block['name']}'")
        if (zlib.crc32(data) if data else 0) != block["crc32"]:
            raise CheckpointError(f"checksum mismatch for tensor '{block['name']}': the file is corrupted")
        return data

    def _decode(self, node):
        kind = node.get("type") if isinstance(node, dict) else None
        if kind in _SCALARS:
            return _scalar(kind, node)
        if kind == "size":
            return Size(_int_list(node.get("items"), "size"))
        if kind in ("list", "tuple"):
            items = [self._decode(n) for n in _list(node.get("items"), kind)]
            return items if kind == "list" else tuple(items)
        if kind in ("dict", "OrderedDict", "Counter"):
            return self._mapping(node, kind)
        if kind == "tensor":
            return self._tensor(node)
        raise CheckpointError(f"malformed checkpoint: unknown node {str(node)[:80]!r}")

    def _mapping(self, node, kind):
        out = {"dict": dict, "OrderedDict": OrderedDict, "Counter": Counter}[kind]()
        for pair in _list(node.get("items"), kind):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise CheckpointError(f"malformed checkpoint: a {kind} item must be a [key, value] pair")
            key = self._decode(pair[0])
            try:
                out[key] = self._decode(pair[1])
            except TypeError:
                raise CheckpointError(f"malformed checkpoint: unhashable {kind} key") from None
        if "metadata" in node:
            if kind != "OrderedDict":
                raise CheckpointError("malformed checkpoint: only an OrderedDict carries metadata")
            out._metadata = self._decode(node["metadata"])
        return out

    def _tensor(self, node):
        index = node.get("block")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.blocks):
            raise CheckpointError("malformed checkpoint: a tensor refers to a missing data block")
        key = json.dumps(node, sort_keys=True)
        if index in self._tensors:
            seen_key, tensor = self._tensors[index]
            if seen_key != key:
                raise CheckpointError("malformed checkpoint: one data block is read as two different tensors")
            return tensor
        tensor = _make_tensor(node, self.data[index], self.blocks[index]["name"], self.map_location)
        self._tensors[index] = (key, tensor)
        return tensor


def _parse_json(manifest):
    try:
        doc = json.loads(bytes(manifest).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise CheckpointError(f"malformed checkpoint: the manifest is not valid JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != "tensorlab-checkpoint" or doc.get("version") != VERSION:
        raise CheckpointError("malformed checkpoint: the manifest does not describe a tensorlab checkpoint")
    return doc


def _check_blocks(blocks, data_nbytes):
    """Blocks must lie back to back from offset 0 and fill the data section exactly."""
    offset = 0
    for block in _list(blocks, "blocks"):
        ok = isinstance(block, dict) and isinstance(block.get("name"), str) and all(
            type(block.get(k)) is int for k in ("offset", "nbytes", "crc32"))
        if not ok or block["offset"] != offset or block["nbytes"] < 0:
            raise CheckpointError("malformed checkpoint: bad data block description")
        offset += block["nbytes"]
    if offset != data_nbytes:
        raise CheckpointError("malformed checkpoint: the data blocks do not add up to the data length")
    return blocks


def _list(value, what):
    if not isinstance(value, list):
        raise CheckpointError(f"malformed checkpoint: {what} needs a list of items")
    return value


def _int_list(value, what):
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in _list(value, what)):
        raise CheckpointError(f"malformed checkpoint: {what} must be non-negative integers")
    return value


_SCALARS = ("none", "bool", "int", "float", "str", "dtype", "device")


def _scalar(kind, node):
    """Decode a leaf node, checking that its value has the documented JSON type."""
    value = node.get("value")
    is_text = isinstance(value, str)
    valid = {"none": True, "bool": type(value) is bool, "int": type(value) is int, "str": is_text,
             "float": is_text and len(value) < 64 and _parses(float, value),
             "dtype": is_text and value in _DTYPES, "device": is_text and _parses(Device, value)}[kind]
    if not valid:
        raise CheckpointError(f"malformed checkpoint: bad {kind} value {str(value)[:40]!r}")
    convert = {"none": lambda v: None, "float": float, "dtype": _DTYPES.get, "device": Device}
    return convert.get(kind, lambda v: v)(value)


def _parses(parse, text):
    try:
        parse(text)
        return True
    except (ValueError, RuntimeError):
        return False


def _make_tensor(node, data, name, map_location):
    from .ops.creation import from_numpy
    dt = _DTYPES.get(node.get("dtype")) if isinstance(node.get("dtype"), str) else None
    shape = _int_list(node.get("shape"), "a tensor shape")
    saved = node.get("device", "cpu")
    if dt is None or not isinstance(saved, str) or not _parses(Device, saved):
        raise CheckpointError(f"malformed checkpoint: bad dtype or device for tensor '{name}'")
    if int(np.prod(shape, dtype=np.int64)) * dt.itemsize != len(data):
        raise CheckpointError(f"malformed checkpoint: the shape of tensor '{name}' does not match its data")
    array = np.frombuffer(data, dtype=dt.np.newbyteorder("<")).astype(dt.np, copy=False).reshape(shape)
    tensor = _place(from_numpy(array), saved, map_location)
    if node.get("requires_grad") is True and dt.is_floating_point:
        tensor.requires_grad_(True)
    if node.get("parameter") is True:
        from .nn import Parameter
        tensor = Parameter(tensor, requires_grad=tensor.requires_grad)
    return tensor


def _place(tensor, saved, map_location):
    """Move a freshly read (CPU) tensor where ``map_location`` says, or back to its saved device."""
    if callable(map_location) and not isinstance(map_location, (str, Device, dict)):
        moved = map_location(tensor, saved)
        if moved is not None:
            return moved
        target = saved
    elif isinstance(map_location, dict):
        target = map_location.get(saved, saved)
    else:
        target = saved if map_location is None else map_location
    target = as_device(target)
    if target.type == "cuda":
        from . import cuda
        if not cuda.is_available():
            raise RuntimeError(
                "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
                "If you are running on a CPU-only machine, please use torch.load with "
                "map_location=torch.device('cpu') to map your storages to the CPU.")
    return tensor if target.type == "cpu" else tensor.to(target)
