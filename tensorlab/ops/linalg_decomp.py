"""The cross product and the singular value decomposition, with their gradients.

``cross(a, b)``: the vector perpendicular to two 3-vectors, ``|a||b| sin(angle)`` long. Its gradients
are cross products again: ``d/da = b x g``, ``d/db = g x a``.

``svd(A)``: ``A = U diag(S) V^T`` -- rotations ``U`` and ``V`` around a scaling ``S`` (singular values,
largest first). The singular vectors are defined only up to sign (and, for repeated singular values,
up to rotation), so functions of them are differentiable only when they do not depend on that choice;
the backward below (the reduced-SVD formula) assumes distinct singular values, as PyTorch's does.
See course/04_ops_and_reductions.
"""
import warnings

from .. import _layout, return_types
from ..autograd.function import Function
from ._util import method, wrap, xp_of


_warned_cross = False


def _cross_dim(a, b, dim):
    """The dim to take the cross product along: ``dim``, or the first dim of length 3 (with PyTorch's
    deprecation warning when not given)."""
    from .broadcasting import broadcast_shapes
    if a.dim() != b.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    shape = broadcast_shapes(a.shape, b.shape)
    global _warned_cross
    if dim is None and not _warned_cross:  # (once per process, as PyTorch)
        _warned_cross = True
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
                      "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
                      "agree with that of linalg.cross in a future release.", UserWarning, stacklevel=4)
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n == 3), -1)
    from_end = _layout.normalize_dim(dim, len(shape)) - len(shape)
    sizes = [t.shape[from_end] for t in (a, b)]
    if sizes != [3, 3]:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {sizes[0]} and {sizes[1]}")
    return from_end


class Cross(Function):
    node_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx, a, b, dim):
        from ._util import operands
        (x, y), _, device = operands(a, b)
        ctx.save_for_backward(a, b)
        ctx.dim = dim
        return wrap(xp_of(a).cross(x, y, axis=dim), device)

    @staticmethod
    def backward(ctx, grad):
        from ._util import unbroadcast
        a, b = ctx.saved_tensors
        ga = unbroadcast(Cross.apply(b, grad, ctx.dim), a.shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(Cross.apply(grad, a, ctx.dim), b.shape) if ctx.needs_input_grad[1] else None
        return ga, gb, None


@method()
def cross(input, other, dim=None):
    """``input x other`` along ``dim`` (a dim of length 3; if not given, the first such dim -- deprecated)."""
    return Cross.apply(input, other, _cross_dim(input, other, dim))


def linalg_cross(input, other, *, dim=-1):
    """``torch.linalg.cross``: the cross product along ``dim`` (the last by default)."""
    return Cross.apply(input, other, _cross_dim(input, other, dim))


class Svd(Function):
    node_name = "LinalgSvdBackward0"

    @staticmethod
    def forward(ctx, A, full_matrices):
        xp = xp_of(A)
        u, s, vh = xp.linalg.svd(A._array, full_matrices=full_matrices)
        ctx.full_matrices = full_matrices
        U, S, Vh = wrap(u, A.device), wrap(s.astype(A._array.dtype), A.device), wrap(vh, A.device)
        ctx.save_for_backward(U, S, Vh)
        return U, S, Vh

    @staticmethod
    def backward(ctx, gU, gS, gVh):
        """The reduced-SVD backward: with ``F[i, j] = 1 / (s_j^2 - s_i^2)`` off the diagonal,
        ``gA = U [ (F o (U^T gU - gU^T U)) S + diag(gS) + S (F o (V^T gV - gV^T V)) ] V^T``
        plus the parts of ``gU``/``gV`` outside the spans of ``U``/``V`` (when A is not square)."""
        U, S, Vh = ctx.saved_tensors
        if ctx.full_matrices and (gU is not None or gVh is not None) and U.shape[-1] != Vh.shape[-2]:
            raise NotImplementedError("svd_backward: Setting full_matrices=True in forward is not supported with "
                                      "gradients of U or Vh; use full_matrices=False.")
        k = S.shape[-1]
        U, Vh = U[..., :k], Vh[..., :k, :]
        V = Vh.mT
        gA = 0
        if gS is not None:
            gA = (U * gS.unsqueeze(-2)) @ Vh
        if gU is None and gVh is None:
            return gA, None
        S2 = S * S
        diff = S2.unsqueeze(-2) - S2.unsqueeze(-1)            # s_j^2 - s_i^2
        eye = _eye_like(diff)
        F = (1 / (diff + eye)) * (1 - eye)                    # zero on the diagonal
        inner = 0
        if gU is not None:
            gU = gU[..., :k]
            UtgU = U.mT @ gU
            inner = inner + (F * (UtgU - UtgU.mT)) * S.unsqueeze(-2)
        if gVh is not None:
            gV = gVh[..., :k, :].mT
            VtgV = V.mT @ gV
            inner = inner + S.unsqueeze(-1) * (F * (VtgV - VtgV.mT))
        gA = gA + U @ inner @ Vh
        m, n = U.shape[-2], V.shape[-2]
        if gU is not None and m > k:
            gA = gA + (gU - U @ (U.mT @ gU)) / S.unsqueeze(-2) @ Vh
        if gVh is not None and n > k:
            gA = gA + U @ ((gV - V @ (V.mT @ gV)) / S.unsqueeze(-2)).mT
        return gA, None


def _eye_like(t):
    from .creation import eye
    return eye(t.shape[-1], dtype=t.dtype, device=t.device)


def linalg_svd(A, full_matrices=True, *, driver=None):
    """``torch.linalg.svd``: ``(U, S, Vh)`` with ``A = U diag(S) Vh``."""
    return return_types.linalg_svd(*Svd.apply(A, full_matrices))


def linalg_svdvals(A, *, driver=None):
    return Svd.apply(A, False)[1]


@method()
def svd(input, some=True, compute_uv=True):
    """The older ``torch.svd``: ``(U, S, V)`` -- note V, not its transpose -- reduced unless ``some=False``."""
    U, S, Vh = Svd.apply(input, not some)
    if not compute_uv:
        from .creation import zeros_like
        return return_types.svd(zeros_like(U), S, zeros_like(Vh))
    return return_types.svd(U, S, Vh.mT)


__all__ = ["cross", "svd"]
