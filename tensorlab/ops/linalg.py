"""Matrix products: ``mm``, ``bmm``, ``mv``, ``dot``, ``outer``, ``addmm`` and ``matmul`` (``@``).

For C = A @ B, dL/dA = dL/dC @ B^T and dL/dB = A^T @ dL/dC: the backward of a product is two more
products. ``matmul`` dispatches on the number of dims as PyTorch does -- 1-D @ 1-D is ``dot``, 2-D @ 1-D
is ``mv``, 2-D @ 2-D is ``mm``, and anything bigger either *folds* the batch dims into the rows of
one ``mm`` or broadcasts the batch dims and calls ``bmm`` -- so its autograd graph has the same nodes
as PyTorch's (e.g. ``UnsafeViewBackward0`` over ``MmBackward0`` for a 3-D @ 2-D product).
See course/04_ops_and_reductions.
"""
from .. import _dtype, _layout
from ..autograd.engine import arrays_suffice
from ..autograd.function import Function
from ._pointwise import c_type_name, reject
from ._util import method, wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor


def _dims_str(t):
    return "x".join(map(str, t._shape))


def _no_bool(*tensors, kernel):
    for t in tensors:
        reject(t.dtype, kernel, _dtype.bool, kernel=kernel)


def _check_mm(a, b):
    if len(a._shape) != 2:
        raise RuntimeError("self must be a matrix")
    if len(b._shape) != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._shape[1] != b._shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims_str(a)} and {_dims_str(b)})")
    if a._array.dtype is not b._array.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {c_type_name(a.dtype)} != "
                           f"{c_type_name(b.dtype)}")
    if a._array.dtype.kind == "b":
        _no_bool(a, kernel="addmm_impl_cpu_")


class Mm(Function):
    """Matrix @ matrix, straight to the BLAS matmul of the array library."""

    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        _check_mm(a, b)
        if ctx._recorded:
            ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b if ctx.needs_input_grad[0] else None)
            ctx.layouts = (a._shape, a._stride), (b._shape, b._stride)
        return wrap(xp_of(a).matmul(a._array, b._array), a._device)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        if _products_on_arrays(grad):
            return _mat_grads_on_arrays(grad, a, b, ctx.layouts, *ctx.needs_input_grad)
        gb = mat2_grad(grad, a, *ctx.layouts[1]) if ctx.needs_input_grad[1] else None
        ga = mat1_grad(grad, b, *ctx.layouts[0]) if ctx.needs_input_grad[0] else None
        return ga, gb


def _column_major(shape, stride):
    return stride[0] == 1 and stride[1] == shape[0]


# build: stage 3
def mat1_grad(grad, mat2, mat1_shape, mat1_stride):
    """dL/dA = dL/dC @ B^T, computed as PyTorch's ``mm_mat1_backward`` does: transposed, if A was
    column-major, so the gradient has A's layout (and a dispatch mode sees the same ops)."""
    if _column_major(mat1_shape, mat1_stride):
        return mat2.mm(grad.t()).t()
    return grad.mm(mat2.t())


def mat2_grad(grad, mat1, mat2_shape, mat2_stride):
    """dL/dB = A^T @ dL/dC, in B's layout (PyTorch's ``mm_mat2_backward``)."""
    if _column_major(mat2_shape, mat2_stride):
        return grad.t().mm(mat1).t()
    return mat1.t().mm(grad)
# build: end


# -- the fast path of mm's and addmm's backward ---------------------------------------------------
# When nothing records or watches (``arrays_suffice``), the backward of a product makes the same
# matmul calls as mat1_grad and mat2_grad, on the arrays: two BLAS calls and no tensor op around
# them (a transpose is a NumPy view, ``.T``). The results have the layouts mat1_grad and mat2_grad give.

_OWN_FORMULAS = (mat1_grad, mat2_grad)  # a tuple: the build track swaps the names, not this


def _products_on_arrays(grad):
    """The fast path applies: ``arrays_suffice`` -- and mat1_grad and mat2_grad are tensorlab's own
    (in the build track a learner's replace them, and then theirs must run)."""
    return arrays_suffice(grad) and mat1_grad is _OWN_FORMULAS[0] and mat2_grad is _OWN_FORMULAS[1]


