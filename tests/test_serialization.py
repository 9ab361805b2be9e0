"""tensorlab.save / tensorlab.load: exact round trips, a documented safe format, clear errors, atomic saves."""
import collections
import io
import json
import math
import os
import pickle
import stat
import subprocess
import sys
import struct
import tracemalloc
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab import serialization
from tensorlab.serialization import CheckpointError


def _round_trip(obj, **load_kwargs):
    buf = io.BytesIO()
    tensorlab.save(obj, buf)
    buf.seek(0)
    return tensorlab.load(buf, **load_kwargs)


def _checkpoint_bytes(obj):
    buf = io.BytesIO()
    tensorlab.save(obj, buf)
    return buf.getvalue()


def _assert_same_tensor(a, b):
    assert type(a) is type(b)
    assert a.dtype is b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def _random_array(rng, dtype, shape):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return rng.standard_normal(shape).astype(dtype)


# -- round trips -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", tensorlab._dtype.ALL, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3, 4), (3, 0, 2)])
def test_every_dtype_and_shape_round_trips_exactly(dt, shape, rng):
    t = tensorlab.from_numpy(_random_array(rng, dt.np, shape))
    out = _round_trip(t)
    _assert_same_tensor(t, out)
    assert out.is_contiguous() and not out.requires_grad


def test_loaded_tensors_are_independent_and_writable(rng):
    t = tensorlab.from_numpy(rng.standard_normal((3, 3)).astype(np.float32))
    out = _round_trip(t)
    before = t.numpy().copy()
    out.add_(1.0)
    np.testing.assert_array_equal(t.numpy(), before)
    np.testing.assert_allclose(out.numpy(), before + 1.0)


def test_special_floats_keep_their_bits():
    values = [0.0, -0.0, math.inf, -math.inf, 1e-310, 0.1, 2.0 ** 60]
    t = tensorlab.tensor(values + [math.nan], dtype=tensorlab.float64)
    out = _round_trip(t)
    assert out.numpy().tobytes() == t.numpy().tobytes()
    floats = _round_trip(values + [math.nan])
    assert [math.copysign(1, v) for v in floats[:7]] == [math.copysign(1, v) for v in values]
    assert floats[:7] == values and math.isnan(floats[7])


_VIEWS = [
    lambda lib, t: t.t(),
    lambda lib, t: t[::2, 1:],
    lambda lib, t: t[:, 2],
    lambda lib, t: t[1:3].transpose(0, 1),
    lambda lib, t: t[0].expand(3, 4),
    lambda lib, t: t.reshape(-1)[3:11].view(2, 4),
]


@pytest.mark.parametrize("make_view", _VIEWS)
def test_views_of_one_storage_load_as_views_of_one_storage(make_view, torch, rng):
    """As in PyTorch: saved together, a base and its view load sharing one storage, with the same
    strides and offsets -- a write through one is seen by the other."""
    values = rng.standard_normal((4, 4)).astype(np.float32)
    got, expected = [], []
    for lib, out in ((tensorlab, got), (torch, expected)):
        base = lib.from_numpy(values.copy())
        buf = io.BytesIO()
        lib.save({"view": make_view(lib, base), "base": base}, buf)
        buf.seek(0)
        out.append(lib.load(buf))
    got, expected = got[0], expected[0]
    for key in ("view", "base"):
        np.testing.assert_array_equal(got[key].numpy(), expected[key].numpy())
        assert got[key].stride() == expected[key].stride()
        assert got[key].storage_offset() == expected[key].storage_offset()
    assert got["view"].untyped_storage().data_ptr() == got["base"].untyped_storage().data_ptr()
    got["base"].fill_(7.0)
    assert np.all(got["view"].numpy() == 7.0)
    assert got["view"]._base is None and got["view"].is_leaf      # views of a storage, not autograd views


