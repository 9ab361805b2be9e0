"""tensorlab.fx against torch.fx: the same models give the same graph (node kinds, names, targets,
args), the same generated code, and a GraphModule that computes what the model computes."""
import operator

import numpy as np
import pytest

import tensorlab
import tensorlab.fx as fx
import tensorlab.nn as nn
import tensorlab.nn.functional as F
from tests.oracle import assert_same

try:
    import torch as _torch
except ImportError:
    _torch = None


def scaled(x, k):
    """A free function that tracing keeps as one node (fx.wrap below)."""
    return x * k


fx.wrap("scaled")
if _torch is not None:
    _torch.fx.wrap("scaled")


# -- the same models, written once, built with either library -------------------------------------------


def mlp(lib):
    return lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 2))


def residual(lib):
    class Residual(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = lib.nn.Linear(4, 4)
            self.w = lib.nn.Parameter(lib.ones(4))
            self.register_buffer("b", lib.zeros(4))

        def forward(self, x):
            y = lib.relu(self.linear(x)) + x
            z = y.relu() + lib.nn.functional.relu(y) * self.w
            return z + self.b + 1
    return Residual()


def nested(lib):
    class Block(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = lib.nn.Sequential(lib.nn.Linear(4, 4), lib.nn.Tanh())

        def forward(self, x):
            return self.layers(x) * 2 - x

    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.scale = lib.ones(4)  # a plain tensor attribute: recorded by its name

        def forward(self, x, k=3):
            h = self.block(x)
            return (h.sum(1, keepdim=True) + self.scale * k, -h[0])
    return Net()


def concat(lib):
    def f(x, y):
        return lib.cat([x, y], dim=0)
    return f


def chain(lib):
    def g(x):
        return x.view(-1).sum()
    return g


MODELS = {"mlp": (mlp, 1), "residual": (residual, 1), "nested": (nested, 1), "concat": (concat, 2),
          "chain": (chain, 1)}


def _build(lib, name, seed=0):
    model = MODELS[name][0](lib)
    if isinstance(model, lib.nn.Module):
        rng = np.random.default_rng(seed)
        for p in model.parameters():
            p.data = lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32))
    return model


def _inputs(lib, name):
    rng = np.random.default_rng(1)
    return [lib.tensor(rng.standard_normal((3, 4)).astype(np.float32)) for _ in range(MODELS[name][1])]


def _in_tensorlab_terms(text):
    return text.replace("torch.", "tensorlab.")


@pytest.mark.parametrize("name", list(MODELS))
def test_graph_and_code_match_torch_fx(name):
    torch = pytest.importorskip("torch")
    ours = fx.symbolic_trace(_build(tensorlab, name))
    theirs = torch.fx.symbolic_trace(_build(torch, name))
    assert str(ours.graph) == _in_tensorlab_terms(str(theirs.graph))
    assert ours.code == _in_tensorlab_terms(theirs.code)
    ours_nodes = [(n.op, n.name, str(n.args), str(n.kwargs)) for n in ours.graph.nodes]
    theirs_nodes = [(n.op, n.name, str(n.args), str(n.kwargs)) for n in theirs.graph.nodes]
    assert ours_nodes == theirs_nodes


@pytest.mark.parametrize("name", list(MODELS))
def test_graph_module_computes_what_the_model_computes(name):
    model = _build(tensorlab, name)
    gm = fx.symbolic_trace(model)
    inputs = _inputs(tensorlab, name)
    expected, got = model(*inputs), gm(*inputs)
    for e, g in zip(expected if isinstance(expected, tuple) else [expected],
                    got if isinstance(got, tuple) else [got]):
        assert_same(g, e)
    torch = pytest.importorskip("torch")
    theirs = torch.fx.symbolic_trace(_build(torch, name))(*_inputs(torch, name))
    for g, t in zip(got if isinstance(got, tuple) else [got], theirs if isinstance(theirs, tuple) else [theirs]):
        assert_same(g, t, rtol=1e-4, atol=1e-5)


