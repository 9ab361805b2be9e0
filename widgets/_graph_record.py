"""What the GraphExplorer keeps of a graph and of the passes through it, recorded as they happen.

``GraphRecording`` listens to ``trace_forward`` (a node joins the graph) and ``trace_backward`` (the
engine's steps) and keeps a frozen copy of each event -- gradients as they were at that moment
(``.grad`` tensors change as gradients accumulate) -- plus the graph itself, described with
``tensorlab.autograd.graph_export.describe`` before backward frees what the nodes saved. Every node
gets an id in the order it was first seen (``n0``, ``n1``...), never ``id()``, so the same code gives
the same drawing in every process. graph_explorer.py replays and draws what is recorded here.
"""
from collections import namedtuple

from tensorlab.autograd.graph import AccumulateGrad
from tensorlab.autograd.graph_export import describe, output_shape
from tensorlab.tensor import Tensor

from . import _graph_draw

Value = namedtuple("Value", "shape array")  # a tensor as it was at one step (array None if large)
_COPY_LIMIT = 4096                          # elements kept per gradient


def snapshot(t):
    """A frozen copy of ``t`` (``.grad`` tensors change as gradients accumulate)."""
    if not isinstance(t, Tensor):
        return None
    array = t.detach().cpu().numpy().copy() if t.numel() <= _COPY_LIMIT else None
    return Value(tuple(t.shape), array)


def value_text(value, n=4):
    """``[0.5, -1, …] (3, 4)``: a few numbers of a snapshot, for labels."""
    if value is None:
        return "None"
    shape = "(" + ", ".join(map(str, value.shape)) + ")"
    if value.array is None:
        return f"<{shape}>"
    flat = value.array.reshape(-1)
    numbers = ", ".join(format(float(v), ".4g") for v in flat[:n])
    if value.array.ndim == 0:
        return numbers
    text = f"[{numbers}{', …' if flat.size > n else ''}]"
    return text + (f" {shape}" if value.array.ndim > 1 or flat.size > n else "")


