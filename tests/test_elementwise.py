"""Elementwise ops against PyTorch: values, dtypes, grad_fn names and errors for every dtype; gradcheck
on contiguous, transposed, sliced and broadcast inputs; Python operators; nan/inf corner cases."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck
from tests.math_oracle import DTYPES, assert_close, leaf, same, same_grads, sample

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
               lambda x: 6 | x, lambda x: x ^ 3, lambda x: ~x, lambda x: x << 2, lambda x: x >> 1]:
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
    with pytest.raises(TypeError):
        tensorlab.ones(2) + "x"


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
