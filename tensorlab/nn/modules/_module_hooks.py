"""Calling a module, and the hooks that watch it.

``model(x)`` is ``Module.__call__``: it runs the forward *pre*-hooks (which may replace the inputs),
``forward``, then the forward hooks (which may replace the output). Full backward hooks see the
gradients flowing out of the module (``grad_output``) and into its inputs (``grad_input``): the call
threads its inputs and outputs through an identity autograd Function whose backward reports them.
Every ``register_*`` returns a handle; ``handle.remove()`` unregisters the hook.
See course/11_modules_and_parameters.
"""
from collections import OrderedDict

from ...autograd.function import Function
from ...autograd.graph import RemovableHandle
from ...tensor import Tensor


class _Hooks(OrderedDict):
    """An ordered, weak-referenceable dict of hooks (handles refer to it weakly)."""


def _register(hooks, fn, prepend=False, kwargs_set=None, with_kwargs=False):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    if with_kwargs:
        kwargs_set.add(handle.id)
    return handle


class HooksMixin:
    """The hook registries of a Module and ``__call__`` (mixed into Module)."""

    def _init_hooks(self):
        set_ = object.__setattr__
        set_(self, "_forward_pre_hooks", _Hooks())
        set_(self, "_forward_pre_hooks_with_kwargs", set())
        set_(self, "_forward_hooks", _Hooks())
        set_(self, "_forward_hooks_with_kwargs", set())
        set_(self, "_forward_hooks_always_called", set())
        set_(self, "_backward_pre_hooks", _Hooks())
        set_(self, "_backward_hooks", _Hooks())

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` runs before forward; returning a value replaces ``args``.
        With ``with_kwargs=True``: ``hook(module, args, kwargs)`` returning ``(args, kwargs)``."""
        return _register(self._forward_pre_hooks, hook, prepend, self._forward_pre_hooks_with_kwargs,
                         with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook(module, args, output)`` runs after forward; returning a value replaces the output."""
        handle = _register(self._forward_hooks, hook, prepend, self._forward_hooks_with_kwargs, with_kwargs)
        if always_call:
            self._forward_hooks_always_called.add(handle.id)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs when the output gradients reach the module; it may return
        replacement ``grad_output``."""
        return _register(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs once the gradients of the module's inputs
        are computed; it may return replacement ``grad_input``."""
        return _register(self._backward_hooks, hook, prepend)

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)   # the common case: no hooks, no overhead
        return self._call_with_hooks(args, kwargs)

    _call_impl = __call__

    def _call_with_hooks(self, args, kwargs):
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        backward_state = None
        if (self._backward_hooks or self._backward_pre_hooks) and _grad_enabled():
            backward_state = _BackwardHookState(self)
            args = backward_state.wrap_inputs(args)
        output = self.forward(*args, **kwargs)
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                result = hook(self, args, kwargs, output)
            else:
                result = hook(self, args, output)
            if result is not None:
                output = result
        if backward_state is not None:
            output = backward_state.wrap_outputs(output)
        return output


def _grad_enabled():
    from ...autograd import grad_mode
    return grad_mode.is_grad_enabled()


class BackwardHookFunction(Function):
    """Identity on its tensor arguments; its backward is where module backward hooks run."""

    @staticmethod
    def forward(ctx, state, side, *tensors):
        ctx.state, ctx.side = state, side
        return tensors if len(tensors) != 1 else tensors[0]

    @staticmethod
    def backward(ctx, *grads):
        grads = ctx.state.on_grad(ctx.side, grads)
        return (None, None) + tuple(grads)


class _BackwardHookState:
    """Carries the gradients of one call from the output-side node to the input-side node."""

    def __init__(self, module):
        self.module = module
        self.n_inputs_wanting_grad = 0
        self.grad_output = None

    def wrap_inputs(self, args):
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        self.n_inputs_wanting_grad = len(positions)
        self.input_positions, self.n_args = positions, len(args)
        if not positions:
            return args
        wrapped = BackwardHookFunction.apply(self, "input", *(args[i] for i in positions))
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        args = list(args)
        for i, w in zip(positions, wrapped):
            args[i] = w
        return tuple(args)

    def wrap_outputs(self, output):
        single = isinstance(output, Tensor)
        outs = (output,) if single else output
        if not isinstance(outs, tuple):
            return output
        positions = [i for i, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
        if not positions:
            return output
        wrapped = BackwardHookFunction.apply(self, "output", *(outs[i] for i in positions))
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        outs = list(outs)
        for i, w in zip(positions, wrapped):
            outs[i] = w
        return outs[0] if single else tuple(outs)

    def on_grad(self, side, grads):
        module = self.module
        if side == "output":
            for hook in list(module._backward_pre_hooks.values()):
                result = hook(module, grads)
                if result is not None:
                    grads = tuple(result) if isinstance(result, (tuple, list)) else (result,)
            self.grad_output = grads
            if self.n_inputs_wanting_grad == 0 and module._backward_hooks:   # nothing reaches the inputs
                import warnings
                warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                              "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
                              "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for "
                              "more details.", UserWarning, stacklevel=2)
                for hook in list(module._backward_hooks.values()):
                    hook(module, (None,), grads)
            return grads
        grad_input = [None] * self.n_args
        for i, g in zip(self.input_positions, grads):
            grad_input[i] = g
        grad_input = tuple(grad_input)
        for hook in list(module._backward_hooks.values()):
            result = hook(module, grad_input, self.grad_output)
            if result is not None:
                grad_input = tuple(result)
        return tuple(grad_input[i] for i in self.input_positions)
