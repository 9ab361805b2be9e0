"""VisionDataset: the common shape of every image dataset.

A dataset is anything with ``__len__`` and ``__getitem__``; a *vision* dataset also remembers where
its files are (``root``) and two optional functions applied to each item as it is read:
``transform`` for the image (e.g. ``transforms.ToTensor()``) and ``target_transform`` for the label.
Nothing is transformed ahead of time: a random transform draws new randomness on every read,
which is what makes data augmentation work. See course/18_data_and_transforms.
"""
import os

from ...utils.data import Dataset


class VisionDataset(Dataset):
    """Base class: stores ``root``, ``transform``, ``target_transform`` and prints like torchvision."""

    _repr_indent = 4

    def __init__(self, root=None, transform=None, target_transform=None):
        if isinstance(root, (str, os.PathLike)):
            root = os.path.expanduser(os.fspath(root))
        self.root = root
        self.transform = transform
        self.target_transform = target_transform

    def _apply_transforms(self, image, target):
        """The one place where a dataset's transforms run: image first, then label."""
        if self.transform is not None:
            image = self.transform(image)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return image, target

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __len__")

    def extra_repr(self):
        """Lines a subclass adds to its printout (e.g. ``Split: Train``)."""
        return ""

    def __repr__(self):
        lines = [f"Number of datapoints: {len(self)}"]
        if self.root is not None:
            lines.append(f"Root location: {self.root}")
        lines += [line for line in self.extra_repr().splitlines() if line]
        for name in ("transform", "target_transform"):
            fn = getattr(self, name)
            if fn is not None:
                label = "Transform: " if name == "transform" else "Target transform: "
                body = repr(fn).splitlines()
                lines.append(label + body[0])
                lines += [" " * len(label) + line for line in body[1:]]
        pad = " " * self._repr_indent
        return "\n".join([f"Dataset {type(self).__name__}"] + [pad + line for line in lines])


class ArrayImageDataset(VisionDataset):
    """A vision dataset held in memory as two arrays: ``_images`` (uint8) and ``_labels`` (int64)."""

    @property
    def data(self):
        """All images as one tensor (sharing the dataset's memory)."""
        from ... import from_numpy
        return from_numpy(self._images)

    @property
    def targets(self):
        """All labels as one int64 tensor."""
        from ... import from_numpy
        return from_numpy(self._labels)

    @property
    def class_to_idx(self):
        return {name: i for i, name in enumerate(self.classes)}

    def __len__(self):
        return len(self._labels)
