"""The two libraries a lesson's code can run on: tensorlab always, PyTorch when it is installed.

A lesson writes ``import tensorlab as torch``; the cross-check and the exercise checks run the same
code a second time with ``torch`` meaning the real PyTorch. Two small tools make that possible:

- :func:`libraries` lists what is available, tensorlab first;
- :func:`on` re-creates a learner's function so that, inside it, the name that meant tensorlab
  (``torch``, ``nn``, ``F`` ...) means the same part of the other library.

    >>> import tensorlab
    >>> [name for name, module in libraries()][0]
    'tensorlab'
    >>> def double(x):
    ...     return torch.mul(x, 2)
    >>> torch = tensorlab
    >>> on(tensorlab, double)(tensorlab.tensor([1, 2]))
    tensor([2, 4])
"""
from __future__ import annotations

import builtins
import importlib
import types

#: The names of the two libraries as lessons print them.
TENSORLAB, PYTORCH = "tensorlab", "PyTorch"

#: The PyTorch release the course and its stored outputs are checked against (README.md,
#: "PyTorch, the test oracle").
ORACLE_VERSION = "2.13.0"


def _import_torch():
    """Real PyTorch, or None. Tests replace this function to pretend PyTorch is missing."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def torch_or_none():
    """The real PyTorch module when it is installed, else None."""
    return _import_torch()


def libraries():
    """``[(name, module)]``: tensorlab, then PyTorch when it is installed."""
    import tensorlab
    found = [(TENSORLAB, tensorlab)]
    torch = torch_or_none()
    if torch is not None:
        found.append((PYTORCH, torch))
    return found


def library_name(module):
    """'tensorlab' or 'PyTorch 2.x.y' for a library's top module (for messages)."""
    if module.__name__.split(".")[0] == "tensorlab":
        return TENSORLAB
    return f"{PYTORCH} {module.__version__.split('+')[0]}"


def counterpart(module, library):
    """The module of ``library`` that plays the role ``module`` plays in its own library:
    ``tensorlab.nn.functional`` -> ``torch.nn.functional`` and back; None when there is none."""
    top, _, rest = module.__name__.partition(".")
    if top not in ("tensorlab", "torch"):
        return None
    target = library.__name__ + ("." + rest if rest else "")
    try:
        return importlib.import_module(target)
    except ImportError:
        return None


def on(library, function):
    """A copy of ``function`` whose global names that refer to tensorlab or torch (modules) refer to
    the same modules of ``library`` instead. Inputs are passed in by the caller, so a function that
    only uses its arguments and ``torch.xxx`` runs unchanged on either library."""
    if not isinstance(function, types.FunctionType):
        return function
    names = dict(function.__globals__)
    for name, value in function.__globals__.items():
        if isinstance(value, types.ModuleType):
            other = counterpart(value, library)
            if other is not None:
                names[name] = other
    copy = types.FunctionType(function.__code__, names, function.__name__, function.__defaults__,
                              function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    return copy


def importer(library):
    """An ``__import__`` for code run on ``library``: ``import torch`` and ``import tensorlab``
    (and their submodules) both give ``library``'s modules, so a snippet means the same thing
    whichever way its author spelled the import."""
    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        top, _, rest = name.partition(".")
        if level == 0 and top in ("torch", "tensorlab"):
            target = library.__name__ + ("." + rest if rest else "")
            module = importlib.import_module(target)
            return module if fromlist else library
        return builtins.__import__(name, globals, locals, fromlist, level)
    return _import


def namespace(library):
    """A fresh global namespace for a snippet run on ``library``: ``torch`` and ``np`` defined,
    imports of torch/tensorlab redirected to ``library``."""
    import numpy
    patched = dict(vars(builtins))
    patched["__import__"] = importer(library)
    return {"__name__": "__crosscheck__", "__builtins__": patched, "torch": library,
            "np": numpy, "numpy": numpy}


def _class_counterpart(base, library):
    """The class of ``library`` that plays the role of ``base`` (``tensorlab.nn.Module`` ->
    ``torch.nn.Module``); ``base`` itself when it belongs to neither library."""
    top = base.__module__.split(".")[0]
    if top not in ("tensorlab", "torch"):
        return base
    module = importlib.import_module(library.__name__ + base.__module__[len(top):])
    return getattr(module, base.__name__)


def _method_on(library, function, old, new):
    """:func:`on` for a method of class ``old`` re-created as ``new``: ``super(Old, self)`` and the
    zero-argument ``super()`` (which reads the ``__class__`` cell) then mean ``new``."""
    copy = on(library, function)
    for name, value in list(copy.__globals__.items()):
        if value is old:
            copy.__globals__[name] = new
    if "__class__" in function.__code__.co_freevars:
        cells = list(copy.__closure__)
        cells[function.__code__.co_freevars.index("__class__")] = types.CellType(new)
        copy = types.FunctionType(copy.__code__, copy.__globals__, copy.__name__, copy.__defaults__,
                                  tuple(cells))
        copy.__kwdefaults__ = function.__kwdefaults__
    return copy


def class_on(library, cls):
    """The class counterpart of :func:`on`: ``cls`` (e.g. an ``nn.Module`` subclass written with
    tensorlab) re-created so that it runs on ``library`` -- its bases and the names in its methods
    mapped to ``library``'s. On tensorlab, ``cls`` itself."""
    if library.__name__ == "tensorlab" or not isinstance(cls, type):
        return cls
    new = type(cls.__name__, tuple(_class_counterpart(b, library) for b in cls.__bases__), {})
    for key, value in vars(cls).items():
        if key in ("__dict__", "__weakref__"):
            continue
        if isinstance(value, types.FunctionType):
            value = _method_on(library, value, cls, new)
        elif isinstance(value, (staticmethod, classmethod)) and isinstance(value.__func__, types.FunctionType):
            value = type(value)(_method_on(library, value.__func__, cls, new))
        setattr(new, key, value)
    return new
