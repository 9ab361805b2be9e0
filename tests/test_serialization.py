"""tensorlab.save / tensorlab.load: exact round trips in PyTorch's zip + pickle format, and its documented layout.

Cross-checks against PyTorch (both ways) are in tests/test_serialization_torch.py, hostile files in
tests/test_serialization_hostile.py, atomic saves in tests/test_serialization_atomic.py and files of
older tensorlab versions in tests/test_serialization_old_format.py."""
import collections
import io
import math
import os
import pickle
import pickletools
import zipfile

import numpy as np
import pytest

import tensorlab
from tensorlab import serialization
from tests.oracle import random_array


@pytest.fixture(autouse=True)
def _no_safe_globals_leak():
    saved = serialization.get_safe_globals()
    yield
    serialization.clear_safe_globals()
    serialization.add_safe_globals(saved)


def _round_trip(obj, **load_kwargs):
    buf = io.BytesIO()
    tensorlab.save(obj, buf)
    buf.seek(0)
    return tensorlab.load(buf, **load_kwargs)


def _checkpoint_bytes(obj, **save_kwargs):
    buf = io.BytesIO()
    tensorlab.save(obj, buf, **save_kwargs)
    return buf.getvalue()


def _assert_same_tensor(a, b):
    assert type(a) is type(b)
    assert a.dtype is b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


# -- round trips -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", tensorlab._dtype.ALL, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3, 4), (3, 0, 2)])
def test_every_dtype_and_shape_round_trips_exactly(dt, shape, rng):
    t = tensorlab.from_numpy(random_array(rng, dt.np, shape))
    for weights_only in (True, False):
        out = _round_trip(t, weights_only=weights_only)
        _assert_same_tensor(t, out)
        assert out.is_contiguous() and not out.requires_grad
        assert out._array.dtype is dt.np                 # tensorlab's own dtype object (ops compare with is)


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
    assert _round_trip(t).numpy().tobytes() == t.numpy().tobytes()
    floats = _round_trip(values + [math.nan])
    assert [math.copysign(1, v) for v in floats[:7]] == [math.copysign(1, v) for v in values]
    assert floats[:7] == values and math.isnan(floats[7])


def test_the_same_tensor_twice_loads_as_one_object():
    t = tensorlab.arange(6.0)
    out = _round_trip({"a": t, "b": [t, t]})
    assert out["a"] is out["b"][0] is out["b"][1]
    names = zipfile.ZipFile(io.BytesIO(_checkpoint_bytes({"a": t, "b": t[2:]}))).namelist()
    assert [n for n in names if "/data/" in n] == ["archive/data/0"]       # one storage, one record


def test_views_are_saved_with_their_whole_storage():
    """As in PyTorch: a slice saved alone takes its storage along, and keeps its offset and strides."""
    base = tensorlab.arange(12.0).view(3, 4)
    view = base[1:, ::2]
    out = _round_trip(view)
    _assert_same_tensor(view, out)
    assert out.stride() == (4, 2) and out.storage_offset() == 4
    assert out.untyped_storage().nbytes() == 48
    out = _round_trip(tensorlab.zeros(1).expand(2 ** 27))                # 4 bytes of storage, not 512 MiB
    assert out.shape == (2 ** 27,) and out.stride() == (0,) and out.untyped_storage().nbytes() == 4


def test_nested_python_values_round_trip():
    obj = {"none": None, "t": True, "f": False, "int": -7, "big": 2 ** 80, "float": 0.1, "str": "héllo ✓",
           "list": [1, [2, (3.5, "x")]], "tuple": (None,), "empty": ([], (), {}), 1: "int key", (1, 2): "tuple key",
           "size": tensorlab.Size([2, 3]), "dtype": tensorlab.float16, "device": tensorlab.device("cpu"),
           "counter": collections.Counter({3: 2, 5: 1}), 2.5: -1, "set": {1, "a"}, "bytes": b"\x00\xff",
           "bytearray": bytearray(b"ab"), "complex": 1 - 2j}
    out = _round_trip(obj)
    assert out == obj and list(out) == list(obj)
    assert type(out["t"]) is bool and type(out["int"]) is int and type(out["tuple"]) is tuple
    assert type(out["size"]) is tensorlab.Size and type(out["counter"]) is collections.Counter
    assert out["dtype"] is tensorlab.float16 and type(out["bytearray"]) is bytearray


def test_deep_nesting_round_trips():
    obj = None
    for _ in range(150):
        obj = [obj]
    assert _round_trip(obj) == obj


def test_ordered_dict_keeps_order_and_metadata():
    sd = collections.OrderedDict((k, tensorlab.full((2,), float(i))) for i, k in enumerate(["z.w", "a.b", "m"]))
    sd._metadata = collections.OrderedDict([("", {"version": 1}), ("fc", {"version": 2})])
    out = _round_trip(sd)
    assert type(out) is collections.OrderedDict and list(out) == ["z.w", "a.b", "m"]
    assert out._metadata == sd._metadata
    for k in sd:
        _assert_same_tensor(sd[k], out[k])


