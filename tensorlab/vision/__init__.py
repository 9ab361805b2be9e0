"""tensorlab.vision: what torchvision adds to PyTorch, for the course's image lessons.

- ``datasets``: Digits (8x8, shipped with tensorlab), MNIST / FashionMNIST (from local IDX files),
  ImageFolder, and the synthetic 2-D sets of the first lessons (make_moons, make_spirals, make_blobs).
- ``transforms``: Compose, ToTensor, Normalize, Resize, crops, flips, rotations...
- ``utils``: make_grid, save_image.
- ``models``: MLP, LeNet5, a tiny ResNet.
- ``training``: train_epoch / evaluate / fit, a plain training loop with a progress bar.

Submodules are imported on first use, so ``import tensorlab.vision`` stays fast.
"""
import importlib

_SUBMODULES = ("datasets", "transforms", "utils", "models", "training")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tensorlab.vision' has no attribute '{name}'")


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))
