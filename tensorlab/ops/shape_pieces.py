"""Shape ops, part 3: views of *pieces* of a tensor.

``narrow`` takes a range of one dim, ``split``/``chunk``/``unbind`` cut a tensor into several views,
``diagonal`` walks two dims at once, and ``unfold`` lays out sliding windows -- overlapping views of
the same memory, which is how a convolution can become one matrix multiply.
See course/02_storage_and_strides and course/14_convolution.
"""
import operator

from .. import _layout, _view_geometry
from ..autograd.function import Function
from ._util import method, wrap


# -- narrow ---------------------------------------------------------------------------------------


@method()
def narrow(input, dim, start, length):
    """Elements ``start .. start+length-1`` of dim ``dim`` (a view; same as slicing that dim)."""
    from .index import slice_dim
    if input.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = _layout.normalize_dim(dim, input.dim())
    start, length = operator.index(start), operator.index(length)
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    size = input._shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_dim(input, d, start, start + length, 1)


# -- unfold: sliding windows --------------------------------------------------------------------------


class Unfold(Function):
    node_name = "UnfoldBackward0"

    @staticmethod
    def forward(ctx, x, dimension, size, step):
        d = _layout.normalize_dim(dimension, x.dim())
        shape, strides = _view_geometry.unfold_geometry(x._shape, x._stride, d, size, step)
        ctx.args = (x._shape, d, size, step)
        return x._make_view(x._offset, shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return UnfoldBackward.apply(grad, *ctx.args), None, None, None


class UnfoldBackward(Function):
    """Sum each window's gradient back onto the positions it covered (windows may overlap)."""

    node_name = "UnfoldBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, in_shape, dim, size, step):
        from .creation import zeros
        ctx.args = (dim, size, step)
        out = zeros(in_shape, dtype=grad.dtype, device=grad.device)
        if not in_shape:
            out._array[...] = grad._array.reshape(())
            return out
        windows = grad._shape[dim]
        for k in range(size):  # offset k inside every window: distinct positions k, k+step, ...
            target = [slice(None)] * len(in_shape)
            target[dim] = slice(k, k + (windows - 1) * step + 1, step)
            out._array[tuple(target)] += grad._array[..., k]
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad.unfold(*ctx.args), None, None, None, None


@method()
def unfold(self, dimension, size, step):
    """Windows of ``size`` elements, ``step`` apart, along ``dimension``: a view that adds a last dim.

    ``x.unfold(0, 3, 1)`` of ``[0, 1, 2, 3, 4]`` is ``[[0, 1, 2], [1, 2, 3], [2, 3, 4]]`` -- the three
    windows share memory (the stride of the window dim is ``step``, not ``size``).
    """
    return Unfold.apply(self, dimension, operator.index(size), operator.index(step))


# -- diagonal -----------------------------------------------------------------------------------------


class Diagonal(Function):
    node_name = "DiagonalBackward0"

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        n = x.dim()
        d1, d2 = _layout.normalize_dim(dim1, n), _layout.normalize_dim(dim2, n)
        delta, shape, strides = _view_geometry.diagonal_geometry(x._shape, x._stride, offset, d1, d2)
        ctx.args = (x._shape, offset, d1, d2)
        return x._make_view(x._offset + delta, shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return DiagonalBackward.apply(grad, *ctx.args), None, None, None


class DiagonalBackward(Function):
    """Zeros everywhere except the diagonal, which gets the gradient."""

    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, in_shape, offset, dim1, dim2):
        from .creation import zeros
        ctx.args = (offset, dim1, dim2)
        out = zeros(in_shape, dtype=grad.dtype, device=grad.device)
        delta, shape, strides = _view_geometry.diagonal_geometry(out._shape, out._stride, offset, dim1, dim2)
        out._make_view(delta, shape, strides)._array[...] = grad._array
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad.diagonal(*ctx.args), None, None, None, None


@method()
def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal of dims ``dim1``/``dim2`` (a view; its stride is the sum of their strides).

    ``offset > 0`` is above the main diagonal. The diagonal becomes the last dim.
    """
    return Diagonal.apply(input, operator.index(offset), dim1, dim2)


class DiagEmbed(Function):
    """The last dim of the input laid along the diagonal of two new dims, zeros elsewhere."""

    node_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        from .creation import zeros
        n_out = x.dim() + 1
        d1, d2 = _layout.normalize_dim(dim1, n_out), _layout.normalize_dim(dim2, n_out)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        size = x._shape[-1] + abs(offset) if x.dim() else 1 + abs(offset)
        shape = list(x._shape[:-1])
        for d in sorted((d1, d2)):
            shape.insert(d, size)
        out = zeros(tuple(shape), dtype=x.dtype, device=x.device)
        delta, dshape, strides = _view_geometry.diagonal_geometry(out._shape, out._stride, offset, d1, d2)
        out._make_view(delta, dshape, strides)._array[...] = x._array
        ctx.args = (offset, d1, d2)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad.diagonal(*ctx.args), None, None, None


@method()
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonals (of dims ``dim1``/``dim2``) are the last dim of ``input``."""
    return DiagEmbed.apply(input, operator.index(offset), dim1, dim2)


class DiagonalCopy(Function):
    """``diag`` of a matrix: its diagonal as a new (copied) vector."""

    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, x, offset):
        delta, shape, strides = _view_geometry.diagonal_geometry(x._shape, x._stride, offset, 0, 1)
        ctx.args = (x._shape, offset, 0, 1)
        return wrap(x._make_view(x._offset + delta, shape, strides)._array.copy(), x.device)

    @staticmethod
    def backward(ctx, grad):
        return DiagonalBackward.apply(grad, *ctx.args), None


