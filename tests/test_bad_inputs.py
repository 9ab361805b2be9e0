"""Bad input gets PyTorch's exception type and key phrase -- never an AttributeError or a NumPy error
from inside tensorlab. Each case runs the same call in both libraries (see issue 12's list)."""
import warnings

import numpy as np
import pytest

import tensorlab
from tests.tensor_core_oracle import raises_like


class _MixedDataset:
    """A dataset whose first item is a tensor and second a string: collating them must fail cleanly."""

    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return self.lib.ones(2) if i == 0 else "a"


def _set_data(lib):
    t = lib.ones(2)
    t.data = [1, 2]


def _freed(lib, name, op):
    x = lib.ones(3, requires_grad=True)
    y = getattr(x, op)()
    y.sum().backward()
    return getattr(y.grad_fn, name)


BAD = {
    "dtype as a string": lambda lib: lib.tensor([1, 2], dtype="float32"),
    "dtype as a NumPy type": lambda lib: lib.zeros(2, dtype=np.float32),
    "to(dtype=str)": lambda lib: lib.ones(2).to(dtype="x"),
    "to(list)": lambda lib: lib.ones(2).to([1]),
    "cat with a str": lambda lib: lib.cat([lib.ones(2), "a"]),
    "stack with a str": lambda lib: lib.stack([lib.ones(2), "a"]),
    "DataLoader: tensor then str": lambda lib: list(lib.utils.data.DataLoader(_MixedDataset(lib), batch_size=2)),
    "t.data = list": _set_data,
    "backward(list of floats)": lambda lib: (lib.ones(3, requires_grad=True) * 2).backward([1.0, 1.0, 1.0]),
    "backward(str)": lambda lib: (lib.ones(3, requires_grad=True) * 2).backward("a"),
    "full with a str": lambda lib: lib.full((2,), "x"),
    "full with None": lambda lib: lib.full((2,), None),
    "full with a 1-d tensor": lambda lib: lib.full((2,), lib.ones(2)),
    "full_like with a str": lambda lib: lib.full_like(lib.ones(2), "x"),
    "new_full with a str": lambda lib: lib.ones(2).new_full((2,), "x"),
    "fill_ with a str": lambda lib: lib.ones(2).fill_("x"),
    "tensor(bytes)": lambda lib: lib.tensor(b"abc"),
    "tensor([bytes])": lambda lib: lib.tensor([b"a"]),
    "tensor(['a'])": lambda lib: lib.tensor(["a"]),
    "tensor([1, 'a'])": lambda lib: lib.tensor([1, "a"]),
    "ragged rows": lambda lib: lib.tensor([[1, 2], [3]]),
    "ragged depth": lambda lib: lib.tensor([[1, 2], 3]),
    "index with a str": lambda lib: lib.ones(3)["a"],
    "index with None and a str": lambda lib: lib.ones(3)[None, "a"],
    ".to(5) without a GPU": lambda lib: lib.ones(3).to(5),
    "manual_seed(2**64)": lambda lib: lib.manual_seed(2 ** 64),
    "tensor(2**64)": lambda lib: lib.tensor(2 ** 64),
    "tensor(2**63)": lambda lib: lib.tensor(2 ** 63),
    "tensor([1, 2**64])": lambda lib: lib.tensor([1, 2 ** 64]),
    "tensor(-2**63 - 1)": lambda lib: lib.tensor(-2 ** 63 - 1),
    "tensor(inf, int64)": lambda lib: lib.tensor(float("inf"), dtype=lib.int64),
    "tensor([nan], int64)": lambda lib: lib.tensor([float("nan")], dtype=lib.int64),
    "tensor([300], uint8)": lambda lib: lib.tensor([300], dtype=lib.uint8),
    "tensor(requires_grad='yes')": lambda lib: lib.tensor([1.0], requires_grad="yes"),
    "sizes overflow int64": lambda lib: lib.zeros(2 ** 40, 2 ** 40),
    "bytes overflow int64": lambda lib: lib.empty(2 ** 62, 4),
    "rand sizes overflow": lambda lib: lib.rand(2 ** 31, 2 ** 31, 4),
    "index_add_ index past the end": lambda lib: lib.zeros(3).index_add_(0, lib.tensor([5]), lib.ones(1)),
    "index_add_ index before the start": lambda lib: lib.zeros(3).index_add_(0, lib.tensor([-4]), lib.ones(1)),
    "index_add_ negative index": lambda lib: lib.zeros(3).index_add_(0, lib.tensor([-1]), lib.ones(1)),
    "WeightedRandomSampler negative weight": lambda lib: list(lib.utils.data.WeightedRandomSampler([1.0, -1.0], 2)),
    "WeightedRandomSampler all zero": lambda lib: list(lib.utils.data.WeightedRandomSampler([0.0, 0.0], 2)),
    "multinomial negative": lambda lib: lib.multinomial(lib.tensor([-1.0, 2.0]), 1),
    "multinomial all zero": lambda lib: lib.multinomial(lib.tensor([0.0, 0.0]), 1),
    "multinomial nan": lambda lib: lib.multinomial(lib.tensor([float("nan"), 1.0]), 1, True),
    "multinomial of ints": lambda lib: lib.multinomial(lib.tensor([1, 2]), 1),
    "multinomial 3-d": lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1),
    "multinomial 0 samples": lambda lib: lib.multinomial(lib.ones(2), 0),
    "multinomial too many": lambda lib: lib.multinomial(lib.ones(2), 3),
    "list of two 2-element tensors": lambda lib: lib.tensor([lib.ones(2), lib.ones(2)]),
    "list of tensors of 2 and 3": lambda lib: lib.tensor([lib.ones(2), lib.ones(3)]),
    "_saved_result after backward": lambda lib: _freed(lib, "_saved_result", "exp"),
    "_saved_self after backward": lambda lib: _freed(lib, "_saved_self", "sin"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_raises_like_torch(case, torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raises_like(lambda: BAD[case](torch), lambda: BAD[case](tensorlab))


GOOD = {
    "dtype=float": lambda lib: lib.tensor([1, 2], dtype=float),
    "dtype=int": lambda lib: lib.tensor([1.5, 2], dtype=int),
    "dtype=bool": lambda lib: lib.tensor([0, 2], dtype=bool),
    "zeros(dtype=float)": lambda lib: lib.zeros(2, dtype=float),
    "arange(dtype=float)": lambda lib: lib.arange(3, dtype=float),
    "ones_like(dtype=int)": lambda lib: lib.ones_like(lib.ones(2), dtype=int),
    "to(float)": lambda lib: lib.ones(2).to(float),
    "to(dtype=int)": lambda lib: lib.ones(2).to(dtype=int),
    "list of 0-d and 1-d tensors": lambda lib: lib.tensor([lib.tensor(1.0), lib.ones(1)]),
    "tensor of a 0-d int and a float": lambda lib: lib.tensor([lib.tensor(1), 2.5]),
    "nested one-element tensors": lambda lib: lib.tensor([[lib.tensor(1.0)], [lib.ones(1)]]),
    "full with a 0-d tensor": lambda lib: lib.full((2,), lib.tensor(3.0)),
    "tensor(2**63, float32)": lambda lib: lib.tensor(2 ** 63, dtype=lib.float32),
    "multinomial without replacement runs into zeros": lambda lib: lib.multinomial(lib.tensor([1.0, 0.0]), 2),
}


@pytest.mark.parametrize("case", list(GOOD))
def test_python_types_and_one_element_tensors_work_like_torch(case, torch):
    ours, theirs = GOOD[case](tensorlab), GOOD[case](torch)
    assert str(ours.dtype) == str(theirs.dtype) and ours.tolist() == theirs.tolist()


def test_saved_tensors_are_readable_before_backward(torch):
    for lib in (tensorlab, torch):
        x = lib.tensor([0.5, 1.0], requires_grad=True)
        y = x.exp()
        np.testing.assert_allclose(y.grad_fn._saved_result.detach().numpy(), np.exp([0.5, 1.0]), rtol=1e-6)
        z = x.sin()
        assert z.grad_fn._saved_self.tolist() == [0.5, 1.0]
        w = x * lib.tensor([2.0, 3.0])
        assert w.grad_fn._saved_other.tolist() == [2.0, 3.0]
        with pytest.raises(AttributeError):
            _ = z.grad_fn._saved_result           # sin saves its input, not its result
        z.sum().backward(retain_graph=True)
        assert z.grad_fn._saved_self.tolist() == [0.5, 1.0]


def test_a_huge_but_countable_tensor_is_an_allocation_error():
    with pytest.raises(RuntimeError, match="DefaultCPUAllocator: can't allocate memory"):
        tensorlab.zeros(2 ** 40, 2 ** 20)


def test_an_arange_too_big_for_the_machine_is_pytorchs_allocation_error(monkeypatch):
    """NumPy's MemoryError must not escape: PyTorch raises RuntimeError from its allocator."""
    import numpy
    def no_memory(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr(numpy, "arange", no_memory)
    with pytest.raises(RuntimeError, match="DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                                           "224664598984 bytes"):
        tensorlab.arange(0, 28083074873.0, dtype=tensorlab.float64)


@pytest.mark.parametrize("numel", [1, 2])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "bool", "float16", "float32"])
@pytest.mark.parametrize("value", [300.0, 300, -1, 2.5, -255, -256, 70000, 1e10, 2 ** 40, 1e39,
                                   9.223372036854776e18, -9.223372036854776e18, float("inf")])
def test_fill_with_a_number_the_dtype_cannot_hold_is_pytorchs_overflow_error(torch, dtype, value, numel):
    results = []
    for m in (tensorlab, torch):
        t = m.zeros(numel, dtype=getattr(m, dtype))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t.fill_(value)
            results.append(("ok", t.tolist()))
        except Exception as error:  # noqa: BLE001 - the exception is what is compared
            results.append((type(error).__name__, str(error)))
    assert results[0] == results[1]


def test_fill_with_nan_refused_by_integer_types_kept_by_floats(torch):
    for m in (tensorlab, torch):
        with pytest.raises(RuntimeError, match="value cannot be converted to type int64_t without overflow"):
            m.zeros(2, dtype=m.int64).fill_(float("nan"))
        assert m.zeros(2).fill_(float("nan")).isnan().all()
