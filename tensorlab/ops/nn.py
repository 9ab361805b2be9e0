"""Neural-network kernels, part 1: shared helpers, dropout, embedding, one_hot.

The nn kernels are ordinary autograd Functions, like ``mul`` or ``sum``: ``forward`` computes on arrays,
``backward`` is written with tensor ops (so ``create_graph=True`` works). They are split by family:
nn_activation (relu, softmax...), nn_conv (convolution), nn_pool (pooling), nn_norm (batch/layer/group
norm), nn_loss (losses), nn_pad (pad, interpolate). ``tensorlab.nn.functional`` is the public face.
See course/13_layers_and_losses.
"""
from .. import _dtype
from ..autograd.function import Function
from ._util import wrap, xp_of
from .. import tensor as _t


# -- helpers shared by the nn kernels ------------------------------------------------------------


def constant_like(array, like):
    """A tensor (no history) holding ``array`` in ``like``'s dtype and device -- e.g. a 0/1 mask that a
    backward formula multiplies by."""
    return wrap(array.astype(like._array.dtype, copy=False), like.device)


def attach_missing(namespace, names):
    """Attach ``names`` as Tensor methods unless another op family already defined them; return the
    names this module should export (those it really provides)."""
    exported = []
    for name in names:
        if not hasattr(_t.Tensor, name):
            setattr(_t.Tensor, name, namespace[name])
            exported.append(name)
    return exported


def put_along_axis(xp, array, indices, values, axis):
    """``array[..., indices, ...] = values`` along ``axis`` (NumPy's put_along_axis, spelled out with
    broadcast aranges where the array library lacks it)."""
    if hasattr(xp, "put_along_axis"):
        xp.put_along_axis(array, indices, values, axis=axis)
        return
    index = [xp.arange(n).reshape([-1 if i == d else 1 for i in range(array.ndim)])
             for d, n in enumerate(indices.shape)]
    index[axis] = indices
    array[tuple(index)] = values


def add_at_rows(xp, out, rows, values):
    """``out[rows[i]] += values[i]`` with repeated rows accumulating (``np.add.at``)."""
    if xp.__name__ == "numpy":
        xp.add.at(out, rows, values)
    else:
        import cupyx
        cupyx.scatter_add(out, rows, values)


def float_input(x, op):
    """Floating point kernels refuse integer tensors, as PyTorch does (``"op" not implemented for 'Long'``)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError(f'"{op}" not implemented for \'{x.dtype._legacy[:-len("Tensor")]}\'')


# -- dropout -------------------------------------------------------------------------------------------


def dropout_mask(x, p, generator=None):
    """Keep each element with probability 1-p, scaled by 1/(1-p) so the expected value is unchanged."""
    from .creation import _rng
    keep = _rng(generator).random(x._shape) >= p
    xp = xp_of(x)
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    mask = xp.asarray(keep.astype(x._array.dtype) * x._array.dtype.type(scale))
    return wrap(mask, x.device)


def dropout(input, p=0.5, train=True):
    """``torch.dropout``: zero elements at random with probability ``p`` (training only)."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not train or p == 0:
        return input
    return input * dropout_mask(input, p)   # PyTorch's graph shows MulBackward0 here too


# -- embedding -------------------------------------------------------------------------------------------


class Embedding(Function):
    """``weight[indices]``: row lookup. Backward adds each output row's gradient into its weight row
    (rows looked up twice get both gradients; the padding row gets none)."""

    node_name = "EmbeddingBackward0"

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq):
        if indices.dtype not in (_dtype.int64, _dtype.int32):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                               f"types: Long, Int; but got torch.{indices.dtype._legacy} instead (while checking "
                               "arguments for embedding)")
        idx = indices._array
        n = weight._shape[0]
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
            raise IndexError("index out of range in self")
        ctx.indices, ctx.num_weights, ctx.padding_idx = indices, n, padding_idx
        ctx.scale_grad_by_freq = scale_grad_by_freq
        return wrap(weight._array[idx], weight.device)

    @staticmethod
    def backward(ctx, grad):
        return EmbeddingDenseBackward.apply(grad, ctx.indices, ctx.num_weights, ctx.padding_idx,
                                            ctx.scale_grad_by_freq), None, None, None


class EmbeddingDenseBackward(Function):
    """Scatter-add rows of ``grad`` into a (num_weights, dim) zero matrix; its backward is a lookup."""

    node_name = "EmbeddingDenseBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, indices, num_weights, padding_idx, scale_grad_by_freq):
        xp = xp_of(grad)
        idx = indices._array.reshape(-1)
        rows = grad._array.reshape(idx.size, -1)
        dim = rows.shape[1]
        if scale_grad_by_freq:
            counts = xp.bincount(idx, minlength=num_weights)
            rows = rows / counts[idx][:, None].astype(rows.dtype)
        if padding_idx is not None:
            rows = rows * (idx != padding_idx)[:, None].astype(rows.dtype)
        # one bincount per column would loop; instead scatter with flat positions row*dim + col
        flat = (idx[:, None] * dim + xp.arange(dim)[None, :]).reshape(-1)
        out = xp.bincount(flat, weights=rows.reshape(-1), minlength=num_weights * dim)
        ctx.indices, ctx.padding_idx = indices, padding_idx
        return wrap(out.reshape(num_weights, dim).astype(grad._array.dtype), grad.device)

    @staticmethod
    def backward(ctx, gg):
        out = Embedding.apply(gg, ctx.indices, None, False)
        if ctx.padding_idx is not None:
            out = out * constant_like((ctx.indices._array != ctx.padding_idx)[..., None], out)
        return out, None, None, None, None


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Look up rows of ``weight`` at the integer positions in ``input``."""
    if padding_idx is not None:
        padding_idx = padding_idx + weight._shape[0] if padding_idx < 0 else padding_idx
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    return Embedding.apply(weight, input, padding_idx, scale_grad_by_freq)


def _renorm_rows(weight, indices, max_norm, norm_type):
    """``max_norm``: rescale (in place, untracked) the looked-up rows whose norm exceeds it."""
    xp = xp_of(weight)
    rows = xp.unique(indices._array.reshape(-1))
    if rows.size and (int(rows[0]) < 0 or int(rows[-1]) >= weight._shape[0]):
        raise IndexError("index out of range in self")     # before anything is rescaled
    w = weight._array
    norms = xp.sum(xp.abs(w[rows]) ** norm_type, axis=1) ** (1.0 / norm_type)
    scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    w[rows] = w[rows] * scale[:, None].astype(w.dtype)
    weight._bump_version()


# -- one_hot ---------------------------------------------------------------------------------------------


def one_hot(tensor, num_classes=-1):
    """``(..., )`` int64 class indices -> ``(..., num_classes)`` int64 rows of zeros with a single 1."""
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    xp = xp_of(tensor)
    idx = tensor._array
    if num_classes == -1:
        if idx.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(idx.max()) + 1
    if idx.size and int(idx.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if idx.size and int(idx.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = (idx[..., None] == xp.arange(num_classes)).astype(xp.int64)
    return wrap(out, tensor.device)


__all__ = ["dropout"]