def test_node_kinds_and_targets():
    gm = fx.symbolic_trace(_build(tensorlab, "residual"))
    nodes = {n.name: n for n in gm.graph.nodes}
    assert nodes["x"].op == "placeholder" and nodes["x"].target == "x"
    assert nodes["linear"].op == "call_module" and nodes["linear"].target == "linear"
    assert nodes["relu"].target is tensorlab.relu
    assert nodes["add"].target is operator.add and nodes["add"].args == (nodes["relu"], nodes["x"])
    assert nodes["relu_1"].op == "call_method" and nodes["relu_1"].target == "relu"
    assert nodes["relu_2"].target is F.relu and nodes["relu_2"].kwargs == {"inplace": False}
    assert nodes["w"].op == "get_attr" and nodes["output"].args == (nodes["add_3"],)
    assert set(nodes["add"].users) == {nodes["relu_1"], nodes["relu_2"]}
    assert nodes["mul"].all_input_nodes == [nodes["relu_2"], nodes["w"]]


def test_graph_module_holds_the_state_it_uses():
    model = _build(tensorlab, "nested")
    gm = fx.symbolic_trace(model)
    assert type(gm).__name__ == "Net"
    assert getattr(gm.block.layers, "0").weight is model.block.layers[0].weight  # only what the graph uses
    assert "scale" in dict(gm.named_buffers())
    assert str(gm).endswith("# To see more debug info, please use `graph_module.print_readable()`")


def test_tensor_constants_are_stored_on_the_module():
    torch = pytest.importorskip("torch")

    def source(lib):
        def f(x):
            return x + lib.tensor([1.0, 2.0, 3.0, 4.0])
        return f
    ours, theirs = fx.symbolic_trace(source(tensorlab)), torch.fx.symbolic_trace(source(torch))
    assert ours.code == _in_tensorlab_terms(theirs.code)
    assert_same(ours._tensor_constant0, theirs._tensor_constant0)


def test_default_arguments_become_placeholder_defaults():
    torch = pytest.importorskip("torch")

    def f(x, y=3):
        return x + y
    ours, theirs = fx.symbolic_trace(f), torch.fx.symbolic_trace(f)
    assert str(ours.graph) == str(theirs.graph)
    assert ours.code == theirs.code
    assert_same(ours(tensorlab.ones(2)), theirs(torch.ones(2)))


def test_unpacking_a_proxy_and_getattr():
    torch = pytest.importorskip("torch")

    def f(x):
        a, b = x
        return a * b, x.shape
    ours, theirs = fx.symbolic_trace(f), torch.fx.symbolic_trace(f)
    assert ours.code == theirs.code
    out, shape = ours(tensorlab.ones(2, 3))
    assert shape == (2, 3) and out.tolist() == [1.0] * 3


# -- the limits of tracing -----------------------------------------------------------------------------


def test_data_dependent_control_flow_raises_trace_error():
    def f(x):
        if x.sum() > 0:
            return x
        return -x
    with pytest.raises(fx.TraceError, match="symbolically traced variables cannot be used as inputs to control flow"):
        fx.symbolic_trace(f)


def test_len_and_iteration_of_a_proxy_raise():
    with pytest.raises(RuntimeError, match="'len' is not supported in symbolic tracing by default"):
        fx.symbolic_trace(lambda x: len(x))
    with pytest.raises(fx.TraceError, match="Proxy object cannot be iterated"):
        fx.symbolic_trace(lambda x: [t for t in x])


def test_tracing_leaves_module_lookups_as_they_were():
    before = (vars(nn.Module).get("__call__"), nn.Module.__getattr__)
    with pytest.raises(fx.TraceError):
        fx.symbolic_trace(lambda x: x if x else x)
    fx.symbolic_trace(_build(tensorlab, "nested"))
    assert (vars(nn.Module).get("__call__"), nn.Module.__getattr__) == before


def test_custom_leaf_rule_traces_into_tensorlab_layers():
    torch = pytest.importorskip("torch")

    def tracer_for(lib):
        class Through(lib.fx.Tracer):
            def is_leaf_module(self, m, qualified_name):
                return isinstance(m, lib.nn.Linear)
        return Through()

    def graph_of(lib):
        return tracer_for(lib).trace(lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU()))
    assert [(n.op, n.name) for n in graph_of(tensorlab).nodes] == [(n.op, n.name) for n in graph_of(torch).nodes]


# -- rewriting ---------------------------------------------------------------------------------------------


