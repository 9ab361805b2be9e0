"""Shape ops. The *view* ops here copy nothing: each computes a new (offset, shape, strides) with
``tensorlab._layout`` and returns a tensor over the same storage. Their backward maps the gradient
back to the input's shape (transpose it back, sum the expanded dims...).
See course/02_storage_and_strides and course/03_views_and_broadcasting.
"""
import operator

import numpy as np

from .. import _layout
from ..autograd.function import Function
from ._util import method, wrap, xp_of


def _dims(args):
    """Accept ``f(2, 3)`` and ``f((2, 3))``."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(operator.index(a) for a in args)


class View(Function):
    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        shape = _layout.infer_size(shape, x.numel())
        strides = _layout.view_strides(x._shape, x._stride, shape)
        if strides is None:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one dimension "
                "spans across two contiguous subspaces). Use .reshape(...) instead.")
        ctx.self_sym_sizes = x._shape
        return x._make_view(x._offset, shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class UnsafeView(View):
    """``reshape`` that had to copy: the view of the fresh copy (PyTorch's _unsafe_view)."""

    node_name = "UnsafeViewBackward0"


@method()
def view(self, *shape):
    """Same storage, new shape. Fails when the strides cannot express it -- use reshape then."""
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer, tuple, list)):
        from .elementwise import view_as_dtype
        return view_as_dtype(self, shape[0])
    return View.apply(self, _dims(shape))


@method()
def view_as(self, other):
    return View.apply(self, other._shape)


@method()
def reshape(self, *shape):
    """A view when the layout allows it, otherwise a contiguous copy reshaped."""
    shape = _layout.infer_size(_dims(shape), self.numel())
    if _layout.view_strides(self._shape, self._stride, shape) is not None:
        return View.apply(self, shape)
    return UnsafeView.apply(self.contiguous(), shape)


@method()
def reshape_as(self, other):
    return self.reshape(other._shape)


class AsStrided(Function):
    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, x, size, stride, storage_offset):
        ctx.size, ctx.stride, ctx.offset = size, stride, storage_offset
        ctx.base_geometry = (x._shape, x._stride, x._offset)
        return x._make_view(storage_offset, size, stride)

    @staticmethod
    def backward(ctx, grad):
        in_shape, in_stride, in_offset = ctx.base_geometry
        return as_strided_backward(grad, ctx.size, ctx.stride, ctx.offset, in_shape, in_stride,
                                   in_offset), None, None, None


def as_strided_backward(grad, size, stride, offset, in_shape, in_stride, in_offset):
    """Scatter-add each gradient element to the storage position it was read from, then read the
    input's own positions out of that storage-shaped buffer."""
    from .creation import zeros
    lo = min(offset, in_offset)
    span = 1 + max(offset + sum((n - 1) * s for n, s in zip(size, stride)),
                   in_offset + sum((n - 1) * s for n, s in zip(in_shape, in_stride))) - lo
    positions = _positions(size, stride, offset - lo)
    flat = zeros(span, dtype=grad.dtype, device=grad.device)
    flat = flat.index_add(0, positions, grad.reshape(-1))
    return flat.as_strided(in_shape, in_stride, in_offset - lo)


def _positions(size, stride, offset):
    from .creation import tensor
    pos = np.full(size, offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        pos = pos + (np.arange(n) * s).reshape(shape)
    return tensor(pos.reshape(-1))


@method()
def as_strided(self, size, stride, storage_offset=None):
    """Any (shape, strides, offset) over this storage -- the primitive every view is made of."""
    offset = self._offset if storage_offset is None else storage_offset
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape")
    needed = offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1 if 0 not in size else 0
    if needed > self._storage._flat.size:
        raise RuntimeError(f"setStorage: sizes [{', '.join(map(str, size))}], strides "
                           f"[{', '.join(map(str, stride))}], storage offset {offset}, and itemsize "
                           f"{self.element_size()} requiring a storage size of {needed * self.element_size()} "
                           f"are out of bounds for storage of size "
                           f"{self._storage._flat.size * self.element_size()}")
    return AsStrided.apply(self, size, stride, offset)


class Expand(Function):
    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = x._shape
        new_shape, strides = _layout.expand_strides(x._shape, x._stride, shape)
        return x._make_view(x._offset, new_shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return grad.sum_to_size(ctx.self_sym_sizes), None


@method()
def expand(self, *sizes):
    """Broadcast to a bigger shape without copying: repeated dims get stride 0 (-1 keeps a size)."""
    return Expand.apply(self, _dims(sizes))


@method()
def expand_as(self, other):
    return Expand.apply(self, other._shape)


class Transpose(Function):
    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        n = x.dim()
        d0, d1 = _layout.normalize_dim(dim0, n), _layout.normalize_dim(dim1, n)
        ctx.dim0, ctx.dim1 = d0, d1
        shape, strides = list(x._shape), list(x._stride)
        if n:
            shape[d0], shape[d1] = shape[d1], shape[d0]
            strides[d0], strides[d1] = strides[d1], strides[d0]
        return x._make_view(x._offset, tuple(shape), tuple(strides))

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(ctx.dim0, ctx.dim1), None, None


@method("transpose", "swapaxes", "swapdims")
def transpose(self, dim0, dim1):
    """Swap two dims: swaps their sizes and strides, so the result is usually not contiguous."""
    return Transpose.apply(self, dim0, dim1)


class T(Function):
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dim() > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.dim()}D")
        return x._make_view(x._offset, x._shape[::-1], x._stride[::-1])

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


@method()
def t(self):
    return T.apply(self)


class Permute(Function):
    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        n = x.dim()
        if len(dims) != n:
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not "
                               f"match the length of the desired ordering of dimensions i.e. input.dim() = "
                               f"{n} is not equal to len(dims) = {len(dims)}")
        dims = tuple(_layout.normalize_dim(d, n) for d in dims)
        if len(set(dims)) != n:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.dims = dims
        return x._make_view(x._offset, tuple(x._shape[d] for d in dims), tuple(x._stride[d] for d in dims))

    @staticmethod
    def backward(ctx, grad):
        inverse = [0] * len(ctx.dims)
        for i, d in enumerate(ctx.dims):
            inverse[d] = i
        return grad.permute(inverse), None