def _mat_grads_on_arrays(grad, mat1, mat2, layouts, needs_mat1, needs_mat2):
    """(dL/dA, dL/dB) of C = A @ B on arrays: mat2_grad and mat1_grad, line for line (``layouts``:
    the (shape, stride) of A and of B)."""
    g, device = grad._array, grad._device
    ga = gb = None
    if needs_mat2:
        a = mat1._array
        gb = _transposed(wrap(g.T @ a, device)) if _column_major(*layouts[1]) else wrap(a.T @ g, device)
    if needs_mat1:
        b = mat2._array
        ga = _transposed(wrap(b @ g.T, device)) if _column_major(*layouts[0]) else wrap(g @ b.T, device)
    return ga, gb


def _transposed(t):
    """``t.t()`` of a fresh 2-D result, without the op: a transposed view of it."""
    return t._make_view(t._offset, t._shape[::-1], t._stride[::-1], t._array.T)


def _sum_to_shape(array, shape):
    """``sum_to_size`` on an array: the same sum (over the leading dims and the dims ``shape`` has as 1,
    keeping them) and the same reshape."""
    if array.shape == shape:
        return array
    lead = array.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and array.shape[lead + i] != 1)
    out = array.sum(axis=dims, keepdims=True) if dims else array
    return out.reshape(shape)


class Bmm(Function):
    """A batch of matrix products: (b, n, m) @ (b, m, p) -> (b, n, p)."""

    node_name = "BmmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        if a.dim() != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if b.dim() != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        if b._shape[:2] != (a._shape[0], a._shape[2]):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{a._shape[0]}, {a._shape[2]}] but got: [{b._shape[0]}, {b._shape[1]}].")
        if a.dtype is not b.dtype:
            raise RuntimeError(f"expected scalar type {a.dtype._legacy[:-6]} but found {b.dtype._legacy[:-6]}")
        _no_bool(a, kernel="bmm")
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b if ctx.needs_input_grad[0] else None)
        return wrap(xp_of(a).matmul(a._array, b._array), a.device)

    # build: stage 3
    @staticmethod
    def backward(ctx, grad):
        """C[i] = A[i] @ B[i] for each batch i, so the gradients are mm's, batch by batch:
        dA = dC @ B^T and dB = A^T @ dC, where ``transpose(1, 2)`` transposes every matrix of a batch."""
        a, b = ctx.saved_tensors
        ga = grad.bmm(b.transpose(1, 2)) if ctx.needs_input_grad[0] else None
        gb = a.transpose(1, 2).bmm(grad) if ctx.needs_input_grad[1] else None
        return ga, gb
    # build: end


class Mv(Function):
    """Matrix @ vector."""

    node_name = "MvBackward0"

    @staticmethod
    def forward(ctx, m, v):
        if m.dim() != 2 or v.dim() != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m.dim()}, {v.dim()}")
        if m._shape[1] != v._shape[0]:
            raise RuntimeError(f"size mismatch, got input ({m._shape[0]}), mat ({_dims_str(m)}), vec ({v._shape[0]})")
        if m.dtype is not v.dtype:  # PyTorch names (its output buffer, which takes vec's dtype), mat, vec
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {v.dtype._legacy[:-6]}, "
                               f"{m.dtype._legacy[:-6]}, and {v.dtype._legacy[:-6]}")
        _no_bool(m, kernel="addmv_impl_cpu")
        ctx.save_for_backward(m if ctx.needs_input_grad[1] else None, v if ctx.needs_input_grad[0] else None)
        return wrap(xp_of(m).matmul(m._array, v._array), m.device)

    @staticmethod
    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        gm = grad.view(-1, 1) * v if ctx.needs_input_grad[0] else None   # outer(grad, v), as PyTorch writes it
        gv = m.t().mv(grad) if ctx.needs_input_grad[1] else None
        return gm, gv


class Dot(Function):
    """Vector . vector: a 0-dim tensor."""

    node_name = "DotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        if a.dim() != 1 or b.dim() != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.dim()}D and {b.dim()}D tensors")
        if a._shape != b._shape:
            n, m = a._shape[0], b._shape[0]
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
                               f"number of elements, but got {n} and {m} elements respectively")
        if a.dtype is not b.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {a.dtype._legacy[:-6]} "
                               f"and {b.dtype._legacy[:-6]}")
        _no_bool(a, kernel="dot")
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b if ctx.needs_input_grad[0] else None)
        return wrap(xp_of(a).asarray(xp_of(a).dot(a._array, b._array)), a.device)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None), (grad * a if ctx.needs_input_grad[1] else None)


