"""Padding and resizing: ops that move pixels around without learning anything.

Two reusable ideas cover all of them:
* **index maps** -- output position j along a dim reads input position ``src[j]``. Reflect, replicate
  and circular padding, and nearest-neighbour resizing, are all just a choice of ``src``. Forward is a
  gather (``take``) per dim; backward scatter-adds the gradient back to the sources.
* **separable matrices** -- output = input multiplied, along each spatial dim, by a small (out, in)
  matrix. Linear/bilinear resizing (two non-zeros per row) and adaptive average pooling (one averaging
  window per row) are this. Backward multiplies by the transposed matrices.
Constant padding is its own inverse: padding by ``-p`` crops what padding by ``p`` added.
See course/14_convolution.
"""
import numpy as np

from ..autograd.function import Function
from ._util import wrap, xp_of
from .nn import add_at_rows


# -- constant padding --------------------------------------------------------------------------------


class ConstantPadNd(Function):
    """Pad (positive amounts) or crop (negative amounts) the last dims. ``pads`` lists (before, after)
    pairs from the first padded dim to the last."""

    node_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, x, pads, value):
        xp, a = xp_of(x), x._array
        lead = a.ndim - len(pads)
        crop = (slice(None),) * lead + tuple(slice(max(-lo, 0), a.shape[lead + i] - max(-hi, 0))
                                             for i, (lo, hi) in enumerate(pads))
        a = a[crop]
        widths = [(0, 0)] * lead + [(max(lo, 0), max(hi, 0)) for lo, hi in pads]
        out = xp.pad(a, widths, constant_values=value) if any(w != (0, 0) for w in widths) else a.copy()
        ctx.pads = pads
        return wrap(out, x.device)

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, tuple((-lo, -hi) for lo, hi in ctx.pads), 0), None, None


# -- index maps ----------------------------------------------------------------------------------------


def pad_source_index(size, lo, hi, mode):
    """For each output position of a dim padded by (lo, hi), the input position it copies."""
    j = np.arange(-lo, size + hi)
    if mode == "reflect":
        j = np.abs(j)
        return np.where(j > size - 1, 2 * (size - 1) - j, j)
    if mode == "replicate":
        return np.clip(j, 0, size - 1)
    return j % size          # circular


def nearest_source_index(in_size, out_size, scale):
    """Nearest-neighbour resizing: output j reads input floor(j * scale)."""
    return np.minimum(np.floor(np.arange(out_size) * scale).astype(np.int64), in_size - 1)


class IndexMapDims(Function):
    """Gather along the last ``len(maps)`` dims: ``out[..., j, ...] = x[..., maps[i][j], ...]``."""

    @staticmethod
    def forward(ctx, x, maps):
        xp, a = xp_of(x), x._array
        lead = a.ndim - len(maps)
        for i, src in enumerate(maps):
            a = xp.take(a, xp.asarray(src), axis=lead + i)
        ctx.maps, ctx.in_shape = maps, x._shape
        return wrap(a, x.device)

    @staticmethod
    def backward(ctx, grad):
        return IndexMapDimsGrad.apply(grad, ctx.maps, ctx.in_shape), None


class IndexMapDimsGrad(Function):
    """Scatter-add back to the sources, dim by dim (the adjoint of the gather)."""

    @staticmethod
    def forward(ctx, grad, maps, in_shape):
        xp, g = xp_of(grad), grad._array
        lead = g.ndim - len(maps)
        for i in reversed(range(len(maps))):
            axis = lead + i
            moved = xp.moveaxis(g, axis, 0)
            out = xp.zeros((in_shape[axis],) + moved.shape[1:], dtype=g.dtype)
            add_at_rows(xp, out, xp.asarray(maps[i]), moved)
            g = xp.moveaxis(out, 0, axis)
        ctx.maps = maps
        return wrap(xp.ascontiguousarray(g), grad.device)

    @staticmethod
    def backward(ctx, gg):
        return IndexMapDims.apply(gg, ctx.maps), None, None


class ReflectionPad1D(IndexMapDims):
    node_name = "ReflectionPad1DBackward0"


class ReflectionPad2D(IndexMapDims):
    node_name = "ReflectionPad2DBackward0"


class ReflectionPad3D(IndexMapDims):
    node_name = "ReflectionPad3DBackward0"


