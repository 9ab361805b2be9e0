"""nn.functional, spatial part: convolution, unfold/fold and pooling.

The functions normalise their arguments (``stride=2`` -> ``(2, 2)``), check them with PyTorch's error
messages, and call the kernels in tensorlab/ops/nn_conv.py, nn_pool.py and nn_pad.py.
See course/14_convolution.
"""
import math

from ..ops import nn_conv as _conv
from ..ops import nn_pad as _pad
from ..ops import nn_pool as _pool


def _tuple(value, n, name="stride"):
    """``2`` -> ``(2, 2)``; a sequence must already have ``n`` entries."""
    if isinstance(value, (list, tuple)):
        if len(value) == 1:
            return tuple(value) * n
        if len(value) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match "
                               f"the convolution dimensions, but got {name}={list(value)}")
        return tuple(int(v) for v in value)
    return (int(value),) * n


_DTYPE_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double"}
_C_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double"}


def _check_conv(input, weight, bias, nd, groups, transposed, name):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input._shape)}")
    if weight.dim() != nd + 2:
        raise RuntimeError(f"weight should have {nd + 2} dimensions for {name}, but got weight of size "
                           f"{list(weight._shape)}")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"expected scalar type {_DTYPE_NAMES.get(input.dtype.name, input.dtype.name)} but "
                           f"found {_DTYPE_NAMES.get(weight.dtype.name, weight.dtype.name)}")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    channels = input._shape[0 if input.dim() == nd + 1 else 1]
    expected = weight._shape[0] if transposed else weight._shape[1] * groups
    if channels != expected:
        shape = list(input._shape if input.dim() == nd + 2 else (1,) + input._shape)
        kind = "transposed=1" if transposed else f"groups={groups}"
        raise RuntimeError(f"Given {kind}, weight of size {list(weight._shape)}, expected input{shape} to have "
                           f"{expected} channels, but got {channels} channels instead")
    out_channels = weight._shape[1] * groups if transposed else weight._shape[0]
    if bias is not None:
        if bias.dtype is not input.dtype:
            raise RuntimeError(f"Input type ({_C_NAMES.get(input.dtype.name)}) and bias type "
                               f"({_C_NAMES.get(bias.dtype.name)}) should be the same")
        if bias._shape != (out_channels,):
            raise RuntimeError(f"Given weight of size {list(weight._shape)}, expected bias to be 1-dimensional with "
                               f"{out_channels} elements, but got bias of size {list(bias._shape)} instead")


def _conv_padding(padding, kernel, dilation, stride):
    """(before, after) per spatial dim from an int, a tuple, "valid" or "same"."""
    nd = len(kernel)
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * nd
        if padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [d * (k - 1) for k, d in zip(kernel, dilation)]
            return tuple((t // 2, t - t // 2) for t in total)
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    pads = _tuple(padding, nd, "padding")
    if any(p < 0 for p in pads):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in pads)


def _convolution(input, weight, bias, stride, padding, dilation, groups, nd, name, transposed=False,
                 output_padding=0):
    _check_conv(input, weight, bias, nd, groups, transposed, name)
    stride = _tuple(stride, nd, "stride")
    dilation = _tuple(dilation, nd, "dilation")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    kernel = weight._shape[2:]
    pads = _conv_padding(padding, kernel, dilation, stride)
    output_padding = _tuple(output_padding, nd, "output_padding")
    unbatched = input.dim() == nd + 1
    x = input.unsqueeze(0) if unbatched else input
    if transposed:
        if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                               + _named_values(output_padding, stride, dilation))
    else:
        padded = [s + lo + hi for s, (lo, hi) in zip(x._shape[2:], pads)]
        effective = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        if any(p < e for p, e in zip(padded, effective)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                               f"Kernel size: ({' x '.join(map(str, effective))}). Kernel size can't be greater "
                               "than actual input size")
    out = _conv.Convolution.apply(x, weight, bias, stride, pads, dilation, transposed, output_padding, groups)
    return out.squeeze(0) if unbatched else out


def _named_values(output_padding, stride, dilation):
    dims = ["height", "width"] if len(stride) == 2 else [f"{i}" for i in range(len(stride))]
    parts = [f"output_padding_{d}: {v}" for d, v in zip(dims, output_padding)]
    parts += [f"stride_{d}: {v}" for d, v in zip(dims, stride)]
    parts += [f"dilation_{d}: {v}" for d, v in zip(dims, dilation)]
    return " ".join(parts)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d cross-correlation of (N, C_in, H, W) input with (C_out, C_in/groups, kH, kW) weight."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv_transpose1d", True,
                        output_padding)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transpose (adjoint) of conv2d: each input pixel stamps a weighted kernel onto the output."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv_transpose2d", True,
                        output_padding)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, "conv_transpose3d", True,
                        output_padding)


# -- pooling ----------------------------------------------------------------------------------------------


