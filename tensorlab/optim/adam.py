"""Adam: per-parameter step sizes from running averages of the gradient and of its square.

For each parameter ``p`` with gradient ``g`` (``-g`` when ``maximize``), at step ``t = 1, 2, ...``::

    g = g + weight_decay * p              # (Adam) L2 penalty inside the gradient, or
    p = p * (1 - lr * weight_decay)       # (AdamW) "decoupled": shrink p directly
    m = beta1 * m + (1 - beta1) * g       # exp_avg: the average direction (momentum)
    v = beta2 * v + (1 - beta2) * g * g   # exp_avg_sq: the average squared size
    v_max = max(v_max, v)                 # amsgrad only: never let the denominator shrink
    m_hat = m / (1 - beta1 ** t)          # bias correction: m and v start at 0
    v_hat = v / (1 - beta2 ** t)
    p = p - lr * m_hat / (sqrt(v_hat) + eps)

A parameter whose gradient is consistently large gets the same step size as one whose gradient is
consistently small: Adam divides by the gradient's own scale.
See course/17_optimizers_and_schedules.
"""
from .. import _dtype
from .optimizer import Optimizer

__all__ = ["Adam"]


def _step_counter():
    """The step count lives in a float32 0-dim tensor, as in PyTorch's state_dict."""
    from ..ops.creation import tensor
    return tensor(0.0, dtype=_dtype.float32)


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2014), with ``amsgrad``, ``weight_decay`` (L2 or decoupled) and ``maximize``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("amsgrad", False), ("maximize", False), ("foreach", None),
                                 ("capturable", False), ("differentiable", False),
                                 ("decoupled_weight_decay", False), ("fused", None)):
                group.setdefault(key, default)

    def _state_for(self, p, group):
        state = self.state[p]
        if len(state) == 0:
            from ..ops.creation import zeros_like
            state["step"] = _step_counter()
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)
        return state

    # build: stage 7
    def _update(self, p, group):
        """One Adam step for one parameter ``p``, in place (``step()`` calls it under ``no_grad``).

        ``self._state_for(p, group)`` gives the state: ``step`` (a 0-dim tensor, 0 before the first
        step), ``exp_avg`` (m) and ``exp_avg_sq`` (v), both zeros at first (and ``max_exp_avg_sq``
        with ``amsgrad``). ``group`` has ``lr``, ``betas``, ``eps``, ``weight_decay``, ``amsgrad``,
        ``maximize``, ``decoupled_weight_decay``. Count the step first (``state["step"].add_(1)``):
        the first step is t = 1. The gradient (``-p.grad`` when maximizing) gets ``weight_decay *
        p`` added (or, decoupled, ``p`` shrinks by ``1 - lr * weight_decay``); then, in place,
        m <- beta1 m + (1 - beta1) g (``exp_avg.lerp_(grad, 1 - beta1)``) and v <- beta2 v +
        (1 - beta2) g^2 (``addcmul_``); with amsgrad v is replaced by the running maximum of v. The
        step is ``p.addcdiv_(m, sqrt(v) / sqrt(1 - beta2 ** t) + eps, value=-lr / (1 - beta1 ** t))``:
        the bias corrections divide out the zeros m and v started from."""
        state = self._state_for(p, group)
        beta1, beta2 = group["betas"]
        lr, weight_decay = group["lr"], group["weight_decay"]
        grad = -p.grad if group["maximize"] else p.grad
        state["step"].add_(1)
        step = state["step"].item()
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(p, alpha=weight_decay)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step_size = lr / (1 - beta1 ** step)
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            max_sq = state["max_exp_avg_sq"]
            max_sq.copy_(max_sq.maximum(exp_avg_sq))
            exp_avg_sq = max_sq
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(group["eps"])
        p.addcdiv_(exp_avg, denom, value=-step_size)
    # build: end
