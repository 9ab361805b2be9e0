"""The arithmetic of strided memory: pure functions on shapes and strides, no arrays.

A tensor is a window onto a flat storage. Element ``(i0, i1, ..., ik)`` lives at position
``offset + i0*stride[0] + i1*stride[1] + ... + ik*stride[k]``. Every view op (transpose, slicing,
expand, view, unfold, diagonal, ...) only computes a new ``(offset, shape, strides)``: this file has the
rules every layout obeys (contiguity, view-compatibility, broadcasting), ``_view_geometry.py`` the recipe
of each view op. Nothing here touches memory, so every function can be tried on paper.
See course/02_storage_and_strides and course/03_views_and_broadcasting.
"""
import math
import operator


def _fmt(shape):
    """``[2, 3]``: how PyTorch writes a shape inside an error message.

    >>> _fmt((2, 3))
    '[2, 3]'
    """
    return "[" + ", ".join(map(str, shape)) + "]"


def numel(shape):
    """Number of elements: the product of the sizes (1 for a 0-d shape).

    >>> numel((2, 3, 4)), numel(())
    (24, 1)
    """
    return math.prod(shape)


# build: stage 1
def contiguous_strides(shape):
    """Row-major strides: the last dim moves fastest, each stride is the product of the sizes after it.

    >>> contiguous_strides((2, 3, 4))
    (12, 4, 1)
    >>> contiguous_strides((2, 0, 3))   # a size-0 dim counts as 1, as in PyTorch
    (3, 3, 1)
    """
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))
# build: end


# build: stage 1
def is_contiguous(shape, strides):
    """True when the elements are laid out row-major with no gaps (PyTorch's rule).

    Dims of size 1 are ignored (their stride never matters) and an empty tensor is contiguous.

    >>> is_contiguous((2, 3), (3, 1)), is_contiguous((3, 2), (1, 3)), is_contiguous((2, 1), (1, 7))
    (True, False, True)
    """
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True
# build: end


# build: stage 1
def memory_position(index, strides, offset=0):
    """Where element ``index`` sits in storage.

    >>> memory_position((1, 2), (3, 1))  # row 1, column 2 of a contiguous 2x3
    5
    >>> memory_position((1, 2), (1, 3))  # the same element of its transpose's layout
    7
    """
    return offset + sum(i * s for i, s in zip(index, strides))
# build: end


# build: stage 1
def storage_span(shape, strides, offset=0):
    """How many storage elements a layout needs: one past the furthest position it can read.

    >>> storage_span((2, 3), (3, 1)), storage_span((2, 3), (3, 1), 4), storage_span((0, 3), (3, 1))
    (6, 10, 0)
    """
    if 0 in shape:
        return 0
    return offset + sum((n - 1) * s for n, s in zip(shape, strides)) + 1
# build: end


