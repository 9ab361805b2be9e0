"""Checkpoints cross over: what torch.save writes, tensorlab.load reads, and what tensorlab.save writes,
torch.load reads (weights_only=True included) -- compared on the same NumPy-built inputs."""
import collections
import io
import pickle
import pickletools
import zipfile

import numpy as np
import pytest

import tensorlab
from tensorlab import serialization
from tensorlab.serialization import CheckpointError
from tests.oracle import random_array

DTYPES = [d.name for d in tensorlab._dtype.ALL]
SHAPES = [(), (0,), (5,), (2, 3, 4), (3, 0, 2)]


def _saved(lib, obj, **kwargs):
    buf = io.BytesIO()
    lib.save(obj, buf, **kwargs)
    return buf.getvalue()


def _loaded(lib, raw, **kwargs):
    return lib.load(io.BytesIO(raw), **kwargs)


def _same(ours, theirs):
    """A tensorlab tensor and a torch tensor hold the same thing: dtype, shape, strides, offset, values."""
    assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
    assert ours.stride() == theirs.stride() and ours.storage_offset() == theirs.storage_offset()
    assert ours.untyped_storage().nbytes() == theirs.untyped_storage().nbytes()
    assert ours.requires_grad == theirs.requires_grad
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def _build(lib, values):
    """The same tree in either library: views sharing a storage, strides, offsets, expansion, Parameters."""
    base = lib.from_numpy(values.copy())
    sd = collections.OrderedDict([("0.weight", lib.nn.Parameter(lib.from_numpy(values[:2].copy()))),
                                  ("0.bias", lib.zeros(2)), ("steps", lib.tensor(3))])
    sd._metadata = collections.OrderedDict([("", {"version": 1}), ("0", {"version": 1})])
    return {"base": base, "t": base.t(), "slice": base[1:, ::2], "col": base[:, 2], "expanded": base[0].expand(3, 4),
            "reshaped": base.reshape(-1)[3:11].view(2, 4), "grad": lib.ones(2, requires_grad=True),
            "frozen": lib.nn.Parameter(lib.ones(1), requires_grad=False), "sd": sd,
            "nested": [1, (2.5, None, "s", True), {"k": [base]}, {3, 4}, collections.Counter("aab"), b"x", 1j]}


def _check_same_tree(ours, theirs, torch):
    if isinstance(theirs, torch.Tensor):
        assert type(ours).__name__ == type(theirs).__name__
        return _same(ours, theirs)
    assert type(ours) is type(theirs)
    if isinstance(theirs, dict):
        assert list(ours) == list(theirs)
        assert getattr(ours, "_metadata", None) == getattr(theirs, "_metadata", None)
        for key in theirs:
            _check_same_tree(ours[key], theirs[key], torch)
    elif isinstance(theirs, (list, tuple)):
        for a, b in zip(ours, theirs, strict=True):
            _check_same_tree(a, b, torch)
    else:
        assert ours == theirs


# -- every dtype, both ways ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_dtype_torch_to_tensorlab(name, shape, torch, rng):
    values = random_array(rng, name, shape)
    raw = _saved(torch, {"x": torch.from_numpy(values.copy())})
    for weights_only in (True, False):
        out = _loaded(tensorlab, raw, weights_only=weights_only)["x"]
        assert out.dtype is getattr(tensorlab, name)
        _same(out, torch.from_numpy(values))


