"""SGD: step downhill along the gradient, optionally with momentum.

For each parameter ``p`` with gradient ``g`` (``-g`` when ``maximize``)::

    g = g + weight_decay * p                       # L2 penalty folded into the gradient
    buf = g                      (first step)      # momentum: a running sum of past gradients
    buf = momentum * buf + (1 - dampening) * g     (later steps)
    g = g + momentum * buf  if nesterov else buf   # Nesterov looks one step ahead
    p = p - lr * g

Every line is an in-place tensor op under ``no_grad``: ``p`` keeps its identity and storage.
See course/17_optimizers_and_schedules.
"""
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (with momentum, dampening, weight decay, Nesterov, maximize)."""

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("nesterov", False), ("maximize", False), ("foreach", None),
                                 ("differentiable", False), ("fused", False)):
                group.setdefault(key, default)

    # build: stage 7
    def _update(self, p, group):
        """One SGD step for one parameter ``p``, in place (``step()`` calls it under ``no_grad``).

        The options are in ``group``: ``lr``, ``momentum``, ``dampening``, ``weight_decay``,
        ``nesterov``, ``maximize``. In order: the gradient (``-p.grad`` when maximizing); plus
        ``weight_decay * p`` (``grad.add(p, alpha=...)``, a new tensor: never change ``p.grad``);
        with momentum, the buffer ``self.state[p]["momentum_buffer"]`` -- on the first step a copy of
        the gradient itself (``grad.detach().clone()``), later ``buf.mul_(momentum).add_(grad,
        alpha=1 - dampening)`` in place --, and the step direction is the buffer (or, with
        ``nesterov``, ``grad + momentum * buf``); finally ``p.add_(direction, alpha=-lr)``: in place,
        so ``p`` stays the same tensor the model and the optimizer hold."""
        grad = -p.grad if group["maximize"] else p.grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[p]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = grad.detach().clone()
                state["momentum_buffer"] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        p.add_(grad, alpha=-group["lr"])
    # build: end
