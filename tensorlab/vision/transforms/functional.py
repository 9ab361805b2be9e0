"""The image operations behind every transform, as plain functions (``import ... functional as TF``).

Each takes a PIL image or a tensor image ``(..., C, H, W)`` and returns the same kind. On PIL images
the work is Pillow's; on tensors it is a few lines of NumPy that you can read below.
See course/18_data_and_transforms.
"""
import math
import numbers

import numpy as np

from ._image import (InterpolationMode, array_to_pil, as_interpolation, check_image, image_size, is_pil,
                     is_tensor, like_tensor, pil_module, pil_to_array, tensor_values)

__all__ = ["to_tensor", "to_pil_image", "normalize", "resize", "crop", "center_crop", "pad", "hflip", "vflip",
           "rotate", "get_image_size"]


def get_image_size(img):
    """``[width, height]`` of a tensor or PIL image (torchvision's order)."""
    check_image(img, "get_image_size")
    height, width = image_size(img)
    return [width, height]


# -- conversion --------------------------------------------------------------------------------------


def to_tensor(pic):
    """PIL image or ``H x W (x C)`` ndarray -> ``C x H x W`` tensor; uint8 becomes float32 in [0, 1].

    Only 8-bit images are rescaled (divided by 255); other dtypes keep their values, as in torchvision.
    """
    if is_pil(pic):
        array = pil_to_array(pic)
    elif isinstance(pic, np.ndarray):
        array = pic
    else:
        hint = " (it is already a tensor: leave ToTensor out)" if is_tensor(pic) else ""
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}{hint}")
    if array.ndim not in (2, 3):
        raise ValueError(f"pic should be 2/3 dimensional. Got {array.ndim} dimensions.")
    if array.ndim == 2:
        array = array[:, :, None]
    chw = np.ascontiguousarray(array.transpose(2, 0, 1))
    from ... import from_numpy, get_default_dtype
    if chw.dtype == np.uint8:
        return from_numpy((chw / np.float32(255)).astype(get_default_dtype().np))
    return from_numpy(chw)


def to_pil_image(pic, mode=None):
    """``C x H x W`` tensor or ``H x W x C`` ndarray -> PIL image.

    Float values are taken to be in [0, 1] and become ``uint8`` as ``int(255 * v)`` (truncated, as in
    torchvision). One channel gives mode "L", three "RGB", four "RGBA".
    """
    if is_tensor(pic):
        if pic.dim() not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.dim()} dimensions.")
        array = tensor_values(pic)
        array = array[None] if array.ndim == 2 else array
        array = array.transpose(1, 2, 0)
    elif isinstance(pic, np.ndarray):
        if pic.ndim not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        array = pic[:, :, None] if pic.ndim == 2 else pic
    else:
        raise TypeError(f"pic should be Tensor or ndarray. Got {type(pic)}.")
    if np.issubdtype(array.dtype, np.floating) and mode != "F":
        array = (array * 255).astype(np.uint8)
    channels = array.shape[2]
    if channels not in (1, 3, 4):
        raise ValueError(f"pic should have 1, 3 or 4 channels, got {channels}")
    image = pil_module().fromarray(np.ascontiguousarray(array[:, :, 0] if channels == 1 else array))
    return image.convert(mode) if mode else image


# -- values ------------------------------------------------------------------------------------------


def normalize(tensor, mean, std, inplace=False):
    """``(tensor - mean[c]) / std[c]`` for every channel c of a float tensor image ``(..., C, H, W)``."""
    if not is_tensor(tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.dim() < 3:
        raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                         f"{tensor.size()}")
    from ... import as_tensor
    mean = as_tensor(mean, dtype=tensor.dtype, device=tensor.device)
    std = as_tensor(std, dtype=tensor.dtype, device=tensor.device)
    if (std.numpy() == 0).any():
        raise ValueError(f"std evaluated to zero after conversion to {tensor.dtype}, leading to division by zero.")
    if mean.dim() == 1:
        mean = mean.view(-1, 1, 1)
    if std.dim() == 1:
        std = std.view(-1, 1, 1)
    if inplace:
        return tensor.sub_(mean).div_(std)
    return tensor.sub(mean).div(std)


