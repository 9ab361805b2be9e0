"""Reductions against PyTorch: values, dtypes, shapes and grad_fn names for every dim spelling
(None, int, negative, tuple, keepdim); named-tuple results; PyTorch's gradient rules for ties;
errors; and gradcheck/gradgradcheck on strided inputs."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck
from tests.math_oracle import DTYPES, leaf, same, same_grads, sample

# tensorlab silences NumPy's inf/nan RuntimeWarnings (PyTorch has none), but pytest resets warning filters
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")


DIMS = [None, 0, -1, 1, (0, 2), (-1, 0), ()]
MULTI_DIM = ["sum", "mean", "amax", "amin", "var", "std", "norm", "logsumexp", "all", "any", "count_nonzero",
             "var_mean", "std_mean"]


def reduce_call(name, dim, keepdim):
    """``lib.<name>(t, dim, keepdim)`` in the spelling each op accepts."""
    def call(lib, t):
        if name == "count_nonzero":
            return lib.count_nonzero(t, dim=dim)
        if name in ("var_mean", "std_mean"):
            return getattr(lib, name)(t, dim, keepdim=keepdim)
        if name == "norm":
            return t.norm(dim=dim, keepdim=keepdim)
        if dim is None:
            return getattr(t, name)() if name != "logsumexp" else t.logsumexp(tuple(range(t.dim())), keepdim)
        return getattr(t, name)(dim, keepdim=keepdim)
    return call


@pytest.mark.filterwarnings("ignore:var\\(\\). degrees of freedom")
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", DIMS, ids=str)
@pytest.mark.parametrize("name", MULTI_DIM)
def test_multi_dim_reductions_match_torch(torch, rng, name, dim, keepdim):
    """(torch 2.13's var/std *backward* reads dim=() as "no dims", N = 1, giving inf gradients although its
    forward reduced all dims; tensorlab's backward matches its forward, so those grads are not compared.)"""
    if name == "logsumexp" and dim == () and not keepdim:
        pytest.skip("torch 2.13 fails on logsumexp(dim=()) without keepdim ('output with shape []...')")
    x = sample("float64", (2, 3, 4), rng)
    ours, theirs = same(torch, reduce_call(name, dim, keepdim), x, requires_grad=True)
    grads_differ = dim == () and name in ("var", "std", "var_mean", "std_mean")  # see below
    if theirs is not None and name not in ("all", "any", "count_nonzero") and not grads_differ:
        first = theirs[0] if isinstance(theirs, tuple) else theirs
        same_grads(torch, reduce_call(name, dim, keepdim), x, grad_out=rng.standard_normal(tuple(first.shape)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["sum", "mean", "prod", "amax", "amin", "max", "min", "all", "any", "count_nonzero",
                                  "var", "std", "norm", "logsumexp", "median", "argmax", "argmin", "cumsum", "cumprod"])
def test_reduction_dtypes_match_torch(torch, rng, name, dtype):
    x = sample(dtype, (3, 4), rng, -3, 3)
    for call in [lambda lib, t: getattr(t, name)(1) if name != "count_nonzero" else lib.count_nonzero(t, 1),
                 lambda lib, t: getattr(t, name)() if name not in ("logsumexp", "cumsum", "cumprod") else
                 getattr(t, name)(0)]:
        same(torch, call, x, requires_grad=True)


@pytest.mark.parametrize("dtype", [None, "float64", "int32", "float16"])
def test_dtype_argument(torch, rng, dtype):
    x = sample("float32", (3, 4), rng)
    ints = sample("int32", (3, 4), rng)
    for name in ["sum", "prod", "mean", "cumsum", "cumprod"]:
        for data in (x, ints):
            def call(lib, t):
                kw = {} if dtype is None else {"dtype": getattr(lib, dtype)}
                return getattr(t, name)(1, **kw) if name != "mean" or dtype or t.is_floating_point() else t
            same(torch, call, data, rtol=1e-3, atol=1e-3)
    same(torch, lambda lib, t: t.norm(dtype=lib.float64), x)


def test_selection_reductions_match_torch(torch, rng):
    x = rng.permutation(24).reshape(2, 3, 4).astype(np.float32) / 4  # distinct: indices are unambiguous
    for name in ["max", "min", "median", "mode"]:
        for dim in [0, 1, -1]:
            for keepdim in [False, True]:
                ours, theirs = same(torch, lambda lib, t: getattr(t, name)(dim, keepdim), x, requires_grad=True)
                assert type(ours).__module__ == "tensorlab.return_types" and ours._fields == ("values", "indices")
                assert repr(ours).startswith(f"torch.return_types.{name}(\nvalues=tensor(")
                same_grads(torch, lambda lib, t: getattr(t, name)(dim, keepdim)[0], x,
                           grad_out=rng.standard_normal(tuple(theirs[0].shape)))
        same(torch, lambda lib, t: getattr(lib, name)(t, dim=1), x)
    for name in ["argmax", "argmin"]:
        for kwargs in [{}, {"dim": 1}, {"dim": -1, "keepdim": True}, {"keepdim": True}]:
            same(torch, lambda lib, t: getattr(t, name)(**kwargs), x)
    same(torch, lambda lib, t: t.max(dim=1).values, x, requires_grad=True)
    same(torch, lambda lib, t: lib.max(t, 1, True).indices, x)


def test_ties_share_or_pick_the_gradient_as_torch(torch, rng):
    """max()/amax split the gradient evenly among ties; max(dim)/median(dim) give it to the returned index."""
    x = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, -1.0, 2.0], [5.0, 5.0, 5.0, 5.0]])
    for call in [lambda lib, t: t.max(), lambda lib, t: t.min(), lambda lib, t: t.amax(), lambda lib, t: t.amax(1),
                 lambda lib, t: t.amin((0, 1)), lambda lib, t: t.amax(0, keepdim=True), lambda lib, t: t.max(1)[0],
                 lambda lib, t: t.min(0)[0], lambda lib, t: t.median(), lambda lib, t: t.norm(float("inf"), 1)]:
        same(torch, call, x, requires_grad=True)
        same_grads(torch, call, x)
    same(torch, lambda lib, t: t.max(1), x)
    same(torch, lambda lib, t: t.mode(1), np.array([[1, 2, 2, 3, 3], [3, 1, 3, 1, 2]]))


