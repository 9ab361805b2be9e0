"""nn.functional, padding and resizing: ``pad`` (constant, reflect, replicate, circular) and
``interpolate`` (nearest, nearest-exact, (bi/tri)linear, area). The kernels are in
tensorlab/ops/nn_pad.py.
See course/14_convolution.
"""
import math

import numpy as np

from ..ops import nn_pad as _pad
from ._functional_conv import _adaptive_avg_pool


def pad(input, pad, mode="constant", value=None):
    """Pad the last ``len(pad) // 2`` dims; ``pad`` lists (before, after) amounts starting from the *last*
    dim. Modes: constant (``value``, default 0), reflect, replicate, circular."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    nd = len(pad) // 2
    if nd > input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {input.dim()}")
    pairs = tuple((int(pad[2 * i]), int(pad[2 * i + 1])) for i in reversed(range(nd)))
    if mode == "constant":
        return _pad.ConstantPadNd.apply(input, pairs, 0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if not (nd + 1 <= input.dim() <= nd + 2) or nd > 3:
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
                                  "Supported combinations for non-constant padding:\n"
                                  "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                                  "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                                  "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    spatial = input._shape[-nd:]
    for i, ((lo, hi), size) in enumerate(zip(pairs, spatial)):
        if mode == "reflect" and (lo >= size or hi >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({lo}, {hi}) at dimension {input.dim() - nd + i} of input "
                               f"{list(input._shape)}")
        if mode == "circular" and (lo > size or hi > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
    maps = [_pad.pad_source_index(size, lo, hi, mode) for (lo, hi), size in zip(pairs, spatial)]
    kernel = _pad.PAD_BY_MODE.get((mode, nd), _pad.CircularPad)
    return kernel.apply(input, maps)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize the spatial dims (all after N, C) by nearest-neighbour or (bi/tri)linear interpolation."""
    nd = input.dim() - 2
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    spatial = input._shape[2:]
    if size is not None:
        sizes = tuple(size) if isinstance(size, (list, tuple)) else (size,) * nd
        if len(sizes) != nd:
            raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input "
                             f"with spatial dimensions of {list(spatial)} and output size of {tuple(sizes)}. "
                             "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                             "(o1, o2, ...,oK) format.")
        scales = [None] * nd
    else:
        factors = tuple(scale_factor) if isinstance(scale_factor, (list, tuple)) else (scale_factor,) * nd
        sizes = tuple(int(math.floor(s * f)) for s, f in zip(spatial, factors))
        scales = [None if recompute_scale_factor else 1.0 / f for f in factors]
    expected = {"linear": 1, "bilinear": 2, "trilinear": 3}
    if mode in expected and expected[mode] != nd:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {expected[mode] + 2}D input")
    if mode in ("nearest", "nearest-exact"):
        maps = [_nearest_map(s, o, sc, mode) for s, o, sc in zip(spatial, sizes, scales)]
        return _pad.NEAREST[nd].apply(input, maps)
    if mode in expected:
        # (a dim whose size does not change is copied straight through, whatever the scale -- as in PyTorch)
        mats = [np.eye(s) if s == o else _pad.linear_matrix(s, o, bool(align_corners), None if align_corners else sc)
                for s, o, sc in zip(spatial, sizes, scales)]
        return _pad.LINEAR[nd].apply(input, mats)
    if mode == "area":
        return _adaptive_avg_pool(input, sizes, nd)
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
                              f"the modes: nearest | linear | bilinear | trilinear | area | nearest-exact "
                              f"(got {mode})")


def _nearest_map(in_size, out_size, scale, mode):
    """Output position j reads input floor(j * scale) ("nearest-exact": floor((j + 0.5) * scale)).
    Like PyTorch, "nearest" copies straight through when the size is unchanged or exactly doubled."""
    j = np.arange(out_size)
    if mode == "nearest" and out_size == in_size:
        return j
    if mode == "nearest" and out_size == 2 * in_size:
        return j // 2
    offset = 0.5 if mode == "nearest-exact" else 0.0
    step = scale if scale is not None else in_size / out_size
    return np.minimum(np.floor((j + offset) * step).astype(np.int64), in_size - 1)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    return interpolate(input, size, scale_factor, mode, align_corners)


__all__ = ["pad", "interpolate", "upsample"]
