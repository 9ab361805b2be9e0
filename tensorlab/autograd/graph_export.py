"""Seeing a graph: walk it from a tensor, and export it as networkx or Graphviz DOT (as torchviz does).

``describe(y)`` walks back from ``y.grad_fn`` along ``next_functions`` (iteratively: a graph may be
100,000 nodes deep) and returns plain data: one entry per thing to draw --

- ``op``      a Node (``MulBackward0``...), labelled with its name;
- ``leaf``    a tensor that requires grad, drawn above its ``AccumulateGrad`` (named from ``params``);
- ``output``  a tensor you asked about, drawn below its ``grad_fn``;
- ``saved``   a tensor a node keeps for backward (with its shape; named from ``params`` if it is one) --

and the edges between them. Edges point the way the forward pass ran (input -> op -> output), like
torchviz's pictures; gradients flow against them. ``to_networkx`` and ``to_dot`` only lay that data
out. See course/07_the_backward_graph.

    >>> import tensorlab as torch
    >>> w = torch.ones(2, requires_grad=True)
    >>> loss = (w * 3).sum()
    >>> print(to_dot(loss, params={"w": w}).splitlines()[0])   # paste the whole text into graphviz
    digraph {
"""
from collections import deque

from ..tensor import Tensor
from .graph import AccumulateGrad


def walk(*roots):
    """Every node reachable from ``roots`` (tensors or nodes), each once, nearest first."""
    start = [r.grad_fn if isinstance(r, Tensor) else r for r in roots]
    order = [n for n in dict.fromkeys(start) if n is not None]
    seen, queue = set(order), deque(order)
    while queue:
        for nxt, _ in queue.popleft().next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
                queue.append(nxt)
    return order


def _shape_text(shape):
    return "(" + ", ".join(str(n) for n in shape) + ")"


def describe(outputs, params=None, show_saved=True):
    """``(nodes, edges)`` of the graph behind ``outputs`` (a tensor, a node, or a sequence of them).

    ``nodes``: {id: {"kind", "label", "obj", "shape"}}, ids ``"n0", "n1", ...`` given in walk order
    (never ``id()``), so the same graph is described by the same text in every run.
    ``edges``: [(from id, to id, attributes)], attributes holding ``kind`` ("flow" or "saved"),
    ``shape`` (of the tensor that flows along it in the forward pass) and, for flow into an op,
    ``input_nr`` (which of its ``next_functions``) and ``output_nr`` (which output of the node it
    comes from)."""
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    names = {id(t): name for name, t in (params or {}).items()}
    nodes, edges, keys = {}, [], {}

    def add(obj, kind, label, shape=None):
        if id(obj) not in keys:
            keys[id(obj)] = key = f"n{len(keys)}"
            nodes[key] = {"kind": kind, "label": label, "obj": obj, "shape": shape}
        return keys[id(obj)]

    order = walk(*outputs)
    for node in order:  # the ops take the first ids, nearest the outputs first
        add(node, "op", node.name().replace("torch::autograd::", ""))
    for node in order:
        key = keys[id(node)]
        if isinstance(node, AccumulateGrad):
            var = node.variable
            shape = tuple(var.shape)
            label = f"{names[id(var)]}\n {_shape_text(shape)}" if id(var) in names else _shape_text(shape)
            edges.append((add(var, "leaf", label, shape), key, {"kind": "flow", "shape": shape}))
        for input_nr, (nxt, output_nr) in enumerate(node.next_functions):
            if nxt is not None:
                edges.append((keys[id(nxt)], key, {"kind": "flow", "input_nr": input_nr,
                                                  "output_nr": output_nr, "shape": output_shape(nxt, output_nr)}))
        if show_saved:
            for k, saved in enumerate(node._saved):
                if saved is None:
                    continue
                shape = tuple(saved.tensor._shape)
                what = "result" if saved.is_output else names.get(id(saved.tensor), f"saved[{k}]")
                edges.append((add(saved, "saved", f"{what}\n{_shape_text(shape)}", shape), key,
                              {"kind": "saved", "shape": shape}))
    for t in outputs:
        if isinstance(t, Tensor):
            shape = tuple(t.shape)
            out_key = add(t, "output", _shape_text(shape), shape)
            if t.grad_fn is not None:
                edges.append((keys[id(t.grad_fn)], out_key, {"kind": "flow", "output_nr": t.output_nr,
                                                            "shape": shape}))
    return nodes, edges


def output_shape(node, output_nr=0):
    """The shape of output ``output_nr`` of the forward op that recorded ``node`` (None if unknown)."""
    if isinstance(node, AccumulateGrad):
        return tuple(node.variable.shape)
    meta = node._output_meta
    if output_nr < len(meta) and meta[output_nr] is not None:
        return tuple(meta[output_nr][0])
    return None


def to_networkx(outputs, params=None, show_saved=True):
    """The graph as a ``networkx.DiGraph`` (networkx is imported only here, when you ask for it)."""
    import networkx as nx
    nodes, edges = describe(outputs, params, show_saved)
    graph = nx.DiGraph()
    for key, attrs in nodes.items():
        graph.add_node(key, **attrs)
    for src, dst, attrs in edges:
        graph.add_edge(src, dst, **attrs)
    return graph


_COLORS = {"leaf": "lightblue", "output": "darkolivegreen1", "saved": "orange"}


def to_dot(outputs, params=None, show_saved=True):
    """The graph as Graphviz DOT text, in torchviz's colours (leaves blue, outputs green, saved
    tensors orange). Render it with ``graphviz.Source(text)`` or the ``dot`` program."""
    nodes, edges = describe(outputs, params, show_saved)
    lines = ["digraph {", '\tgraph [size="12,12"]',
             "\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]"]
    for key, attrs in nodes.items():
        color = _COLORS.get(attrs["kind"])
        fill = f" fillcolor={color}" if color else " fillcolor=lightgrey"
        lines.append(f'\t{key} [label="{_escape(attrs["label"])}"{fill}]')
    for src, dst, attrs in edges:
        style = " [dir=none]" if attrs["kind"] == "saved" else ""
        lines.append(f"\t{src} -> {dst}{style}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _escape(text):
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
