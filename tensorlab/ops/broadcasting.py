"""Broadcasting as functions: the common shape of several shapes (``broadcast_shapes``), tensors
expanded to it (``broadcast_tensors``, ``broadcast_to``) and coordinate grids (``meshgrid``). Every
result is an expanded *view* -- stride 0 along the stretched dims, no copy. The rule itself lives in
``_layout.broadcast_shapes``. See course/03_views_and_broadcasting.
"""
from .. import _layout
from ._util import method
from .shape import Expand, _dims


@method()
def broadcast_to(self, size):
    """``expand`` under NumPy's name: the view of ``self`` with shape ``size``, stretched dims stride 0."""
    return Expand.apply(self, _dims((size,)))


def broadcast_tensors(*tensors):
    """Views of every tensor expanded to their common broadcast shape (no copies).
    See course/03_views_and_broadcasting."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = _layout.broadcast_shapes(*(t._shape for t in tensors))
    return tuple(Expand.apply(t, shape) for t in tensors)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors: ``ij`` gives each grid the shape (len(t0), len(t1), ...);
    ``xy`` (Cartesian, as NumPy's default) swaps the first two. Every grid is an expanded view of its
    1-D tensor (stride 0 along the other dims), not a copy.

    >>> import tensorlab as torch
    >>> rows, cols = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
    >>> rows.tolist(), rows.stride()
    ([[0, 0], [1, 1], [2, 2]], (1, 0))
    """
    import warnings
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                      "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                               f"a {t.dim()}-D tensor of shape {tuple(t.shape)}")
    sizes = [t.numel() for t in tensors]
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, t in enumerate(tensors):
        axis = {0: 1, 1: 0}.get(i, i) if swap else i
        shape = [1] * len(tensors)
        shape[axis] = -1
        grids.append(Expand.apply(t.reshape(shape), tuple(sizes)))
    return tuple(grids)


def broadcast_shapes(*shapes):
    """The shape that tensors of ``shapes`` broadcast to, without making any tensor.

    >>> import tensorlab as torch
    >>> torch.broadcast_shapes((3, 1), (1, 5), 5)
    torch.Size([3, 5])
    """
    from ..tensor import Size
    dims = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    result = [1] * max((len(d) for d in dims), default=0)
    for k, shape in enumerate(dims):   # PyTorch's own wording: which argument, and what was expected
        for i in range(1, len(shape) + 1):
            size, have = shape[-i], result[-i]
            if size != have and size != 1 and have != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at -{i}! Mismatching argument at "
                    f"index {k} had {tuple(shape)}; but expected shape should "
                    f"be broadcastable to [{', '.join(map(str, result))}]")
            if size != 1:
                result[-i] = size
    return Size(result)


__all__ = ["broadcast_to", "broadcast_tensors", "broadcast_shapes", "meshgrid"]
