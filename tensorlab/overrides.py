"""tensorlab.overrides: the public face of ``__torch_function__`` (PyTorch's ``torch.overrides``).

The mechanism itself -- who is asked first, the default ``Tensor.__torch_function__``, the wrappers that
make each public callable overridable -- is in tensorlab/_torch_function.py. Here are the tools a library
author uses with it:

* ``TorchFunctionMode``: subclass it, define ``__torch_function__(self, func, types, args, kwargs)``, and
  every public tensorlab call inside ``with MyMode():`` goes through it (factories like ``zeros`` too);
* ``has_torch_function`` / ``handle_torch_function``: make *your own* function overridable, as
  ``torch.nn.functional``'s Python functions are;
* ``is_tensor_like``, ``get_overridable_functions``, ``get_ignored_functions``,
  ``is_tensor_method_or_property``: questions about what takes part.

PyTorch's ``torch._C.DisableTorchFunctionSubclass`` and ``torch._C.DisableTorchFunction`` live in C++; here
they are plain context managers, importable from this module and from ``tensorlab._C``.
See course/25_the_dispatcher.
"""
import warnings

from . import _torch_function as _tf
from ._torch_function import (DisableTorchFunction, DisableTorchFunctionSubclass,  # noqa: F401
                              _disabled_torch_function_impl, is_torch_function_enabled)
from .tensor import Tensor

__all__ = ["BaseTorchFunctionMode", "TorchFunctionMode", "get_ignored_functions", "get_overridable_functions",
           "handle_torch_function", "has_torch_function", "has_torch_function_unary",
           "has_torch_function_variadic", "is_tensor_like", "is_tensor_method_or_property"]


class TorchFunctionMode:
    """A context manager that sees every public tensorlab call made inside its ``with`` block.

        class Log(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                print(func.__name__)
                return func(*args, **(kwargs or {}))

        with Log():
            torch.relu(x) + 1       # prints relu, add

    While its handler runs the mode is switched off, so the handler's own calls (``func(*args)``) go to
    the mode below it, then to the arguments' ``__torch_function__``, then to the real function. Modes
    nest: the one entered last is asked first.
    """

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        _tf.install()
        _tf._State.modes.append(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _tf._State.modes.remove(self)

    @classmethod
    def push(cls, *args, **kwargs):
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just `with Mode()`",
                      stacklevel=2)
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs every call unchanged: subclass it and override only what you need."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _get_current_function_mode():
    return _tf.current_mode()


def _get_current_function_mode_stack():
    return list(_tf._State.modes)


def _is_torch_function_mode_enabled():
    return _tf.current_mode() is not None


# -- making your own functions overridable ------------------------------------------------------------


def has_torch_function(relevant_args):
    """Would a call with these arguments be handed to ``__torch_function__``? True when one of them
    (not an exact Tensor) defines it, or a mode is active."""
    if not _tf._State.enabled:
        return False
    return bool(_tf._State.modes) or (_tf._State.subclasses and bool(_tf._overloaded_args(relevant_args)))


def has_torch_function_unary(input):
    return has_torch_function((input,))


def has_torch_function_variadic(*args):
    return has_torch_function(args)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Call the ``__torch_function__`` that should handle ``public_api(*args, **kwargs)``.

        def my_op(x):
            if has_torch_function_unary(x):
                return handle_torch_function(my_op, (x,), x)
            return x * 2
    """
    overloaded = _tf._overloaded_args(relevant_args) if _tf._State.subclasses else []
    mode = _tf.current_mode()
    result = _tf.try_handlers(public_api, overloaded, args, kwargs)
    if result is not NotImplemented:
        return result
    message = (f"no implementation found for '{public_api.__module__}.{public_api.__name__}' on types that "
               f"implement __torch_function__: {[type(arg) for arg in overloaded]}")
    if mode is not None:
        message += f" nor in mode {mode}"
    raise TypeError(message)


def is_tensor_like(inp):
    """True for a Tensor, or for anything (an object or a class) that defines ``__torch_function__``."""
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


# -- what takes part ---------------------------------------------------------------------------------


def get_overridable_functions():
    """``{namespace: [callables]}`` for tensorlab, tensorlab.nn.functional and Tensor: everything a
    ``__torch_function__`` can take over. (Asking switches the mechanism on: see _torch_function.py.)"""
    import tensorlab
    from tensorlab.nn import functional
    _tf.install()
    found = {}
    for namespace in (tensorlab, functional):
        found[namespace] = sorted({f for f in vars(namespace).values() if _tf.is_wrapped(f)},
                                  key=lambda f: f.__name__)
    found[Tensor] = [f for name, f in sorted(vars(Tensor).items()) if _tf.is_wrapped(f)]
    return found


def get_ignored_functions():
    """Public callables of tensorlab that ``__torch_function__`` does not see: ``is_tensor``, the
    dtype defaults, grad-mode switches... (Tensor's properties, too, are not dispatched here.)"""
    import inspect
    import tensorlab
    _tf.install()
    return {f for name, f in vars(tensorlab).items()
            if not name.startswith("_") and inspect.isfunction(f) and not _tf.is_wrapped(f)}


def is_tensor_method_or_property(func):
    """Is ``func`` one of Tensor's methods (``Tensor.add``) rather than a function (``tensorlab.add``)?
    tensorlab.fx asks, to record ``call_method`` rather than ``call_function``."""
    name = getattr(func, "__name__", None)
    if isinstance(func, property) or name == "__get__":
        return True
    return name is not None and vars(Tensor).get(name) is func
