"""Pooling: summarise each window of an image by its max or its mean.

Same trick as convolution (see nn_conv.py): ``windows()`` is a strided *view* of every window, so
max pooling is one ``argmax`` over the kernel axes and average pooling one ``sum``. Backward sends
each output gradient back to the pixels of its window: for max, only to the winning pixel (a
scatter-add at the saved indices); for average, equally to every pixel (col2im).
Adaptive average pooling (windows chosen from the output size) is a product with a small averaging
matrix per spatial dim: see ``adaptive_matrix`` in nn_pad.py.
See course/14_convolution.
"""
import math

import numpy as np

from ..autograd.function import Function
from ._util import wrap, xp_of
from .nn_conv import col2im, crop, windows


def pool_output_size(size, kernel, stride, pad, dilation, ceil_mode):
    """PyTorch's pooling output length: with ``ceil_mode`` a last partial window is kept, but only if it
    starts inside the input (or its left padding)."""
    span = size + 2 * pad - dilation * (kernel - 1) - 1
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _padded_for(xp, a, pads_right_extra, pads, fill):
    """Pad the spatial dims by ``pads`` plus extra room on the right for ceil_mode windows."""
    widths = [(0, 0), (0, 0)] + [(p, p + e) for p, e in zip(pads, pads_right_extra)]
    if not any(lo or hi for lo, hi in widths):
        return a
    return xp.pad(a, widths, constant_values=fill)


def _geometry(shape, kernel, stride, padding, dilation, ceil_mode):
    """Output size, and extra right padding so every window (incl. ceil_mode's last) fits."""
    spatial = shape[2:]
    out = tuple(pool_output_size(s, k, st, p, d, ceil_mode)
                for s, k, st, p, d in zip(spatial, kernel, stride, padding, dilation))
    extra = tuple(max(0, (o - 1) * st + d * (k - 1) + 1 - (s + 2 * p))
                  for o, s, k, st, p, d in zip(out, spatial, kernel, stride, padding, dilation))
    return out, extra


def _batched(x, nd):
    """The input array with a batch dim (unbatched (C, *spatial) inputs get one of size 1)."""
    a = x._array if x.dim() == nd + 2 else x._array[None]
    return a, a.shape


# -- max pooling -----------------------------------------------------------------------------------


class MaxPoolNd(Function):
    """Max over each window. Returns (values, indices); each index is the flat position of the winner
    within its (unpadded) input plane, as PyTorch reports it."""

    @staticmethod
    def forward(ctx, x, kernel, stride, padding, dilation, ceil_mode):
        xp, nd = xp_of(x), len(kernel)
        a, shape = _batched(x, nd)
        out, extra = _geometry(shape, kernel, stride, padding, dilation, ceil_mode)
        fill = -np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).min
        win = windows(xp, _padded_for(xp, a, extra, padding, fill), kernel, stride, dilation, out)
        # one row per kernel position, (kernel_numel, N, C, *out): a copy, and each row is contiguous
        to_front = tuple(range(2 + nd, 2 + 2 * nd)) + tuple(range(2 + nd))
        rows = win.transpose(to_front).reshape((-1,) + win.shape[:2 + nd])
        values = rows.max(axis=0)                                       # a NaN wins, as in PyTorch
        is_max = rows == values
        if a.dtype.kind == "f" and bool(xp.isnan(values).any()):
            is_max |= rows != rows                                      # (rows != rows: the NaNs)
        winner = _first_true(xp, is_max)
        indices = _plane_index(xp, winner, shape[2:], out, kernel, stride, padding, dilation)
        ctx.indices, ctx.plane, ctx.unbatched = indices, shape[2:], x.dim() == nd + 1
        ctx.overlapping = any(st < d * (k - 1) + 1 for st, d, k in zip(stride, dilation, kernel))
        if ctx.unbatched:
            values, indices = values[0], indices[0]
        indices_t = wrap(indices, x.device)
        ctx.mark_non_differentiable(indices_t)
        return wrap(values, x.device), indices_t

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        if ctx.unbatched:
            gx = PlaneScatter.apply(grad.unsqueeze(0), ctx.indices, ctx.plane, ctx.overlapping).squeeze(0)
        else:
            gx = PlaneScatter.apply(grad, ctx.indices, ctx.plane, ctx.overlapping)
        return gx, None, None, None, None, None