@pytest.mark.parametrize("make_view", _VIEWS)
def test_a_view_alone_writes_only_what_it_reaches(make_view, rng):
    base = tensorlab.from_numpy(rng.standard_normal((4, 4)).astype(np.float32))
    view = make_view(tensorlab, base)
    raw = _checkpoint_bytes(view)
    out = _round_trip(view)
    _assert_same_tensor(view, out)
    assert out.stride() == view.stride()
    (block,) = json.loads(_manifest_of(raw))["blocks"]
    reached = {view.storage_offset() + sum(i * s for i, s in zip(idx, view.stride()))
               for idx in np.ndindex(*view.shape)}
    assert block["nbytes"] == 4 * (max(reached) - min(reached) + 1)


def test_an_expanded_tensor_is_saved_by_its_storage(torch):
    big = tensorlab.zeros(1).expand(2 ** 27)
    raw = _checkpoint_bytes(big)
    buf = io.BytesIO()
    torch.save(torch.zeros(1).expand(2 ** 27), buf)
    assert len(raw) < len(buf.getvalue()) < 4096               # bytes, not the 512 MiB it would expand to
    out = tensorlab.load(io.BytesIO(raw))
    assert out.shape == (2 ** 27,) and out.stride() == (0,)
    assert out[12345].item() == 0.0


@pytest.mark.parametrize("shape", [(0, 3), (2, 0, 5), (0,)])
def test_empty_tensors_keep_their_strides(shape, torch):
    out = _round_trip(tensorlab.zeros(*shape))
    assert out.shape == shape and out.stride() == torch.zeros(*shape).stride()


def test_the_same_tensor_twice_loads_as_one_object():
    t = tensorlab.arange(6.0)
    out = _round_trip({"a": t, "b": [t, t]})
    assert out["a"] is out["b"][0] is out["b"][1]
    assert len(json.loads(_manifest_of(_checkpoint_bytes({"a": t, "b": t})))["blocks"]) == 1


def test_nested_python_values_round_trip():
    obj = {"none": None, "t": True, "f": False, "int": -7, "big": 2 ** 80, "float": 0.1, "str": "héllo ✓",
           "list": [1, [2, (3.5, "x")]], "tuple": (None,), "empty": ([], (), {}), 1: "int key", (1, 2): "tuple key",
           "size": tensorlab.Size([2, 3]), "dtype": tensorlab.float16, "device": tensorlab.device("cpu"),
           "counter": collections.Counter({3: 2, 5: 1}), 2.5: -1}
    out = _round_trip(obj)
    assert out == obj
    assert list(out) == list(obj)
    assert type(out["t"]) is bool and type(out["int"]) is int and type(out["tuple"]) is tuple
    assert type(out["size"]) is tensorlab.Size and type(out["counter"]) is collections.Counter
    assert out["dtype"] is tensorlab.float16


def test_ordered_dict_keeps_order_and_metadata():
    sd = collections.OrderedDict((k, tensorlab.full((2,), float(i))) for i, k in enumerate(["z.w", "a.b", "m"]))
    sd._metadata = {"": {"version": 1}, "fc": {"version": 2}}
    out = _round_trip(sd)
    assert type(out) is collections.OrderedDict and list(out) == ["z.w", "a.b", "m"]
    assert out._metadata == sd._metadata
    for k in sd:
        _assert_same_tensor(sd[k], out[k])


def test_requires_grad_is_kept():
    w = tensorlab.ones(3, requires_grad=True)
    out = _round_trip({"w": w, "x": tensorlab.ones(2)})
    assert out["w"].requires_grad and out["w"].is_leaf and not out["x"].requires_grad


def test_containers_round_trip_like_torch(torch):
    """Save and load the same structure in both libraries; the loaded types must agree."""
    def build(lib):
        od = collections.OrderedDict([("w", lib.zeros(2, 3)), ("n", lib.tensor(3))])
        return {"od": od, "tup": (1, 2.5, "s", None, True), "lst": [lib.ones(1, dtype=lib.float64)],
                "counter": collections.Counter([1, 1, 2]), "size": lib.zeros(4, 5).shape}

    th_buf = io.BytesIO()
    torch.save(build(torch), th_buf)
    th_buf.seek(0)
    expected = torch.load(th_buf)
    got = _round_trip(build(tensorlab))

    def describe(x):
        if isinstance(x, dict):
            return (type(x).__name__, [(k, describe(v)) for k, v in x.items()])
        if isinstance(x, (list, tuple)) and type(x).__name__ != "Size":
            return (type(x).__name__, [describe(v) for v in x])
        if hasattr(x, "dtype") and hasattr(x, "shape"):
            return ("tensor", str(x.dtype), tuple(x.shape), x.tolist())
        return (type(x).__name__ if type(x).__name__ != "Size" else "Size", x if not hasattr(x, "__len__") else tuple(x))

    assert describe(got) == describe(expected)


