"""GraphExplorer as a learner reads it: nodes told apart by the code that made them, named outputs,
a legend that cannot be mistaken for a shape, edges routed between the boxes, labels large enough,
a recorded graph drawn from step 0, events found by what happened, and the step after an error."""
import re

import pytest

import tensorlab as torch
from tensorlab import nn

pytest.importorskip("ipywidgets")
pytest.importorskip("networkx")
from widgets import GraphExplorer, _graph_draw  # noqa: E402


def _diamond():
    a = torch.tensor([1., 2.], requires_grad=True)
    b = a * 2
    c = a * 3
    loss = (b + c).sum()
    return a, loss, GraphExplorer(loss, params={"a": a})


def _built():
    """Lesson 07's recorded graph: x * w, then exp, plus x, summed."""
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    with GraphExplorer.record(params={"x": x, "w": w}) as built:
        h = x * w
        out = (h.exp() + x).sum()
        out.backward()
    return built


def _freed_twice():
    x = torch.tensor([1., 2.], requires_grad=True)
    g = GraphExplorer((x.exp() * x).sum(), params={"x": x}, show_saved=True)
    g.backward()
    g.backward()
    return g


def _ops(g):
    return [k for k in g.nodes if g.nodes[k]["kind"] == "op"]


def test_two_nodes_with_one_name_are_told_apart_by_what_made_them():
    a, loss, g = _diamond()
    tags = {g.tag(k) for k in _ops(g) if g.name(k) == "MulBackward0"}
    assert tags == {"b = a * 2", "c = a * 3"}              # the variables and the expressions
    svg = g.to_svg()
    assert "b = a * 2" in svg and "c = a * 3" in svg and svg.count(">MulBackward0<") == 2
    g.backward()
    sends = [g.describe_step(i) for i, e in enumerate(g.events, 1)
             if e["kind"] == "send" and g.name(e["node"]) == "MulBackward0"]
    assert "MulBackward0 (b = a * 2) sends" in " ".join(sends) and "MulBackward0 (c = a * 3)" in " ".join(sends)
    assert g.name(_ops(g)[2]) == "MulBackward0"            # name() stays PyTorch's name


def test_expressions_without_variable_names():
    x = torch.tensor([1., 2.], requires_grad=True)
    g = GraphExplorer((x * 2 + x.exp()).sum(), params={"x": x}, caller_names=False)
    assert [g.tag(k) for k in _ops(g)][:4] == ["((x * 2) + x.exp()).sum()", "(x * 2) + x.exp()", "x * 2", "x.exp()"]
    out = next(k for k in g.nodes if g.nodes[k]["kind"] == "output")
    assert g.nodes[out]["label"] == "output\n()"


def test_the_output_is_named_after_its_variable_not_drawn_as_a_bare_shape():
    a, loss, g = _diamond()
    out = next(k for k in g.nodes if g.nodes[k]["kind"] == "output")
    assert g.nodes[out]["label"] == "loss\n()" and g.name(out) == "loss"
    built = _built()
    outs = [built.name(k) for k in built.nodes if built.nodes[k]["kind"] == "output"]
    assert outs == ["out"]
    named = GraphExplorer(a * 4, params={"y": a * 4})       # a tensor not held by a variable: "output"
    assert [named.name(k) for k in named.nodes if named.nodes[k]["kind"] == "output"] == ["output"]


def test_shapes_are_python_tuples_and_the_badge_is_not_a_shape():
    a, loss, g = _diamond()
    g.backward()
    g.goto(kind="send", to="AccumulateGrad(a)", left=1)
    svg, legend = g.to_svg(), _graph_draw.legend_html()
    assert ">(2,)<" in svg and ">(2)<" not in svg              # shapes read as Python writes them
    assert "(2)" not in legend                               # the legend's badge is not "(2)" ...
    badge = re.search(r'<rect [^>]*rx="10"[^>]*><title>gradients this node still waits for', svg)
    assert badge and ">1</text>" in svg                      # ... but a dark round badge with the count
    assert "border-radius:9px" in legend and "gradients the node still waits for" in legend


def test_every_colour_drawn_is_in_the_legend_including_failed():
    g = _freed_twice()
    legend = g.panel_html()
    assert "raised an error" in legend and f"background:{_graph_draw.PALETTE['failed']}" in legend
    failed = [k for k, v in g.state()["status"].items() if v == "failed"]
    assert failed and f'fill="{_graph_draw.PALETTE["failed"]}"' in g.to_svg()


def test_the_step_after_an_error_does_not_say_the_pass_is_done():
    g = _freed_twice()
    kinds = [e["kind"] for e in g.events]
    assert kinds[-2:] == ["error", "done"]
    assert g.describe_step(len(g.events) - 1).endswith("the pass stopped with an error (below)")
    last = g.describe_step(len(g.events))
    assert "the backward pass is done" not in last and "error ended this pass early" in last
    first_done = kinds.index("done") + 1                    # the first pass did finish
    assert g.describe_step(first_done).endswith("the backward pass is done")


def test_labels_are_twelve_pixels_or_more_and_the_drawing_uses_the_room():
    a, loss, g = _diamond()
    g.backward()
    g.goto(13)
    svg = g.to_svg()
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    assert sizes and min(sizes) >= 12
    width = float(re.search(r'<svg [^>]*width="([\d.]+)"', svg).group(1))
    assert width >= 300                                      # was 240 px with 8-11 px labels