class MaxPool1D(MaxPoolNd):
    node_name = "MaxPool1DWithIndicesBackward0"


class MaxPool2D(MaxPoolNd):
    node_name = "MaxPool2DWithIndicesBackward0"


class MaxPool3D(MaxPoolNd):
    node_name = "MaxPool3DWithIndicesBackward0"


MAX_POOL = {1: MaxPool1D, 2: MaxPool2D, 3: MaxPool3D}


def _first_true(xp, rows):
    """For each column of the bool ``rows``, the index of the first True row -- the number of rows
    before it, counted row by row. (The kernel is small; ``argmax`` over a short axis is what NumPy is
    slowest at.) A window's winner is its first maximum, as in PyTorch."""
    searching = ~rows[0]
    # ``first`` is at most len(rows) - 1: counted in bytes when it fits (8x fewer bytes to add up)
    first = searching.astype(xp.uint8 if len(rows) <= 256 else xp.int64)
    for row in rows[1:-1]:
        searching &= ~row
        first += searching
    return first


def _plane_index(xp, winner, plane, out, kernel, stride, padding, dilation):
    """Turn "k-th element of the window at output position o" into a flat index into the input plane.

    The index is linear in the position, so it is (where the window starts) + (where element k sits
    inside a window): a small table of window starts plus a table of kernel offsets, indexed by k.
    """
    nd = len(kernel)
    row_strides = [math.prod(plane[i + 1:]) for i in range(nd)]       # flat-index step of each spatial dim
    start = 0
    offsets = np.zeros(1, dtype=np.int64)
    for i in range(nd):
        starts_i = (np.arange(out[i]) * stride[i] - padding[i]) * row_strides[i]
        start = np.add.outer(start, starts_i) if i else starts_i
        offsets = np.add.outer(offsets, np.arange(kernel[i]) * dilation[i] * row_strides[i]).reshape(-1)
    return xp.asarray(start) + xp.take(xp.asarray(offsets), winner)


class PlaneScatter(Function):
    """Add ``values`` (N, C, *out) into zero planes (N, C, *plane) at flat plane ``indices``.

    When windows do not overlap, every index appears once and a plain assignment does; otherwise
    values that land on the same pixel must be summed (a ``bincount`` with weights).
    """

    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, values, indices, plane, overlapping=True):
        xp = xp_of(values)
        n, c = values._shape[:2]
        size = math.prod(plane)
        ctx.indices, ctx.plane, ctx.overlapping = indices, plane, overlapping
        offsets = (xp.arange(n * c) * size).reshape((n, c) + (1,) * (values.dim() - 2))
        flat = (indices + offsets).reshape(-1)           # indices into all N*C planes laid end to end
        if overlapping:
            out = xp.bincount(flat, weights=values._array.reshape(-1), minlength=n * c * size)
            out = out.astype(values._array.dtype)
        else:
            out = xp.zeros(n * c * size, dtype=values._array.dtype)
            out[flat] = values._array.reshape(-1)
        return wrap(out.reshape((n, c) + tuple(plane)), values.device)

    @staticmethod
    def backward(ctx, grad):
        return PlaneGather.apply(grad, ctx.indices, ctx.plane, ctx.overlapping), None, None, None


class PlaneGather(Function):
    """Read ``planes`` (N, C, *plane) at flat plane ``indices`` (N, C, *out)."""

    @staticmethod
    def forward(ctx, planes, indices, plane, overlapping=True):
        xp = xp_of(planes)
        n, c = planes._shape[:2]
        flat_planes = planes._array.reshape(n, c, -1)
        out = xp.take_along_axis(flat_planes, indices.reshape(n, c, -1), axis=2).reshape(indices.shape)
        ctx.indices, ctx.plane, ctx.overlapping = indices, plane, overlapping
        return wrap(out, planes.device)

    @staticmethod
    def backward(ctx, grad):
        return PlaneScatter.apply(grad, ctx.indices, ctx.plane, ctx.overlapping), None, None, None


# -- average pooling ------------------------------------------------------------------------------------


