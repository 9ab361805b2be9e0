"""Undoing a matrix: ``inverse`` (``linalg.inv``), ``det`` (``linalg.det``) and ``linalg.solve``.

All three rest on one factorisation, LU with partial pivoting (Gaussian elimination): A = P L U.
A zero on U's diagonal means A is *singular* -- it squashes some direction to nothing, so nothing can
undo it: ``inv`` and ``solve`` raise ``LinAlgError`` (a ``RuntimeError``), while ``det`` simply is 0.

Their gradients are products with the inverse again:
  inv:   Y = A^-1        dL/dA = -Y^T (dL/dY) Y^T
  det:   d = det(A)      dL/dA = dL/dd * d * A^-T   (the adjugate, adj(A)^T, which exists even when d = 0)
  solve: A X = B         dL/dB = A^-T dL/dX = solve(A^T, dL/dX),   dL/dA = -(dL/dB) X^T
so a batch of matrices (leading dims) works everywhere, as in PyTorch. See course/04_ops_and_reductions.
"""
import numpy as np

from .. import _layout
from ..autograd.function import Function
from ..backend import for_device
from ._util import method, tensor_arg, unbroadcast, wrap, xp_of


class LinAlgError(RuntimeError):
    """A linear-algebra routine met a matrix it cannot handle (a singular one): ``torch.linalg.LinAlgError``."""


# -- checks shared by the three ops -------------------------------------------------------------------


def check_square(name, A):
    """PyTorch's checks on a (batch of) square float matrices, for ``linalg.<name>``."""
    if A.dim() < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if A._shape[-1] != A._shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{A._shape[-2]} by {A._shape[-1]} matrices")
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. Got "
                           f"{A.dtype._legacy[:-6]}")
    if A.dtype.itemsize < 4:
        if name == "inv":
            raise RuntimeError(f"linalg.inv: Low precision dtypes not supported. Got {A.dtype._legacy[:-6]}")
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{A.dtype._legacy[:-6]}'")


def _first_zero_pivot(matrix):
    """Where elimination with partial pivoting (LAPACK's getrf) first meets a zero pivot: its 1-based
    column, or 0 if there is none. Run only to word the error for a singular matrix."""
    u = np.array(matrix, copy=True)
    for j in range(u.shape[0]):
        p = j + int(np.argmax(np.abs(u[j:, j])))
        if u[p, j] == 0:
            return j + 1
        u[[j, p]] = u[[p, j]]
        u[j + 1:, j:] -= np.outer(u[j + 1:, j] / u[j, j], u[j, j:])
    return u.shape[0]  # rounding differed from LAPACK's; the last pivot is the likeliest culprit


def _singular_error(A_array, device, describe):
    """The LinAlgError for the first singular matrix of a batch; ``describe(pivot)`` words the reason."""
    batch = np.reshape(for_device(device).to_numpy(A_array), (-1,) + A_array.shape[-2:])
    for i, matrix in enumerate(batch):
        pivot = _first_zero_pivot(matrix)
        try:
            np.linalg.inv(matrix)
        except np.linalg.LinAlgError:
            where = f"(Batch element {i}): " if A_array.ndim > 2 else ""
            return LinAlgError(describe(where, pivot))
    return LinAlgError(describe("", batch.shape[-1]))


# -- inv ----------------------------------------------------------------------------------------------


def _inv_message(where, pivot):
    return (f"linalg.inv: {where}The diagonal element {pivot} is zero, the inversion could not be completed "
            "because the input matrix is singular.")


class Inv(Function):
    """A^-1 of each matrix; ``LinAlgError`` if one is singular."""

    node_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx, A):
        check_square("inv", A)
        try:
            out = xp_of(A).linalg.inv(A._array)
        except np.linalg.LinAlgError:
            raise _singular_error(A._array, A.device, _inv_message) from None
        out = wrap(out, A.device)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (inverse,) = ctx.saved_tensors
        inv_t = inverse.mT
        return -(inv_t @ grad @ inv_t)


# -- det ----------------------------------------------------------------------------------------------


def _adjugate_t(a, xp):
    """adj(A)^T = det(A) A^-T, computed from the SVD A = U S V^T so it also holds for a singular A:
    adj(A) = det(U) det(V) V diag(prod_{j != i} s_j) U^T."""
    u, s, vt = xp.linalg.svd(a)
    n = s.shape[-1]
    others = xp.stack([xp.prod(xp.delete(s, i, axis=-1), axis=-1) for i in range(n)], axis=-1) if n else s
    sign = xp.linalg.det(u) * xp.linalg.det(vt)
    adj = (vt.swapaxes(-1, -2) * others[..., None, :]) @ u.swapaxes(-1, -2)
    return (sign[..., None, None] * adj).swapaxes(-1, -2)


