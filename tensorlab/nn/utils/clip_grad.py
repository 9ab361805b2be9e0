"""Gradient clipping: keep one bad batch from throwing the weights far away.

``clip_grad_norm_`` treats all gradients as one long vector; if its norm exceeds ``max_norm``, every
gradient is scaled down by the same factor (the direction is kept). ``clip_grad_value_`` clamps each
element to [-clip_value, clip_value]. Both change ``.grad`` in place, outside autograd.
See course/15_normalization_and_regularization.
"""
import math

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The ``norm_type``-norm of all ``tensors`` together, as a 0-dim tensor."""
    from ...ops.creation import tensor
    norm_type = float(norm_type)
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    if not tensors:
        return tensor(0.0)
    with no_grad():
        xp_total = 0.0
        for g in tensors:
            a = abs(g.detach()._array.astype("float64"))
            if norm_type == math.inf:
                xp_total = max(xp_total, float(a.max()) if a.size else 0.0)
            else:
                xp_total += float((a ** norm_type).sum())
        total = xp_total if norm_type == math.inf else xp_total ** (1.0 / norm_type)
        result = tensor(total, dtype=tensors[0].dtype, device=tensors[0].device)
    if error_if_nonfinite and not math.isfinite(total):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                           "so it cannot be clipped. To disable this error and scale the gradients by the "
                           "non-finite norm anyway, set `error_if_nonfinite=False`")
    return result


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale all gradients so their joint norm is at most ``max_norm``; return the norm *before* clipping."""
    grads = _grads(parameters)
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    if not grads:
        return total
    coefficient = float(max_norm) / (float(total) + 1e-6)
    if coefficient < 1:
        with no_grad():
            for g in grads:
                g.mul_(coefficient)
    return total


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    import warnings
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient element into [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    with no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