@method()
def diag(input, diagonal=0):
    """A vector's diagonal matrix (``diag([1, 2])`` is ``[[1, 0], [0, 2]]``), or a matrix's diagonal as a
    vector; ``diagonal > 0`` is above the main diagonal."""
    if input.dim() == 1:
        return DiagEmbed.apply(input, operator.index(diagonal), 0, 1)
    if input.dim() == 2:
        return DiagonalCopy.apply(input, operator.index(diagonal))
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.dim()}D")


# -- split, chunk, unbind: one view per piece -------------------------------------------------------


class Split(Function):
    node_name = "SplitBackward0"

    @staticmethod
    def forward(ctx, x, sizes, dim):
        ctx.sizes, ctx.dim, ctx.in_shape = sizes, dim, x._shape
        pieces, start = [], 0
        for n in sizes:
            shape = x._shape[:dim] + (n,) + x._shape[dim + 1:]
            pieces.append(x._make_view(x._offset + start * x._stride[dim], shape, x._stride))
            start += n
        return tuple(pieces)

    @staticmethod
    def backward(ctx, *grads):
        return _join(grads, ctx.in_shape, ctx.sizes, ctx.dim), None, None


class SplitWithSizes(Split):
    node_name = "SplitWithSizesBackward0"


def _join(grads, in_shape, sizes, dim):
    """The input's gradient: the pieces' gradients side by side (zeros for pieces that got none)."""
    from .creation import zeros
    like = next(g for g in grads if g is not None)
    parts = [g if g is not None else
             zeros(in_shape[:dim] + (n,) + in_shape[dim + 1:], dtype=like.dtype, device=like.device)
             for g, n in zip(grads, sizes)]
    from .copying import cat
    return cat(parts, dim)


def _split_dim(input, dim, what):
    if input.dim() == 0:
        raise RuntimeError(f"{what} expects at least a 1-dimensional tensor")
    return _layout.normalize_dim(dim, input.dim())


@method()
def split(tensor, split_size_or_sections, dim=0):
    """Cut into views along ``dim``: pieces of ``split_size`` (the last may be shorter), or of the
    listed sizes."""
    d = _split_dim(tensor, dim, "split")
    length = tensor._shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [operator.index(s) for s in split_size_or_sections]
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                               f"split_sizes={_layout._fmt(sizes)}")
        if sum(sizes) != length:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {length} (input "
                               f"tensor's size at dimension {d}), but got split_sizes={_layout._fmt(sizes)}")
        return SplitWithSizes.apply(tensor, tuple(sizes), d)
    sizes = _view_geometry.split_sizes(length, operator.index(split_size_or_sections))
    return Split.apply(tensor, tuple(sizes), d)


@method()
def chunk(input, chunks, dim=0):
    """Cut into ``chunks`` views of equal size (the last may be smaller, and there may be fewer)."""
    d = _split_dim(input, dim, "chunk")
    sizes = _view_geometry.chunk_sizes(input._shape[d], operator.index(chunks))
    return Split.apply(input, tuple(sizes), d)


@method()
def tensor_split(input, indices_or_sections, dim=0):
    """Cut into views at the given indices, or into n nearly equal parts (sizes differ by at most 1)."""
    from .index import slice_dim
    d = _split_dim(input, dim, "tensor_split")
    length = input._shape[d]
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        sizes = [length // n + (1 if i < length % n else 0) for i in range(n)]
        bounds = [sum(sizes[:i]) for i in range(n + 1)]
        return tuple(slice_dim(input, d, bounds[i], bounds[i + 1], 1) for i in range(n))
    cuts = [0] + [operator.index(i) for i in indices_or_sections] + [length]
    return tuple(slice_dim(input, d, a, max(a, b), 1) for a, b in zip(cuts, cuts[1:]))


class Unbind(Function):
    node_name = "UnbindBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim, ctx.in_shape = dim, x._shape
        shape, strides = x._shape[:dim] + x._shape[dim + 1:], x._stride[:dim] + x._stride[dim + 1:]
        return tuple(x._make_view(x._offset + i * x._stride[dim], shape, strides) for i in range(x._shape[dim]))

    @staticmethod
    def backward(ctx, *grads):
        from .creation import zeros
        like = next(g for g in grads if g is not None)
        shape = ctx.in_shape[:ctx.dim] + ctx.in_shape[ctx.dim + 1:]
        parts = [g if g is not None else zeros(shape, dtype=like.dtype, device=like.device) for g in grads]
        from .copying import stack
        return stack(parts, ctx.dim), None


@method()
def unbind(input, dim=0):
    """All slices along ``dim``, as a tuple of views with that dim removed (``tuple(x)`` for dim 0)."""
    if input.dim() == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return Unbind.apply(input, _layout.normalize_dim(dim, input.dim()))


__all__ = ["narrow", "diagonal", "diag", "diag_embed", "split", "chunk", "tensor_split", "unbind"]
