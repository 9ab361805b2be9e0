"""TorchDispatchMode: watch every op as it runs, below autograd, by its ATen name.

Subclass it, override ``__torch_dispatch__``, and use it as a context manager. Inside the block, every op
-- those you call, and those that ``loss.backward()`` runs for you -- calls

    __torch_dispatch__(self, func, types, args=(), kwargs=None)

where ``func`` is the op's ATen overload (``aten.mm.default``, tensorlab/_aten.py). While it runs, the
mode is off, so ``func(*args, **kwargs)`` runs the op itself (and the ops the mode calls do not come
back to it). Modes nest: the innermost one sees the op first; when it calls ``func``, the next mode out
sees it.

    >>> import tensorlab as torch
    >>> from tensorlab.utils._python_dispatch import TorchDispatchMode
    >>> class Log(TorchDispatchMode):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.names = []
    ...     def __torch_dispatch__(self, func, types, args=(), kwargs=None):
    ...         self.names.append(str(func))
    ...         return func(*args, **(kwargs or {}))
    >>> x = torch.ones(2, 3, requires_grad=True)
    >>> w, b = torch.ones(4, 3), torch.zeros(4)
    >>> with Log() as log:
    ...     torch.nn.functional.linear(x, w, b).relu().sum().backward()
    >>> log.names    # doctest: +NORMALIZE_WHITESPACE
    ['aten.t.default', 'aten.addmm.default', 'aten.relu.default', 'aten.sum.default', 'aten.expand.default',
     'aten.threshold_backward.default', 'aten.t.default', 'aten.mm.default']

How it differs from PyTorch's (tests/test_dispatch_mode.py checks the lists against PyTorch's):

- PyTorch dispatches below autograd, so its mode also sees the autograd engine's own bookkeeping:
  ``aten.ones_like`` for the implicit gradient of ``loss.backward()``, ``aten.detach`` when a saved
  tensor or a leaf's ``.grad`` is stored, ``aten.add``/``add_`` when two gradients meet or ``.grad``
  accumulates. tensorlab's engine does those on arrays, so the mode does not see them.
- Where tensorlab's backward formula is a short decomposition instead of one fused kernel, the mode sees
  the pieces: ``mse_loss_backward`` is ``sub, mul, div, mul``; ``tanh_backward`` is ``mul, rsub, mul``;
  ``sigmoid_backward`` is ``rsub, mul, mul``; ``nll_loss_backward`` is a ``mul``; a sum's gradient
  re-inserts each reduced dim (``unsqueeze``) before the ``expand``.
- The mode sees the ops that go through ``Function.apply``: every differentiable op. Ops that have no
  gradient at all -- comparisons (``x > 0``), creation (``zeros``, ``ones_like``), ``argmax`` -- run
  directly on arrays, so the mode does not see them (PyTorch's does).
- ``args`` are the arguments of tensorlab's Function for the op (mostly ATen's schema), and a custom
  ``autograd.Function`` is one op, ``tensorlab.<Name>.default`` (PyTorch sees the ops inside it).

See course/25_the_dispatcher.
"""
from ..autograd.function import OpLayer, _op_layers, pop_op_layer, push_op_layer
from .._aten import overload_for

_pending = []   # (func, proceed) of the ops being handled now: calling ``func`` runs ``proceed``


class TorchDispatchMode(OpLayer):
    """A context manager whose ``__torch_dispatch__`` sees every op, by its ATen overload."""

    def __init__(self, _dispatch_key=None):
        pass

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        push_op_layer(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        pop_op_layer(self)

    @classmethod
    def push(cls, *args, **kwargs):
        """Make a mode (to be entered with ``with``), as PyTorch's ``TorchDispatchMode.push``."""
        return cls(*args, **kwargs)

    def handle(self, cls, args, kwargs, proceed):
        """The OpLayer side: name the op, let ``__torch_dispatch__`` decide, running it via ``func``."""
        func = overload_for(cls, args)
        _pending.append((func, proceed))
        try:
            return self.__torch_dispatch__(func, (), args, dict(kwargs))
        finally:
            _pending.pop()


def _get_current_dispatch_mode():
    """The innermost active mode (None when there is none)."""
    for layer in reversed(_op_layers):
        if isinstance(layer, TorchDispatchMode):
            return layer
    return None


def _get_current_dispatch_mode_stack():
    return [layer for layer in _op_layers if isinstance(layer, TorchDispatchMode)]


def is_in_torch_dispatch_mode():
    return _get_current_dispatch_mode() is not None