def test_requires_grad_parameters_and_attributes_are_kept():
    w = tensorlab.ones(3, requires_grad=True)
    p = tensorlab.nn.Parameter(tensorlab.ones(2))
    frozen = tensorlab.nn.Parameter(tensorlab.zeros(2), requires_grad=False)
    noted = tensorlab.arange(3.0)
    noted.note = "kept"
    p_noted = tensorlab.nn.Parameter(tensorlab.ones(1))
    p_noted.tag = 7
    out = _round_trip({"w": w, "x": tensorlab.ones(2), "p": p, "frozen": frozen, "noted": noted, "pn": p_noted})
    assert out["w"].requires_grad and out["w"].is_leaf and not out["x"].requires_grad
    assert type(out["p"]) is tensorlab.nn.Parameter and out["p"].requires_grad
    assert type(out["frozen"]) is tensorlab.nn.Parameter and not out["frozen"].requires_grad
    assert type(out["noted"]) is tensorlab.Tensor and out["noted"].note == "kept"
    assert type(out["pn"]) is tensorlab.nn.Parameter and out["pn"].tag == 7


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
    with open("models/open.pth", "wb") as f:
        tensorlab.save([2.0], f)
    with open("models/open.pth", "rb") as f:
        assert tensorlab.load(f) == [2.0]


def test_model_state_dict_round_trip(tmp_path):
    tensorlab.manual_seed(0)
    model, other = tensorlab.nn.Linear(3, 2), tensorlab.nn.Linear(3, 2)
    tensorlab.save(obj=model.state_dict(), f=tmp_path / "net.pth")
    print(other.load_state_dict(tensorlab.load(tmp_path / "net.pth")))
    for (k, a), (k2, b) in zip(model.state_dict().items(), other.state_dict().items()):
        assert k == k2
        _assert_same_tensor(a, b)


def test_a_whole_model_needs_weights_only_false(tmp_path):
    """``save(model)`` pickles the module object, as in PyTorch; loading it runs the pickle fully."""
    tensorlab.manual_seed(0)
    model = tensorlab.nn.Sequential(tensorlab.nn.Linear(2, 3), tensorlab.nn.ReLU(), tensorlab.nn.Linear(3, 1))
    path = tmp_path / "model.pth"
    tensorlab.save(model, path)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as refused:
        tensorlab.load(path)
    assert "Unsupported global: GLOBAL torch.nn.modules.container.Sequential was not an allowed global" in str(
        refused.value)
    x = tensorlab.ones(4, 2)
    loaded = tensorlab.load(path, weights_only=False)
    assert type(loaded) is tensorlab.nn.Sequential and type(loaded[0]) is tensorlab.nn.Linear
    assert tensorlab.equal(loaded(x), model(x))
    with serialization.safe_globals([tensorlab.nn.Sequential, tensorlab.nn.Linear, tensorlab.nn.ReLU]):
        assert tensorlab.equal(tensorlab.load(path)(x), model(x))
    with pytest.raises(pickle.UnpicklingError):
        tensorlab.load(path)                                               # allowed inside the block only


class Note:
    """A user class, for the allow-list tests."""

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return type(other) is Note and other.text == self.text


def test_safe_globals_api():
    assert serialization.get_safe_globals() == []
    raw = _checkpoint_bytes({"note": Note("hi"), "w": tensorlab.ones(1)})
    with pytest.raises(pickle.UnpicklingError, match=r"GLOBAL tests.test_serialization.Note was not an allowed"):
        tensorlab.load(io.BytesIO(raw))
    serialization.add_safe_globals([Note])
    assert serialization.get_safe_globals() == [Note]
    assert tensorlab.load(io.BytesIO(raw))["note"] == Note("hi")
    serialization.clear_safe_globals()
    with serialization.safe_globals([(Note, "tests.test_serialization.Note")]):
        assert tensorlab.load(io.BytesIO(raw))["note"] == Note("hi")
        assert serialization.get_safe_globals() == [(Note, "tests.test_serialization.Note")]
    assert serialization.get_safe_globals() == []
    for bad, error in [((Note,), ValueError), ((Note, 3), TypeError)]:
        with serialization.safe_globals([bad]), pytest.raises(error, match="Expected"):
            tensorlab.load(io.BytesIO(raw))


def test_pickle_module_and_protocol_arguments():
    raw = _checkpoint_bytes({"w": tensorlab.ones(2)}, pickle_protocol=4)
    assert tensorlab.load(io.BytesIO(raw), weights_only=False)["w"].tolist() == [1.0, 1.0]
    with pytest.raises(pickle.UnpicklingError, match="Unsupported operand 149"):   # FRAME: protocol 4
        tensorlab.load(io.BytesIO(raw))
    raw = _checkpoint_bytes({"w": tensorlab.ones(2)})
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"):
        tensorlab.load(io.BytesIO(raw), pickle_module=pickle, weights_only=True)
    assert tensorlab.load(io.BytesIO(raw), pickle_module=pickle)["w"].tolist() == [1.0, 1.0]
    with pytest.raises(NotImplementedError, match="only PyTorch's zip format"):
        tensorlab.save({}, io.BytesIO(), _use_new_zipfile_serialization=False)


