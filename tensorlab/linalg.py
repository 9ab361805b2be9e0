"""``tensorlab.linalg``: norms, inverses, determinants and linear solves, as ``torch.linalg``.

A *norm* measures size. ``vector_norm`` treats the chosen dims as one long vector:
(sum |x|^ord)^(1/ord) -- ord=2 is Euclidean length, ord=1 the sum of |x|, ord=inf the largest |x|.
``matrix_norm`` measures a matrix as an operator: ord=1 is the largest column sum of |a|, ord=inf
the largest row sum, 'fro' (Frobenius) the Euclidean length of all entries. ``norm`` picks one of the
two from ``ord`` and ``dim``, as PyTorch does.

``inv``, ``det`` and ``solve`` live in tensorlab/ops/linalg_inverse.py (with their gradients), ``cross``,
``svd`` and ``svdvals`` in tensorlab/ops/linalg_decomp.py;
a singular matrix makes ``inv`` and ``solve`` raise ``LinAlgError``, a subclass of RuntimeError.
Every function works on a batch of matrices: the last two dims are the matrix.
See course/04_ops_and_reductions.
"""
import math
import numbers

from . import _layout
from .ops.linalg_decomp import linalg_cross as cross, linalg_svd as svd, linalg_svdvals as svdvals
from .ops.linalg_inverse import LinAlgError, Inv, Det, Solve, is_vector_rhs
from .ops.reduce import reduced_dims
from .ops.reduce_stats import VectorNorm
from .ops._util import tensor_arg
from .tensor import Tensor

__all__ = ["LinAlgError", "norm", "vector_norm", "matrix_norm", "inv", "det", "solve", "cross", "svd", "svdvals"]


def _ord_str(ord):
    """An order as PyTorch prints a double: 2, -1, 0.5, inf."""
    return str(int(ord)) if float(ord).is_integer() else str(ord)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """``(sum |x|^ord)^(1/ord)`` over ``dim`` (every element by default); ord=0 counts the nonzeros."""
    tensor_arg("linalg_vector_norm", "input", 1, x)
    if not isinstance(ord, numbers.Real) or isinstance(ord, bool):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
                        f"{type(ord).__name__}")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{x.dtype._legacy[:-6]}")
    if dtype is not None and not dtype.is_floating_point:
        raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but got "
                           f"{dtype._legacy[:-6]}")
    dims = reduced_dims(dim, x.dim())
    if x.numel() == 0 and (ord < 0 or ord == math.inf):  # max/min of nothing is undefined
        if dim is None or dim == () or dim == []:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {_ord_str(ord)} norm on an empty tensor "
                               "because the operation does not have an identity")
        for d in dims:
            if x._shape[d] == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {_ord_str(ord)} norm on the dimension "
                                   f"{d}because this dimension is empty and the operation does not have an identity")
    if dtype is not None and dtype is not x.dtype:
        x = x.to(dtype)
    return VectorNorm.apply(x.abs() if x.dtype.is_complex else x, float(ord), dims, keepdim, None)  # |z|


def _matrix_dims(dim, ndim):
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        shown = " ".join(map(str, dim)) if isinstance(dim, (tuple, list)) else dim
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {shown}")
    dims = tuple(_layout.normalize_dim(d, ndim) for d in dim)
    if dims[0] == dims[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, {dims[1]})")
    return dims


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """A norm of the matrices in the two dims ``dim``: 'fro', or ord = 1 / -1 (max / min column sum of
    |a|) or inf / -inf (max / min row sum). The spectral (2) and nuclear ('nuc') norms need an SVD,
    which tensorlab does not have yet."""
    tensor_arg("linalg_matrix_norm", "input", 1, A)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
                           f"{A.dtype._legacy[:-6]}")
    dims = _matrix_dims(dim, A.dim())
    if isinstance(ord, str):
        if ord == "fro":
            return vector_norm(A, 2, dims, keepdim, dtype=dtype)
        if ord != "nuc":
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif ord in (1, -1, math.inf, -math.inf):
        reduce_dim, then_dim = dims if abs(ord) == 1 else dims[::-1]  # columns for 1, rows for inf
        if not keepdim and reduce_dim < then_dim:
            then_dim -= 1  # the first reduction removed a dim before it
        sums = vector_norm(A, 1, reduce_dim, keepdim, dtype=dtype)
        return sums.amax(then_dim, keepdim) if ord > 0 else sums.amin(then_dim, keepdim)
    elif ord not in (2, -2):
        raise RuntimeError(f"linalg.matrix_norm: Order {_ord_str(ord)} not supported.")
    raise NotImplementedError(f"tensorlab does not implement the matrix norm ord={ord!r}: it is made of the "
                              "singular values (an SVD), which tensorlab does not have yet")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """``vector_norm`` or ``matrix_norm``: a matrix norm when ``ord`` is given and the reduction covers two
    dims (``dim`` of length 2, or a 2-D input without ``dim``) or ``ord`` is a string; else a vector norm
    (the 2-norm of all elements by default)."""
    tensor_arg("linalg_norm", "input", 1, A)
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}")
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                           f"Got {A.dim()}D.")
    if isinstance(ord, str):
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    if ord is not None and (len(dim) == 2 if dim is not None else A.dim() == 2):
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def inv(A):
    """The inverse A^-1 of each matrix (``LinAlgError`` if one is singular). Gradient: -A^-T g A^-T."""
    tensor_arg("linalg_inv", "A", 1, A)
    return Inv.apply(A)


def det(A):
    """The determinant of each matrix: the factor by which it scales volume (0 if singular)."""
    tensor_arg("linalg_det", "A", 1, A)
    return Det.apply(A)


def solve(A, B, *, left=True):
    """X with A X = B (``left=False``: X A = B), computed without forming A^-1 (faster, more accurate).
    B is a vector (or batch of vectors) when it is 1-D or has A's shape minus the last dim; batch dims
    broadcast. ``LinAlgError`` if A is singular."""
    tensor_arg("linalg_solve", "A", 1, A)
    tensor_arg("linalg_solve", "B", 2, B)
    if B.dim() == 0:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    return Solve.apply(A, B, bool(left), is_vector_rhs(A, B))
