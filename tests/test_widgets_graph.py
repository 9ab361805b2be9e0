"""GraphExplorer: the drawn graph and the replayed steps come from the real graph and the engine's
own trace events; the view responds to its controls; drawings are deterministic."""
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import tensorlab as torch
from tensorlab.autograd import trace_backward

pytest.importorskip("ipywidgets")
pytest.importorskip("networkx")
from widgets import GraphExplorer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _diamond():
    a = torch.tensor([1., 2.], requires_grad=True)
    b = a * 2
    c = a * 3
    return a, (b + c).sum()


def _kinds(events):
    return [e["kind"] for e in events]


def test_events_are_the_engines_own_steps():
    a, loss = _diamond()
    raw = []
    with trace_backward(raw.append):
        g = GraphExplorer(loss, params={"a": a})
        g.backward()
    # the explorer keeps every engine event except release steps of nodes that saved nothing
    expected = [e["kind"] for e in raw
                if not (e["kind"] == "release" and all(s is None for s in e["shapes"]))]
    assert _kinds(g.events) == expected
    runs = [g.name(e["node"]) for e in g.events if e["kind"] == "run"]
    assert runs[0] == "SumBackward0" and runs[-1] == "AccumulateGrad(a)"


def test_a_diamond_waits_for_both_branches_before_accumulating():
    a, loss = _diamond()
    g = GraphExplorer(loss, params={"a": a})
    g.backward()
    acc = next(k for k in g.nodes if g.name(k) == "AccumulateGrad(a)")
    graph = g.events[0]
    assert graph["dependencies"][acc] == 2
    sends = [e for e in g.events if e["kind"] == "send" and e["to"] == acc]
    assert [e["left"] for e in sends] == [1, 0]
    np.testing.assert_allclose(sends[0]["grad"].array + sends[1]["grad"].array, [5., 5.])
    ready = [i for i, e in enumerate(g.events) if e["kind"] == "ready" and e["node"] == acc]
    assert ready[0] > g.events.index(sends[1])         # ready only after the second gradient arrived
    g.goto(len(g.events))
    state = g.state()
    np.testing.assert_allclose(state["grads"][next(k for k in g.nodes if g.nodes[k]["kind"] == "leaf")].array,
                               a.grad.numpy())
    assert "AccumulateGrad(a) adds" in g.describe_step(len(g.events) - 1)


def test_state_follows_the_replay_step_by_step():
    a, loss = _diamond()
    g = GraphExplorer(loss, params={"a": a})
    g.backward()
    run_at = next(i for i, e in enumerate(g.events) if e["kind"] == "run")
    s = g.state(run_at + 1)
    node = g.events[run_at]["node"]
    assert s["running"] == node and s["status"][node] == "running"
    assert node not in s["queue"]
    assert g.state(0)["status"] == {}
    g.goto(run_at + 1)
    g.step()
    assert g.position == run_at + 2
    g.back()
    g.back()
    assert g.position == run_at
    g.goto(10_000)
    assert g.position == len(g.events)
    g.reset()
    assert g.position == 0


def test_non_scalar_output_with_gradient_and_retain_graph():
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = x * x
    g = GraphExplorer(y, params={"x": x})
    g.backward(gradient=torch.tensor([1., 0., 2.]), retain_graph=True)
    first_run = next(e for e in g.events if e["kind"] == "run")
    np.testing.assert_allclose(first_run["grads"][0].array, [1., 0., 2.])
    assert not [e for e in g.events if e["kind"] == "release"]          # retain_graph keeps them
    g.backward(gradient=torch.tensor([1., 0., 2.]))                       # second pass, then freed
    assert [e["number"] for e in g.events if e["kind"] == "graph"] == [1, 2]
    np.testing.assert_allclose(x.grad.numpy(), [4., 0., 24.])
    g.goto(len(g.events))
    leaf = next(k for k in g.nodes if g.nodes[k]["kind"] == "leaf")
    np.testing.assert_allclose(g.state()["grads"][leaf].array, [4., 0., 24.])


def test_a_second_backward_without_retain_graph_shows_pytorchs_error():
    x = torch.tensor([1., 2.], requires_grad=True)
    g = GraphExplorer((x.exp()).sum(), params={"x": x})
    g.backward()
    before = x.grad.clone()
    g.backward()
    assert [e["kind"] for e in g.events[-2:]] == ["error", "done"]   # the engine's "done" comes last
    assert "Trying to backward through the graph a second time" in g.events[-2]["message"]
    assert g.position == len(g.events)
    failed = [k for k, status in g.state()["status"].items() if status == "failed"]
    assert [g.name(k) for k in failed] == ["ExpBackward0"]              # the node whose saved result was freed
    assert "Trying to backward through the graph a second time" in g.panel_html()
    assert torch.equal(x.grad, before)  # the failed pass changed nothing
    g.back()
    g.back()                             # and the widget keeps working
    assert "error" not in g.describe_step()