def _pool_args(input, kernel_size, stride, padding, dilation, nd, ceil_mode):
    if input.dim() not in (nd + 1, nd + 2) or input.numel() == 0:
        raise RuntimeError(f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for input")
    kernel = _tuple(kernel_size, nd, "kernel_size")
    stride = kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
        else _tuple(stride, nd, "stride")
    padding, dilation = _tuple(padding, nd, "padding"), _tuple(dilation, nd, "dilation")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    spatial = input._shape[-nd:]
    out = [_pool.pool_output_size(s, k, st, p, d, ceil_mode)
           for s, k, st, p, d in zip(spatial, kernel, stride, padding, dilation)]
    if any(o <= 0 for o in out):
        c = input._shape[-nd - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (c,) + spatial))}). Calculated output size: "
                           f"({'x'.join(map(str, [c] + out))}). Output size is too small")
    return kernel, stride, padding, dilation


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nd):
    kernel, stride, padding, dilation = _pool_args(input, kernel_size, stride, padding, dilation, nd, ceil_mode)
    out, indices = _pool.MAX_POOL[nd].apply(input, kernel, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def _via_2d(pool_2d, input, *args):
    """1-d pooling as 2-d pooling of a height-1 image (PyTorch's graph shows the SqueezeBackward1)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input, but got {list(input._shape)}")
    out = pool_2d(input.unsqueeze(-2), *args)
    if isinstance(out, tuple):
        return tuple(o.squeeze(-2) for o in out)
    return out.squeeze(-2)


def _as_2d(value, fill):
    """A 1-d pooling argument as the 2-d one for a height-1 image: ``(fill, value)``."""
    return (fill, value[0] if isinstance(value, (list, tuple)) else value)


def _stride_2d(stride, kernel):
    return kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) else _as_2d(stride, 1)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    kernel = _as_2d(kernel_size, 1)
    return _via_2d(max_pool2d, input, kernel, _stride_2d(stride, kernel), _as_2d(padding, 0),
                   _as_2d(dilation, 1), ceil_mode, return_indices)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The max of each kernel_size window (stride defaults to kernel_size: windows do not overlap)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 2)


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, nd):
    kernel, stride, padding, _ = _pool_args(input, kernel_size, stride, padding, 1, nd, ceil_mode)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    return _pool.AVG_POOL[nd].apply(input, kernel, stride, padding, ceil_mode, count_include_pad,
                                    divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    kernel = _as_2d(kernel_size, 1)
    return _via_2d(avg_pool2d, input, kernel, _stride_2d(stride, kernel), _as_2d(padding, 0), ceil_mode,
                   count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each kernel_size window."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3)


def _adaptive_avg_pool(input, output_size, nd):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"adaptive_avg_pool{nd}d(): Expected {nd + 1}D or {nd + 2}D tensor, but got "
                           f"{list(input._shape)}")
    spatial = input._shape[-nd:]
    sizes = output_size if isinstance(output_size, (list, tuple)) else (output_size,) * nd
    sizes = tuple(s if o is None else int(o) for s, o in zip(spatial, sizes))
    if all(o == 1 for o in sizes):   # a global average: PyTorch uses mean() here too
        return input.mean(tuple(range(-nd, 0)), keepdim=True)
    mats = [_pad.adaptive_matrix(s, o) for s, o in zip(spatial, sizes)]
    return _pad.ADAPTIVE_AVG_POOL[nd].apply(input, mats)


def adaptive_avg_pool1d(input, output_size):
    size = output_size[0] if isinstance(output_size, (list, tuple)) else output_size
    return _via_2d(adaptive_avg_pool2d, input, (1, size))


def adaptive_avg_pool2d(input, output_size):
    """Average pooling whose windows are chosen so the output has ``output_size``."""
    return _adaptive_avg_pool(input, output_size, 2)


def adaptive_avg_pool3d(input, output_size):
    return _adaptive_avg_pool(input, output_size, 3)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: every kernel_size window of each (N, C, H, W) image as a column -> (N, C*kh*kw, L).
    A convolution is ``weight.view(C_out, -1) @ unfold(x)``."""
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    kernel, dilation, stride = _tuple(kernel_size, 2), _tuple(dilation, 2), _tuple(stride, 2)
    pads = tuple((p, p) for p in _tuple(padding, 2))
    out = _conv.Im2Col.apply(x, kernel, dilation, pads, stride)
    return out.squeeze(0) if unbatched else out


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im: sum columns (N, C*kh*kw, L) back into (N, C, *output_size) images (overlaps add up)."""
    if input.dim() not in (2, 3):
        raise NotImplementedError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                                  f"(got {input.dim()}D)")
    unbatched = input.dim() == 2
    x = input.unsqueeze(0) if unbatched else input
    size, kernel = _tuple(output_size, 2), _tuple(kernel_size, 2)
    dilation, padding, stride = _tuple(dilation, 2), _tuple(padding, 2), _tuple(stride, 2)
    k = math.prod(kernel)
    if x._shape[1] % k:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                           f"but got input.size(1)={x._shape[1]} and kernel_size={kernel}.")
    blocks = [(s + 2 * p - d * (kk - 1) - 1) // st + 1 for s, kk, p, d, st in zip(size, kernel, padding, dilation,
                                                                                  stride)]
    if x._shape[2] != math.prod(blocks):
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"stride={stride}, expected size of input's dimension 2 to match the calculated number "
                           f"of sliding blocks {blocks[0]} * {blocks[1]} = {math.prod(blocks)}, but got "
                           f"input.size(2)={x._shape[2]}.")
    out = _conv.Col2Im.apply(x, size, kernel, dilation, tuple((p, p) for p in padding), stride)
    return out.squeeze(0) if unbatched else out


__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
           "max_pool1d", "max_pool2d", "max_pool3d", "max_pool2d_with_indices", "avg_pool1d", "avg_pool2d",
           "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "unfold", "fold"]
