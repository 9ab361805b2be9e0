"""Stage 8's cases: the windows view, the convolution as one matrix product, and the fold back.

The three functions work on NumPy arrays, so most cases call them directly and ask PyTorch the
same question: ``F.unfold`` lays out the same windows (as columns, which the case puts back in
the (N, C, *out, *kernel) order of ``windows``), ``F.conv2d`` is the convolution, and ``F.fold``
adds columns back onto an image. The inputs are small binary fractions (or 0, 1, 2, ...), so every
sum is exact and the answers are compared as they come (rounded to 10 decimals). A few cases run a
real ``F.conv2d`` or pooling, forward and backward, with one of the learner's functions in place
(the other two tensorlab's own, :func:`coursekit.build.place.only`).
"""
from __future__ import annotations

import math

import numpy as np

from ..language import tr
from .cases import Case
from .cases_ops import THEN_BACKWARD, _leaf, _run, then_backward, values
from .place import only

STAGE = 8

#: How the cases are shown to the learner (in English here; :meth:`Case.tell` translates them).
WINDOWS = "{code} with a = 0, 1, 2, ... of shape {shape}"
COL2IM = "{code} with cols = 1, 2, 3, ... of shape {shape}"


def counting(shape):
    """0, 1, 2, ... in float64, of this shape: every window shows where it read."""
    return np.arange(float(math.prod(shape))).reshape(shape)


def kernel_values(shape):
    """Distinct binary fractions, none repeated in mirror image (a flipped kernel shows)."""
    return ((np.arange(math.prod(shape)) * 7 % 13) / 4 - 1.5).reshape(shape)


