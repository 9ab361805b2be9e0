"""Stage 5's cases: small backward passes -- the order the nodes run in, the gradients that reach the
leaves, a second backward with and without ``retain_graph``, a tensor hook -- on tensorlab with one
of the learner's engine functions in place (the rest of the stage tensorlab's own,
:func:`coursekit.build.place.only`) and on PyTorch.

The order is read the same way on both: a pre-hook on every node of the graph logs the node's name
when it is about to run. Gradients are rounded to 10 decimals (``exp`` and ``sin`` of NumPy and of
PyTorch may differ in the last bit).
"""
from __future__ import annotations

import numpy as np

from ..language import tr
from .cases import Case
from .place import only

STAGE = 5
X = np.array([0.5, -1.0, 1.5])
W = np.array([2.0, 0.25, -0.5])


def _leaves(lib):
    return lib.tensor(X.copy(), requires_grad=True), lib.tensor(W.copy(), requires_grad=True)


def _logged(root):
    """Register a pre-hook on every node below ``root``; returns the list they append names to."""
    log, seen, stack = [], set(), [root.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_prehook(lambda grads, node=node: log.append(node.name()))
        stack.extend(n for n, _ in node.next_functions)
    return log


def _grad(t):
    return None if t.grad is None else np.round(t.grad.numpy(), 10).tolist()


def _ordered(build):
    """Build a graph from the leaves, run backward, report the order and the leaves' gradients."""
    def program(lib):
        x, w = _leaves(lib)
        y = build(x, w)
        order = _logged(y)
        y.backward()
        return {"order": order, "x.grad": _grad(x), "w.grad": _grad(w)}
    return program


def _twice(retain):
    def program(lib):
        x, _ = _leaves(lib)
        y = x.exp().sum()
        y.backward(retain_graph=retain)
        y.backward()
        return {"x.grad": _grad(x)}
    return program


def _hooked(lib):
    x, _ = _leaves(lib)
    a = x * 2
    a.register_hook(lambda g: g * 10)
    (a * a).sum().backward()
    return {"x.grad": _grad(x)}


PROGRAMS = {
    "((x * 2).exp() + (x * 2).sin()).sum()": _ordered(lambda x, w: ((x * 2).exp() + (x * 2).sin()).sum()),
    "a = x * 2; (a.exp() + a.sin() * a).sum()": _ordered(lambda x, w: (lambda a: (a.exp() + a.sin() * a).sum())(x * 2)),
    "(w * x + x).sum()": _ordered(lambda x, w: (w * x + x).sum()),
    "y = x.exp().sum(); y.backward(); y.backward()": _twice(False),
    "y = x.exp().sum(); y.backward(retain_graph=True); y.backward()": _twice(True),
    "a = x * 2 with a hook g -> g * 10; (a * a).sum().backward()": _hooked,
}


def _case(function, program):
    def call(fn, *_):
        from .skeleton import regions
        import tensorlab
        with only(regions(STAGE), function, fn):
            return PROGRAMS[program](tensorlab)
    return Case(STAGE, function, (program,), lambda torch, *_: PROGRAMS[program](torch), call,
                f"{program}, x = {X.tolist()}, w = {W.tolist()}",
                lambda: f"{said(program)}, x = {X.tolist()}, w = {W.tolist()}")


def said(program):
    """A program as the learner reads it: the code as it is, the words in the learner's language."""
    hooked = "a = x * 2 with a hook g -> g * 10; (a * a).sum().backward()"
    return {hooked: tr("a = x * 2 with a hook g -> g * 10; (a * a).sum().backward()")}.get(program, program)


STAGE5 = [_case(function, program) for function, program in [
    ("_count_dependencies", "((x * 2).exp() + (x * 2).sin()).sum()"),
    ("_count_dependencies", "a = x * 2; (a.exp() + a.sin() * a).sum()"),
    ("_count_dependencies", "(w * x + x).sum()"),
    ("backward_push", "((x * 2).exp() + (x * 2).sin()).sum()"),
    ("backward_push", "(w * x + x).sum()"),
    ("backward_deliver", "(w * x + x).sum()"),
    ("backward_deliver", "a = x * 2; (a.exp() + a.sin() * a).sum()"),
    ("backward_process", "y = x.exp().sum(); y.backward(); y.backward()"),
    ("backward_process", "y = x.exp().sum(); y.backward(retain_graph=True); y.backward()"),
    ("backward_process", "a = x * 2 with a hook g -> g * 10; (a * a).sum().backward()"),
    ("backward_process", "a = x * 2; (a.exp() + a.sin() * a).sum()"),
]]
