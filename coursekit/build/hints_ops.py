"""Stage 3's classic mistakes, each recognised in the outcome of one of the stage's cases.

A probe runs a case of :mod:`coursekit.build.cases_ops` with the learner's function and compares
what it gives with PyTorch's recorded answer, transformed the way the mistake transforms it (a
mean's gradient times the count: the divide is missing; b's gradient of a / b with the wrong sign).
"""
from __future__ import annotations

import itertools

import numpy as np

from ..language import tr
from .cases import _recorded
from .cases_ops import values


def answer(which):
    """PyTorch's recorded answer to a case (the mistakes are fingerprints of it)."""
    return _recorded()[str(which.stage)][which.id]["value"]


def _array(result, name=None):
    value = result[name] if name else result
    return np.array(value["values"])


def raised(phrase):
    """The mistake shows as a RuntimeError whose message holds ``phrase``."""
    return lambda which, got: got.get("error") == "RuntimeError" and phrase in got.get("message", "")


def shaped(name, shape):
    """The mistake gives the named gradient this (wrong) shape."""
    def seen(which, got):
        value = got.get("value")
        return isinstance(value, dict) and isinstance(value.get(name), dict) and value[name]["shape"] == shape
    return seen


def grads_scaled(**factors):
    """The mistake multiplies each named gradient by a factor (and leaves the others right)."""
    def seen(which, got):
        if "value" not in got:
            return False
        right = answer(which)
        try:
            return all(np.array_equal(_array(got["value"], name), _array(right, name) * factors.get(name, 1))
                       for name in right if name.endswith(".grad"))
        except (KeyError, TypeError, ValueError):
            return False
    return seen


def exp_of_output(which, got):
    """exp's gradient computed as grad * exp(saved), as if forward had saved the input."""
    if "value" not in got:
        return False
    right = answer(which)
    out = _array(right, "out")
    wrong = np.round(_array(right, "x.grad") / out * np.exp(out), 10)
    try:
        return np.allclose(_array(got["value"], "x.grad"), wrong)
    except (KeyError, TypeError, ValueError):
        return False


def transposed_result(which, got):
    """expand_back's answer transposed: the reduced dim was not put back where it was."""
    return "value" in got and np.array_equal(_array(got["value"]), _array(answer(which)).T)


def wrong_transpose(which_input):
    """A matrix gradient made of the right two matrices, but some other product of them (or of their
    transposes) than dL/dA = G @ B^T or dL/dB = A^T @ G."""
    def seen(which, got):
        if "value" not in got:
            return False
        (shape_a, shape_b), _ = which.args
        g = np.arange(1.0, shape_a[0] * shape_b[1] + 1).reshape(shape_a[0], shape_b[1])
        other = values(shape_b, divisor=True) if which_input == 1 else values(shape_a)
        right = g @ other.T if which_input == 1 else other.T @ g
        products = [p @ q for x, y in [(g, other), (other, g)]
                    for p, q in itertools.product((x, x.T), (y, y.T)) if p.shape[1] == q.shape[0]]
        try:
            got_value = _array(got["value"], "grad")
        except (KeyError, TypeError):
            return False
        return not np.array_equal(got_value, right) and any(
            got_value.shape == p.shape and np.array_equal(got_value, p) for p in products)
    return seen


#: (name, function, the case's input as shown, how it shows, hint)
MISTAKES3 = [
    (tr("gradient not summed back to the input's shape"), "mul_backward", "(a * b).grad_fn(grad) called directly, "
     "a: (2, 3), b: (3,)", shaped("b.grad", [2, 3]),
     tr("b has shape (3,) but was used once per row of the (2, 3) product, and your gradient for it kept "
        "the product's shape. A backward returns each gradient in its input's shape: sum it back over the "
        "broadcast dims with unbroadcast(..., ctx.shapes[1]). (The engine would repair it for .backward() "
        "-- PyTorch's does too -- but not for anyone who calls the node directly.)")),
    (tr("the sign of a / b's gradient for b"), "div_backward", "a / b, a: (2, 3), b: (2, 3)",
     grads_scaled(**{"b.grad": -1}),
     tr("b's gradient has the wrong sign. a / b falls as b grows (for positive a): d(a/b)/db = -a / b^2.")),
    (tr("mean without the divide"), "mean_backward", "x.mean(1), x: (2, 4)", grads_scaled(**{"x.grad": 4}),
     tr("The gradient is 4 times too big -- it is the gradient of a sum. Each of the 4 elements averaged "
        "counts 1/4 in the mean: divide by ctx.count.")),
    (tr("one gradient instead of one per argument"), "sum_backward", "x.sum(1), x: (2, 3)",
     raised("incorrect number of gradients"),
     tr("Backward must return one gradient per argument of forward -- x, dim, keepdim, dtype -- with None "
        "for those that are not tensors: return (grad_x, None, None, None).")),
    (tr("the reduced dim not put back"), "expand_back", "expand_back(grad, (3, 3), dims=(1,)",
     transposed_result,
     tr("The gradient came out transposed: a gradient of shape (3,) for a sum over dim 1 was expanded "
        "as a row. Put the reduced dim back first (unsqueeze(1): shape (3, 1)) so that each row gets its "
        "own value, then expand.")),
    (tr("exp of the saved output"), "exp_backward", "x.exp(), x: (2, 3)", exp_of_output,
     tr("exp's forward saved its OUTPUT e^x, not its input: multiply grad by the saved tensor itself "
        "(calling .exp() on it computes e^(e^x)).")),
    (tr("wrong transpose in A's gradient"), "mat1_grad", "mat1_grad for A: (3, 3) @ B: (3, 3), grad",
     wrong_transpose(1),
     tr("For C = A @ B, dL/dA = dL/dC @ B^T: the incoming gradient on the left, B transposed on the right "
        "-- the only order whose shapes give A's (n, m) from (n, p) and (m, p).")),
    (tr("wrong transpose in B's gradient"), "mat2_grad", "mat2_grad for A: (3, 3) @ B: (3, 3), grad",
     wrong_transpose(2),
     tr("For C = A @ B, dL/dB = A^T @ dL/dC: A transposed on the left, the incoming gradient on the right "
        "-- check the shapes: (m, n) @ (n, p) gives B's (m, p).")),
]
