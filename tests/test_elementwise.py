"""Elementwise ops against PyTorch: values, dtypes, grad_fn names and errors for every dtype; gradcheck
on contiguous, transposed, sliced and broadcast inputs; Python operators; nan/inf corner cases."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck
from tests.math_oracle import DTYPES, assert_close, leaf, same, same_grads, sample

# tensorlab silences NumPy's inf/nan RuntimeWarnings (PyTorch has none), but pytest resets warning filters
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")


# name -> (domain low, high) of the test values
UNARY = {
    "exp": (-3, 3), "expm1": (-3, 3), "exp2": (-3, 3), "log": (0.1, 5), "log1p": (-0.9, 5), "log2": (0.1, 5),
    "log10": (0.1, 5), "sqrt": (0.1, 5), "rsqrt": (0.1, 5), "square": (-3, 3), "abs": (-3, 3), "sign": (-3, 3),
    "sgn": (-3, 3), "sin": (-3, 3), "cos": (-3, 3), "tan": (-1.2, 1.2), "asin": (-0.9, 0.9), "acos": (-0.9, 0.9),
    "atan": (-3, 3), "sinh": (-3, 3), "cosh": (-3, 3), "tanh": (-3, 3), "sigmoid": (-6, 6), "relu": (-3, 3),
    "erf": (-2, 2), "floor": (-3, 3), "ceil": (-3, 3), "round": (-3, 3), "trunc": (-3, 3), "frac": (-3, 3),
    "reciprocal": (0.2, 3), "neg": (-3, 3), "nan_to_num": (-3, 3), "arcsin": (-0.9, 0.9), "absolute": (-3, 3),
    "negative": (-3, 3), "fix": (-3, 3),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_torch(torch, rng, name, dtype):
    low, high = UNARY[name]
    x = sample(dtype, (3, 4), rng, low, high)
    same(torch, lambda lib, t: getattr(lib, name)(t), x)
    same(torch, lambda lib, t: getattr(t, name)(), x, requires_grad=True)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradient_matches_torch(torch, rng, name):
    low, high = UNARY[name]
    x = sample("float64", (2, 3), rng, low, high)
    same_grads(torch, lambda lib, t: getattr(t, name)(), x, grad_out=rng.standard_normal((2, 3)))


def test_special_values_match_torch(torch):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -2.5, 2.5, 0.5, -0.5], dtype=np.float32)
    for name in ["exp", "log", "log1p", "sqrt", "rsqrt", "reciprocal", "sign", "relu", "sigmoid", "tanh", "erf",
                 "round", "floor", "frac", "abs", "asin", "atan", "nan_to_num", "isnan", "isinf", "isfinite",
                 "isposinf", "isneginf"]:
        same(torch, lambda lib, t: getattr(lib, name)(t), x)
    same(torch, lambda lib, t: t.nan_to_num(nan=1.0, posinf=2.0, neginf=-2.0), x)
    same(torch, lambda lib, t: t.round(decimals=1), np.array([1.25, 2.35, -0.05, 1234.5678], dtype=np.float32))
    same(torch, lambda lib, t: t.round(decimals=-2), np.array([1234.5678, 50.0, 150.0], dtype=np.float64))


# -- binary arithmetic -----------------------------------------------------------------------------------

BINARY = {
    "add": lambda lib, a, b: lib.add(a, b), "add_alpha": lambda lib, a, b: lib.add(a, b, alpha=2),
    "sub": lambda lib, a, b: lib.sub(a, b), "sub_alpha": lambda lib, a, b: a.sub(b, alpha=3),
    "rsub": lambda lib, a, b: lib.rsub(a, b), "mul": lambda lib, a, b: a * b, "div": lambda lib, a, b: a / b,
    "div_trunc": lambda lib, a, b: lib.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda lib, a, b: a.div(b, rounding_mode="floor"), "floordiv": lambda lib, a, b: a // b,
    "remainder": lambda lib, a, b: a % b, "fmod": lambda lib, a, b: lib.fmod(a, b),
    "pow": lambda lib, a, b: a ** b, "atan2": lambda lib, a, b: lib.atan2(a, b),
    "maximum": lambda lib, a, b: lib.maximum(a, b), "minimum": lambda lib, a, b: lib.minimum(a, b),
    "max2": lambda lib, a, b: lib.max(a, b), "min2": lambda lib, a, b: a.min(b),
}
SHAPE_PAIRS = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((4,), ()), ((), (2, 3))]


@pytest.mark.parametrize("shapes", SHAPE_PAIRS, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_matches_torch(torch, rng, name, dtype, shapes):
    a = sample(dtype, shapes[0], rng, -4, 4)
    b = sample(dtype, shapes[1], rng, 1, 4)  # positive: no integer division by zero
    same(torch, BINARY[name], a, b, requires_grad=True)
    same(torch, BINARY[name], b, a, requires_grad=True)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "div_trunc", "div_floor", "remainder", "fmod", "pow"])
@pytest.mark.parametrize("scalar", [2, -3, 2.5, True])
@pytest.mark.parametrize("dtype", ["float32", "int64", "int8", "bool"])
def test_binary_with_python_scalars(torch, rng, name, scalar, dtype):
    a = sample(dtype, (2, 3), rng, 1, 4)
    same(torch, BINARY[name], a, scalar, requires_grad=True)


def test_reflected_operators(torch, rng):
    a = sample("float32", (2, 3), rng, 0.5, 3)
    for op in [lambda x: 2 + x, lambda x: 2 - x, lambda x: 2 * x, lambda x: 2 / x, lambda x: 2 ** x,
               lambda x: 2.5 // x, lambda x: 7 % x, lambda x: -x, lambda x: +x, lambda x: abs(x - 1)]:
        same(torch, lambda lib, t: op(t), a, requires_grad=True)
    ints = sample("int64", (2, 3), rng, 1, 4)
    for op in [lambda x: 7 // x, lambda x: 7 % x, lambda x: 2 / x, lambda x: 1 - x, lambda x: 2 ** x, lambda x: x & 6,
               lambda x: 6 | x, lambda x: x ^ 3, lambda x: ~x, lambda x: x << 2, lambda x: x >> 1, lambda x: 2 << x,
               lambda x: 64 >> x]:
        same(torch, lambda lib, t: op(t), ints)


@pytest.mark.parametrize("dtype", ["int64", "int16", "uint8"])
def test_integer_division_by_zero(torch, dtype):
    a, b = np.array([5, 7, 0], dtype=dtype), np.array([2, 0, 3], dtype=dtype)
    for name in ["div_trunc", "div_floor", "floordiv", "remainder", "fmod", "div"]:
        same(torch, BINARY[name], a, b)


def test_float_division_corner_cases(torch):
    a = np.array([1.0, -1.0, 0.0, 5.5, -5.5, 1.0, -1.0, np.inf], dtype=np.float32)
    b = np.array([0.0, 0.0, 0.0, -2.0, 2.0, 0.1, 0.1, 2.0], dtype=np.float32)
    for name in ["div", "div_trunc", "div_floor", "floordiv", "remainder", "fmod"]:
        same(torch, BINARY[name], a, b)


def test_integer_powers(torch):
    base, exp = np.array([0, 1, -1, 2, -2, 3]), np.array([-1, -3, -3, -2, 3, 2])
    same(torch, lambda lib, a, b: a ** b, base, exp)
    same(torch, lambda lib, a: 2 ** a, exp)
    same(torch, lambda lib, a: a ** -1, base)
    same(torch, lambda lib, a: a ** 2.5, np.array([1, 4, 9]))
    same(torch, lambda lib, a: a.square(), np.array([True, False]))


def test_alpha_rules(torch):
    ints, bools = np.array([1, 2]), np.array([True, False])
    same(torch, lambda lib, a: lib.add(a, a, alpha=0.5), ints)
    same(torch, lambda lib, a: lib.add(a, a, alpha=True), ints)
    same(torch, lambda lib, a: lib.add(a, a, alpha=True), bools)
    same(torch, lambda lib, a: lib.sub(a, a), bools)
    same(torch, lambda lib, a: -a, bools)


def test_bad_operands(torch):
    a = np.ones((2, 3), dtype=np.float32)
    same(torch, lambda lib, t: t + lib.ones(4), a)
    same(torch, lambda lib, t: lib.div(t, 2, rounding_mode="round"), a)
    same(torch, lambda lib, t: lib.add(t, "x"), a)
    same(torch, lambda lib, t: lib.atan2(t, 2), a)
    same(torch, lambda lib, t: lib.maximum(t, 2), a)
    for name in ("add", "sub", "mul", "div"):
        same(torch, lambda lib, t: getattr(lib, name)(t, None), a)
    with pytest.raises(TypeError):
        tensorlab.ones(2) + "x"


@pytest.mark.parametrize("name", ["add_", "sub_", "mul_", "div_"])
def test_in_place_with_none_raises_and_changes_nothing(name):
    x = tensorlab.ones(3)
    with pytest.raises(TypeError, match="argument 'other' .* must be Tensor, not NoneType"):
        getattr(x, name)(None)
    assert x.tolist() == [1.0, 1.0, 1.0] and x._version == 0


def test_floor_divide_has_no_derivative(torch):
    a = np.array([1.5, 2.5])
    same(torch, lambda lib, t: t // 2, a, requires_grad=True)
    x = tensorlab.tensor(a, requires_grad=True)
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        (x // 2).sum().backward()


def test_remainder_of_a_number_has_no_derivative(torch):
    x = tensorlab.tensor([1.5, 2.5], requires_grad=True)
    y = 7 % x
    assert y.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::remainder is not implemented"):
        y.sum().backward()


def test_scalar_operands_get_empty_edges():
    x = tensorlab.tensor([1.0, 2.0], requires_grad=True)
    assert [f is None for f, _ in (x * 2).grad_fn.next_functions] == [False, True]
    assert len(x.pow(2).grad_fn.next_functions) == 1
    assert len((x % 2).grad_fn.next_functions) == 1


# -- comparisons, logical and bitwise ops -------------------------------------------------------------

COMPARE = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less_equal", "not_equal"]
OPERATORS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
             "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int64", "float32"), ("uint8", "int8"),
                                    ("bool", "int32"), ("float64", "float16")], ids=str)
def test_comparisons_match_torch(torch, rng, dtypes):
    a, b = sample(dtypes[0], (3, 4), rng, -2, 2), sample(dtypes[1], (4,), rng, -2, 2)
    for name in COMPARE:
        same(torch, lambda lib, x, y: getattr(lib, name)(x, y), a, b)
        same(torch, lambda lib, x: getattr(x, name)(1.5), a)
    for op in OPERATORS.values():
        same(torch, lambda lib, x, y: op(x, y), a, b, requires_grad=True)
        same(torch, lambda lib, x: op(x, 1), a)
        same(torch, lambda lib, x: op(2, x), a)


def test_comparison_with_non_tensors():
    t = tensorlab.tensor([1, 2])
    assert (t == None) is False and (t != "a") is True  # noqa: E711 - Python's fallback, as PyTorch's
    assert tensorlab.equal(t, tensorlab.tensor([1, 2])) and not tensorlab.equal(t, tensorlab.tensor([1, 2, 3]))


@pytest.mark.parametrize("dtypes", [("bool", "bool"), ("int64", "int64"), ("uint8", "int8"), ("float32", "int64"),
                                    ("int32", "bool")], ids=str)
def test_logical_and_bitwise_match_torch(torch, rng, dtypes):
    a, b = sample(dtypes[0], (3, 4), rng, -3, 3), sample(dtypes[1], (3, 4), rng, -3, 3)
    for name in ["logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"]:
        same(torch, lambda lib, x, y: getattr(lib, name)(x, y), a, b)
    same(torch, lambda lib, x: lib.logical_not(x), a)
    same(torch, lambda lib, x: lib.bitwise_not(x), a)
    same(torch, lambda lib, x, y: x << y, a, np.abs(b) % 4)
    same(torch, lambda lib, x: lib.bitwise_right_shift(x, 1), a)
    same(torch, lambda lib, x: ~x, a)
    for op in [lambda x, y: x & y, lambda x, y: x | y, lambda x, y: x ^ y]:
        same(torch, lambda lib, x, y: op(x, y), a, b)
        same(torch, lambda lib, x: op(x, 5), a)
        same(torch, lambda lib, x: op(True, x), a)


def test_isclose_allclose_equal_match_torch(torch):
    a = np.array([1.0, 1.0 + 1e-7, np.nan, np.inf, -np.inf, 0.0, 1e-9], dtype=np.float64)
    b = np.array([1.0, 1.0, np.nan, np.inf, np.inf, 1e-9, 0.0], dtype=np.float64)
    for kwargs in [{}, {"equal_nan": True}, {"rtol": 0, "atol": 1e-8}, {"rtol": 0.1, "atol": 0}]:
        same(torch, lambda lib, x, y: lib.isclose(x, y, **kwargs), a, b)
        ours, theirs = same(torch, lambda lib, x, y: lib.allclose(x, y, **kwargs), a, b)
    same(torch, lambda lib, x, y: lib.isclose(x, y), np.array([1, 2]), np.array([1.0, 2.0]))
    same(torch, lambda lib, x, y: lib.isclose(x, y), np.array([1, 2]), np.array([1, 3]))
    for x, y in [(a, a), (a, b), (np.arange(3), np.arange(3.0)), (np.arange(3), np.arange(4))]:
        same(torch, lambda lib, p, q: lib.equal(p, q), x, y)


# -- clamp, maximum, lerp, addcmul, addcdiv -------------------------------------------------------------------

def test_clamp_matches_torch(torch, rng):
    x = sample("float32", (3, 4), rng, -3, 3)
    lo, hi = sample("float32", (4,), rng, -2, 0), sample("float32", (3, 1), rng, 0, 2)
    for call in [lambda lib, t: t.clamp(-1, 1), lambda lib, t: t.clamp(min=0), lambda lib, t: t.clamp(max=0.5),
                 lambda lib, t: lib.clip(t, -0.5, 0.5), lambda lib, t: t.clamp(1, -1), lambda lib, t: t.clamp_min(0),
                 lambda lib, t: t.clamp_max(0), lambda lib, t: t.clamp(lib.tensor(-1.0), 1.0),
                 lambda lib, t: t.clamp(), lambda lib, t: t.clamp(lib.tensor([0.0, 1.0]), 1.0)]:
        same(torch, call, x, requires_grad=True)
    for call in [lambda lib, t, a, b: t.clamp(a, b), lambda lib, t, a, b: t.clamp(min=a),
                 lambda lib, t, a, b: t.clamp(max=b), lambda lib, t, a, b: t.clamp_min(a),
                 lambda lib, t, a, b: t.clamp_max(b), lambda lib, t, a, b: t.clamp(b, a)]:
        same(torch, call, x, lo, hi, requires_grad=True)
        same_grads(torch, call, x, lo, hi, grad_out=rng.standard_normal((3, 4)))
    ints = sample("int64", (5,), rng, -5, 5)
    same(torch, lambda lib, t: t.clamp(-2, 2), ints)
    same(torch, lambda lib, t: t.clamp(0.5, 2.5), ints)
    same(torch, lambda lib, t: t.clamp(0, 1), np.array([True, False]))


def test_clamp_gradient_at_and_outside_the_bounds(torch):
    x = np.array([-2.0, -1.0, 0.0, 1.0, 2.0, np.nan])
    for call in [lambda lib, t: t.clamp(-1, 1), lambda lib, t: t.clamp(min=-1), lambda lib, t: t.clamp_max(1)]:
        same_grads(torch, call, x)


def test_maximum_minimum_match_torch(torch, rng):
    a = np.array([[1.0, 2.0, 3.0, np.nan], [0.0, -1.0, 5.0, 2.0]])
    b = np.array([2.0, 2.0, 1.0, 0.0])
    for name in ["maximum", "minimum", "max", "min"]:
        same(torch, lambda lib, x, y: getattr(lib, name)(x, y), a, b, requires_grad=True)
        same_grads(torch, lambda lib, x, y: getattr(lib, name)(x, y), a, b, grad_out=rng.standard_normal((2, 4)))
    same(torch, lambda lib, x, y: lib.maximum(x, y), np.array([1, 5]), np.array([2.5, 2.5]))


def test_lerp_addcmul_addcdiv_match_torch(torch, rng):
    s, e, w = (sample("float32", shape, rng, 0.5, 2) for shape in [(3, 4), (4,), (3, 1)])
    calls = [lambda lib, a, b, c: a.lerp(b, 0.3), lambda lib, a, b, c: lib.lerp(a, b, 0.8),
             lambda lib, a, b, c: a.lerp(b, c), lambda lib, a, b, c: a.addcmul(b, c, value=0.5),
             lambda lib, a, b, c: lib.addcdiv(a, b, c, value=-2), lambda lib, a, b, c: a.addcdiv(b, c)]
    for call in calls:
        same(torch, call, s, e, w, requires_grad=True)
        same_grads(torch, call, s, e, w, grad_out=rng.standard_normal((3, 4)))
    same(torch, lambda lib, a, b: a.lerp(b, 0.5), s, e.astype(np.float64))
    same(torch, lambda lib, a, b: a.lerp(b, 0.5), np.arange(3), np.arange(3))
    same(torch, lambda lib, a, b: a.addcdiv(b, b), s, np.arange(1, 5))
    same(torch, lambda lib, a, b: a.addcmul(b, b, value=2), np.arange(3), np.arange(3))
    same(torch, lambda lib, a, b: a.addcmul(a, b), s, e.astype(np.float64))


# -- in-place forms ---------------------------------------------------------------------------------------

INPLACE = {
    "add_": (lambda t, o: t.add_(o, alpha=2)), "sub_": (lambda t, o: t.sub_(o)), "mul_": (lambda t, o: t.mul_(o)),
    "div_": (lambda t, o: t.div_(o)), "div_floor_": (lambda t, o: t.div_(o, rounding_mode="floor")),
    "pow_": (lambda t, o: t.pow_(o)), "remainder_": (lambda t, o: t.remainder_(o)), "fmod_": (lambda t, o: t.fmod_(o)),
    "atan2_": (lambda t, o: t.atan2_(o)), "clamp_": (lambda t, o: t.clamp_(o, o + 1)),
    "lerp_": (lambda t, o: t.lerp_(o, 0.25)), "addcmul_": (lambda t, o: t.addcmul_(o, o, value=2)),
    "addcdiv_": (lambda t, o: t.addcdiv_(o, o + 3)), "iadd": (lambda t, o: t.__iadd__(o)),
    "isub": (lambda t, o: t.__isub__(o)), "imul": (lambda t, o: t.__imul__(o)), "itruediv": (lambda t, o: t.__itruediv__(o)),
    "imod": (lambda t, o: t.__imod__(o)), "ipow": (lambda t, o: t.__ipow__(o)),
    "eq_": (lambda t, o: t.eq_(o)), "lt_": (lambda t, o: t.lt_(o)), "clamp_min_": (lambda t, o: t.clamp_min_(o)),
}
UNARY_INPLACE = ["exp_", "log_", "sqrt_", "abs_", "neg_", "sigmoid_", "tanh_", "relu_", "sin_", "floor_", "round_",
                 "reciprocal_", "rsqrt_", "square_", "expm1_", "log1p_", "erf_", "sign_", "trunc_", "frac_", "nan_to_num_"]


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_binary_inplace_matches_torch(torch, rng, name):
    x, o = sample("float64", (3, 4), rng, 0.5, 2), sample("float64", (4,), rng, 0.5, 2)
    fn = INPLACE[name]

    def run(lib, a, b):
        base = (a * 1)  # a non-leaf, so autograd records the in-place op
        out = fn(base, b)
        assert out is base
        return out
    same(torch, run, x, o, requires_grad=True)
    same_grads(torch, run, x, o, grad_out=rng.standard_normal((3, 4)))


@pytest.mark.parametrize("name", UNARY_INPLACE)
def test_unary_inplace_matches_torch(torch, rng, name):
    x = sample("float64", (2, 3), rng, 0.2, 0.9)
    same(torch, lambda lib, a: getattr(a * 1, name)(), x, requires_grad=True)
    same_grads(torch, lambda lib, a: getattr(a * 1, name)(), x, grad_out=rng.standard_normal((2, 3)))


def test_inplace_floor_divide_records_no_derivative(torch):
    for lib in (tensorlab, torch):
        x = lib.tensor([1.5, 2.5], requires_grad=True)
        y = x * 1
        y //= 2
        assert y.tolist() == [0.0, 1.0] and y.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::floor_divide_ is not implemented"):
            y.sum().backward()


def test_inplace_writes_through_views_and_bumps_the_version(torch):
    for lib in (tensorlab, torch):
        base = lib.zeros(3, 4)
        view = base[1]
        before = base._version
        view.add_(2).mul_(3)
        assert base[1].tolist() == [6.0] * 4 and base[0].tolist() == [0.0] * 4
        assert base._version == view._version == before + 2
        col = base.t()[2]  # a strided view
        col.clamp_(max=1)
        assert base[:, 2].tolist() == [0.0, 1.0, 0.0]


def test_inplace_errors_match_torch(torch, rng):
    ints, floats = np.arange(6).reshape(2, 3), sample("float32", (2, 3), rng)
    same(torch, lambda lib, t: t.add_(1.5), ints)
    same(torch, lambda lib, t: t.div_(2), ints)
    same(torch, lambda lib, t: t.sqrt_(), ints)
    same(torch, lambda lib, t: t.mul_(lib.ones(4, 2, 3)), floats)
    same(torch, lambda lib, t: t.add_(lib.ones(3, 3)), floats)
    same(torch, lambda lib, t: t.lt_(0), ints)
    for lib in (tensorlab, torch):
        leaf_ = lib.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            leaf_.add_(1)
        with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
            leaf_[:2].mul_(2)
        with lib.no_grad():
            leaf_.mul_(2)
        assert leaf_.tolist() == [2.0, 2.0, 2.0]


def test_failed_inplace_changes_nothing():
    t = tensorlab.arange(6).reshape(2, 3)
    version = t._version
    for bad in [lambda: t.add_(1.5), lambda: t.add_(tensorlab.ones(4, 2, 3, dtype=tensorlab.int64))]:
        with pytest.raises(RuntimeError):
            bad()
    assert t.tolist() == [[0, 1, 2], [3, 4, 5]] and t._version == version


def test_inplace_on_saved_tensor_is_detected(torch):
    for lib in (tensorlab, torch):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = a * 1
        c = b.exp()  # saves its output
        c.mul_(2)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            c.sum().backward()


def test_iadd_returns_the_same_object():
    t = tensorlab.zeros(3)
    alias = t
    t += 1
    t *= 3
    t **= 2
    assert t is alias and t.tolist() == [9.0, 9.0, 9.0]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32"])
def test_python_ints_out_of_the_dtype_range_wrap_as_torch(torch, dtype):
    x = np.array([1, 2, 100], dtype=dtype)
    for call in [lambda lib, t: t + 1000, lambda lib, t: t - 3, lambda lib, t: t * 100000, lambda lib, t: t < 1000,
                 lambda lib, t: t.add_(70000), lambda lib, t: lib.maximum(t, t) == 2 ** 31 + 5]:
        same(torch, call, x)


def test_inplace_functions_at_module_level(torch, rng):
    """torch.exp_(x) and friends: the in-place method, called as a function (same object back)."""
    x = sample("float64", (2, 3), rng, 0.2, 0.9)
    for name in ["exp_", "log_", "sqrt_", "sigmoid_", "relu_", "tanh_", "abs_", "neg_", "floor_", "round_",
                 "square_", "erf_", "nan_to_num_", "reciprocal_", "trunc_", "sin_", "cosh_", "log1p_"]:
        same(torch, lambda lib, t: getattr(lib, name)(t), x)
        t = tensorlab.tensor(x)
        assert getattr(tensorlab, name)(t) is t
    same(torch, lambda lib, t: lib.clamp_(t, 0.3, 0.6), x)
    same(torch, lambda lib, t: lib.clamp_min_(t, 0.5), x)


@pytest.mark.parametrize("expression", [
    lambda x, y: 2 * x, lambda x, y: x * 2, lambda x, y: 2 + x, lambda x, y: x - 2, lambda x, y: 2 - x,
    lambda x, y: 2 / x, lambda x, y: x / 2, lambda x, y: 2 ** x, lambda x, y: x ** 2, lambda x, y: x ** y,
    lambda x, y: x % 2, lambda x, y: x * y.detach(), lambda x, y: x.clamp(0, 1), lambda x, y: x.lerp(y, 0.5),
    lambda x, y: x.addcmul(y, y), lambda x, y: x.maximum(y), lambda x, y: x // 2, lambda x, y: x.add(y, alpha=2),
])
def test_next_functions_match_torch(torch, expression):
    """Which inputs get an edge in the graph (a Python number gets none, or a (None, 0) slot)."""
    def edges(lib):
        x = lib.tensor([1.5, 2.0], requires_grad=True)
        y = lib.tensor([0.5, 3.0], requires_grad=True)
        return [None if f is None else f.name() for f, _ in expression(x, y).grad_fn.next_functions]
    assert edges(tensorlab) == edges(torch)
