"""Grad modes: whether new operations are recorded in the graph.

One global flag decides it. ``no_grad`` switches recording off (evaluation, optimizer updates),
``enable_grad`` switches it back on inside a ``no_grad`` block, ``set_grad_enabled(flag)`` sets it
from a value. Each works as a context manager and as a decorator (also on generator functions, where
the mode holds each time the generator resumes):

    with torch.no_grad():          @torch.no_grad()          torch.set_grad_enabled(False)
        y = model(x)               def evaluate(model): ...

See course/06_autograd_basics.
"""
import functools
import inspect


class _State:
    enabled = True
    inference = False


def is_grad_enabled():
    return _State.enabled


def is_inference_mode_enabled():
    return _State.inference


class _Mode:
    """Base of the grad-mode context managers: set the flag on enter, restore it on exit."""

    _value = True

    def __new__(cls, *args, **kwargs):
        # ``@no_grad`` without parentheses hands the function straight to the constructor
        if cls._accepts_function and len(args) == 1 and callable(args[0]) and not kwargs:
            return cls()(args[0])
        return super().__new__(cls)

    _accepts_function = True

    def __enter__(self):
        self._prev = (_State.enabled, _State.inference)
        _State.enabled = self._value
        return None

    def __exit__(self, *exc):
        _State.enabled, _State.inference = self._prev
        return False

    def __call__(self, fn):
        """Use as a decorator: ``fn`` runs inside a fresh copy of this mode."""
        if inspect.isgeneratorfunction(fn):
            return _wrap_generator(self, fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__()


def _wrap_generator(mode, gen_fn):
    """The mode holds while the generator runs, and not while its caller does."""
    @functools.wraps(gen_fn)
    def wrapper(*args, **kwargs):
        gen = gen_fn(*args, **kwargs)
        done, value = _resume(mode, gen.send, None)
        while not done:
            try:
                sent = yield value
            except GeneratorExit:
                with mode.clone():
                    gen.close()
                raise
            except BaseException as error:  # thrown into us: pass it on to the generator
                done, value = _resume(mode, gen.throw, error)
            else:
                done, value = _resume(mode, gen.send, sent)
        return value
    return wrapper


def _resume(mode, step, arg):
    """Run the generator until its next ``yield`` inside ``mode``: (finished?, value)."""
    with mode.clone():
        try:
            return False, step(arg)
        except StopIteration as stop:
            return True, stop.value


class no_grad(_Mode):
    """Do not record operations: results have ``requires_grad=False`` and no ``grad_fn``."""

    _value = False


class enable_grad(_Mode):
    """Record operations again (inside a ``no_grad`` block)."""

    _value = True


class set_grad_enabled(_Mode):
    """``set_grad_enabled(False)`` acts at once (like a function) and as a context manager."""

    _accepts_function = False

    def __init__(self, mode):
        self._prev = (_State.enabled, _State.inference)
        self._value = bool(mode)
        _State.enabled = self._value

    def __enter__(self):
        return None

    def __call__(self, fn):
        _State.enabled = self._prev[0]  # used as a decorator: the mode applies only inside fn
        return super().__call__(fn)

    def clone(self):
        return set_grad_enabled(self._value)


class inference_mode(_Mode):
    """Like ``no_grad``, for code that will never need gradients (tensorlab has no separate
    inference tensors, so it behaves exactly like ``no_grad``)."""

    def __init__(self, mode=True):
        self.mode = bool(mode)
        self._value = not self.mode

    def __enter__(self):
        super().__enter__()
        _State.inference = self.mode
        return None

    def clone(self):
        return inference_mode(self.mode)
