"""Stage 5's classic mistakes, each recognised in the outcome of one of the stage's backward passes
(:mod:`coursekit.build.cases_engine`), against PyTorch's recorded answer."""
from __future__ import annotations

from ..language import tr
from .cases import _recorded


def answer(which):
    return _recorded()[str(which.stage)][which.id]


def _value(got):
    value = got.get("value")
    return value if isinstance(value, dict) else None


def ran_a_node_twice(which, got):
    """Some node ran more often than in PyTorch's pass: it was queued before all its gradients came."""
    value, right = _value(got), answer(which)["value"]
    return value is not None and len(value["order"]) > len(right["order"])


def lost_a_gradient(which, got):
    """The nodes ran as in PyTorch, but a leaf's gradient differs: one of several incoming
    gradients replaced the others instead of being added to them."""
    value, right = _value(got), answer(which)["value"]
    return value is not None and value["order"] == right["order"] and value["x.grad"] != right["x.grad"]


def ran_too_early(which, got):
    """A node reached through several edges ran after the first one delivered: fewer gradients
    reached x (and, without them, nodes may be left out of the order)."""
    value, right = _value(got), answer(which)["value"]
    return value is not None and value["x.grad"] != right["x.grad"] and len(value["order"]) <= len(right["order"])


def second_backward_allowed(which, got):
    """PyTorch refuses a second backward through a freed graph; this code ran it."""
    return "error" in answer(which) and "value" in got


#: (name, function, the case's input as shown, how it shows, hint)
MISTAKES5 = [
    (tr("a node queued before all its gradients arrived"), "backward_deliver", "a = x * 2; (a.exp()",
     ran_a_node_twice,
     tr("A node ran more than once: it was queued when its FIRST gradient arrived. a = x * 2 feeds three "
        "ops, so MulBackward0 must wait until all three have sent theirs -- count self.dependencies[receiver] "
        "down on every edge and push the receiver only when it reaches 0.")),
    (tr("incoming gradients not added up"), "backward_deliver", "a = x * 2; (a.exp()", lost_a_gradient,
     tr("The nodes ran in the right order but x's gradient is wrong: when a second gradient arrives for the "
        "same slot of a buffer it must be ADDED to the first (_add_gradients), not put in its place -- a "
        "value used by several ops receives the sum of their gradients.")),
    (tr("edges counted once per node"), "_count_dependencies", "(w * x + x).sum()", ran_too_early,
     tr("x's gradient is wrong: x's AccumulateGrad ran after the first of its two gradients arrived (from "
        "the +), and the one from w * x came too late. Count EDGES into each node (x's accumulator has two), "
        "not nodes: add 1 for every edge, also into a node you have seen before; walk on from a node only "
        "the first time you see it.")),
    (tr("saved tensors kept without retain_graph"), "backward_process", "y = x.exp().sum(); y.backward(); y",
     second_backward_allowed,
     tr("A second backward through the same graph worked. PyTorch frees each node's saved tensors right "
        "after the node runs (so memory comes back during backward), unless retain_graph=True: call "
        "_release(node, self.observed) after _evaluate when not self.retain_graph.")),
]