def _avg_divisor(xp, shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override, dtype):
    """How many elements each window averages over (an array broadcastable to the output)."""
    out, extra = _geometry(shape, kernel, stride, padding, (1,) * len(kernel), ceil_mode)
    if divisor_override:
        return np.asarray(divisor_override, dtype=dtype), out, extra
    spatial = shape[2:]
    if count_include_pad:   # every position inside the padded input counts, nothing beyond it
        ones = xp.ones((1, 1) + tuple(s + 2 * p for s, p in zip(spatial, padding)), dtype=dtype)
        ones = _padded_for(xp, ones, extra, (0,) * len(kernel), 0)
    else:                   # only real input positions count
        ones = _padded_for(xp, xp.ones((1, 1) + tuple(spatial), dtype=dtype), extra, padding, 0)
    counts = windows(xp, ones, kernel, stride, (1,) * len(kernel), out)
    return counts.sum(axis=tuple(range(2 + len(kernel), 2 + 2 * len(kernel)))), out, extra


class AvgPoolNd(Function):
    """Mean over each window (zero padding; ``count_include_pad`` decides whether pads count)."""

    @staticmethod
    def forward(ctx, x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
        xp, nd = xp_of(x), len(kernel)
        a, shape = _batched(x, nd)
        divisor, out, extra = _avg_divisor(xp, shape, kernel, stride, padding, ceil_mode, count_include_pad,
                                           divisor_override, a.dtype)
        win = windows(xp, _padded_for(xp, a, extra, padding, 0), kernel, stride, (1,) * nd, out)
        sums = win.sum(axis=tuple(range(2 + nd, 2 + 2 * nd)))
        ctx.args, ctx.unbatched = (shape, kernel, stride, padding, extra, divisor, out), x.dim() == nd + 1
        y = (sums / divisor).astype(a.dtype, copy=False)
        return wrap(y[0] if ctx.unbatched else y, x.device)

    @staticmethod
    def backward(ctx, grad):
        if ctx.unbatched:
            gx = AvgPoolGrad.apply(grad.unsqueeze(0), ctx.args).squeeze(0)
        else:
            gx = AvgPoolGrad.apply(grad, ctx.args)
        return gx, None, None, None, None, None, None


class AvgPoolGrad(Function):
    """Spread each output gradient evenly over its window (col2im of grad / divisor)."""

    @staticmethod
    def forward(ctx, grad, args):
        shape, kernel, stride, padding, extra, divisor, _ = args
        xp, nd = xp_of(grad), len(kernel)
        g = grad._array / divisor
        cols = xp.broadcast_to(g.reshape(g.shape[:2] + (1,) * nd + g.shape[2:]),
                               g.shape[:2] + tuple(kernel) + g.shape[2:])
        padded = shape[:2] + tuple(s + 2 * p + e for s, p, e in zip(shape[2:], padding, extra))
        full = col2im(xp, cols, padded, kernel, stride, (1,) * nd)
        ctx.args = args
        pads = [(p, p + e) for p, e in zip(padding, extra)]
        return wrap(xp.ascontiguousarray(crop(full, pads)).astype(grad._array.dtype, copy=False), grad.device)

    @staticmethod
    def backward(ctx, gg):
        return _AvgPoolWith.apply(gg, ctx.args), None


class _AvgPoolWith(Function):
    """Average pooling with a precomputed geometry (the double-backward of AvgPoolGrad)."""

    @staticmethod
    def forward(ctx, x, args):
        shape, kernel, stride, padding, extra, divisor, out = args
        xp, nd = xp_of(x), len(kernel)
        win = windows(xp, _padded_for(xp, x._array, extra, padding, 0), kernel, stride, (1,) * nd, out)
        ctx.args = args
        sums = win.sum(axis=tuple(range(2 + nd, 2 + 2 * nd)))
        return wrap((sums / divisor).astype(x._array.dtype, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        return AvgPoolGrad.apply(grad, ctx.args), None


class AvgPool1D(AvgPoolNd):
    node_name = "AvgPool1DBackward0"


class AvgPool2D(AvgPoolNd):
    node_name = "AvgPool2DBackward0"


class AvgPool3D(AvgPoolNd):
    node_name = "AvgPool3DBackward0"


AVG_POOL = {1: AvgPool1D, 2: AvgPool2D, 3: AvgPool3D}


__all__ = []