class GraphRecording:
    """The graph's nodes and edges, and the events of the passes through it (see the module docstring)."""

    def __init__(self, params=None, show_saved=False):
        if params is not None and hasattr(params, "named_parameters"):
            params = dict(params.named_parameters())
        self.params = dict(params or {})
        self.show_saved = show_saved
        self.events = []          # what the engine reported, frozen: see _on_forward/_on_backward
        self.nodes, self.edges = {}, []
        self._keys, self._alive, self._edge_seen = {}, [], set()
        self._created, self._created_at, self._passes = [], {}, 0
        self._before_first_pass = 0     # how many nodes were made before the first backward pass
        self._layouts = {}              # drawings' layouts, cleared whenever the graph grows

    def _key(self, obj):
        """Node ids in the order things were first seen, never ``id()``: the same graph, the same SVG."""
        key = self._keys.get(id(obj))
        if key is None:
            key = self._keys[id(obj)] = f"n{len(self._alive)}"
            self._alive.append(obj)  # keeps the object, so its id() is not reused while we map it
        return key

    def _add_graph(self, roots):
        """Merge the graph behind ``roots`` into the picture (before backward frees saved tensors)."""
        if not roots:
            return
        found, edges = describe(roots, self.params, self.show_saved)
        mine, saved_count = {}, {}
        for k, node in found.items():
            if node["kind"] != "saved":
                mine[k] = self._key(node["obj"])
        for src, dst, attrs in edges:
            if attrs["kind"] == "saved":
                n = saved_count[dst] = saved_count.get(dst, -1) + 1
                mine[src] = f"{mine[dst]}.s{n}"
        for k, node in found.items():
            if mine[k] not in self.nodes:
                keep = node["obj"] if node["kind"] in ("op", "leaf") else None
                self.nodes[mine[k]] = {"kind": node["kind"], "label": node["label"], "obj": keep,
                                       "shape": node["shape"]}
        for src, dst, attrs in edges:
            edge = (mine[src], mine[dst], attrs["kind"], attrs.get("input_nr"))
            if edge not in self._edge_seen:
                self._edge_seen.add(edge)
                self.edges.append((mine[src], mine[dst], attrs))
        self._layouts.clear()

    def _add_sink_outputs(self):
        """An output box under every op whose result nothing else used (for recorded graphs)."""
        feeds = {src for src, _, attrs in self.edges if attrs["kind"] == "flow"}
        for key, node in list(self.nodes.items()):
            if node["kind"] == "op" and key not in feeds and not isinstance(node["obj"], AccumulateGrad):
                shape = output_shape(node["obj"], 0)
                out = f"{key}.out"
                self.nodes[out] = {"kind": "output", "label": _graph_draw._shape_label(shape) or "?",
                                   "obj": None, "shape": shape}
                self.edges.append((key, out, {"kind": "flow", "shape": shape}))
        self._layouts.clear()

    def _on_forward(self, event):
        node = event["node"]
        grad_fns = [o.grad_fn for o in event["outputs"] if isinstance(o, Tensor) and o.grad_fn is not None]
        # an in-place op on a view hands its output a CopySlices that wraps the op's node (as in
        # PyTorch, the wrapped node is not a node of the graph): show the CopySlices instead
        created = [node] if not grad_fns or node in grad_fns else []
        created += [fn for fn in grad_fns if fn is not node]
        for nxt, _ in node.next_functions:   # a leaf's AccumulateGrad appears with its first use
            if isinstance(nxt, AccumulateGrad) and id(nxt) not in self._keys:
                created += [nxt, nxt.variable]
        keys = [self._key(obj) for obj in created if id(obj) not in self._created_at]
        for obj in created:
            if id(obj) not in self._created_at:
                self._created_at[id(obj)] = len(self.events)
                if not isinstance(obj, Tensor):
                    self._created.append(obj)
        self.events.append({"kind": "record", "node": self._key(node), "name": node.name(),
                            "created": keys,
                            "shapes": [tuple(o.shape) for o in event["outputs"] if isinstance(o, Tensor)]})

    def _on_backward(self, e):
        kind, key = e["kind"], self._key
        record = {"kind": kind}
        if kind == "graph":
            self._passes += 1
            if self._passes == 1:
                self._before_first_pass = len(self._created)
            self._keys[id(e["root"])] = "root"
            self._alive.append(e["root"])
            roots = [n for n, _ in e["root"].next_functions if n is not None]
            self._add_graph(roots)   # now, before the pass frees what the nodes saved
            record.update(number=self._passes, dependencies={key(n): c for n, c in e["dependencies"].items()},
                          roots=[key(n) for n in roots])
        elif kind == "ready":
            record.update(node=key(e["node"]), queue=[key(n) for n in e["queue"]])
        elif kind == "run":
            record.update(node=key(e["node"]), grads=[snapshot(g) for g in e["grads"]])
        elif kind == "send":
            record.update(node=key(e["node"]), to=key(e["to"]), edge=e["edge"], input_nr=e["input_nr"],
                          grad=snapshot(e["grad"]), left=e["left"])
        elif kind == "capture":
            record.update(node=key(e["node"]), index=e["index"], grad=snapshot(e["grad"]))
        elif kind == "accumulate":
            record.update(node=key(e["node"]), variable=key(e["variable"]), grad=snapshot(e["grad"]),
                          total=snapshot(e["total"]))
        elif kind == "hook":
            hook = "retain_grad" if e["hook"] is None else getattr(e["hook"], "__qualname__",
                                                                      type(e["hook"]).__name__)
            record.update(node=key(e["node"]), which=e["which"], hook=hook,
                          result=snapshot(e["result"]) if isinstance(e["result"], Tensor) else None)
        elif kind == "release":
            shapes = [tuple(s) for s in e["shapes"] if s is not None]
            if not shapes:
                return  # a node that saved nothing frees nothing: not a step worth showing
            record.update(node=key(e["node"]), shapes=shapes)
        self.events.append(record)

    def name(self, key):
        """How a node is called in the picture and the text: its label, a leaf's name for AccumulateGrad."""
        node = self.nodes.get(key)
        if key == "root":
            return "the root"
        if node is None:
            return key
        if isinstance(node["obj"], AccumulateGrad):
            leaf = self._keys.get(id(node["obj"].variable))
            return f"AccumulateGrad({self.nodes[leaf]['label'].split(chr(10))[0]})" if leaf in self.nodes \
                else "AccumulateGrad"
        return node["label"].split("\n")[0]