def test_optimizer_and_scheduler_state_dicts_round_trip(tmp_path):
    """Resume from a checkpoint on disk: the same trajectory as training without a break."""
    rng = np.random.default_rng(5)
    inits = [rng.standard_normal((3, 2)).astype(np.float32), rng.standard_normal(4).astype(np.float32)]
    grads = [[rng.standard_normal(a.shape).astype(np.float32) for a in inits] for _ in range(6)]

    def make(values):
        params = [tensorlab.tensor(v.copy(), requires_grad=True) for v in values]
        opt = tensorlab.optim.Adam(params, lr=0.01, amsgrad=True)
        return params, opt, tensorlab.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4, 4], gamma=0.5)

    def train(params, opt, sched, steps):
        for step_grads in steps:
            for p, g in zip(params, step_grads):
                p.grad = tensorlab.tensor(g)
            opt.step()
            sched.step()

    ref = make(inits)
    train(*ref, grads)
    params, opt, sched = make(inits)
    train(params, opt, sched, grads[:3])
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"params": params, "opt": opt.state_dict(), "sched": sched.state_dict()}, path)
    ckpt = tensorlab.load(path)
    params2, opt2, sched2 = make([p.detach().numpy() for p in ckpt["params"]])
    opt2.load_state_dict(ckpt["opt"])
    sched2.load_state_dict(ckpt["sched"])
    assert type(ckpt["sched"]["milestones"]) is collections.Counter
    train(params2, opt2, sched2, grads[3:])
    for a, b in zip(ref[0], params2):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    assert sched2.get_last_lr() == ref[2].get_last_lr()


