"""Complex dtypes compared with PyTorch: promotion, creation, views of the same memory, printing, and which
ops accept complex numbers (and with which error the others refuse them)."""
import numpy as np
import pytest

import tensorlab

pytestmark = pytest.mark.torch

DTYPES = ["complex64", "complex128"]


def values(t):
    """A tensor's values as NumPy (a torch tensor may carry a lazy conjugation)."""
    if hasattr(t, "resolve_conj"):
        t = t.resolve_conj()
    return t.detach().numpy()


def assert_same(ours, theirs, rtol=1e-5, atol=1e-6):
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    np.testing.assert_allclose(values(ours), values(theirs), rtol=rtol, atol=atol)


def complex_array(rng, shape, dtype="complex128"):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


# -- dtypes and promotion ----------------------------------------------------------------------------


def test_dtype_attributes(torch):
    for name in DTYPES + ["float32"]:
        ours, theirs = getattr(tensorlab, name), getattr(torch, name)
        assert repr(ours) == repr(theirs)
        assert (ours.is_complex, ours.is_floating_point, ours.itemsize, ours.is_signed) == \
            (theirs.is_complex, theirs.is_floating_point, theirs.itemsize, theirs.is_signed)
        assert repr(ours.to_real()) == repr(theirs.to_real())
        assert repr(ours.to_complex()) == repr(theirs.to_complex())
    assert tensorlab.cfloat is tensorlab.complex64 and tensorlab.cdouble is tensorlab.complex128
    with pytest.raises(RuntimeError, match="Unknown Complex ScalarType for Int"):
        tensorlab.int32.to_complex()
    assert repr(tensorlab.finfo(tensorlab.complex64)) == repr(torch.finfo(torch.complex64))
    with pytest.raises(TypeError, match="requires an integer input type"):
        tensorlab.iinfo(tensorlab.complex64)
    with pytest.raises(TypeError, match="only floating-point types are supported as the default type"):
        tensorlab.set_default_dtype(tensorlab.complex64)


