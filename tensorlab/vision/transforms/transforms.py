"""Transforms: small callable objects that turn one image into another, chained with ``Compose``.

A dataset calls its transform on every item it returns, so a *random* transform (a random crop, a
flip with probability p) gives a different version of the same image each epoch: data augmentation.
Random choices come from tensorlab's global generator (``tensorlab.manual_seed`` repeats them) or
from the ``generator=`` you pass. The work itself is in ``functional.py``.
See course/18_data_and_transforms.
"""
import numbers

from . import functional as F
from ._image import InterpolationMode, as_interpolation

__all__ = ["Compose", "ToTensor", "ToPILImage", "Normalize", "Resize", "CenterCrop", "Pad", "RandomCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "RandomRotation", "Lambda"]


class Compose:
    """Apply ``transforms`` one after the other: ``Compose([ToTensor(), Normalize(m, s)])``."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        return type(self).__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class Lambda:
    """Wrap any function of one image as a transform: ``Lambda(lambda x: x.flatten())``."""

    def __init__(self, lambd):
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {type(lambd).__name__!r}")
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)

    def __repr__(self):
        return f"{type(self).__name__}()"


class ToTensor:
    """PIL image or ``H x W x C`` uint8 ndarray -> ``C x H x W`` float tensor in [0, 1] (divided by 255)."""

    def __call__(self, pic):
        return F.to_tensor(pic)

    def __repr__(self):
        return f"{type(self).__name__}()"


class ToPILImage:
    """``C x H x W`` tensor (floats in [0, 1] or uint8) -> PIL image ("L", "RGB" or "RGBA")."""

    def __init__(self, mode=None):
        self.mode = mode

    def __call__(self, pic):
        return F.to_pil_image(pic, self.mode)

    def __repr__(self):
        return f"{type(self).__name__}(" + (f"mode={self.mode}" if self.mode is not None else "") + ")"


class Normalize:
    """``(x - mean[c]) / std[c]`` per channel: inputs centred near 0 with spread near 1 train faster.

    ``inplace=True`` overwrites the input tensor instead of returning a new one.
    """

    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace

    def __call__(self, tensor):
        return F.normalize(tensor, self.mean, self.std, self.inplace)

    def __repr__(self):
        return f"{type(self).__name__}(mean={self.mean}, std={self.std})"


class Resize:
    """Resize to ``size`` (``(h, w)``, or an int for the shorter side); see ``functional.resize``.

    ``antialias=True`` (default, as in torchvision) low-pass filters when shrinking a tensor with
    BILINEAR; ``False`` samples only the 2 x 2 nearest pixels, which is faster but aliases (thin
    strokes can disappear). Pillow always antialiases, whatever this flag says.
    """

    def __init__(self, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
        if not isinstance(size, (numbers.Integral, list, tuple)) or \
                (isinstance(size, (list, tuple)) and len(size) not in (1, 2)):
            raise TypeError(f"Size should be int or sequence. Got {type(size)}")
        self.size, self.max_size, self.antialias = size, max_size, antialias
        self.interpolation = as_interpolation(interpolation)

    def __call__(self, img):
        return F.resize(img, self.size, self.interpolation, self.max_size, self.antialias)

    def __repr__(self):
        return (f"{type(self).__name__}(size={self.size}, interpolation={self.interpolation.value}, "
                f"max_size={self.max_size}, antialias={self.antialias})")


class CenterCrop:
    """The centred ``size`` window (int -> square)."""

    def __init__(self, size):
        self.size = F._pair(size, "CenterCrop")

    def __call__(self, img):
        return F.center_crop(img, self.size)

    def __repr__(self):
        return f"{type(self).__name__}(size={self.size})"


class Pad:
    """Pad the borders; see ``functional.pad`` for ``padding`` and ``padding_mode``."""

    def __init__(self, padding, fill=0, padding_mode="constant"):
        F._padding_sides(padding)
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
        self.padding, self.fill, self.padding_mode = padding, fill, padding_mode

    def __call__(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)

    def __repr__(self):
        return f"{type(self).__name__}(padding={self.padding}, fill={self.fill}, padding_mode={self.padding_mode})"


class RandomCrop:
    """A ``size`` window at a random position, after optional ``padding`` (the classic CIFAR augmentation).

    The top-left corner ``(i, j)`` is drawn uniformly from every position where the window fits.
    ``pad_if_needed`` pads an image smaller than ``size`` instead of raising.
    """

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant", *, generator=None):
        self.size = F._pair(size, "RandomCrop")
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = padding, pad_if_needed, fill, padding_mode
        self.generator = generator

    @staticmethod
    def get_params(img, output_size, generator=None):
        """``(top, left, height, width)`` of a random crop of ``output_size`` from ``img``."""
        from ... import randint
        height, width = F.image_size(img)
        th, tw = output_size
        if height < th or width < tw:
            raise ValueError(f"Required crop size {(th, tw)} is larger than input image size {(height, width)}")
        if (height, width) == (th, tw):
            return 0, 0, height, width
        i = randint(0, height - th + 1, size=(1,), generator=generator).item()
        j = randint(0, width - tw + 1, size=(1,), generator=generator).item()
        return i, j, th, tw

    def __call__(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        height, width = F.image_size(img)
        if self.pad_if_needed and width < self.size[1]:
            img = F.pad(img, [self.size[1] - width, 0], self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            img = F.pad(img, [0, self.size[0] - height], self.fill, self.padding_mode)
        return F.crop(img, *self.get_params(img, self.size, self.generator))

    def __repr__(self):
        return f"{type(self).__name__}(size={self.size}, padding={self.padding})"


class RandomHorizontalFlip:
    """Mirror left-right with probability ``p``: a digit or a cat is still itself when mirrored."""

    def __init__(self, p=0.5, *, generator=None):
        self.p, self.generator = p, generator

    def __call__(self, img):
        return F.hflip(img) if _coin(self.p, self.generator) else img

    def __repr__(self):
        return f"{type(self).__name__}(p={self.p})"


class RandomVerticalFlip:
    """Mirror top-bottom with probability ``p``."""

    def __init__(self, p=0.5, *, generator=None):
        self.p, self.generator = p, generator

    def __call__(self, img):
        return F.vflip(img) if _coin(self.p, self.generator) else img

    def __repr__(self):
        return f"{type(self).__name__}(p={self.p})"


class RandomRotation:
    """Rotate by an angle drawn uniformly from ``degrees`` = ``(min, max)``, or ``(-d, d)`` for a number d.

    Any angle works; tensors are sampled nearest-neighbour (torchvision's default), and multiples of
    90 degrees are exact: ``RandomRotation((90, 90))`` always turns a square image a quarter
    counter-clockwise. Corners uncovered by the rotation get ``fill``.
    """

    def __init__(self, degrees, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=0, *,
                 generator=None):
        self.degrees = _degrees_range(degrees)
        self.interpolation = as_interpolation(interpolation)
        self.expand, self.center, self.fill, self.generator = expand, center, fill, generator

    @staticmethod
    def get_params(degrees, generator=None):
        from ... import rand
        low, high = float(degrees[0]), float(degrees[1])
        return low + (high - low) * rand(1, generator=generator).item()

    def __call__(self, img):
        angle = self.get_params(self.degrees, self.generator)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)

    def __repr__(self):
        text = f"{type(self).__name__}(degrees={self.degrees}, interpolation={self.interpolation.value}, " \
               f"expand={self.expand}"
        if self.center is not None:
            text += f", center={self.center}"
        return text + f", fill={self.fill})"


def _coin(p, generator):
    """True with probability ``p``, drawn from tensorlab's random numbers."""
    from ... import rand
    return rand(1, generator=generator).item() < p


def _degrees_range(degrees):
    if isinstance(degrees, numbers.Number):
        if degrees < 0:
            raise ValueError("If degrees is a single number, it must be positive.")
        return [-float(degrees), float(degrees)]
    if not isinstance(degrees, (list, tuple)) or len(degrees) != 2:
        raise ValueError("If degrees is a sequence, it must be of len 2.")
    return [float(d) for d in degrees]
