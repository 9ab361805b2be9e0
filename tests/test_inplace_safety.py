"""In-place writes that could not be stored faithfully are refused, and a refused write changes nothing.

Three ways an in-place op could silently give a wrong result, each checked against PyTorch:
- an expanded tensor (many elements, one memory cell) written with different values;
- a random filler with impossible arguments (a probability of 1.5, ``uniform_(5, 2)``);
- memory that cannot be written (a read-only NumPy array), including through ``load_state_dict``.
"""
import warnings

import numpy as np
import pytest

import tensorlab

OVERLAP = "unsupported operation: more than one element of the written-to tensor refers to a single memory location"


def _expanded(lib):
    return lib.zeros(1).expand(3)


# (name, write) -- each write into an expanded 3-element tensor, run the same way in both libraries
_WRITES = [
    ("add_", lambda lib, e: e.add_(lib.arange(3.0))),
    ("add_ scalar", lambda lib, e: e.add_(1)),
    ("mul_", lambda lib, e: e.mul_(2)),
    ("sub_", lambda lib, e: e.sub_(1)),
    ("exp_", lambda lib, e: e.exp_()),
    ("clamp_", lambda lib, e: e.clamp_(0, 1)),
    ("relu_", lambda lib, e: e.relu_()),
    ("sigmoid_", lambda lib, e: e.sigmoid_()),
    ("addcmul_", lambda lib, e: e.addcmul_(lib.ones(3), lib.ones(3))),
    ("lerp_", lambda lib, e: e.lerp_(lib.ones(3), 0.5)),
    ("copy_", lambda lib, e: e.copy_(lib.arange(3.0))),
    ("setitem slice", lambda lib, e: e.__setitem__(slice(1, None), 1.0)),
    ("setitem all", lambda lib, e: e.__setitem__(Ellipsis, lib.arange(3.0))),
    ("setitem one element", lambda lib, e: e.__setitem__(0, 5.0)),
    ("fill_", lambda lib, e: e.fill_(2.0)),
    ("zero_", lambda lib, e: e.zero_()),
    ("masked_fill_", lambda lib, e: e.masked_fill_(lib.tensor([True, False, False]), 1.0)),
    ("index_fill_", lambda lib, e: e.index_fill_(0, lib.tensor([1]), 4.0)),
    ("index_put_", lambda lib, e: e.index_put_((lib.tensor([0]),), lib.tensor(1.0))),
    ("setitem advanced", lambda lib, e: e.__setitem__(lib.tensor([0, 1]), 3.0)),
    ("scatter_", lambda lib, e: e.scatter_(0, lib.tensor([0]), 1.0)),
    ("scatter_add_", lambda lib, e: e.scatter_add_(0, lib.tensor([0]), lib.ones(1))),
    ("index_add_", lambda lib, e: e.index_add_(0, lib.tensor([0]), lib.ones(1))),
    ("index_copy_", lambda lib, e: e.index_copy_(0, lib.tensor([0]), lib.ones(1))),
    ("masked_scatter_", lambda lib, e: e.masked_scatter_(lib.tensor([True, False, False]), lib.ones(3))),
    ("uniform_", lambda lib, e: e.uniform_()),
    ("normal_", lambda lib, e: e.normal_()),
    ("bernoulli_", lambda lib, e: e.bernoulli_()),
    ("random_", lambda lib, e: e.random_(0, 5)),
    ("exponential_", lambda lib, e: e.exponential_()),
    ("2-d expand", lambda lib, e: lib.zeros(3, 1).expand(3, 3).add_(1)),
    ("zero-size expand", lambda lib, e: lib.zeros(1).expand(0).add_(1)),
]


def _outcome(lib, write):
    """(exception type, first line) or ('ok', values, warning texts) of one write into a fresh expanded tensor."""
    e = _expanded(lib)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = write(lib, e)
        except Exception as err:  # noqa: BLE001 - compared with whatever torch raises
            return type(err).__name__, str(err).splitlines()[0], e.tolist()
    values = e.tolist() if out is None or out is e else out.tolist()
    return "ok", values, sorted(str(w.message).split(" (Triggered")[0] for w in caught)