def _relu_to_sigmoid(gm, lib):
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is lib.relu:
            with gm.graph.inserting_after(node):
                new = gm.graph.call_function(lib.sigmoid, node.args)
            node.replace_all_uses_with(new)
            gm.graph.erase_node(node)
    gm.graph.lint()
    gm.recompile()
    return gm


def test_rewrite_replace_erase_recompile_as_torch_fx():
    torch = pytest.importorskip("torch")
    ours = _relu_to_sigmoid(fx.symbolic_trace(_build(tensorlab, "residual")), tensorlab)
    theirs = _relu_to_sigmoid(torch.fx.symbolic_trace(_build(torch, "residual")), torch)
    assert str(ours.graph) == _in_tensorlab_terms(str(theirs.graph))
    assert ours.code == _in_tensorlab_terms(theirs.code)
    assert_same(ours(*_inputs(tensorlab, "residual")), theirs(*_inputs(torch, "residual")), rtol=1e-4, atol=1e-5)


def test_erase_node_with_users_refuses_and_changes_nothing():
    gm = fx.symbolic_trace(_build(tensorlab, "residual"))
    before = str(gm.graph)
    add = next(n for n in gm.graph.nodes if n.name == "add")
    with pytest.raises(RuntimeError, match="Tried to erase Node add but it still had 2 users in the graph"):
        gm.graph.erase_node(add)
    assert str(gm.graph) == before


def test_lint_finds_a_node_used_before_it_is_defined():
    gm = fx.symbolic_trace(_build(tensorlab, "chain"))
    view, total = [n for n in gm.graph.nodes if n.op == "call_method"]
    view.prepend(total)  # move sum before the view it reads
    with pytest.raises(RuntimeError, match="was used before it has been defined"):
        gm.graph.lint()


def test_build_a_graph_by_hand():
    graph = fx.Graph()
    x = graph.placeholder("x")
    relu = graph.call_function(tensorlab.relu, (x,))
    total = graph.call_method("sum", (relu,))
    graph.output(total)
    gm = fx.GraphModule(nn.Module(), graph)
    assert gm(tensorlab.tensor([-1.0, 2.0, 3.0])).item() == 5.0
    assert [n.name for n in graph.nodes] == ["x", "relu", "sum_1", "output"]
    assert "relu = tensorlab.relu(x);  x = None" in gm.code


def test_eliminate_dead_code():
    def f(x):
        unused = x * 2  # noqa: F841
        return x + 1
    gm = fx.symbolic_trace(f)
    assert gm.graph.eliminate_dead_code()
    gm.recompile()
    assert [n.name for n in gm.graph.nodes] == ["x", "add", "output"]


# -- running node by node ------------------------------------------------------------------------------------


def test_interpreter_runs_the_graph_and_run_node_sees_every_node():
    model = _build(tensorlab, "residual")
    gm = fx.symbolic_trace(model)
    seen = []

    class Watch(fx.Interpreter):
        def run_node(self, n):
            result = super().run_node(n)
            seen.append((n.name, tuple(result.shape) if isinstance(result, tensorlab.Tensor) else None))
            return result
    x, = _inputs(tensorlab, "residual")
    assert_same(Watch(gm).run(x), model(x))
    assert [name for name, _ in seen] == [n.name for n in gm.graph.nodes]
    assert dict(seen)["linear"] == (3, 4)


def test_interpreter_method_override_changes_the_result():
    gm = fx.symbolic_trace(lambda x: tensorlab.relu(x) + 1)

    class Negate(fx.Interpreter):
        def call_function(self, target, args, kwargs):
            if target is tensorlab.relu:
                return tensorlab.neg(*args)
            return super().call_function(target, args, kwargs)
    assert Negate(gm).run(tensorlab.tensor([2.0])).tolist() == [-1.0]


def test_transformer_rewrites_as_torch_fx():
    torch = pytest.importorskip("torch")

    def transformed(lib):
        class ReluToSigmoid(lib.fx.Transformer):
            def call_function(self, target, args, kwargs):
                if target is lib.relu:
                    target = lib.sigmoid
                return super().call_function(target, args, kwargs)
        return ReluToSigmoid(lib.fx.symbolic_trace(_build(lib, "residual"))).transform()
    ours, theirs = transformed(tensorlab), transformed(torch)
    assert ours.code == _in_tensorlab_terms(theirs.code)
    assert_same(ours(*_inputs(tensorlab, "residual")), theirs(*_inputs(torch, "residual")), rtol=1e-4, atol=1e-5)


