"""Shape ops, part 1: reading the same elements with another shape.

The *view* ops here copy nothing: each computes a new (offset, shape, strides) with
``tensorlab._layout`` and returns a tensor over the same storage. Their backward maps the gradient
back to the input's shape (reshape it back, sum the expanded dims...). ``reshape`` is a view when the
strides allow one and a copy otherwise -- exactly when PyTorch copies.
Part 2 (reordering dims: transpose, permute, squeeze...) is in ``shape_reorder.py``; part 3 (taking
pieces: narrow, unfold, diagonal, split...) is in ``shape_pieces.py``.
See course/02_storage_and_strides and course/03_views_and_broadcasting.
"""
import operator

from .. import _dtype, _layout
from ..autograd.function import Function
from ..backend import for_device
from ..storage import UntypedStorage
from ._util import method, wrap, xp_of
from ..tensor import _contiguous_strides


def _dims(args):
    """Accept ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` and ``f(torch.Size([2, 3]))``."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    try:
        return tuple([operator.index(a) for a in args])
    except TypeError:
        names = ", ".join(type(a).__name__ for a in args)
        raise TypeError(f"expected a sequence of ints as the shape, but got ({names})") from None


def _type_name(x):
    """``torch.FloatTensor``: the legacy name PyTorch uses in some messages."""
    return "torch." + x.dtype._legacy


# -- view and reshape -----------------------------------------------------------------------------


def _strides_for_view(x, shape):
    """The strides that read ``x``'s memory as ``shape``, or None when no view can: a contiguous tensor
    fits any shape of its size; otherwise PyTorch's rule decides (``_layout.view_strides``)."""
    if x._stride == _contiguous_strides(x._shape):
        return _contiguous_strides(shape)
    return _layout.view_strides(x._shape, x._stride, shape)


class View(Function):
    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        shape = _layout.infer_size(shape, x.numel())
        strides = _strides_for_view(x, shape)
        if strides is None:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one dimension "
                "spans across two contiguous subspaces). Use .reshape(...) instead.")
        ctx.self_sym_sizes = x._shape
        # a row-major array reshapes to any shape of its size without a copy: NumPy makes the view
        array = x._array.reshape(shape) if x._array.flags.c_contiguous else None
        return x._make_view(x._offset, shape, strides, array)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class UnsafeView(View):
    """``reshape`` that had to copy: the fresh copy reshaped. It is not a view for autograd (it has no
    ``_base``): nobody else can see the copy (PyTorch's _unsafe_view)."""

    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        out = View.forward(ctx, x, shape)
        out._base = None
        return out


@method()
def view(self, *shape):
    """Same storage, new shape. Fails when the strides cannot express it -- use reshape then.

    One size may be -1: it is inferred from the number of elements.
    """
    if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
        return _view_as_dtype(self, shape[0])
    return View.apply(self, _dims(shape))