class Addmm(Function):
    """``beta * input + alpha * (mat1 @ mat2)`` in one op: what ``nn.Linear`` runs on a 2-D input."""

    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, input, mat1, mat2, beta, alpha):
        _check_mm(mat1, mat2)
        out_shape = (mat1._shape[0], mat2._shape[1])
        _layout.expand_strides(input._shape, input._stride, out_shape)  # PyTorch's expand error
        if input._array.dtype is not mat1._array.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {input.dtype._legacy[:-6]} and "
                               f"{mat1.dtype._legacy[:-6]}")
        xp = xp_of(mat1)
        out = xp.matmul(mat1._array, mat2._array)
        if alpha != 1:
            out *= alpha
        if beta != 0:  # beta = 0 ignores input entirely (even its nan and inf)
            out += input._array if beta == 1 else beta * input._array
        if ctx._recorded:
            needs = ctx.needs_input_grad
            ctx.save_for_backward(mat1 if needs[2] else None, mat2 if needs[1] else None)
            ctx.input_shape, ctx.beta, ctx.alpha = input._shape, beta, alpha
            ctx.layouts = (mat1._shape, mat1._stride), (mat2._shape, mat2._stride)
        return wrap(out, mat1._device)

    @staticmethod
    def backward(ctx, grad):
        # in PyTorch's order (mat1, mat2, then input), so a dispatch mode logs the same ops
        mat1, mat2 = ctx.saved_tensors
        needs, alpha, beta = ctx.needs_input_grad, ctx.alpha, ctx.beta
        if alpha == 1 and _products_on_arrays(grad):  # nothing watches: the same on arrays (above)
            g1, g2 = _mat_grads_on_arrays(grad, mat1, mat2, ctx.layouts, needs[1], needs[2])
            gi = None
            if needs[0]:
                g = grad._array if beta == 1 else grad._array * beta
                gi = wrap(_sum_to_shape(g, ctx.input_shape), grad._device)
            return gi, g1, g2, None, None
        g1 = mat1_grad(grad, mat2, *ctx.layouts[0]) if needs[1] else None
        g2 = mat2_grad(grad, mat1, *ctx.layouts[1]) if needs[2] else None
        if alpha != 1:
            g1 = None if g1 is None else g1 * alpha
            g2 = None if g2 is None else g2 * alpha
        gi = (grad if beta == 1 else grad * beta).sum_to_size(ctx.input_shape) if needs[0] else None
        return gi, g1, g2, None, None


class SqueezeRow(Function):
    """Drop the leading size-1 dim of a fresh ``mm`` result (1-D @ 2-D). PyTorch squeezes that result in
    place, hence the node name of its in-place squeeze."""

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, x):
        return wrap(x._array[0], x.device)

    @staticmethod
    def backward(ctx, grad):
        return grad.unsqueeze(0)


# -- the public functions ------------------------------------------------------------------------------


