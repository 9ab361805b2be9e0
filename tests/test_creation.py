"""Making tensors, against PyTorch: dtype inference, shapes, values, layouts of *_like, memory sharing of
from_numpy/as_tensor, ranges (arange's float-step length), errors; random tensors reproducible with
manual_seed and Generator objects."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tensorlab
from tests.tensor_core_oracle import raises_like, values

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

CASES = [
    "tensor([1, 2])", "tensor([1.5])", "tensor([True, False])", "tensor([1, 2.5])", "tensor([True, 2])",
    "tensor(3)", "tensor(3.0)", "tensor([])", "tensor([[]])", "tensor([[1, 2], [3, 4]], dtype=L.float64)",
    "tensor(np.float32(2.0))", "tensor(np.int32(2))", "tensor([np.float64(1.5)])", "tensor([np.float32(1.0), 2])",
    "tensor(np.arange(3, dtype=np.int16))", "tensor([L.tensor(1.0), L.tensor(2.0)])", "tensor((1, 2))",
    "tensor([[1], [2.0]])", "tensor(2**40)", "tensor(True)", "tensor([1.7, -1.7], dtype=L.int64)",
    "tensor([0, 3], dtype=L.bool)", "tensor([1, 2], dtype=L.float16)", "tensor(np.array([1.5]))",
    "scalar_tensor(3)", "scalar_tensor(2, dtype=L.int64)",
    "zeros(2, 3)", "zeros((2, 3))", "zeros([2, 3])", "zeros(L.Size([2, 3]))", "zeros(2, dtype=L.int32)",
    "zeros(())", "zeros([])", "zeros(0)", "zeros(2, True)", "zeros(2, np.int64(3))", "zeros(L.tensor(2))",
    "ones(3)", "ones(2, 1, dtype=L.bool)",
    "full((2,), 3)", "full((2,), 3.0)", "full((2,), True)", "full([2, 2], 7, dtype=L.float64)", "full((), 1.5)",
    "full((2,), 1.5, dtype=L.int64)", "full((2,), L.tensor(3.0))", "full((2,), 1, dtype=L.bool)",
    "eye(3)", "eye(2, 3)", "eye(3, dtype=L.int64)", "eye(0)", "eye(2, 3, dtype=L.bool)",
    "arange(5)", "arange(1, 4)", "arange(0, 1, 0.1)", "arange(0.0, 5)", "arange(5, dtype=L.float32)",
    "arange(0, 10, 3)", "arange(10, 0, -3)", "arange(1, 2.5, 0.5)", "arange(0.5)", "arange(0, -1, -0.3)",
    "arange(L.tensor(3))", "arange(0, 1, 1 / 3)", "arange(-1.5, 1.5)", "arange(3, dtype=L.float64)",
    "arange(np.int64(4))", "arange(0, 5.0, 1)", "arange(1, 0.1, -0.1)", "arange(0.5, 3, dtype=L.int64)",
    "arange(-0.5, 3, 1, dtype=L.int64)", "arange(0, 5, 1.5, dtype=L.int64)", "arange(0, 5, 2, dtype=L.float16)",
    "arange(True)", "arange(0, 0.3, 0.1)",
    "linspace(0, 1, 5)", "linspace(0, 10, 4, dtype=L.int64)", "linspace(-1, 1, 1)", "linspace(0, 1, 0)",
    "linspace(3, 3, 3)", "linspace(0, 7, 4, dtype=L.int32)", "linspace(-5, 5, 4, dtype=L.int64)",
    "linspace(1, 0, 5)", "linspace(L.tensor(0.0), 1, 3)",
    "logspace(0, 2, 3)", "logspace(0, 2, 3, base=2)", "logspace(0, 3, 4, dtype=L.int64)",
    "zeros_like(L.tensor([1, 2]))", "ones_like(L.tensor([1.0, 2]), dtype=L.float64)",
    "full_like(L.tensor([1, 2]), 2.7)", "full_like(L.tensor([1.0, 2.0]), 7)",
    "tensor([1, 2]).new_zeros(2, 3)", "tensor([1.0]).new_ones((2,))", "tensor([1.0]).new_full((2,), 3)",
    "tensor([1.0]).new_tensor([1, 2])", "tensor([1]).new_tensor([1.5, 2])",
    "tensor([1.0]).new_zeros(2, dtype=L.int64)",
    "Tensor([1, 2])", "Tensor([[1, 2]])", "Tensor((2, 3))", "Tensor(np.arange(3))", "Tensor(L.tensor([1, 2]))",
    "as_tensor([1, 2])", "as_tensor(np.arange(3.0))", "as_tensor([1, 2], dtype=L.float32)", "asarray([1.5])",
    "asarray(np.arange(3.0))", "asarray([1, 2], dtype=L.float64)",
]

SHAPE_ONLY = ["empty(2, 3)", "empty((2, 0))", "empty_like(L.tensor([[1, 2]]))", "Tensor(2, 3)", "Tensor()",
              "Tensor(0)", "Tensor(L.Size([2, 2]))", "tensor([1.0]).new_empty(2)", "empty(3, dtype=L.int16)",
              "empty_strided((2, 3), (1, 2))"]


def _run(L, expr):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval("L." + expr, {"L": L, "np": np})


@pytest.mark.parametrize("expr", CASES)
def test_creation_matches_torch(torch, expr):
    ours, theirs = _run(tensorlab, expr), _run(torch, expr)
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()
    np.testing.assert_allclose(values(ours).astype(np.float64), values(theirs).astype(np.float64), rtol=1e-6)
    assert ours.device.type == "cpu" and not ours.requires_grad


@pytest.mark.parametrize("expr", SHAPE_ONLY)
def test_uninitialised_creation_matches_torch_layout(torch, expr):
    ours, theirs = _run(tensorlab, expr), _run(torch, expr)
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()


LIKE_SOURCES = {
    "contiguous": lambda L: L.arange(6.0).view(2, 3),
    "transposed": lambda L: L.arange(6.0).view(2, 3).t(),
    "sliced": lambda L: L.arange(24.0).view(2, 3, 4).permute(1, 2, 0)[:, 1:],
    "expanded": lambda L: L.arange(3.0).view(3, 1).expand(3, 4),
    "int": lambda L: L.arange(6).view(3, 2).t(),
}
LIKE_FNS = {
    "zeros_like": lambda L, x: L.zeros_like(x), "ones_like": lambda L, x: L.ones_like(x, dtype=L.float64),
    "full_like": lambda L, x: L.full_like(x, 7), "empty_like": lambda L, x: L.empty_like(x),
    "rand_like": lambda L, x: L.rand_like(x.double()), "randn_like": lambda L, x: L.randn_like(x.double()),
    "contiguous_format": lambda L, x: L.zeros_like(x, memory_format=L.contiguous_format),
    "tensor_copy": lambda L, x: L.tensor(x), "clone": lambda L, x: x.clone(),
    "to_double": lambda L, x: x.to(L.float64),
}


@pytest.mark.parametrize("source", list(LIKE_SOURCES))
@pytest.mark.parametrize("fn", list(LIKE_FNS))
def test_like_functions_keep_the_memory_order_like_torch(torch, fn, source):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = LIKE_FNS[fn](tensorlab, LIKE_SOURCES[source](tensorlab))
        theirs = LIKE_FNS[fn](torch, LIKE_SOURCES[source](torch))
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()
    assert str(ours.dtype) == str(theirs.dtype)
    if fn in ("zeros_like", "ones_like", "full_like", "tensor_copy", "clone", "to_double", "contiguous_format"):
        np.testing.assert_array_equal(values(ours), values(theirs))


ERRORS = [
    "zeros(-1, 2)", "ones(2, -3)", "empty(-1)", "zeros(2, 3.0)", "full(3, 1.0)", "full((2,), 2**70)",
    "arange(0, 5, 0)", "arange(5, 0, 1)", "arange(0, float('inf'))", "arange(1, 2.5, 0.5, dtype=L.int64)",
    "arange(0, 3, dtype=L.bool)", "linspace(0, 1, -1)", "linspace(0, 1, 3, dtype=L.bool)", "eye(-1)",
    "eye(3, -1)", "randint(5, 2, (3,))", "randint(0, 5)", "randperm(-1)", "randn(-1)",
    "normal(0.0, -1.0, (2,))", "normal(L.zeros(2), L.ones(3))", "tensor([[1, 2], [3, 4, 5]])",
    "tensor([[1, 2], 3])", "tensor('abc')", "tensor([1, None])", "tensor(None)", "from_numpy([1, 2])",
    "from_numpy(np.arange(3)[::-1])", "from_numpy(np.arange(3.0).astype('>f8'))",
    "from_numpy(np.arange(3, dtype=np.complex64).view(np.float32).astype(np.float64)[::-2])",
    "Tensor(2.5)", "Tensor(-1)",
    "zeros(2, dtype=L.int64, requires_grad=True)", "tensor([1, 2], requires_grad=True)",
    "empty_strided((2, 3), (1,))",
]


@pytest.mark.parametrize("expr", ERRORS)
def test_creation_errors_match_torch(torch, expr):
    raises_like(lambda: _run(torch, expr), lambda: _run(tensorlab, expr))


# -- memory: copy or share ----------------------------------------------------------------------------


def test_tensor_copies_but_from_numpy_and_as_tensor_share():
    a = np.arange(4.0)
    copied, shared, maybe = tensorlab.tensor(a), tensorlab.from_numpy(a), tensorlab.as_tensor(a)
    a[0] = 10.0
    assert copied[0].item() == 0.0 and shared[0].item() == 10.0 and maybe[0].item() == 10.0
    shared[1] = -1.0
    assert a[1] == -1.0 and shared.data_ptr() == a.ctypes.data
    converted = tensorlab.as_tensor(a, dtype=tensorlab.float32)
    a[2] = 5.0
    assert converted[2].item() == 2.0
    t = tensorlab.arange(3.0)
    assert tensorlab.as_tensor(t) is t and tensorlab.asarray(t, copy=True) is not t


@pytest.mark.parametrize("make", [
    lambda: np.arange(24.0).reshape(4, 6)[1:, ::2],
    lambda: np.arange(24.0).reshape(4, 6).T,
    lambda: np.arange(24, dtype=np.int32).reshape(2, 3, 4)[:, 1:, 2:],
    lambda: np.arange(6.0).reshape(2, 3)[1:],
    lambda: np.zeros((0, 3)),
    lambda: np.asfortranarray(np.arange(6.0).reshape(2, 3)),
])
def test_from_numpy_shares_non_contiguous_arrays_like_torch(torch, make):
    array = make()
    ours, theirs = tensorlab.from_numpy(array), torch.from_numpy(array)
    assert ours.stride() == theirs.stride() and ours.storage_offset() == theirs.storage_offset()
    assert ours.untyped_storage().nbytes() == theirs.untyped_storage().nbytes()
    assert str(ours.dtype) == str(theirs.dtype)
    if array.size:
        assert ours.data_ptr() == theirs.data_ptr() == array.ctypes.data
        ours[(0,) * array.ndim] = 99
        assert array[(0,) * array.ndim] == 99
        array[(-1,) * array.ndim] = 77
        assert ours[(-1,) * array.ndim].item() == 77
    assert np.shares_memory(ours.numpy(), array) or array.size == 0


def test_from_numpy_of_read_only_array_warns_like_torch():
    with pytest.warns(UserWarning, match="not writable"):
        tensorlab.from_numpy(np.broadcast_to(np.arange(3.0), (2, 3)))


def test_legacy_constructor_aliases_a_tensor(torch):
    x = tensorlab.tensor([1.0, 2.0])
    y = tensorlab.Tensor(x)
    assert y is not x and y.data_ptr() == x.data_ptr()
    assert tensorlab.Tensor(3, 2).shape == (3, 2) and tensorlab.Tensor(3, 2).dtype is tensorlab.float32
    assert tensorlab.Tensor(2, device="cpu").device == tensorlab.device("cpu")


def test_tensor_of_a_tensor_warns_and_copies(torch):
    x = tensorlab.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="sourceTensor"):
        y = tensorlab.tensor(x)
    assert y.data_ptr() != x.data_ptr() and not y.requires_grad and y.grad_fn is None


# -- ranges ---------------------------------------------------------------------------------------------


@SETTINGS
@given(st.floats(-50, 50, allow_nan=False), st.floats(0.01, 20), st.floats(0.01, 7),
       st.sampled_from(["float32", "float64"]), st.booleans())
def test_arange_length_and_values_match_torch(torch, start, span, step, dtype, descending):
    end = start + span
    if descending:
        start, end, step = end, start, -step
    ours = tensorlab.arange(start, end, step, dtype=getattr(tensorlab, dtype))
    theirs = torch.arange(start, end, step, dtype=getattr(torch, dtype))
    assert ours.shape == tuple(theirs.shape) == (math.ceil((end - start) / step),)
    np.testing.assert_allclose(values(ours), values(theirs), rtol=1e-6, atol=1e-5)


@SETTINGS
@given(st.floats(-20, 20, allow_nan=False), st.floats(-20, 20, allow_nan=False), st.integers(0, 40))
def test_linspace_matches_torch(torch, start, end, steps):
    np.testing.assert_allclose(values(tensorlab.linspace(start, end, steps)),
                               values(torch.linspace(start, end, steps)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values(tensorlab.logspace(start / 10, end / 10, steps, dtype=tensorlab.float64)),
                               values(torch.logspace(start / 10, end / 10, steps, dtype=torch.float64)),
                               rtol=1e-10)


# 0, or a magnitude from 1e-3 to 1e4: ends whose ratio keeps linspace's multiply-add exact in extended precision
ENDS = st.just(0.0) | st.floats(1e-3, 1e4).flatmap(lambda v: st.sampled_from([v, -v]))


@SETTINGS
@given(ENDS, ENDS, st.integers(0, 40), st.sampled_from(["float32", "float64"]))
def test_linspace_is_pytorchs_to_the_last_bit(torch, start, end, steps, dtype):
    """A floating linspace holds PyTorch's very values: one ulp decides which bin of a histogram a value
    lands in when it sits on an edge. (float64 is allowed one ulp: its fused multiply-add is emulated in
    extended precision, which rounds twice when the exact value needs more bits than that has.)"""
    ours = tensorlab.linspace(start, end, steps, dtype=getattr(tensorlab, dtype)).numpy()
    theirs = torch.linspace(start, end, steps, dtype=getattr(torch, dtype)).numpy()
    np.testing.assert_array_max_ulp(ours, theirs, maxulp=0 if dtype == "float32" else 1)


# -- default dtype, device and requires_grad everywhere --------------------------------------------------

FACTORIES = {
    "zeros": lambda L, **kw: L.zeros(2, 3, **kw), "ones": lambda L, **kw: L.ones(2, **kw),
    "empty": lambda L, **kw: L.empty(2, **kw), "full": lambda L, **kw: L.full((2,), 1.5, **kw),
    "eye": lambda L, **kw: L.eye(2, **kw), "arange": lambda L, **kw: L.arange(0.0, 2.0, 0.5, **kw),
    "linspace": lambda L, **kw: L.linspace(0, 1, 3, **kw), "logspace": lambda L, **kw: L.logspace(0, 1, 3, **kw),
    "rand": lambda L, **kw: L.rand(2, **kw), "randn": lambda L, **kw: L.randn(2, 2, **kw),
    "tensor": lambda L, **kw: L.tensor([1.5], **kw),
    "empty_strided": lambda L, **kw: L.empty_strided((2,), (1,), **kw),
    "scalar_tensor": lambda L, **kw: L.scalar_tensor(1, **kw),
    "normal": lambda L, **kw: L.normal(0.0, 1.0, (2,), **kw),
}


@pytest.mark.parametrize("factory", list(FACTORIES))
def test_factories_follow_default_dtype_and_accept_device(torch, factory):
    make = FACTORIES[factory]
    for default in ("float64", "float32"):
        tensorlab.set_default_dtype(getattr(tensorlab, default))
        torch_default = torch.get_default_dtype()
        torch.set_default_dtype(getattr(torch, default))
        try:
            assert str(make(tensorlab).dtype) == str(make(torch).dtype)
        finally:
            torch.set_default_dtype(torch_default)
    for device in ("cpu", tensorlab.device("cpu")):
        assert make(tensorlab, device=device).device == tensorlab.device("cpu")
    t = make(tensorlab, requires_grad=True)
    assert t.requires_grad and t.is_leaf and t.grad_fn is None


# -- random ---------------------------------------------------------------------------------------------

RANDOM = {
    "rand": lambda g=None: tensorlab.rand(3, 4, generator=g),
    "randn": lambda g=None: tensorlab.randn(3, 4, generator=g),
    "randint": lambda g=None: tensorlab.randint(-5, 5, (3, 4), generator=g),
    "randint_high": lambda g=None: tensorlab.randint(7, (10,), generator=g),
    "randperm": lambda g=None: tensorlab.randperm(10, generator=g),
    "normal": lambda g=None: tensorlab.normal(2.0, 3.0, (5,), generator=g),
    "normal_tensors": lambda g=None: tensorlab.normal(tensorlab.zeros(3, 1), tensorlab.ones(4), generator=g),
    "bernoulli": lambda g=None: tensorlab.bernoulli(tensorlab.full((6,), 0.5), generator=g),
    "multinomial": lambda g=None: tensorlab.multinomial(tensorlab.tensor([0.2, 0.3, 0.5]), 2, generator=g),
}


@pytest.mark.parametrize("fn", list(RANDOM))
def test_manual_seed_reproduces_and_generators_are_independent(fn):
    tensorlab.manual_seed(1234)
    first = values(RANDOM[fn]())
    second = values(RANDOM[fn]())
    tensorlab.manual_seed(1234)
    np.testing.assert_array_equal(values(RANDOM[fn]()), first)
    np.testing.assert_array_equal(values(RANDOM[fn]()), second)
    g = tensorlab.Generator().manual_seed(1234)
    own = values(RANDOM[fn](g))
    np.testing.assert_array_equal(own, first)  # same seed, same stream
    tensorlab.manual_seed(99)
    g.manual_seed(1234)
    np.testing.assert_array_equal(values(RANDOM[fn](g)), first)  # the global seed does not touch g


def test_random_dtypes_shapes_and_ranges_match_torch(torch):
    tensorlab.manual_seed(0)
    cases = [("rand(1000)", None), ("randn(2, 3, dtype=L.float64)", None), ("randint(3, 10, (500,))", (3, 10)),
             ("randint(3, 10, (2,), dtype=L.int32)", (3, 10)), ("randperm(6)", None),
             ("randperm(4, dtype=L.float32)", None), ("rand(())", (0, 1)),
             ("rand_like(L.zeros(2, dtype=L.float64))", None),
             ("randint_like(L.zeros(2), 5)", (0, 5)), ("normal(L.zeros(3), 1.0)", None)]
    for expr, bounds in cases:
        ours, theirs = _run(tensorlab, expr), _run(torch, expr)
        assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape), expr
        if bounds:
            assert values(ours).min() >= bounds[0] and values(ours).max() < bounds[1]
    u = values(tensorlab.rand(20000))
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    n = values(tensorlab.randn(20000, dtype=tensorlab.float64))
    assert abs(n.mean()) < 0.03 and abs(n.std() - 1) < 0.03
    assert sorted(values(tensorlab.randperm(50)).tolist()) == list(range(50))
    m = values(tensorlab.normal(5.0, 0.5, (20000,)))
    assert abs(m.mean() - 5) < 0.02 and abs(m.std() - 0.5) < 0.02


def test_rng_state_and_seeds(torch):
    g = tensorlab.manual_seed(7)
    assert isinstance(g, tensorlab.Generator) and tensorlab.initial_seed() == 7
    state = tensorlab.get_rng_state()
    assert state.dtype is tensorlab.uint8
    a = values(tensorlab.rand(4))
    tensorlab.set_rng_state(state)
    np.testing.assert_array_equal(values(tensorlab.rand(4)), a)
    assert tensorlab.manual_seed(-1).initial_seed() == torch.manual_seed(-1).initial_seed()
    torch.manual_seed(0)
    new = tensorlab.seed()
    assert tensorlab.initial_seed() == new


def test_inplace_random_fillers_respect_seed_and_leaves():
    tensorlab.manual_seed(3)
    a = tensorlab.empty(5).uniform_(-2, 2)
    tensorlab.manual_seed(3)
    b = tensorlab.empty(5).uniform_(-2, 2)
    np.testing.assert_array_equal(values(a), values(b))
    assert values(a).min() >= -2 and values(a).max() < 2 and a._version == 1
    w = tensorlab.empty(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        w.normal_()
    with tensorlab.no_grad():
        w.normal_(0, 0.01)
    assert abs(values(w)).max() < 0.1


# -- every factory takes its shape positionally or as size= ---------------------------------------------

SIZE_CALLS = [  # (call, random?) -- random results are compared on shape and dtype only
    ("zeros(size=(2, 3))", False), ("zeros(size=[2])", False), ("zeros(size=())", False),
    ("ones(size=lib.Size([1, 2]))", False), ("empty(size=(2,))", True), ("rand(size=(2, 4))", True),
    ("randn(size=(), requires_grad=True)", True), ("randn(size=(2,), dtype=lib.float64)", True),
    ("randint(10, size=(1,))", True), ("randint(3, 10, size=(2,))", True),
    ("randint(low=3, high=10, size=(2,))", True), ("randint(high=10, size=(2,))", True),
    ("randint(size=(2,), high=10)", True), ("randint(10, (2,), dtype=lib.int32)", True),
    ("full(size=(2,), fill_value=3.)", False), ("normal(0., 1., size=(2,))", True),
    ("normal(mean=0., std=1., size=(2,))", True), ("empty_strided(size=(2,), stride=(1,))", True),
    ("x.new_zeros(size=(2,))", False), ("x.new_ones(size=(1,))", False), ("x.new_empty(size=(3,))", True),
    ("x.new_full(size=(1,), fill_value=2.)", False), ("zeros(size=(2,), out=None)", False),
    ("arange(end=3)", False), ("linspace(start=0, end=1, steps=3)", False), ("eye(n=2)", False),
    ("randperm(n=3)", True),
    # ... and PyTorch's errors
    ("zeros(size=2)", False), ("zeros(2, size=(2,))", False), ("x.new_zeros((2,), size=(2,))", False),
    ("rand(size=(-1,))", False), ("zeros(size=(-1,))", False), ("zeros(size=(2.5,))", False), ("zeros()", False),
    ("ones()", False), ("empty()", False), ("rand()", False), ("randn()", False), ("randint(10)", False),
    ("randint(10, 3)", False), ("randint(1, 5, 6)", False), ("randint(low=2, size=(2,))", False),
    ("randint(low=2, high=5)", False), ("randint(2, 3, 4, (2,))", False), ("randint(2.5, (2,))", False),
    ("randint(2, (2.5,))", False), ("randint(0, (2,))", False), ("randint(10, size=5)", False),
    ("zeros(-1)", False), ("ones(-1)", False), ("zeros(2.5)", False), ("ones(2.5)", False), ("rand(2.5)", False),
    ("randn(2, 2.5)", False), ("zeros((2, 2.5))", False), ("zeros('a')", False), ("arange()", False),
]


def _factory_outcome(lib, call, random):
    x = lib.ones(2)
    try:
        t = eval(call if call.startswith("x.") else "lib." + call, {"lib": lib, "x": x})
    except Exception as e:  # noqa: BLE001 - the error is the outcome
        return type(e).__name__, str(e).split("\n")[0]
    return (tuple(t.shape), str(t.dtype), t.requires_grad) + (() if random else (repr(t),))


@pytest.mark.parametrize("call, random", SIZE_CALLS, ids=[c for c, _ in SIZE_CALLS])
def test_size_keyword_and_shape_errors_match_pytorch(torch, call, random):
    assert _factory_outcome(tensorlab, call, random) == _factory_outcome(torch, call, random)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=3), st.sampled_from(["zeros", "ones", "empty", "rand", "randn"]))
def test_every_spelling_of_a_shape_gives_that_shape(shape, name):
    fn = getattr(tensorlab, name)
    spellings = [fn(size=tuple(shape)), fn(size=list(shape)), fn(tuple(shape)), fn(tensorlab.Size(shape))]
    if shape:
        spellings.append(fn(*shape))
    assert {tuple(t.shape) for t in spellings} == {tuple(shape)}


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "float16", "float64"])
@pytest.mark.parametrize("bounds", [(3.5,), (0.5, 3.7), (0, 1, 0.25), (0, 5, 1.5), (5, 0, -1.5)])
def test_arange_with_a_dtype_matches_pytorch(torch, dtype, bounds):
    """int64 truncates the bounds first; the other integer types take the length from the exact bounds and
    then step by the truncated step -- PyTorch's two code paths."""
    outcomes = []
    for lib in (tensorlab, torch):
        try:
            outcomes.append(repr(lib.arange(*bounds, dtype=getattr(lib, dtype))))
        except Exception as e:  # noqa: BLE001
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[0] == outcomes[1]
