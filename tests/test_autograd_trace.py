"""Watching backward (trace events) and drawing the graph (walk, networkx, DOT).
The event schema is documented in tensorlab/autograd/engine.py."""
import numpy as np
import pytest

import tensorlab
from tensorlab.autograd import trace_backward
from tensorlab.autograd.graph_export import describe, to_dot, to_networkx, walk


def _known_graph():
    """loss = sum(exp(x * w) + x): x and w leaves; ExpBackward0 saves its result, Mul saves x and w."""
    x = tensorlab.tensor([1.0, 2.0], requires_grad=True)
    w = tensorlab.tensor([0.5, -1.0], requires_grad=True)
    h = x * w
    loss = (h.exp() + x).sum()
    return x, w, h, loss


def _record(fn):
    events = []
    with trace_backward(events.append):
        fn()
    return events


def test_events_follow_the_documented_schema():
    x, w, h, loss = _known_graph()
    events = _record(loss.backward)
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "graph" and kinds[-1] == "done"
    graph = events[0]
    names = {n.name(): c for n, c in graph["dependencies"].items()}
    acc_x = x.grad_fn if x.grad_fn else h.grad_fn.next_functions[0][0]
    assert graph["dependencies"][acc_x] == 2  # x is used by MulBackward0 and AddBackward0
    assert names["MulBackward0"] == 1 and names["SumBackward0"] == 1
    assert graph["root"].next_functions == ((loss.grad_fn, 0),)
    assert {n.name() for n in graph["nodes"]} >= {"SumBackward0", "AddBackward0", "ExpBackward0",
                                                  "MulBackward0", "torch::autograd::AccumulateGrad"}

    runs = [e["node"].name() for e in events if e["kind"] == "run"]
    assert runs == ["SumBackward0", "AddBackward0", "ExpBackward0", "MulBackward0",
                    "torch::autograd::AccumulateGrad", "torch::autograd::AccumulateGrad"]
    first_run = next(e for e in events if e["kind"] == "run")
    assert first_run["grads"][0].tolist() == 1.0

    sends = [(e["node"].name(), e["edge"], e["to"].name(), e["input_nr"], e["grad"].tolist())
             for e in events if e["kind"] == "send" and e["grad"] is not None]
    exp_h = np.exp([0.5, -2.0])
    assert ("AddBackward0", 1, "torch::autograd::AccumulateGrad", 0, [1.0, 1.0]) in sends
    mul_sends = [s for s in sends if s[0] == "MulBackward0"]
    np.testing.assert_allclose(mul_sends[0][4], exp_h * [0.5, -1.0])   # to x: grad * w
    np.testing.assert_allclose(mul_sends[1][4], exp_h * [1.0, 2.0])    # to w: grad * x

    accumulated = {id(e["variable"]): e["total"].tolist() for e in events if e["kind"] == "accumulate"}
    assert accumulated[id(x)] == x.grad.tolist() and accumulated[id(w)] == w.grad.tolist()

    released = {e["node"].name(): e["shapes"] for e in events if e["kind"] == "release"}
    assert released["ExpBackward0"] == [(2,)] and released["MulBackward0"] == [(2,), (2,)]

    for e in events:
        if e["kind"] == "ready":
            assert e["node"] in e["queue"]


def test_every_node_is_ready_before_it_runs_and_runs_once():
    x, w, h, loss = _known_graph()
    events = _record(loss.backward)
    ready, ran = set(), []
    for e in events:
        if e["kind"] == "ready":
            ready.add(e["node"])
        elif e["kind"] == "run":
            assert e["node"] in ready or e["node"] is loss.grad_fn
            ran.append(e["node"])
    assert len(ran) == len(set(ran))


def test_hook_and_capture_events():
    x, w, h, loss = _known_graph()
    h.register_hook(lambda g: g * 2)
    h.retain_grad()
    events = _record(lambda: tensorlab.autograd.grad(loss, [x, h], retain_graph=True))
    hooks = [(e["which"], e["node"].name()) for e in events if e["kind"] == "hook"]
    assert hooks == [("tensor", "MulBackward0"), ("retain_grad", "MulBackward0")]
    captured = {e["index"]: e["grad"].tolist() for e in events if e["kind"] == "capture"}
    assert set(captured) == {0, 1}
    assert not [e for e in events if e["kind"] == "accumulate"]  # autograd.grad leaves .grad alone
    assert not [e for e in events if e["kind"] == "release"]     # retain_graph


def test_tracing_uses_the_normal_path_and_stops_after_the_block():
    x, w, h, loss = _known_graph()
    calls = []
    with trace_backward(calls.append):
        pass
    loss.backward(retain_graph=True)
    assert calls == []
    plain = (x.grad.tolist(), w.grad.tolist())
    x.grad = w.grad = None
    _record(loss.backward)
    assert (x.grad.tolist(), w.grad.tolist()) == plain


def test_walk_visits_each_node_once_nearest_first():
    x, w, h, loss = _known_graph()
    nodes = walk(loss)
    assert nodes[0] is loss.grad_fn
    assert len(nodes) == len(set(nodes)) == 6
    assert [n.name() for n in nodes[:2]] == ["SumBackward0", "AddBackward0"]


