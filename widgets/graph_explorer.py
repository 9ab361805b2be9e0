"""GraphExplorer: the graph autograd recorded, and a real backward pass through it, one step at a time.

Nothing here simulates autograd. The picture comes from the graph itself (``grad_fn`` and
``next_functions``, via ``tensorlab.autograd.graph_export.describe``); the replay comes from the
engine's own trace events (``tensorlab.autograd.trace_backward``) and, for the graph being built,
from ``tensorlab.autograd.trace_forward``. The explorer only keeps a copy of what each event carried
(gradients as they were at that moment) so you can step forwards and backwards through it.

    >>> import tensorlab as torch
    >>> x = torch.tensor([1., 2.], requires_grad=True)
    >>> y = (x * x).sum()
    >>> g = GraphExplorer(y)
    >>> g.backward()                       # a real backward pass; x.grad is set as usual
    >>> x.grad
    tensor([2., 4.])
    >>> g.goto(len(g.events))              # the last step
    >>> g.describe_step()
    'step 14 of 14: the backward pass is done'
    >>> [e["kind"] for e in g.events][:4]
    ['graph', 'send', 'ready', 'run']

Boxes are named after your variables (``x``, ``y``: the explorer looks them up in the code that made
it; ``params`` names tensors explicitly), and each op is tagged with the code that made it:

    >>> [g.tag(k) for k in g.nodes if g.nodes[k]["kind"] == "op"]
    ['y = (x * x).sum()', 'x * x', None]

Go to an event by what happened rather than by its number -- here, just after ``MulBackward0``
sent ``x``'s ``AccumulateGrad`` the last of the two gradients it waits for (``x`` is used twice):

    >>> g.goto(kind="send", node="MulBackward0", left=0)
    >>> g.describe_step()
    'step 10 of 14: MulBackward0 sends [1, 2] to AccumulateGrad(x) (0 still to come)'

Record code you write yourself -- the forward pass as it builds the graph, then its backward pass:

    >>> with GraphExplorer.record() as g:
    ...     loss = (x * 3).exp().sum()
    ...     loss.backward()
    >>> [e["name"] for e in g.events if e["kind"] == "record"]
    ['MulBackward0', 'ExpBackward0', 'SumBackward0']

See course/07_the_backward_graph.
"""
import numbers
import sys

from tensorlab.autograd import trace_backward, trace_forward
from tensorlab.tensor import Tensor

from . import _graph_draw, _graph_text
from ._base import WidgetModel, error_text
from ._graph_record import GraphRecording, caller_tensors, snapshot, value_text
from ._i18n import tr
from ._svg import PALETTE, svg_img

KINDS = ("record", "graph", "ready", "run", "send", "capture", "accumulate", "hook", "release", "done", "error")
NODE_FIELDS = ("node", "to", "variable")      # event fields that hold a node: matched by its name


def _check_outputs(output):
    """The tensor(s) whose graph is drawn: a tensor, or a non-empty list or tuple of tensors."""
    outputs = list(output) if isinstance(output, (list, tuple)) else [output]
    if not outputs:
        raise ValueError(tr("GraphExplorer needs at least one output tensor, got an empty sequence"))
    for t in outputs:
        if not isinstance(t, Tensor):
            hint = (tr(" (to record code as it runs, use: with GraphExplorer.record() as g: ...)") if t is None else
                    tr(" (make it a tensor with torch.tensor(...))") if hasattr(t, "__array__") or
                    isinstance(t, numbers.Number) else "")
            raise TypeError(tr("GraphExplorer needs a tensor (the output whose graph to draw), or a list of tensors; "
                               "got {type}{hint}", type=type(t).__name__, hint=hint))
    return outputs


class _Recording:
    """What ``with GraphExplorer.record() as g:`` runs: traces on entry; on exit, the graph is added and
    named after the variables of the code inside the block."""

    def __init__(self, explorer, caller_names):
        self.explorer, self.caller_names, self._traces = explorer, caller_names, []

    def __enter__(self):
        for trace, callback in ((trace_forward, self.explorer._on_forward),
                                (trace_backward, self.explorer._on_backward)):
            context = trace(callback)
            context.__enter__()
            self._traces.append(context)
        return self.explorer

    def __exit__(self, *exc_info):
        for context in reversed(self._traces):
            context.__exit__(None, None, None)
        self.explorer._finish_recording(sys._getframe(1) if self.caller_names else None)
        return False


