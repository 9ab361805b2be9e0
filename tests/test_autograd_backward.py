"""Running backward: Tensor.backward, autograd.backward, autograd.grad -- values, accumulation,
errors, freeing saved tensors, execution order, very deep graphs. PyTorch is the reference."""
import gc
import sys
import tracemalloc
import weakref

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.autograd import trace_backward


RNG = np.random.default_rng(1)
X = RNG.standard_normal(4)
W = RNG.standard_normal((4, 3))


def _model(m, x, w):
    """A small graph with a reused intermediate, broadcasting and a reduction."""
    h = (x.unsqueeze(1) * w).tanh()
    return (h * h.exp()).sum() + (x * x).mean()


def _grads(m, fn, *arrays):
    leaves = [m.tensor(a.copy(), requires_grad=True) for a in arrays]
    fn(m, *leaves).backward()
    return [leaf.grad.detach().numpy().copy() for leaf in leaves]


def test_backward_values_match_torch(torch):
    for ours, theirs in zip(_grads(tensorlab, _model, X, W), _grads(torch, _model, X, W)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10)


def test_gradients_accumulate_across_calls(torch):
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        (x * x).sum().backward()
        first = x.grad.clone()
        (x * x).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), 2 * first.numpy())
        x.grad = None
        (x * 3).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), np.full(4, 3.0))


def test_implicit_gradient_only_for_scalars(torch):
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
            (x * 2).backward()
        assert x.grad is None


def test_explicit_gradient_and_shape_mismatch(torch):
    results = []
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        g = m.tensor([1.0, 2.0, 3.0, 4.0], dtype=m.float64)
        (x * 2).backward(g)
        assert x.grad is not g
        results.append(x.grad.numpy().copy())
        with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\] has a shape of "
                                               r"torch.Size\(\[3\]\) and output\[0\] has a shape of "
                                               r"torch.Size\(\[4\]\)"):
            (x * 2).backward(m.ones(3, dtype=m.float64))
    np.testing.assert_allclose(*results)


def test_backward_on_a_tensor_without_history_raises(torch):
    for m in (tensorlab, torch):
        with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have "
                                               "a grad_fn"):
            m.ones(2).sum().backward()


def test_leaf_gradient_is_a_copy_not_the_users_tensor(torch):
    for m in (tensorlab, torch):
        x = m.ones(3, requires_grad=True)
        g = m.ones(3)
        (x + 0).backward(g)
        assert x.grad is not g
        g.add_(1)
        assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_leaves_fed_the_same_gradient_tensor_get_their_own_grad(torch):
    for m in (tensorlab, torch):
        a, b = m.ones(3, requires_grad=True), m.ones(3, requires_grad=True)
        kept = m.full((3,), 5.0)
        b.register_hook(lambda g: kept)  # a tensor the caller keeps
        (a + b).backward(m.ones(3))       # AddBackward0 passes one gradient to both leaves
        assert a.grad is not b.grad and a.grad.data_ptr() != b.grad.data_ptr()
        assert b.grad is not kept and b.grad.data_ptr() != kept.data_ptr()
        (a + b).backward(m.ones(3))
        assert a.grad.tolist() == [2.0, 2.0, 2.0] and b.grad.tolist() == [10.0, 10.0, 10.0]
        assert kept.tolist() == [5.0, 5.0, 5.0]


def test_autograd_backward_with_several_roots(torch):
    out = []
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        a, b = x * 2, x.exp()
        m.autograd.backward([a, b.sum()], [m.ones(4, dtype=m.float64), None])
        out.append(x.grad.numpy().copy())
        with pytest.raises(RuntimeError, match="got 2 tensors and 1 gradients"):
            m.autograd.backward([x * 2, x.sum()], [m.ones(4, dtype=m.float64)])
    np.testing.assert_allclose(*out)


def test_grad_returns_gradients_and_leaves_dot_grad_alone(torch):
    out = []
    for m in (tensorlab, torch):
        x, w = m.tensor(X.copy(), requires_grad=True), m.tensor(W.copy(), requires_grad=True)
        gx, gw = m.autograd.grad(_model(m, x, w), (x, w))
        assert x.grad is None and w.grad is None
        assert not gx.requires_grad and gx.grad_fn is None
        out.append((gx.numpy().copy(), gw.numpy().copy()))
    for a, b in zip(*out):
        np.testing.assert_allclose(a, b, rtol=1e-10)