def test_keyword_forms_paths_and_file_objects(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkdir("models")
    sd = collections.OrderedDict(w=tensorlab.arange(4.0))
    tensorlab.save(obj=sd, f="models/net.pth")
    _assert_same_tensor(tensorlab.load("models/net.pth")["w"], sd["w"])
    _assert_same_tensor(tensorlab.load(f=tmp_path / "models" / "net.pth", weights_only=True)["w"], sd["w"])
    with open("models/two.pth", "wb") as f:        # two checkpoints in one stream
        tensorlab.save(1, f)
        tensorlab.save([2.0], f)
    with open("models/two.pth", "rb") as f:
        assert tensorlab.load(f) == 1 and tensorlab.load(f) == [2.0]


def test_model_state_dict_round_trip(tmp_path):
    nn = pytest.importorskip("tensorlab.nn")
    if not hasattr(nn, "Linear"):
        pytest.skip("tensorlab.nn.Linear is not available yet")
    tensorlab.manual_seed(0)
    model, other = nn.Linear(3, 2), nn.Linear(3, 2)
    tensorlab.save(obj=model.state_dict(), f=tmp_path / "net.pth")
    other.load_state_dict(tensorlab.load(tmp_path / "net.pth"))
    for (k, a), (k2, b) in zip(model.state_dict().items(), other.state_dict().items()):
        assert k == k2
        _assert_same_tensor(a, b)


# -- map_location ----------------------------------------------------------------------------------


@pytest.mark.parametrize("map_location", ["cpu", tensorlab.device("cpu"), {"cpu": "cpu"}, None])
def test_map_location_to_cpu(map_location):
    out = _round_trip({"w": tensorlab.ones(2)}, map_location=map_location)
    assert out["w"].device == tensorlab.device("cpu")


def test_map_location_callable_sees_saved_location():
    seen = []

    def fn(t, location):
        seen.append(location)
        return t * 2

    out = _round_trip([tensorlab.ones(2), tensorlab.ones(1)], map_location=fn)
    assert seen == ["cpu", "cpu"] and out[0].tolist() == [2.0, 2.0]


def test_cuda_checkpoint_loads_on_cpu_with_map_location():
    data = np.arange(3, dtype=np.float32)
    raw = _craft({"type": "tensor", "dtype": "float32", "shape": [3], "device": "cuda:0",
                  "requires_grad": False, "parameter": False, "block": 0}, data.tobytes())
    out = tensorlab.load(io.BytesIO(raw), map_location={"cuda:0": "cpu"})
    assert out.device == tensorlab.device("cpu") and out.tolist() == [0.0, 1.0, 2.0]
    if not tensorlab.cuda.is_available():
        with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
            tensorlab.load(io.BytesIO(raw))


# -- the format, and its errors --------------------------------------------------------------------


def _manifest_of(raw):
    (_, manifest_nbytes, _, _) = struct.unpack("<IQQI", raw[14:38])
    return raw[42:42 + manifest_nbytes]


def _craft(root, data=b"", blocks=None, version=1):
    """A checkpoint written by hand from this test's reading of the documented format."""
    if blocks is None:
        blocks = [{"name": "x", "offset": 0, "nbytes": len(data), "crc32": zlib.crc32(data)}] if data else []
    manifest = json.dumps({"format": "tensorlab-checkpoint", "version": version, "root": "ROOT",
                           "blocks": blocks}).encode()
    root_json = root if isinstance(root, bytes) else json.dumps(root).encode()
    manifest = manifest.replace(b'"ROOT"', root_json)
    fields = struct.pack("<IQQI", version, len(manifest), len(data), zlib.crc32(manifest))
    return b"\x89TENSORLAB\r\n\x1a\n" + fields + struct.pack("<I", zlib.crc32(fields)) + manifest + data


def test_documented_layout_is_what_save_writes():
    raw = _checkpoint_bytes({"fc.weight": tensorlab.tensor([1.0, 2.0])})
    assert raw.startswith(b"\x89TENSORLAB\r\n\x1a\n")
    manifest = json.loads(_manifest_of(raw))
    assert manifest["blocks"] == [{"name": "fc.weight", "offset": 0, "nbytes": 8,
                                   "crc32": zlib.crc32(np.array([1.0, 2.0], "<f4").tobytes())}]
    assert raw.endswith(np.array([1.0, 2.0], "<f4").tobytes())
    hand_made = _craft(manifest["root"], np.array([1.0, 2.0], "<f4").tobytes(), manifest["blocks"])
    assert tensorlab.load(io.BytesIO(hand_made))["fc.weight"].tolist() == [1.0, 2.0]


@pytest.mark.parametrize("content", [b"", b"hello world", b"PK\x03\x04" + bytes(100), pickle.dumps({"a": 1})])
def test_not_a_checkpoint(content, tmp_path):
    path = tmp_path / "x.pth"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match="not a tensorlab checkpoint"):
        tensorlab.load(path)


def test_every_truncation_is_reported():
    raw = _checkpoint_bytes({"fc.weight": tensorlab.ones(3, 2), "step": 3})
    for cut in range(len(raw)):
        with pytest.raises(CheckpointError, match="truncated|not a tensorlab checkpoint") as err:
            tensorlab.load(io.BytesIO(raw[:cut]))
        if cut >= 14:
            assert "truncated" in str(err.value)


def test_extra_bytes_after_a_file_checkpoint(tmp_path):
    path = tmp_path / "x.pth"
    path.write_bytes(_checkpoint_bytes([1]) + b"junk")
    with pytest.raises(CheckpointError, match="unexpected bytes after the end"):
        tensorlab.load(path)


def test_corrupted_tensor_is_named():
    sd = collections.OrderedDict([("fc.weight", tensorlab.ones(2, 2)), ("fc.bias", tensorlab.zeros(2))])
    raw = bytearray(_checkpoint_bytes(sd))
    raw[-9] ^= 0x01                                    # inside fc.weight's block (fc.bias is the last 8 bytes)
    with pytest.raises(CheckpointError, match="checksum mismatch for tensor 'fc.weight'"):
        tensorlab.load(io.BytesIO(bytes(raw)))


