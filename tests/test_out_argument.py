"""``out=`` on the pointwise ``tensorlab.*`` functions (ops/out.py), compared with PyTorch: the result goes
into ``out``, which is returned; a wrong shape is resized (warning when ``out`` had elements); the result
is cast to ``out``'s dtype when the cast keeps its category; inputs that require grad are refused; ``out``
may alias an input. A failing call leaves ``out`` as it was."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")

A = np.array([[0.5, -1.5, 2.0], [3.0, -0.25, 1.0]], dtype=np.float32)
B = np.array([1.5, 2.0, -4.0], dtype=np.float32)
POS = np.abs(A) + 0.5

# name -> (args built from a library, kwargs): a representative set over the op families
CALLS = {
    "add": lambda lib: ((lib.tensor(A), lib.tensor(B)), {"alpha": 2}),
    "sub": lambda lib: ((lib.tensor(A), 1.5), {}),
    "mul": lambda lib: ((lib.tensor(A), lib.tensor(B)), {}),
    "div": lambda lib: ((lib.tensor(A), lib.tensor(B)), {}),
    "div_floor": lambda lib: ((lib.tensor(A), lib.tensor(B)), {"rounding_mode": "floor"}),
    "pow": lambda lib: ((lib.tensor(POS), 2.5), {}),
    "remainder": lambda lib: ((lib.tensor(A), lib.tensor(B)), {}),
    "exp": lambda lib: ((lib.tensor(A),), {}),
    "log": lambda lib: ((lib.tensor(POS),), {}),
    "sqrt": lambda lib: ((lib.tensor(POS),), {}),
    "neg": lambda lib: ((lib.tensor(A),), {}),
    "abs": lambda lib: ((lib.tensor(A),), {}),
    "sin": lambda lib: ((lib.tensor(A),), {}),
    "sigmoid": lambda lib: ((lib.tensor(A),), {}),
    "atan2": lambda lib: ((lib.tensor(A), lib.tensor(B)), {}),
    "floor": lambda lib: ((lib.tensor(A),), {}),
    "round": lambda lib: ((lib.tensor(A),), {"decimals": 1}),
    "maximum": lambda lib: ((lib.tensor(A), lib.tensor(B)), {}),
    "clamp": lambda lib: ((lib.tensor(A),), {"min": -1.0, "max": 1.0}),
    "lerp": lambda lib: ((lib.tensor(A), lib.tensor(B), 0.25), {}),
    "where": lambda lib: ((lib.tensor(A > 0), lib.tensor(A), lib.tensor(B)), {}),
    "eq": lambda lib: ((lib.tensor(A), 1.0), {}),
    "logical_and": lambda lib: ((lib.tensor(A), lib.tensor(B)), {}),
}


def _fn(lib, name):
    return getattr(lib, "div" if name == "div_floor" else name)


def _both(torch, name, out_dtype="float32", out_shape=(2, 3)):
    """Call ``name`` with ``out=`` in both libraries: (our result, our out, their result, their out)."""
    results = []
    for lib in (tensorlab, torch):
        args, kwargs = CALLS[name](lib)
        out = lib.zeros(out_shape, dtype=getattr(lib, out_dtype))
        results += [_fn(lib, name)(*args, out=out, **kwargs), out]
    return results


def _same(ours, theirs):
    assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_result_is_written_into_out_and_out_is_returned(torch, name):
    ours, our_out, theirs, their_out = _both(torch, name)
    assert ours is our_out and theirs is their_out
    _same(our_out, their_out)
    assert our_out._version == their_out._version == 1
    args, kwargs = CALLS[name](tensorlab)
    _same(our_out, _fn(tensorlab, name)(*args, **kwargs).to(our_out.dtype))  # same values as without out=


@pytest.mark.parametrize("name", ["add", "exp", "eq", "clamp", "where", "abs", "floor", "lerp", "maximum"])
@pytest.mark.parametrize("out_dtype", ["float64", "float32", "int64", "int32", "bool"])
def test_result_is_cast_to_outs_dtype_or_refused_as_pytorch(torch, name, out_dtype):
    args, kwargs = CALLS[name](torch)
    try:
        getattr(torch, name)(*args, out=torch.zeros(2, 3, dtype=getattr(torch, out_dtype)), **kwargs)
    except RuntimeError as e:
        out = tensorlab.full((2, 3), 7, dtype=getattr(tensorlab, out_dtype))
        args, kwargs = CALLS[name](tensorlab)
        with pytest.raises(RuntimeError) as ours:
            getattr(tensorlab, name)(*args, out=out, **kwargs)
        assert str(ours.value) == str(e)
        assert (out.numpy() == np.full((2, 3), 7).astype(out_dtype)).all() and out._version == 0  # unchanged
        return
    ours, our_out, theirs, their_out = _both(torch, name, out_dtype)
    _same(our_out, their_out)


@pytest.mark.parametrize("call", [lambda lib: lib.clamp(lib.tensor(B), lib.tensor(A)),
                                  lambda lib: lib.clamp_min(lib.tensor(B), 0.0),
                                  lambda lib: lib.nan_to_num(lib.tensor(B)),
                                  lambda lib: lib.isposinf(lib.tensor(B)),
                                  lambda lib: lib.bitwise_not(lib.tensor([1, 2])),
                                  lambda lib: lib.neg(lib.tensor([1, 2]))])
@pytest.mark.parametrize("out_dtype", ["float64", "int64", "bool"])
def test_ops_that_want_outs_own_dtype_match_pytorch(torch, call, out_dtype):
    """Some kernels take no cast (abs, floor, clamp with number bounds...), isposinf only a bool out."""
    outcome = []
    for lib in (tensorlab, torch):
        out = lib.zeros(tuple(call(lib).shape), dtype=getattr(lib, out_dtype))
        try:
            outcome.append(_call_with_out(lib, call, out))
        except RuntimeError as e:
            outcome.append(str(e).split(" (Triggered")[0])
    assert outcome[0] == outcome[1]


def _call_with_out(lib, call, out):
    """``call(lib)`` again, its op (every name but ``tensor``) given ``out=out``."""
    class WithOut:
        def __getattr__(self, name):
            attr = getattr(lib, name)
            return attr if name == "tensor" else lambda *a, **k: attr(*a, out=out, **k)
    result = call(WithOut())
    return str(result.dtype), result.tolist()


def test_float_result_into_long_out_has_pytorchs_message(torch):
    a, b = tensorlab.tensor(A), tensorlab.tensor(B)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        tensorlab.add(a, b, out=tensorlab.zeros(2, 3, dtype=tensorlab.long))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        tensorlab.exp(tensorlab.tensor([1, 2]), out=tensorlab.zeros(2, dtype=tensorlab.long))


@pytest.mark.parametrize("out_shape", [(0,), (3,), (2, 3, 1), (7,), ()])
def test_out_of_another_shape_is_resized_warning_when_it_had_elements(torch, out_shape):
    caught = {}
    for lib in (tensorlab, torch):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            args, kwargs = CALLS["mul"](lib)
            out = lib.zeros(out_shape)
            lib.mul(*args, out=out, **kwargs)
        caught[lib.__name__] = ([str(x.message).split(" (Triggered")[0] for x in w if x.category is UserWarning],
                                out)
    (our_warnings, ours), (their_warnings, theirs) = caught["tensorlab"], caught["torch"]
    _same(ours, theirs)
    assert our_warnings == their_warnings
    assert bool(our_warnings) == (int(np.prod(out_shape)) > 0)


def test_a_view_out_that_is_large_enough_is_resized_inside_its_storage(torch):
    results = []
    for lib in (tensorlab, torch):
        big = lib.zeros(10)
        view = big[2:]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.add(lib.tensor(B), 1.0, out=view)
        results.append((big.tolist(), view.tolist(), view.storage_offset()))
    assert results[0] == results[1]


def test_out_may_alias_an_input_like_an_inplace_op(torch):
    for lib in (tensorlab, torch):
        a, b = lib.tensor(A), lib.tensor(B)
        assert lib.add(a, b, out=a) is a
        assert a._version == 1
        np.testing.assert_allclose(a.numpy(), A + B)
        lib.exp(b, out=b)
        np.testing.assert_allclose(b.numpy(), np.exp(B), rtol=1e-6)


@pytest.mark.parametrize("name, grad_name", [("add", "add"), ("multiply", "mul"), ("exp", "exp"),
                                             ("clamp", "clamp"), ("maximum", "maximum"), ("arcsin", "asin")])
def test_inputs_that_require_grad_are_refused_with_pytorchs_message(torch, name, grad_name):
    messages = []
    for lib in (tensorlab, torch):
        a = lib.tensor(A, requires_grad=True)
        args = (a, lib.tensor(B)) if name in ("add", "multiply", "maximum") else (a,)
        kwargs = {"min": 0.0} if name == "clamp" else {}
        out = lib.zeros(2, 3)
        with pytest.raises(RuntimeError) as e:
            getattr(lib, name)(*args, out=out, **kwargs)
        messages.append(str(e.value))
        assert (out.numpy() == 0).all()
    assert messages[0] == messages[1]
    assert messages[0].startswith(f"{grad_name}(): functions with out=... arguments don't support automatic "
                                  "differentiation, but one of the arguments requires grad.")


def test_out_that_requires_grad_is_refused_but_not_for_comparisons_or_in_no_grad(torch):
    for lib in (tensorlab, torch):
        a, b = lib.tensor(A), lib.tensor(B)
        with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
            lib.add(a, b, out=lib.zeros(2, 3, requires_grad=True))
        lib.eq(lib.tensor(A, requires_grad=True), b, out=lib.zeros(2, 3))  # no gradient: allowed
        out = lib.zeros(2, 3, requires_grad=True)
        with lib.no_grad():
            lib.add(lib.tensor(A, requires_grad=True), b, out=out)
        assert out.requires_grad and out.grad_fn is None
        np.testing.assert_allclose(out.detach().numpy(), A + B)


def test_bad_out_arguments_raise_pytorchs_errors_and_change_nothing(torch):
    a, b = tensorlab.tensor(A), tensorlab.tensor(B)
    with pytest.raises(TypeError, match="add\\(\\): argument 'out' must be Tensor, not str"):
        tensorlab.add(a, b, out="x")
    with pytest.raises(TypeError, match="argument 'out' must be Tensor, not list"):
        tensorlab.exp(a, out=[1.0])
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        tensorlab.add(a, b, out=tensorlab.zeros(1, 3).expand(2, 3))
    out = tensorlab.full((2, 3), 7.0)
    with pytest.raises(RuntimeError, match="must match the size"):
        tensorlab.add(a, tensorlab.ones(2), out=out)
    assert (out.numpy() == 7).all() and out._version == 0 and out.shape == (2, 3)
    with pytest.raises(TypeError):
        torch.add(torch.tensor(A), torch.tensor(B), out="x")


def test_out_none_is_the_plain_op_and_methods_take_no_out(torch):
    a, b = tensorlab.tensor(A), tensorlab.tensor(B)
    np.testing.assert_array_equal(tensorlab.add(a, b, out=None).numpy(), A + B)
    for lib in (tensorlab, torch):
        with pytest.raises(TypeError):
            lib.tensor(A).add(lib.tensor(B), out=lib.zeros(2, 3))


@settings(max_examples=30, deadline=None)
@given(a_shape=st.lists(st.integers(1, 3), max_size=3), b_shape=st.lists(st.integers(1, 3), max_size=3),
       out_shape=st.lists(st.integers(0, 3), max_size=3))
def test_broadcast_results_written_into_any_out_shape_match_torch(a_shape, b_shape, out_shape):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(len(a_shape) * 7 + len(b_shape))
    x = rng.standard_normal(a_shape).astype(np.float32)
    y = rng.standard_normal(b_shape).astype(np.float32)
    outcome = []
    for lib in (tensorlab, torch):
        out = lib.zeros(out_shape)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lib.sub(lib.tensor(x), lib.tensor(y), out=out)
            outcome.append((tuple(out.shape), out.numpy().round(5).tolist()))
        except RuntimeError as e:
            outcome.append(("error", type(e).__name__, tuple(out.shape), out.numpy().tolist()))
    assert outcome[0] == outcome[1]
