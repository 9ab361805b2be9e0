"""tensorlab.vision.transforms: torchvision's transforms, for PIL images and ``(..., C, H, W)`` tensors.

``transforms.functional`` holds the operations as plain functions. See course/18_data_and_transforms.
"""
from . import functional
from ._image import InterpolationMode
from .transforms import (CenterCrop, Compose, Lambda, Normalize, Pad, RandomCrop, RandomHorizontalFlip,
                         RandomRotation, RandomVerticalFlip, Resize, ToPILImage, ToTensor)

__all__ = ["functional", "InterpolationMode", "Compose", "ToTensor", "ToPILImage", "Normalize", "Resize",
           "CenterCrop", "Pad", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "RandomRotation",
           "Lambda"]