def test_corrupted_manifest_and_header():
    raw = _checkpoint_bytes({"a": tensorlab.ones(2)})
    manifest = bytearray(raw)
    manifest[50] ^= 0x20
    with pytest.raises(CheckpointError, match="checksum mismatch in the checkpoint manifest"):
        tensorlab.load(io.BytesIO(bytes(manifest)))
    header = bytearray(raw)
    header[20] ^= 0x01
    with pytest.raises(CheckpointError, match="checksum mismatch in the checkpoint header"):
        tensorlab.load(io.BytesIO(bytes(header)))


_RAW = None


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_any_single_byte_change_is_detected(data):
    global _RAW
    if _RAW is None:
        _RAW = _checkpoint_bytes({"w": tensorlab.arange(5.0), "meta": {"epoch": 3, "name": "run"}})
    i = data.draw(st.integers(0, len(_RAW) - 1))
    delta = data.draw(st.integers(1, 255))
    changed = bytearray(_RAW)
    changed[i] ^= delta
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


class _Exploit:
    """Unpickling this would create a marker file -- tensorlab.load must never unpickle."""

    marker = None

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_crafted_files_cannot_run_code(tmp_path, torch):
    marker = tmp_path / "pwned"
    _Exploit.marker = marker
    candidates = {"pickle.pth": pickle.dumps(_Exploit())}
    buf = io.BytesIO()
    torch.save({"x": _Exploit()}, buf)
    candidates["torch.pth"] = buf.getvalue()
    candidates["strings.pth"] = _craft({"type": "str", "value": f"open({str(marker)!r}, 'w')"})
    for name, content in candidates.items():
        (tmp_path / name).write_bytes(content)
        try:
            tensorlab.load(tmp_path / name)
        except CheckpointError:
            pass
        assert not marker.exists(), name
    assert tensorlab.load(tmp_path / "strings.pth").startswith("open(")
    source = open(serialization.__file__).read()
    for forbidden in ("import pickle", "eval(", "exec(", "importlib", "__import__"):
        assert forbidden not in source


# -- saving: refusals and atomicity -----------------------------------------------------------------


def test_unsupported_objects_raise_before_touching_the_file(tmp_path):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    for bad in [object(), {"f": lambda: 0}, [np.zeros(2)], {"s": {1, 2}}]:
        with pytest.raises(TypeError, match="cannot save an object of type"):
            tensorlab.save(bad, path)
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="contains itself"):
        tensorlab.save(loop, path)
    assert tensorlab.load(path) == {"epoch": 1}
    assert os.listdir(tmp_path) == ["ckpt.pth"]


def test_missing_parent_directory_raises_like_torch(torch, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError) as expected:
        torch.save({"a": 1}, "no_such_dir/x.pth")
    with pytest.raises(RuntimeError, match=str(expected.value)):
        tensorlab.save({"a": 1}, "no_such_dir/x.pth")


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_a_crash_mid_save_keeps_the_old_checkpoint(tmp_path, monkeypatch, error):
    path = tmp_path / "ckpt.pth"
    old = {"w": tensorlab.ones(1000), "epoch": 1}
    tensorlab.save(old, path)
    old_bytes = path.read_bytes()
    real_write_block = serialization._write_block
    calls = []

    def failing_write_block(f, array):
        calls.append(1)
        if len(calls) == 2:                      # the first tensor is already on disk: fail mid-file
            raise error
        real_write_block(f, array)

    monkeypatch.setattr(serialization, "_write_block", failing_write_block)
    with pytest.raises(type(error)):
        tensorlab.save({"w": tensorlab.zeros(1000), "b": tensorlab.zeros(1000), "epoch": 2}, path)
    assert calls == [1, 1]
    assert path.read_bytes() == old_bytes
    assert tensorlab.load(path)["epoch"] == 1
    assert os.listdir(tmp_path) == ["ckpt.pth"]
    monkeypatch.setattr(serialization, "_write_block", real_write_block)
    tensorlab.save({"epoch": 3}, path)
    assert tensorlab.load(path) == {"epoch": 3}


