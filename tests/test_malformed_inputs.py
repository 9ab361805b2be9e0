"""Property test: malformed arguments to the public creation, indexing, shape and in-place APIs raise only
the kinds of exception PyTorch raises for bad input -- never an internal error.

PyTorch answers bad input with TypeError, ValueError, RuntimeError, IndexError or NotImplementedError
-- and OverflowError for a Python int that does not fit in 64 bits ("int too big to convert",
"can't convert negative int to unsigned"), which is then the only kind of error accepted from NumPy.
Any other AttributeError, KeyError, OverflowError or ZeroDivisionError escaping from tensorlab means a check is
missing (the input reached code that assumed it was valid); so does any exception raised inside NumPy
and passed through unchanged (NumPy's wording, not PyTorch's). A failed in-place call must also leave
the tensor as it was (see tests/test_inplace_safety.py for the version counter).
"""
import os
import traceback
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

import tensorlab

_PYTORCH_KINDS = (TypeError, ValueError, RuntimeError, IndexError, NotImplementedError)
_NUMPY_DIR = os.path.dirname(np.__file__)
_TENSORLAB_DIR = os.path.dirname(tensorlab.__file__)


def _tensors():
    return st.sampled_from([
        lambda: tensorlab.ones(3), lambda: tensorlab.arange(6).reshape(2, 3), lambda: tensorlab.tensor(2.0),
        lambda: tensorlab.tensor([True, False, True]), lambda: tensorlab.zeros(0), lambda: tensorlab.ones(1).expand(3),
        lambda: tensorlab.tensor([0, 5, -1]), lambda: tensorlab.ones(2, 2, dtype=tensorlab.float64),
    ]).map(lambda make: make())


