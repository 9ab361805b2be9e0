"""AdamW: Adam with *decoupled* weight decay (Loshchilov & Hutter, 2017).

Adam's ``weight_decay`` adds ``wd * p`` to the gradient, so the penalty is then divided by Adam's
per-parameter scale and parameters with large gradients are barely regularised. AdamW instead
shrinks every parameter directly, ``p = p * (1 - lr * wd)``, before the usual Adam step. That one
line is the whole difference (see ``Adam._update`` in adam.py). See course/17_optimizers_and_schedules.
"""
from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """Adam with decoupled weight decay; note the default ``weight_decay=1e-2``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
