"""tensorlab.nn: building blocks for neural networks.

* ``Parameter`` (parameter.py): a tensor that a Module registers as a learnable weight.
* ``Module`` (modules/module.py): the base class -- registration, traversal, state_dict, hooks.
* containers (modules/container.py): Sequential, ModuleList, ModuleDict, ParameterList/Dict.
* layers (modules/*.py): Linear, Conv2d, MaxPool2d, BatchNorm2d, Dropout, Embedding, ReLU, losses...
* ``functional`` (``F``): the same computations as plain functions; ``init``: weight initialisation;
  ``utils``: gradient clipping and parameter/vector conversion.
See course/11_modules_and_parameters.
"""
from . import functional, init  # noqa: F401
from .modules import *  # noqa: F401,F403
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter  # noqa: F401


def __getattr__(name):
    if name == "utils":
        import importlib
        return importlib.import_module(".utils", __name__)
    raise AttributeError(f"module 'tensorlab.nn' has no attribute '{name}'")