def out_size(spatial, kernel, stride, dilation):
    """How many windows fit along each spatial dim."""
    return tuple((s - d * (k - 1) - 1) // st + 1 for s, k, st, d in zip(spatial, kernel, stride, dilation))


def _rounded(array):
    return np.round(np.asarray(array, dtype=np.float64), 10)


# -- windows -----------------------------------------------------------------------------------------


def _call_windows(function, shape, kernel, stride, dilation, taken=None):
    a = counting(shape)
    view = function(np, a, kernel, stride, dilation, taken)
    return {"windows": np.asarray(view), "a view of a (no copy)": bool(np.shares_memory(view, a))}


def _torch_windows(torch, shape, kernel, stride, dilation, taken=None):
    """PyTorch's unfold columns (N, C * kh * kw, L), reshaped to (N, C, *out, *kernel)."""
    x = torch.from_numpy(counting(shape))
    out = out_size(shape[2:], kernel, stride, dilation)
    cols = torch.nn.functional.unfold(x, kernel, dilation=dilation, stride=stride)
    win = cols.reshape(shape[:2] + tuple(kernel) + out).permute(0, 1, 4, 5, 2, 3)
    if taken is not None:
        win = win[:, :, :taken[0], :taken[1]]
    return {"windows": win, "a view of a (no copy)": True}


def _windows_case(shape, kernel, stride, dilation, taken=None):
    args = (shape, kernel, stride, dilation) + ((taken,) if taken else ())
    code = (f"windows(np, a, kernel={kernel}, stride={stride}, dilation={dilation}"
            + (f", out_size={taken}" if taken else "") + ")")
    return Case(STAGE, "windows", args, _torch_windows, _call_windows, WINDOWS.format(code=code, shape=shape),
                lambda: tr(WINDOWS, code=code, shape=shape))


# -- conv_array --------------------------------------------------------------------------------------


def _call_conv(function, x_shape, w_shape, stride, padding, dilation, groups):
    y = function(np, values(x_shape), kernel_values(w_shape), stride, tuple((p, p) for p in padding), dilation,
                 groups)
    return _rounded(y)


def _torch_conv(torch, x_shape, w_shape, stride, padding, dilation, groups):
    y = torch.nn.functional.conv2d(torch.from_numpy(values(x_shape)), torch.from_numpy(kernel_values(w_shape)),
                                   stride=stride, padding=padding, dilation=dilation, groups=groups)
    return _rounded(y.numpy())


def _conv_case(x_shape, w_shape, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    args = (x_shape, w_shape, stride, padding, dilation, groups)
    shown = (f"conv_array(np, x, w, stride={stride}, pads={tuple((p, p) for p in padding)}, "
             f"dilation={dilation}, groups={groups}), x: {x_shape}, w: {w_shape} "
             f"(F.conv2d(x, w, stride={stride}, padding={padding}, dilation={dilation}, groups={groups}))")
    return Case(STAGE, "conv_array", args, _torch_conv, _call_conv, shown)


# -- col2im ------------------------------------------------------------------------------------------


def _columns(n, c, padded, kernel, stride, dilation):
    return np.arange(1.0, n * c * math.prod(kernel) * math.prod(out_size(padded, kernel, stride, dilation)) + 1)


def _call_col2im(function, n, c, padded, kernel, stride, dilation):
    out = out_size(padded, kernel, stride, dilation)
    cols = _columns(n, c, padded, kernel, stride, dilation).reshape((n, c) + tuple(kernel) + out)
    return _rounded(function(np, cols, (n, c) + tuple(padded), kernel, stride, dilation))


def _torch_col2im(torch, n, c, padded, kernel, stride, dilation):
    cols = torch.from_numpy(_columns(n, c, padded, kernel, stride, dilation)).reshape(n, c * math.prod(kernel), -1)
    image = torch.nn.functional.fold(cols, padded, kernel, dilation=dilation, stride=stride)
    return _rounded(image.numpy())


def _col2im_case(n, c, padded, kernel, stride, dilation=(1, 1)):
    args = (n, c, padded, kernel, stride, dilation)
    cols_shape = (n, c) + tuple(kernel) + out_size(padded, kernel, stride, dilation)
    code = f"col2im(np, cols, {(n, c) + tuple(padded)}, kernel={kernel}, stride={stride}, dilation={dilation})"
    return Case(STAGE, "col2im", args, _torch_col2im, _call_col2im, COL2IM.format(code=code, shape=cols_shape),
                lambda: tr(COL2IM, code=code, shape=cols_shape))


# -- the real ops, forward and backward, with one of the learner's functions in place ------------------


def _conv_program(x_shape, w_shape, **options):
    def program(lib, *_):
        x, w = _leaf(lib, values(x_shape)), _leaf(lib, kernel_values(w_shape))
        return {"x": x, "w": w}, lib.nn.functional.conv2d(x, w, **options)
    return program


def _pool_program(name, x_shape, **options):
    def program(lib, *_):
        x = _leaf(lib, counting(x_shape) * np.where(np.arange(math.prod(x_shape)) % 2, 1, -1).reshape(x_shape))
        return {"x": x}, getattr(lib.nn.functional, name)(x, **options)
    return program


def _op_case(function, shown, program):
    def call(fn, *_):
        from .skeleton import regions
        import tensorlab
        with only(regions(STAGE), function, fn):
            return _run(tensorlab, program)
    return Case(STAGE, function, (shown,), lambda torch, *_: _run(torch, program), call,
                THEN_BACKWARD.format(program=shown), then_backward(shown))


STAGE8 = [
    _windows_case((1, 1, 3, 4), (2, 2), (1, 1), (1, 1)),
    _windows_case((1, 1, 5, 5), (2, 2), (2, 2), (1, 1)),
    _windows_case((2, 1, 5, 4), (3, 2), (2, 1), (1, 1)),
    _windows_case((1, 2, 5, 4), (2, 2), (1, 1), (2, 1)),
    _windows_case((1, 1, 4, 5), (2, 2), (1, 2), (1, 1), (2, 2)),
    _conv_case((1, 1, 4, 4), (1, 1, 2, 2)),
    _conv_case((1, 1, 3, 3), (1, 1, 3, 3), padding=(1, 1)),
    _conv_case((2, 2, 5, 5), (3, 2, 3, 3), stride=(2, 2), padding=(1, 1)),
    _conv_case((1, 1, 5, 5), (1, 1, 2, 2), dilation=(2, 2)),
    _conv_case((1, 4, 3, 3), (2, 2, 2, 2), groups=2),
    _col2im_case(1, 1, (3, 3), (2, 2), (1, 1)),
    _col2im_case(1, 1, (5, 5), (3, 3), (2, 2)),
    _col2im_case(2, 1, (4, 4), (2, 2), (2, 2)),
    _col2im_case(1, 2, (5, 4), (2, 2), (1, 1), (2, 1)),
    _col2im_case(1, 1, (5, 5), (2, 2), (2, 2)),
    _op_case("windows", "F.conv2d(x, w, stride=2, padding=1), x: (1, 2, 5, 5), w: (2, 2, 3, 3)",
             _conv_program((1, 2, 5, 5), (2, 2, 3, 3), stride=2, padding=1)),
    _op_case("windows", "F.max_pool2d(x, 2), x: (1, 2, 4, 4)", _pool_program("max_pool2d", (1, 2, 4, 4),
                                                                                kernel_size=2)),
    _op_case("conv_array", "F.conv2d(x, w, padding=1), x: (2, 1, 4, 4), w: (3, 1, 3, 3)",
             _conv_program((2, 1, 4, 4), (3, 1, 3, 3), padding=1)),
    _op_case("col2im", "F.conv2d(x, w), x: (1, 1, 4, 4), w: (1, 1, 3, 3)",
             _conv_program((1, 1, 4, 4), (1, 1, 3, 3))),
    _op_case("col2im", "F.avg_pool2d(x, 3, stride=2, padding=1), x: (1, 1, 5, 5)",
             _pool_program("avg_pool2d", (1, 1, 5, 5), kernel_size=3, stride=2, padding=1)),
]
