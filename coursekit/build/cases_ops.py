"""Stage 3's cases: forward and backward formulas of ``*``, ``/``, ``exp``, ``sum``, ``mean`` and the
matrix products, each tested alone, in a small run of the real op.

A method of an op (``Mul.backward``) cannot be called by itself: it needs the ctx its forward
filled. So a case runs a tiny program -- ``x * y`` on two leaves, then ``backward`` -- on tensorlab
with the learner's function in place of that one function (everything else of the stage is
tensorlab's own, :func:`coursekit.build.place.only`), and the same program on PyTorch. The answer
is the output, its dtype and the leaves' gradients, rounded to 10 decimals (``exp`` of NumPy and of
PyTorch may differ in the last bit). The inputs are binary fractions, so ``*`` and ``/`` are exact.
The two module-level helpers, ``expand_back`` and ``mat1_grad``/``mat2_grad``, are called directly.
"""
from __future__ import annotations

import numpy as np

from ..language import tr
from .cases import Case
from .place import only

STAGE = 3
#: How the cases are shown to the learner (in English here; :meth:`Case.tell` translates them).
DIRECT = "(a {op} b).grad_fn(grad) called directly, a: {a}, b: {b}, grad = 1, 2, 3, ..."
THEN_BACKWARD = "{program}, then backward with grad = 1, 2, 3, ..."
EXPAND_BACK = ("expand_back(grad, {shape}, dims={dims}, keepdim={keepdim}) with grad = 1, 2, 3, ... "
               "of shape {grad_shape}")
MAT_GRAD = "mat{which}_grad for A: {a} @ B: {b}, grad = 1, 2, 3, ..."
MAT_GRAD_COLUMN_MAJOR = "mat{which}_grad for A: {a} @ B: {b}, {operand} column-major, grad = 1, 2, 3, ..."


def values(shape, divisor=False):
    """Distinct binary fractions: -1.25, -0.75, ... (or, for a divisor, +-0.5, 1, 2, 4: never 0)."""
    n = int(np.prod(shape))
    if divisor:
        return (np.array([0.5, -1.0, 2.0, 4.0, -0.5, 1.0])[np.arange(n) % 6]).reshape(shape)
    return ((np.arange(n) * 5 % 11) / 2 - 2.25).reshape(shape)


def incoming(lib, shape):
    """The gradient a case sends into the output: 1, 2, 3, ... in float64, as a ``lib`` tensor."""
    array = np.arange(1.0, float(np.prod(shape)) + 1).reshape(shape)
    return lib.tensor(array) if lib.__name__ == "tensorlab" else lib.from_numpy(array)


def _rounded(t):
    return np.round(t.detach().numpy(), 10) if t is not None else None


def _leaf(lib, array, grad=True):
    return lib.tensor(array, requires_grad=grad) if array.dtype.kind == "f" else lib.tensor(array)


def _run(lib, program, *args):
    """{"out": ..., "dtype": ..., "a.grad": ..., "b.grad": ...} of one small program on ``lib``."""
    leaves, out = program(lib, *args)
    if out.requires_grad:
        out.backward(incoming(lib, tuple(out.shape)).to(out.dtype))
    result = {"out": _rounded(out), "dtype": str(out.dtype).replace("torch.", "")}
    for name, leaf in leaves.items():
        result[f"{name}.grad"] = _rounded(leaf.grad)
    return result


def _binary(op, shape_a, shape_b, needs=(True, True), a_dtype="float64"):
    """The program ``a <op> b`` on two leaves (``b`` a Python number when ``shape_b`` is one)."""
    def program(lib, *_):
        a = _leaf(lib, values(shape_a).astype(a_dtype), needs[0])
        b = shape_b if isinstance(shape_b, (int, float)) else _leaf(lib, values(shape_b, op == "/"), needs[1])
        out = a * b if op == "*" else a / b
        return {n: t for n, t, need in [("a", a, needs[0]), ("b", b, needs[1])]
                if need and hasattr(t, "grad") and t.requires_grad}, out
    return program


def _node_called(op, shape_a, shape_b):
    """``(a <op> b).grad_fn(grad)`` called directly, as an engine calls a node: the gradients the
    backward returns, one per input, each of its input's shape. (On PyTorch the same gradients are
    read from ``a.grad`` and ``b.grad`` after ``backward``: its engine sums a broadcast gradient back
    to the input's shape when a formula has not -- its own formulas leave that to it -- so the
    gradients a backward must return are the ones that arrive in ``.grad``.)"""
    def direct(lib):
        a, b = _leaf(lib, values(shape_a)), _leaf(lib, values(shape_b, op == "/"))
        out = a * b if op == "*" else a / b
        if lib.__name__ == "tensorlab":
            grads = out.grad_fn(incoming(lib, tuple(out.shape)))
        else:
            out.backward(incoming(lib, tuple(out.shape)))
            grads = a.grad, b.grad
        return {"a.grad": _rounded(grads[0]), "b.grad": _rounded(grads[1])}
    return direct


