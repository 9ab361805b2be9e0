r"""Reading checkpoints of older tensorlab versions: a JSON manifest and raw bytes, checked before trusted.

Before tensorlab wrote PyTorch's format (tensorlab/serialization.py), ``tensorlab.save`` wrote this
one, which ``load`` still reads (it recognises the magic bytes). All integers are little-endian::

    offset   size  field
    0        14    magic b"\x89TENSORLAB\r\n\x1a\n"
    14       4     format version, uint32 (1 or 2)
    18       8     M: manifest length in bytes, uint64
    26       8     D: tensor-data length in bytes, uint64
    34       4     CRC32 of the manifest, uint32
    38       4     CRC32 of bytes 14..37 (the four fields above), uint32
    42       M     manifest: UTF-8 JSON
    42+M     D     tensor data: the blocks, one after another

The manifest is ``{"format": "tensorlab-checkpoint", "version": 2, "root": NODE, "blocks": [BLOCK]}``
where ``BLOCK = {"name": "fc.weight", "offset": 0, "nbytes": 48, "crc32": 12345}`` and ``NODE`` is one
of ``{"type": "none" | "bool" | "int" | "float" | "str" | "dtype" | "device", "value": ...}``,
``{"type": "size" | "list" | "tuple", "items": [...]}``, ``{"type": "dict" | "OrderedDict" | "Counter",
"items": [[KEY, VALUE], ...]}`` (+ ``"metadata"``) or ``{"type": "tensor", "tensor": 0, "dtype":
"float32", "shape": [2, 3], "stride": [3, 1], "storage_offset": 0, "device": "cpu", "requires_grad":
false, "parameter": false, "block": 0}``. Version 1 files have no ``tensor``, ``stride`` or
``storage_offset`` (each block is one contiguous tensor).

A checkpoint may come from anywhere, so the reader treats it as hostile: every length is checked
against the bytes really present (a header claiming a terabyte allocates nothing), every field
against its documented type and range (a shape whose element count overflows, a view reaching past
its storage), and every failure is a ``CheckpointError`` saying what was wrong -- never a NumPy
error, a RecursionError or a crash.
"""
import json
import re
import struct
import zlib
from collections import Counter, OrderedDict

import numpy as np

from . import _dtype, _layout
from ._device import as_device, device as Device
from .backend import for_device
from .storage import UntypedStorage
from .tensor import Size, Tensor

MAGIC = b"\x89TENSORLAB\r\n\x1a\n"
VERSION = 2
READABLE_VERSIONS = (1, 2)
FIELDS = struct.Struct("<IQQI")           # version, manifest length, data length, manifest CRC32
HEADER_CRC = struct.Struct("<I")
HEADER_SIZE = len(MAGIC) + FIELDS.size + HEADER_CRC.size
MAX_DEPTH = 100                           # containers inside containers, in the saved object tree
MAX_DIMS = 64                             # PyTorch's limit on a tensor's number of dimensions
_INT64_MAX = 2 ** 63 - 1
_DTYPES = {dt.name: dt for dt in _dtype.ALL}
_CHUNK = 1 << 24


class CheckpointError(RuntimeError):
    """A file that is not a valid checkpoint (wrong kind, truncated, corrupted, malformed) -- of either format."""


