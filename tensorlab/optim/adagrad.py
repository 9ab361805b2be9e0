"""Adagrad: each coordinate's step shrinks with the sum of all its squared gradients so far.

For each parameter ``p`` with gradient ``g`` (``-g`` when ``maximize``), at step ``t = 1, 2, ...``::

    g = g + weight_decay * p
    clr = lr / (1 + (t - 1) * lr_decay)
    s = s + g * g                       # 'sum', starts at initial_accumulator_value
    p = p - clr * g / (sqrt(s) + eps)

Rarely-updated coordinates keep large steps; frequently-updated ones slow down -- good for sparse
features, but the steps only ever shrink. See course/17_optimizers_and_schedules.
"""
from .adam import _step_counter
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad (Duchi et al., 2011), with ``lr_decay``, ``initial_accumulator_value``, ``maximize``."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay),
                            ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value),
                            ("epsilon value", eps)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:       # unlike Adam, the state exists before the first step
            for p in group["params"]:
                self._init_state(p, initial_accumulator_value)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("foreach", None), ("maximize", False), ("differentiable", False),
                                 ("fused", None)):
                group.setdefault(key, default)

    def _init_state(self, p, initial_value):
        from ..ops.creation import full_like
        state = self.state[p]
        state["step"] = _step_counter()
        state["sum"] = full_like(p, initial_value)

    def _update(self, p, group):
        if len(self.state[p]) == 0:           # a parameter added later with add_param_group
            self._init_state(p, self.defaults["initial_accumulator_value"])
        state = self.state[p]
        grad = -p.grad if group["maximize"] else p.grad
        state["step"].add_(1)
        step = state["step"].item()
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state["sum"].addcmul_(grad, grad, value=1)
        std = state["sum"].sqrt().add_(group["eps"])
        p.addcdiv_(grad, std, value=-clr)
