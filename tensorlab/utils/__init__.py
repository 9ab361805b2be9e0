"""tensorlab.utils: data loading (``utils.data``), progress bars, TensorBoard logging, activation
checkpointing (``utils.checkpoint``) and dispatch modes (``utils._python_dispatch``).

Submodules are imported on first use so ``import tensorlab`` stays fast.
"""
import importlib


def __getattr__(name):
    if name in ("data", "progress", "tensorboard", "checkpoint", "_python_dispatch"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tensorlab.utils' has no attribute '{name}'")