NAMES = ["bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("a", NAMES)
def test_promote_types_like_torch(torch, a):
    for b in NAMES:
        if "float16" in (a, b) and ("complex" in a or "complex" in b):
            continue  # PyTorch gives complex32, which tensorlab lacks
        ours = tensorlab.promote_types(getattr(tensorlab, a), getattr(tensorlab, b))
        assert repr(ours) == repr(torch.promote_types(getattr(torch, a), getattr(torch, b))), (a, b)
        assert tensorlab.can_cast(getattr(tensorlab, a), getattr(tensorlab, b)) == \
            torch.can_cast(getattr(torch, a), getattr(torch, b)), (a, b)


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_result_type_tiers_like_torch(torch, default):
    torch.set_default_dtype(getattr(torch, default))
    tensorlab.set_default_dtype(getattr(tensorlab, default))
    try:
        for tensor_dtype in ["int32", "int64", "float32", "float64", "complex64", "complex128", "bool"]:
            for other in [1j, 2.5, 3, True, ("complex128", ()), ("complex64", ()), ("float64", ()),
                          ("complex64", (2,))]:
                def make(lib, spec):
                    return lib.zeros(spec[1], dtype=getattr(lib, spec[0])) if isinstance(spec, tuple) else spec
                ours = tensorlab.result_type(tensorlab.zeros(2, dtype=getattr(tensorlab, tensor_dtype)),
                                             make(tensorlab, other))
                theirs = torch.result_type(torch.zeros(2, dtype=getattr(torch, tensor_dtype)), make(torch, other))
                assert repr(ours) == repr(theirs), (tensor_dtype, other)
        assert repr(tensorlab.tensor([1j]).dtype) == repr(torch.tensor([1j]).dtype)
    finally:
        torch.set_default_dtype(torch.float32)


def test_is_complex(torch):
    z, r = tensorlab.tensor([1j]), tensorlab.tensor([1.0])
    assert z.is_complex() and tensorlab.is_complex(z) and not r.is_complex() and not tensorlab.is_complex(r)
    assert not z.is_floating_point()


# -- creation and conversion --------------------------------------------------------------------------


def test_creation_like_torch(torch, rng):
    for data in ([1 + 2j, 3 - 4j], [[1, 2j], [3.5, True]], 2j, [1.0, 2j]):
        assert_same(tensorlab.tensor(data), torch.tensor(data))
    for name in DTYPES:
        assert_same(tensorlab.zeros(2, 3, dtype=getattr(tensorlab, name)), torch.zeros(2, 3, dtype=getattr(torch, name)))
        assert_same(tensorlab.ones(2, dtype=getattr(tensorlab, name)), torch.ones(2, dtype=getattr(torch, name)))
        assert_same(tensorlab.tensor([1, 2], dtype=getattr(tensorlab, name)), torch.tensor([1, 2], dtype=getattr(torch, name)))
    assert_same(tensorlab.zeros(2, dtype=complex), torch.zeros(2, dtype=complex))
    array = complex_array(rng, (2, 3), "complex64")
    shared = tensorlab.from_numpy(array)
    assert shared.dtype is tensorlab.complex64
    array[0, 0] = 7j
    assert shared[0, 0].item() == 7j and isinstance(shared[0, 0].item(), complex)
    assert shared.numpy() is not None and shared.numpy().dtype == np.complex64
    assert tensorlab.tensor([1 + 2j]).tolist() == torch.tensor([1 + 2j]).tolist()
    assert complex(tensorlab.tensor(1 - 1j)) == 1 - 1j


def test_complex_and_polar(torch, rng):
    re, im = rng.standard_normal(4), rng.standard_normal(4)
    for dtype in ("float32", "float64"):
        ours = tensorlab.complex(tensorlab.tensor(re, dtype=getattr(tensorlab, dtype)),
                                 tensorlab.tensor(im, dtype=getattr(tensorlab, dtype)))
        theirs = torch.complex(torch.tensor(re, dtype=getattr(torch, dtype)), torch.tensor(im, dtype=getattr(torch, dtype)))
        assert_same(ours, theirs)
        assert_same(tensorlab.polar(tensorlab.tensor(np.abs(re), dtype=getattr(tensorlab, dtype)),
                                    tensorlab.tensor(im, dtype=getattr(tensorlab, dtype))),
                    torch.polar(torch.tensor(np.abs(re), dtype=getattr(torch, dtype)),
                                torch.tensor(im, dtype=getattr(torch, dtype))))
    assert_same(tensorlab.complex(tensorlab.ones(2, 1), tensorlab.zeros(3)), torch.complex(torch.ones(2, 1), torch.zeros(3)))
    for a, b, phrase in [(tensorlab.ones(2), tensorlab.ones(2, dtype=tensorlab.float64), "Expected object of scalar type Float"),
                         (tensorlab.ones(2, dtype=tensorlab.int32), tensorlab.ones(2, dtype=tensorlab.int32),
                          "Expected both inputs to be Half, Float or Double tensors but got Int and Int"),
                         (tensorlab.ones(2), tensorlab.ones(3), "must match the size")]:
        with pytest.raises(RuntimeError, match=phrase):
            tensorlab.complex(a, b)


# -- views of the same memory ------------------------------------------------------------------------


def test_view_as_real_shares_memory_and_doubles_strides(torch, rng):
    array = complex_array(rng, (3, 4))
    for index in (slice(None), (slice(None, None, 2), slice(1, None))):
        z, tz = tensorlab.tensor(array)[index], torch.tensor(array)[index]
        r, tr = tensorlab.view_as_real(z), torch.view_as_real(tz)
        assert_same(r, tr)
        assert r.stride() == tr.stride() and r.storage_offset() == tr.storage_offset()
        assert r.data_ptr() == z.data_ptr()
        r[0, 0, 1] = 42.0
        assert z[0, 0].item() == complex(z[0, 0].item().real, 42.0)
        back = tensorlab.view_as_complex(r)
        assert back.stride() == z.stride() and back.data_ptr() == z.data_ptr()
    with pytest.raises(RuntimeError, match="view_as_real is only supported for complex tensors"):
        tensorlab.view_as_real(tensorlab.ones(2))


def test_view_as_complex_checks_like_torch(torch):
    cases = [lambda lib: lib.ones(2, 3), lambda lib: lib.ones(3, 2).t().contiguous().t(),
             lambda lib: lib.ones(4, 2, dtype=lib.int32), lambda lib: lib.ones(5)[1:5].view(2, 2)[:, :],
             lambda lib: lib.ones(4, 2)[1:], lambda lib: lib.ones(4, 2)[::2], lambda lib: lib.ones(2, 4)[:, :2],
             lambda lib: lib.ones(9)[1:].view(4, 2), lambda lib: lib.ones(())]
    for make in cases:
        try:
            expected = torch.view_as_complex(make(torch))
        except RuntimeError as error:
            with pytest.raises(RuntimeError) as ours:
                tensorlab.view_as_complex(make(tensorlab))
            assert str(ours.value) == str(error)
            continue
        ours = tensorlab.view_as_complex(make(tensorlab))
        assert_same(ours, expected)
        assert ours.stride() == expected.stride() and ours.storage_offset() == expected.storage_offset()


def test_real_and_imag_are_writable_views(torch, rng):
    array = complex_array(rng, (2, 3))
    z, tz = tensorlab.tensor(array), torch.tensor(array)
    for part in ("real", "imag"):
        ours, theirs = getattr(z, part), getattr(tz, part)
        assert_same(ours, theirs)
        assert ours.stride() == theirs.stride() and ours.storage_offset() == theirs.storage_offset()
        assert ours._base is z
        assert_same(getattr(tensorlab, part)(z), getattr(torch, part)(tz))
    z.real[0, 0] = 5.0
    z.imag = tensorlab.zeros(3)
    tz.real[0, 0] = 5.0
    tz.imag = torch.zeros(3)
    assert_same(z, tz)
    r = tensorlab.ones(2)
    assert tensorlab.real(r) is r and r.real is r
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes"):
        r.imag


def test_conj_angle_abs(torch, rng):
    array = np.concatenate([complex_array(rng, 5), [0j, -1 + 0j, 1j]])
    z, tz = tensorlab.tensor(array), torch.tensor(array)
    for name in ("conj", "conj_physical", "angle", "abs", "sgn", "resolve_conj"):
        assert_same(getattr(z, name)(), getattr(tz, name)())
        assert_same(getattr(tensorlab, name)(z), getattr(torch, name)(tz))
    # is_conj: PyTorch's conj() is a lazy view (is_conj() True); tensorlab's copies, and says so
    assert not z.conj().is_conj()
    assert z.conj_physical().is_conj() == tz.conj_physical().is_conj() == False  # noqa: E712
    assert z.is_conj() == tz.is_conj()
    reals = np.array([-2.0, 0.0, 3.0, np.nan])
    assert_same(tensorlab.tensor(reals).angle(), torch.tensor(reals).angle())
    assert_same(tensorlab.tensor([-1, 0, 2]).angle(), torch.tensor([-1, 0, 2]).angle())
    r = tensorlab.ones(2)
    assert r.conj() is r and r.conj_physical() is r


# -- printing ----------------------------------------------------------------------------------------------


PRINTED = [np.array([1 + 2j, 3 - 4j]), np.array([1 - 0j, -0.0 - 0j]), np.array([1.5 + 2.25j, -3e-5 + 1j]),
           np.array([1e10 + 1j, 2 + 3j]), np.array(1 + 2j), np.array([np.nan + 1j, np.inf - np.inf * 1j, 0j]),
           np.array([1j, 2j]), np.zeros(0, complex), np.zeros((2, 0), complex)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("options", [{}, {"precision": 2}, {"sci_mode": True}, {"sci_mode": False},
                                     {"linewidth": 40}, {"threshold": 10, "edgeitems": 2}])
def test_printing_like_torch(torch, rng, dtype, options):
    arrays = PRINTED + [complex_array(rng, (3, 4)), complex_array(rng, (2, 3, 4)) * 100,
                        complex_array(rng, 2000), complex_array(rng, 30)]
    torch.set_printoptions(**options)
    tensorlab.set_printoptions(**options)
    try:
        for array in arrays:
            ours = tensorlab.tensor(array, dtype=getattr(tensorlab, dtype))
            theirs = torch.tensor(array, dtype=getattr(torch, dtype))
            assert repr(ours) == repr(theirs), f"\nours:  {ours!r}\ntorch: {theirs!r}"
    finally:
        torch.set_printoptions(profile="default")
        tensorlab.set_printoptions(profile="default")


def test_printing_suffixes_follow_the_default_dtype(torch):
    for default in ("float32", "float64"):
        torch.set_default_dtype(getattr(torch, default))
        tensorlab.set_default_dtype(getattr(tensorlab, default))
        try:
            for make in (lambda lib: lib.tensor([1 + 2j]), lambda lib: lib.tensor([1 + 2j], dtype=lib.complex64),
                         lambda lib: lib.tensor([1 + 2j], dtype=lib.complex128),
                         lambda lib: lib.tensor(2j, requires_grad=True), lambda lib: lib.tensor([1j]) * 2):
                assert repr(make(tensorlab)) == repr(make(torch))
        finally:
            torch.set_default_dtype(torch.float32)


# -- ops that take complex numbers, and those that refuse them ---------------------------------------------


ACCEPTED = ["x + y", "x - 1", "x * y", "x / y", "x ** 2", "x ** y", "2 ** x", "x.pow(0.5)", "x.exp()", "x.log()",
            "x.sqrt()", "x.rsqrt()", "x.sin()", "x.tanh()", "x.sigmoid()", "x.reciprocal()", "-x", "x.sum()",
            "x.sum(0)", "x.norm()", "x.norm(1, dim=0)", "t.linalg.vector_norm(x, 3)", "x.logsumexp(1)", "x.logsumexp(0)", "x[0].dot(y[1])", "x[0].vdot(y[1])", "t.vdot(x[1], y[2])", "x.mean()", "x.mean(1)", "x.prod()", "x.cumsum(0)", "x @ y", "x.mm(y)", "x.abs()",
            "x.sgn()", "x == y", "x != 1j", "x.t()", "x.reshape(-1)", "x.clone()", "x.to(t.complex128)",
            "r + 1j", "r * x", "r - x[0, 0]", "x.log2()", "x.exp2()", "x.square()", "x.isnan()", "x.isfinite()",
            "t.tensor([1, 2]) + 1j", "t.tensor([1, 2]).sum(dtype=t.complex64)"]


def test_ops_accept_complex_like_torch(torch, rng):
    for name in DTYPES:
        arrays = [complex_array(rng, (3, 3), name) for _ in range(2)] + [rng.standard_normal((3, 3)).astype("float32")]
        for expr in ACCEPTED:
            results = []
            for t in (tensorlab, torch):
                x, y, r = (t.tensor(a) for a in arrays)
                results.append(eval(expr))  # noqa: S307 - test expressions written above
            assert_same(*results, rtol=1e-4, atol=1e-5)


REFUSED = ["x.max()", "x.max(0)", "x.min(0)", "x.amax()", "x.amin(0)", "x.argmax()", "x.argmin(0)", "x.median()",
           "x.median(0)", "x.mode()", "x.sort()", "x.argsort()", "x.msort()", "x.topk(1)", "t.maximum(x, x)",
           "t.minimum(x, r)", "x.clamp(0, 1)", "x.clamp_min(0)", "x.clamp(max=r)", "x.relu()", "x.fmod(2)", "x % 2",
           "x // 2", "x > 1", "x.ge(x)", "x < 1j", "r < 1j", "x.floor()", "x.ceil()", "x.trunc()", "x.round()",
           "x.round(decimals=1)", "x.frac()", "x.sign()", "x.sign_()", "x.floor_()"]


def test_ops_refuse_complex_like_torch(torch):
    for expr in REFUSED:
        errors = []
        for t in (tensorlab, torch):
            x, r = t.tensor([1 + 2j, 3 - 4j]), t.tensor([1.0, 2.0])
            before = x.clone()
            with pytest.raises(Exception) as info:
                eval(expr)  # noqa: S307 - test expressions written above
            errors.append((type(info.value), str(info.value)))
            assert t.equal(x, before)  # nothing changed
        assert errors[0] == errors[1], expr


def test_requires_grad_for_complex(torch):
    z = tensorlab.tensor([1j], requires_grad=True)
    assert z.requires_grad
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        tensorlab.tensor([1]).requires_grad_()
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        tensorlab.tensor([1], requires_grad=True)


def test_small_complex_helpers_like_torch(torch):
    for t_make in (lambda t: t.tensor([1 + 2j, 3 + 0j]), lambda t: t.tensor([1.0, -2.0])):
        ours, theirs = t_make(tensorlab), t_make(torch)
        assert_same(tensorlab.isreal(ours), torch.isreal(theirs))
        assert_same(ours.cfloat(), theirs.cfloat())
        assert_same(ours.cdouble(), theirs.cdouble())
        assert_same(ours.clone().conj_physical_(), theirs.clone().conj_physical_())
        assert ours.is_neg() == theirs.is_neg() and tensorlab.resolve_neg(ours) is ours
    z, tz = tensorlab.tensor([1 + 2j]), torch.tensor([1 + 2j])
    copy = tensorlab.view_as_real_copy(z)
    assert_same(copy, torch.view_as_real_copy(tz))
    copy[0, 0] = 9.0
    assert z.item() == 1 + 2j  # a copy, not a view
    assert_same(tensorlab.view_as_complex_copy(copy), torch.view_as_complex_copy(torch.tensor([[9.0, 2.0]])))


def test_in_place_refuses_a_complex_result_in_a_real_tensor(torch):
    for make in (lambda t: t.ones(3).add_(0j), lambda t: t.ones(3).mul_(t.tensor([1j]))):
        messages = []
        for t in (tensorlab, torch):
            with pytest.raises(RuntimeError) as info:
                make(t)
            messages.append(str(info.value))
        assert messages[0] == messages[1]


def test_in_place_through_a_retyped_view_with_autograd_is_refused_and_changes_nothing():
    """PyTorch records ``w.real.mul_(2)`` when ``w`` requires grad; tensorlab refuses it (documented gap)
    -- before writing anything. Without autograd the write goes through to the complex tensor."""
    z = tensorlab.tensor([1 + 2j, 3 - 4j], requires_grad=True)
    w = z * 1
    with pytest.raises(RuntimeError, match="in-place op on a view that reads its base as another dtype"):
        w.real.mul_(2)
    assert w.tolist() == [1 + 2j, 3 - 4j]
    with tensorlab.no_grad():
        w.real.mul_(2)
    assert w.tolist() == [2 + 2j, 6 - 4j]