@method()
def permute(self, *dims):
    """Reorder dims: reorders sizes and strides together (zero-copy)."""
    return Permute.apply(self, _dims(dims))


@property
def _T(self):
    return self.permute(tuple(range(self.dim() - 1, -1, -1))) if self.dim() != 2 else self.t()


@property
def _mT(self):
    if self.dim() < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return self.transpose(-2, -1)


method("T")(_T)
method("mT")(_mT)


class Unsqueeze(Function):
    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        dim = _layout.normalize_dim(dim, x.dim() + 1)
        ctx.dim = dim
        shape, strides = _layout.unsqueeze_geometry(x._shape, x._stride, dim)
        return x._make_view(x._offset, shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


@method()
def unsqueeze(self, dim):
    """Insert a dim of size 1 at ``dim`` (like ``np.expand_dims``)."""
    return Unsqueeze.apply(self, dim)


class Squeeze(Function):
    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        n = x.dim()
        ctx.self_sym_sizes = x._shape
        dims = range(n) if dims is None else {_layout.normalize_dim(d, n) for d in dims}
        keep = [i for i in range(n) if not (i in dims and x._shape[i] == 1)]
        return x._make_view(x._offset, tuple(x._shape[i] for i in keep), tuple(x._stride[i] for i in keep))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


@method()
def squeeze(self, dim=None):
    """Remove dims of size 1 (all of them, or only ``dim`` if it has size 1)."""
    if dim is None:
        return Squeeze.apply(self, None)
    if isinstance(dim, (tuple, list)):
        return SqueezeDims.apply(self, tuple(dim))
    return SqueezeDim.apply(self, (dim,))


class Clone(Function):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x, contiguous):
        xp = xp_of(x)
        array = xp.ascontiguousarray(x._array) if contiguous else x._array.copy(order="K")
        if array is x._array:
            array = array.copy()
        return wrap(array, x.device)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


@method()
def clone(self, *, memory_format=None):
    """A copy with its own storage (same strides when dense, as PyTorch's preserve_format)."""
    return Clone.apply(self, memory_format == "contiguous_format")


@method()
def contiguous(self, memory_format=None):
    """``self`` if already contiguous, else a row-major copy."""
    if self.is_contiguous():
        return self
    return Clone.apply(self, True)


@method()
def detach(self):
    """Same storage and version counter, no history: a new leaf that stops gradient flow."""
    out = self._make_view(self._offset, self._shape, self._stride)
    out._base = self._base
    return out


@method()
def detach_(self):
    if self._base is not None and self._grad_fn is not None:
        raise RuntimeError("Can't detach views in-place. Use detach() instead.")
    self._grad_fn, self._output_nr, self._requires_grad = None, 0, False
    return self


@method()
def flatten(self, start_dim=0, end_dim=-1):
    """Merge dims ``start_dim..end_dim`` into one (a view when possible)."""
    n = self.dim()
    if n == 0:
        return self.reshape(1)
    s, e = _layout.normalize_dim(start_dim, n), _layout.normalize_dim(end_dim, n)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return self
    return self.reshape(self._shape[:s] + (_layout.numel(self._shape[s:e + 1]),) + self._shape[e + 1:])


@method()
def ravel(self):
    return self.reshape(-1)


__all__ = ["reshape", "transpose", "swapaxes", "swapdims", "t", "permute", "unsqueeze", "squeeze", "clone",
           "detach", "flatten", "ravel", "as_strided"]
