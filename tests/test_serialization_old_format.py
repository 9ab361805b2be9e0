"""Checkpoints of older tensorlab versions (a JSON manifest + raw bytes) still load, with every check.

``tensorlab.save`` now writes PyTorch's zip format (tests/test_serialization.py); these files are
written by hand from the format described in tensorlab/_checkpoint_reader.py."""
import io
import json
import struct
import tracemalloc
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.serialization import CheckpointError

MAGIC = b"\x89TENSORLAB\r\n\x1a\n"


def _craft(root, data=b"", blocks=None, version=1):
    """A checkpoint written by hand from this test's reading of the documented format."""
    if blocks is None:
        blocks = [{"name": "x", "offset": 0, "nbytes": len(data), "crc32": zlib.crc32(data)}] if data else []
    manifest = json.dumps({"format": "tensorlab-checkpoint", "version": version, "root": "ROOT",
                           "blocks": blocks}).encode()
    root_json = root if isinstance(root, bytes) else json.dumps(root).encode()
    manifest = manifest.replace(b'"ROOT"', root_json)
    fields = struct.pack("<IQQI", version, len(manifest), len(data), zlib.crc32(manifest))
    return MAGIC + fields + struct.pack("<I", zlib.crc32(fields)) + manifest + data


def _tensor_node(**fields):
    node = {"type": "tensor", "tensor": 0, "dtype": "float32", "shape": [2], "stride": [1], "storage_offset": 0,
            "device": "cpu", "requires_grad": False, "parameter": False, "block": 0}
    node.update(fields)
    return node


def _state_dict_file():
    """A version-2 file as the old ``tensorlab.save(OrderedDict(fc.weight=..., fc.bias=...))`` wrote it."""
    weight, bias = np.arange(6, dtype="<f4").tobytes(), np.array([0.5, -1.0], "<f4").tobytes()
    blocks = [{"name": "fc.weight", "offset": 0, "nbytes": 24, "crc32": zlib.crc32(weight)},
              {"name": "fc.bias", "offset": 24, "nbytes": 8, "crc32": zlib.crc32(bias)}]
    root = {"type": "OrderedDict", "items": [
        [{"type": "str", "value": "fc.weight"}, _tensor_node(shape=[2, 3], stride=[3, 1])],
        [{"type": "str", "value": "fc.bias"}, _tensor_node(tensor=1, block=1, parameter=True, requires_grad=True)]],
        "metadata": {"type": "dict", "items": []}}
    return _craft(root, weight + bias, blocks, version=2)