class Reader:
    """Reads and checks one checkpoint: header, manifest, then each data block."""

    def __init__(self, f, map_location):
        self.f = f
        self.map_location = map_location
        self._tensors = {}                 # tensor id in the file -> (its node, the loaded tensor)
        self._storages = {}                # (block, dtype, device) -> UntypedStorage shared by views

    def read(self):
        manifest_nbytes, data_nbytes, manifest_crc = self._header()
        manifest = self._exact(manifest_nbytes, "the manifest")
        if zlib.crc32(manifest) != manifest_crc:
            raise CheckpointError("checksum mismatch in the checkpoint manifest: the file is corrupted")
        doc = _parse_json(manifest, self.version)
        self.blocks = _check_blocks(doc.get("blocks"), data_nbytes)
        self.data = [self._block(b) for b in self.blocks]
        return self._decode(doc.get("root"), 0)

    def _header(self):
        head = self.f.read(HEADER_SIZE)
        if len(head) < len(MAGIC) or head[:len(MAGIC)] != MAGIC:
            raise CheckpointError("not a tensorlab checkpoint: the file does not start with the tensorlab "
                                  "magic bytes")
        if len(head) < HEADER_SIZE:
            raise CheckpointError("truncated checkpoint: the header is incomplete")
        fields = head[len(MAGIC):len(MAGIC) + FIELDS.size]
        (header_crc,) = HEADER_CRC.unpack(head[-HEADER_CRC.size:])
        if zlib.crc32(fields) != header_crc:
            raise CheckpointError("checksum mismatch in the checkpoint header: the file is corrupted")
        self.version, manifest_nbytes, data_nbytes, manifest_crc = FIELDS.unpack(fields)
        if self.version not in READABLE_VERSIONS:
            raise CheckpointError(f"unsupported checkpoint format version {self.version} (this tensorlab "
                                  f"reads versions {', '.join(map(str, READABLE_VERSIONS))})")
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

    def _decode(self, node, depth):
        if depth > MAX_DEPTH:
            raise CheckpointError(f"malformed checkpoint: the object tree is nested more than {MAX_DEPTH} "
                                  "levels deep")
        kind = node.get("type") if isinstance(node, dict) else None
        if kind in _SCALARS:
            return _scalar(kind, node)
        if kind == "size":
            return Size(_int_list(node.get("items"), "size"))
        if kind in ("list", "tuple"):
            items = [self._decode(n, depth + 1) for n in _list(node.get("items"), kind)]
            return items if kind == "list" else tuple(items)
        if kind in ("dict", "OrderedDict", "Counter"):
            return self._mapping(node, kind, depth)
        if kind == "tensor":
            return self._tensor(node)
        raise CheckpointError(f"malformed checkpoint: unknown node {str(node)[:80]!r}")

    def _mapping(self, node, kind, depth):
        out = {"dict": dict, "OrderedDict": OrderedDict, "Counter": Counter}[kind]()
        for pair in _list(node.get("items"), kind):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise CheckpointError(f"malformed checkpoint: a {kind} item must be a [key, value] pair")
            key = self._decode(pair[0], depth + 1)
            try:
                out[key] = self._decode(pair[1], depth + 1)
            except TypeError:
                raise CheckpointError(f"malformed checkpoint: unhashable {kind} key") from None
        if "metadata" in node:
            if kind != "OrderedDict":
                raise CheckpointError("malformed checkpoint: only an OrderedDict carries metadata")
            out._metadata = self._decode(node["metadata"], depth + 1)
        return out

    # -- tensors: a view (offset, shape, strides) onto a block read as a storage ----------------------

    def _tensor(self, node):
        index = node.get("block")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.blocks):
            raise CheckpointError("malformed checkpoint: a tensor refers to a missing data block")
        key = node.get("tensor", ("block", index)) if self.version > 1 else ("block", index)
        if not isinstance(key, (int, tuple)) or isinstance(key, bool):
            raise CheckpointError("malformed checkpoint: a tensor's id must be an integer")
        if key in self._tensors:
            seen, tensor = self._tensors[key]
            if seen != node:
                raise CheckpointError("malformed checkpoint: one saved tensor is described in two different ways")
            return tensor
        tensor = self._make_tensor(node, index)
        self._tensors[key] = (node, tensor)
        return tensor

    def _make_tensor(self, node, index):
        name = self.blocks[index]["name"]
        dt = _DTYPES.get(node.get("dtype")) if isinstance(node.get("dtype"), str) else None
        saved = node.get("device", "cpu")
        if dt is None or not isinstance(saved, str) or not _parses(Device, saved):
            raise CheckpointError(f"malformed checkpoint: bad dtype or device for tensor '{name}'")
        nbytes = len(self.data[index])
        if nbytes % dt.itemsize:
            raise CheckpointError(f"malformed checkpoint: the data of tensor '{name}' is not a whole number "
                                  f"of {dt.name} elements")
        offset, shape, strides = _geometry(node, name, nbytes // dt.itemsize, self.version)
        callable_location = callable(self.map_location) and not isinstance(self.map_location, (str, Device, dict))
        device = as_device("cpu" if callable_location else _target(saved, self.map_location))
        storage = self._storage(index, dt, device)
        tensor = object.__new__(Tensor)
        array = for_device(device).strided_view(storage._flat, offset, shape, strides)
        tensor._init(storage, offset, shape, strides, array)
        if callable_location:
            moved = self.map_location(tensor, saved)
            tensor = moved if moved is not None else _move(tensor, saved)
        if node.get("requires_grad") is True and dt.is_floating_point:
            tensor.requires_grad_(True)
        if node.get("parameter") is True:
            from .nn import Parameter
            tensor = Parameter(tensor, requires_grad=tensor.requires_grad)
        return tensor

    def _storage(self, index, dt, device):
        """One storage per block (and device): tensors saved as views of one storage stay views of one."""
        for (i, other, _), _storage in self._storages.items():
            if i == index and other is not dt:
                raise CheckpointError("malformed checkpoint: one data block is read as two different dtypes")
        key = (index, dt, device)
        if key not in self._storages:
            flat = np.frombuffer(self.data[index], dtype=dt.np.newbyteorder("<")).astype(dt.np, copy=False)
            flat = for_device(device).asarray(flat) if device.type != "cpu" else flat
            self._storages[key] = UntypedStorage(flat, device)
        return self._storages[key]


def _geometry(node, name, storage_numel, version):
    """(storage offset, shape, strides) of a tensor node, checked to stay inside its storage."""
    shape = _int_list(node.get("shape"), "a tensor shape")
    if len(shape) > MAX_DIMS:
        raise CheckpointError(f"malformed checkpoint: tensor '{name}' has {len(shape)} dimensions "
                              f"(at most {MAX_DIMS} are allowed)")
    numel = 1
    for n in shape:
        numel *= n
        if n > _INT64_MAX or numel > _INT64_MAX:
            raise CheckpointError(f"malformed checkpoint: the shape of tensor '{name}' has more elements "
                                  "than an int64 can count")
    if version == 1:                       # version 1: each tensor is its own contiguous block
        if numel != storage_numel:
            raise CheckpointError(f"malformed checkpoint: the shape of tensor '{name}' does not match its data")
        return 0, tuple(shape), _layout.contiguous_strides(tuple(shape))
    strides = _int_list(node.get("stride"), "a tensor's strides")
    offset = node.get("storage_offset")
    if len(strides) != len(shape) or type(offset) is not int or offset < 0:
        raise CheckpointError(f"malformed checkpoint: bad strides or storage offset for tensor '{name}'")
    last = offset + sum((n - 1) * s for n, s in zip(shape, strides)) if numel else offset - 1
    if offset > storage_numel or last >= storage_numel:
        raise CheckpointError(f"malformed checkpoint: tensor '{name}' reaches past the end of its data")
    return offset, tuple(shape), tuple(strides)


def _parse_json(manifest, version):
    text = bytes(manifest).decode("utf-8", errors="replace")
    depth = _json_depth(text)
    if depth > 3 * MAX_DEPTH + 4:          # a container is 2 or 3 JSON levels: refuse before parsing
        raise CheckpointError(f"malformed checkpoint: the object tree is nested {depth} JSON levels deep "
                              f"(more than {MAX_DEPTH} containers inside each other)")
    try:
        doc = json.loads(bytes(manifest).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise CheckpointError(f"malformed checkpoint: the manifest is not valid JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != "tensorlab-checkpoint" or doc.get("version") != version:
        raise CheckpointError("malformed checkpoint: the manifest does not describe a tensorlab checkpoint")
    return doc


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _json_depth(text):
    """How deeply the brackets of a JSON text nest (strings removed first, their brackets do not count)."""
    brackets = np.frombuffer(_JSON_STRING.sub("", text).encode("utf-8", "replace"), dtype=np.uint8)
    steps = (np.isin(brackets, (ord("["), ord("{"))).astype(np.int64)
             - np.isin(brackets, (ord("]"), ord("}"))).astype(np.int64))
    return int(np.cumsum(steps).max(initial=0))


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


def _target(saved, map_location):
    """Where ``map_location`` (a device, a string, a dict or None) sends a tensor saved on ``saved``."""
    if isinstance(map_location, dict):
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
    return target


def _move(tensor, saved):
    """A callable ``map_location`` returned None: the tensor goes back to the device it was saved on."""
    target = _target(saved, None)
    return tensor if target.type == "cpu" else tensor.to(target)