def test_record_shows_the_graph_being_built_op_by_op():
    x = torch.tensor([1., 2.], requires_grad=True)
    with GraphExplorer.record(params={"x": x}) as g:
        h = x * 2
        loss = h.exp().sum()
    records = [e for e in g.events if e["kind"] == "record"]
    assert [e["name"] for e in records] == ["MulBackward0", "ExpBackward0", "SumBackward0"]
    assert records[0]["shapes"] == [(2,)] and records[2]["shapes"] == [()]
    mul, exp = records[0]["node"], records[1]["node"]
    hidden_at_0 = g.state(0)["hidden"]
    assert mul in hidden_at_0 and exp in hidden_at_0
    s1 = g.state(1)
    assert mul not in s1["hidden"] and exp in s1["hidden"] and s1["newest"] == mul
    # the leaf and its AccumulateGrad appear with the op that first used them
    leaf = next(k for k in g.nodes if g.nodes[k]["kind"] == "leaf")
    assert leaf in hidden_at_0 and leaf not in s1["hidden"]
    # the whole graph is drawn from step 0 on (never a blank picture): what is not recorded yet faded
    assert "MulBackward0" in g.to_svg(0) and "SumBackward0" in g.to_svg(0)
    assert "not recorded yet" in g.panel_html(0) and "press Step or Play" in g.describe_step(0)
    assert g.to_svg(1).count('stroke="#bbb"') < g.to_svg(0).count('stroke="#bbb"')
    assert 'stroke="#bbb"' not in g.to_svg(len(g.events))


def test_control_flow_builds_a_different_graph_each_iteration():
    x = torch.tensor([1., -2.], requires_grad=True)
    names = []
    for step in range(2):
        with GraphExplorer.record() as g:
            y = x * 2 if step == 0 else x.exp()
            y.sum().backward()
        names.append([e["name"] for e in g.events if e["kind"] == "record"])
    assert names == [["MulBackward0", "SumBackward0"], ["ExpBackward0", "SumBackward0"]]


def test_custom_function_node_in_the_graph():
    class Line(torch.autograd.Function):
        @staticmethod
        def forward(ctx, w, x, b):
            ctx.save_for_backward(w, x)
            return w * x + b

        @staticmethod
        def backward(ctx, grad):
            w, x = ctx.saved_tensors
            return grad * x, grad * w, grad

    w, x, b = (torch.tensor([v], requires_grad=True) for v in (2., 3., 1.))
    g = GraphExplorer(Line.apply(w, x, b).sum(), params={"w": w, "x": x, "b": b}, show_saved=True)
    labels = sorted(n["label"] for n in g.nodes.values() if n["kind"] == "op")
    assert "LineBackward" in labels
    assert sum(1 for n in g.nodes.values() if n["kind"] == "saved") == 2
    g.backward()
    assert [g.name(e["node"]) for e in g.events if e["kind"] == "release"] == ["LineBackward"]
    np.testing.assert_allclose(w.grad.numpy(), [3.])


def test_in_place_on_a_view_shows_copyslices():
    leaf = torch.tensor([1., 2., 3.], requires_grad=True)
    with GraphExplorer.record(params={"leaf": leaf}) as g:
        x = leaf.clone()
        x[0].mul_(5)
        x.sum().backward()
    # as in PyTorch, CopySlices stands for the in-place MulBackward0 it wraps; the view's replaced
    # history (SelectBackward0) is a dead end that backward never reaches, so it is not drawn
    ops = sorted(n["label"] for n in g.nodes.values() if n["kind"] == "op")
    assert ops == ["AccumulateGrad", "CloneBackward0", "CopySlices", "SumBackward0"]
    assert any("CopySlices" == g.name(e["node"]) for e in g.events if e["kind"] == "run")
    assert [e["name"] for e in g.events if e["kind"] == "record"][:3] == \
        ["CloneBackward0", "SelectBackward0", "MulBackward0"]   # ... though the forward pass made them
    np.testing.assert_allclose(leaf.grad.numpy(), [5., 1., 1.])


