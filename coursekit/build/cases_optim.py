"""Stage 7's cases: three steps of SGD or Adam on one parameter with the same gradients, on tensorlab
with one of the learner's update functions in place (the other tensorlab's own,
:func:`coursekit.build.place.only`) and on PyTorch.

Each case reports the parameter after the first and the third step (float64, rounded to 10
decimals: NumPy's and PyTorch's sqrt and division may differ in the last bit) and whether the
parameter kept its memory -- an optimizer updates in place, so the model and the optimizer keep
holding the same tensor.
"""
from __future__ import annotations

import numpy as np

from ..language import tr
from .cases import Case
from .place import only

STAGE = 7
P0 = [1.0, -2.0, 0.5]
GRADS = [[0.5, -1.0, 2.0], [0.3, 0.2, -0.4], [-0.1, 0.6, 0.25]]


def _values(p):
    return np.round(p.detach().numpy(), 10).tolist()


def trajectory(lib, name, options):
    """Three steps of ``lib.optim.<name>(**options)`` on P0 with GRADS."""
    p = lib.tensor(P0, dtype=lib.float64, requires_grad=True)
    where = p.data_ptr()
    optimizer = getattr(lib.optim, name)([p], **options)
    seen = {}
    for step, grad in enumerate(GRADS, 1):
        p.grad = lib.tensor(grad, dtype=lib.float64)
        optimizer.step()
        if step in (1, 3):
            seen[f"p after step {step}"] = _values(p)
    seen["p keeps its memory"] = p.data_ptr() == where
    return seen


#: How a case is shown to the learner (in English here; :meth:`Case.tell` translates it).
THREE_STEPS = "{program}, p = {p}, p.grad = {first}, then {second}, then {third}"

#: (function, optimizer, its options as written)
SETTINGS = [
    ("sgd_update", "SGD", "lr=0.1"),
    ("sgd_update", "SGD", "lr=0.1, momentum=0.9"),
    ("sgd_update", "SGD", "lr=0.1, momentum=0.9, dampening=0.5"),
    ("sgd_update", "SGD", "lr=0.1, momentum=0.9, nesterov=True"),
    ("sgd_update", "SGD", "lr=0.1, momentum=0.9, weight_decay=0.1"),
    ("sgd_update", "SGD", "lr=0.1, weight_decay=0.1, maximize=True"),
    ("adam_update", "Adam", "lr=0.1"),
    ("adam_update", "Adam", "lr=0.1, betas=(0.8, 0.9), weight_decay=0.1"),
    ("adam_update", "Adam", "lr=0.1, betas=(0.9, 0.5), amsgrad=True"),
    ("adam_update", "Adam", "lr=0.1, weight_decay=0.1, decoupled_weight_decay=True"),
]


def options(written):
    return eval(f"dict({written})", {})   # noqa: S307 - the fixed strings above


def _case(function, name, written):
    program = f"{name}([p], {written})"

    def call(fn, *_):
        from .skeleton import regions
        import tensorlab
        with only(regions(STAGE), function, fn):
            return trajectory(tensorlab, name, options(written))
    return Case(STAGE, function, (program,), lambda torch, *_: trajectory(torch, name, options(written)), call,
                THREE_STEPS.format(program=program, p=P0, first=GRADS[0], second=GRADS[1], third=GRADS[2]),
                lambda: tr(THREE_STEPS, program=program, p=P0, first=GRADS[0], second=GRADS[1], third=GRADS[2]))


STAGE7 = [_case(*setting) for setting in SETTINGS]
