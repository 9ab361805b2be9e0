"""The arithmetic of strided memory: pure functions on shapes and strides, no arrays.

A tensor is a window onto a flat storage. Element ``(i0, i1, ..., ik)`` lives at position
``offset + i0*stride[0] + i1*stride[1] + ... + ik*stride[k]``. Every view op (transpose, slicing,
expand, view, ...) only computes a new ``(offset, shape, strides)`` -- the functions below.
See course/02_storage_and_strides and course/03_views_and_broadcasting.
"""
import math
import operator


def numel(shape):
    """Number of elements: the product of the sizes (1 for a 0-d shape).

    >>> numel((2, 3, 4)), numel(())
    (24, 1)
    """
    return math.prod(shape)


def contiguous_strides(shape):
    """Row-major strides: the last dim moves fastest, each stride is the product of the sizes after it.

    >>> contiguous_strides((2, 3, 4))
    (12, 4, 1)
    """
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


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


def memory_position(index, strides, offset=0):
    """Where element ``index`` sits in storage.

    >>> memory_position((1, 2), (3, 1))  # row 1, column 2 of a contiguous 2x3
    5
    """
    return offset + sum(i * s for i, s in zip(index, strides))


def normalize_dim(dim, ndim):
    """Turn a possibly negative dim into 0..ndim-1, raising PyTorch's IndexError when out of range.

    >>> normalize_dim(-1, 3)
    2
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
    """
    shape = tuple(operator.index(s) for s in shape)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    bad = any(s < -1 for s in shape)
    if unknown and not bad and known != 0 and total % known == 0:
        i = unknown[0]
        return shape[:i] + (total // known,) + shape[i + 1:]
    if not unknown and not bad and known == total:
        return shape
    raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {total}")


def view_strides(old_shape, old_strides, new_shape):
    """Strides that let ``new_shape`` read the same memory, or None when no view can (PyTorch's rule).

    A view works when every group of old dims that the new shape splits or merges is itself
    contiguous *within the group*. So a transposed matrix cannot be flattened, but a tensor that is
    non-contiguous only between groups can still be reshaped inside them.

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
        return tuple(old_strides) if tuple(old_shape) == tuple(new_shape) else contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1]
    tensor_numel = view_numel = 1
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


def broadcast_shapes(*shapes):
    """The shape two or more shapes broadcast to: align on the right, sizes must match or be 1.

    >>> broadcast_shapes((3, 1), (4,))
    (3, 4)
    """
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        for i, size in enumerate(shape, start=ndim - len(shape)):
            if size == result[i] or size == 1:
                continue
            if result[i] != 1:
                raise RuntimeError(
                    f"The size of tensor a ({result[i]}) must match the size of tensor b ({size}) at "
                    f"non-singleton dimension {i}")
            result[i] = size
    return tuple(result)


def expand_strides(shape, strides, new_shape):
    """Strides that show ``shape`` as ``new_shape`` without copying: broadcast dims get stride 0.

    ``-1`` in ``new_shape`` keeps that size. New leading dims are allowed.

    >>> expand_strides((3, 1), (1, 1), (3, 4))
    ((3, 4), (1, 0))
    """
    extra = len(new_shape) - len(shape)
    if extra < 0:
        raise RuntimeError(
            f"expand(torch.FloatTensor{{[{', '.join(map(str, shape))}]}}, size=[{', '.join(map(str, new_shape))}]):"
            " the number of sizes provided ({}) must be greater or equal to the number of dimensions in "
            "the tensor ({})".format(len(new_shape), len(shape)))
    out_shape, out_strides = [], []
    for i, target in enumerate(new_shape):
        if i < extra:
            if target < 0:
                raise RuntimeError(
                    f"The expanded size of the tensor ({target}) isn't allowed in a leading, "
                    "non-existing dimension 0")
            out_shape.append(target)
            out_strides.append(0)
            continue
        size, stride = shape[i - extra], strides[i - extra]
        if target == -1:
            target = size
        if size == target:
            out_shape.append(size)
            out_strides.append(stride)
        elif size == 1:
            out_shape.append(target)
            out_strides.append(0)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({target}) must match the existing size ({size}) at "
                f"non-singleton dimension {i}.  Target sizes: [{', '.join(map(str, new_shape))}].  "
                f"Tensor sizes: [{', '.join(map(str, shape))}]")
    return tuple(out_shape), tuple(out_strides)


def slice_geometry(size, stride, s):
    """(offset change, new size, new stride) for slicing one dim of ``size`` with slice ``s``.

    Bounds are clamped like Python's; a step must be positive (PyTorch has no negative strides).

    >>> slice_geometry(10, 1, slice(2, 8, 3))
    (2, 2, 3)
    """
    step = 1 if s.step is None else operator.index(s.step)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start, stop, _ = slice(s.start, s.stop).indices(size)
    length = max(0, (stop - start + step - 1) // step)
    return start * stride, length, stride * step


def unsqueeze_geometry(shape, strides, dim):
    """Insert a size-1 dim at ``dim``; its stride is chosen as PyTorch does (never read anyway).

    >>> unsqueeze_geometry((2, 3), (3, 1), 1)
    ((2, 1, 3), (3, 3, 1))
    """
    stride = 1 if dim >= len(shape) else shape[dim] * strides[dim]
    return shape[:dim] + (1,) + shape[dim:], strides[:dim] + (stride,) + strides[dim:]


def basic_index(shape, strides, offset, index):
    """Apply ints, slices, None and Ellipsis to a layout: returns ``(offset, shape, strides)``.

    Every such index is a view -- nothing is copied.

    >>> basic_index((4, 5), (5, 1), 0, (1, slice(None, None, 2)))
    (5, (3,), (2,))
    >>> basic_index((4, 5), (5, 1), 0, (None, Ellipsis, 2))
    (2, (1, 4), (20, 5))
    """
    index = index if isinstance(index, tuple) else (index,)
    n_real = sum(1 for i in index if i is not None and i is not Ellipsis)
    ellipses = [k for k, i in enumerate(index) if i is Ellipsis]
    if len(ellipses) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    if ellipses:
        pos = ellipses[0]
        index = index[:pos] + (slice(None),) * (len(shape) - n_real) + index[pos + 1:]
    else:
        index = index + (slice(None),) * (len(shape) - n_real)
    out_shape, out_strides, dim = [], [], 0
    for item in index:
        if item is None:
            stride = shape[dim] * strides[dim] if dim < len(shape) else 1
            out_shape.append(1)
            out_strides.append(stride)
            continue
        size, stride = shape[dim], strides[dim]
        if isinstance(item, slice):
            delta, length, new_stride = slice_geometry(size, stride, item)
            offset += delta
            out_shape.append(length)
            out_strides.append(new_stride)
        else:
            i = operator.index(item)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
            offset += (i + size if i < 0 else i) * stride
        dim += 1
    return offset, tuple(out_shape), tuple(out_strides)
