"""Bad input and the learner's own bugs: every widget says what it expected -- a TypeError/ValueError
from the Python API, or the message inline for methods whose contract is to show it (``.error``) --
never an internal AttributeError/AssertionError/RecursionError, and it keeps working afterwards.
An exception raised by the learner's code inside a control (a custom Function's backward, a hook)
is shown in the widget, in Python's words, instead of vanishing into JupyterLab's log console."""
import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tensorlab as torch
from tensorlab import nn, optim

pytest.importorskip("ipywidgets")
pytest.importorskip("networkx")
from widgets import BroadcastExplorer, GraphExplorer, ModuleExplorer, StrideExplorer, TrainingMonitor  # noqa: E402

FRIENDLY = ("TypeError: ", "ValueError: ", "IndexError: ", "RuntimeError: ", "not accepted: ")


def _graph():
    a = torch.tensor([1., 2.], requires_grad=True)
    g = GraphExplorer((a * 2 + a * 3).sum())
    g.backward()
    return g


# -- GraphExplorer ---------------------------------------------------------------------------------

@pytest.mark.parametrize("position", ["abc", None, math.nan, math.inf, 2.5, True, [3]])
def test_goto_names_what_it_expects(position):
    g = _graph()
    g.goto(4)
    with pytest.raises(TypeError, match=r"goto\(\) takes a step number, an int from 0 to 19"):
        g.goto(position)
    assert g.position == 4
    g.step()                                            # and it keeps working
    assert g.position == 5 and g.describe_step().startswith("step 5 of 19")


@pytest.mark.parametrize("output, error, phrase", [
    (None, TypeError, "got NoneType (to record code as it runs, use: with GraphExplorer.record()"),
    (1.5, TypeError, "got float (make it a tensor with torch.tensor"),
    (np.ones(2), TypeError, "got ndarray (make it a tensor with torch.tensor"),
    ("loss", TypeError, "GraphExplorer needs a tensor (the output whose graph to draw)"),
    ([], ValueError, "needs at least one output tensor"),
    ([torch.ones(1), None], TypeError, "got NoneType"),
])
def test_graph_explorer_refuses_what_is_not_a_tensor(output, error, phrase):
    with pytest.raises(error, match=re.escape(phrase)):
        GraphExplorer(output)


def test_graph_explorer_takes_a_list_of_outputs_and_runs_backward_on_all():
    x = torch.tensor([1., 2.], requires_grad=True)
    g = GraphExplorer([x * 2, x * 3])
    assert [g.name(k) for k in g.nodes if g.nodes[k]["kind"] == "output"] == ["output", "output"]
    g.backward(gradient=[torch.ones(2), torch.ones(2)])
    assert x.grad.tolist() == [5., 5.] and g.state()["error"] is None


@pytest.mark.parametrize("params, max_nodes", [(["x"], 60), ({"x": 3}, 60), (None, 0), (None, "60")])
def test_graph_explorer_checks_its_options(params, max_nodes):
    with pytest.raises(TypeError, match="params must|max_nodes must"):
        GraphExplorer(torch.ones(1, requires_grad=True) * 2, params=params, max_nodes=max_nodes)


def test_backward_of_a_recording_says_where_backward_belongs():
    with GraphExplorer.record() as g:
        (torch.ones(1, requires_grad=True) * 2).sum().backward()
    with pytest.raises(TypeError, match="call loss.backward\\(\\) inside the `with GraphExplorer.record"):
        g.backward()


