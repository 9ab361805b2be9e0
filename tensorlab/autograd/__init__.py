"""tensorlab.autograd: reverse-mode automatic differentiation on a dynamic graph.

Read in this order: ``graph.py`` (nodes, edges, saved tensors), ``function.py`` (how an op records
itself), ``engine.py`` (how backward runs), ``grad_mode.py`` (switching recording off).
See course/05_autograd_basics and course/06_the_backward_graph.
"""
import warnings

from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                        no_grad, set_grad_enabled)
from .anomaly_mode import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from .function import Function, once_differentiable
from .graph import AccumulateGrad, Node
from .engine import run_backward, trace_backward
from .gradcheck import GradcheckError, gradcheck, gradgradcheck


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return (x,)


def _make_grads(outputs, grads):
    """Default gradients for the roots: ones for scalars; a non-scalar needs an explicit gradient."""
    from ..ops.creation import ones_like
    result = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if grad is None:
            if out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not out.dtype.is_floating_point:
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got "
                                   f"{out.dtype}")
            grad = ones_like(out)
        elif not hasattr(grad, "_array"):
            from ..ops.creation import tensor
            grad = tensor(grad, dtype=out.dtype, device=out.device)
        elif grad._shape != out._shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {grad.shape} and "
                               f"output[{i}] has a shape of {out.shape}.")
        result.append(grad)
    return result


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """Compute the gradient of ``tensors`` w.r.t. the graph leaves and add it into their ``.grad``."""
    if grad_variables is not None:
        warnings.warn("'grad_variables' is deprecated. Use 'grad_tensors' instead.", FutureWarning)
        grad_tensors = grad_variables
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(f"got {len(grad_tensors)} tensors and {len(tensors)} gradients")
    inputs = _as_tuple(inputs)
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    if retain_graph is None:
        retain_graph = create_graph
    grads = _make_grads(tensors, grad_tensors)
    grads = [g.detach().clone() if t._grad_fn is None and not create_graph else g
             for t, g in zip(tensors, grads)]
    captured = run_backward(tensors, grads, retain_graph, create_graph, inputs=inputs, accumulate=True)
    if inputs is not None:  # non-leaf inputs receive .grad too, as in PyTorch
        from .graph import accumulate_into
        for t, g in zip(inputs, captured):
            if t._grad_fn is not None and g is not None:
                accumulate_into(t, g if create_graph else g.detach())


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return the gradients of ``outputs`` w.r.t. ``inputs`` (a tuple) without touching ``.grad``."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    allow_unused = bool(allow_unused) or materialize_grads
    outputs = _as_tuple(outputs)
    inputs_t = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"grad requires one grad_output per output: got {len(grad_outputs)} "
                           f"grad_outputs and {len(outputs)} outputs")
    if retain_graph is None:
        retain_graph = create_graph
    grads = _make_grads(outputs, grad_outputs)
    result = run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs_t, accumulate=False)
    final = []
    for t, g in zip(inputs_t, result):
        if g is None:
            if not allow_unused:
                raise RuntimeError("One of the differentiated Tensors appears to not have been used in the "
                                   "graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                from ..ops.creation import zeros_like
                g = zeros_like(t)
        elif not create_graph:
            g = g.detach()
        final.append(g)
    return tuple(final)


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


__all__ = ["Function", "Variable", "backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "inference_mode", "detect_anomaly", "set_detect_anomaly", "Node",
           "AccumulateGrad", "once_differentiable", "trace_backward", "gradcheck", "gradgradcheck"]