def test_parameters_load_as_parameters():
    nn = pytest.importorskip("tensorlab.nn")
    if not hasattr(nn, "Parameter"):
        pytest.skip("tensorlab.nn.Parameter is not available yet")
    p = nn.Parameter(tensorlab.ones(2))
    out = _round_trip({"p": p})
    assert type(out["p"]) is nn.Parameter and out["p"].requires_grad


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
    with pytest.raises(CheckpointError, match="one saved tensor is described in two different ways"):
        tensorlab.load(io.BytesIO(_craft({"type": "list", "items": [node, dict(node, shape=[1])]},
                                         bytes(8), version=2)))


def test_version_1_files_still_load():
    data = np.arange(6, dtype="<f4").tobytes()
    node = {"type": "tensor", "dtype": "float32", "shape": [2, 3], "device": "cpu", "requires_grad": True,
            "parameter": False, "block": 0}
    out = tensorlab.load(io.BytesIO(_craft({"type": "list", "items": [node, node]}, data, version=1)))
    assert out[0] is out[1] and out[0].stride() == (3, 1) and out[0].requires_grad
    assert out[0].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def _tensor_node(**fields):
    node = {"type": "tensor", "tensor": 0, "dtype": "float32", "shape": [2], "stride": [1], "storage_offset": 0,
            "device": "cpu", "requires_grad": False, "parameter": False, "block": 0}
    node.update(fields)
    return node


