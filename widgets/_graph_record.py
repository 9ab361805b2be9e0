"""What the GraphExplorer keeps of a graph and of the passes through it, recorded as they happen.

``GraphRecording`` listens to ``trace_forward`` (a node joins the graph) and ``trace_backward`` (the
engine's steps) and keeps a frozen copy of each event -- gradients as they were at that moment
(``.grad`` tensors change as gradients accumulate) -- plus the graph itself, described with
``tensorlab.autograd.graph_export.describe`` before backward frees what the nodes saved. Every node
gets an id in the order it was first seen (``n0``, ``n1``...), never ``id()``, so the same code gives
the same drawing in every process. graph_explorer.py replays and draws what is recorded here.

Two ``MulBackward0`` nodes look alike, so each op node also gets a **tag**: the code that made it,
``b = a * 2`` -- the variable its result went into (if any: a name given in ``params``, or a
variable of the code that made the explorer) and the expression, rebuilt from the node's edges.
"""
import numbers
import re
from collections import namedtuple

from tensorlab.autograd.graph import AccumulateGrad
from tensorlab.autograd.graph_export import describe, output_shape
from tensorlab.tensor import Tensor

from ._i18n import tr

Value = namedtuple("Value", "shape array")  # a tensor as it was at one step (array None if large)
_COPY_LIMIT = 4096                          # elements kept per gradient
SYMBOLS = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Mm": "@", "Mv": "@", "Dot": "@", "Bmm": "@",
           "Matmul": "@"}
MAX_TAG = 30                                # characters of a tag; a longer one ends in "…"


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
    numbers_ = ", ".join(format(float(v), ".4g") for v in flat[:n])
    if value.array.ndim == 0:
        return numbers_
    text = f"[{numbers_}{', …' if flat.size > n else ''}]"
    return text + (f" {shape}" if value.array.ndim > 1 or flat.size > n else "")


def shape_text(shape):
    """A shape as Python writes the tuple: ``(2,)``, ``(3, 4)``, ``()``."""
    return str(tuple(shape))


def tensor_names(params):
    """``params`` (a dict of names to tensors, or a Module) as ``{name: tensor}``; TypeError otherwise."""
    if params is None:
        return {}
    if hasattr(params, "named_parameters"):
        return dict(params.named_parameters())
    if not isinstance(params, dict):
        raise TypeError(tr("params must be a dict of names to tensors, or a Module, got {type}", type=type(params).__name__))
    for name, t in params.items():
        if not isinstance(name, str) or not isinstance(t, Tensor):
            raise TypeError(tr("params must map names (str) to tensors, got {name}: {type}", name=repr(name),
                               type=type(t).__name__))
    return dict(params)


def caller_tensors(frame):
    """The tensors held by the variables of ``frame`` (a notebook cell's globals, a function's locals),
    as ``{name: tensor}``: how the explorer knows that your ``b`` is the result of ``a * 2``. Names
    starting with ``_`` (IPython's ``_``, ``_12``) are left out."""
    if frame is None:
        return {}
    found = {}
    for scope in (frame.f_globals, frame.f_locals):
        found.update((k, v) for k, v in scope.items() if isinstance(v, Tensor) and not k.startswith("_"))
    return found


def _word(node):
    """The operation a node stands for: ``Mul`` for ``MulBackward0``, ``line`` for ``lineBackward``
    (a custom Function's node: as in PyTorch, only built-in nodes end in a number)."""
    name = node.name()
    if "::" in name or name == "CopySlices":
        return None, False
    return re.sub(r"Backward\d*$", "", name), re.search(r"Backward$", name) is not None


