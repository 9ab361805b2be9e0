"""SGD: step downhill along the gradient, optionally with momentum.

For each parameter ``p`` with gradient ``g`` (``-g`` when ``maximize``)::

    g = g + weight_decay * p                       # L2 penalty folded into the gradient
    buf = g                      (first step)      # momentum: a running sum of past gradients
    buf = momentum * buf + (1 - dampening) * g     (later steps)
    g = g + momentum * buf  if nesterov else buf   # Nesterov looks one step ahead
    p = p - lr * g

Every line is an in-place tensor op under ``no_grad``: ``p`` keeps its identity and storage.
``step`` runs the same lines on the arrays themselves when nobody could tell (``_update_arrays``).
See course/17_optimizers_and_schedules.
"""
from .optimizer import Optimizer, arrays_writable

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

    def _update_arrays(self, p, group):
        """``_update``'s arithmetic on the arrays, line for line and in the same order, written in
        place (``a *= b`` is NumPy's ``multiply(a, b, out=a)``): no tensor is made, no op dispatched,
        and each write bumps the version counter as the in-place op would. The values are the ones
        ``_update`` computes, to the last bit.

        Returns False, having done nothing, where ``_update`` must run instead: a first step (it makes
        the momentum buffer), ``differentiable=True``, anything ``arrays_writable`` refuses, or an
        ``_update`` that is not this one (a subclass's own, or a learner's in the build track)."""
        if type(self)._update is not _update_on_tensors or group["differentiable"]:
            return False
        momentum = group["momentum"]
        buf = self.state[p].get("momentum_buffer") if momentum != 0 else None
        if momentum != 0 and buf is None:
            return False
        grad = p.grad
        if not arrays_writable(p, grad, *(() if buf is None else (buf,))):
            return False
        g = -grad._array if group["maximize"] else grad._array
        if group["weight_decay"] != 0:
            g = g + p._array * group["weight_decay"]            # grad.add(p, alpha=weight_decay)
        if momentum != 0:
            b = buf._array
            b *= momentum                                        # buf.mul_(momentum)
            buf._bump_version()
            alpha = 1 - group["dampening"]
            b += g if type(alpha) is int and alpha == 1 else g * alpha   # .add_(grad, alpha=1 - dampening)
            buf._bump_version()
            g = g + b * momentum if group["nesterov"] else b    # grad.add(buf, alpha=momentum), or buf
        p._array += g * -group["lr"]                             # p.add_(grad, alpha=-lr)
        p._bump_version()
        return True


_update_on_tensors = SGD._update  # the library's own: ``_update_arrays`` computes exactly this
