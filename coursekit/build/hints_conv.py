"""Stage 8's classic mistakes, each recognised in the outcome of one of the stage's direct cases
(:mod:`coursekit.build.cases_conv`): what the mistaken code gives is computed here in plain NumPy
loops -- the windows read with the wrong steps, a correlation with the kernel flipped or without
the padding, a fold that overwrites -- and compared with the learner's answer."""
from __future__ import annotations

import numpy as np

from ..language import tr
from .cases_conv import _columns, counting, kernel_values, out_size, values


def _got(got, name=None):
    """The learner's array (as nested lists) from an outcome, or None."""
    value = got.get("value")
    if name is not None:
        value = value.get(name) if isinstance(value, dict) else None
    return np.array(value["values"]) if isinstance(value, dict) and "values" in value else None


def _same(array, expected):
    return array is not None and array.shape == expected.shape and np.array_equal(array, expected)


def _read(a, out, kernel, out_steps, kernel_steps):
    """The windows of ``a`` read with these steps (in elements), by plain indexing."""
    n, c = a.shape[:2]
    result = np.zeros((n, c) + tuple(out) + tuple(kernel))
    for o in np.ndindex(*out):
        for k in np.ndindex(*kernel):
            where = tuple(i * s + j * t for i, s, j, t in zip(o, out_steps, k, kernel_steps))
            if all(w < size for w, size in zip(where, a.shape[2:])):
                result[(slice(None), slice(None)) + o + k] = a[(slice(None), slice(None)) + where]
    return result


def windows_read_with(steps):
    """The windows read with ``steps(stride, dilation) -> (out steps, kernel steps)``, with the right
    number of windows or with the number the mistaken steps would give."""
    def seen(which, got):
        shape, kernel, stride, dilation = which.args[:4]
        out_steps, kernel_steps = steps(stride, dilation)
        mine = _got(got, "windows")
        a = counting(shape)
        counts = {out_size(shape[2:], kernel, stride, dilation),
                  out_size(shape[2:], kernel, out_steps, kernel_steps)}
        right = _read(a, out_size(shape[2:], kernel, stride, dilation), kernel, stride, dilation)
        return not _same(mine, right) and any(
            _same(mine, _read(a, count, kernel, out_steps, kernel_steps)) for count in counts)
    return seen


def _correlate(x, w, stride, padding, dilation):
    """Cross-correlation (groups=1) by loops over the output positions."""
    x = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out = out_size(x.shape[2:], w.shape[2:], stride, dilation)
    y = np.zeros((x.shape[0], w.shape[0]) + out)
    for i, j in np.ndindex(*out):
        patch = x[:, :, i * stride[0]:i * stride[0] + dilation[0] * (w.shape[2] - 1) + 1:dilation[0],
                  j * stride[1]:j * stride[1] + dilation[1] * (w.shape[3] - 1) + 1:dilation[1]]
        y[:, :, i, j] = np.einsum("nckl,ockl->no", patch, w)
    return np.round(y, 10)


def kernel_flipped(which, got):
    x_shape, w_shape, stride, padding, dilation, _ = which.args
    flipped = kernel_values(w_shape)[:, :, ::-1, ::-1]
    return _same(_got(got), _correlate(values(x_shape), flipped, stride, padding, dilation))


def padding_forgotten(which, got):
    x_shape, w_shape, stride, padding, dilation, _ = which.args
    return _same(_got(got), _correlate(values(x_shape), kernel_values(w_shape), stride, (0, 0), dilation))


def _sent(n, c, padded, kernel, stride, dilation):
    """{pixel: the values the windows send back to it}, and the right image (their sums)."""
    out = out_size(padded, kernel, stride, dilation)
    cols = _columns(n, c, padded, kernel, stride, dilation).reshape((n, c) + tuple(kernel) + out)
    sent = {}
    for b, ch in np.ndindex(n, c):
        for k in np.ndindex(*kernel):
            for o in np.ndindex(*out):
                pixel = (b, ch) + tuple(i * s + j * d for i, s, j, d in zip(o, stride, k, dilation))
                sent.setdefault(pixel, []).append(cols[(b, ch) + k + o])
    return sent, cols


