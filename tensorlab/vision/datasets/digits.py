"""Digits: 1,797 handwritten digits of 8x8 pixels, shipped inside tensorlab (no download).

The data is the UCI *Optical Recognition of Handwritten Digits* set as bundled with scikit-learn:
each pixel counts how many of the 16 pixels of a 4x4 block of a 32x32 scan were inked, so values
run 0..16. Small enough to train a LeNet on in seconds, real enough to make mistakes worth seeing.

Citation: E. Alpaydin and C. Kaynak (1998), Optical Recognition of Handwritten Digits, UCI Machine
Learning Repository, https://doi.org/10.24432/C50P49. Licence: CC BY 4.0. See data/README.md.
"""
import os

import numpy as np

from .vision import ArrayImageDataset

_SHIPPED = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "digits.npz")


class Digits(ArrayImageDataset):
    """The 8x8 handwritten digits, split reproducibly into train and test.

    Args:
        root: folder holding ``digits.npz``; ``None`` (default) uses the copy shipped with tensorlab.
        train: the training part (``True``) or the test part (``False``).
        transform: applied to each image. Without one an image is a ``float32`` tensor of shape
            ``(1, 8, 8)`` with values in [0, 1] (the raw 0..16 counts divided by 16). Images are
            already tensors, so use tensor transforms (Normalize, Resize, RandomCrop...), not ToTensor.
        target_transform: applied to each label (an ``int`` 0..9).
        split: the fraction of each digit's images that goes to the training part.
        seed: seeds the permutation that decides which images those are.

    The split is *stratified*: for every digit separately, its images are shuffled by
    ``numpy.random.default_rng(seed)`` and the first ``round(split * count)`` go to train, the rest
    to test; both parts keep the file's order. So each part has the same mix of digits, the split
    is identical on every machine, and it does not depend on ``tensorlab.manual_seed``. With the
    defaults: 1,438 training and 359 test images.

    ``data`` (uint8, N x 8 x 8, values 0..16) and ``targets`` (int64, N) hold the whole part as tensors.
    ``Digits.mean`` and ``Digits.std`` are the pixel statistics to pass to ``transforms.Normalize``.

    >>> from tensorlab.vision.datasets import Digits
    >>> train, test = Digits(train=True), Digits(train=False)
    >>> len(train), len(test)
    (1438, 359)
    >>> image, label = train[0]
    >>> image.shape, image.dtype, label
    (torch.Size([1, 8, 8]), torch.float32, 0)
    """

    classes = [str(d) for d in range(10)]
    max_value = 16
    # mean and standard deviation of the [0, 1] pixels over all 1,797 images: for transforms.Normalize
    mean, std = (0.3053,), (0.3760,)

    def __init__(self, root=None, train=True, transform=None, target_transform=None, split=0.8, seed=0):
        super().__init__(root, transform, target_transform)
        if not 0.0 < split < 1.0:
            raise ValueError(f"split must be a fraction strictly between 0 and 1, got {split}")
        self.train, self.split, self.seed = bool(train), float(split), seed
        images, labels = _load(root)
        keep = _stratified_part(labels, split, seed, train)
        self._images = np.ascontiguousarray(images[keep])                      # uint8, 0..16
        self._labels = labels[keep].astype(np.int64)
        self._scaled = (self._images[:, None] / np.float32(self.max_value)).astype(np.float32)

    def __getitem__(self, index):
        from ... import from_numpy
        image = from_numpy(self._scaled[index].copy())
        return self._apply_transforms(image, int(self._labels[index]))

    def extra_repr(self):
        return f"Split: {'Train' if self.train else 'Test'} ({self.split:.0%} of each digit, seed={self.seed})"


def _load(root):
    """``(images uint8 (1797, 8, 8), labels uint8 (1797,))`` from ``root/digits.npz`` or the shipped copy."""
    path = _SHIPPED if root is None else os.path.join(os.path.expanduser(os.fspath(root)), "digits.npz")
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"Digits: no file {path}. Leave root=None to use the copy shipped with tensorlab "
            f"({_SHIPPED}), or copy that file into the folder you pass as root.")
    with np.load(path) as archive:
        return archive["images"], archive["labels"]


def _stratified_part(labels, split, seed, train):
    """Indices (in file order) of the train or test part: per class, a seeded shuffle cut at ``split``."""
    rng = np.random.default_rng(seed)
    chosen = []
    for label in np.unique(labels):
        members = rng.permutation(np.flatnonzero(labels == label))
        cut = int(round(split * len(members)))
        chosen.append(members[:cut] if train else members[cut:])
    return np.sort(np.concatenate(chosen))
