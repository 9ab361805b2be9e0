"""Ops that build a new tensor by copying elements into a new arrangement: join (cat, stack) and
repeat (repeat, repeat_interleave). Flip, roll and triangles live in ops/rearrange.py.

Unlike views (ops/shape.py) these copy: the result owns fresh memory. Their backward is the same
rearrangement run the other way: ``cat``'s gradient is sliced back into pieces, ``stack``'s is
unstacked, ``repeat``'s gradient sums the copies.
See course/03_views_and_broadcasting and course/04_ops_and_reductions.
"""
import operator

from .. import _dtype, _layout
from .._printing import get_printoptions, set_printoptions
from ..autograd.function import Function
from ._util import device_of, method, wrap, xp_of
from .index import slice_dim
from .. import tensor as _t


def _ints(args):
    """Accept ``f(0, 1)``, ``f((0, 1))`` and ``f([0, 1])``."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, _t.Size)):
        args = tuple(args[0])
    return tuple(operator.index(a) for a in args)


def _shape_str(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def is_dense(t):
    """True when the elements fill a block of memory with no gaps or overlaps (in any dim order)."""
    expected = 1
    for size, stride in sorted(zip(t._shape, t._stride), key=lambda p: p[1]):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


def c_contiguous(xp, array):
    """``array`` in row-major memory order (a copy if needed); 0-d arrays stay 0-d, unlike NumPy's
    ``ascontiguousarray``."""
    return xp.ascontiguousarray(array).reshape(array.shape)


def like_layout(x, array):
    """``array`` (shaped like ``x``) laid out in memory as ``x`` is, when ``x`` is dense.

    PyTorch's "preserve format": the result of ``flip`` or ``sort`` on a transposed tensor is
    itself transposed in memory. Gappy inputs give contiguous results.
    """
    xp = xp_of(x)
    if is_dense(x) and not x.is_contiguous():
        out = xp.empty_like(x._array, dtype=array.dtype, order="K")
        out[...] = array
        return out
    return c_contiguous(xp, array)


# -- joining: cat and stack ----------------------------------------------------------------------


def _skipped(t):
    """PyTorch's legacy rule: a 1-D empty tensor may be concatenated with anything (and is ignored)."""
    return t._shape == (0,)


def _check_cat(tensors, dim):
    """Validate ``cat`` inputs; return the normalised dim (or None when every input is skipped)."""
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    kept = [(i, t) for i, t in enumerate(tensors) if not _skipped(t)]
    if not kept:
        return None
    first = kept[0][1]
    d = _layout.normalize_dim(dim, first.dim())
    for i, t in kept[1:]:
        if t.dim() != first.dim():
            raise RuntimeError(f"Tensors must have same number of dimensions: got {first.dim()} and {t.dim()}")
        for k in range(first.dim()):
            if k != d and t._shape[k] != first._shape[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {first._shape[k]} "
                    f"but got size {t._shape[k]} for tensor number {i} in the list.")
    return d


class Cat(Function):
    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        d = _check_cat(tensors, dim)
        dtype = _dtype.result_type(*tensors)
        device = device_of(*tensors)
        ctx.dim = d
        if ctx._recorded:  # what backward needs to cut the gradient back into pieces
            ctx.pieces = [(t._shape, t.dtype, _skipped(t) and d is not None) for t in tensors]
        np_dtype = dtype.np
        arrays = [t._array if t._array.dtype is np_dtype else t._array.astype(np_dtype)
                  for t in tensors if d is None or not _skipped(t)]
        xp = xp_of(tensors[0])
        return wrap(xp.concatenate(arrays, axis=d or 0), device)

    @staticmethod
    def backward(ctx, grad):
        grads, start = [None], 0
        for shape, dtype, skipped in ctx.pieces:
            if skipped or 0 in grad._shape:  # nothing to slice: the gradient is empty
                grads.append(grad.new_zeros(shape, dtype=dtype))
                continue
            size = shape[ctx.dim or 0]
            piece = slice_dim(grad, ctx.dim or 0, start, start + size, 1)
            grads.append(piece if piece.dtype is dtype else piece.to(dtype))
            start += size
        return tuple(grads)


def _tensor_list(tensors):
    """The tensors of a ``cat``/``stack`` argument, each checked to be a tensor (PyTorch's TypeError)."""
    tensors = tuple(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, _t.Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {t.__class__.__name__}")
    return tensors


def cat(tensors, dim=0):
    """Join tensors along an existing dim; all other sizes must match. Dtypes are promoted."""
    tensors = _tensor_list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    result = Cat.apply(dim, *tensors)
    return result


concat = concatenate = cat


class Stack(Function):
    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        first = tensors[0]
        for i, t in enumerate(tensors):
            if t._shape != first._shape:
                raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                                   f"{_shape_str(first._shape)} at entry 0 and {_shape_str(t._shape)} at entry {i}")
        d = _layout.normalize_dim(dim, first.dim() + 1)
        dtype, device = _dtype.result_type(*tensors), device_of(*tensors)
        ctx.dim = d
        if ctx._recorded:  # backward gives each gradient its input's dtype back
            ctx.dtypes = [t.dtype for t in tensors]
        np_dtype = dtype.np
        arrays = [t._array if t._array.dtype is np_dtype else t._array.astype(np_dtype) for t in tensors]
        return wrap(xp_of(first).stack(arrays, axis=d), device)

    @staticmethod
    def backward(ctx, grad):
        parts = [grad.select(ctx.dim, i) for i in range(len(ctx.dtypes))]
        return (None,) + tuple(p if p.dtype is d else p.to(d) for p, d in zip(parts, ctx.dtypes))