def _direct_case(function, op, shape_a, shape_b):
    def call(fn, *_):
        from .skeleton import regions
        with only(regions(STAGE), function, fn):
            import tensorlab
            return _node_called(op, shape_a, shape_b)(tensorlab)
    return Case(STAGE, function, (f"(a {op} b).grad_fn(grad), a: {shape_a}, b: {shape_b}",),
                lambda torch, *_: _node_called(op, shape_a, shape_b)(torch), call,
                DIRECT.format(op=op, a=shape_a, b=shape_b), lambda: tr(DIRECT, op=op, a=shape_a, b=shape_b))


def _reduction(name, shape, *args, **kwargs):
    def program(lib, *_):
        x = _leaf(lib, values(shape))
        return {"x": x}, getattr(x, name)(*args, **kwargs)
    return program


def _exp(shape):
    def program(lib, *_):
        x = _leaf(lib, values(shape) / 2)
        return {"x": x}, x.exp()
    return program


def _products(shape_a, shape_b, method="matmul"):
    def program(lib, *_):
        a, b = _leaf(lib, values(shape_a) / 2), _leaf(lib, values(shape_b, divisor=True))
        return {"a": a, "b": b}, getattr(a, method)(b)
    return program


def _said(shown):
    """A program as the learner reads it: its code as it is, its words in the learner's language."""
    return {"a * b, only b requires grad": tr("a * b, only b requires grad")}.get(shown, shown)


def then_backward(shown):
    """``told`` of a case that runs ``shown`` and then its backward: the case in the learner's language."""
    return lambda: tr(THEN_BACKWARD, program=_said(shown))


def _case(function, shown, program, backward=True):
    """A case of the method ``function``: ``program`` run with the learner's function in its place."""
    def call(fn, *_):
        from .skeleton import regions
        with only(regions(STAGE), function, fn):
            import tensorlab
            return _run(tensorlab, program)

    return Case(STAGE, function, (shown,), lambda torch, *_: _run(torch, program), call,
                THEN_BACKWARD.format(program=shown) if backward else shown,
                then_backward(shown) if backward else lambda: _said(shown))


# -- expand_back, mat1_grad, mat2_grad: called directly ---------------------------------------------


def _call_expand_back(function, grad_shape, in_shape, dims, keepdim):
    import tensorlab
    return function(incoming(tensorlab, grad_shape), in_shape, dims, keepdim)


def _torch_expand_back(torch, grad_shape, in_shape, dims, keepdim):
    """PyTorch's gradient of ``x.sum(dims, keepdim)`` for the same incoming gradient."""
    x = torch.zeros(in_shape, dtype=torch.float64, requires_grad=True)
    x.sum(dims, keepdim=keepdim).backward(incoming(torch, grad_shape))
    return x.grad


def _call_mat_grad(which):
    """``mat1_grad(grad, mat2, mat1.shape, mat1.stride())`` on tensorlab tensors; the gradient and its
    strides (a column-major input gets a column-major gradient)."""
    def call(function, shapes, column_major):
        import tensorlab
        shape_a, shape_b = shapes
        grad = incoming(tensorlab, (shape_a[0], shape_b[1]))
        mine, other = (shape_a, shape_b) if which == 1 else (shape_b, shape_a)
        stride = (1, mine[0]) if column_major else (mine[1], 1)
        out = function(grad, tensorlab.tensor(values(other, divisor=which == 1)), mine, stride)
        return {"grad": _rounded(out), "stride": list(out.stride())}
    return call


def _torch_mat_grad(which):
    """What PyTorch's mm backward sends to A (or B): caught by a hook on the input, before any copy."""
    def expected(torch, shapes, column_major):
        shape_a, shape_b = shapes
        mine = shape_a if which == 1 else shape_b
        stored = torch.zeros(mine[::-1] if column_major else mine, dtype=torch.float64, requires_grad=True)
        operand = stored.t() if column_major else stored
        other = torch.tensor(values(shape_b if which == 1 else shape_a, divisor=which == 1))
        caught = []
        operand.register_hook(caught.append)
        out = operand.mm(other) if which == 1 else other.mm(operand)
        out.backward(incoming(torch, (shape_a[0], shape_b[1])))
        return {"grad": _rounded(caught[0]), "stride": list(caught[0].stride())}
    return expected


