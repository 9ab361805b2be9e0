"""``tensorlab.linalg`` against ``torch.linalg``: norm / vector_norm / matrix_norm / inv / det / solve --
values, shapes, dtypes, grad_fn names, gradients (gradcheck in float64, on non-contiguous inputs too),
the singular-matrix LinAlgError and PyTorch's errors for bad input."""
import math

import numpy as np
import pytest

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck
from tests.math_oracle import leaf, same, same_grads

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")
INF = math.inf


def well_conditioned(rng, shape):
    """Random square matrices kept far from singular (a boosted diagonal)."""
    a = rng.standard_normal(shape)
    return a + 3 * np.eye(shape[-1])


# -- norms --------------------------------------------------------------------------------------------

VECTOR_CASES = [((5,), 2, None, False), ((3, 4), 1, 1, False), ((3, 4), INF, (0, 1), True), ((2, 3, 4), -INF, -1, False),
                ((2, 3, 4), 0, None, False), ((2, 3, 4), 3, (0, 2), False), ((2, 3, 4), 0.5, 1, True),
                ((2, 3, 4), -1, 2, False), ((), 2, None, False), ((0, 3), 2, None, False), ((0, 3), 1, 0, False)]


@pytest.mark.parametrize("shape,ord,dim,keepdim", VECTOR_CASES, ids=str)
def test_vector_norm_matches_torch(torch, rng, shape, ord, dim, keepdim):
    x = rng.standard_normal(shape)
    call = lambda lib, t: lib.linalg.vector_norm(t, ord, dim, keepdim)  # noqa: E731
    same(torch, call, x, requires_grad=True)
    same(torch, call, x.astype(np.float32))
    if x.size and ord != 0:
        out_shape = tuple(torch.linalg.vector_norm(torch.tensor(x), ord, dim, keepdim).shape)
        same_grads(torch, call, x, grad_out=rng.standard_normal(out_shape))


@pytest.mark.parametrize("shape,ord,dim,keepdim", [((3, 4), 'fro', (-2, -1), False), ((3, 4), 1, (-2, -1), False),
                                                   ((3, 4), -1, (-2, -1), True), ((3, 4), INF, (0, 1), False),
                                                   ((2, 3, 4), -INF, (-1, -2), False), ((2, 3, 4), 1, (2, 0), True),
                                                   ((2, 3, 4), INF, (2, 0), False), ((0, 4), 1, (-2, -1), False)],
                         ids=str)
def test_matrix_norm_matches_torch(torch, rng, shape, ord, dim, keepdim):
    x = rng.standard_normal(shape)
    call = lambda lib, t: lib.linalg.matrix_norm(t, ord, dim, keepdim)  # noqa: E731
    same(torch, call, x, requires_grad=True)
    if x.size:
        out_shape = tuple(call(torch, torch.tensor(x)).shape)
        same_grads(torch, call, x, grad_out=rng.standard_normal(out_shape))


@pytest.mark.parametrize("shape,ord,dim", [((5,), None, None), ((3, 4), None, None), ((2, 3, 4), None, None),
                                           ((3, 4), 'fro', None), ((3, 4), 1, None), ((3, 4), INF, None),
                                           ((5,), 1, None), ((5,), INF, None), ((2, 3, 4), 3, 1), ((2, 3, 4), None, (0, 2)),
                                           ((2, 3, 4), -1, (0, 2)), ((2, 3, 4), 'fro', (0, 1)), ((), None, None)],
                         ids=str)
def test_norm_picks_vector_or_matrix_like_torch(torch, rng, shape, ord, dim):
    x = rng.standard_normal(shape)
    for keepdim in (False, True):
        same(torch, lambda lib, t: lib.linalg.norm(t, ord, dim, keepdim), x, requires_grad=True)