def test_grad_unused_inputs(torch):
    for m in (tensorlab, torch):
        x, unused = m.ones(2, requires_grad=True), m.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears to not have been "
                                               "used in the graph. Set allow_unused=True"):
            m.autograd.grad((x * 2).sum(), [x, unused])
        gx, gu = m.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True)
        assert gu is None and gx.tolist() == [2.0, 2.0]
        gx, gu = m.autograd.grad((x * 2).sum(), [x, unused], materialize_grads=True)
        assert gu.tolist() == [0.0, 0.0, 0.0]
        with pytest.raises(ValueError, match="Expected allow_unused to be True or not passed when "
                                             "materialize_grads=True"):
            m.autograd.grad((x * 2).sum(), [x], materialize_grads=True, allow_unused=False)
        with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require grad"):
            m.autograd.grad((x * 2).sum(), [x, m.ones(2)])
        with pytest.raises(RuntimeError, match="`inputs` argument to `grad\\(\\)` cannot be empty."):
            m.autograd.grad((x * 2).sum(), [])


def test_grad_with_respect_to_a_non_leaf_and_with_grad_outputs(torch):
    out = []
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        h = x * 3
        y = h.exp()
        gh, = m.autograd.grad(y, h, m.tensor([1.0, 0.0, 2.0, 0.5], dtype=m.float64), retain_graph=True)
        gx, = m.autograd.grad(y.sum(), x)
        out.append((gh.numpy().copy(), gx.numpy().copy()))
    for a, b in zip(*out):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_grad_is_grads_batched_matches_torch(torch):
    out = []
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        y = x.exp() * 2
        jac, = m.autograd.grad(y, x, m.eye(4, dtype=m.float64), is_grads_batched=True)
        out.append(jac.numpy().copy())
    np.testing.assert_allclose(*out)


def test_backward_inputs_restricts_accumulation(torch):
    out = []
    for m in (tensorlab, torch):
        x, w = m.tensor(X.copy(), requires_grad=True), m.tensor(W.copy(), requires_grad=True)
        h = x * 2
        loss = (h.unsqueeze(1) * w).sum()
        loss.backward(inputs=[w], retain_graph=True)
        assert x.grad is None
        out.append(w.grad.numpy().copy())
        loss.backward(inputs=[h])  # a non-leaf input gets .grad too, as if it called retain_grad()
        assert h.retains_grad
        out.append(h.grad.numpy().copy())
        with pytest.raises(RuntimeError, match="`inputs` argument to `backward\\(\\)` cannot be empty."):
            (x * 2).sum().backward(inputs=[])
    np.testing.assert_allclose(out[0], out[2])
    np.testing.assert_allclose(out[1], out[3])


# -- freeing saved tensors ----------------------------------------------------------------------------
def test_second_backward_without_retain_graph_raises(torch):
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        y = x.exp().sum()
        y.backward()
        with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time.*Specify "
                                               "retain_graph=True"):
            y.backward()
        z = x.exp().sum()
        z.backward(retain_graph=True)
        z.backward()
        np.testing.assert_allclose(x.grad.numpy(), 3 * np.exp(X))


def test_saved_tensors_are_released_right_after_their_node_runs():
    x = tensorlab.tensor(RNG.standard_normal(1000), requires_grad=True)
    h = x.exp()                   # ExpBackward0 saves its result h
    y = (h.sin()).sum()           # SinBackward0 saves its input h
    owner = h._array.base if h._array.base is not None else h._array
    alive = weakref.ref(owner)
    exp_node = h.grad_fn
    del h, owner
    seen = []

    def observe(event):
        if event["kind"] == "release" and event["node"] is exp_node:
            gc.collect()
            seen.append(alive() is None)
    with trace_backward(observe):
        y.backward()
    assert seen == [True]


def test_backward_returns_memory_as_it_goes():
    """Peak memory during backward stays below forward activations + all gradients kept at once."""
    n = 200_000
    x = tensorlab.tensor(np.ones(n, dtype=np.float32), requires_grad=True)
    tracemalloc.start()
    try:
        y = x
        for _ in range(20):
            y = (y * 1.01).tanh()   # tanh saves its output: one activation per layer
        loss = y.sum()
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        loss.backward()
        after, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    activation = 4 * n
    assert peak - before < 6 * activation   # a few live gradients, not 20 more activations
    assert after < before - 15 * activation  # the saved activations were returned


# -- order and depth ----------------------------------------------------------------------------------
def _torch_order(y):
    seen, stack, log = set(), [y.grad_fn], []
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_prehook(lambda go, node=node: log.append(node.name()))
        stack.extend(f for f, _ in node.next_functions)
    y.backward()
    return log


def _our_order(y):
    log = []
    with trace_backward(lambda e: log.append(e["node"].name()) if e["kind"] == "run" else None):
        y.backward()
    return log