class memory_format:
    """A name for a memory order, as in ``x.clone(memory_format=torch.contiguous_format)``."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


contiguous_format = memory_format("contiguous_format")  # row-major
preserve_format = memory_format("preserve_format")      # keep the input's order (the default)
channels_last = memory_format("channels_last")          # NHWC; tensorlab accepts the name only


def is_non_overlapping_and_dense(shape, strides):
    """True when the elements fill a block of storage exactly once, in *some* order of the dims.

    A transposed matrix is dense (just not row-major); a sliced or expanded one is not.

    >>> is_non_overlapping_and_dense((3, 2), (1, 3)), is_non_overlapping_and_dense((2, 2), (4, 1))
    (True, False)
    """
    dims = sorted((d for d in range(len(shape)) if shape[d] >= 2), key=lambda d: strides[d])
    expected = 1
    for d in dims:
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def may_overlap(shape, strides):
    """True when two different indices may read the same storage position (e.g. after ``expand``).

    >>> may_overlap((3, 4), (1, 0)), may_overlap((3, 4), (4, 1)), may_overlap((3, 2), (1, 2))
    (True, False, True)
    """
    reach = 0  # the furthest position (from the first) reached by the dims seen so far
    for d in sorted((d for d in range(len(shape)) if shape[d] >= 2), key=lambda d: strides[d]):
        if strides[d] <= reach:
            return True
        reach += strides[d] * (shape[d] - 1)
    return False


def dense_strides_like(shape, strides):
    """Strides for a fresh dense copy that keeps the input's memory order (PyTorch's preserve_format).

    A dense input keeps its strides exactly. Otherwise the dims are ordered by stride (dims with
    stride 0 stay where a row-major layout would put them) and packed without gaps.

    >>> dense_strides_like((3, 2), (1, 3)), dense_strides_like((3, 2, 3), (4, 12, 1))
    ((1, 3), (3, 9, 1))
    """
    if is_non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))  # innermost dim first

    def order(a, b):  # >0: dim a belongs outside dim b; 0: undecided
        if strides[a] == 0 or strides[b] == 0:
            return 0
        if strides[a] != strides[b]:
            return 1 if strides[a] > strides[b] else -1
        return 1 if shape[a] > shape[b] else 0

    for i in range(1, ndim):  # a stable insertion sort that skips undecided pairs
        moving = i
        for prev in range(i - 1, -1, -1):
            c = order(perm[prev], perm[moving])
            if c > 0:
                perm[prev], perm[moving] = perm[moving], perm[prev]
                moving = prev
            elif c < 0:
                break
    out, step = [0] * ndim, 1
    for d in perm:
        out[d] = step
        step *= max(shape[d], 1)
    return tuple(out)


def normalize_dim(dim, ndim):
    """Turn a possibly negative dim into 0..ndim-1, raising PyTorch's IndexError when out of range.

    A 0-d tensor accepts dims -1 and 0, as PyTorch does.

    >>> normalize_dim(-1, 3), normalize_dim(0, 0)
    (2, 0)
    """
    lo, hi = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    dim = operator.index(dim)
    if not lo <= dim <= hi:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
    return dim + max(ndim, 1) if dim < 0 else dim


def infer_size(shape, total):
    """Fill in a single -1 in ``shape`` so that it holds ``total`` elements.

    >>> infer_size((2, -1), 6)
    (2, 3)
    >>> infer_size((4, -1), 6)
    Traceback (most recent call last):
    RuntimeError: shape '[4, -1]' is invalid for input of size 6
    """
    shape = tuple([operator.index(s) for s in shape])
    known, unknown = 1, None
    for i, size in enumerate(shape):
        if size == -1:
            if unknown is not None:
                raise RuntimeError("only one dimension can be inferred")
            unknown = i
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {i} of shape {_fmt(shape)}")
        else:
            known *= size
    if unknown is None and known == total:
        return shape
    if unknown is not None and known > 0 and total % known == 0:
        return shape[:unknown] + (total // known,) + shape[unknown + 1:]
    if unknown is not None and known == 0 and total == 0:
        raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {_fmt(shape)} because the "
                           "unspecified dimension size -1 can be any value and is ambiguous")
    raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {total}")


# build: stage 1
def view_strides(old_shape, old_strides, new_shape):
    """Strides that let ``new_shape`` read the same memory, or None when no view can (PyTorch's rule).

    Walk the old dims from the right and cut them into *chunks*: runs of dims that are contiguous
    with each other (a dim's stride equals size * stride of the dim after it). Inside a chunk the
    elements are evenly spaced, so the chunk can be re-cut into any new sizes with the same product.
    A view works when the new shape's dims can be grouped so that each group covers exactly one
    chunk. So a transposed matrix cannot be flattened (each row is its own chunk), but a tensor that
    is non-contiguous only *between* chunks can still be reshaped inside them.

    >>> view_strides((2, 3), (3, 1), (3, 2))
    (2, 1)
    >>> view_strides((3, 2), (1, 3), (6,)) is None   # transposed: flattening needs a copy
    True
    >>> view_strides((2, 4), (8, 1), (2, 2, 2))      # row gap of 8, still splittable inside rows
    (8, 2, 1)
    """
    if len(old_shape) == 0:
        return (1,) * len(new_shape)
    if numel(old_shape) == 0:
        same = tuple(old_shape) == tuple(new_shape)
        return tuple(old_strides) if same else contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1]   # the stride of the chunk's innermost dim
    tensor_numel = view_numel = 1         # elements in the current chunk, old and new
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        chunk_ends = tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and
                                       old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)
        if not chunk_ends:
            continue
        while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
            new_strides[view_d] = view_numel * chunk_base_stride
            view_numel *= new_shape[view_d]
            view_d -= 1
        if view_numel != tensor_numel:
            return None
        if tensor_d > 0:
            chunk_base_stride = old_strides[tensor_d - 1]
            tensor_numel = view_numel = 1
    return tuple(new_strides) if view_d == -1 else None
# build: end


# build: stage 2
def broadcast_shapes(*shapes):
    """The shape two or more shapes broadcast to: align on the right, sizes must match or be 1.

    >>> broadcast_shapes((3, 1), (4,))
    (3, 4)
    >>> broadcast_shapes((3,), (4,))
    Traceback (most recent call last):
    RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0
    >>> broadcast_shapes((2, 3, 1), (3, 2, 1))      # checked from the right, as PyTorch does
    Traceback (most recent call last):
    RuntimeError: The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1
    """
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        for i in range(ndim - 1, ndim - 1 - len(shape), -1):   # right to left
            size = shape[i - ndim + len(shape)]
            if size == result[i] or size == 1:
                continue
            if result[i] != 1:
                raise RuntimeError(
                    f"The size of tensor a ({result[i]}) must match the size of tensor b ({size}) at "
                    f"non-singleton dimension {i}")
            result[i] = size
    return tuple(result)
# build: end


# build: stage 2
def expand_strides(shape, strides, new_shape, type_name="torch.FloatTensor"):
    """Strides that show ``shape`` as ``new_shape`` without copying: broadcast dims get stride 0.

    ``-1`` in ``new_shape`` keeps that size. New leading dims are allowed (also with stride 0).
    ``type_name`` only appears in the error for too few sizes, as PyTorch writes it.

    >>> expand_strides((3, 1), (1, 1), (3, 4))
    ((3, 4), (1, 0))
    >>> expand_strides((3,), (1,), (2, -1))
    ((2, 3), (0, 1))
    >>> expand_strides((3, 1), (1, 1), (1, 3, 4))     # a new size-1 dim: stride 3, as in PyTorch
    ((1, 3, 4), (3, 1, 0))
    """
    extra = len(new_shape) - len(shape)
    if extra < 0:
        raise RuntimeError(
            f"expand({type_name}{{{_fmt(shape)}}}, size={_fmt(new_shape)}): the number of sizes provided "
            f"({len(new_shape)}) must be greater or equal to the number of dimensions in the tensor "
            f"({len(shape)})")
    out_shape, out_strides = list(new_shape), [0] * len(new_shape)
    for i in range(len(new_shape) - 1, -1, -1):  # from the right, as PyTorch checks
        target = new_shape[i]
        if i < extra:
            if target < 0:
                raise RuntimeError(f"The expanded size of the tensor ({target}) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            # a new dim of size 1 gets the stride it would have in a contiguous layout of the dims
            # to its right (as PyTorch computes it); a stretched new dim reads the same memory: 0
            if target == 1 and i + 1 < len(new_shape):
                out_strides[i] = out_shape[i + 1] * out_strides[i + 1]
            continue
        size, stride = shape[i - extra], strides[i - extra]
        if target == -1:
            target = size
        if size == target:
            out_shape[i], out_strides[i] = size, stride
        elif size == 1 and target >= 0:
            out_shape[i] = target
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({target}) must match the existing size ({size}) at "
                f"non-singleton dimension {i}.  Target sizes: {_fmt(new_shape)}.  Tensor sizes: {_fmt(shape)}")
    return tuple(out_shape), tuple(out_strides)
# build: end