def test_norm_dtype_argument(torch, rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    for call in [lambda lib, t: lib.linalg.vector_norm(t, dtype=lib.float64),
                 lambda lib, t: lib.linalg.matrix_norm(t, dtype=lib.float64),
                 lambda lib, t: lib.linalg.matrix_norm(t, 1, dtype=lib.float64),
                 lambda lib, t: lib.linalg.norm(t, dtype=lib.float64)]:
        same(torch, call, x)
    t = tensorlab.tensor(x, requires_grad=True)
    tensorlab.linalg.vector_norm(t, dtype=tensorlab.float64).backward()
    assert t.grad.dtype is tensorlab.float32
    np.testing.assert_allclose(t.grad.numpy(), x / np.linalg.norm(x), rtol=1e-5)


@pytest.mark.parametrize("call", [
    lambda lib, t: lib.linalg.vector_norm(t.long()),
    lambda lib, t: lib.linalg.vector_norm(t, dtype=lib.int64),
    lambda lib, t: lib.linalg.vector_norm(t, 'fro'),
    lambda lib, t: lib.linalg.vector_norm(t[:0], INF),
    lambda lib, t: lib.linalg.vector_norm(t[:0], -1),
    lambda lib, t: lib.linalg.vector_norm(t[:0], -0.5),
    lambda lib, t: lib.linalg.vector_norm(t[:0], -1, dim=0),
    lambda lib, t: lib.linalg.vector_norm(t, dim=5),
    lambda lib, t: lib.linalg.matrix_norm(t[0, 0]),
    lambda lib, t: lib.linalg.matrix_norm(t, 3),
    lambda lib, t: lib.linalg.matrix_norm(t, 'foo'),
    lambda lib, t: lib.linalg.matrix_norm(t, dim=(0, -3)),
    lambda lib, t: lib.linalg.matrix_norm(t, dim=(0, 3)),
    lambda lib, t: lib.linalg.matrix_norm(t, dim=(0, 1, 2)),
    lambda lib, t: lib.linalg.matrix_norm(t.long()),
    lambda lib, t: lib.linalg.norm(t, 2),
    lambda lib, t: lib.linalg.norm(t, 'fro'),
    lambda lib, t: lib.linalg.norm(t[0, 0], 'fro'),
    lambda lib, t: lib.linalg.norm(t[0], 3),
    lambda lib, t: lib.linalg.norm(t, dim=(0, 1, 2)),
    lambda lib, t: lib.linalg.norm(t[0, 0, 0], 2),
    lambda lib, t: lib.linalg.norm(t.long()),
], ids=lambda c: "")
def test_norm_errors_match_torch(torch, rng, call):
    same(torch, call, rng.standard_normal((2, 3, 4)))


def test_norm_gradcheck_on_non_contiguous_inputs(rng):
    x = leaf(rng.standard_normal((4, 3, 5)))
    assert gradcheck(lambda t: tensorlab.linalg.vector_norm(t.transpose(0, 2)[::2], 3, dim=(0, 1)), (x,))
    assert gradcheck(lambda t: tensorlab.linalg.matrix_norm(t.transpose(0, 2), 1), (x,))
    assert gradcheck(lambda t: tensorlab.linalg.matrix_norm(t[:, ::2], -INF, dim=(0, 2)), (x,))
    assert gradcheck(lambda t: tensorlab.linalg.norm(t.mT), (x,))
    assert gradgradcheck(lambda t: tensorlab.linalg.norm(t[1].t(), 'fro'), (x,))


# -- inv, det, solve ------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (2, 1, 2, 2), (1, 1), (0, 0), (0, 3, 3)], ids=str)
def test_inv_and_det_match_torch(torch, rng, shape):
    a = well_conditioned(rng, shape)
    for call in [lambda lib, t: lib.linalg.inv(t), lambda lib, t: lib.inverse(t), lambda lib, t: t.inverse(),
                 lambda lib, t: lib.linalg.det(t), lambda lib, t: lib.det(t), lambda lib, t: t.det()]:
        same(torch, call, a, requires_grad=True)
        same(torch, call, a.astype(np.float32), rtol=1e-4)
        if a.size:
            same_grads(torch, call, a)


@pytest.mark.parametrize("a_shape,b_shape,left", [
    ((3, 3), (3,), True), ((3, 3), (3, 2), True), ((3, 3), (2, 3), False), ((3, 3), (3,), False),
    ((2, 3, 3), (3,), True), ((2, 3, 3), (2, 3), True), ((2, 3, 3), (3, 4), True), ((2, 3, 3), (5, 1, 3, 2), True),
    ((3, 3, 3), (3, 3), True), ((1, 3, 3), (4, 3, 2), True), ((2, 3, 3), (2, 2, 3), False),
    ((3, 3), (4,), True), ((3, 3), (4, 3), True), ((3, 3), (3, 2), False), ((2, 3, 3), (4, 3, 1), True),
    ((2, 3), (2,), True),
], ids=str)
def test_solve_matches_torch(torch, rng, a_shape, b_shape, left):
    a, b = well_conditioned(rng, a_shape) if a_shape[-1] == a_shape[-2] else rng.standard_normal(a_shape), \
        rng.standard_normal(b_shape)
    call = lambda lib, x, y: lib.linalg.solve(x, y, left=left)  # noqa: E731
    ours, theirs = same(torch, call, a, b, requires_grad=True)
    if theirs is not None:
        same_grads(torch, call, a, b, grad_out=rng.standard_normal(tuple(theirs.shape)))
        grad_fns = [type(f).__name__ if f is not None else None for f, _ in theirs.grad_fn.next_functions]
        assert [type(f).__name__ if f is not None else None for f, _ in ours.grad_fn.next_functions] == \
            [n if n != "AccumulateGrad" else "AccumulateGrad" for n in grad_fns]


def test_gradcheck_on_non_contiguous_inputs(rng):
    a = leaf(well_conditioned(rng, (2, 3, 3)).swapaxes(-1, -2).copy())
    b = leaf(rng.standard_normal((4, 3)))
    linalg = tensorlab.linalg
    assert gradcheck(lambda x: linalg.inv(x.mT), (a,))
    assert gradcheck(lambda x: linalg.det(x.mT[:, ::2, ::2]), (a,))
    assert gradcheck(lambda x, y: linalg.solve(x.mT, y.t()[:, ::2]), (a, b))
    assert gradcheck(lambda x, y: linalg.solve(x.mT, y[1]), (a, b))
    assert gradcheck(lambda x, y: linalg.solve(x[0].t(), y[:2], left=False), (a, b))
    assert gradgradcheck(lambda x: linalg.inv(x.mT), (a,))
    assert gradgradcheck(lambda x: linalg.det(x), (a,))
    assert gradgradcheck(lambda x, y: linalg.solve(x, y[0]), (a, b))


def test_det_of_a_singular_matrix_is_zero_and_has_the_adjugate_as_gradient(torch):
    for m in ([[1., 2.], [2., 4.]], [[0., 0., 0.], [0., 0., 0.], [0., 0., 0.]], [[1., 2, 3], [2, 4, 6], [1, 0, 1]]):
        ours, theirs = tensorlab.tensor(m, dtype=tensorlab.float64, requires_grad=True), \
            torch.tensor(m, dtype=torch.float64, requires_grad=True)
        tensorlab.linalg.det(ours).backward()
        # PyTorch's fast first-order path returns 0 for some exactly singular matrices (d * A^-T with d = 0);
        # its create_graph path uses the SVD adjugate, the true gradient, which is what tensorlab returns
        (expected,) = torch.autograd.grad(torch.linalg.det(theirs), theirs, create_graph=True)
        np.testing.assert_allclose(ours.grad.numpy(), expected.detach().numpy(), atol=1e-10)


@pytest.mark.parametrize("batched", [False, True])
def test_singular_matrix_raises_linalg_error_like_torch(torch, batched):
    singular = np.array([[1., 2, 3], [2, 4, 6], [1, 0, 1]]) if not batched else \
        np.stack([np.eye(3), np.eye(3), np.zeros((3, 3))])
    for call in [lambda lib, t: lib.linalg.inv(t), lambda lib, t: lib.linalg.solve(t, lib.ones(3, dtype=t.dtype)),
                 lambda lib, t: lib.linalg.solve(t, lib.ones(2, 3, dtype=t.dtype), left=False)]:
        with pytest.raises(torch.linalg.LinAlgError) as theirs:
            call(torch, torch.tensor(singular))
        t = tensorlab.tensor(singular)
        with pytest.raises(tensorlab.linalg.LinAlgError) as ours:
            call(tensorlab, t)
        assert str(ours.value) == str(theirs.value)
        assert isinstance(ours.value, RuntimeError)


@pytest.mark.parametrize("call", [
    lambda lib, a, b: lib.linalg.inv(a[0]),
    lambda lib, a, b: lib.linalg.inv(a[:, :2]),
    lambda lib, a, b: lib.linalg.inv(a.long()),
    lambda lib, a, b: lib.linalg.inv(a.half()),
    lambda lib, a, b: lib.linalg.det(a[0, 0]),
    lambda lib, a, b: lib.linalg.det(a[:, :, :2]),
    lambda lib, a, b: lib.linalg.det(a.bool()),
    lambda lib, a, b: lib.linalg.det(a.half()),
    lambda lib, a, b: lib.linalg.solve(a[:, :2], b),
    lambda lib, a, b: lib.linalg.solve(a.long(), b.long()),
    lambda lib, a, b: lib.linalg.solve(a, b.float()),
    lambda lib, a, b: lib.linalg.solve(a, b[0, 0]),
    lambda lib, a, b: lib.linalg.solve(a, lib.ones(4, 3, 1, dtype=a.dtype)),
    lambda lib, a, b: lib.linalg.solve(a.half(), b.half()),
    lambda lib, a, b: lib.linalg.solve(a, "b"),
    lambda lib, a, b: lib.linalg.inv([[1.0]]),
], ids=lambda c: "")
def test_inverse_errors_match_torch(torch, rng, call):
    same(torch, call, well_conditioned(rng, (2, 3, 3)), rng.standard_normal((2, 3)))


def test_failed_solve_changes_nothing():
    a, b = tensorlab.zeros(3, 3, dtype=tensorlab.float64), tensorlab.ones(3, dtype=tensorlab.float64)
    versions = (a._version, b._version)
    with pytest.raises(tensorlab.linalg.LinAlgError):
        tensorlab.linalg.solve(a, b)
    assert (a._version, b._version) == versions and float(a.abs().sum()) == 0 and float(b.sum()) == 3