@pytest.mark.parametrize("name", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_dtype_tensorlab_to_torch(name, shape, torch, rng):
    values = random_array(rng, name, shape)
    raw = _saved(tensorlab, {"x": tensorlab.from_numpy(values.copy())})
    for weights_only in (True, False):
        out = _loaded(torch, raw, weights_only=weights_only)["x"]
        assert out.dtype is getattr(torch, name)
        _same(tensorlab.from_numpy(values), out)


def test_dtypes_tensorlab_lacks_are_refused_clearly(torch):
    for t, phrase in [(torch.ones(2, dtype=torch.bfloat16), "bfloat16|BFloat16"),
                      (torch.ones(2, dtype=torch.complex64), "ComplexFloat|complex64")]:
        with pytest.raises(CheckpointError, match=f"tensorlab cannot load this checkpoint: .*({phrase})"):
            _loaded(tensorlab, _saved(torch, {"t": t}))


# -- views, sharing, Parameters, nested containers -------------------------------------------------------


@pytest.mark.parametrize("weights_only", [True, False])
def test_a_tree_torch_saved_loads_the_same_in_tensorlab(weights_only, torch, rng):
    values = rng.standard_normal((4, 4)).astype(np.float32)
    raw = _saved(torch, _build(torch, values))
    ours, theirs = _loaded(tensorlab, raw, weights_only=weights_only), _loaded(torch, raw, weights_only=weights_only)
    _check_same_tree(ours, theirs, torch)
    shared = [ours[k].untyped_storage() for k in ("base", "t", "slice", "col", "expanded", "reshaped")]
    assert all(s is shared[0] for s in shared) and ours["nested"][2]["k"][0] is ours["base"]
    ours["base"].fill_(7.0)
    assert ours["t"].tolist() == [[7.0] * 4] * 4 and ours["expanded"].tolist() == [[7.0] * 4] * 3


@pytest.mark.parametrize("weights_only", [True, False])
def test_a_tree_tensorlab_saved_loads_the_same_in_torch(weights_only, torch, rng):
    values = rng.standard_normal((4, 4)).astype(np.float32)
    raw = _saved(tensorlab, _build(tensorlab, values))
    theirs = _loaded(torch, raw, weights_only=weights_only)
    _check_same_tree(_loaded(tensorlab, raw), theirs, torch)
    _check_same_tree(_loaded(tensorlab, _saved(torch, _build(torch, values))), theirs, torch)
    assert type(theirs["sd"]["0.weight"]) is torch.nn.Parameter and theirs["grad"].requires_grad
    pointers = {theirs[k].untyped_storage().data_ptr() for k in ("base", "t", "slice", "col", "expanded")}
    assert len(pointers) == 1                                              # one storage, still shared in torch


def test_the_pickle_of_a_state_dict_is_torchs_byte_for_byte(torch, rng):
    values = rng.standard_normal((3, 2)).astype(np.float32)

    def state(lib):
        sd = collections.OrderedDict([("weight", lib.from_numpy(values.copy())), ("bias", lib.zeros(3)),
                                      ("num_batches_tracked", lib.tensor(0))])
        sd._metadata = collections.OrderedDict([("", {"version": 2})])
        return sd

    ours, theirs = (zipfile.ZipFile(io.BytesIO(_saved(lib, state(lib)))) for lib in (tensorlab, torch))
    assert ours.namelist() == theirs.namelist()
    for name in theirs.namelist():
        if name != "archive/.data/serialization_id":
            assert ours.read(name) == theirs.read(name), name
    listing = io.StringIO()
    pickletools.dis(ours.read("archive/data.pkl"), out=listing)
    assert "GLOBAL     'torch LongStorage'" in listing.getvalue()


def test_model_state_dicts_cross_over(torch, rng):
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2))
    ours = tensorlab.nn.Sequential(tensorlab.nn.Linear(3, 4), tensorlab.nn.ReLU(), tensorlab.nn.BatchNorm1d(4),
                                   tensorlab.nn.Linear(4, 2))
    theirs.train()(torch.randn(8, 3))                                     # running statistics are not trivial
    print(ours.load_state_dict(_loaded(tensorlab, _saved(torch, theirs.state_dict()))))
    x = rng.standard_normal((5, 3)).astype(np.float32)
    ours.eval(), theirs.eval()
    np.testing.assert_allclose(ours(tensorlab.from_numpy(x)).detach().numpy(),
                               theirs(torch.from_numpy(x)).detach().numpy(), rtol=1e-5, atol=1e-6)
    back = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2))
    print(back.load_state_dict(_loaded(torch, _saved(tensorlab, ours.state_dict()))))
    assert all(torch.equal(a, b) for a, b in zip(back.state_dict().values(), theirs.state_dict().values()))


def test_optimizer_state_crosses_over_and_training_goes_on_alike(torch, rng):
    """Three Adam steps in PyTorch, a checkpoint, three more steps in tensorlab -- and the other way round."""
    x, y = rng.standard_normal((16, 3)).astype(np.float32), rng.standard_normal((16, 1)).astype(np.float32)

    def setup(lib):
        lib.manual_seed(0)
        model = lib.nn.Linear(3, 1)
        return model, lib.optim.Adam(model.parameters(), lr=0.1)

    def steps(lib, model, opt, n):
        for _ in range(n):
            opt.zero_grad()
            lib.nn.functional.mse_loss(model(lib.from_numpy(x)), lib.from_numpy(y)).backward()
            opt.step()

    for first, second in ((torch, tensorlab), (tensorlab, torch)):
        model, opt = setup(first)
        steps(first, model, opt, 3)
        raw = _saved(first, {"model": model.state_dict(), "optimizer": opt.state_dict()})
        steps(first, model, opt, 3)
        model2, opt2 = setup(second)
        checkpoint = _loaded(second, raw)
        model2.load_state_dict(checkpoint["model"])
        opt2.load_state_dict(checkpoint["optimizer"])
        steps(second, model2, opt2, 3)
        for a, b in zip(model.parameters(), model2.parameters()):
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)


# -- whole modules, and what weights_only refuses --------------------------------------------------------


