"""tensorlab.utils: data loading (``utils.data``), progress bars, TensorBoard logging.

Submodules are imported on first use so ``import tensorlab`` stays fast.
"""
import importlib


def __getattr__(name):
    if name in ("data", "progress", "tensorboard", "checkpoint"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tensorlab.utils' has no attribute '{name}'")