def test_autograd_grad_with_create_graph_records_the_second_order_graph():
    x = torch.tensor([1., 2.], requires_grad=True)
    with GraphExplorer.record(params={"x": x}) as g:
        y = (x ** 3).sum()
        (dx,) = torch.autograd.grad(y, x, create_graph=True)
        dx.sum().backward()
    kinds = _kinds(g.events)
    first_graph, second_graph = [i for i, k in enumerate(kinds) if k == "graph"]
    captured = [e for e in g.events if e["kind"] == "capture"]
    np.testing.assert_allclose(captured[0]["grad"].array, [3., 12.])
    # nodes recorded *during* the first backward: backward itself built the second-order graph
    assert any(k == "record" for k in kinds[first_graph:second_graph])
    np.testing.assert_allclose(x.grad.numpy(), [6., 12.])
    # autograd.grad stops at its input: the AccumulateGrad it reached is not left looking queued
    end_of_first = first_graph + kinds[first_graph:].index("done") + 1
    assert "ready" not in g.state(end_of_first)["status"].values()
    assert "captured by autograd.grad" in g.panel_html(first_graph + kinds[first_graph:].index("capture") + 1)


def test_hooks_that_fire_are_listed():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.register_hook(lambda grad: grad * 10)
    g = GraphExplorer(y.sum(), params={"x": x})
    g.backward()
    hooks = [e for e in g.events if e["kind"] == "hook"]
    assert hooks and hooks[0]["which"] == "tensor"
    np.testing.assert_allclose(hooks[0]["result"].array, [10., 10.])
    g.goto(len(g.events))
    assert "hooks that fired" in g.panel_html()
    np.testing.assert_allclose(x.grad.numpy(), [20., 20.])


def test_module_parameters_name_the_leaves():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
    g = GraphExplorer(model(torch.ones(4, 3)).sum(), params=model)
    leaves = sorted(n["label"].split("\n")[0] for n in g.nodes.values() if n["kind"] == "leaf")
    assert leaves == ["0.bias", "0.weight", "2.bias", "2.weight"]


def test_the_same_graph_gives_the_same_svg_in_another_process():
    script = textwrap.dedent("""
        import tensorlab as torch
        from widgets import GraphExplorer
        x = torch.tensor([1., 2.], requires_grad=True)
        w = torch.tensor([0.5, -1.], requires_grad=True)
        g = GraphExplorer(((x * w).exp() + x).sum(), params={"x": x, "w": w}, show_saved=True)
        g.backward()
        g.goto(9)
        print(g.to_html())
    """)
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                           check=True, env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": str(seed)}).stdout
            for seed in (1, 2)]
    assert runs[0] == runs[1] and "data:image/svg+xml;base64," in runs[0]


def test_a_long_chain_draws_its_neighbourhood_without_recursion():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(10_000):
        y = y * 1.0
    g = GraphExplorer(y.sum(), max_nodes=40)
    g.backward()
    g.goto(len(g.events) // 2)
    svg = g.to_svg()
    assert "showing 40 of 10004 nodes" in svg
    assert svg.count('class="node op"') <= 40


def test_the_view_responds_to_its_controls():
    a, loss = _diamond()
    g = GraphExplorer(loss, params={"a": a})
    view = g.widget
    before = view.drawing.value
    view.backward_button.click()                       # runs a real backward
    assert a.grad is not None and view.slider.max == len(g.events)
    view.step_button.click()
    view.step_button.click()
    assert g.position == 2 and view.slider.value == 2
    assert view.drawing.value != before
    view.slider.value = 6                              # the slider drives the model
    assert g.position == 6 and g.describe_step() in view.panel.value
    view.back_button.click()
    assert g.position == 5
    view.backward_button.click()                       # a second time: PyTorch's error, inline
    assert "Trying to backward through the graph a second time" in view.panel.value
    view.reset_button.click()
    assert g.position == 0 and view.slider.value == 0
    g.play(interval=250)
    assert view.play.playing and view.play.interval == 250
    g.pause()
    assert not view.play.playing


def test_display_sends_the_view_a_summary_and_the_drawing():
    a, loss = _diamond()
    g = GraphExplorer(loss, params={"a": a})
    bundle = g._repr_mimebundle_()
    assert bundle["text/plain"] == "GraphExplorer(5 nodes, step 0 of 0)"
    assert "<svg" not in bundle["text/html"]                   # stripped from an untrusted notebook
    assert bundle["text/html"].count('<img src="data:image/svg+xml;base64,') == 1
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "<svg" in g.widget.drawing.value                      # the live view keeps inline SVG


def test_play_without_a_view_goes_to_the_end():
    a, loss = _diamond()
    g = GraphExplorer(loss)
    g.backward()
    g.play()
    assert g.position == len(g.events) and g.describe_step().endswith("the backward pass is done")