def _view_as_dtype(self, dtype):
    """``view(dtype)``: read the same bytes as another dtype. With a different element size the last
    dim (which must have stride 1) shrinks or grows; autograd does not follow this view."""
    old, new = self.element_size(), dtype.itemsize
    shape, strides, offset = self._shape, self._stride, self._offset
    if old != new:
        what = f"to view {self.dtype._legacy[:-6]} as {dtype._legacy[:-6]} (different element sizes)"
        if not shape:
            raise RuntimeError(f"self.dim() cannot be 0 {what}")
        ratio = max(new // old, 1)
        if shape[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got {shape[-1]}")
        if strides[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
        if new > old:
            checks = [("self.storage_offset()", offset)] + \
                [(f"self.stride({d})", st) for d, st in enumerate(strides[:-1])]
            for name, value in checks:
                if value % ratio:
                    raise RuntimeError(f"{name} must be divisible by {ratio} {what}, but got {value}")
            shape = shape[:-1] + (shape[-1] // ratio,)
            strides, offset = tuple(st // ratio for st in strides[:-1]) + (1,), offset // ratio
        else:
            ratio = old // new
            shape = shape[:-1] + (shape[-1] * ratio,)
            strides, offset = tuple(st * ratio for st in strides[:-1]) + (1,), offset * ratio
    flat = self._storage._flat
    raw = flat.view("uint8")
    flat = raw[:raw.size // new * new].view(dtype.np)
    out = object.__new__(type(self))
    array = for_device(self.device).strided_view(flat, offset, shape, strides)
    out._init(UntypedStorage(flat, self.device), offset, shape, strides, array, self._version_counter, None)
    return out


@method()
def view_as(self, other):
    return View.apply(self, other._shape)


@method()
def reshape(self, *shape):
    """A view when the layout allows it, otherwise a contiguous copy reshaped (and never both)."""
    shape = _layout.infer_size(_dims(shape), self.numel())
    if _strides_for_view(self, shape) is not None:  # (View works it out again: it is also an op alone)
        return View.apply(self, shape)
    return UnsafeView.apply(Clone.apply(self, True), shape)


@method()
def reshape_as(self, other):
    return self.reshape(other._shape)


@method()
def flatten(self, start_dim=0, end_dim=-1):
    """Merge dims ``start_dim..end_dim`` into one (a view when possible, like reshape)."""
    n = self.dim()
    s, e = _layout.normalize_dim(start_dim, n), _layout.normalize_dim(end_dim, n)  # 0-d: dims -1, 0
    if n == 0:
        return self.reshape(1)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return self
    return self.reshape(self._shape[:s] + (_layout.numel(self._shape[s:e + 1]),) + self._shape[e + 1:])


@method()
def unflatten(self, dim, sizes):
    """Split dim ``dim`` into ``sizes`` (one may be -1): the inverse of flatten, always a view."""
    d = _layout.normalize_dim(dim, self.dim())
    sizes = _dims((sizes,))
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = self._shape[d]
    try:
        sizes = _layout.infer_size(sizes, n)
    except RuntimeError as err:
        if "invalid for input" not in str(err):
            raise
        raise RuntimeError(f"unflatten: Provided sizes {_layout._fmt(sizes)} don't multiply up to the size "
                           f"of dim {dim} ({n}) in the input tensor") from None
    return self.view(self._shape[:d] + sizes + self._shape[d + 1:])


@method()
def ravel(self):
    """All elements in one dim: ``contiguous().view(-1)``."""
    return self.contiguous().view(-1)


# -- expand ---------------------------------------------------------------------------------------


class Expand(Function):
    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = x._shape
        new_shape, strides = _layout.expand_strides(x._shape, x._stride, shape, _type_name(x))
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


# -- as_strided: the primitive every view is made of ------------------------------------------------


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
    """Add each gradient element into the storage position it was read from, then read the input's
    own positions out of that storage-shaped buffer.

    Where the input itself reads one position several times (it was expanded), the position's
    gradient is shared out equally so that summing back over the copies gives it once.
    """
    from .creation import zeros
    lo = min(offset, in_offset)
    span = max(_layout.storage_span(size, stride, offset), _layout.storage_span(in_shape, in_stride, in_offset),
               lo + 1) - lo
    flat = zeros(span, dtype=grad.dtype, device=grad.device)
    flat = flat.index_put((_positions(grad, size, stride, offset - lo),), grad.reshape(-1), accumulate=True)
    result = flat.as_strided(in_shape, in_stride, in_offset - lo)
    if _layout.may_overlap(in_shape, in_stride):
        ones = zeros(in_shape, dtype=grad.dtype, device=grad.device) + 1
        count = zeros(span, dtype=grad.dtype, device=grad.device).index_put(
            (_positions(grad, in_shape, in_stride, in_offset - lo),), ones.reshape(-1), accumulate=True)
        result = result / count.as_strided(in_shape, in_stride, in_offset - lo)
    return result


def _positions(like, size, stride, offset):
    """A 1-D int64 tensor: the storage position of every element of the layout, in row-major order."""
    xp = xp_of(like)
    pos = xp.full(size, offset, dtype="int64")
    for d, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        pos = pos + (xp.arange(n, dtype="int64") * s).reshape(shape)
    return wrap(pos.reshape(-1), like.device)


@method()
def as_strided(self, size, stride, storage_offset=None):
    """Any (shape, strides, offset) over this storage -- the primitive every view is made of.

    Nothing checks that the windows make sense: overlapping reads are allowed (that is how
    ``unfold`` builds convolution windows), reading past the storage is not.
    """
    offset = self._offset if storage_offset is None else operator.index(storage_offset)
    size, stride = _dims((size,)), _dims((stride,))
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: "
                           f"{_layout._fmt(stride)}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {_layout._fmt(size)}")
    item = self.element_size()
    needed = _layout.storage_span(size, stride, offset)
    if needed > self._storage._flat.size:
        raise RuntimeError(f"setStorage: sizes {_layout._fmt(size)}, strides {_layout._fmt(stride)}, storage "
                           f"offset {offset}, and itemsize {item} requiring a storage size of {needed * item} "
                           f"are out of bounds for storage of size {self._storage._flat.size * item}")
    return AsStrided.apply(self, size, stride, offset)


# -- copies and detaching ---------------------------------------------------------------------------


class Clone(Function):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x, contiguous):
        if contiguous or x._stride == _contiguous_strides(x._shape):
            return wrap(x._array.copy(order="C"), x._device)  # row-major: the array module's own copy
        from .creation import empty_strided
        strides = _layout.dense_strides_like(x._shape, x._stride)  # (PyTorch's preserve_format)
        out = empty_strided(x._shape, strides, dtype=x.dtype, device=x.device)
        out._array[...] = x._array
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad, None


@method()
def clone(self, *, memory_format=None):
    """A copy with its own storage. It keeps the memory order of the input (a transposed input gives
    a transposed copy), as PyTorch's default ``preserve_format`` does."""
    return Clone.apply(self, memory_format is _layout.contiguous_format)


@method()
def contiguous(self, memory_format=None):
    """``self`` if already row-major (no copy, no graph node), else a row-major copy."""
    if self.is_contiguous():
        return self
    return Clone.apply(self, True)


@method()
def detach(self):
    """Same storage and version counter, no history: a new leaf that stops gradient flow."""
    out = self._same_view()
    out._base = None
    return out


@method()
def detach_(self):
    """Cut this tensor from its history in place (not allowed for views that have history)."""
    if self._base is not None and self._grad_fn is not None:
        raise RuntimeError("Can't detach views in-place. Use detach() instead.")
    self._grad_fn, self._output_nr, self._requires_grad = None, 0, False
    return self


from . import shape_reorder as _reorder  # noqa: E402 - the other two parts of the shape family
from . import shape_pieces as _pieces  # noqa: E402
from .shape_reorder import *  # noqa: E402,F401,F403
from .shape_pieces import *  # noqa: E402,F401,F403

contiguous_format, preserve_format, channels_last = (_layout.contiguous_format, _layout.preserve_format,
                                                     _layout.channels_last)

__all__ = ["reshape", "clone", "detach", "flatten", "unflatten", "ravel", "as_strided", "contiguous_format",
           "preserve_format", "channels_last"] + \
    _reorder.__all__ + _pieces.__all__
