"""Stage 7's classic mistakes, each recognised in the trajectory of one of the stage's cases
(:mod:`coursekit.build.cases_optim`): what the mistaken update gives is computed here in NumPy, from
the formula with the mistake, and compared with the learner's numbers."""
from __future__ import annotations

import numpy as np

from ..language import tr
from .cases_optim import GRADS, P0


def _value(got):
    value = got.get("value")
    return value if isinstance(value, dict) else None


def _close(values, expected):
    return values is not None and np.allclose(values, expected, rtol=0, atol=1e-8)


def adam_correction_off(which, got):
    """Adam's first step moves every entry by about lr (m_hat / sqrt(v_hat) = g / |g|); bias
    corrections with t = 0 (a division by zero), t = 2, or none at all move them by another amount."""
    if got.get("error") == "ZeroDivisionError":
        return True
    value = _value(got)
    if value is None:
        return False
    moved = np.abs(np.subtract(value["p after step 1"], P0))
    return bool(np.isnan(moved).any()) or (np.allclose(moved, moved[0], rtol=1e-6)
                                          and not np.isclose(moved[0], 0.1, rtol=1e-6))


def buffer_started_at_zero(which, got):
    """With the buffer started at 0, the first step is lr * (1 - dampening) * g instead of lr * g."""
    value = _value(got)
    return value is not None and _close(value["p after step 1"],
                                        np.subtract(P0, 0.1 * 0.5 * np.asarray(GRADS[0])))


def _sgd_decay_after_momentum(lr=0.1, momentum=0.9, weight_decay=0.1):
    p, buf = np.array(P0), None
    for grad in GRADS:
        grad = np.asarray(grad)
        buf = grad.copy() if buf is None else momentum * buf + grad
        p = p - lr * (buf + weight_decay * p)
    return p


def decay_after_momentum(which, got):
    value = _value(got)
    return value is not None and _close(value["p after step 3"], _sgd_decay_after_momentum())


def not_in_place(which, got):
    """The parameter did not move (a new tensor was bound to a local name) or got new memory."""
    value = _value(got)
    return value is not None and (value["p after step 1"] == P0 or not value["p keeps its memory"])


#: (name, function, the case's input as shown, how it shows, hint)
MISTAKES7 = [
    (tr("Adam's bias correction off by one step"), "adam_update", "Adam([p], lr=0.1),", adam_correction_off,
     tr("Adam's first step should move every entry by about lr: at t = 1, m_hat = g and v_hat = g^2. Count "
        "the step BEFORE the bias corrections (state['step'].add_(1), then t = state['step'].item()), so "
        "that the first step uses 1 - beta1 ** 1 and 1 - beta2 ** 1 -- not t = 0 (a division by zero), "
        "not t + 1, and not no correction at all.")),
    (tr("momentum buffer started at zero"), "sgd_update", "SGD([p], lr=0.1, momentum=0.9, dampening=0.5)",
     buffer_started_at_zero,
     tr("The first step was (1 - dampening) times too short: PyTorch starts the momentum buffer as a COPY "
        "OF THE FIRST GRADIENT (grad.detach().clone()), not as zeros; dampening applies from the second "
        "step on.")),
    (tr("weight decay added after momentum"), "sgd_update", "SGD([p], lr=0.1, momentum=0.9, weight_decay=0.1)",
     decay_after_momentum,
     tr("weight_decay * p was added to the step after the momentum buffer, so the buffer never saw it. "
        "Fold the decay into the gradient FIRST (grad = grad.add(p, alpha=weight_decay)): the buffer "
        "then averages the decayed gradients.")),
    (tr("parameter not updated in place"), "sgd_update", "SGD([p], lr=0.1),", not_in_place,
     tr("The parameter the optimizer holds did not change in place: p = p - lr * g only binds a new tensor "
        "to a local name (the model still has the old one), and p.data = ... gives it new memory. Update "
        "the tensor itself, in place -- p.add_(direction, alpha=-lr) -- as step() runs it under no_grad "
        "(an in-place op on a leaf that requires grad is allowed only there).")),
]
