"""tensorlab.autograd: reverse-mode automatic differentiation on a dynamic graph.

Read in this order: ``graph.py`` (nodes, edges, saved tensors), ``function.py`` (how an op records
itself), ``engine.py`` (how backward runs), ``hooks.py`` (watching and changing gradients),
``grad_mode.py`` (switching recording off), ``inplace.py`` (history after in-place ops). Then ``functional.py`` (Jacobians and Hessians from
``grad``), ``gradcheck.py`` (checking a backward against finite differences) and
``graph_export.py`` (drawing a graph). See course/06_autograd_basics and course/07_the_backward_graph.
"""
import warnings

from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                        no_grad, set_grad_enabled)
from .anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from .function import Function, once_differentiable, trace_forward
from .graph import AccumulateGrad, Node
from .engine import run_backward, trace_backward
from .gradcheck import GradcheckError, gradcheck, gradgradcheck


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return (x,)


def _check_grad_types(grads):
    for grad in grads:
        if grad is not None and not hasattr(grad, "_array"):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(grad).__name__}")


def _make_grads(outputs, grads, create_graph):
    """The gradients the roots start with: ones for a scalar root, else the one the caller gave,
    checked against its root and copied (the engine may hand it on to a ``.grad``)."""
    from ..ops.creation import ones_like
    result = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if grad is None:
            if out._requires_grad and out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._requires_grad and not out.dtype.is_floating_point:
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got "
                                   f"{out.dtype}")
            result.append(ones_like(out) if out._requires_grad else None)
            continue
        _check_grad_types((grad,))
        if grad._shape != out._shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {grad.shape} and "
                               f"output[{i}] has a shape of {out.shape}.")
        if grad.dtype is not out.dtype:
            grad = grad.to(out.dtype)
        elif not create_graph:
            grad = grad.detach().clone()
        result.append(grad)
    return result


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """Compute the gradient of ``tensors`` w.r.t. the graph leaves and add it into their ``.grad``.

    ``grad_tensors`` gives the gradient to start from for each tensor (needed unless it is a scalar);
    ``inputs`` restricts accumulation to those tensors (a non-leaf among them gets ``.grad`` too).
    The graph's saved tensors are freed unless ``retain_graph`` (default: ``create_graph``).
    """
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning)
        grad_tensors = grad_variables
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    _check_grad_types(grad_tensors[:len(tensors)])      # PyTorch checks the types before the count
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grad_tensors)} gradients")
    inputs = _as_tuple(inputs)
    if inputs is not None:
        if len(inputs) == 0:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:  # a non-leaf input keeps its gradient in .grad, as after retain_grad()
            t.retain_grad()
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the parameter "
            "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
            "creating the graph to avoid this. If you have to use this function, make sure to reset the "
            ".grad fields of your parameters to None after use to break the cycle and avoid the leak.",
            UserWarning, stacklevel=2)
    grads = _make_grads(tensors, grad_tensors, create_graph)
    run_backward(tensors, grads, retain_graph, create_graph, inputs=inputs, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` w.r.t. ``inputs``, as a tuple -- ``.grad`` fields stay untouched.

    An input the outputs do not depend on is an error, unless ``allow_unused`` (its gradient is
    then None) or ``materialize_grads`` (zeros). With ``create_graph`` the returned gradients have a
    history of their own, so they can be differentiated again. See course/10_higher_order_gradients.
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To "
                      "accumulate gradient for other parts of the graph, please use torch.autograd.backward.",
                      FutureWarning, stacklevel=2)
    allow_unused = bool(allow_unused) or materialize_grads
    outputs = _as_tuple(outputs)
    inputs_t = _as_tuple(inputs)
    if not inputs_t:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(outputs, inputs_t, grad_outputs, retain_graph, create_graph, allow_unused,
                             materialize_grads)
    grads = _make_grads(outputs, grad_outputs, create_graph)
    result = run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs_t, accumulate=False)
    final = []
    for i, (t, g) in enumerate(zip(inputs_t, result)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used "
                                   "in the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                from ..ops.creation import zeros_like
                g = zeros_like(t)
        elif not create_graph:
            g = _without_history(g)
        final.append(g)
    return tuple(final)


def _without_history(g):
    """``g.detach()`` -- but a gradient computed inside a dual level keeps its tangents (detached too):
    forward-mode AD sees the backward pass like any other ops (forward-over-reverse, as PyTorch's)."""
    if not g.__dict__.get("_fw_grads"):
        return g.detach()
    from .forward_ad import _levels
    from ._forward_fallback import _detach
    return _detach(g, [level.idx for level in _levels])


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize):
    """``is_grads_batched``: dim 0 of each grad_output is a batch; one backward per batch entry."""
    from ..ops import stack
    n = grad_outputs[0].shape[0]
    rows = [grad(outputs, inputs, tuple(g[b] for g in grad_outputs), retain_graph=True,
                 create_graph=create_graph, allow_unused=allow_unused, materialize_grads=materialize)
            for b in range(n)]
    return tuple(None if rows[0][k] is None else stack([r[k] for r in rows]) for k in range(len(inputs)))


def Variable(data, requires_grad=False, volatile=False):
    """PyTorch before 0.4 wrapped tensors in Variables; today a Variable *is* a Tensor.

    ``volatile`` was the old way to stop recording; it has no effect now -- use ``no_grad()``.
    """
    if volatile:
        warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                      UserWarning, stacklevel=2)
    from ..ops.creation import as_tensor
    t = data.detach() if hasattr(data, "_array") else as_tensor(data)
    if requires_grad:
        t.requires_grad_(True)
    return t


def __getattr__(name):
    """``autograd.functional``, ``autograd.graph_export`` and ``autograd.forward_ad`` load on first use."""
    if name in ("functional", "graph_export", "forward_ad"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tensorlab.autograd' has no attribute '{name}'")


__all__ = ["Function", "Variable", "backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "inference_mode", "is_inference_mode_enabled", "detect_anomaly",
           "set_detect_anomaly", "is_anomaly_enabled", "Node", "AccumulateGrad", "once_differentiable",
           "trace_backward", "trace_forward", "gradcheck", "gradgradcheck", "GradcheckError"]
