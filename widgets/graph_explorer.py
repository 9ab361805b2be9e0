"""GraphExplorer: the graph autograd recorded, and a real backward pass through it, one step at a time.

Nothing here simulates autograd. The picture comes from the graph itself (``grad_fn`` and
``next_functions``, via ``tensorlab.autograd.graph_export.describe``); the replay comes from the
engine's own trace events (``tensorlab.autograd.trace_backward``) and, for the graph being built,
from ``tensorlab.autograd.trace_forward``. The explorer only keeps a copy of what each event carried
(gradients as they were at that moment) so you can step forwards and backwards through it.

    >>> import tensorlab as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> y = (x * x).sum()
    >>> g = GraphExplorer(y, params={"x": x})
    >>> g.backward()                       # a real backward pass; x.grad is set as usual
    >>> x.grad
    tensor([2., 4.])
    >>> g.goto(len(g.events))              # the last step
    >>> g.describe_step()
    'step 14 of 14: the backward pass is done'
    >>> [e["kind"] for e in g.events][:4]
    ['graph', 'send', 'ready', 'run']

Record code you write yourself -- the forward pass as it builds the graph, then its backward pass:

    >>> with GraphExplorer.record(params={"x": x}) as g:
    ...     loss = (x * 3).exp().sum()
    ...     loss.backward()
    >>> [e["name"] for e in g.events if e["kind"] == "record"]
    ['MulBackward0', 'ExpBackward0', 'SumBackward0']

See course/07_the_backward_graph.
"""
import contextlib

from tensorlab.autograd import trace_backward, trace_forward

from . import _graph_draw
from ._base import WidgetModel
from ._graph_record import GraphRecording, snapshot, value_text
from ._svg import PALETTE, error_html, escape

