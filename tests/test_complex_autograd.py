"""Gradients of complex tensors: the same grads as PyTorch's (its conjugate-Wirtinger convention, see
tensorlab/ops/complex.py) on the same inputs, the same grad_fn names, and gradcheck on complex inputs."""
import numpy as np
import pytest

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck

pytestmark = pytest.mark.torch


def values(t):
    return t.resolve_conj().detach().numpy() if hasattr(t, "resolve_conj") else t.detach().numpy()


def complex_array(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


# each loss is real; a, b complex (3x3), r real (3x3)
LOSSES = {
    "add_sub": lambda t, a, b, r: (a - 2 * b + 1j + r).abs().sum(),
    "mul": lambda t, a, b, r: (a * b).abs().sum(),
    "mul_real": lambda t, a, b, r: (a * r).abs().pow(2).sum(),
    "div": lambda t, a, b, r: (a / b).abs().sum() + (r / a).real.sum(),
    "exp_log_sqrt": lambda t, a, b, r: (a.exp() * b).real.sum() + a.log().imag.sum() + a.sqrt().abs().sum(),
    "pow": lambda t, a, b, r: (a ** 2.5).abs().sum() + (a ** b).abs().sum() + (2 ** a).imag.sum(),
    "trig": lambda t, a, b, r: a.tanh().abs().sum() + a.sigmoid().real.sum() + a.sin().imag.sum(),
    "matmul": lambda t, a, b, r: (a @ b).abs().sum() + (a @ r.to(a.dtype)).imag.sum() + a.mv(b[0]).abs().sum(),
    "dot_vdot": lambda t, a, b, r: t.dot(a[0], b[1]).abs() + t.vdot(a[1], b[2]).real + a[2].vdot(b[0]).imag,
    "norms": lambda t, a, b, r: a.norm() + a.norm(1, dim=0).sum() + t.linalg.vector_norm(b, 3) + b.norm(float("inf")),
    "sum_mean": lambda t, a, b, r: (a.sum(0) * b[0]).imag.sum() + a.mean().abs(),
    "prod_cumprod_logsumexp": lambda t, a, b, r: a.prod().abs() + a.cumprod(1).real.sum() + a.logsumexp(1).abs().sum(),
    "abs_angle": lambda t, a, b, r: a.abs().sum() + a.angle().sum(),
    "real_imag": lambda t, a, b, r: (a.real * b.imag).sum() + t.real(b).sum(),
    "conj": lambda t, a, b, r: (a.conj() * b).real.sum() + a.conj_physical().imag.sum(),
    "view_as_real": lambda t, a, b, r: (t.view_as_real(a * b) ** 2).sum(),
    "view_as_complex": lambda t, a, b, r: t.view_as_complex(t.view_as_real(a) * 2).abs().sum(),
    "complex_polar": lambda t, a, b, r: t.complex(r, r * r).abs().sum() + (t.polar(r.abs(), r) * b).real.sum(),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_grads_match_torch(torch, rng, name):
    arrays = [complex_array(rng, (3, 3)), complex_array(rng, (3, 3)), rng.standard_normal((3, 3))]
    grads = []
    for t in (tensorlab, torch):
        a, b, r = (t.tensor(x, requires_grad=True) for x in arrays)
        loss = LOSSES[name](t, a, b, r)
        loss.backward()
        grads.append([None if x.grad is None else values(x.grad) for x in (a, b, r)] + [loss.item()])
    for ours, theirs in zip(*grads):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-8)


def test_grad_fn_names_like_torch(torch):
    names = []
    for t in (tensorlab, torch):
        z = t.tensor([1 + 2j, 3 - 4j], requires_grad=True)
        r = t.tensor([1.0, 2.0], requires_grad=True)
        outs = [z.real, z.imag, z.conj(), z.conj_physical(), t.view_as_real(z), t.view_as_complex(t.view_as_real(z)),
                z.angle(), z.abs(), t.complex(r, r), t.polar(r, r), z * z]
        names.append([type(o.grad_fn).__name__ for o in outs])
    assert names[0] == names[1]


def test_complex_leaf_grad_dtype_and_real_leaf_gets_real_grad(torch):
    z = tensorlab.tensor([1 + 2j], requires_grad=True)
    r = tensorlab.tensor([3.0], requires_grad=True)
    (z * r).abs().sum().backward()
    assert z.grad.dtype is tensorlab.complex64 and r.grad.dtype is tensorlab.float32


def test_complex_root_needs_a_gradient(torch):
    z = tensorlab.tensor([1 + 2j], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for real scalar outputs"):
        z.sum().backward()
    z.sum().backward(tensorlab.tensor(1 + 0j))
    assert z.grad.tolist() == [1 + 0j]


FUNCTIONS = [
    lambda a, b: a * b, lambda a, b: (a / b).exp(), lambda a, b: a @ b.t(), lambda a, b: a.log() + a ** 2.5,
    lambda a, b: a.abs() + b.angle(), lambda a, b: a.conj() * b.sqrt(), lambda a, b: a.real * b.imag,
    lambda a, b: tensorlab.view_as_real(a) * 2, lambda a, b: (a ** b).sum(),
]


@pytest.mark.parametrize("fn", range(len(FUNCTIONS)))
def test_gradcheck_on_complex_inputs(rng, fn):
    a = tensorlab.tensor(complex_array(rng, (2, 3)) + 2, requires_grad=True)
    b = tensorlab.tensor(complex_array(rng, (2, 3)) + 2, requires_grad=True)
    assert gradcheck(FUNCTIONS[fn], (a, b))


def test_gradgradcheck_on_complex_inputs(rng):
    a = tensorlab.tensor(complex_array(rng, 3), requires_grad=True)
    b = tensorlab.tensor(complex_array(rng, 3), requires_grad=True)
    assert gradgradcheck(lambda x, y: x * y * x.exp(), (a, b))


def test_gradcheck_catches_a_missing_conjugate(rng):
    class Square(tensorlab.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, grad):
            a, = ctx.saved_tensors
            return grad * 2 * a  # PyTorch's convention needs grad * conj(2 a)

    z = tensorlab.tensor(complex_array(rng, 3), requires_grad=True)
    assert not gradcheck(Square.apply, (z,), raise_exception=False)