class Det(Function):
    """The determinant: how much A scales volume (0 for a singular A, negative if it flips orientation)."""

    node_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx, A):
        check_square("det", A)
        xp = xp_of(A)
        out = wrap(xp.asarray(xp.linalg.det(A._array), dtype=A._array.dtype), A.device)
        ctx.save_for_backward(A, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        A, d = ctx.saved_tensors
        scale = (grad * d).unsqueeze(-1).unsqueeze(-1)
        if bool(xp_of(d).all(d._array != 0)):
            return scale * inverse(A).mT  # differentiable again: create_graph works
        # a singular matrix has no inverse, but it has an adjugate (a constant here: first order only)
        adj_t = wrap(_adjugate_t(A._array, xp_of(A)).astype(A._array.dtype), A.device)
        return grad.unsqueeze(-1).unsqueeze(-1) * adj_t


# -- solve --------------------------------------------------------------------------------------------


def _solve_message(where, pivot):
    return f"torch.linalg.solve: {where}The solver failed because the input matrix is singular."


def is_vector_rhs(A, B):
    """PyTorch's rule: B is a (batch of) vector(s) if it is 1-D or has exactly A's shape minus the last dim."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and B._shape == A._shape[:-1])


class Solve(Function):
    """X with A X = B (``left=True``) or X A = B (``left=False``), without forming A^-1."""

    node_name = "LinalgSolveExBackward0"

    @staticmethod
    def forward(ctx, A, B, left, vector):
        check_square("solve", A)
        if A.dtype is not B.dtype:
            raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                               f"{A.dtype._legacy[:-6]} and B of type {B.dtype._legacy[:-6]} instead")
        xp, a, b = xp_of(A), A._array, B._array
        if vector:
            b = b[..., None]  # a column, also for left=False (where only n = 1 fits, as in PyTorch)
        n, rows = a.shape[-1], (b.shape[-2] if left else b.shape[-1])
        if b.ndim < 2 or rows != n:
            shown = "x".join(map(str, b.shape[-2:])) if b.ndim >= 2 else str(b.shape[0])
            raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                               f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {shown})")
        batch = _layout.broadcast_shapes(b.shape[:-2], a.shape[:-2])
        a = xp.broadcast_to(a, batch + a.shape[-2:])
        b = xp.broadcast_to(b, batch + b.shape[-2:])
        if not left:  # X A = B  is  A^T X^T = B^T
            a, b = a.swapaxes(-1, -2), b.swapaxes(-1, -2)
        try:
            x = xp.linalg.solve(a, b)
        except np.linalg.LinAlgError:
            raise _singular_error(a, A.device, _solve_message) from None
        if not left:
            x = x.swapaxes(-1, -2)
        ctx.left, ctx.vector, ctx.shapes = left, vector, (A._shape, B._shape)
        out = wrap(x[..., 0] if vector else x, A.device)
        ctx.save_for_backward(A, out)  # the output itself, so a double backward sees X depend on A and B
        return out

    @staticmethod
    def backward(ctx, grad):
        A, X = ctx.saved_tensors
        left, vector = ctx.left, ctx.vector
        if vector:
            grad, X = grad.unsqueeze(-1), X.unsqueeze(-1)
        gB = Solve.apply(A.mT, grad, left, False)  # A^-T grad (or grad A^-T)
        gA = -(gB @ X.mT) if left else -(X.mT @ gB)
        a_shape, b_shape = ctx.shapes
        if vector:
            gB = gB.squeeze(-1)
        return unbroadcast(gA, a_shape), unbroadcast(gB, b_shape), None, None


# -- the public functions ------------------------------------------------------------------------------


@method()
def inverse(input):
    """The inverse matrix (of each matrix in a batch): ``torch.linalg.inv``."""
    tensor_arg("linalg_inv", "A", 1, input)
    return Inv.apply(input)


@method()
def det(input):
    """The determinant (of each matrix in a batch): ``torch.linalg.det``."""
    tensor_arg("linalg_det", "A", 1, input)
    return Det.apply(input)


__all__ = ["inverse", "det"]
