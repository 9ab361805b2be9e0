"""tensorlab.optim: algorithms that update parameters from their gradients.

``Optimizer`` (optimizer.py) holds parameter groups and per-parameter state; each algorithm is one
short file: ``SGD`` (sgd.py), ``Adam`` (adam.py), ``AdamW`` (adamw.py), ``RMSprop`` (rmsprop.py),
``Adagrad`` (adagrad.py). ``lr_scheduler`` changes the learning rate as training goes.
See course/10_training_loop and course/11_optimizers.
"""
import importlib

from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]

_LAZY = {"Adam": ".adam", "AdamW": ".adamw", "RMSprop": ".rmsprop", "Adagrad": ".adagrad"}


def __getattr__(name):
    """The other algorithms and ``lr_scheduler`` load on first use."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    if name == "lr_scheduler":
        return importlib.import_module(".lr_scheduler", __name__)
    raise AttributeError(f"module 'tensorlab.optim' has no attribute '{name}'")