def stack(tensors, dim=0):
    """Join equal-shaped tensors along a *new* dim ``dim``."""
    tensors = _tensor_list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return Stack.apply(dim, *tensors)


def _nonempty(name, tensors):
    tensors = _tensor_list(tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors):
    """Join horizontally: along dim 0 for 1-D tensors, else along dim 1."""
    tensors = [t.reshape(1) if t.dim() == 0 else t for t in _nonempty("hstack", tensors)]
    return cat(tensors, 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors):
    """Join vertically (along dim 0); 1-D tensors become rows first."""
    tensors = [_atleast_2d(t) for t in _nonempty("vstack", tensors)]
    return cat(tensors, 0)


row_stack = vstack


def dstack(tensors):
    """Join along the third dim (depth); smaller tensors get size-1 dims first."""
    def atleast_3d(t):
        if t.dim() == 0:
            return t.reshape(1, 1, 1)
        if t.dim() == 1:
            return t.reshape(1, -1, 1)
        return t.unsqueeze(-1) if t.dim() == 2 else t
    return cat([atleast_3d(t) for t in _nonempty("dstack", tensors)], 2)


def column_stack(tensors):
    """Join as columns: 0-D and 1-D tensors become columns, then everything joins along dim 1."""
    tensors = [t.reshape(-1, 1) if t.dim() <= 1 else t for t in _nonempty("column_stack", tensors)]
    return cat(tensors, 1)


def _atleast_2d(t):
    if t.dim() == 0:
        return t.reshape(1, 1)
    return t.unsqueeze(0) if t.dim() == 1 else t


# -- repeating -----------------------------------------------------------------------------------


class Repeat(Function):
    node_name = "RepeatBackward0"

    @staticmethod
    def forward(ctx, x, repeats):
        if len(repeats) < x.dim():
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                               "dimensions of tensor")
        padded = (1,) * (len(repeats) - x.dim()) + x._shape
        out_shape = tuple(s * r for s, r in zip(padded, repeats))
        if any(n < 0 for n in out_shape):
            bad = next(n for n in out_shape if n < 0)
            raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {_shape_str(out_shape)}")
        ctx.in_shape, ctx.padded, ctx.repeats = x._shape, padded, repeats
        xp = xp_of(x)
        return wrap(c_contiguous(xp, xp.tile(x._array.reshape(padded), repeats)), x.device)

    @staticmethod
    def backward(ctx, grad):
        # view the result as (r0, s0, r1, s1, ...) and add up the r-copies of each element
        split = tuple(n for pair in zip(ctx.repeats, ctx.padded) for n in pair)
        summed = grad.reshape(split).sum(tuple(range(0, len(split), 2)))
        return summed.reshape(ctx.in_shape), None


@method()
def repeat(self, *sizes):
    """Tile the tensor: ``repeat(2, 3)`` stacks 2 copies along dim 0 and 3 along dim 1 (copies data)."""
    return Repeat.apply(self, _ints(sizes))


@method()
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeat each element (or slice along ``dim``) in place: ``[1, 2] -> [1, 1, 2, 2]``.

    ``repeats`` is an int or a tensor with one count per element. Without ``dim`` the input is
    flattened first. ``repeat_interleave(counts)`` alone gives the indices ``[0]*c0 + [1]*c1 + ...``.
    """
    if repeats is None:
        return _index_repeats(input)
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else _layout.normalize_dim(dim, x.dim())
    if isinstance(repeats, _t.Tensor) and repeats.dim() > 0:
        if repeats.dim() != 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if repeats._shape[0] not in (1, x._shape[d]):
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{repeats._shape[0]} and input.size({d}) = {x._shape[d]}")
        if repeats._shape[0] == 1 and x._shape[d] != 1:
            repeats = repeats.expand(x._shape[d])
        return x.index_select(d, _index_repeats(repeats))
    if isinstance(repeats, _t.Tensor):
        return x.index_select(d, _index_repeats(repeats.expand(x._shape[d] if x.dim() else 1)))
    count = operator.index(repeats)
    if count < 0:
        raise RuntimeError("Repeats must be non-negative")
    if x.dim() == 0:
        x = x.reshape(1)
    # each slice gets a new neighbouring dim of size ``count``; a contiguous copy merges the two
    shape = x._shape[:d + 1] + (count,) + x._shape[d + 1:]
    from .shape import Clone
    copied = Clone.apply(x.unsqueeze(d + 1).expand(shape), True)
    return copied.flatten(d, d + 1)


def _index_repeats(repeats):
    """``[0]*r0 + [1]*r1 + ...``: the positions each copy reads from."""
    if repeats.dim() > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if repeats.dtype.is_floating_point or repeats.dtype is _dtype.bool:
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{repeats.dtype._legacy[:-6]}'")
    xp = xp_of(repeats)
    counts = repeats._array.reshape(-1)
    if counts.size and int(counts.min()) < 0:
        raise RuntimeError("repeats can not be negative")
    index = xp.repeat(xp.arange(counts.size, dtype=repeats.dtype.np), counts)
    return wrap(index, repeats.device)


__all__ = ["cat", "concat", "concatenate", "stack", "hstack", "vstack", "row_stack", "dstack", "column_stack",
           "repeat_interleave",
           "set_printoptions", "get_printoptions"]
