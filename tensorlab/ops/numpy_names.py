"""NumPy's names for two arguments: ``axis`` for ``dim``, ``keepdims`` for ``keepdim``.

PyTorch's argument parser -- the C++ layer every built-in function goes through -- accepts them on
every function that has a ``dim`` (or ``keepdim``) argument: ``A.sum(axis=0)``,
``A.sum(axis=1, keepdims=True)``, ``torch.cat(ts, axis=1)``, ``y.argmax(axis=1)``. Functions PyTorch
writes in Python do not go through that parser and refuse them with Python's own TypeError:
``x.split(2, axis=0)``, ``x.unique(axis=0)``, ``torch.norm(x, axis=0)``, ``F.softmax(x, axis=1)``.

tensorlab wraps exactly the functions PyTorch's parser handles (``accept_numpy_names``, applied to
every op and Tensor method that has a ``dim`` or ``keepdim`` parameter, by ops/__init__.py), so the
same calls work and the same calls fail. Giving both spellings is an error, as in PyTorch.
"""
import functools
import inspect

# NumPy's name -> PyTorch's
ALIASES = {"axis": "dim", "keepdims": "keepdim"}

# functions with a ``dim`` that PyTorch writes in Python: no NumPy names there
WRITTEN_IN_PYTHON = {"norm", "split", "unique", "unique_consecutive"}
METHODS_WRITTEN_IN_PYTHON = WRITTEN_IN_PYTHON | {"unflatten"}  # (torch.unflatten is C++, Tensor.unflatten not)


def takes_dim(fn):
    """Whether ``fn`` has a parameter named ``dim`` or ``keepdim`` (read off its code: no import-time cost)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:
        return False
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return "dim" in names or "keepdim" in names


def accept_numpy_names(fn):
    """``fn`` that also takes ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``."""
    @functools.wraps(fn)
    def with_numpy_names(*args, **kwargs):
        if "axis" in kwargs or "keepdims" in kwargs:
            kwargs = _renamed(fn.__name__, kwargs)
        return fn(*args, **kwargs)
    return with_numpy_names


def _renamed(name, kwargs):
    renamed = {}
    for key, value in kwargs.items():
        canonical = ALIASES.get(key, key)
        if canonical in kwargs and canonical != key:  # both spellings: PyTorch reports the alias as unknown
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        renamed[canonical] = value
    return renamed
