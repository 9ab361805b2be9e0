"""Convolution as one matrix product: the im2col trick, built from a strided view.

A 2-d convolution slides a (C, kh, kw) kernel over the (zero-padded) input. Written as loops it is
six nested for-loops. The trick: ``as_strided`` gives, *without copying*, a view
``windows[n, c, i, j, ki, kj] = x[n, c, i*stride + ki*dilation, j*stride + kj*dilation]`` -- every
window the kernel will visit. Copied into columns ("im2col", what ``F.unfold`` returns: for each
sample a (C*kh*kw, out_pixels) matrix, one column per output pixel), the whole convolution is one
matrix product per sample with the flattened (C_out, C*kh*kw) weight.

Backward is two more matrix products:
* weight gradient  = grad_output @ columns^T, summed over the batch      (``ConvWeightGrad``)
* input gradient   = weight^T @ grad_output, then "col2im": add each column entry back onto the
  pixel it was read from (a loop over the kh*kw kernel *positions*, never over pixels).
The input gradient of a convolution is a *transposed* convolution, and vice versa, so one Function
with a ``transposed`` flag (PyTorch's ``aten::convolution``) covers both directions -- and double
backward comes for free. Groups split channels into independent convolutions (a batch of matmuls).
See course/14_convolution.
"""
import math

import numpy as np

from ..autograd.function import Function
from ._util import wrap, xp_of


# -- array helpers: windows, im2col, col2im --------------------------------------------------------


def pad_array(xp, a, pads):
    """Zero-pad the spatial dims (all but the first two) by ``pads``: one (before, after) per dim."""
    if not any(lo or hi for lo, hi in pads):
        return a
    return xp.pad(a, [(0, 0), (0, 0)] + [tuple(p) for p in pads])


# build: stage 8
def windows(xp, a, kernel, stride, dilation, out_size=None):
    """The view ``(N, C, *out, *kernel)`` of every kernel window over ``a`` -- no copy.

    ``xp`` is the array module (NumPy on the CPU); ``a`` an array (N, C, *spatial), already padded;
    ``kernel``, ``stride``, ``dilation`` one int per spatial dim. Along a spatial dim of size ``s``
    a window spans ``dilation * (kernel - 1) + 1`` positions, so it fits
    ``(s - dilation * (kernel - 1) - 1) // stride + 1`` times (``out_size``, when given, says how
    many to take). Its strides (``a.strides`` are in bytes): moving one output position jumps
    ``stride`` input positions, moving one kernel position jumps ``dilation`` input positions.
    ``xp.lib.stride_tricks.as_strided(a, shape, strides)`` makes the view.

    >>> a = np.arange(16.0).reshape(1, 1, 4, 4)
    >>> w = windows(np, a, (2, 2), (2, 2), (1, 1))
    >>> w.shape
    (1, 1, 2, 2, 2, 2)
    >>> w[0, 0, 1, 0].tolist()           # output position (1, 0): rows 2-3, columns 0-1
    [[8.0, 9.0], [12.0, 13.0]]
    """
    spatial = a.shape[2:]
    out = out_size or tuple((s - d * (k - 1) - 1) // st + 1
                            for s, k, st, d in zip(spatial, kernel, stride, dilation))
    item_strides = a.strides[2:]
    shape = a.shape[:2] + tuple(out) + tuple(kernel)
    strides = (a.strides[:2] + tuple(s * st for s, st in zip(item_strides, stride))
               + tuple(s * d for s, d in zip(item_strides, dilation)))
    return xp.lib.stride_tricks.as_strided(a, shape, strides)
# build: end


