"""Shape ops, part 2: reordering dims, adding and removing size-1 dims.

``transpose``, ``permute`` and ``movedim`` shuffle the (size, stride) pairs -- the memory stays where
it is, which is why the result is usually not contiguous. ``unsqueeze`` and ``squeeze`` add or drop
dims of size 1, whose stride is never used to move. All of these are views.
See course/02_storage_and_strides.
"""
import operator
import warnings

from .. import _layout, _view_geometry
from ..autograd.function import Function
from ._util import method


def _dims(args):
    """``permute(0, 1)`` or ``permute((0, 1))``: the dims as ints; a float (even 1.0) is PyTorch's TypeError."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    dims = []
    for at, a in enumerate(args, 1):
        try:
            dims.append(operator.index(a))
        except TypeError:
            raise TypeError(f"permute(): argument 'dims' failed to unpack the object at pos {at} with error "
                            f"\"type must be tuple of ints,but got {type(a).__name__}\"") from None
    return tuple(dims)


class Transpose(Function):
    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        n = x.dim()
        d0, d1 = _layout.normalize_dim(dim0, n), _layout.normalize_dim(dim1, n)
        ctx.dim0, ctx.dim1 = d0, d1
        shape, strides = list(x._shape), list(x._stride)
        if not n:
            return x._same_view()
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
        return x._make_view(x._offset, tuple(shape), tuple(strides), x._array.swapaxes(d0, d1))

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(ctx.dim0, ctx.dim1), None, None


@method("transpose", "swapaxes", "swapdims")
def transpose(input, dim0, dim1):
    """Swap two dims: swaps their sizes and strides, so the result is usually not contiguous."""
    return Transpose.apply(input, dim0, dim1)


swapaxes = swapdims = transpose


class T(Function):
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dim() > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.dim()}D")
        return x._make_view(x._offset, x._shape[::-1], x._stride[::-1], x._array.T)

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


@method()
def t(input):
    """Transpose a matrix (a 0-d or 1-d tensor is returned as a view of itself)."""
    return T.apply(input)


class Permute(Function):
    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        n = x.dim()
        if len(dims) != n:
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not "
                               f"match the length of the desired ordering of dimensions i.e. input.dim() = "
                               f"{n} is not equal to len(dims) = {len(dims)}")
        dims = tuple([_layout.normalize_dim(d, n) for d in dims])
        if len(set(dims)) != n:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.dims = dims
        shape, strides = x._shape, x._stride
        return x._make_view(x._offset, tuple([shape[d] for d in dims]), tuple([strides[d] for d in dims]),
                            x._array.transpose(dims))

    @staticmethod
    def backward(ctx, grad):
        inverse = [0] * len(ctx.dims)
        for i, d in enumerate(ctx.dims):
            inverse[d] = i
        return grad.permute(inverse), None


@method()
def permute(input, *dims):
    """Reorder dims: reorders sizes and strides together (zero-copy)."""
    return Permute.apply(input, _dims(dims))


@method("movedim", "moveaxis")
def movedim(input, source, destination):
    """Move dims ``source`` to positions ``destination``; the others keep their order (a permute)."""
    source = (source,) if isinstance(source, int) else tuple(source)
    destination = (destination,) if isinstance(destination, int) else tuple(destination)
    return Permute.apply(input, _view_geometry.movedim_order(input.dim(), source, destination))


moveaxis = movedim


def _T(self):
    """Reverse all dims. Meant for matrices; other ranks warn, as in PyTorch (use ``mT``)."""
    if self.dim() == 0:
        warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
                      UserWarning, stacklevel=2)
    elif self.dim() != 2:
        warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                      "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                      "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
                      "reverse the dimensions of a tensor.", UserWarning, stacklevel=2)
    return self.permute(tuple(range(self.dim() - 1, -1, -1)))


def _mT(self):
    """Transpose the last two dims (a batch of matrices)."""
    if self.dim() < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got "
                           f"{self.dim()}-D tensor.")
    return self.transpose(-2, -1)


def _H(self):
    """Conjugate transpose of a matrix; for real numbers just the transpose."""
    if self.dim() == 0:
        warnings.warn("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().", UserWarning,
                      stacklevel=2)
        return self
    if self.dim() != 2:
        hint = " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D "
                           f"tensor.{hint}")
    return self.transpose(0, 1)


def _mH(self):
    if self.dim() < 2:
        raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got "
                           f"{self.dim()}-D tensor.")
    return self.transpose(-2, -1)


method("T")(property(_T))
method("mT")(property(_mT))
method("H")(property(_H))
method("mH")(property(_mH))


@method()
def adjoint(input):
    """The conjugate transpose of the last two dims (``mH``)."""
    return _mH(input)


class Unsqueeze(Function):
    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        dim = _layout.normalize_dim(dim, x.dim() + 1)
        ctx.dim = dim
        shape, strides = _view_geometry.unsqueeze_geometry(x._shape, x._stride, dim)
        return x._make_view(x._offset, shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


@method()
def unsqueeze(input, dim):
    """Insert a dim of size 1 at ``dim`` (like ``np.expand_dims``); -1 means "at the end"."""
    return Unsqueeze.apply(input, dim)


class Squeeze(Function):
    """``squeeze()``: drop every size-1 dim."""

    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        n = x.dim()
        ctx.self_sym_sizes = x._shape
        if dims is None:
            dims = range(n)
        else:
            dims = [_layout.normalize_dim(d, n) for d in dims]
            for d in dims:
                if dims.count(d) > 1:
                    raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        keep = [i for i in range(n) if not (i in dims and x._shape[i] == 1)]
        return x._make_view(x._offset, tuple(x._shape[i] for i in keep), tuple(x._stride[i] for i in keep))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class SqueezeDim(Squeeze):
    """``squeeze(dim)``: drop ``dim`` if its size is 1 (otherwise nothing changes)."""

    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    """``squeeze((d0, d1))``: drop those of the dims that have size 1."""

    node_name = "SqueezeBackward2"


@method()
def squeeze(input, dim=None):
    """Remove dims of size 1 (all of them, or only those listed in ``dim``)."""
    if dim is None:
        return Squeeze.apply(input, None)
    if isinstance(dim, (tuple, list)):
        return SqueezeDims.apply(input, tuple(dim))
    return SqueezeDim.apply(input, (dim,))


__all__ = ["transpose", "swapaxes", "swapdims", "t", "permute", "movedim", "moveaxis", "adjoint", "unsqueeze",
           "squeeze"]