def _tensors(name, *pairs):
    for position, (arg, value) in enumerate(pairs, start=1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")


@method()
def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    _tensors("mm", ("input", input), ("mat2", mat2))
    return Mm.apply(input, mat2)


@method()
def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors with the same batch size."""
    _tensors("bmm", ("input", input), ("mat2", mat2))
    return Bmm.apply(input, mat2)


@method()
def mv(input, vec):
    """Matrix-vector product."""
    _tensors("mv", ("input", input), ("vec", vec))
    return Mv.apply(input, vec)


@method()
def dot(input, tensor):
    """Inner product of two 1-D tensors."""
    _tensors("dot", ("input", input), ("tensor", tensor))
    return Dot.apply(input, tensor)


class Vdot(Dot):
    """``vdot`` conjugates its first argument; for real tensors it is ``dot``."""

    node_name = "VdotBackward0"


def vdot(input, other):
    """Inner product of two 1-D tensors (the first conjugated, which changes nothing for real ones)."""
    _tensors("vdot", ("input", input), ("other", other))
    return Vdot.apply(input.conj() if input.dtype.is_complex else input, other)  # (conj: ops/complex.py)


method("vdot")(vdot)


@method("outer", "ger")
def outer(input, vec2):
    """``input[i] * vec2[j]``: a column times a row (PyTorch computes it as a broadcast multiply)."""
    _tensors("outer", ("input", input), ("vec2", vec2))
    for arg, t in (("self", input), ("vec2", vec2)):
        if t.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {arg}, but got {t.dim()}-D")
    return input.reshape(-1, 1) * vec2


ger = outer


@method()
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * mat1 @ mat2`` (``input`` broadcasts to the product's shape)."""
    _tensors("addmm", ("input", input), ("mat1", mat1), ("mat2", mat2))
    return Addmm.apply(input, mat1, mat2, beta, alpha)


@method()
def matmul(input, other):
    """The product by the number of dims: dot, mv, mm, or batched (leading dims broadcast)."""
    _tensors("matmul", ("input", input), ("other", other))
    d1, d2 = input.dim(), other.dim()
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D")
    if d1 == 1 and d2 == 1:
        return Dot.apply(input, other)
    if d1 == 2 and d2 == 1:
        return Mv.apply(input, other)
    if d1 == 1 and d2 == 2:
        return SqueezeRow.apply(Mm.apply(input.unsqueeze(0), other))
    if d1 == 2 and d2 == 2:
        return Mm.apply(input, other)
    if _should_fold(input, other):
        return _folded_matmul(input, other)
    if d1 == 3 and d2 == 3 and input._shape[0] != other._shape[0]:
        # a batch of one matrix that needs a gradient: PyTorch squeezes it and folds the other operand
        if input._shape[0] == 1 and input._requires_grad:
            return matmul(input.squeeze(0), other)
        if other._shape[0] == 1 and other._requires_grad:
            return matmul(input, other.squeeze(0))
    return _batched_matmul(input, other)


def _should_fold(t1, t2):
    """Can the batch dims of the bigger operand fold into matrix rows (one mm/mv instead of bmm)?
    PyTorch's rule: when the other operand is 1-D or 2-D, and folding copies nothing (or grads are needed)."""
    d1, d2 = t1.dim(), t2.dim()
    big, small_dim = (t1, d2) if d1 >= d2 else (t2.mT, d1)
    if not (big.dim() >= 3 and small_dim <= 2):
        return False
    if (t2 if d1 >= d2 else t1)._requires_grad:
        return True  # the small operand's gradient then needs no expanded (batch-sized) copy
    if d1 == 2:
        return False  # would need a transposed copy of the result
    if big.numel() == 0:
        return True
    shape, strides = big._shape, big._stride
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(big.dim() - 2))


def _folded_matmul(input, other):
    """(..., n, m) @ (m, p): view the batch as rows -- (batch*n, m) @ (m, p) -- then unfold."""
    from .shape import UnsafeView
    transpose = other.dim() > input.dim()  # N-D on the right: compute (other^T @ input^T)^T
    t1 = other.mT if transpose else input
    t2 = (input.t() if input.dim() == 2 else input) if transpose else other
    rows = t1._shape[:-1]
    folded = t1.reshape(_layout.numel(rows), t1._shape[-1])
    if t2.dim() == 1:
        return UnsafeView.apply(Mv.apply(folded, t2), rows)
    out = UnsafeView.apply(Mm.apply(folded, t2), rows + (t2._shape[1],))
    return out.mT.contiguous() if transpose else out


def _batched_matmul(input, other):
    """Broadcast the batch dims of both, flatten them into one, and call bmm."""
    from .shape import UnsafeView
    d1, d2 = input.dim(), other.dim()
    n = input._shape[-2] if d1 > 1 else 1
    m1 = input._shape[-1]
    m2 = other._shape[-2] if d2 > 1 else other._shape[0]
    p = other._shape[-1] if d2 > 1 else 1
    batch = _layout.broadcast_shapes(input._shape[:max(d1 - 2, 0)], other._shape[:max(d2 - 2, 0)])
    b = _layout.numel(batch)
    t1 = input.expand(batch + (n, m1)).reshape(b, n, m1)
    if d2 == 1:
        t2 = other.expand(batch + (m2,)).reshape(b, m2).unsqueeze(2)
    else:
        t2 = other.expand(batch + (m2, p)).reshape(b, m2, p)
    out_shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    out = Bmm.apply(t1, t2)
    return UnsafeView.apply(out.squeeze(-1) if d2 == 1 else out, out_shape)


Tensor.__matmul__ = lambda self, other: matmul(self, other) if isinstance(other, Tensor) else NotImplemented
Tensor.__rmatmul__ = lambda self, other: matmul(other, self) if isinstance(other, Tensor) else NotImplemented


__all__ = ["mm", "bmm", "mv", "dot", "vdot", "outer", "ger", "addmm", "matmul"]
