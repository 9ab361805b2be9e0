"""``tensor(data)`` reads any Python sequence PyTorch reads -- lists, tuples, ranges, deques, array.array,
torch.Size, NumPy arrays and one-element tensors nested in them -- and refuses what PyTorch refuses
(sets, dicts, iterators, generators, ragged rows), with PyTorch's exception and message."""
import array
import collections
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab


class Pairs:
    """A sequence of one's own: a length and items by position, nothing else."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        if i >= 2:
            raise IndexError(i)
        return i * 1.5


CASES = ["range(5)", "range(0)", "range(1, 10, 3)", "[range(3), range(3)]", "[range(2), (5, 6)]", "(1, 2.5)",
         "[(1, 2), [3, 4]]", "[lib.tensor(1), lib.tensor(2)]", "[lib.tensor(1.5), 2]", "[lib.tensor([[1.5]]), 2]",
         "[lib.tensor([1, 2]), lib.tensor([3, 4])]", "[lib.tensor([1., 2.]), lib.tensor([3., 4.])]",
         "[[1, 2], [lib.tensor([3, 4])]]", "[1, lib.tensor([2, 3])]", "[np.float32(1), 2]", "[np.array(1.5), 2]",
         "[np.array([1, 2]), np.array([3, 4])]", "[np.array([1., 2.]), [3., 4.]]",
         "[[1, 2], [np.int64(3), np.array(4)]]", "[np.float64(1.0)]", "[np.int32(1), np.int32(2)]",
         "np.int16(3)", "np.array([1, 2], dtype=np.uint8)", "{1: 2}.keys()", "{1, 2}", "iter([1, 2])",
         "(i for i in range(3))", "Pairs()", "[Pairs(), Pairs()]", "lib.Size([2, 3])",
         "collections.deque([1, 2])", "array.array('f', [1, 2])", "array.array('i', [1, 2])", "bytearray(b'ab')",
         "memoryview(b'ab')", "b'ab'", "'ab'", "['a']", "None", "[None]", "[[1, 2], [3]]", "[[1, 2], 3]",
         "[1, [2, 3]]", "[1., [2., 3.]]", "[True, [True]]", "[1, range(2)]", "[]", "[[], []]", "True",
         "[True, 2]", "[1, 2.0]", "[1., np.array([2., 3.])]", "[1., np.array([2.])]", "[1, np.array([2])]",
         "[[], [1, 2]]", "[[1, 2], []]", "[[], 0]", "[[], object()]", "[[], 'a']", "[[], [[1]]]", "[1, []]",
         "[1e300]", "2**70", "[2**70]", "[-2**63]", "[lib.tensor([1.])]",
         "[[lib.tensor(1.)], [2]]", "np.bool_(True)", "object()", "[1, object()]"]


def _outcome(lib, expr):
    namespace = {"lib": lib, "np": np, "collections": collections, "array": array, "Pairs": Pairs}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = lib.tensor(eval(expr, namespace))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return type(e).__name__, str(e)
    return repr(t), str(t.dtype), tuple(t.shape)


@pytest.mark.parametrize("expr", CASES)
def test_same_tensor_or_same_error_as_pytorch(torch, expr):
    assert _outcome(tensorlab, expr) == _outcome(torch, expr)


def test_a_list_of_numpy_arrays_warns_once_as_pytorch():
    import tensorlab.ops.from_data as from_data
    from_data._warned_list_of_arrays = False
    with pytest.warns(UserWarning, match="Creating a tensor from a list of numpy.ndarrays is extremely slow"):
        tensorlab.tensor([np.array([1, 2])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tensorlab.tensor([np.array([1, 2])])


def _nested(leaf):
    """Nested lists/tuples/ranges of a common shape, sometimes ragged."""
    def level(children):
        return st.one_of(st.lists(children, min_size=0, max_size=3),
                         st.lists(children, min_size=0, max_size=3).map(tuple))
    return st.recursive(leaf, level, max_leaves=12)


LEAVES = st.one_of(st.integers(-5, 5), st.floats(-4, 4, width=32), st.booleans(),
                   st.integers(0, 4).map(range), st.integers(-3, 3).map(np.int32))


@settings(max_examples=150, deadline=None)
@given(_nested(LEAVES))
def test_nested_data_matches_pytorch(data):
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (tensorlab, torch):
        try:
            t = lib.tensor(data)
            outcomes.append((str(t.dtype), tuple(t.shape), t.tolist()))
        except Exception as e:  # noqa: BLE001
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float64", "float16"])
@pytest.mark.parametrize("expr", ["range(4)", "[1.5, 2.5]", "[[True, False]]", "[lib.tensor([1., 2.])]",
                                  "[[1, 2], 3]", "[1, [2]]"])
def test_explicit_dtype_matches_pytorch(torch, expr, dtype):
    outcomes = []
    for lib in (tensorlab, torch):
        try:
            t = lib.tensor(eval(expr, {"lib": lib}), dtype=getattr(lib, dtype))
            outcomes.append((repr(t), tuple(t.shape)))
        except Exception as e:  # noqa: BLE001
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[0] == outcomes[1]