@pytest.mark.parametrize("name,write", _WRITES, ids=[n for n, _ in _WRITES])
def test_writes_into_expanded_tensors_match_torch(name, write, torch):
    if name in ("uniform_", "normal_", "bernoulli_", "random_", "exponential_"):
        assert _outcome(tensorlab, write)[0] == _outcome(torch, write)[0] == "RuntimeError"
    else:
        assert _outcome(tensorlab, write) == _outcome(torch, write)


@pytest.mark.parametrize("name,write", _WRITES[:14], ids=[n for n, _ in _WRITES[:14]])
def test_a_refused_write_changes_nothing(name, write):
    base = tensorlab.tensor([7.0])
    e = base.expand(3)
    version = e._version
    if name == "setitem one element":
        pytest.skip("a 0-d target has no overlap: the write is allowed")
    with pytest.raises(RuntimeError, match=OVERLAP):
        write(tensorlab, e)
    assert base.tolist() == [7.0] and e._version == version


def test_overlap_is_refused_while_recording_too():
    w = tensorlab.ones(3, requires_grad=True)
    target = tensorlab.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match=OVERLAP):
        target.mul_(w)
    assert target.grad_fn is None and target.tolist() == [0.0, 0.0, 0.0]


# -- random fillers: PyTorch's argument errors, raised before a number is drawn --------------------

_RANDOM_CALLS = [
    lambda lib: lib.zeros(3).bernoulli_(1.5),
    lambda lib: lib.zeros(3).bernoulli_(-0.1),
    lambda lib: lib.zeros(3).bernoulli_(lib.tensor([0.5, 2.0, 0.1])),
    lambda lib: lib.zeros(3).bernoulli_("a"),
    lambda lib: lib.zeros(3).normal_(0, -1),
    lambda lib: lib.zeros(3).normal_(0, float("nan")),
    lambda lib: lib.zeros(3).normal_("a"),
    lambda lib: lib.zeros(3, dtype=lib.int64).normal_(),
    lambda lib: lib.zeros(3).exponential_(-1),
    lambda lib: lib.zeros(3).exponential_(0),
    lambda lib: lib.zeros(3, dtype=lib.int64).exponential_(),
    lambda lib: lib.zeros(3).random_(5, 2),
    lambda lib: lib.zeros(3).random_(5, 5),
    lambda lib: lib.zeros(3).random_(0),
    lambda lib: lib.zeros(3).random_(-3),
    lambda lib: lib.zeros(3).random_(2.5),
    lambda lib: lib.zeros(3).random_(0, 2 ** 70),
    lambda lib: lib.zeros(3, dtype=lib.int32).random_(2 ** 40),
    lambda lib: lib.zeros(3, dtype=lib.uint8).random_(-1, 3),
    lambda lib: lib.zeros(3).uniform_(5, 2),
    lambda lib: lib.zeros(3).uniform_(0, float("inf")),
    lambda lib: lib.zeros(3).uniform_("a"),
    lambda lib: lib.zeros(3, dtype=lib.float16).uniform_(0, 1e6),
    lambda lib: lib.zeros(3, dtype=lib.int64).uniform_(),
    lambda lib: lib.zeros(3).geometric_(1.5),
    lambda lib: lib.zeros(3).log_normal_(0, -1),
    lambda lib: lib.zeros(3).cauchy_(0, -1),
]


@pytest.mark.parametrize("call", _RANDOM_CALLS)
def test_random_fillers_raise_torchs_errors_and_draw_nothing(call, torch):
    with pytest.raises(Exception) as expected:
        call(torch)
    state = tensorlab.get_rng_state()
    with pytest.raises(type(expected.value)) as got:
        call(tensorlab)
    assert str(got.value).splitlines()[0] == str(expected.value).splitlines()[0]
    assert np.array_equal(np.asarray(tensorlab.get_rng_state()), np.asarray(state))


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "int8", "uint8", "int32", "int64", "bool"])
def test_random_without_arguments_covers_torchs_range(dt, torch):
    """``random_()`` draws integers from [0, 2**mantissa] for floats and [0, max] for integers."""
    ours = getattr(tensorlab, dt)
    t = tensorlab.zeros(4000, dtype=ours).random_()
    values = t.numpy().astype(np.float64)
    info = torch.finfo(getattr(torch, dt)) if ours.is_floating_point else None
    top = 2.0 ** (np.finfo(ours.np).nmant + 1) if info else (1 if dt == "bool" else np.iinfo(ours.np).max)
    assert values.min() >= 0 and values.max() <= top and np.all(values == np.round(values))
    assert values.max() > top / 2                     # the draws spread over the range