def test_gradients_flow_through_a_graph_module():
    model = _build(tensorlab, "mlp")
    gm = fx.symbolic_trace(model)
    x, = _inputs(tensorlab, "mlp")
    gm(x).sum().backward()
    grads = [p.grad.clone() for p in model.parameters()]
    for p in model.parameters():
        p.grad = None
    model(x).sum().backward()
    for g, p in zip(grads, model.parameters()):
        assert_same(g, p.grad)


def _mixed(lib):
    class Mixed(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = lib.nn.Parameter(lib.ones(4, 4))
            self.conv = lib.nn.Conv2d(1, 2, 3)
            self.k = lib.ones(4)

        def forward(self, x, img):
            h = x @ self.weight.t()
            h = self.k + h  # a plain tensor on the left: Tensor.__add__ hands the call to the proxy
            h = h.view(x.size(0), -1)
            h = lib.nn.functional.softmax(h, dim=-1) + lib.nn.functional.dropout(h, 0.1, training=False)
            c = lib.flatten(self.conv(img), 1)
            return h * x.shape[0], c.mean(dim=1, keepdim=True), lib.stack([h, h]).max(0)
    return Mixed()


def test_parameters_methods_on_tensors_and_spelled_out_functionals_as_torch_fx():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    x, img = rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal((3, 1, 5, 5)).astype(np.float32)
    results = []
    for lib in (tensorlab, torch):
        model = _mixed(lib)
        for name, p in sorted(model.named_parameters()):
            p.data = lib.tensor(np.random.default_rng(len(name)).standard_normal(tuple(p.shape)).astype(np.float32))
        gm = lib.fx.symbolic_trace(model)
        results.append((gm.code, gm(lib.tensor(x), lib.tensor(img)), model(lib.tensor(x), lib.tensor(img))))
    (ours_code, ours, direct), (theirs_code, theirs, _) = results
    assert ours_code == _in_tensorlab_terms(theirs_code)
    assert_same(ours[0], direct[0])
    for o, t in [(ours[0], theirs[0]), (ours[1], theirs[1]), (ours[2].values, theirs[2].values)]:
        assert_same(o, t, rtol=1e-4, atol=1e-5)


def test_concrete_args_specialize_the_trace_and_guard_the_input_as_torch_fx():
    torch = pytest.importorskip("torch")

    def h(x, flag=True, opt=None, n=2):
        if flag and opt is None:
            return x * n
        return x
    concrete = {"flag": True, "opt": None, "n": 3}
    ours, theirs = fx.symbolic_trace(h, concrete_args=concrete), torch.fx.symbolic_trace(h, concrete_args=concrete)
    assert ours.code == _in_tensorlab_terms(theirs.code).replace("fx._symbolic_trace.", "fx.tracer.")
    assert ours(tensorlab.ones(2), True, None, 3).tolist() == [3.0, 3.0]
    with pytest.raises(AssertionError, match="flag has been specialized to have value True but got another value"):
        ours(tensorlab.ones(2), False, None, 3)
    with pytest.raises(AssertionError, match="boom"):
        tensorlab._assert(False, "boom")


def test_wrap_keeps_a_free_function_as_one_node_as_torch_fx():
    torch = pytest.importorskip("torch")

    def f(x):
        return scaled(x, 2) + 1
    ours, theirs = fx.symbolic_trace(f), torch.fx.symbolic_trace(f)
    assert [(n.op, n.name) for n in ours.graph.nodes] == [(n.op, n.name) for n in theirs.graph.nodes]
    assert ours.code == _in_tensorlab_terms(theirs.code).replace("fx._symbolic_trace.", "fx.tracer.")
    assert next(n for n in ours.graph.nodes if n.name == "scaled").target is scaled
    assert ours(tensorlab.ones(2)).tolist() == [3.0, 3.0]
    retraced = fx.symbolic_trace(ours)  # the generated code wrapped it again
    assert [n.name for n in retraced.graph.nodes] == ["x", "scaled", "add", "output"]
    with pytest.raises(NotImplementedError, match="wrap must be called at the top level of a module"):
        fx.wrap("scaled")
