"""ImageFolder: a dataset made of a folder with one sub-folder of images per class.

::

    root/cat/001.png          classes      = ["cat", "dog"]          (sub-folder names, sorted)
    root/cat/002.png          class_to_idx = {"cat": 0, "dog": 1}
    root/dog/001.png          samples      = [(".../cat/001.png", 0), (".../cat/002.png", 0),
                                              (".../dog/001.png", 1)]

Nothing is read until an item is asked for: ``dataset[i]`` opens ``samples[i][0]`` with the loader
(Pillow, converted to RGB), applies the transform, and returns ``(image, class index)``.
"""
import os

from .vision import VisionDataset

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def find_classes(directory):
    """``(classes, class_to_idx)``: the sub-folder names of ``directory``, sorted, and their indices."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"ImageFolder: no folder {directory}")
    classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())
    if not classes:
        raise FileNotFoundError(f"Couldn't find any class folder in {directory}.")
    return classes, {name: i for i, name in enumerate(classes)}


def make_dataset(directory, class_to_idx, extensions=None, is_valid_file=None, allow_empty=False):
    """``[(path, class_index), ...]``: every valid file under each class folder, in sorted order."""
    if (extensions is None) == (is_valid_file is None):
        raise ValueError("Both extensions and is_valid_file cannot be None or not None at the same time")
    if is_valid_file is None:
        def is_valid_file(path):
            return path.lower().endswith(tuple(extensions))
    samples, empty = [], []
    for name in sorted(class_to_idx):
        found = [(path, class_to_idx[name]) for path in _walk_sorted(os.path.join(directory, name))
                 if is_valid_file(path)]
        samples += found
        if not found:
            empty.append(name)
    if empty and not allow_empty:
        message = f"Found no valid file for the classes {', '.join(empty)}. "
        if extensions is not None:
            message += f"Supported extensions are: {', '.join(extensions)}"
        raise FileNotFoundError(message)
    return samples


def _walk_sorted(folder):
    for dirpath, _, filenames in sorted(os.walk(folder, followlinks=True)):
        for name in sorted(filenames):
            yield os.path.join(dirpath, name)


def pil_loader(path):
    """Open an image file with Pillow and convert it to RGB (so grayscale and RGBA files mix)."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("ImageFolder reads images with Pillow: pip install pillow "
                          "(or pip install tensorlab[vision]).") from None
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


default_loader = pil_loader


class DatasetFolder(VisionDataset):
    """Samples found in class sub-folders of ``root``, read by ``loader``; see the module docstring."""

    def __init__(self, root, loader, extensions=None, transform=None, target_transform=None,
                 is_valid_file=None, allow_empty=False):
        super().__init__(root, transform, target_transform)
        self.classes, self.class_to_idx = self.find_classes(self.root)
        self.samples = make_dataset(self.root, self.class_to_idx, extensions, is_valid_file, allow_empty)
        self.loader = loader
        self.extensions = extensions
        self.targets = [target for _, target in self.samples]

    @staticmethod
    def find_classes(directory):
        return find_classes(directory)

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, index):
        path, target = self.samples[index]
        return self._apply_transforms(self.loader(path), target)


class ImageFolder(DatasetFolder):
    """A :class:`DatasetFolder` of image files (``IMG_EXTENSIONS``) opened with Pillow as RGB images.

    ``imgs`` is another name for ``samples``, as in torchvision.
    """

    def __init__(self, root, transform=None, target_transform=None, loader=default_loader, is_valid_file=None,
                 allow_empty=False):
        super().__init__(root, loader, IMG_EXTENSIONS if is_valid_file is None else None, transform,
                         target_transform, is_valid_file, allow_empty)
        self.imgs = self.samples
