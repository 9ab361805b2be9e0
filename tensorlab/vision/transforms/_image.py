"""The two kinds of image a transform meets, and how to move between them and plain arrays.

- a **PIL image** (what datasets read from disk): ``(width, height)``, a mode such as "L" or "RGB";
- a **tensor image**: shape ``(..., C, H, W)`` -- channels first, as every conv layer expects.

Geometric transforms on tensors work on the tensor's values with NumPy and return a new tensor of
the same dtype; they are not recorded by autograd (data augmentation happens before the model).
"""
import enum
import sys

import numpy as np


class InterpolationMode(enum.Enum):
    """How a resize or rotation chooses output values between input pixels."""

    NEAREST = "nearest"              # PyTorch's nearest: source index floor(i * in / out)
    NEAREST_EXACT = "nearest-exact"  # pixel centres: floor((i + 0.5) * in / out), as Pillow does
    BILINEAR = "bilinear"            # weighted mean of the 2 x 2 nearest pixels (or more, antialiased)
    BICUBIC = "bicubic"              # PIL images only


def as_interpolation(mode):
    if isinstance(mode, InterpolationMode):
        return mode
    try:
        return InterpolationMode(mode)
    except ValueError:
        known = ", ".join(m.value for m in InterpolationMode)
        raise ValueError(f"unknown interpolation {mode!r}; use an InterpolationMode or one of: {known}") from None


def is_pil(img):
    """True for a Pillow image -- checked without importing Pillow (it is loaded only if used)."""
    pil = sys.modules.get("PIL.Image")
    return pil is not None and isinstance(img, pil.Image)


def is_tensor(img):
    from ...tensor import Tensor
    return isinstance(img, Tensor)


def pil_module():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("this transform needs Pillow: pip install pillow (or pip install tensorlab[vision]).") \
            from None
    return Image


def check_image(img, name):
    """Raise torchvision's TypeError for anything that is neither a tensor nor a PIL image."""
    if not (is_tensor(img) or is_pil(img)):
        raise TypeError(f"{name}: img should be PIL Image or Tensor. Got {type(img)}")


def tensor_values(t, min_dims=2):
    """The tensor's values as a NumPy array (no autograd, no copy when possible)."""
    if t.dim() < min_dims:
        raise TypeError(f"Tensor is not a torch image: expected at least {min_dims} dimensions (..., H, W), "
                        f"got shape {tuple(t.shape)}")
    return t.detach().cpu().numpy()


def like_tensor(array, dtype):
    """A new tensor holding ``array`` cast to ``dtype`` (rounded and clipped first for integer dtypes)."""
    from ... import from_numpy
    target = np.dtype(dtype.np)
    if np.issubdtype(target, np.integer) and not np.issubdtype(array.dtype, np.integer):
        info = np.iinfo(target)
        array = np.clip(np.round(array), info.min, info.max)
    return from_numpy(np.ascontiguousarray(array, dtype=target))


def image_size(img):
    """``(height, width)`` of a tensor or PIL image."""
    if is_pil(img):
        return img.size[1], img.size[0]
    return tuple(img.shape[-2:])


def pil_to_array(img):
    """A PIL image as an ``H x W`` or ``H x W x C`` array (mode "1" becomes 0/255 uint8)."""
    if img.mode == "1":
        return 255 * np.array(img, dtype=np.uint8)
    return np.array(img)


def array_to_pil(array, mode):
    return pil_module().fromarray(np.ascontiguousarray(array)).convert(mode)