class Broken(torch.autograd.Function):
    """A custom Function whose backward has the kind of bug a learner writes."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        raise ValueError("my backward is broken")


def _hook_that_divides_by_zero(x):
    h = x * 3
    h.register_hook(lambda grad: 1 / 0)
    return h.sum()


@pytest.mark.parametrize("make, expected", [
    (lambda x: Broken.apply(x).sum(), "ValueError: my backward is broken"),
    (_hook_that_divides_by_zero, "ZeroDivisionError: division by zero"),
], ids=["custom-function", "hook"])
def test_the_learners_exception_in_run_backward_is_shown_in_the_widget(make, expected):
    x = torch.ones(2, requires_grad=True)
    g = GraphExplorer(make(x))
    view = g.widget
    view.backward_button.click()                       # raises nothing: the click handler would lose it
    assert expected in view.panel.value and g.state()["error"] == expected
    assert "error ended this pass early" in g.describe_step()
    view.back_button.click()                           # the widget keeps working
    assert g.position == len(g.events) - 1 and "pass stopped with an error" in view.panel.value
    view.reset_button.click()
    assert g.position == 0 and x.grad is None          # the failed pass wrote no gradient


def test_an_exception_in_any_control_is_shown_not_lost():
    g = _graph()
    view = g.widget

    def broken_step():
        raise RuntimeError("something inside went wrong")
    g.step = broken_step
    view.step_button.click()
    assert "RuntimeError: something inside went wrong" in view.panel.value
    view.slider.value = 3                              # the next control still works
    assert g.position == 3 and view.slider.value == 3


# -- StrideExplorer and BroadcastExplorer: select/write say what an index is --------------------------

BAD_INDICES = [slice(None), None, Ellipsis, [0, slice(None)], (slice(None), 0), (None, 0), (Ellipsis, 0),
               ([0, 1], 0), (True, 0), (0, False), (0, 1.5), (0, math.nan), "0, 1", (0, (1,))]


@pytest.mark.parametrize("index", BAD_INDICES, ids=repr)
@pytest.mark.parametrize("call", ["select", "write"])
def test_stride_explorer_select_and_write_want_one_int_per_dimension(call, index):
    ex = StrideExplorer(torch.arange(6.).view(2, 3))
    before = ex.current.clone()
    result = ex.select(index) if call == "select" else ex.write(index, 5.)
    assert result is None and ex.error.startswith(("TypeError: ", "IndexError: "))
    assert "picks one element" in ex.error or "only integers" in ex.error
    assert f"{call}()" in ex.error or "only integers" in ex.error
    assert torch.equal(ex.current, before) and ex.selected is None
    assert ex.select(1, 2).position == 5 and ex.error is None      # and it keeps working


def test_a_bool_is_a_mask_in_pytorch_indexing_not_a_position():
    ex = StrideExplorer(torch.arange(6.).view(2, 3))
    assert ex.select(True, 0) is None
    assert "True and False index like a mask in PyTorch: x[True] adds a dimension" in ex.error
    assert tuple(torch.arange(6.).view(2, 3)[True, 0].shape) == (1, 3)   # what x[True, 0] really is


@pytest.mark.parametrize("index", BAD_INDICES, ids=repr)
def test_broadcast_explorer_select_wants_one_int_per_dimension(index):
    bx = BroadcastExplorer((3, 1), (4,))
    assert bx.select(index) is None and bx.error.startswith(FRIENDLY)
    assert bx.select(1, 2).formula.startswith("(a + b)[1, 2] = a[1, 0] + b[2]")


@pytest.mark.parametrize("shapes, phrase", [
    ((None, (4,)), "a shape is a tuple of sizes such as (3, 1), an int, or text such as '3, 1'; got None"),
    ((3.5, (4,)), "got 3.5"),
    ((math.nan, (4,)), "got nan"),
    (((3, None), (4,)), "got (3, None)"),
    (((True,), (4,)), "got (True,)"),
    (((2000, 1000), (1,)), "up to 1,000,000 elements"),
])
def test_set_shapes_names_what_a_shape_is(shapes, phrase):
    bx = BroadcastExplorer((3, 1), (4,))
    bx.set_shapes(*shapes)
    assert bx.error.startswith("not accepted: ") and phrase in bx.error
    assert bx.shapes == ((3, 1), (4,))                                   # unchanged
    bx.set_shapes((8, 1, 6, 1), (7, 1, 5))                               # NumPy's classic example
    assert bx.error is None and bx.result_shape == (8, 7, 6, 5)
    assert "grids of elements are left out" in bx.to_svg()


# -- TrainingMonitor ------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, error, phrase", [
    (dict(total="10"), TypeError, "total must be an int (the number of steps expected) or None, got str"),
    (dict(total=10**400), ValueError, "got an int of 401 digits"),
    (dict(total=0), ValueError, "total must be a number of steps from 1"),
    (dict(total=2.5), TypeError, "total must be an int"),
    (dict(metrics=()), ValueError, "metrics must name at least one panel"),
    (dict(metrics=(1,)), TypeError, "each metric must be a non-empty str"),
    (dict(metrics=("loss", "loss")), ValueError, "metrics must be different names"),
    (dict(metrics=None), TypeError, "metrics must be a name or a tuple of names"),
    (dict(optimizer=object()), TypeError, "optimizer must be an optimizer such as optim.SGD"),
])
def test_training_monitor_options_are_checked(options, error, phrase):
    with pytest.raises(error) as raised:
        TrainingMonitor(**options)
    assert phrase in str(raised.value)


def test_one_metric_may_be_given_as_a_name():
    assert TrainingMonitor(metrics="loss").metrics == ("loss",)


@pytest.mark.parametrize("call, phrase", [
    (lambda m: m.add_scalar(None, 1.0), "TypeError: tag must be a str such as 'loss/train', got NoneType"),
    (lambda m: m.add_scalar(3, 1.0), "TypeError: tag must be a str"),
    (lambda m: m.update(None, loss=1.0), "TypeError: step must be an int, got NoneType"),
    (lambda m: m.update(1, loss=10**400), "ValueError: a metric value must fit in a float"),
    (lambda m: m.update(1, loss=torch.ones(3)), "a metric value must be one number"),
    (lambda m: m.update(1, loss=None), "TypeError: a metric value must be a real number, got NoneType"),
])
def test_bad_values_are_shown_and_nothing_is_recorded(call, phrase):
    m = TrainingMonitor(metrics=("loss",))
    m.update(0, loss=1.0)
    assert call(m) is None and phrase in m.error
    assert m.series == {"loss": {"steps": [0], "values": [1.0]}}
    m.update(1, loss=0.5)
    assert m.error is None and m.series["loss"]["values"] == [1.0, 0.5]


def test_an_optimizer_is_read_once_checked():
    w = nn.Parameter(torch.zeros(1))
    m = TrainingMonitor(metrics=("loss",), optimizer=optim.SGD([w], lr=0.1))
    m.update(0, loss=1.0)
    assert m.series["lr"]["values"] == [0.1]


# -- ModuleExplorer ---------------------------------------------------------------------------------

def _deep(levels=450):
    model = inner = nn.Sequential()
    for _ in range(levels):
        inner.add_module("m", nn.Sequential())
        inner = inner.m
    inner.add_module("lin", nn.Linear(2, 2))
    return model


def test_a_very_deep_model_is_drawn_to_a_depth_and_counted_below():
    model = _deep()
    ex = ModuleExplorer(model)
    html = ex.to_html()                                   # RecursionError before
    assert ex.summary() == "ModuleExplorer(Sequential: 452 modules, 6 parameters, 6 trainable)"
    assert "more modules nested below, not drawn" in html and "get_submodule(" in html
    view = ex.widget
    assert any("more modules nested below" in str(getattr(w, "value", "")) for w in _all_children(view))
    deep_name = ".".join(["m"] * 449)
    ex.freeze(deep_name)                                  # names deeper than drawn still work
    assert ex.counts() == {"total": 6, "trainable": 0} and ex.error is None


def _all_children(widget):
    stack, found = [widget], []
    while stack:
        w = stack.pop()
        found.append(w)
        stack.extend(getattr(w, "children", ()))
    return found


@pytest.mark.parametrize("name", [None, 3, 1.5, ["0"], b"0"])
@pytest.mark.parametrize("call", ["freeze", "unfreeze", "counts", "hooks"])
def test_module_names_must_be_text(call, name):
    model = nn.Sequential(nn.Linear(2, 2))
    ex = ModuleExplorer(model)
    assert getattr(ex, call)(name) is None
    assert ex.error.startswith("TypeError: name must be a str such as 'features.0'")
    assert model[0].weight.requires_grad
    ex.freeze("0")
    assert ex.error is None and not model[0].weight.requires_grad


@pytest.mark.parametrize("model, depth", [(None, 3), ("model", 3), (nn.Linear(1, 1), "a"), (nn.Linear(1, 1), -1)])
def test_module_explorer_checks_its_arguments(model, depth):
    with pytest.raises(TypeError, match="ModuleExplorer expects an nn.Module|expand_depth must be an int"):
        ModuleExplorer(model, expand_depth=depth)


# -- a sweep: anything at all, and the widgets answer in words --------------------------------------

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                 st.text(max_size=8), st.just(Ellipsis), st.just(slice(None)), st.binary(max_size=3),
                 st.lists(st.integers(-3, 3), max_size=3), st.tuples(st.integers(-3, 3), st.none()))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=JUNK, which=st.sampled_from(["stride.select", "stride.write", "stride.apply", "broadcast.select",
                                         "broadcast.set_shapes", "graph.goto", "monitor.update",
                                         "monitor.add_scalar", "module.freeze"]))
def test_anything_thrown_at_a_widget_gets_an_answer_in_words(junk, which):
    stride, broadcast = StrideExplorer(torch.arange(6.).view(2, 3)), BroadcastExplorer((3, 1), (4,))
    graph, monitor = _graph(), TrainingMonitor(metrics=("loss",))
    module = ModuleExplorer(nn.Sequential(nn.Linear(2, 2)))
    calls = {"stride.select": lambda: stride.select(junk), "stride.write": lambda: stride.write((0, 0), junk),
             "stride.apply": lambda: stride.apply(junk), "broadcast.select": lambda: broadcast.select(junk),
             "broadcast.set_shapes": lambda: broadcast.set_shapes(junk, (4,)), "graph.goto": lambda: graph.goto(junk),
             "monitor.update": lambda: monitor.update(0, loss=junk),
             "monitor.add_scalar": lambda: monitor.add_scalar(junk, 1.0), "module.freeze": lambda: module.freeze(junk)}
    owner = {"stride": stride, "broadcast": broadcast, "graph": graph, "monitor": monitor,
             "module": module}[which.split(".")[0]]
    try:
        calls[which]()
    except (TypeError, ValueError) as error:             # the Python API's answer: a clear message
        assert "object has no attribute" not in str(error) and str(error)
    else:
        pytorch_words = re.match(r"AttributeError: \w+ has no attribute `|AttributeError: `.*` is not an nn.Module",
                                 owner.error or "")
        assert owner.error is None or owner.error.startswith(FRIENDLY) or pytorch_words
        assert owner.error is None or "object has no attribute" not in owner.error
    owner.to_html()                                       # and it still draws