# -- size --------------------------------------------------------------------------------------------


def resize(img, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
    """Resize to ``size``: an ``(h, w)`` pair, or an int that the *shorter* side becomes (aspect kept).

    Tensors: NEAREST takes source pixel ``floor(i * in / out)`` (PyTorch's ``interpolate``);
    BILINEAR with ``antialias=False`` mixes the 2 x 2 pixels around ``(i + 0.5) * in / out - 0.5``;
    with ``antialias=True`` (the default) it averages over the whole footprint of an output pixel
    when shrinking, so thin lines do not vanish -- the same triangle filter Pillow uses. PIL images
    are resized by Pillow, which always antialiases.
    """
    check_image(img, "resize")
    mode = as_interpolation(interpolation)
    height, width = image_size(img)
    out_h, out_w = _output_size(height, width, size, max_size)
    if is_pil(img):
        filters = {InterpolationMode.NEAREST: 0, InterpolationMode.NEAREST_EXACT: 0,
                   InterpolationMode.BILINEAR: 2, InterpolationMode.BICUBIC: 3}
        return img.resize((out_w, out_h), filters[mode])
    if mode is InterpolationMode.BICUBIC:
        raise ValueError("resize: bicubic interpolation is implemented for PIL images only; "
                         "use InterpolationMode.BILINEAR for tensors")
    values = tensor_values(img)
    if mode is InterpolationMode.BILINEAR:
        rows = _linear_weights(height, out_h, antialias)
        cols = _linear_weights(width, out_w, antialias)
        out = rows @ values.astype(np.float64) @ cols.T
    else:
        exact = mode is InterpolationMode.NEAREST_EXACT
        out = values[..., _nearest_index(height, out_h, exact), :][..., _nearest_index(width, out_w, exact)]
    return like_tensor(out, img.dtype)


def _output_size(height, width, size, max_size):
    """torchvision's rule: an int sets the shorter side and scales the longer one (then caps it at max_size)."""
    if isinstance(size, numbers.Integral) or (isinstance(size, (list, tuple)) and len(size) == 1):
        requested = int(size if isinstance(size, numbers.Integral) else size[0])
        short, long = (width, height) if width <= height else (height, width)
        new_short, new_long = requested, int(requested * long / short)
        if max_size is not None:
            if max_size <= requested:
                raise ValueError(f"max_size = {max_size} must be strictly greater than the requested size for "
                                 f"the smaller edge size = {size}")
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        return (new_long, new_short) if width <= height else (new_short, new_long)
    if isinstance(size, (list, tuple)) and len(size) == 2:
        if max_size is not None:
            raise ValueError("max_size should only be passed if size specifies the length of the smaller edge, "
                             "i.e. size should be an int or a sequence of length 1 in torchscript mode.")
        return int(size[0]), int(size[1])
    raise TypeError(f"Size should be int or sequence of length 1 or 2. Got {size!r}")


def _nearest_index(in_size, out_size, exact):
    scale = in_size / out_size
    position = (np.arange(out_size) + 0.5) * scale if exact else np.arange(out_size) * scale
    return np.minimum(np.floor(position).astype(np.int64), in_size - 1)


def _linear_weights(in_size, out_size, antialias):
    """An ``out_size x in_size`` matrix W: output pixel i is ``sum_j W[i, j] * input[j]`` along one axis.

    Output pixel i is centred at ``(i + 0.5) * scale`` in input coordinates (``scale = in / out``).
    Each input pixel j (centred at ``j + 0.5``) gets the triangle weight ``1 - |distance| / support``;
    the support is 1 pixel, or ``scale`` pixels when antialiasing a shrink. Rows are normalised to sum 1.
    """
    scale = in_size / out_size
    support = scale if (antialias and scale > 1) else 1.0
    centres = (np.arange(out_size) + 0.5) * scale
    if support == 1.0:
        centres = np.maximum(centres, 0.5)            # PyTorch clamps source coordinates below 0 to 0
    distance = (np.arange(in_size)[None, :] + 0.5 - centres[:, None]) / support
    weights = np.clip(1.0 - np.abs(distance), 0.0, None)
    return weights / weights.sum(axis=1, keepdims=True)


# -- crops and padding -------------------------------------------------------------------------------


def pad(img, padding, fill=0, padding_mode="constant"):
    """Pad the borders: ``padding`` is one int (all sides), ``(left/right, top/bottom)`` or ``(l, t, r, b)``.

    ``padding_mode``: "constant" (fill value), "edge" (repeat the border), "reflect" (mirror without
    repeating the border), "symmetric" (mirror repeating it) -- NumPy's ``np.pad`` modes of those names.
    """
    check_image(img, "pad")
    left, top, right, bottom = _padding_sides(padding)
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    if is_pil(img):
        array = pil_to_array(img)
        widths = [(top, bottom), (left, right)] + [(0, 0)] * (array.ndim - 2)
        return array_to_pil(_np_pad(array, widths, fill, padding_mode), img.mode)
    values = tensor_values(img)
    widths = [(0, 0)] * (values.ndim - 2) + [(top, bottom), (left, right)]
    return like_tensor(_np_pad(values, widths, fill, padding_mode), img.dtype)


def _np_pad(array, widths, fill, mode):
    if mode == "constant":
        return np.pad(array, widths, mode="constant", constant_values=fill)
    return np.pad(array, widths, mode=mode)


def _padding_sides(padding):
    if isinstance(padding, numbers.Integral):
        padding = [padding]
    if not isinstance(padding, (list, tuple)) or len(padding) not in (1, 2, 4):
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not {padding!r}")
    if len(padding) == 1:
        return [padding[0]] * 4
    if len(padding) == 2:
        return [padding[0], padding[1], padding[0], padding[1]]
    return list(padding)


def crop(img, top, left, height, width):
    """The ``height x width`` window whose top-left corner is ``(top, left)``; outside the image is 0."""
    check_image(img, "crop")
    if is_pil(img):
        return img.crop((left, top, left + width, top + height))
    img_h, img_w = image_size(img)
    pads = [max(0, -left), max(0, -top), max(0, left + width - img_w), max(0, top + height - img_h)]
    if any(pads):
        img = pad(img, pads)
        top, left = top + pads[1], left + pads[0]
    values = tensor_values(img)
    return like_tensor(values[..., top:top + height, left:left + width], img.dtype)


def center_crop(img, output_size):
    """The centred ``output_size`` window (int -> square); an image smaller than that is zero-padded first."""
    check_image(img, "center_crop")
    crop_h, crop_w = _pair(output_size, "center_crop")
    img_h, img_w = image_size(img)
    if crop_w > img_w or crop_h > img_h:
        img = pad(img, [(crop_w - img_w) // 2 if crop_w > img_w else 0, (crop_h - img_h) // 2 if crop_h > img_h else 0,
                        (crop_w - img_w + 1) // 2 if crop_w > img_w else 0,
                        (crop_h - img_h + 1) // 2 if crop_h > img_h else 0])
        img_h, img_w = image_size(img)
        if crop_w == img_w and crop_h == img_h:
            return img
    top = int(round((img_h - crop_h) / 2.0))
    left = int(round((img_w - crop_w) / 2.0))
    return crop(img, top, left, crop_h, crop_w)


def _pair(size, name):
    if isinstance(size, numbers.Integral):
        return int(size), int(size)
    if isinstance(size, (list, tuple)) and len(size) in (1, 2):
        return (int(size[0]), int(size[0])) if len(size) == 1 else (int(size[0]), int(size[1]))
    raise ValueError(f"{name}: please provide only two dimensions (h, w) for size, got {size!r}")


# -- flips and rotations -----------------------------------------------------------------------------


def hflip(img):
    """Mirror left-right (the last axis of a tensor)."""
    check_image(img, "hflip")
    if is_pil(img):
        return img.transpose(pil_module().Transpose.FLIP_LEFT_RIGHT)
    return like_tensor(tensor_values(img)[..., ::-1], img.dtype)


def vflip(img):
    """Mirror top-bottom (the second-to-last axis of a tensor)."""
    check_image(img, "vflip")
    if is_pil(img):
        return img.transpose(pil_module().Transpose.FLIP_TOP_BOTTOM)
    return like_tensor(tensor_values(img)[..., ::-1, :], img.dtype)


def rotate(img, angle, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=0):
    """Rotate ``angle`` degrees counter-clockwise about the centre (or ``center = [x, y]`` in pixels).

    Tensors use nearest-neighbour sampling: each output pixel takes the input pixel its centre came
    from, ``(x_in, y_in) = R(-angle) (x_out, y_out)`` about the centre; corners that came from outside
    get ``fill``. Multiples of 90 degrees on a square image (or with ``expand=True``) move pixels exactly,
    like ``np.rot90``. ``expand=True`` enlarges the output to hold the whole rotated image.
    PIL images are rotated by Pillow.
    """
    check_image(img, "rotate")
    mode = as_interpolation(interpolation)
    if is_pil(img):
        filters = {InterpolationMode.NEAREST: 0, InterpolationMode.BILINEAR: 2, InterpolationMode.BICUBIC: 3}
        return img.rotate(angle, resample=filters[mode], expand=expand, center=center, fillcolor=fill)
    if mode is not InterpolationMode.NEAREST:
        raise ValueError("rotate: tensor images are rotated with InterpolationMode.NEAREST only "
                         "(convert to a PIL image for bilinear rotation)")
    if expand and center is not None:
        raise ValueError("rotate: expand=True rotates about the image centre; do not pass center as well")
    values = tensor_values(img)
    height, width = values.shape[-2:]
    cos, sin = _cos_sin(angle)
    out_h, out_w = _rotated_size(height, width, cos, sin) if expand else (height, width)
    cx, cy = ((width - 1) / 2, (height - 1) / 2) if center is None else (center[0] - 0.5, center[1] - 0.5)
    ocx, ocy = ((out_w - 1) / 2, (out_h - 1) / 2) if center is None else (cx, cy)
    y_out, x_out = np.meshgrid(np.arange(out_h) - ocy, np.arange(out_w) - ocx, indexing="ij")
    x_in = np.rint(cos * x_out - sin * y_out + cx).astype(np.int64)
    y_in = np.rint(sin * x_out + cos * y_out + cy).astype(np.int64)
    inside = (x_in >= 0) & (x_in < width) & (y_in >= 0) & (y_in < height)
    out = values[..., np.clip(y_in, 0, height - 1), np.clip(x_in, 0, width - 1)]
    out = np.where(inside, out, np.asarray(fill, dtype=values.dtype))
    return like_tensor(out, img.dtype)


def _cos_sin(angle):
    """cos and sin of ``angle`` degrees -- exact (0, +-1) at multiples of 90, so those rotations are exact."""
    if float(angle) % 90 == 0:
        quarter = int(float(angle) // 90) % 4
        return [(1, 0), (0, 1), (-1, 0), (0, -1)][quarter]
    radians = math.radians(angle)
    return math.cos(radians), math.sin(radians)


def _rotated_size(height, width, cos, sin):
    """Height and width of the box holding a ``height x width`` image after the rotation."""
    new_w = abs(width * cos) + abs(height * sin)
    new_h = abs(width * sin) + abs(height * cos)
    return int(math.ceil(new_h - 1e-4)), int(math.ceil(new_w - 1e-4))