def im2col(xp, a, kernel, stride, dilation, groups, out_size=None):
    """Windows copied into columns ``(N, groups, C/groups * kernel_numel, out_pixels)``: for each
    sample (and group), column p holds everything output pixel p reads."""
    win = windows(xp, a, kernel, stride, dilation, out_size)
    n, c, nd = a.shape[0], a.shape[1], len(kernel)
    out = win.shape[2:2 + nd]
    order = (0, 1) + tuple(range(2 + nd, 2 + 2 * nd)) + tuple(range(2, 2 + nd))   # (N, C, *kernel, *out)
    cols = win.transpose(order).reshape(n, groups, (c // groups) * math.prod(kernel), math.prod(out))
    return cols, out


# build: stage 8
def col2im(xp, cols, padded_shape, kernel, stride, dilation):
    """Inverse of the windows view: add ``cols`` (N, C, *kernel, *out) onto an (N, C, *padded) zero
    array, each value at the pixel its window read it from. One slice-add per kernel position.

    This is the backward of reading windows: a pixel that several windows read gets the SUM of
    what they send back. For kernel position ``pos``, the values ``cols[:, :, *pos]`` (one per
    output position) belong at input positions ``pos * dilation + out_index * stride`` -- a strided
    slice of the result, to which they are added (``+=``: windows overlap when stride < kernel).

    >>> cols = np.ones((1, 1, 2, 3))                 # kernel 2, three output positions, stride 1
    >>> col2im(np, cols, (1, 1, 4), (2,), (1,), (1,)).tolist()
    [[[1.0, 2.0, 2.0, 1.0]]]
    """
    nd = len(kernel)
    out = cols.shape[2 + nd:]
    result = xp.zeros(padded_shape, dtype=cols.dtype)
    for pos in np.ndindex(*kernel):
        region = tuple(slice(p * d, p * d + st * (o - 1) + 1, st)
                       for p, d, st, o in zip(pos, dilation, stride, out))
        result[(slice(None), slice(None)) + region] += cols[(slice(None), slice(None)) + pos]
    return result
# build: end


def crop(a, pads):
    """Remove ``pads`` from the spatial dims of ``a``."""
    return a[(slice(None), slice(None)) + tuple(slice(lo, a.shape[2 + i] - hi) for i, (lo, hi) in enumerate(pads))]


# build: stage 8
def conv_array(xp, x, w, stride, pads, dilation, groups, keep_columns=None):
    """Cross-correlation of x (N, C, *S) with w (O, C/groups, *k) -> (N, O, *out).

    ``pads``: one (before, after) pair per spatial dim, added as zeros (``pad_array``) before the
    windows are read. ``im2col`` (which reads your ``windows``) gives the columns
    (N, groups, C/groups * kernel_numel, out_pixels) and the output size; the weight, flattened to
    (groups, O/groups, C/groups * kernel_numel), times the columns is the whole convolution -- one
    ``@`` -- and the result is reshaped to (N, O, *out). Like PyTorch's conv, it is a
    cross-correlation: the kernel is not flipped.
    ``keep_columns``: a list to append the im2col matrix to (the weight gradient reuses it).
    """
    kernel, o, n = w.shape[2:], w.shape[0], x.shape[0]
    cols, out = im2col(xp, pad_array(xp, x, pads), kernel, stride, dilation, groups)
    if keep_columns is not None:
        keep_columns.append(cols)
    y = w.reshape(groups, o // groups, -1) @ cols                        # (N, G, O/G, pixels)
    return y.reshape((n, o) + tuple(out))
# build: end


def conv_input_grad_array(xp, gy, w, spatial, stride, pads, dilation, groups):
    """The gradient of ``conv_array`` w.r.t. its input of spatial size ``spatial`` -- which is also a
    transposed convolution of ``gy`` with ``w``."""
    n, o = gy.shape[:2]
    kernel, out = w.shape[2:], gy.shape[2:]
    c = w.shape[1] * groups
    w_t = w.reshape(groups, o // groups, -1).transpose(0, 2, 1)          # (G, C/G * k, O/G)
    cols = w_t @ gy.reshape(n, groups, o // groups, -1)                  # (N, G, C/G * k, pixels)
    cols = cols.reshape((n, c) + tuple(kernel) + tuple(out))
    padded = (n, c) + tuple(s + lo + hi for s, (lo, hi) in zip(spatial, pads))
    return crop(col2im(xp, cols, padded, kernel, stride, dilation), pads)


def conv_weight_grad_array(xp, x, gy, kernel, stride, pads, dilation, groups, cols=None):
    """The gradient of ``conv_array`` w.r.t. its weight: grad_output @ columns^T, summed over samples."""
    n, o = gy.shape[:2]
    if cols is None:
        cols, _ = im2col(xp, pad_array(xp, x, pads), kernel, stride, dilation, groups, out_size=gy.shape[2:])
    gy_mat = gy.reshape(n, groups, o // groups, -1)                      # (N, G, O/G, pixels)
    gw = (gy_mat @ cols.transpose(0, 1, 3, 2)).sum(axis=0)               # (G, O/G, C/G * k)
    return gw.reshape((o, x.shape[1] // groups) + tuple(kernel))


def transposed_size(in_size, kernel, stride, pads, dilation, output_padding):
    """Spatial size of a transposed convolution's output."""
    return tuple((i - 1) * st - lo - hi + d * (k - 1) + op + 1
                 for i, k, st, (lo, hi), d, op in zip(in_size, kernel, stride, pads, dilation, output_padding))


def _output_padding_to_reach(target, in_size, kernel, stride, pads, dilation):
    zero = (0,) * len(target)
    reached = transposed_size(in_size, kernel, stride, pads, dilation, zero)
    return tuple(t - r for t, r in zip(target, reached))


# -- the autograd Functions ------------------------------------------------------------------------


class Convolution(Function):
    """``aten::convolution``: a convolution, or (``transposed=True``) its transpose, plus bias.

    ``padding`` is one (before, after) pair per spatial dim; ``output_padding`` (transposed only)
    adds rows/columns at the end of the output.
    """

    node_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
        xp = xp_of(x)
        if transposed:
            spatial = transposed_size(x._shape[2:], weight._shape[2:], stride, padding, dilation,
                                      output_padding)
            y = conv_input_grad_array(xp, x._array, weight._array, spatial, stride, padding, dilation, groups)
        else:
            kept = [] if ctx.needs_input_grad[1] else None
            y = conv_array(xp, x._array, weight._array, stride, padding, dilation, groups, kept)
            ctx.columns = kept[0] if kept else None      # reused by the weight gradient
        if bias is not None:
            y += bias._array.reshape((1, -1) + (1,) * (y.ndim - 2))
        ctx.save_for_backward(x, weight)
        ctx.params = (stride, padding, dilation, groups)
        ctx.transposed, ctx.has_bias = transposed, bias is not None
        return wrap(y, x.device)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        stride, padding, dilation, groups = ctx.params
        kernel = weight._shape[2:]
        gx = gw = gb = None
        if ctx.needs_input_grad[0]:
            if ctx.transposed:   # the input grad of a transposed conv is an ordinary conv
                gx = Convolution.apply(grad, weight, None, stride, padding, dilation, False,
                                       (0,) * len(kernel), groups)
                if gx._shape != x._shape:   # windows over the output_padding rows read no input
                    gx = gx[(slice(None), slice(None)) + tuple(slice(0, s) for s in x._shape[2:])]
            else:                # ... and the input grad of a conv is a transposed conv
                op = _output_padding_to_reach(x._shape[2:], grad._shape[2:], kernel, stride, padding, dilation)
                gx = Convolution.apply(grad, weight, None, stride, padding, dilation, True, op, groups)
        if ctx.needs_input_grad[1]:
            if ctx.transposed:   # roles swap: the transposed conv's output grad is the "input"
                gw = ConvWeightGrad.apply(grad, x, kernel, stride, padding, dilation, groups)
            else:
                columns, ctx.columns = ctx.columns, None      # used once; a second backward recomputes
                gw = ConvWeightGrad.apply(x, grad, kernel, stride, padding, dilation, groups, columns=columns)
        if ctx.has_bias and ctx.needs_input_grad[2]:
            gb = grad.sum((0,) + tuple(range(2, grad.dim())))
        return gx, gw, gb, None, None, None, None, None, None


class ConvWeightGrad(Function):
    """The weight gradient of a convolution of ``x`` producing output gradient ``gy``. It is linear in
    each argument, and its own backward is again two convolutions."""

    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, x, gy, kernel, stride, padding, dilation, groups, columns=None):
        ctx.save_for_backward(x, gy)
        ctx.params = (kernel, stride, padding, dilation, groups)
        return wrap(conv_weight_grad_array(xp_of(x), x._array, gy._array, kernel, stride, padding, dilation,
                                           groups, columns), x.device)

    @staticmethod
    def backward(ctx, ggw):
        x, gy = ctx.saved_tensors
        kernel, stride, padding, dilation, groups = ctx.params
        gx = ggy = None
        if ctx.needs_input_grad[0]:
            op = _output_padding_to_reach(x._shape[2:], gy._shape[2:], kernel, stride, padding, dilation)
            gx = Convolution.apply(gy, ggw, None, stride, padding, dilation, True, op, groups)
        if ctx.needs_input_grad[1]:
            ggy = Convolution.apply(x, ggw, None, stride, padding, dilation, False, (0,) * len(kernel), groups)
            if ggy._shape != gy._shape:  # windows past the end that the forward never used
                ggy = ggy[(slice(None), slice(None)) + tuple(slice(0, s) for s in gy._shape[2:])]
        return gx, ggy, None, None, None, None, None


class Im2Col(Function):
    """``F.unfold``: the im2col columns themselves, (N, C * kernel_numel, out_pixels)."""

    node_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx, x, kernel, dilation, pads, stride):
        xp = xp_of(x)
        cols, out = im2col(xp, pad_array(xp, x._array, pads), kernel, stride, dilation, 1)
        ctx.args, ctx.spatial = (kernel, dilation, pads, stride), x._shape[2:]
        return wrap(cols.reshape(cols.shape[0], cols.shape[2], cols.shape[3]), x.device)

    @staticmethod
    def backward(ctx, grad):
        return Col2Im.apply(grad, ctx.spatial, *ctx.args), None, None, None, None


class Col2Im(Function):
    """``F.fold``: add columns (N, C * kernel_numel, out_pixels) back onto an image -- overlapping
    windows sum. The adjoint of unfold."""

    node_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx, cols, spatial, kernel, dilation, pads, stride):
        xp, c = xp_of(cols), cols._shape[1] // math.prod(kernel)
        padded = tuple(s + lo + hi for s, (lo, hi) in zip(spatial, pads))
        out = tuple((p - d * (k - 1) - 1) // st + 1 for p, k, st, d in zip(padded, kernel, stride, dilation))
        blocks = cols._array.reshape((cols._shape[0], c) + tuple(kernel) + out)
        image = crop(col2im(xp, blocks, (cols._shape[0], c) + padded, kernel, stride, dilation), pads)
        ctx.args = (kernel, dilation, pads, stride)
        return wrap(xp.ascontiguousarray(image), cols.device)

    @staticmethod
    def backward(ctx, grad):
        return Im2Col.apply(grad, *ctx.args), None, None, None, None, None


__all__ = []