def _snake(word):
    """``MseLoss`` -> ``mse_loss``: the function's name in code."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", word).lower()


def _number(value):
    return repr(value) if isinstance(value, int) else format(value, ".4g")


class GraphRecording:
    """The graph's nodes and edges, and the events of the passes through it (see the module docstring)."""

    def __init__(self, params=None, show_saved=False):
        self.params = tensor_names(params)
        self.show_saved = show_saved
        self.events = []          # what the engine reported, frozen: see _on_forward/_on_backward
        self.nodes, self.edges = {}, []
        self._keys, self._alive, self._edge_seen = {}, [], set()
        self._created, self._created_at, self._passes = [], {}, 0
        self._before_first_pass = 0     # how many nodes were made before the first backward pass
        self._layouts = {}              # drawings' layouts, cleared whenever the graph grows
        self._named, self._results, self._tags = {}, {}, {}
        self._constants = {}            # id(node) -> {edge index: the input that needs no gradient}
        self._name_counts = None        # how many op nodes share each name (label() adds tags then)
        self.name_tensors({})

    # -- names and tags ---------------------------------------------------------------------------
    def name_tensors(self, found):
        """Name tensors: ``params`` first, then ``found`` ({name: tensor}, e.g. the caller's variables;
        of two names for one tensor the first in alphabetical order). A leaf's name labels its box; a
        result's name goes into the tag of the node that made it (``b = a * 2``)."""
        self._named, self._results = {}, {}
        constants = {id(t) for inputs in self._constants.values() for t in inputs.values()}
        for name, t in list(self.params.items()) + sorted(found.items()):
            in_graph = id(t) in self._keys or id(t) in constants or (
                t.grad_fn is not None and id(t.grad_fn) in self._keys)
            if id(t) in self._named or not in_graph:   # keep no tensor the picture does not show
                continue
            self._named[id(t)] = (name, t)           # the tensor is kept, so its id() stays its own
            if t.grad_fn is not None:
                self._results.setdefault((id(t.grad_fn), t.output_nr), name)
        self._tags = {}
        self._relabel()

    def tensor_name(self, t):
        found = self._named.get(id(t))
        return found[0] if found is not None and found[1] is t else None

    def _relabel(self):
        """Each box's label from its kind, the names known and its shape (``a`` over ``(2,)``)."""
        self._name_counts = None
        for key, node in self.nodes.items():
            shape = node["shape"]
            if node["kind"] == "leaf":
                name = self.tensor_name(node["obj"])
                node["label"] = f"{name}\n{shape_text(shape)}" if name else shape_text(shape)
            elif node["kind"] == "output":
                t, op = node.get("tensor"), node.get("producer")
                name = (self.tensor_name(t) if t is not None else None) or \
                    (self._results.get((id(op), 0)) if op is not None else None)
                node["label"] = f"{name or 'output'}\n{shape_text(shape) if shape is not None else '?'}"
            elif node["kind"] == "saved":
                node["label"] = f"{node['what']}\n{shape_text(shape)}"

    def tag(self, key):
        """What made op node ``key``, as code: ``b = a * 2``, ``(b + c).sum()`` (None if unknown)."""
        if key not in self._tags:
            node = self.nodes.get(key)
            obj = node["obj"] if node is not None and node["kind"] == "op" else None
            text = self._expression(obj) if obj is not None else None
            if text is not None:
                name = next((n for (i, _), n in self._results.items() if i == id(obj)), None)
                text = f"{name} = {text}" if name else text
                text = text if len(text) <= MAX_TAG else text[:MAX_TAG - 1] + "…"
            self._tags[key] = text
        return self._tags[key]

    def _operand(self, fn, output_nr, depth):
        """How an input of an op is written: a name, a short expression, or ``…``."""
        if isinstance(fn, AccumulateGrad):
            return self.tensor_name(fn.variable) or "leaf"
        name = self._results.get((id(fn), output_nr))
        if name:
            return name
        text = self._expression(fn, depth + 1) if depth < 2 else None
        if text is None or len(text) > 22:
            return "…"
        return f"({text})" if " " in text else text

    def _expression(self, node, depth=0):
        word, custom = _word(node)
        if word is None:
            return None
        scalars = getattr(node, "scalars", None)       # a Python number given to a binary op
        constants = self._constants.get(id(node), {})
        operands = []
        for k, (fn, output_nr) in enumerate(node.next_functions):
            if fn is not None:
                operands.append(self._operand(fn, output_nr, depth))
            elif isinstance(scalars, tuple) and k < len(scalars) and scalars[k] is not None:
                operands.append(_number(scalars[k]))
            elif isinstance(constants.get(k), Tensor):
                operands.append(self.tensor_name(constants[k]) or "const")
            else:
                operands.append("const")
        if custom:
            return f"{word}.apply({', '.join(operands)})"
        if word in SYMBOLS and len(operands) == 2:
            return f"{operands[0]} {SYMBOLS[word]} {operands[1]}"
        exponent = getattr(node, "exponent", None)
        if word == "Pow" and len(operands) == 1 and isinstance(exponent, numbers.Number):
            return f"{operands[0]} ** {_number(exponent)}"
        if word == "Neg" and len(operands) == 1:
            return f"-{operands[0]}"
        if len(operands) == 1:
            return f"{operands[0]}.{_snake(word)}()"
        return f"{_snake(word)}({', '.join(operands)})"

    # -- the graph --------------------------------------------------------------------------------
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
                                       "shape": node["shape"], "what": node["label"].split("\n")[0]}
                if node["kind"] == "output":
                    t = node["obj"]
                    self.nodes[mine[k]].update(tensor=t, producer=t.grad_fn)
        for src, dst, attrs in edges:
            edge = (mine[src], mine[dst], attrs["kind"], attrs.get("input_nr"))
            if edge not in self._edge_seen:
                self._edge_seen.add(edge)
                self.edges.append((mine[src], mine[dst], attrs))
        self._relabel()
        self._layouts.clear()

    def _add_sink_outputs(self):
        """An output box under every op whose result nothing else used (for recorded graphs)."""
        feeds = {src for src, _, attrs in self.edges if attrs["kind"] == "flow"}
        for key, node in list(self.nodes.items()):
            if node["kind"] == "op" and key not in feeds and not isinstance(node["obj"], AccumulateGrad):
                shape = output_shape(node["obj"], 0)
                out = f"{key}.out"
                self.nodes[out] = {"kind": "output", "label": "", "obj": None, "shape": shape,
                                   "producer": node["obj"]}
                self.edges.append((key, out, {"kind": "flow", "shape": shape}))
        self._relabel()
        self._layouts.clear()

    # -- listening --------------------------------------------------------------------------------
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
        tensors = [a for a in event["inputs"] if isinstance(a, Tensor)]
        if len(tensors) == len(node.next_functions):   # the inputs that need no gradient, by edge
            self._constants[id(node)] = {k: t for k, (t, (fn, _)) in enumerate(zip(tensors, node.next_functions))
                                         if fn is None}
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
        """How a node is called: PyTorch's name (``MulBackward0``), a leaf's for its AccumulateGrad,
        the variable name of a leaf or an output."""
        node = self.nodes.get(key)
        if key == "root":
            return tr("the root")
        if node is None:
            return key
        if isinstance(node["obj"], AccumulateGrad):
            leaf = self._keys.get(id(node["obj"].variable))
            return f"AccumulateGrad({self.nodes[leaf]['label'].split(chr(10))[0]})" if leaf in self.nodes \
                else "AccumulateGrad"
        return node["label"].split("\n")[0]

    def label(self, key):
        """``name(key)``, with the tag when another node has the same name: ``MulBackward0 (a * 2)``."""
        if self._name_counts is None:
            self._name_counts = {}
            for k, node in self.nodes.items():
                if node["kind"] == "op":
                    self._name_counts[self.name(k)] = self._name_counts.get(self.name(k), 0) + 1
        name, tag = self.name(key), self.tag(key)
        return f"{name} ({tag})" if tag and self._name_counts.get(name, 0) > 1 else name