@pytest.mark.parametrize("fields,phrase", [
    ({"shape": [2 ** 62, 4], "stride": [0, 0]}, "more elements than an int64"),
    ({"shape": [2 ** 100], "stride": [0]}, "more elements than an int64"),
    ({"shape": [2 ** 40] * 2, "stride": [0, 0]}, "more elements than an int64"),
    ({"shape": [1] * 65, "stride": [1] * 65}, "65 dimensions"),
    ({"storage_offset": -1}, "bad strides or storage offset"),
    ({"storage_offset": 2}, "reaches past the end"),
    ({"stride": [5]}, "reaches past the end"),
    ({"stride": [-1]}, "must be non-negative integers"),
    ({"stride": [1, 1]}, "bad strides or storage offset"),
    ({"stride": None}, "needs a list"),
    ({"storage_offset": 2.0}, "bad strides or storage offset"),
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


def test_a_huge_but_valid_expanded_tensor_allocates_nothing():
    out = tensorlab.load(io.BytesIO(_craft(_tensor_node(shape=[2 ** 40, 2 ** 20], stride=[0, 0]), bytes(4),
                                           version=2)))
    assert out.shape == (2 ** 40, 2 ** 20) and out.untyped_storage().nbytes() == 4


@pytest.mark.parametrize("levels", [101, 400, 5000])
def test_deep_nesting_names_the_depth(levels):
    root = b'{"type":"list","items":[' * levels + b'{"type":"none"}' + b"]}" * levels
    with pytest.raises(CheckpointError, match=r"nested .*\d+ .*(levels|containers)") as err:
        tensorlab.load(io.BytesIO(_craft(root, version=2)))
    assert "100" in str(err.value)


def test_nesting_up_to_the_limit_round_trips_and_deeper_is_refused_on_save(tmp_path):
    obj = None
    for _ in range(serialization.MAX_DEPTH):
        obj = [obj]
    assert _round_trip(obj) == obj
    with pytest.raises(ValueError, match="nested more than 100 levels"):
        tensorlab.save([obj], tmp_path / "deep.pth")
    assert not os.listdir(tmp_path)


# -- saving over an existing file: what a plain write would keep -----------------------------------

_AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def test_permission_bits_of_the_replaced_file_are_kept(tmp_path):
    path = tmp_path / "private.pth"
    tensorlab.save({"epoch": 1}, path)
    os.chmod(path, 0o600)
    tensorlab.save({"epoch": 2}, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    os.chmod(path, 0o640)
    tensorlab.save({"epoch": 3}, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640 and tensorlab.load(path) == {"epoch": 3}


def test_a_symlink_is_written_through(tmp_path):
    real = tmp_path / "runs" / "best.pth"
    real.parent.mkdir()
    tensorlab.save({"epoch": 1}, real)
    link = tmp_path / "latest.pth"
    link.symlink_to(real)
    tensorlab.save({"epoch": 2}, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert tensorlab.load(real) == {"epoch": 2}
    assert sorted(os.listdir(tmp_path)) == ["latest.pth", "runs"] and os.listdir(real.parent) == ["best.pth"]


def _refuse_writes_to(monkeypatch, path):
    """Make ``path`` write-protected even for root (who ignores permission bits)."""
    real_open = os.open

    def guarded_open(name, flags, *args, **kwargs):
        if os.fspath(name) == os.fspath(path) and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(13, "Permission denied", os.fspath(name))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)


def test_a_write_protected_file_is_refused_like_a_plain_write(tmp_path, monkeypatch):
    path = tmp_path / "frozen.pth"
    tensorlab.save({"epoch": 1}, path)
    before = path.read_bytes()
    _refuse_writes_to(monkeypatch, path)
    with pytest.raises(PermissionError, match="Permission denied"):
        tensorlab.save({"epoch": 2}, path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["frozen.pth"]


@pytest.mark.skipif(_AS_ROOT or os.name == "nt", reason="root ignores permission bits")
def test_a_read_only_file_is_refused(tmp_path):
    path = tmp_path / "frozen.pth"
    tensorlab.save({"epoch": 1}, path)
    os.chmod(path, 0o444)
    with pytest.raises(PermissionError, match="Permission denied"):
        tensorlab.save({"epoch": 2}, path)
    assert tensorlab.load(path) == {"epoch": 1}


def _directory_refuses_new_files(monkeypatch, directory):
    real_open = os.open

    def guarded_open(name, flags, *args, **kwargs):
        if os.path.dirname(os.fspath(name)) == os.fspath(directory) and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied", os.fspath(name))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)


def test_a_writable_file_in_a_read_only_directory_is_written_in_place(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    inode = os.stat(path).st_ino
    _directory_refuses_new_files(monkeypatch, tmp_path)
    tensorlab.save({"epoch": 2, "w": tensorlab.ones(3)}, path)
    assert tensorlab.load(path)["epoch"] == 2 and os.stat(path).st_ino == inode
    with pytest.raises(PermissionError):                   # no file to write in place: nothing to fall back on
        tensorlab.save({"epoch": 1}, tmp_path / "new.pth")
    assert os.listdir(tmp_path) == ["ckpt.pth"]


@pytest.mark.skipif(_AS_ROOT or os.name == "nt", reason="root ignores permission bits")
def test_a_read_only_directory_for_real(tmp_path):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    os.chmod(tmp_path, 0o555)
    try:
        tensorlab.save({"epoch": 2}, path)
        assert tensorlab.load(path) == {"epoch": 2}
    finally:
        os.chmod(tmp_path, 0o755)


_KILLED_SAVE = """
import sys, time, tensorlab
from tensorlab import serialization
real = serialization._write_block
def stall(f, array):
    real(f, array)
    f.flush()
    print("writing", flush=True)
    time.sleep(60)
serialization._write_block = stall
tensorlab.save({"w": tensorlab.ones(1000)}, sys.argv[1])
"""


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL is POSIX")
def test_the_next_save_removes_the_temporary_file_of_a_killed_save(tmp_path):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    child = subprocess.Popen([sys.executable, "-c", _KILLED_SAVE, str(path)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "writing\n"
    child.kill()
    child.wait()
    child.stdout.close()
    leftovers = [n for n in os.listdir(tmp_path) if n != "ckpt.pth"]
    assert len(leftovers) == 1 and str(child.pid) in leftovers[0]
    (tmp_path / ".ckpt.pth.0123abcd.tmp").write_bytes(b"left by an older tensorlab")
    (tmp_path / ".other.pth.0123abcd.tmp").write_bytes(b"not ours")
    live = tmp_path / f".ckpt.pth.{os.getppid()}.89abcdef.tmp"   # a save running now in a live process
    live.write_bytes(b"in progress")
    assert tensorlab.load(path) == {"epoch": 1}
    tensorlab.save({"epoch": 2}, path)
    assert sorted(os.listdir(tmp_path)) == sorted([".other.pth.0123abcd.tmp", live.name, "ckpt.pth"])
