"""Stage 4's cases: the graph a few small programs record -- node names, edges, input numbers, and
one AccumulateGrad per leaf -- on tensorlab with one of the learner's functions in place (the rest of
the stage tensorlab's own, :func:`coursekit.build.place.only`) and on PyTorch.

A graph is compared as text: a node's name, then ``->`` and its ``next_functions`` with each edge's
input number, e.g. ``MulBackward0 -> ((torch::autograd::AccumulateGrad, 0), (None, 0))``.
``gradient_edge`` and ``grad_accumulator`` are also called directly (PyTorch's counterparts:
``torch.autograd.graph.get_gradient_edge``, and the AccumulateGrad behind ``x.expand_as(x)``).
"""
from __future__ import annotations

import numpy as np

from ..language import tr
from .cases import Case
from .place import only

STAGE = 4


def drawn(node, depth=5):
    """A node and the graph below it as one line of text."""
    if node is None:
        return "None"
    name = node.name()
    if depth == 0 or not node.next_functions:
        return name
    edges = ", ".join(f"({drawn(n, depth - 1)}, {nr})" for n, nr in node.next_functions)
    return f"{name} -> ({edges}{',' if len(node.next_functions) == 1 else ''})"


def _leaf(lib, n=4):
    return lib.tensor(np.arange(1.0, n + 1), requires_grad=True)


def _plain(lib, n=4):
    return lib.tensor(np.arange(1.0, n + 1))


PROGRAMS = {
    "x * 2": lambda lib: drawn((_leaf(lib) * 2).grad_fn),
    "x * c, c not requiring grad": lambda lib: drawn((_leaf(lib) * _plain(lib)).grad_fn),
    "(x * 2).exp().sum()": lambda lib: drawn((_leaf(lib) * 2).exp().sum().grad_fn),
    "q, r = x.split(2); r * 2": lambda lib: drawn((_leaf(lib).split(2)[1] * 2).grad_fn),
    "x.max(0).values - x.min(0).values": lambda lib: drawn(_extremes(lib).grad_fn),
    "x * x: both edges lead to one node": lambda lib: _same_node(lib),
    "x * 2 and x.exp(): one AccumulateGrad for x": lambda lib: _shared(lib),
    "names: x * 2, x.sum(), x.split(2)[1], x.exp()": lambda lib: _names(lib),
}


def _extremes(lib):
    x = _leaf(lib)
    return x.max(0).values - x.min(0).values


def _same_node(lib):
    x = _leaf(lib)
    fns = (x * x).grad_fn.next_functions
    return {"edges": [[drawn(n, 0), nr] for n, nr in fns], "same node": fns[0][0] is fns[1][0]}


def _shared(lib):
    x = _leaf(lib)
    a, b = (x * 2).grad_fn.next_functions[0][0], x.exp().grad_fn.next_functions[0][0]
    return {"same node": a is b, "points at x": a.variable is x}


def _names(lib):
    x = _leaf(lib)
    return [(x * 2).grad_fn.name(), x.sum().grad_fn.name(), x.split(2)[1].grad_fn.name(),
            x.exp().grad_fn.name(), (x * 2).grad_fn.next_functions[0][0].name()]


def said(program):
    """A program (or a tensor of TENSORS) as the learner reads it: the code as it is, the words in the
    learner's language."""
    return {
        "x * c, c not requiring grad": tr("x * c, c not requiring grad"),
        "x * x: both edges lead to one node": tr("x * x: both edges lead to one node"),
        "x * 2 and x.exp(): one AccumulateGrad for x": tr("x * 2 and x.exp(): one AccumulateGrad for x"),
        "names: x * 2, x.sum(), x.split(2)[1], x.exp()": tr("names: x * 2, x.sum(), x.split(2)[1], x.exp()"),
        "a leaf x that requires grad": tr("a leaf x that requires grad"),
        "c, a leaf that does not require grad": tr("c, a leaf that does not require grad"),
        "r, the second output of x.split(2)": tr("r, the second output of x.split(2)"),
    }.get(program, program)


def _case(function, program):
    def call(fn, *_):
        from .skeleton import regions
        import tensorlab
        with only(regions(STAGE), function, fn):
            return PROGRAMS[program](tensorlab)
    return Case(STAGE, function, (program,), lambda torch, *_: PROGRAMS[program](torch), call, program,
                lambda: said(program))


# -- gradient_edge and grad_accumulator, called directly -------------------------------------------

TENSORS = {
    "a leaf x that requires grad": lambda lib: _leaf(lib),
    "c, a leaf that does not require grad": lambda lib: _plain(lib),
    "x * 2": lambda lib: _leaf(lib) * 2,
    "r, the second output of x.split(2)": lambda lib: _leaf(lib).split(2)[1],
}


def _edge(edge):
    return None if edge is None else [drawn(edge[0], 0), edge[1]]


def _call_gradient_edge(function, which):
    import tensorlab
    return _edge(function(TENSORS[which](tensorlab)))


def _torch_gradient_edge(torch, which):
    from torch.autograd.graph import get_gradient_edge
    t = TENSORS[which](torch)
    if not t.requires_grad:
        return None            # (PyTorch raises: there is no edge; tensorlab says None)
    edge = get_gradient_edge(t)
    return _edge((edge.node, edge.output_nr))


def _call_grad_accumulator(function, _):
    import tensorlab
    x = _leaf(tensorlab)
    first, second = function(x), function(x)
    return {"name": first.name(), "same node": first is second, "points at x": first.variable is x}


def _torch_grad_accumulator(torch, _):
    x = _leaf(torch)
    first, second = (x.expand_as(x).grad_fn.next_functions[0][0] for _ in range(2))
    return {"name": first.name(), "same node": first is second, "points at x": first.variable is x}


STAGE4 = [_case(function, program) for function, program in [
    ("_connect_inputs", "x * 2"), ("_connect_inputs", "x * c, c not requiring grad"),
    ("_connect_inputs", "(x * 2).exp().sum()"), ("_connect_inputs", "q, r = x.split(2); r * 2"),
    ("_connect_inputs", "x.max(0).values - x.min(0).values"), ("_connect_inputs", "x * x: both edges lead to one node"),
]]
STAGE4 += [Case(STAGE, "gradient_edge", (which,), _torch_gradient_edge, _call_gradient_edge,
                f"gradient_edge(t), t: {which}", lambda which=which: f"gradient_edge(t), t: {said(which)}")
           for which in TENSORS]
STAGE4 += [Case(STAGE, "grad_accumulator", ("x",), _torch_grad_accumulator, _call_grad_accumulator,
                "a, b = grad_accumulator(x), grad_accumulator(x) for a leaf x",
                lambda: tr("a, b = grad_accumulator(x), grad_accumulator(x) for a leaf x"))]
STAGE4 += [_case("grad_accumulator", "x * 2 and x.exp(): one AccumulateGrad for x"),
           _case("node_name", "names: x * 2, x.sum(), x.split(2)[1], x.exp()"),
           _case("accumulate_grad_name", "names: x * 2, x.sum(), x.split(2)[1], x.exp()")]
