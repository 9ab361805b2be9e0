"""Datasets for the course: each item is ``(image, label)``, images optionally passed through a transform.

- ``Digits``: 1,797 handwritten digits, 8x8 -- shipped inside tensorlab, no download.
- ``MNIST``, ``FashionMNIST``: read from the standard IDX files in a local folder (never downloaded).
- ``ImageFolder``: one sub-folder of images per class.
- ``make_moons``, ``make_spirals``, ``make_blobs``: 2-D points for the first lessons.
- ``read_idx``, ``write_idx``: the IDX file format MNIST is stored in.
"""
from .vision import VisionDataset
from .digits import Digits
from .idx import read_idx, write_idx
from .mnist import MNIST, FashionMNIST
from .folder import IMG_EXTENSIONS, DatasetFolder, ImageFolder, default_loader, find_classes, pil_loader
from .synthetic import make_blobs, make_moons, make_spirals

__all__ = ["VisionDataset", "Digits", "MNIST", "FashionMNIST", "DatasetFolder", "ImageFolder", "IMG_EXTENSIONS",
           "default_loader", "find_classes", "pil_loader", "read_idx", "write_idx", "make_moons", "make_spirals",
           "make_blobs"]
