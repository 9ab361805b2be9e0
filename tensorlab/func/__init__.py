"""tensorlab.func: function transforms, as in torch.func.

A transform takes a function and returns a new one: ``grad(f)`` computes f's gradient, ``vmap(f)`` runs f
on a batch, ``jacrev(f)`` its Jacobian. They compose -- ``vmap(grad(loss))`` is per-sample gradients,
``grad(grad(f))`` a second derivative -- and ``functional_call`` turns a Module into a function of its
parameters so the transforms apply to models. Read ``_eager.py`` (reverse mode), ``_vmap.py`` with
``_batched.py`` and ``_batching_rules.py`` (batching), ``_functional_call.py`` (modules as functions).
See course/24_function_transforms.
"""
from ._eager import grad, grad_and_value, jacrev, vjp
from ._functional_call import functional_call, stack_module_state
from ._vmap import vmap

_FORWARD_MODE = ("jvp", "jacfwd", "hessian", "linearize")


def __getattr__(name):
    """Forward-mode transforms live in ``_forward.py`` (loaded on first use)."""
    if name in _FORWARD_MODE:
        import importlib
        try:
            module = importlib.import_module("._forward", __name__)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}._forward":
                raise
            raise AttributeError(f"module 'tensorlab.func' has no attribute '{name}'") from None
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module 'tensorlab.func' has no attribute '{name}'")


__all__ = ["grad", "grad_and_value", "vjp", "jacrev", "vmap", "functional_call", "stack_module_state"]