class ReplicationPad1D(IndexMapDims):
    node_name = "ReplicationPad1DBackward0"


class ReplicationPad2D(IndexMapDims):
    node_name = "ReplicationPad2DBackward0"


class ReplicationPad3D(IndexMapDims):
    node_name = "ReplicationPad3DBackward0"


class CircularPad(IndexMapDims):
    node_name = "CircularPadBackward0"


class UpsampleNearest1D(IndexMapDims):
    node_name = "UpsampleNearest1DBackward0"


class UpsampleNearest2D(IndexMapDims):
    node_name = "UpsampleNearest2DBackward0"


class UpsampleNearest3D(IndexMapDims):
    node_name = "UpsampleNearest3DBackward0"


PAD_BY_MODE = {("reflect", 1): ReflectionPad1D, ("reflect", 2): ReflectionPad2D, ("reflect", 3): ReflectionPad3D,
               ("replicate", 1): ReplicationPad1D, ("replicate", 2): ReplicationPad2D,
               ("replicate", 3): ReplicationPad3D}
NEAREST = {1: UpsampleNearest1D, 2: UpsampleNearest2D, 3: UpsampleNearest3D}


# -- separable matrices ----------------------------------------------------------------------------


def apply_matrices(xp, a, mats):
    """Multiply the last ``len(mats)`` dims of ``a`` by ``mats[i]`` (each (out, in))."""
    lead = a.ndim - len(mats)
    for i, m in enumerate(mats):
        a = xp.moveaxis(xp.tensordot(a, m, axes=([lead + i], [1])), -1, lead + i)
    return xp.ascontiguousarray(a)


class MatrixDims(Function):
    """Multiply each of the last dims by a fixed matrix: a linear map with a transposed adjoint."""

    @staticmethod
    def forward(ctx, x, mats):
        xp = xp_of(x)
        mats = [xp.asarray(m, dtype=x._array.dtype) for m in mats]
        ctx.mats = mats
        return wrap(apply_matrices(xp, x._array, mats), x.device)

    @staticmethod
    def backward(ctx, grad):
        return MatrixDims.apply(grad, [m.T for m in ctx.mats]), None


def linear_matrix(in_size, out_size, align_corners, scale=None):
    """(out, in) linear interpolation weights, with PyTorch's source-coordinate convention."""
    j = np.arange(out_size, dtype=np.float64)
    if align_corners:
        src = j * ((in_size - 1) / (out_size - 1)) if out_size > 1 else np.zeros_like(j)
    else:
        s = scale if scale is not None else in_size / out_size
        src = np.maximum((j + 0.5) * s - 0.5, 0)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    i1 = np.minimum(i0 + 1, in_size - 1)
    frac = src - i0
    m = np.zeros((out_size, in_size))
    np.add.at(m, (np.arange(out_size), i0), 1 - frac)
    np.add.at(m, (np.arange(out_size), i1), frac)
    return m


def adaptive_matrix(in_size, out_size):
    """(out, in) averaging matrix: row i averages input positions floor(i*in/out) .. ceil((i+1)*in/out)."""
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        start, end = (i * in_size) // out_size, -(-((i + 1) * in_size) // out_size)
        m[i, start:end] = 1.0 / (end - start)
    return m


class UpsampleLinear1D(MatrixDims):
    node_name = "UpsampleLinear1DBackward0"


class UpsampleBilinear2D(MatrixDims):
    node_name = "UpsampleBilinear2DBackward0"


class UpsampleTrilinear3D(MatrixDims):
    node_name = "UpsampleTrilinear3DBackward0"


class AdaptiveAvgPool1D(MatrixDims):
    node_name = "AdaptiveAvgPool1DBackward0"


class AdaptiveAvgPool2D(MatrixDims):
    node_name = "AdaptiveAvgPool2DBackward0"


class AdaptiveAvgPool3D(MatrixDims):
    node_name = "AdaptiveAvgPool3DBackward0"


LINEAR = {1: UpsampleLinear1D, 2: UpsampleBilinear2D, 3: UpsampleTrilinear3D}
ADAPTIVE_AVG_POOL = {1: AdaptiveAvgPool1D, 2: AdaptiveAvgPool2D, 3: AdaptiveAvgPool3D}

__all__ = []