_odd_values = st.one_of(
    st.integers(-3, 5),
    # (sizes past what an int64 of bytes counts: a merely huge size would really be allocated)
    st.sampled_from([2 ** 62, 2 ** 63, 2 ** 64, -2 ** 63 - 1, 10 ** 30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(), st.text(max_size=3), st.binary(max_size=3), st.booleans(), st.complex_numbers(max_magnitude=3),
    st.sampled_from([object(), {}, {"a": 1}, set(), Ellipsis, slice(None, None, 0), slice("a", None),
                     float, int, bool, "float32", np.float32, np.int64(3), np.float64("nan"),
                     np.array([1.0, 2.0]), np.array([[1, 2]]), np.array(["a"]), np.array([None]),
                     np.array([True, False, True]), tensorlab.float32, tensorlab.int64, tensorlab.device("cpu")]),
    st.recursive(st.integers(-2, 3) | st.floats(-2, 2) | st.text(max_size=1) | st.none(),
                 lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner), max_leaves=6),
    _tensors(),
)

_CALLS = {
    # creation
    "tensor": lambda a, b: tensorlab.tensor(a),
    "tensor(dtype)": lambda a, b: tensorlab.tensor(a, dtype=b),
    "as_tensor": lambda a, b: tensorlab.as_tensor(a),
    "zeros": lambda a, b: tensorlab.zeros(a),
    "ones(a, b)": lambda a, b: tensorlab.ones(a, b),
    "empty(dtype)": lambda a, b: tensorlab.empty(2, dtype=a),
    "full": lambda a, b: tensorlab.full(a, b),
    "full((2,), b)": lambda a, b: tensorlab.full((2,), b),
    "arange": lambda a, b: tensorlab.arange(a, b),
    "randn": lambda a, b: tensorlab.randn(a),
    "randint": lambda a, b: tensorlab.randint(a, b, (2,)),
    "eye": lambda a, b: tensorlab.eye(a),
    "cat": lambda a, b: tensorlab.cat([tensorlab.ones(2), a]),
    "stack": lambda a, b: tensorlab.stack([a, b]),
    # indexing
    "getitem": lambda a, b: tensorlab.arange(6.0).reshape(2, 3)[a],
    "getitem pair": lambda a, b: tensorlab.arange(6.0).reshape(2, 3)[a, b],
    "setitem": lambda a, b: tensorlab.arange(6.0).reshape(2, 3).__setitem__(a, b),
    "index_select": lambda a, b: tensorlab.arange(6.0).index_select(0, a),
    "gather": lambda a, b: tensorlab.arange(6.0).gather(0, a),
    # shapes
    "reshape": lambda a, b: tensorlab.arange(6.0).reshape(a),
    "view": lambda a, b: tensorlab.arange(6.0).view(a, b),
    "expand": lambda a, b: tensorlab.ones(1, 3).expand(a, b),
    "permute": lambda a, b: tensorlab.ones(2, 3).permute(a, b),
    "transpose": lambda a, b: tensorlab.ones(2, 3).transpose(a, b),
    "unsqueeze": lambda a, b: tensorlab.ones(3).unsqueeze(a),
    "sum(dim)": lambda a, b: tensorlab.ones(2, 3).sum(a),
    "narrow": lambda a, b: tensorlab.ones(3).narrow(0, a, b),
    "to": lambda a, b: tensorlab.ones(3).to(a),
}

_INPLACE = {
    "add_": lambda t, a, b: t.add_(a),
    "mul_": lambda t, a, b: t.mul_(a),
    "copy_": lambda t, a, b: t.copy_(a),
    "fill_": lambda t, a, b: t.fill_(a),
    "clamp_": lambda t, a, b: t.clamp_(a, b),
    "index_add_": lambda t, a, b: t.index_add_(0, a, b),
    "index_put_": lambda t, a, b: t.index_put_(a, b),
    "index_fill_": lambda t, a, b: t.index_fill_(0, a, b),
    "masked_fill_": lambda t, a, b: t.masked_fill_(a, b),
    "scatter_": lambda t, a, b: t.scatter_(0, a, b),
    "uniform_": lambda t, a, b: t.uniform_(a, b),
    "normal_": lambda t, a, b: t.normal_(a, b),
    "bernoulli_": lambda t, a, b: t.bernoulli_(a),
    "random_": lambda t, a, b: t.random_(a, b),
    "exponential_": lambda t, a, b: t.exponential_(a),
    "setitem": lambda t, a, b: t.__setitem__(a, b),
}


def _beyond_64_bits(value):
    return type(value) is int and not -2 ** 63 <= value < 2 ** 63


def _check(call, *args):
    """Run ``call``; an exception must be of a PyTorch kind and must not come straight out of NumPy."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(*args)
        except _PYTORCH_KINDS as err:
            frames = traceback.extract_tb(err.__traceback__)
            ours = [f for f in frames if f.filename.startswith(_TENSORLAB_DIR)]
            if ours and frames[-1].filename.startswith(_NUMPY_DIR):
                raise AssertionError(f"NumPy's {type(err).__name__} escaped from tensorlab "
                                     f"({ours[-1].filename}:{ours[-1].lineno}): {err}") from err
            return err
        except OverflowError as err:
            assert any(_beyond_64_bits(a) for a in args), f"OverflowError without a too-big int: {err!r}"
            return err
        except Exception as err:  # noqa: BLE001 - exactly what this test looks for
            raise AssertionError(f"{type(err).__name__} is not an exception PyTorch raises for bad input: "
                                 f"{err!r}") from err
    return None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(_CALLS)), _odd_values, _odd_values)
def test_malformed_arguments_raise_only_pytorch_kinds(name, a, b):
    _check(_CALLS[name], a, b)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(_INPLACE)), _tensors(), _odd_values, _odd_values)
def test_malformed_in_place_calls_raise_only_pytorch_kinds_and_change_nothing(name, target, a, b):
    before, version = target.numpy().copy(), target._version
    if _check(_INPLACE[name], target, a, b) is not None:
        np.testing.assert_array_equal(target.numpy(), before)
        assert target._version == version