def test_nan_propagates_like_torch(torch):
    x = np.array([[1.0, np.nan, 0.0, np.nan], [1.0, 2.0, 3.0, 4.0]])
    for call in [lambda lib, t: t.max(), lambda lib, t: t.max(1), lambda lib, t: t.amin(1), lambda lib, t: t.argmax(1),
                 lambda lib, t: t.median(), lambda lib, t: t.median(1), lambda lib, t: t.sum(1), lambda lib, t: t.logsumexp(1),
                 lambda lib, t: t.norm(dim=1), lambda lib, t: t.cumsum(1), lambda lib, t: t.prod(1)]:
        same(torch, call, x)


def test_prod_and_cumprod_gradients_with_zeros(torch, rng):
    x = np.array([[1.0, 2.0, 0.0, 3.0], [3.0, 0.0, 0.0, 2.0], [2.0, 3.0, 4.0, 0.5], [0.0, 1.5, 2.0, 3.0]])
    for call in [lambda lib, t: t.prod(), lambda lib, t: t.prod(1), lambda lib, t: t.prod(0, keepdim=True),
                 lambda lib, t: t.cumprod(1), lambda lib, t: t.cumprod(0)]:
        out = call(tensorlab, tensorlab.tensor(x))
        same_grads(torch, call, x, grad_out=rng.standard_normal(tuple(out.shape)))
    for call in [lambda t: t.prod(1), lambda t: t.prod(), lambda t: t.cumprod(1), lambda t: t.cumprod(0)]:
        assert gradcheck(call, (leaf(x),))
        assert gradgradcheck(call, (leaf(x),))


def test_var_std_spellings_match_torch(torch, rng):
    x = sample("float64", (3, 4), rng)
    for call in [lambda lib, t: t.var(0, False), lambda lib, t: t.var(False), lambda lib, t: t.std(unbiased=False),
                 lambda lib, t: t.var(dim=1, correction=0, keepdim=True), lambda lib, t: t.std(1, True, True),
                 lambda lib, t: t.var(1, correction=2), lambda lib, t: lib.var_mean(t, 1, unbiased=False),
                 lambda lib, t: lib.std_mean(t, correction=0), lambda lib, t: lib.var(t, (0, 1))]:
        same(torch, call, x, requires_grad=True)
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        ours = tensorlab.tensor([1.0]).var()
    assert ours.item() != ours.item()  # nan, as PyTorch


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, 0, float("inf"), float("-inf"), "fro"])
def test_norm_orders_match_torch(torch, rng, p):
    x = sample("float64", (3, 4), rng)
    for call in [lambda lib, t: t.norm(p), lambda lib, t: t.norm(p, dim=1), lambda lib, t: lib.norm(t, p, (0, 1), True)]:
        same(torch, call, x, requires_grad=True)
        same_grads(torch, call, x)


