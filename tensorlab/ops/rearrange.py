"""Rearranging elements in a copy: flip (reverse along dims), roll (shift cyclically) and the
triangles tril/triu (zero one side of a diagonal).

Each backward is the same rearrangement undone: flip the gradient back, roll it the other way, keep
the same triangle of it.
See course/04_ops_and_reductions.
"""
import operator

from .. import _layout
from ..autograd.function import Function
from ._util import method, wrap, xp_of
from .copying import _ints, c_contiguous, like_layout
from .inplace import apply_inplace


def _unique_dims(dims, ndim):
    out = tuple(_layout.normalize_dim(d, ndim) for d in dims)
    for d in out:
        if out.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return out


class Flip(Function):
    node_name = "FlipBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = _unique_dims(dims, x.dim())
        flipped = xp_of(x).flip(x._array, axis=ctx.dims) if x.dim() else x._array.copy()
        return wrap(like_layout(x, flipped), x.device)

    @staticmethod
    def backward(ctx, grad):
        return grad.flip(ctx.dims), None


@method()
def flip(input, *dims, **kwargs):
    """Reverse the order of elements along ``dims`` (a copy, unlike NumPy's view).

    ``flip(x, (0, 1))``, ``flip(x, dims=(0,))`` and ``x.flip(0, 1)`` all work, as in PyTorch.
    """
    if "dims" in kwargs:
        if dims:
            raise TypeError("flip() got multiple values for argument 'dims'")
        dims = (kwargs.pop("dims"),)
    if kwargs:
        raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return Flip.apply(input, _ints(dims))


@method()
def fliplr(input):
    """Flip left-right (dim 1)."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return Flip.apply(input, (1,))


@method()
def flipud(input):
    """Flip up-down (dim 0)."""
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return Flip.apply(input, (0,))


class Roll(Function):
    node_name = "RollBackward0"

    @staticmethod
    def forward(ctx, x, shifts, dims):
        if len(shifts) != len(dims) and not (dims == () and len(shifts) == 1):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        dims = tuple(_layout.normalize_dim(d, x.dim()) for d in dims)
        ctx.shifts, ctx.dims = shifts, dims
        xp = xp_of(x)
        if not dims:  # roll the flattened tensor, then restore the shape
            rolled = xp.roll(x._array.reshape(-1), shifts[0]).reshape(x._shape)
        else:
            rolled = xp.roll(x._array, shifts, axis=dims)
        return wrap(c_contiguous(xp, rolled), x.device)

    @staticmethod
    def backward(ctx, grad):
        back = tuple(-s for s in ctx.shifts)
        return grad.roll(back, ctx.dims or None), None, None


@method()
def roll(input, shifts, dims=None):
    """Shift elements along ``dims``; those that fall off one end come back at the other."""
    shifts = _ints((shifts,)) if isinstance(shifts, (tuple, list)) else (operator.index(shifts),)
    dims = () if dims is None else _ints((dims,)) if isinstance(dims, (tuple, list)) else (operator.index(dims),)
    return Roll.apply(input, shifts, dims)


# -- triangles -----------------------------------------------------------------------------------


def _triangle(x, diagonal, upper):
    """Zero the elements above (``tril``) or below (``triu``) diagonal ``diagonal`` of the last two dims."""
    name = "triu" if upper else "tril"
    if x.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    xp = xp_of(x)
    kept = (xp.triu if upper else xp.tril)(x._array, diagonal)
    return wrap(c_contiguous(xp, kept), x.device)


class Tril(Function):
    node_name = "TrilBackward0"

    @staticmethod
    def forward(ctx, x, diagonal):
        ctx.diagonal = diagonal
        return _triangle(x, diagonal, upper=False)

    @staticmethod
    def backward(ctx, grad):
        return grad.tril(ctx.diagonal), None


class Triu(Function):
    node_name = "TriuBackward0"

    @staticmethod
    def forward(ctx, x, diagonal):
        ctx.diagonal = diagonal
        return _triangle(x, diagonal, upper=True)

    @staticmethod
    def backward(ctx, grad):
        return grad.triu(ctx.diagonal), None


@method()
def tril(input, diagonal=0):
    """Keep the lower triangle (on and below diagonal ``diagonal``) of the last two dims; zero the rest."""
    return Tril.apply(input, operator.index(diagonal))


@method()
def triu(input, diagonal=0):
    """Keep the upper triangle (on and above diagonal ``diagonal``) of the last two dims; zero the rest."""
    return Triu.apply(input, operator.index(diagonal))


@method()
def tril_(self, diagonal=0):
    return apply_inplace(self, tril, diagonal)


@method()
def triu_(self, diagonal=0):
    return apply_inplace(self, triu, diagonal)


__all__ = ["flip", "fliplr", "flipud", "roll", "tril", "triu"]