def _sample(points, n=12):
    """Points along the curve ``_graph_draw._curve`` draws through ``points``."""
    out, (x, y) = [points[0]], points[0]
    for x2, y2 in points[1:]:
        bend = (y2 - y) / 2
        p = [(x, y), (x, y + bend), (x2, y2 - bend), (x2, y2)]
        for i in range(1, n + 1):
            t = i / n
            c = [(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3]
            out.append((sum(ci * q[0] for ci, q in zip(c, p)), sum(ci * q[1] for ci, q in zip(c, p))))
        x, y = x2, y2
    return out


def _crosses(a, b, c, d):
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def _routing(g):
    """(edges drawn through a box that is not one of their ends, pairs of edges that cross)."""
    boxes, _, routes = _graph_draw.layout(g.nodes, g.edges, g.tag)
    lines, through = {}, []
    for src, dst, attrs in g.edges:
        eid = _graph_draw.edge_id(src, dst, attrs)
        lines[eid] = _sample(routes[eid])
        for key, (x, y, w, h) in boxes.items():
            if key not in (src, dst) and any(x + 1 < px < x + w - 1 and y + 1 < py < y + h - 1
                                             for px, py in lines[eid]):
                through.append((eid, key))
    ids, crossings = list(lines), 0
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if set(a[:2]) & set(b[:2]):
                continue                                     # edges that share a node meet there
            pa, pb = lines[a], lines[b]
            crossings += any(_crosses(pa[k], pa[k + 1], pb[m], pb[m + 1])
                             for k in range(len(pa) - 1) for m in range(len(pb) - 1))
    return through, crossings


@pytest.mark.parametrize("make", [lambda: _diamond()[2], _built, _freed_twice,
                                  lambda: GraphExplorer(nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))(
                                      torch.ones(4, 3)).sum())],
                         ids=["diamond", "lesson07-recorded", "saved-tensors", "mlp"])
def test_edges_go_round_the_boxes_and_do_not_cross(make):
    assert _routing(make()) == ([], 0)


def test_a_recurrent_graph_routes_no_edge_through_a_box():
    torch.manual_seed(0)
    cell = nn.RNNCell(input_size=1, hidden_size=3)
    h = torch.zeros(1, 3)
    for value in (0.5, -1.0, 2.0):
        h = cell(torch.tensor([[value]]), h)
    through, _ = _routing(GraphExplorer(h.sum(), params=cell))
    assert through == []


def test_a_recorded_step_is_drawn_at_step_0_and_the_text_names_the_real_controls():
    torch.manual_seed(0)
    model = nn.Linear(1, 1)
    x = torch.linspace(-1, 1, 20).unsqueeze(1)
    with GraphExplorer.record(params=model) as one_step:
        loss = nn.MSELoss()(model(x), 3 * x)
        loss.backward()
    assert one_step.position == 0
    svg = one_step.to_svg()
    for label in ("AddmmBackward0", "MseLossBackward0", "weight", "bias", "loss"):
        assert label in svg
    text = one_step.describe_step()
    assert "press Step or Play" in text and "arrow" not in text
    view = one_step.widget
    assert {b.description for b in (view.step_button, view.back_button)} == {"Step", "Back"}


def test_goto_an_event_by_what_happened():
    a, loss, g = _diamond()
    g.backward()
    g.goto(kind="send", to="AccumulateGrad(a)", left=1)
    event = g.events[g.position - 1]
    assert event["kind"] == "send" and g.name(event["to"]) == "AccumulateGrad(a)" and event["left"] == 1
    assert g.find(kind="send", node="c = a * 3") == g.find(kind="send", node="c")   # a tag, or its variable
    assert g.find(kind="run", node="MulBackward0", nth=2) > g.find(kind="run", node="MulBackward0")
    g.goto(kind="done")
    assert g.position == len(g.events)
    with pytest.raises(ValueError, match="no event matches kind='send', to='nothing'"):
        g.find(kind="send", to="nothing")
    with pytest.raises(ValueError, match="kind must be one of record, graph"):
        g.goto(kind="sent")
    with pytest.raises(ValueError, match="no event has a field 'lef'"):
        g.goto(kind="send", lef=1)
    assert g.position == len(g.events)                        # a failed search moved nothing


def test_arrowhead_ids_mean_one_colour_on_a_page_of_several_drawings():
    """Inline SVGs on one page share their ids: an arrowhead's id must name the same colour everywhere."""
    a, loss, g = _diamond()
    g.backward()
    drawings = [g.to_svg(p) for p in range(len(g.events) + 1)] + [_built().to_svg(2), _freed_twice().to_svg()]
    colour_of = {}
    for svg in drawings:
        for marker, fill in re.findall(r'<marker id="([^"]+)".*?fill="([^"]+)"', svg):
            assert colour_of.setdefault(marker, fill) == fill
    assert len(colour_of) >= 3                              # ink, the gradient's orange, the faded grey


def test_the_explorer_keeps_no_tensor_of_the_callers_that_is_not_in_its_graph():
    import gc
    import weakref

    def a_cell():
        big = torch.zeros(1000, 1000)                     # a data set lying around in the notebook
        x = torch.ones(2, requires_grad=True)
        return GraphExplorer((x * 2).sum()), weakref.ref(big), x
    g, big, x = a_cell()
    gc.collect()
    assert big() is None and g.tensor_name(x) == "x"