# -- map_location and mmap --------------------------------------------------------------------------


@pytest.mark.parametrize("map_location", ["cpu", tensorlab.device("cpu"), {"cpu": "cpu"}, {"cuda:0": "cpu"}, None])
def test_map_location_to_cpu(map_location):
    out = _round_trip({"w": tensorlab.ones(2)}, map_location=map_location)
    assert out["w"].device == tensorlab.device("cpu")


def test_map_location_callable_gets_each_storage_and_its_location():
    """As in PyTorch: ``fn(storage, location)`` once per storage; it returns the storage (or None)."""
    seen = []

    def fn(storage, location):
        seen.append((type(storage).__name__, storage.nbytes(), location))
        return storage if len(seen) == 1 else None

    base = tensorlab.arange(4.0)
    out = _round_trip([base, base[1:], tensorlab.ones(1, dtype=tensorlab.int64)], map_location=fn)
    assert seen == [("UntypedStorage", 16, "cpu"), ("UntypedStorage", 8, "cpu")]
    assert out[1].tolist() == [1.0, 2.0, 3.0] and out[0].untyped_storage() is out[1].untyped_storage()


def test_mmap_maps_the_file_copy_on_write(tmp_path):
    path = tmp_path / "w.pth"
    tensorlab.save({"w": tensorlab.arange(1000.0), "tail": tensorlab.arange(1000.0)[990:]}, path)
    out = tensorlab.load(path, mmap=True)
    assert isinstance(out["w"]._storage._flat, np.memmap)
    assert out["tail"].tolist() == [float(i) for i in range(990, 1000)]
    out["w"][0] = -1.0                             # private to this process: the file is unchanged
    assert tensorlab.load(path)["w"][0].item() == 0.0
    with open(path, "rb") as f, pytest.raises(ValueError, match="f must be a file path in order to use the mmap"):
        tensorlab.load(f, mmap=True)


# -- the layout, as documented in tensorlab/serialization.py ---------------------------------------


def test_documented_layout_is_what_save_writes(tmp_path):
    path = tmp_path / "net.pth"
    tensorlab.save(collections.OrderedDict([("fc.weight", tensorlab.tensor([1.0, 2.0]))]), path)
    archive = zipfile.ZipFile(path)
    assert archive.namelist() == ["net/data.pkl", "net/.format_version", "net/.storage_alignment", "net/byteorder",
                                  "net/data/0", "net/version", "net/.data/serialization_id"]
    assert [archive.read(f"net/{n}") for n in (".format_version", ".storage_alignment", "byteorder", "version")] == [
        b"1", b"64", b"little", b"3\n"]
    assert archive.read("net/data/0") == np.array([1.0, 2.0], "<f4").tobytes()
    raw = path.read_bytes()
    for info in archive.infolist():
        assert info.compress_type == zipfile.ZIP_STORED and info.date_time == (1980, 1, 1, 0, 0, 0)
        name_length, extra_length = np.frombuffer(raw[info.header_offset + 26:info.header_offset + 30], "<u2")
        assert (info.header_offset + 30 + name_length + extra_length) % 64 == 0      # aligned data
    listing = io.StringIO()
    pickletools.dis(archive.read("net/data.pkl"), out=listing)
    for line in ("GLOBAL     'collections OrderedDict'", "GLOBAL     'torch._utils _rebuild_tensor_v2'",
                 "GLOBAL     'torch FloatStorage'", "BINUNICODE 'storage'", "BINPERSID", "STOP"):
        assert line in listing.getvalue()
    assert zipfile.ZipFile(io.BytesIO(_checkpoint_bytes({}))).namelist()[0] == "archive/data.pkl"
    assert "archive/byteorder" not in zipfile.ZipFile(io.BytesIO(
        _checkpoint_bytes({}, _disable_byteorder_record=True))).namelist()


def test_equal_saves_give_equal_files():
    def make():
        tensorlab.manual_seed(3)
        return tensorlab.nn.Linear(3, 2).state_dict()

    assert _checkpoint_bytes(make()) == _checkpoint_bytes(make())
    assert _checkpoint_bytes(make()) != _checkpoint_bytes({"other": 1})


def test_unpicklable_objects_raise_before_touching_the_file(tmp_path):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    before = path.read_bytes()
    for bad in [{"f": lambda: 0}, [(x for x in range(3))]]:
        with pytest.raises((pickle.PicklingError, TypeError, AttributeError)):
            tensorlab.save(bad, path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["ckpt.pth"]
    loop = []
    loop.append(loop)
    assert _round_trip(loop, weights_only=False)[0][0][0] is not None      # pickle keeps cycles


def test_a_storage_saved_as_two_types_is_refused_as_in_pytorch():
    t = tensorlab.arange(4.0)
    with pytest.raises(RuntimeError, match="Cannot save multiple tensors or storages that view the same data as "
                                           "different types"):
        tensorlab.save({"t": t, "bytes": t.untyped_storage()}, io.BytesIO())
    out = _round_trip({"bytes": t.untyped_storage()})
    assert out["bytes"].nbytes() == 16 and out["bytes"].tolist()[4:8] == [0, 0, 128, 63]   # 1.0 in float32