def test_a_version_2_state_dict_loads(tmp_path):
    path = tmp_path / "old.pth"
    path.write_bytes(_state_dict_file())
    out = tensorlab.load(path)
    assert list(out) == ["fc.weight", "fc.bias"] and out._metadata == {}
    assert out["fc.weight"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert type(out["fc.bias"]) is tensorlab.nn.Parameter and out["fc.bias"].requires_grad
    with pytest.raises(RuntimeError, match="mmap can only be used with files saved with"):
        tensorlab.load(path, mmap=True)


def test_version_1_files_still_load():
    data = np.arange(6, dtype="<f4").tobytes()
    node = {"type": "tensor", "dtype": "float32", "shape": [2, 3], "device": "cpu", "requires_grad": True,
            "parameter": False, "block": 0}
    out = tensorlab.load(io.BytesIO(_craft({"type": "list", "items": [node, node]}, data, version=1)))
    assert out[0] is out[1] and out[0].stride() == (3, 1) and out[0].requires_grad
    assert out[0].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_views_of_one_block_share_a_storage():
    data = np.arange(6, dtype="<f4").tobytes()
    nodes = [_tensor_node(shape=[2, 3], stride=[3, 1]), _tensor_node(tensor=1, shape=[3, 2], stride=[1, 3])]
    a, b = tensorlab.load(io.BytesIO(_craft({"type": "list", "items": nodes}, data, version=2)))
    a.fill_(7.0)
    assert b.tolist() == [[7.0, 7.0]] * 3


def test_every_truncation_is_reported():
    raw = _state_dict_file()
    for cut in range(len(raw)):
        with pytest.raises(CheckpointError, match="truncated|not a checkpoint|not a tensorlab checkpoint"):
            tensorlab.load(io.BytesIO(raw[:cut]))


def test_extra_bytes_after_a_file_checkpoint(tmp_path):
    path = tmp_path / "x.pth"
    path.write_bytes(_state_dict_file() + b"junk")
    with pytest.raises(CheckpointError, match="unexpected bytes after the end"):
        tensorlab.load(path)


def test_corrupted_tensor_is_named():
    raw = bytearray(_state_dict_file())
    raw[-9] ^= 0x01                                    # inside fc.weight's block (fc.bias is the last 8 bytes)
    with pytest.raises(CheckpointError, match="checksum mismatch for tensor 'fc.weight'"):
        tensorlab.load(io.BytesIO(bytes(raw)))


def test_corrupted_manifest_and_header():
    raw = _state_dict_file()
    manifest = bytearray(raw)
    manifest[50] ^= 0x20
    with pytest.raises(CheckpointError, match="checksum mismatch in the checkpoint manifest"):
        tensorlab.load(io.BytesIO(bytes(manifest)))
    header = bytearray(raw)
    header[20] ^= 0x01
    with pytest.raises(CheckpointError, match="checksum mismatch in the checkpoint header"):
        tensorlab.load(io.BytesIO(bytes(header)))


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_any_single_byte_change_is_detected(data):
    raw = _state_dict_file()
    i = data.draw(st.integers(0, len(raw) - 1))
    changed = bytearray(raw)
    changed[i] ^= data.draw(st.integers(1, 255))
    with pytest.raises(CheckpointError):
        tensorlab.load(io.BytesIO(bytes(changed)))


def test_unsupported_version():
    with pytest.raises(CheckpointError, match="unsupported checkpoint format version 3"):
        tensorlab.load(io.BytesIO(_craft({"type": "none"}, version=3)))


@pytest.mark.parametrize("root,data", [
    ({"type": "builtins.eval", "value": "1+1"}, b""),
    ({"type": "tensor", "dtype": "object", "shape": [1], "block": 0}, bytes(8)),
    ({"type": "tensor", "dtype": "float32", "shape": [3], "block": 0}, bytes(8)),
    ({"type": "tensor", "dtype": "float32", "shape": [2], "block": 5}, bytes(8)),
    ({"type": "tensor", "dtype": "float32", "shape": [-2], "block": 0}, bytes(8)),
    ({"type": "int", "value": "7"}, b""),
    ({"type": "float", "value": "__import__('os')"}, b""),
    ({"type": "dict", "items": [[{"type": "list", "items": []}, {"type": "none"}]]}, b""),
    ({"type": "list", "items": {"a": 1}}, b""),
    ([1, 2], b""),
])
def test_malformed_manifests_are_rejected(root, data):
    with pytest.raises(CheckpointError, match="malformed checkpoint"):
        tensorlab.load(io.BytesIO(_craft(root, data)))


def test_hostile_manifests_give_checkpoint_errors_only():
    deep = b'{"type":"list","items":[' * 5000 + b'{"type":"none"}' + b"]}" * 5000
    hostile = [deep, {"type": "tensor", "dtype": ["float32"], "shape": [1], "block": 0},
               {"type": "dtype", "value": ["x"]}, {"type": "device", "value": "tpu:0"},
               {"type": "float", "value": "1" * 100}, {"type": "size", "items": [True]},
               {"type": "dict", "items": [[{"type": "int", "value": 1}]]},
               {"type": "list", "items": [{"type": "dict", "items": [], "metadata": {"type": "none"}}]}]
    for root in hostile:
        with pytest.raises(CheckpointError, match="malformed checkpoint"):
            tensorlab.load(io.BytesIO(_craft(root, bytes(4))))


def test_two_nodes_cannot_read_one_block_differently():
    node = {"type": "tensor", "dtype": "float32", "shape": [2], "device": "cpu", "requires_grad": False,
            "parameter": False, "block": 0}
    other = dict(node, dtype="int32")
    with pytest.raises(CheckpointError, match="one saved tensor is described in two different ways"):
        tensorlab.load(io.BytesIO(_craft({"type": "list", "items": [node, other]}, bytes(8))))
    node = dict(node, tensor=0, stride=[1], storage_offset=0)
    with pytest.raises(CheckpointError, match="one data block is read as two different dtypes"):
        tensorlab.load(io.BytesIO(_craft({"type": "list", "items": [node, dict(other, tensor=1, stride=[1],
                                                                                storage_offset=0)]},
                                         bytes(8), version=2)))


@pytest.mark.parametrize("fields,phrase", [
    ({"shape": [2 ** 62, 4], "stride": [0, 0]}, "more elements than an int64"),
    ({"shape": [2 ** 100], "stride": [0]}, "more elements than an int64"),
    ({"shape": [1] * 65, "stride": [1] * 65}, "65 dimensions"),
    ({"storage_offset": -1}, "bad strides or storage offset"),
    ({"storage_offset": 2}, "reaches past the end"),
    ({"stride": [5]}, "reaches past the end"),
    ({"stride": [-1]}, "must be non-negative integers"),
    ({"tensor": "a"}, "id must be an integer"),
    ({"dtype": "float64"}, "not a whole number of float64 elements"),
])
def test_absurd_tensor_headers_are_checkpoint_errors(fields, phrase):
    """Valid checksums, impossible geometry: refused with a CheckpointError, allocating nothing big."""
    raw = _craft(_tensor_node(**fields), bytes(12), version=2)
    tracemalloc.start()
    try:
        with pytest.raises(CheckpointError, match=f"malformed checkpoint.*{phrase}"):
            tensorlab.load(io.BytesIO(raw))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_a_header_claiming_a_terabyte_allocates_nothing():
    fields = struct.pack("<IQQI", 2, 1 << 40, 0, 0)
    raw = MAGIC + fields + struct.pack("<I", zlib.crc32(fields)) + b"{}"
    tracemalloc.start()
    try:
        with pytest.raises(CheckpointError, match="truncated checkpoint"):
            tensorlab.load(io.BytesIO(raw))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 25
