"""The geometry of each view op: which (offset, shape, strides) slicing, indexing, unsqueeze, unfold,
diagonal, movedim and split produce. Pure functions on tuples of ints, like ``_layout.py`` (whose
basics they use); every view op in ``tensorlab/ops`` is one of these plus ``Tensor._make_view``.
See course/02_storage_and_strides.
"""
import operator

from ._layout import _fmt, normalize_dim


def slice_geometry(size, stride, s):
    """(offset change, new size, new stride) for slicing one dim of ``size`` with slice ``s``.

    Bounds are clamped like Python's; a step must be positive (PyTorch has no negative strides).

    >>> slice_geometry(10, 1, slice(2, 8, 3))    # elements 2 and 5
    (2, 2, 3)
    >>> slice_geometry(10, 1, slice(None, None, -1))
    Traceback (most recent call last):
    ValueError: step must be greater than zero
    """
    step = 1 if s.step is None else operator.index(s.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
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


def unfold_geometry(shape, strides, dim, size, step):
    """Sliding windows along ``dim``: that dim now counts windows, a new last dim walks inside one.

    Window ``w`` starts ``w * step`` elements along ``dim``, so the window dim's stride is
    ``step * stride[dim]``; the new dim steps one element, so its stride is ``stride[dim]``.
    Overlapping windows (step < size) read the same memory twice -- nothing is copied.
    See course/14_convolution (convolution as unfold + matmul).

    >>> unfold_geometry((7,), (1,), 0, 3, 2)     # windows [0:3], [2:5], [4:7]
    ((3, 3), (2, 1))
    """
    n = shape[dim] if shape else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {n} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if not shape:
        return (size,), (1,)
    windows = (n - size) // step + 1
    new_shape = shape[:dim] + (windows,) + shape[dim + 1:] + (size,)
    new_strides = strides[:dim] + (step * strides[dim],) + strides[dim + 1:] + (strides[dim],)
    return new_shape, new_strides


def diagonal_geometry(shape, strides, offset, dim1, dim2):
    """(offset change, shape, strides) of the diagonal of dims ``dim1`` and ``dim2``.

    Stepping along a diagonal moves one step in both dims at once, so its stride is the sum of
    the two strides. ``offset > 0`` starts above the main diagonal, ``offset < 0`` below it. The
    two dims are removed and the diagonal becomes the last dim.

    >>> diagonal_geometry((3, 4), (4, 1), 1, 0, 1)   # elements (0,1), (1,2), (2,3)
    (1, (3,), (5,))
    """
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if offset >= 0:
        length, delta = max(0, min(shape[dim1], shape[dim2] - offset)), offset * strides[dim2]
    else:
        length, delta = max(0, min(shape[dim1] + offset, shape[dim2])), -offset * strides[dim1]
    if length == 0:
        delta = 0
    keep = [d for d in range(len(shape)) if d not in (dim1, dim2)]
    new_shape = tuple(shape[d] for d in keep) + (length,)
    new_strides = tuple(strides[d] for d in keep) + (strides[dim1] + strides[dim2],)
    return delta, new_shape, new_strides


def movedim_order(ndim, source, destination):
    """The permutation that moves dims ``source`` to positions ``destination``; the other dims keep
    their order in the places left over.

    >>> movedim_order(4, (0,), (2,))    # dim 0 goes to position 2
    (1, 2, 0, 3)
    """
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({_fmt(source)} dims) "
                           f"should contain the same number of dims as destination ({_fmt(destination)} dims)")
    src = [normalize_dim(d, ndim) for d in source]
    dst = [normalize_dim(d, ndim) for d in destination]
    for name, dims, given in (("source", src, source), ("destination", dst, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({_fmt(given)})")
    order = [None] * ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(ndim) if d not in src)
    return tuple(o if o is not None else next(rest) for o in order)


def split_sizes(length, split_size):
    """Sizes of the pieces ``split(split_size)`` cuts a dim of ``length`` into (the last may be short).

    >>> split_sizes(5, 2), split_sizes(0, 2), split_sizes(5, 7)
    ([2, 2, 1], [0], [5])
    """
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
    if split_size == 0:
        if length != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size "
                               f"of {length}")
        return [0]
    pieces = max(1, -(-length // split_size))
    return [min(split_size, length - i * split_size) for i in range(pieces)]


def chunk_sizes(length, chunks):
    """Sizes of ``chunk(chunks)``: pieces of ``ceil(length / chunks)``, so there may be fewer pieces.

    >>> chunk_sizes(6, 4), chunk_sizes(5, 2), chunk_sizes(0, 3)
    ([2, 2, 2], [3, 2], [0, 0, 0])
    """
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if length == 0:
        return [0] * chunks
    return split_sizes(length, -(-length // chunks))


def basic_index(shape, strides, offset, index):
    """Apply ints, slices, None and Ellipsis to a layout: returns ``(offset, shape, strides)``.

    Every such index is a view -- nothing is copied: an int adds ``i * stride`` to the offset and
    drops the dim, a slice moves the offset to its start and multiplies the stride by its step,
    ``None`` inserts a size-1 dim. As in PyTorch, ``...`` stands for the dims nobody named (a second
    ``...`` gets whatever is left, usually nothing), and an error names the position in the index.

    >>> basic_index((4, 5), (5, 1), 0, (1, slice(None, None, 2)))
    (5, (3,), (2,))
    >>> basic_index((4, 5), (5, 1), 0, (None, Ellipsis, 2))
    (2, (1, 4), (20, 5))
    >>> basic_index((3,), (1,), 0, 5)
    Traceback (most recent call last):
    IndexError: index 5 is out of bounds for dimension 0 with size 3
    """
    items = index if isinstance(index, tuple) else (index,)
    ndim = len(shape)
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
    if ndim == 0 and any(i is not None and i is not Ellipsis and not isinstance(i, slice) for i in items):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if n_real > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    out_shape, out_strides, src = [], [], 0  # src: the next dim of the input to consume
    for pos, item in enumerate(items):
        if item is Ellipsis:
            take = min(ndim - n_real, ndim - src)
            out_shape.extend(shape[src:src + take])
            out_strides.extend(strides[src:src + take])
            src += take
        elif item is None:
            out_shape.append(1)
            out_strides.append(shape[src] * strides[src] if src < ndim else 1)
        elif src >= ndim:
            raise IndexError(f"too many indices for tensor of dimension {ndim}")
        elif isinstance(item, slice):
            delta, length, new_stride = slice_geometry(shape[src], strides[src], item)
            offset += delta
            out_shape.append(length)
            out_strides.append(new_stride)
            src += 1
        else:
            i, size = operator.index(item), shape[src]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {pos} with size {size}")
            offset += (i + size if i < 0 else i) * strides[src]
            src += 1
    return offset, tuple(out_shape) + tuple(shape[src:]), tuple(out_strides) + tuple(strides[src:])
