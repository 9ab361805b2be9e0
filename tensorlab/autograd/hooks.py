"""Hooks: places where your code sees -- and may change -- gradients while backward runs.

On a tensor (``Tensor.register_hook(fn)``): ``fn(grad)`` runs when the gradient of that tensor has
been summed, before it goes on; returning a tensor replaces the gradient (same size and type). The
hook lives on the tensor's grad_fn, at the tensor's output slot -- so after an in-place op gives the
tensor a new history, old hooks still watch the *old* value, and new ones the new value.
``retain_grad()`` is a hook that stores the gradient in ``.grad``; it runs after all the other hooks
on the same tensor, whatever the registration order, and follows the tensor through in-place ops.

On a leaf, the hooks run just before its AccumulateGrad writes ``.grad``;
``register_post_accumulate_grad_hook(fn)`` runs ``fn(tensor)`` just after.

On a node (``node.register_prehook(fn)``, ``node.register_hook(fn)``): ``fn(grad_outputs)`` before it
runs, ``fn(grad_inputs, grad_outputs)`` after; either may return replacements.

Every ``register_*`` returns a handle whose ``remove()`` takes the hook away again.
See course/07_the_backward_graph.
"""
import weakref

from .. import tensor as _t
from .graph import AccumulateGrad, HookDict, add_hook

# -- registering (called by the Tensor methods of the same names) -----------------------------------------


def register_tensor_hook(t, hook):
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node = t.grad_fn
    if node is None:  # a leaf: the hook runs just before its AccumulateGrad
        if t._backward_hooks is None:
            t._backward_hooks = HookDict()
        return add_hook(t._backward_hooks, hook)
    if node._tensor_pre_hooks is None:
        node._tensor_pre_hooks = {}
    return add_hook(node._tensor_pre_hooks.setdefault(t._output_nr, HookDict()), hook)


def register_post_accumulate_grad_hook(t, hook):
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if t.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    if t._post_accumulate_hooks is None:
        t._post_accumulate_hooks = HookDict()
    return add_hook(t._post_accumulate_hooks, hook)


def retain_grad(t):
    if not t._requires_grad:
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    node = t.grad_fn
    if node is None or t._retains_grad:
        return  # a leaf keeps its gradient anyway
    if node._retain_grad is None:
        node._retain_grad = {}
    node._retain_grad[t._output_nr] = weakref.ref(t)  # weak: the graph must not keep t alive
    t._retains_grad = True


# -- running (called by the engine; ``emit`` reports to trace observers, None when nobody watches) --------


def tensor_hooks(node, output_nr):
    """Hooks registered with ``Tensor.register_hook`` on the tensor that is output ``output_nr`` of
    ``node`` (for a leaf: on the leaf itself), in registration order."""
    if type(node) is AccumulateGrad:
        hooks = node.variable._backward_hooks
    else:
        hooks = node._tensor_pre_hooks.get(output_nr) if node._tensor_pre_hooks else None
    return list(hooks.values()) if hooks else []


def has_tensor_hooks(node):
    return bool(node._tensor_pre_hooks or node._retain_grad
                or (type(node) is AccumulateGrad and node.variable._backward_hooks))


def run_tensor_hooks(node, grads, emit):
    """Each summed gradient arriving at ``node`` passes through the hooks of the tensor it belongs to;
    then the tensor that called ``retain_grad()`` stores it."""
    grads = list(grads)
    for slot, grad in enumerate(grads):
        if grad is None:
            continue
        for hook in tensor_hooks(node, slot):
            result = hook(grad)
            if emit:
                emit("hook", which="tensor", node=node, slot=slot, hook=hook, grad=grad, result=result)
            if result is not None:
                grad = _checked_replacement(hook, grad, result)
        ref = node._retain_grad.get(slot) if node._retain_grad else None
        tensor = ref() if ref is not None else None
        if tensor is not None and tensor._grad_fn is node:
            tensor._grad = grad.clone() if tensor._grad is None else tensor._grad + grad
            if emit:
                emit("hook", which="retain_grad", node=node, slot=slot, hook=None, grad=grad, result=None)
        grads[slot] = grad
    return grads


def _checked_replacement(hook, grad, result):
    """A tensor hook may replace the gradient, but not with something of another size or type."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if not isinstance(result, _t.Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if result._shape != grad._shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if result.dtype is not grad.dtype or result.device != grad.device:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {_type_name(grad)} got "
                           f"{_type_name(result)})")
    if result._requires_grad:  # create_graph: keep its history (.grad then gets a copy anyway)
        return result
    # the hook's caller may keep ``result``: pass on an alias, so no .grad ever takes it over
    return result._same_view()


def _type_name(t):
    return ("torch.cuda." if t.device.type == "cuda" else "torch.") + t.dtype._legacy


def run_pre_hooks(node, grads, emit):
    for hook in list(node._pre_hooks.values()):
        result = hook(tuple(grads))
        if emit:
            emit("hook", which="pre", node=node, hook=hook, grad=tuple(grads), result=result)
        if result is not None:
            grads = list(result)
    return grads


def run_post_hooks(node, outputs, grads, emit):
    for hook in list(node._hooks.values()):
        result = hook(outputs, tuple(grads))
        if emit:
            emit("hook", which="post", node=node, hook=hook, grad=outputs, result=result)
        if result is not None:
            outputs = tuple(result)
    return outputs
