"""PyTorch's type promotion, everywhere: ``promote_types``, ``result_type`` and the dtype (and values)
of op results over every pair of dtypes x operand kinds (dimensioned tensor, 0-dim tensor, Python
scalar), compared with torch. The rule: a dimensioned tensor's dtype wins inside its category
(bool < integer < float); 0-dim tensors and scalars can only raise the category."""
import itertools

import numpy as np
import pytest

import tensorlab
from tests.math_oracle import DTYPES, same

# tensorlab silences NumPy's inf/nan RuntimeWarnings (PyTorch has none), but pytest resets warning filters
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")


KINDS = ["tensor", "0-dim", "scalar"]
SCALARS = {"bool": True, "int": 3, "float": 2.5}


def operand(lib, dtype, kind):
    """An operand of ``dtype`` (a scalar kind picks bool/int/float) as a tensor, 0-dim tensor or scalar."""
    if kind == "scalar":
        return SCALARS["bool" if dtype == "bool" else "float" if "float" in dtype else "int"]
    values = np.array([1, 2, 3], dtype=dtype) if dtype != "bool" else np.array([True, False, True])
    t = lib.tensor(values if kind == "tensor" else values[1])
    return t


def test_promote_types_matches_torch(torch):
    for a, b in itertools.product(DTYPES, repeat=2):
        ours = tensorlab.promote_types(getattr(tensorlab, a), getattr(tensorlab, b))
        assert str(ours) == str(torch.promote_types(getattr(torch, a), getattr(torch, b))), (a, b)


@pytest.mark.parametrize("kinds", list(itertools.product(KINDS, repeat=2)), ids="-".join)
def test_result_type_matches_torch(torch, kinds):
    for a, b in itertools.product(DTYPES, repeat=2):
        if kinds == ("scalar", "scalar"):
            continue  # torch.result_type needs a tensor
        ours = tensorlab.result_type(operand(tensorlab, a, kinds[0]), operand(tensorlab, b, kinds[1]))
        theirs = torch.result_type(operand(torch, a, kinds[0]), operand(torch, b, kinds[1]))
        assert str(ours) == str(theirs), (a, b, kinds)


def test_default_dtype_steers_float_scalars(torch):
    for lib in (tensorlab, torch):
        lib.set_default_dtype(lib.float64)
        try:
            assert str((lib.tensor([1, 2]) * 2.5).dtype) == "torch.float64"
            assert str((lib.tensor([1, 2]) / lib.tensor([3, 4])).dtype) == "torch.float64"
            assert str(lib.tensor([1.0], dtype=lib.float32).add(2.5).dtype) == "torch.float32"
        finally:
            lib.set_default_dtype(lib.float32)


OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b, "remainder": lambda a, b: a % b, "pow": lambda a, b: a ** b,
    "eq": lambda a, b: a == b, "lt": lambda a, b: a < b, "and": lambda a, b: a & b,
}
PAIRS = [(a, b) for a, b in itertools.product(DTYPES, repeat=2)]


@pytest.mark.parametrize("kinds", [k for k in itertools.product(KINDS, repeat=2) if k != ("scalar", "scalar")],
                         ids="-".join)
@pytest.mark.parametrize("name", sorted(OPS))
def test_op_results_over_the_dtype_grid(torch, name, kinds):
    """Every dtype pair: the same dtype and values as torch, or the same error."""
    op = OPS[name]
    for a, b in PAIRS:
        def run(lib, *_):
            return op(operand(lib, a, kinds[0]), operand(lib, b, kinds[1]))
        same(torch, run, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("name", ["maximum", "atan2", "logical_xor", "isclose_dtype_error", "lerp_weight"])
def test_tensor_only_functions_over_the_dtype_grid(torch, name):
    calls = {"maximum": lambda lib, x, y: lib.maximum(x, y), "atan2": lambda lib, x, y: lib.atan2(x, y),
             "logical_xor": lambda lib, x, y: lib.logical_xor(x, y), "isclose_dtype_error": lambda lib, x, y: lib.isclose(x, y),
             "lerp_weight": lambda lib, x, y: lib.lerp(x, x, y)}
    for a, b in PAIRS:
        same(torch, lambda lib, *_: calls[name](lib, operand(lib, a, "tensor"), operand(lib, b, "0-dim")),
             rtol=1e-3, atol=1e-3)
        same(torch, lambda lib, *_: calls[name](lib, operand(lib, a, "0-dim"), operand(lib, b, "tensor")),
             rtol=1e-3, atol=1e-3)


@pytest.mark.filterwarnings("ignore:var\\(\\). degrees of freedom")  # var of one element: nan, with a warning
@pytest.mark.parametrize("name", ["exp", "sqrt", "sigmoid", "abs", "floor", "reciprocal", "erf", "neg", "square",
                                  "sum", "mean", "prod", "cumsum", "max", "amax", "argmax", "norm", "var"])
def test_unary_and_reduction_result_dtypes(torch, name):
    for dtype in DTYPES:
        for kind in ("tensor", "0-dim"):
            def run(lib, *_):
                t = operand(lib, dtype, kind)
                return getattr(t, name)(0) if name == "cumsum" else getattr(t, name)()
            same(torch, run, rtol=1e-3, atol=1e-3)


def test_inplace_keeps_self_dtype(torch):
    """In-place results are cast to self's dtype when the category allows it, else PyTorch's error."""
    for a, b in PAIRS:
        for kind in ("tensor", "0-dim", "scalar"):
            def run(lib, *_):
                t = operand(lib, a, "tensor").clone()
                return t.add_(operand(lib, b, kind))
            same(torch, run, rtol=1e-3, atol=1e-3)


def test_mixed_precision_matmul_needs_one_dtype(torch):
    same(torch, lambda lib, x, y: x @ y, np.ones((2, 3), np.float32), np.ones((3, 2), np.float64))
    same(torch, lambda lib, x, y: x @ y, np.ones((2, 3), np.int64), np.ones((3, 2), np.int64))
