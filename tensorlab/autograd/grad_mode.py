"""Grad modes: whether new operations are recorded in the graph.

``no_grad`` switches recording off (evaluation, optimizer updates); ``enable_grad`` switches it back
on inside a ``no_grad`` block; both work as context managers and as decorators.
See course/05_autograd_basics.
"""
import functools


class _State:
    enabled = True


def is_grad_enabled():
    return _State.enabled


class _Mode:
    """Base for the grad-mode context managers: sets a flag on enter and restores it on exit."""

    _value = True

    def __enter__(self):
        self._prev = _State.enabled
        _State.enabled = self._value
        return None

    def __exit__(self, *exc):
        _State.enabled = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_Mode):
    """Do not record operations: results have ``requires_grad=False`` and no ``grad_fn``."""

    _value = False


class enable_grad(_Mode):
    """Record operations again (inside a ``no_grad`` block)."""

    _value = True


class set_grad_enabled(_Mode):
    """``set_grad_enabled(False)`` acts at once (like a function) and as a context manager."""

    def __init__(self, mode):
        self._prev = _State.enabled
        self._value = bool(mode)
        _State.enabled = self._value

    def __enter__(self):
        return None

    def __call__(self, fn):
        _State.enabled = self._prev
        mode = self._value

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return set_grad_enabled(self._value)


class inference_mode(_Mode):
    """Like ``no_grad`` (tensorlab has no separate inference tensors)."""

    def __init__(self, mode=True):
        self._value = not mode

    def __call__(self, fn):
        mode = not self._value

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)
        return wrapper


def is_inference_mode_enabled():
    return False
