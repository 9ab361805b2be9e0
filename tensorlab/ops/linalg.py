"""Matrix products. ``matmul`` covers PyTorch's cases: 1-D dot, 2-D mm, mv, and batched
broadcasting of the leading dims.
See course/04_ops_and_reductions.
"""
from .. import _dtype
from ..autograd.function import Function
from ._util import method, operands, wrap, xp_of


def _check_same_dtype(a, b, what):
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {a.dtype} != {b.dtype}")


class Mm(Function):
    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):
        if a.dim() != 2:
            raise RuntimeError("self must be a matrix")
        if b.dim() != 2:
            raise RuntimeError("mat2 must be a matrix")
        if a._shape[1] != b._shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._shape[0]}x{a._shape[1]} and "
                               f"{b._shape[0]}x{b._shape[1]})")
        _check_same_dtype(a, b, "mm")
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[0] else None)
        return wrap(a._array @ b._array, a.device)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        ga = grad.mm(b.t()) if ctx.needs_input_grad[0] else None
        gb = a.t().mm(grad) if ctx.needs_input_grad[1] else None
        return ga, gb


@method()
def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    return Mm.apply(input, mat2)


__all__ = ["mm"]