STAGE3 = [
    _case("mul_forward", "a * b, a: (2, 3), b: (3,)", _binary("*", (2, 3), (3,))),
    _case("mul_forward", "a * 2.5, a: int64 (2, 2)", _binary("*", (2, 2), 2.5, a_dtype="int64"),
          backward=False),
    _case("mul_forward", "a * b, only b requires grad", _binary("*", (2, 3), (3,), needs=(False, True))),
    _case("mul_backward", "a * b, a: (2, 3), b: (2, 3)", _binary("*", (2, 3), (2, 3))),
    _case("mul_backward", "a * b, a: (2, 3), b: (3,)", _binary("*", (2, 3), (3,))),
    _case("mul_backward", "a * b, a: (3, 1), b: (1, 4)", _binary("*", (3, 1), (1, 4))),
    _case("mul_backward", "a * 2.5, a: (2, 3)", _binary("*", (2, 3), 2.5)),
    _direct_case("mul_backward", "*", (2, 3), (3,)),
    _direct_case("mul_backward", "*", (3, 1), (1, 4)),
    _case("div_forward", "a / b, a: int64 (2, 3), b: int64 (3,)",
          lambda lib, *_: ({}, lib.tensor(np.arange(6).reshape(2, 3)) / lib.tensor(np.array([1, 2, 4]))),
          backward=False),
    _case("div_forward", "a / b, a: (2, 3), b: (3,)", _binary("/", (2, 3), (3,))),
    _case("div_backward", "a / b, a: (2, 3), b: (2, 3)", _binary("/", (2, 3), (2, 3))),
    _case("div_backward", "a / b, a: (2, 3), b: (3,)", _binary("/", (2, 3), (3,))),
    _case("div_backward", "a / b, a: (3, 1), b: (1, 4)", _binary("/", (3, 1), (1, 4))),
    _case("div_backward", "a / 4, a: (2, 3)", _binary("/", (2, 3), 4)),
    _direct_case("div_backward", "/", (2, 3), (3,)),
    _case("exp_backward", "x.exp(), x: (2, 3)", _exp((2, 3))),
    _case("exp_backward", "x.exp(), x: ()", _exp(())),
]
def _expand_back_shown(args, translated=False):
    grad_shape, shape, dims, keepdim = args
    fields = dict(shape=shape, dims=dims, keepdim=keepdim, grad_shape=grad_shape)
    return tr(EXPAND_BACK, **fields) if translated else EXPAND_BACK.format(**fields)


STAGE3 += [Case(STAGE, "expand_back", args, _torch_expand_back, _call_expand_back, _expand_back_shown(args),
                lambda args=args: _expand_back_shown(args, translated=True))
           for args in [((2,), (2, 3), (1,), False), ((3,), (2, 3), (0,), False), ((3,), (3, 3), (1,), False),
                        ((2, 1, 4), (2, 3, 4), (1,), True), ((3,), (2, 3, 4), (0, 2), False),
                        ((), (2, 3), (0, 1), False)]]
STAGE3 += [
    _case("sum_backward", "x.sum(), x: (2, 3)", _reduction("sum", (2, 3))),
    _case("sum_backward", "x.sum(1), x: (2, 3)", _reduction("sum", (2, 3), 1)),
    _case("sum_backward", "x.sum((0, 2), keepdim=True), x: (2, 3, 4)",
          _reduction("sum", (2, 3, 4), (0, 2), keepdim=True)),
    _case("mean_backward", "x.mean(), x: (2, 3)", _reduction("mean", (2, 3))),
    _case("mean_backward", "x.mean(1), x: (2, 4)", _reduction("mean", (2, 4), 1)),
    _case("mean_backward", "x.mean(-1, keepdim=True), x: (3, 2)", _reduction("mean", (3, 2), -1, keepdim=True)),
]
def _mat_grad_shown(which, shapes, column_major, translated=False):
    fields = dict(which=which, a=shapes[0], b=shapes[1])
    if column_major:
        fields["operand"] = "A" if which == 1 else "B"
        return tr(MAT_GRAD_COLUMN_MAJOR, **fields) if translated else MAT_GRAD_COLUMN_MAJOR.format(**fields)
    return tr(MAT_GRAD, **fields) if translated else MAT_GRAD.format(**fields)


STAGE3 += [Case(STAGE, f"mat{which}_grad", (shapes, column_major), _torch_mat_grad(which), _call_mat_grad(which),
                _mat_grad_shown(which, shapes, column_major),
                lambda which=which, shapes=shapes, column_major=column_major: _mat_grad_shown(
                    which, shapes, column_major, translated=True))
           for which in (1, 2) for shapes, column_major in [(((2, 3), (3, 4)), False), (((3, 3), (3, 3)), False),
                                                          (((2, 3), (3, 4)), True)]]
STAGE3 += [
    _case("bmm_backward", "a.bmm(b), a: (2, 2, 3), b: (2, 3, 4)", _products((2, 2, 3), (2, 3, 4), "bmm")),
    _case("bmm_backward", "a.bmm(b), a: (1, 3, 3), b: (1, 3, 3)", _products((1, 3, 3), (1, 3, 3), "bmm")),
    _case("bmm_backward", "a @ b, a: (2, 1, 2, 3), b: (5, 3, 4)", _products((2, 1, 2, 3), (5, 3, 4))),
]