ORDER_GRAPHS = [
    lambda m, x, w: (x * 2).exp().sum(),
    lambda m, x, w: ((x * 2).exp() + (x * 2).sin()).sum(),
    lambda m, x, w: (lambda a: (a.exp() + a.sin() * a).sum())(x * 2),
    lambda m, x, w: ((w * 3) * (x * 2) + x).sum(),
    lambda m, x, w: (x.unsqueeze(1) * w.unsqueeze(0)).tanh().sum() + (w * w).sum() * x.sum(),
]


@pytest.mark.parametrize("graph", ORDER_GRAPHS)
def test_execution_order_matches_torch(torch, graph):
    theirs = _torch_order(graph(torch, torch.ones(3, requires_grad=True), torch.ones(3, requires_grad=True)))
    ours = _our_order(graph(tensorlab, tensorlab.ones(3, requires_grad=True),
                            tensorlab.ones(3, requires_grad=True)))
    assert ours == theirs


def test_backward_through_100k_node_chain_and_its_deletion_do_not_recurse():
    x = tensorlab.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    limit = sys.getrecursionlimit()
    assert limit < 100_000  # so anything recursive per node would fail
    assert len(tensorlab.autograd.graph_export.walk(y)) == 100_001
    y.sum().backward(retain_graph=True)
    assert x.grad.tolist() == [1.0, 1.0]
    first = weakref.ref(x.grad_fn or y.grad_fn)
    del y  # 100,000 nodes released by reference counting, one after another
    gc.collect()
    assert first() is None


def test_dependency_counting_waits_for_every_branch(torch):
    """A node reached through two paths runs once, with the sum of both gradients."""
    out = []
    for m in (tensorlab, torch):
        x = m.tensor(X.copy(), requires_grad=True)
        a = x * 2
        runs = []
        a.register_hook(lambda g: runs.append(g.clone()))
        (a.exp() + a * a + a.sin()).sum().backward()
        assert len(runs) == 1
        out.append((runs[0].numpy(), x.grad.numpy()))
    for a, b in zip(*out):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_a_custom_function_that_sends_no_gradient(torch):
    """PyTorch still calls a custom Function's backward with zeros; built-in nodes send nothing."""
    def run(m):
        calls = []

        class Twice(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                calls.append(g.tolist())
                return g * 2

        class Blocks(m.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 3

            @staticmethod
            def backward(ctx, g):
                return None

        x = m.ones(2, requires_grad=True)
        Blocks.apply(Twice.apply(x)).sum().backward()
        custom = (calls, x.grad.tolist())
        x.grad = None
        Blocks.apply(x * 2).sum().backward()
        return custom, x.grad
    assert run(tensorlab) == run(torch)


# -- random graphs ------------------------------------------------------------------------------------
_UNARY = [lambda t: t.tanh(), lambda t: t.sin(), lambda t: t * 0.5, lambda t: -t]
_BINARY = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - b]


@st.composite
def _programs(draw):
    """A random DAG: each step applies a unary or binary op to earlier values (reuse is common)."""
    steps = []
    for i in range(draw(st.integers(1, 12))):
        available = i + 2  # two leaves, then one value per step
        if draw(st.booleans()):
            steps.append(("u", draw(st.integers(0, len(_UNARY) - 1)), draw(st.integers(0, available - 1))))
        else:
            steps.append(("b", draw(st.integers(0, len(_BINARY) - 1)), draw(st.integers(0, available - 1)),
                          draw(st.integers(0, available - 1))))
    return steps


def _build(m, steps, x, w):
    values = [x, w]
    for step in steps:
        if step[0] == "u":
            values.append(_UNARY[step[1]](values[step[2]]))
        else:
            values.append(_BINARY[step[1]](values[step[2]], values[step[3]]))
    return (values[-1] * values[-1]).sum() + values[-1].sum()


@settings(max_examples=30, deadline=None)
@given(_programs())
def test_random_graphs_match_torch_in_gradients_and_order(steps):
    torch = pytest.importorskip("torch")
    x0, w0 = np.array([0.3, -0.7, 1.1]), np.array([0.9, 0.2, -0.4])
    tx, tw = torch.tensor(x0, requires_grad=True), torch.tensor(w0, requires_grad=True)
    lx, lw = tensorlab.tensor(x0, requires_grad=True), tensorlab.tensor(w0, requires_grad=True)
    theirs = _torch_order(_build(torch, steps, tx, tw))
    ours = _our_order(_build(tensorlab, steps, lx, lw))
    assert ours == theirs
    for a, b in ((lx, tx), (lw, tw)):
        if b.grad is None:
            assert a.grad is None
        else:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-10, atol=1e-12)