class GraphExplorer(GraphRecording, WidgetModel):
    """Draw the graph behind ``output`` and replay real backward (and forward) passes through it.

    ``output``: a tensor (or a list of tensors) made by operations on tensors that require grad.
    ``params``: names for tensors, a dict (``{"w": w}``) or a Module (its ``named_parameters()``).
    ``caller_names``: also name tensors after the variables of the code that made the explorer.
    ``show_saved``: also draw the tensors each node saved for backward.
    ``max_nodes``: past this many nodes only the neighbourhood of the node of interest is drawn.
    """

    def __init__(self, output, params=None, show_saved=False, max_nodes=60, caller_names=True):
        outputs = _check_outputs(output)
        self._setup(params, show_saved, max_nodes)
        self.output, self._outputs = output, outputs
        self._add_graph(outputs)
        self._add_sink_outputs()
        self.name_tensors(caller_tensors(sys._getframe(1)) if caller_names else {})

    def _setup(self, params, show_saved, max_nodes):
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, numbers.Integral) or max_nodes < 1:
            raise TypeError(tr("max_nodes must be a positive int, got {value}", value=repr(max_nodes)))
        GraphRecording.__init__(self, params, bool(show_saved))
        self.max_nodes, self.output, self._outputs = int(max_nodes), None, []
        self.position = 0         # events[:position] have happened in the picture
        self.error = None         # an error from a control (the backward pass's own is an event)

    # -- recording ------------------------------------------------------------------------------
    @classmethod
    def record(cls, params=None, show_saved=False, max_nodes=60, caller_names=True):
        """Record every node created and every backward step run inside a ``with`` block:
        ``with GraphExplorer.record() as g: ...``."""
        explorer = cls.__new__(cls)
        explorer._setup(params, show_saved, max_nodes)
        return _Recording(explorer, caller_names)

    def _finish_recording(self, frame):
        # Nodes made before the first backward pass and not reached by it are dead ends -- a view's
        # history replaced by an in-place op, a result thrown away -- and are not drawn. Nodes
        # made during or after a pass (create_graph, more forward code) are.
        self._add_graph(self._created[self._before_first_pass:])
        self._add_sink_outputs()
        self.name_tensors(caller_tensors(frame))
        self.refresh()

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Run ``output.backward(...)`` for real, recording each step; the replay starts before it.
        An error -- a second backward without ``retain_graph``, or one raised by your own hook or
        custom Function -- is shown in the widget as Python would print it, and the replay ends there."""
        if self.output is None:
            raise TypeError(tr("this explorer recorded code as it ran and has no output of its own: call "
                               "loss.backward() inside the `with GraphExplorer.record() as g:` block"))
        import tensorlab
        start = len(self.events)
        try:
            with trace_forward(self._on_forward), trace_backward(self._on_backward):
                if isinstance(self.output, Tensor):
                    self.output.backward(gradient, retain_graph=retain_graph, create_graph=create_graph,
                                         inputs=inputs)
                else:
                    tensorlab.autograd.backward(self._outputs, gradient, retain_graph=retain_graph,
                                                create_graph=create_graph, inputs=inputs)
        except Exception as error:  # noqa: BLE001 -- the learner's own code may raise anything
            # the error belongs before the engine's closing "done": the node that raised failed
            at = len(self.events) - 1 if self.events and self.events[-1]["kind"] == "done" else len(self.events)
            self.events.insert(at, {"kind": "error", "message": error_text(error)})
            start = len(self.events)
        self._add_graph(self._created)
        self.error = None
        self.goto(start)

    # -- the replay -------------------------------------------------------------------------------
    def goto(self, position=None, **where):
        """Show the picture after ``position`` events (0: before the first; clamped to the last) -- or,
        given keywords instead, just after the first event that matches them (see ``find``):
        ``g.goto(kind="send", to="AccumulateGrad(a)", left=1)``."""
        if where:
            if position is not None:
                raise TypeError(tr("goto() takes a step number or keywords such as kind='send', not both"))
            position = self.find(**where)
        if isinstance(position, bool) or not isinstance(position, numbers.Integral):
            raise TypeError(tr("goto() takes a step number, an int from 0 to {n} (or keywords such as kind='send'), "
                               "got {value}", n=len(self.events), value=repr(position)))
        self.position = max(0, min(int(position), len(self.events)))
        self.refresh()

    def find(self, kind=None, nth=1, **fields):
        """The step number just after the ``nth`` event that matches: its ``kind`` (``"send"``,
        ``"run"``, ... see ``KINDS``) and any of its fields. A node field (``node``, ``to``,
        ``variable``) matches a node's name, its label or its tag (``"MulBackward0"``,
        ``"AccumulateGrad(a)"``, ``"a * 2"``, or the variable ``"b"``); other fields must be equal
        (``left=1``, ``number=2``). Raises ValueError when nothing matches."""
        if kind is not None and kind not in KINDS:
            raise ValueError(tr("kind must be one of {kinds}; got {kind}", kinds=", ".join(KINDS), kind=repr(kind)))
        if isinstance(nth, bool) or not isinstance(nth, numbers.Integral) or nth < 1:
            raise TypeError(tr("nth must be a positive int (1: the first match), got {value}", value=repr(nth)))
        for field in fields:
            if not any(field in e for e in self.events):
                known = sorted({f for e in self.events for f in e} - {"kind"})
                raise ValueError(tr("no event has a field {field}; the fields are: {fields}", field=repr(field),
                                    fields=", ".join(known)))
        found = 0
        for i, e in enumerate(self.events, 1):
            if (kind is None or e["kind"] == kind) and all(self._matches(e, f, v) for f, v in fields.items()):
                found += 1
                if found == nth:
                    return i
        wanted = ", ".join([f"kind={kind!r}"] * (kind is not None) + [f"{f}={v!r}" for f, v in fields.items()])
        raise ValueError((tr("no event matches {wanted}", wanted=wanted) if wanted else tr("no event matches anything"))
                         + (tr(" {nth} times", nth=nth) if nth > 1 and found else "")
                         + tr("; the replay has {n} events", n=len(self.events)))

    def _matches(self, event, field, value):
        if field not in event:
            return False
        if field in NODE_FIELDS and isinstance(value, str):
            key = event[field]
            return value in (key, self.name(key), self.label(key), self.tag(key)) or \
                (self.tag(key) or "").split(" = ")[0] == value
        return event[field] == value

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
        return _graph_text.state(self, self.position if position is None else position)

    def describe_step(self, position=None):
        """One sentence for the step shown: what the engine just did."""
        return _graph_text.describe_step(self, self.position if position is None else position)

    # -- drawing ----------------------------------------------------------------------------------
    def _visible(self, s):
        """The keys to draw, and a note when the graph is too large to draw whole."""
        shown = list(self.nodes)
        if len(shown) <= self.max_nodes:
            return shown, None
        focus = s["running"] or s["newest"] or shown[0]
        around, frontier, neighbours = {focus}, [focus], {}
        for src, dst, _ in self.edges:
            neighbours.setdefault(src, []).append(dst)
            neighbours.setdefault(dst, []).append(src)
        while frontier and len(around) < self.max_nodes:
            nxt = []
            for k in frontier:
                for n in neighbours.get(k, ()):
                    if n not in around and len(around) < self.max_nodes:
                        around.add(n)
                        nxt.append(n)
            frontier = nxt
        note = tr("showing {n} of {total} nodes: the neighbourhood of {node} (max_nodes={limit})", n=len(around),
                  total=len(shown), node=self.name(focus), limit=self.max_nodes)
        return [k for k in shown if k in around], note

    def to_svg(self, position=None):
        """The picture at a step: the whole graph keeps one layout (a graph being built is drawn whole,
        the nodes not recorded yet faded); a graph past ``max_nodes`` is drawn as the neighbourhood of
        the node of interest."""
        s = self.state(position)
        keys, note = self._visible(s)
        subset = tuple(self.nodes) if note is None else tuple(keys)
        if subset not in self._layouts:
            nodes = {k: self.nodes[k] for k in subset}
            edges = [e for e in self.edges if e[0] in nodes and e[1] in nodes]
            self._layouts[subset] = _graph_draw.layout(nodes, edges, self.tag)
        boxes, size, routes = self._layouts[subset]
        shown = set(keys)
        boxes = {k: b for k, b in boxes.items() if k in shown}
        return _graph_draw.draw(self.nodes, self.edges, boxes, size, s, note, routes, self.tag)

    def panel_html(self, position=None):
        return _graph_text.panel_html(self, self.position if position is None else position)

    def to_html(self):
        """The fallback a notebook stores: the drawing as an ``<img>`` (shown untrusted), the panel beside."""
        alt = tr("autograd graph of {summary}: {step}", summary=self.summary(), step=self.describe_step())
        return (f"<div style='display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start'>"
                f"<div>{svg_img(self.to_svg(), alt)}</div>"
                f"<div style='min-width:260px;max-width:420px;flex:1 1 260px;line-height:1.4'>{self.panel_html()}</div>"
                f"</div>")

    def summary(self):
        ops = sum(1 for n in self.nodes.values() if n["kind"] == "op")
        return "GraphExplorer(" + tr("{ops} nodes, step {p} of {n}", ops=ops, p=self.position, n=len(self.events)) + ")"

    # -- the view ---------------------------------------------------------------------------------
    def _build_view(self):
        from ._graph_view import GraphView
        return GraphView(self)

    def _refresh_view(self):
        self._view.update()


__all__ = ["GraphExplorer", "snapshot", "value_text", "PALETTE", "KINDS"]