def overwritten(which, got):
    """Every pixel holds ONE of the values its windows sent back (the last one written), not their
    sum -- whichever order the windows were visited in."""
    n, c, padded, kernel, stride, dilation = which.args
    mine = _got(got)
    if mine is None or mine.shape != (n, c) + tuple(padded):
        return False
    sent, _ = _sent(*which.args)
    shared = [pixel for pixel, sent_there in sent.items() if len(sent_there) > 1]
    return bool(shared) and all(mine[pixel] in sent[pixel] for pixel in shared)


def fold_stride_ignored(which, got):
    """Each kernel position's values added onto a block of neighbouring pixels (step 1), not onto
    every ``stride``-th pixel."""
    n, c, padded, kernel, stride, dilation = which.args
    _, cols = _sent(*which.args)
    out = cols.shape[2 + len(kernel):]
    wrong = np.zeros((n, c) + tuple(padded))
    for k in np.ndindex(*kernel):
        region = tuple(slice(p * d, p * d + o) for p, d, o in zip(k, dilation, out))
        wrong[(slice(None), slice(None)) + region] += cols[(slice(None), slice(None)) + k]
    return _same(_got(got), np.round(wrong, 10))


#: (name, function, the case's input as shown, how it shows, hint)
MISTAKES8 = [
    (tr("output stride ignored"), "windows", "windows(np, a, kernel=(2, 2), stride=(2, 2)",
     windows_read_with(lambda stride, dilation: ((1,) * len(stride), dilation)),
     tr("Neighbouring windows start one pixel apart: the stride was left out of the output dims' "
        "steps. Moving to the next output position jumps `stride` input positions, so those dims' "
        "strides are a.strides[2 + i] * stride[i] -- and only (s - dilation * (k - 1) - 1) // stride + 1 "
        "windows fit.")),
    (tr("dilation ignored"), "windows", "windows(np, a, kernel=(2, 2), stride=(1, 1), dilation=(2, 1)",
     windows_read_with(lambda stride, dilation: (stride, (1,) * len(dilation))),
     tr("The kernel's taps sit next to each other: dilation was left out. With dilation d, the kernel "
        "reads every d-th pixel, so the kernel dims' strides are a.strides[2 + i] * dilation[i], and a "
        "window spans d * (k - 1) + 1 pixels.")),
    (tr("kernel flipped"), "conv_array", "conv_array(np, x, w, stride=(1, 1), pads=((0, 0), (0, 0)), "
     "dilation=(1, 1), groups=1), x: (1, 1, 4, 4)", kernel_flipped,
     tr("The kernel was flipped: that is convolution as a textbook writes it, but PyTorch's conv2d is a "
        "cross-correlation -- output[i, j] = sum of w[k, l] * x[i + k, j + l], the kernel laid on the "
        "window as it is. Multiply the flattened weight with the columns directly.")),
    (tr("padding forgotten"), "conv_array", "conv_array(np, x, w, stride=(1, 1), pads=((1, 1), (1, 1))",
     padding_forgotten,
     tr("The output is the size of an unpadded convolution: pads were not added. Zero-pad the input "
        "first (pad_array(xp, x, pads)), then read the windows of the padded array.")),
    (tr("overlapping windows overwritten"), "col2im", "col2im(np, cols, (1, 1, 3, 3), kernel=(2, 2), stride=(1, 1)",
     overwritten,
     tr("Where windows overlap, a pixel kept only the last value written to it. Every window that read "
        "a pixel sends it a gradient, and they all count: ADD them (result[region] += ..., never "
        "result[region] = ...).")),
    (tr("stride ignored when adding back"), "col2im", "col2im(np, cols, (1, 1, 5, 5), kernel=(3, 3), stride=(2, 2)",
     fold_stride_ignored,
     tr("Each kernel position's values went onto neighbouring pixels, as if the stride were 1. Output "
        "position o of kernel position p read pixel p * dilation + o * stride: take every stride-th "
        "pixel, slice(p * d, p * d + stride * (out - 1) + 1, stride).")),
]