def test_valid_random_fillers_still_fill():
    tensorlab.manual_seed(0)
    t = tensorlab.zeros(1000)
    assert 0.4 < t.bernoulli_(tensorlab.full((1000,), 0.5)).mean().item() < 0.6
    assert set(tensorlab.zeros(200, dtype=tensorlab.int64).random_(3, 6).tolist()) == {3, 4, 5}
    assert tensorlab.zeros(100).uniform_(2, 2).tolist() == [2.0] * 100
    assert t.geometric_(0.5).min().item() >= 1 and t.log_normal_().min().item() > 0
    assert np.isfinite(t.cauchy_().numpy()).all()


# -- read-only memory ------------------------------------------------------------------------------


def _read_only_tensor():
    array = np.arange(3, dtype=np.float32)
    array.setflags(write=False)
    with pytest.warns(UserWarning, match="The given NumPy array is not writable"):
        return tensorlab.from_numpy(array)


@pytest.mark.parametrize("write", [
    lambda t: t.add_(1), lambda t: t.copy_(tensorlab.ones(3)), lambda t: t.fill_(1), lambda t: t.zero_(),
    lambda t: t.__setitem__(0, 5.0), lambda t: t.__setitem__(tensorlab.tensor([0, 2]), 5.0),
    lambda t: t.uniform_(), lambda t: t.index_put_((tensorlab.tensor([1]),), tensorlab.tensor(1.0)),
    lambda t: t.masked_fill_(tensorlab.tensor([True, False, True]), 0.0), lambda t: t[1:].mul_(2),
])
def test_writing_into_read_only_memory_is_a_clear_error(write):
    t = _read_only_tensor()
    with pytest.raises(RuntimeError, match="read-only NumPy array"):
        write(t)
    assert t.tolist() == [0.0, 1.0, 2.0] and t._version == 0
    copy = t.clone()
    write(copy)                                           # the copy is writable
    assert copy._version > 0


# -- load_state_dict: a load that fails changes nothing ------------------------------------------------


def _model(lib, buffer):
    class M(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(2, 2)
            self.register_buffer("buf", buffer)
    return M()


def test_load_state_dict_into_an_expanded_buffer_raises_like_torch_and_changes_nothing(torch):
    def state(lib):
        return {"lin.weight": lib.ones(2, 2), "lin.bias": lib.ones(2), "buf": lib.arange(3.0)}

    with pytest.raises(RuntimeError) as expected:
        _model(torch, torch.zeros(1).expand(3)).load_state_dict(state(torch))
    model = _model(tensorlab, tensorlab.zeros(1).expand(3))
    before = {k: (v.clone(), v._version) for k, v in model.state_dict().items()}
    with pytest.raises(RuntimeError) as got:
        model.load_state_dict(state(tensorlab))
    assert str(got.value) == str(expected.value)
    for k, v in model.state_dict().items():
        assert v.tolist() == before[k][0].tolist() and v._version == before[k][1]


def test_load_state_dict_into_a_read_only_buffer_changes_nothing():
    model = _model(tensorlab, _read_only_tensor())
    before = {k: v.clone() for k, v in model.state_dict().items()}
    with pytest.raises(RuntimeError, match='While copying the parameter named "buf".*read-only NumPy array'):
        model.load_state_dict({"lin.weight": tensorlab.ones(2, 2), "lin.bias": tensorlab.ones(2),
                               "buf": tensorlab.ones(3)})
    for k, v in model.state_dict().items():
        assert v.tolist() == before[k].tolist()
    model.load_state_dict({"lin.weight": tensorlab.ones(2, 2), "lin.bias": tensorlab.ones(2),
                           "buf": tensorlab.ones(3)}, assign=True)     # adopting a new tensor is fine
    assert model.buf.tolist() == [1.0, 1.0, 1.0]