class GraphExplorer(GraphRecording, WidgetModel):
    """Draw the graph behind ``output`` and replay real backward (and forward) passes through it.

    ``params``: names for leaf tensors, a dict or a Module (its ``named_parameters()``).
    ``show_saved``: also draw the tensors each node saved for backward.
    ``max_nodes``: past this many nodes only the neighbourhood of the node of interest is drawn.
    """

    def __init__(self, output=None, params=None, show_saved=False, max_nodes=60):
        if params is not None and hasattr(params, "named_parameters"):
            params = dict(params.named_parameters())
        GraphRecording.__init__(self, params, show_saved)
        self.max_nodes, self.output = max_nodes, output
        self.position = 0         # events[:position] have happened in the picture
        if output is not None:
            self._add_graph(list(output) if isinstance(output, (list, tuple)) else [output])
            self._add_sink_outputs()

    # -- recording ------------------------------------------------------------------------------
    @classmethod
    @contextlib.contextmanager
    def record(cls, params=None, show_saved=False, max_nodes=60):
        """Record every node created and every backward step run inside the block."""
        explorer = cls(params=params, show_saved=show_saved, max_nodes=max_nodes)
        try:
            with trace_forward(explorer._on_forward), trace_backward(explorer._on_backward):
                yield explorer
        finally:
            # Nodes made before the first backward pass and not reached by it are dead ends -- a view's
            # history replaced by an in-place op, a result thrown away -- and are not drawn. Nodes
            # made during or after a pass (create_graph, more forward code) are.
            explorer._add_graph(explorer._created[explorer._before_first_pass:])
            explorer._add_sink_outputs()
            explorer.refresh()

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Run ``output.backward(...)`` for real, recording each step; the replay starts before it.
        An error (a second backward without ``retain_graph``, say) is shown in the widget."""
        start = len(self.events)
        try:
            with trace_forward(self._on_forward), trace_backward(self._on_backward):
                self.output.backward(gradient, retain_graph=retain_graph, create_graph=create_graph,
                                     inputs=inputs)
        except RuntimeError as error:
            # the error belongs before the engine's closing "done": the node that raised failed
            at = len(self.events) - 1 if self.events and self.events[-1]["kind"] == "done" else len(self.events)
            self.events.insert(at, {"kind": "error", "message": str(error)})
            start = len(self.events)
        self._add_graph(self._created)
        self.goto(start)

    # -- the replay -------------------------------------------------------------------------------
    def goto(self, position):
        self.position = max(0, min(int(position), len(self.events)))
        self.refresh()

    def step(self):
        self.goto(self.position + 1)

    def back(self):
        self.goto(self.position - 1)

    def reset(self):
        self.goto(0)

    def play(self, interval=None):
        """Animate the replay in the live view (``interval`` ms per step); without a view, go to the end."""
        if self._view is None:
            self.goto(len(self.events))
            return
        if interval is not None:
            self._view.play.interval = int(interval)
        if self.position >= len(self.events):
            self.goto(0)
        self._view.play.playing = True

    def pause(self):
        if self._view is not None:
            self._view.play.playing = False

    def state(self, position=None):
        """What the picture shows after ``events[:position]``: node status, dependencies left, the ready
        queue, each leaf's ``.grad``, hooks fired, saved tensors freed -- all folded from the events."""
        p = self.position if position is None else position
        s = {"status": {}, "left": {}, "queue": [], "flow": {}, "accumulated": set(), "released": set(),
             "grads": {}, "captured": {}, "hooks": [], "running": None, "received": None, "newest": None,
             "error": None, "pass": 0}
        s["hidden"] = {self._keys[obj_id] for obj_id, i in self._created_at.items() if i >= p}
        for i, e in enumerate(self.events[:p]):
            kind, node, last = e["kind"], e.get("node"), i == p - 1
            if kind == "record":
                s["newest"] = node
            elif kind == "graph":
                s.update(status={}, left=dict(e["dependencies"]), queue=[], accumulated=set(), running=None,
                         captured={}, error=None)
                s["pass"] = e["number"]
            elif kind == "ready":
                s["status"][node], s["queue"] = "ready", list(e["queue"])
            elif kind == "run":
                if s["running"] is not None:
                    s["status"][s["running"]] = "done"
                s["running"], s["received"] = node, e["grads"]
                s["status"][node] = "running"
                s["queue"] = [k for k in s["queue"] if k != node]
            elif kind == "send":
                s["left"][e["to"]] = e["left"]
                if last and e["grad"] is not None:
                    s["flow"][(e["to"], node)] = value_text(e["grad"])
            elif kind == "accumulate":
                s["accumulated"].add(e["variable"])
                s["grads"][e["variable"]] = e["total"]
                if last:
                    s["flow"][(e["variable"], node)] = value_text(e["grad"])
            elif kind == "capture":
                s["captured"][e["index"]] = e["grad"]
            elif kind == "hook":
                s["hooks"].append(f"{e['which']} hook {e['hook']} on {self.name(node)}"
                                  if e["which"] != "retain_grad" else f"retain_grad on {self.name(node)}")
            elif kind == "release":
                s["released"].add(node)
                s["released"].update(k for k in self.nodes if k.startswith(node + ".s"))
            elif kind == "done":
                if s["running"] is not None:
                    s["status"][s["running"]] = "done"
                # nodes queued but never run (autograd.grad stops at its inputs) are simply left over
                s["status"] = {k: v for k, v in s["status"].items() if v != "ready"}
                s.update(running=None, queue=[])
            elif kind == "error":
                s["error"] = e["message"]
                if s["running"] is not None:
                    s["status"][s["running"]] = "failed"
                    s["running"] = None
        return s

    def describe_step(self, position=None):
        """One sentence for the step shown: what the engine just did."""
        p = self.position if position is None else position
        head = f"step {p} of {len(self.events)}: "
        if p == 0:
            return head + ("nothing has happened yet" if self.events else "no pass recorded yet")
        e, name = self.events[p - 1], self.name
        kind = e["kind"]
        if kind == "record":
            shapes = ", ".join(str(s) for s in e["shapes"])
            return head + f"the forward pass records {e['name']} (output {shapes})"
        if kind == "graph":
            return head + (f"backward pass {e['number']} starts: the engine counts the edges into every "
                           f"node ({len(e['dependencies'])} nodes)")
        if kind == "ready":
            return head + f"{name(e['node'])} is ready: every gradient it waits for has arrived"
        if kind == "run":
            grads = ", ".join(value_text(g) for g in e["grads"])
            return head + f"{name(e['node'])} runs on the gradient it received: {grads}"
        if kind == "send":
            if e["grad"] is None:
                return head + f"{name(e['node'])} sends nothing to {name(e['to'])} ({e['left']} still to come)"
            return head + (f"{name(e['node'])} sends {value_text(e['grad'])} to {name(e['to'])} "
                           f"({e['left']} still to come)")
        if kind == "accumulate":
            return head + (f"{name(e['node'])} adds {value_text(e['grad'])} into .grad, which is now "
                           f"{value_text(e['total'])}")
        if kind == "capture":
            return head + f"autograd.grad captures {value_text(e['grad'])} for inputs[{e['index']}]"
        if kind == "hook":
            if e["which"] == "retain_grad":
                return head + f"retain_grad() keeps the gradient of {name(e['node'])}'s output in its .grad"
            return head + f"a {e['which']} hook ({e['hook']}) runs on {name(e['node'])}"
        if kind == "release":
            return head + (f"{name(e['node'])} frees the tensors it saved for backward "
                           f"({', '.join(str(s) for s in e['shapes'])}): retain_graph=False")
        if kind == "done":
            return head + "the backward pass is done"
        return head + "the pass stopped with an error (below)"

    # -- drawing ----------------------------------------------------------------------------------
    def _visible(self, s):
        """The keys to draw, and a note when the graph is too large to draw whole."""
        hidden = s["hidden"]
        shown = [k for k in self.nodes if k not in hidden and k.split(".")[0] not in hidden]
        if len(shown) <= self.max_nodes:
            return shown, None
        focus = s["running"] or s["newest"] or shown[0]
        around = {focus}
        frontier = [focus]
        neighbours = {}
        for src, dst, _ in self.edges:
            neighbours.setdefault(src, []).append(dst)
            neighbours.setdefault(dst, []).append(src)
        allowed = set(shown)
        while frontier and len(around) < self.max_nodes:
            nxt = []
            for k in frontier:
                for n in neighbours.get(k, ()):
                    if n in allowed and n not in around and len(around) < self.max_nodes:
                        around.add(n)
                        nxt.append(n)
            frontier = nxt
        note = (f"showing {len(around)} of {len(shown)} nodes: the neighbourhood of {self.name(focus)}"
                f" (max_nodes={self.max_nodes})")
        return [k for k in shown if k in around], note

    def to_svg(self, position=None):
        """The picture at a step: the whole graph keeps one layout (so a graph being built grows in
        place); a graph past ``max_nodes`` is drawn as the neighbourhood of the node of interest."""
        s = self.state(position)
        keys, note = self._visible(s)
        subset = tuple(self.nodes) if note is None else tuple(keys)
        if subset not in self._layouts:
            nodes = {k: self.nodes[k] for k in subset}
            edges = [e for e in self.edges if e[0] in nodes and e[1] in nodes]
            self._layouts[subset] = _graph_draw.layout(nodes, edges)
        boxes, size, routes = self._layouts[subset]
        shown = set(keys)
        boxes = {k: b for k, b in boxes.items() if k in shown}
        return _graph_draw.draw(self.nodes, self.edges, boxes, size, s, note, routes)

    def panel_html(self, position=None):
        s = self.state(position)
        parts = [f"<div style='font-family:monospace;font-size:12px;line-height:1.4;margin-bottom:6px'>"
                 f"{escape(self.describe_step(position))}</div>"]
        if s["error"]:
            parts.append(error_html(s["error"]))
        if s["pass"]:
            parts.append(_graph_draw.panel([(str(i + 1), self.name(k)) for i, k in enumerate(s["queue"])]
                                           or [("", "(empty)")], "ready queue (next first)"))
        if s["received"] is not None and s["running"]:
            parts.append(_graph_draw.panel([(f"grad[{i}]", value_text(g)) for i, g in enumerate(s["received"])],
                                           f"{self.name(s['running'])} received"))
        leaves = [(self.nodes[k]["label"].split("\n")[0], value_text(v)) for k, v in s["grads"].items()]
        if leaves:
            parts.append(_graph_draw.panel(leaves, ".grad of the leaves"))
        if s["captured"]:
            parts.append(_graph_draw.panel([(f"inputs[{i}]", value_text(v)) for i, v in sorted(s["captured"].items())],
                                           "captured by autograd.grad"))
        if s["hooks"]:
            parts.append(_graph_draw.panel([(str(i + 1), h) for i, h in enumerate(s["hooks"])], "hooks that fired"))
        freed = [self.name(k) for k in self.nodes if k in s["released"] and "." not in k]
        if freed:
            parts.append(_graph_draw.panel([("", ", ".join(freed))], "saved tensors freed by"))
        parts.append(_graph_draw.legend_html(self.show_saved))
        return "".join(parts)

    def to_html(self):
        return (f"<div style='display:flex;gap:16px;align-items:flex-start'><div>{self.to_svg()}</div>"
                f"<div style='min-width:260px;line-height:1.4'>{self.panel_html()}</div></div>")

    def summary(self):
        ops = sum(1 for n in self.nodes.values() if n["kind"] == "op")
        return f"GraphExplorer({ops} nodes, step {self.position} of {len(self.events)})"

    # -- the view ---------------------------------------------------------------------------------
    def _build_view(self):
        from ._graph_view import GraphView
        return GraphView(self)

    def _refresh_view(self):
        self._view.update()


__all__ = ["GraphExplorer", "snapshot", "value_text", "PALETTE"]
