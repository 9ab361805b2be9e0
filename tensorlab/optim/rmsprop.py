"""RMSprop: divide each gradient by a running root-mean-square of its recent values.

For each parameter ``p`` with gradient ``g`` (``-g`` when ``maximize``)::

    g = g + weight_decay * p
    v = alpha * v + (1 - alpha) * g * g        # square_avg
    avg = sqrt(v) + eps
    centered:  a = alpha * a + (1 - alpha) * g # grad_avg; subtract the mean's square:
               avg = sqrt(v - a * a) + eps     # an estimate of the gradient's variance
    momentum:  buf = momentum * buf + g / avg;  p = p - lr * buf
    otherwise: p = p - lr * g / avg

Like Adam without bias correction (and momentum applied after the division).
See course/17_optimizers_and_schedules.
"""
from .adam import _step_counter
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop (Hinton's lecture 6e), with ``centered``, ``momentum``, ``weight_decay``, ``maximize``."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        for name, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                            ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("momentum", 0), ("centered", False), ("foreach", None),
                                 ("maximize", False), ("differentiable", False), ("capturable", False)):
                group.setdefault(key, default)

    def _state_for(self, p, group):
        state = self.state[p]
        if len(state) == 0:
            from ..ops.creation import zeros_like
            state["step"] = _step_counter()
            state["square_avg"] = zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = zeros_like(p)
        return state

    def _update(self, p, group):
        state = self._state_for(p, group)
        alpha = group["alpha"]
        grad = -p.grad if group["maximize"] else p.grad
        state["step"].add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(group["eps"])
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf.mul_(group["momentum"]).addcdiv_(grad, avg)
            p.add_(buf, alpha=-group["lr"])
        else:
            p.addcdiv_(grad, avg, value=-group["lr"])