def test_norm_gradient_at_zero_is_zero(torch):
    same_grads(torch, lambda lib, t: t.norm(dim=1), np.array([[0.0, 0.0], [3.0, 4.0]]))
    same_grads(torch, lambda lib, t: t.norm(3, dim=1), np.array([[0.0, 0.0], [3.0, 4.0]]))


def test_logsumexp_is_stable(torch):
    x = np.array([[1000.0, 1000.0], [-1000.0, -1000.0], [-np.inf, -np.inf], [np.inf, 1.0]])
    same(torch, lambda lib, t: t.logsumexp(1), x)
    same_grads(torch, lambda lib, t: t.logsumexp(1), x[:2])
    same(torch, lambda lib, t: t.logsumexp(0), np.array([[1, 2], [3, 4]]))


def test_empty_and_zero_dim_inputs_match_torch(torch):
    empty, scalar = np.ones((0, 3)), np.array(2.5)
    for call in [lambda lib, t: t.sum(), lambda lib, t: t.sum(0), lambda lib, t: t.prod(), lambda lib, t: t.mean(),
                 lambda lib, t: t.max(), lambda lib, t: t.max(0), lambda lib, t: t.amax(0), lambda lib, t: t.amax(1),
                 lambda lib, t: t.argmax(), lambda lib, t: t.median(), lambda lib, t: t.cumsum(0), lambda lib, t: t.all(),
                 lambda lib, t: t.any(1), lambda lib, t: t.norm(), lambda lib, t: t.logsumexp(1)]:
        same(torch, call, empty)
    for call in [lambda lib, t: t.sum(0), lambda lib, t: t.max(0), lambda lib, t: t.argmax(0), lambda lib, t: t.median(0),
                 lambda lib, t: t.mode(0), lambda lib, t: t.cumsum(0), lambda lib, t: t.cumprod(-1), lambda lib, t: t.norm(dim=0),
                 lambda lib, t: t.prod(0), lambda lib, t: t.amax(), lambda lib, t: t.mean(-1), lambda lib, t: t.sum(1)]:
        same(torch, call, scalar, requires_grad=True)


def test_reduction_errors_match_torch(torch, rng):
    x, ints = sample("float32", (2, 3), rng), np.arange(6).reshape(2, 3)
    for call in [lambda lib, t: t.sum(2), lambda lib, t: t.sum((0, 0)), lambda lib, t: t.mean(-3),
                 lambda lib, t: t.amax((1, -1)), lambda lib, t: t.max(5), lambda lib, t: t.prod((0, 1)),
                 lambda lib, t: t.logsumexp(), lambda lib, t: t.cumsum(3), lambda lib, t: t.norm(p="nuc", dim=5),
                 lambda lib, t: t.norm(p="abc")]:
        same(torch, call, x)
    for call in [lambda lib, t: t.mean(), lambda lib, t: t.var(), lambda lib, t: t.std(1), lambda lib, t: t.norm(),
                 lambda lib, t: t.mean(dtype=lib.float64)]:
        same(torch, call, ints)


def test_all_any_keep_uint8(torch):
    data = np.array([[0, 3], [1, 2]], dtype=np.uint8)
    for call in [lambda lib, t: t.all(), lambda lib, t: t.any(0), lambda lib, t: lib.all(t, 1, True)]:
        same(torch, call, data)


def test_cumsum_cumprod_match_torch(torch, rng):
    x = sample("float64", (3, 4), rng, 0.5, 1.5)
    for dim in [0, 1, -1]:
        for name in ["cumsum", "cumprod"]:
            same(torch, lambda lib, t: getattr(t, name)(dim), x, requires_grad=True)
            same(torch, lambda lib, t: getattr(lib, name)(t, dim=dim), x)
            same_grads(torch, lambda lib, t: getattr(t, name)(dim), x, grad_out=rng.standard_normal((3, 4)))
            same(torch, lambda lib, t: getattr(t * 1, name + "_")(dim), x, requires_grad=True)


# -- gradcheck on strided inputs (hypothesis) -----------------------------------------------------------------

