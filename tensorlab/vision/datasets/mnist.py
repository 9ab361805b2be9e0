"""MNIST and Fashion-MNIST, read from the standard IDX files in a local folder.

tensorlab never downloads: the course runs without network access. Put the four files
(``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``, ``t10k-images-idx3-ubyte``,
``t10k-labels-idx1-ubyte``, each optionally ``.gz``) in ``root/MNIST/raw/`` -- torchvision's layout,
so a folder torchvision already downloaded works as is -- or directly in ``root``.
Each item is ``(PIL image of mode "L", int label)``, as in torchvision; ``transforms.ToTensor()``
turns the image into a 1 x 28 x 28 float tensor in [0, 1].
"""
import os

import numpy as np

from .idx import read_idx
from .vision import ArrayImageDataset


class MNIST(ArrayImageDataset):
    """The MNIST handwritten digits: 60,000 training and 10,000 test images of 28 x 28 pixels.

    Args:
        root: the folder that holds ``MNIST/raw/`` (or the IDX files themselves).
        train: training files (``train-*``) or test files (``t10k-*``).
        transform, target_transform: applied to each image / label as it is read.
        download: tensorlab cannot download. With ``download=True`` a present copy is used as usual;
            a missing one raises ``RuntimeError`` saying how to get the files.

    ``data`` (uint8, N x 28 x 28) and ``targets`` (int64, N) hold the whole split as tensors.
    """

    files = {True: ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
             False: ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}
    homepage = "https://yann.lecun.com/exdb/mnist/ (mirrored by torchvision and many others)"
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five", "6 - six", "7 - seven",
               "8 - eight", "9 - nine"]

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        super().__init__(root, transform, target_transform)
        self.train = bool(train)
        paths = self._find_files(download)
        images, labels = read_idx(paths[0]), read_idx(paths[1])
        if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
            raise ValueError(f"{type(self).__name__}: {paths[0]} holds an array of shape {images.shape} and "
                             f"{paths[1]} one of shape {labels.shape}; expected (N, H, W) images and N labels.")
        self._images = np.ascontiguousarray(images, dtype=np.uint8)
        self._labels = labels.astype(np.int64)

    @property
    def raw_folder(self):
        return os.path.join(self.root, type(self).__name__, "raw")

    def __getitem__(self, index):
        image = _to_pil(self._images[index])
        return self._apply_transforms(image, int(self._labels[index]))

    def extra_repr(self):
        return f"Split: {'Train' if self.train else 'Test'}"

    def _find_files(self, download):
        """Paths of the images file and the labels file, from the first folder that has both."""
        folders = [self.raw_folder, os.path.join(self.root, type(self).__name__), self.root]
        for folder in folders:
            found = [_existing(os.path.join(folder, name)) for name in self.files[self.train]]
            if all(found):
                return found
        names = ", ".join(self.files[self.train])
        where = f"{self.raw_folder}{os.sep} (torchvision's layout) or {self.root}{os.sep}"
        if download:
            raise RuntimeError(
                f"{type(self).__name__}(download=True): tensorlab never downloads -- the course runs without "
                f"network access. Copy the IDX files {names} (each may end in .gz; get them from "
                f"{self.homepage}, or from a torchvision download folder) into {where}, then drop download=True.")
        raise FileNotFoundError(
            f"{type(self).__name__} files not found: expected {names} (each may end in .gz) in {where}. "
            f"tensorlab does not download them; get them from {self.homepage} and copy them there.")


class FashionMNIST(MNIST):
    """Zalando's Fashion-MNIST: MNIST's format and sizes, with ten kinds of clothing instead of digits.

    The files have MNIST's names, in ``root/FashionMNIST/raw/`` (or directly in ``root``).
    """

    homepage = "https://github.com/zalandoresearch/fashion-mnist"
    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]


def _existing(path):
    """``path`` or ``path + '.gz'``, whichever exists; ``None`` if neither."""
    for candidate in (path, path + ".gz"):
        if os.path.isfile(candidate):
            return candidate
    return None


def _to_pil(array):
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("MNIST items are PIL images, as in torchvision: install Pillow "
                          "(pip install pillow, or pip install tensorlab[vision]).") from None
    return Image.fromarray(array)