def test_a_torch_module_loads_as_tensorlabs_when_trusted(torch, rng):
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(8, 2))
    raw = _saved(torch, theirs)
    with pytest.raises(pickle.UnpicklingError) as expected:
        _loaded(torch, raw)
    with pytest.raises(pickle.UnpicklingError) as got:
        _loaded(tensorlab, raw)
    phrase = "Unsupported global: GLOBAL torch.nn.modules.container.Sequential was not an allowed global by default"
    assert phrase in str(expected.value) and phrase in str(got.value)
    assert "Weights only load failed" in str(got.value)
    ours = _loaded(tensorlab, raw, weights_only=False)
    assert [type(m) for m in ours] == [tensorlab.nn.Conv2d, tensorlab.nn.ReLU, tensorlab.nn.Flatten,
                                       tensorlab.nn.Linear]
    x = rng.standard_normal((2, 1, 4, 4)).astype(np.float32)
    np.testing.assert_allclose(ours(tensorlab.from_numpy(x)).detach().numpy(),
                               theirs(torch.from_numpy(x)).detach().numpy(), rtol=1e-5, atol=1e-6)
    with serialization.safe_globals([tensorlab.nn.Sequential, tensorlab.nn.Conv2d, tensorlab.nn.ReLU,
                                     tensorlab.nn.Flatten, tensorlab.nn.Linear]):
        assert type(_loaded(tensorlab, raw)[3]) is tensorlab.nn.Linear


def test_a_tensorlab_module_loads_in_torch_when_trusted(torch, rng):
    tensorlab.manual_seed(0)
    ours = tensorlab.nn.Sequential(tensorlab.nn.Linear(3, 4), tensorlab.nn.Tanh(), tensorlab.nn.Linear(4, 1))
    theirs = _loaded(torch, _saved(tensorlab, ours), weights_only=False)
    assert type(theirs[0]) is torch.nn.Linear
    x = rng.standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_allclose(ours(tensorlab.from_numpy(x)).detach().numpy(),
                               theirs(torch.from_numpy(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_torch_and_tensorlab_refuse_the_same_globals(torch):
    import os
    for obj, phrase in [({"f": print}, "GLOBAL print was not an allowed global"),
                        ({"n": np.float64(1.0)}, "was not an allowed global"),
                        ({"s": os.system}, "is blocked")]:
        raw = _saved(torch, obj)
        for lib in (torch, tensorlab):
            with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as refused:
                _loaded(lib, raw)
            assert phrase in str(refused.value), (lib.__name__, str(refused.value))


# -- mmap and map_location ----------------------------------------------------------------------------


def test_mmap_both_ways(torch, tmp_path):
    ours, theirs = tmp_path / "ours.pth", tmp_path / "theirs.pth"
    tensorlab.save({"w": tensorlab.arange(100.0).view(10, 10).t()}, ours)
    torch.save({"w": torch.arange(100.0).view(10, 10).t()}, theirs)
    _same(tensorlab.load(theirs, mmap=True)["w"], torch.load(ours, mmap=True)["w"])
    assert isinstance(tensorlab.load(theirs, mmap=True)["w"]._storage._flat, np.memmap)


def _on_cuda(raw):
    """The checkpoint a GPU machine would write: the same records, every storage's location 'cuda:0'."""
    source, out = zipfile.ZipFile(io.BytesIO(raw)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("/data.pkl"):
                data = data.replace(b"X\x03\x00\x00\x00cpu", b"X\x06\x00\x00\x00cuda:0")
            target.writestr(info.filename, data)
    return out.getvalue()


def test_a_gpu_checkpoint_needs_map_location_on_a_cpu_machine(torch):
    if torch.cuda.is_available() or tensorlab.cuda.is_available():
        pytest.skip("this machine has a GPU")
    raw = _on_cuda(_saved(torch, {"w": torch.arange(3.0), "v": torch.ones(2)}))
    for lib in (torch, tensorlab):
        with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device but "
                                               r"torch.cuda.is_available\(\) is False"):
            _loaded(lib, raw)
    for where in ("cpu", tensorlab.device("cpu"), {"cuda:0": "cpu"}, lambda storage, location: storage):
        theirs = _loaded(torch, raw, map_location=where if not isinstance(where, tensorlab.device) else "cpu")
        ours = _loaded(tensorlab, raw, map_location=where)
        _same(ours["w"], theirs["w"])
        assert ours["w"].device == tensorlab.device("cpu")


def test_unsafe_globals_in_a_checkpoint_are_found_without_running_it(torch, tmp_path):
    path = tmp_path / "mixed.pth"
    torch.save({"model": torch.nn.Linear(2, 2), "f": print, "w": torch.ones(2), "sd": torch.nn.ReLU().state_dict()},
               path)
    expected = sorted(torch.serialization.get_unsafe_globals_in_checkpoint(path))
    assert serialization.get_unsafe_globals_in_checkpoint(path) == expected == [
        "builtins.print", "torch.nn.modules.linear.Linear"]
    with open(path, "rb") as f, serialization.safe_globals([tensorlab.nn.Linear]):
        assert serialization.get_unsafe_globals_in_checkpoint(f) == ["builtins.print"]
    with pytest.raises(ValueError, match="Expected input to be a checkpoint returned by torch.save"):
        serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(b"not a zip"))