REDUCTIONS = {
    "sum": lambda t, d: t.sum(d), "sum_all": lambda t, d: t.sum(), "mean": lambda t, d: t.mean(d, keepdim=True),
    "prod": lambda t, d: t.prod(d), "prod_all": lambda t, d: t.prod(), "var": lambda t, d: t.var(d),
    "std": lambda t, d: t.std(d, correction=0), "var_mean": lambda t, d: tensorlab.var_mean(t, d),
    "std_mean": lambda t, d: tensorlab.std_mean(t, d, keepdim=True), "norm": lambda t, d: t.norm(dim=d),
    "norm1": lambda t, d: t.norm(1, d), "norm3": lambda t, d: t.norm(3, d), "logsumexp": lambda t, d: t.logsumexp(d),
    "max_dim": lambda t, d: t.max(d)[0], "min_dim": lambda t, d: t.min(d, keepdim=True)[0],
    "max": lambda t, d: t.max(), "amax": lambda t, d: t.amax(d), "amin": lambda t, d: t.amin((d,)),
    "median": lambda t, d: t.median(), "median_dim": lambda t, d: t.median(d)[0], "mode": lambda t, d: t.mode(d)[0],
    "cumsum": lambda t, d: t.cumsum(d), "cumprod": lambda t, d: t.cumprod(d), "norm_inf": lambda t, d: t.norm(float("inf"), d),
}


SELECTIONS = {"max_dim", "min_dim", "max", "amax", "amin", "median", "median_dim", "mode", "norm_inf"}


def stored(values, layout):
    """A float64 leaf and a view of it that shows ``values`` in ``layout`` (see test_elementwise_grad.py)."""
    if layout == "transposed":
        return leaf(values.swapaxes(0, -1).copy()), lambda t: t.transpose(0, -1)
    if layout == "sliced":
        padded = np.zeros(values.shape[:-1] + (2 * values.shape[-1],))
        padded[..., 1::2] = values
        return leaf(padded), lambda t: t[..., 1::2]
    if layout == "expanded":  # the first row, read through a stride-0 dim
        return leaf(values[:1].copy()), lambda t: t.expand(values.shape)
    return leaf(values), lambda t: t


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@settings(max_examples=12, deadline=None)
@given(shape=st.lists(st.integers(1, 3), min_size=2, max_size=3).map(tuple),
       layout=st.sampled_from(["contiguous", "transposed", "sliced", "expanded"]), dim=st.integers(-2, 1),
       seed=st.integers(0, 2 ** 16))
def test_reduction_gradcheck(name, shape, layout, dim, seed):
    if name in ("var", "std", "var_mean", "std_mean"):
        assume(shape[dim] > 1)  # one element has no spread: nan gradients, in PyTorch too
    if name in SELECTIONS or name in ("std", "std_mean"):
        # repeated rows would tie (no derivative there) or make a zero std (1/std: nan, in PyTorch too)
        assume(layout != "expanded" or shape[0] == 1)
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    # distinct values well apart (no ties: max/median/mode pick one element; finite differences stay local)
    values = (rng.permutation(n) + 1.0 + rng.uniform(0, 0.3, n)).reshape(shape) / n * rng.choice([-1, 1])
    base, view = stored(values, layout)
    assert gradcheck(lambda t: REDUCTIONS[name](view(t), dim), (base,))


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "var", "std", "var_mean", "norm", "norm3", "logsumexp",
                                  "max_dim", "amax", "cumsum", "cumprod", "median_dim"])
def test_reduction_gradgradcheck(name):
    rng = np.random.default_rng(3)
    x = leaf(rng.uniform(0.5, 1.5, (3, 4)) * rng.choice([-1, 1], (3, 4)))
    assert gradgradcheck(lambda t: REDUCTIONS[name](t, 1), (x,))


def test_std_of_huge_float32_values_does_not_overflow(torch):
    """PyTorch accumulates float32 statistics in double on the CPU: std of values near 1e21 is
    finite even though their squares overflow float32 (var itself is then inf in both)."""
    values = np.array([1e21, -1e21, 3e20, 0.0], dtype=np.float32)
    for fn in ("std", "var"):
        ours = getattr(tensorlab.tensor(values), fn)()
        theirs = getattr(torch.tensor(values), fn)()
        assert ours.dtype == tensorlab.float32
        np.testing.assert_allclose(ours.item(), theirs.item(), rtol=1e-6)
    std, mean = tensorlab.std_mean(tensorlab.tensor(values))
    np.testing.assert_allclose([std.item(), mean.item()], [t.item() for t in torch.std_mean(torch.tensor(values))],
                               rtol=1e-6)