def test_networkx_export_matches_the_known_graph():
    pytest.importorskip("networkx")
    x, w, h, loss = _known_graph()
    g = to_networkx(loss, params={"x": x, "w": w})
    labels = {key: data["label"] for key, data in g.nodes(data=True)}
    by_label = {label: key for key, label in labels.items()}
    kinds = sorted(data["kind"] for _, data in g.nodes(data=True))
    assert kinds == ["leaf", "leaf", "op", "op", "op", "op", "op", "op", "output", "saved", "saved", "saved"]
    assert "x\n (2)" in by_label and "w\n (2)" in by_label
    flow = {(labels[a], labels[b]) for a, b, d in g.edges(data=True) if d["kind"] == "flow"}
    assert flow == {("x\n (2)", "AccumulateGrad"), ("w\n (2)", "AccumulateGrad"),
                    ("AccumulateGrad", "MulBackward0"), ("AccumulateGrad", "AddBackward0"),
                    ("MulBackward0", "ExpBackward0"), ("ExpBackward0", "AddBackward0"),
                    ("AddBackward0", "SumBackward0"), ("SumBackward0", "()")}
    saved = sorted(labels[a] for a, b, d in g.edges(data=True) if d["kind"] == "saved")
    assert saved == ["result\n(2)", "w\n(2)", "x\n(2)"]      # saved parameters go by their names
    unnamed = to_networkx(loss, params={"x": x})
    assert sorted(d["label"] for _, d in unnamed.nodes(data=True) if d["kind"] == "saved") == \
        ["result\n(2)", "saved[1]\n(2)", "x\n(2)"]
    mul_in = sorted((labels[a], d["input_nr"]) for a, b, d in g.in_edges(by_label["MulBackward0"], data=True)
                    if d["kind"] == "flow")
    assert mul_in == [("AccumulateGrad", 0), ("AccumulateGrad", 1)]
    assert g.nodes[by_label["MulBackward0"]]["obj"] is h.grad_fn


def test_dot_export_is_torchviz_like():
    x, w, h, loss = _known_graph()
    dot = to_dot(loss, params={"x": x, "w": w})
    nodes, _ = describe(loss, params={"x": x, "w": w})
    key = {id(n["obj"]): k for k, n in nodes.items()}
    assert dot.startswith("digraph {") and dot.rstrip().endswith("}")
    assert f'{key[id(x)]} [label="x\\n (2)" fillcolor=lightblue]' in dot
    assert f'{key[id(loss.grad_fn)]} [label="SumBackward0" fillcolor=lightgrey]' in dot
    exp_node = loss.grad_fn.next_functions[0][0].next_functions[0][0]
    assert f"{key[id(h.grad_fn)]} -> {key[id(exp_node)]}" in dot
    assert f"{key[id(x)]} -> {key[id(h.grad_fn.next_functions[0][0])]}" in dot
    assert f"{key[id(loss.grad_fn)]} -> {key[id(loss)]}" in dot
    assert "[dir=none]" in dot and "fillcolor=orange" in dot and "fillcolor=darkolivegreen1" in dot
    assert "result" not in to_dot(loss, show_saved=False)


def test_described_ids_follow_the_walk_so_the_same_graph_gives_the_same_text():
    """Ids are n0, n1, ... in walk order (never id()): a lesson's stored drawing must not change."""
    first = _known_graph()
    second = _known_graph()
    assert to_dot(first[3], params={"x": first[0]}) == to_dot(second[3], params={"x": second[0]})
    nodes, edges = describe(first[3])
    assert list(nodes)[:2] == ["n0", "n1"] and nodes["n0"]["obj"] is first[3].grad_fn
    shapes = {(nodes[a]["label"], nodes[b]["label"]): d["shape"] for a, b, d in edges if d["kind"] == "flow"}
    assert shapes[("SumBackward0", "()")] == ()          # the output box: a 0-d loss
    assert shapes[("ExpBackward0", "AddBackward0")] == (2,)
    assert shapes[("AddBackward0", "SumBackward0")] == (2,)


def test_describe_a_model_like_graph_with_parameter_names():
    torch = tensorlab
    w1 = torch.tensor(np.ones((3, 4)), requires_grad=True)
    w2 = torch.tensor(np.ones((4, 1)), requires_grad=True)
    x = torch.tensor(np.ones((2, 3)))
    out = (x.mm(w1).relu().mm(w2)).sum()
    nodes, edges = describe(out, params={"layer1.weight": w1, "layer2.weight": w2})
    leaves = sorted(n["label"] for n in nodes.values() if n["kind"] == "leaf")
    assert leaves == ["layer1.weight\n (3, 4)", "layer2.weight\n (4, 1)"]
    ops = sorted(n["label"] for n in nodes.values() if n["kind"] == "op")
    assert ops == ["AccumulateGrad", "AccumulateGrad", "MmBackward0", "MmBackward0", "ReluBackward0",
                   "SumBackward0"]
