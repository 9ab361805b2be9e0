"""tensorlab.func's grad, grad_and_value, vjp, jacrev, functional_call and stack_module_state against
torch.func on the same NumPy-built inputs (float64)."""
import numpy as np
import pytest

import tensorlab
from tensorlab.func import functional_call, grad, jacrev, stack_module_state, vjp, vmap

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(2213)
X = RNG.standard_normal(3)
Y = RNG.standard_normal(3)
M = RNG.standard_normal((2, 3))


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [x for t in tree for x in _leaves(t)]
    if isinstance(tree, dict):
        return [x for k in sorted(tree) for x in _leaves(tree[k])]
    return [tree]


def _structure(tree):
    if isinstance(tree, (tuple, list)):
        return (type(tree).__name__, [_structure(t) for t in tree])
    if isinstance(tree, dict):
        return ("dict", {k: _structure(v) for k, v in tree.items()})
    return "tensor" if hasattr(tree, "shape") else type(tree).__name__


def assert_same(build, *arrays, atol=1e-10):
    ours = build(tensorlab, *[tensorlab.tensor(a.copy()) for a in arrays])
    theirs = build(torch, *[torch.tensor(a.copy()) for a in arrays])
    assert _structure(ours) == _structure(theirs)
    for o, t in zip(_leaves(ours), _leaves(theirs)):
        if not hasattr(t, "shape"):
            assert o == t
            continue
        assert tuple(o.shape) == tuple(t.shape) and str(o.dtype) == str(t.dtype)
        np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), atol=atol)


def errors_alike(build, *arrays):
    with pytest.raises(Exception) as theirs:
        build(torch, *[torch.tensor(a.copy()) for a in arrays])
    with pytest.raises(theirs.type) as ours:
        build(tensorlab, *[tensorlab.tensor(a.copy()) for a in arrays])
    assert str(ours.value) == str(theirs.value)


# -- grad ------------------------------------------------------------------------------------------------------
def test_grad_values_and_argnums():
    f = lambda x, y: (x.sin() * y ** 2).sum()  # noqa: E731
    assert_same(lambda m, x, y: (m.func.grad(f)(x, y), m.func.grad(f, argnums=1)(x, y),
                                 m.func.grad(f, argnums=(0, 1))(x, y), m.func.grad(f, argnums=-1)(x, y)), X, Y)


def test_grad_and_value_and_has_aux():
    f = lambda x: ((x ** 3).sum(), {"double": x * 2})  # noqa: E731
    assert_same(lambda m, x: (m.func.grad(f, has_aux=True)(x), m.func.grad_and_value(f, has_aux=True)(x),
                              m.func.grad_and_value(lambda x: x.exp().sum())(x)), X)


def test_grad_of_pytree_inputs():
    f = lambda p, x: (p["w"] * x).sum() * p["b"][0].sum() + p["b"][1].sum()  # noqa: E731
    assert_same(lambda m, x, y: m.func.grad(f)({"w": x, "b": [y, x * y]}, x), X, Y)


def test_grad_of_grad_and_third_derivative():
    f = lambda x: (x ** 4).sum()  # noqa: E731
    assert_same(lambda m, x: (m.func.grad(lambda x: m.func.grad(f)(x).sum())(x),
                              m.func.grad(m.func.grad(m.func.grad(lambda s: s.sin() * s ** 3)))(x[0])), X)


def test_grad_does_not_touch_dot_grad_and_works_without_requires_grad():
    x = tensorlab.tensor(X, requires_grad=True)
    g = grad(lambda x: (x ** 2).sum())(x)
    assert x.grad is None
    np.testing.assert_allclose(g.detach().numpy(), 2 * X)
    plain = grad(lambda x: (x ** 2).sum())(tensorlab.tensor(X))
    assert not plain.requires_grad and not tensorlab.tensor(X).requires_grad


def test_grad_composes_with_outer_autograd():
    x = tensorlab.tensor(X, requires_grad=True)
    g = grad(lambda x: (x ** 3).sum())(x)      # 3 x^2, still a function of x
    assert g.requires_grad
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 * X)


def test_unused_input_gets_zeros():
    assert_same(lambda m, x, y: m.func.grad(lambda a, b: a.sum(), argnums=(0, 1))(x, y), X, Y)


@pytest.mark.parametrize("build", [
    lambda m, x: m.func.grad(lambda x: x * 2)(x.reshape(1, 3)),
    lambda m, x: m.func.grad(lambda x: x.sum(), argnums=2)(x),
    lambda m, x: m.func.grad(lambda x: x.sum(), argnums=())(x),
    lambda m, x: m.func.grad(lambda x: x.sum(), argnums=1.0)(x),
    lambda m, x: m.func.grad(lambda x, z: x.sum(), argnums=(0, 0))(x, x),
    lambda m, x: m.func.grad(lambda x: (x.sum(), 1))(x),
    lambda m, x: m.func.grad(lambda x: x.sum(), has_aux=True)(x),
    lambda m, x: m.func.grad(lambda x: 3.0)(x),
    lambda m, x: m.func.grad(lambda x: x.sum())(3.0),
    lambda m, x: m.func.grad(lambda x: x.sum())(),
], ids=["non-scalar", "argnum-range", "argnums-empty", "argnums-type", "argnums-repeated", "tuple-output",
        "aux-missing", "float-output", "float-input", "no-inputs"])
def test_grad_errors_match_torch(build):
    errors_alike(build, X)


# -- vjp ----------------------------------------------------------------------------------------------------------
def test_vjp_values_and_structure():
    def build(m, x, y):
        out, fn = m.func.vjp(lambda a, b: (a * b, {"s": (a ** 2).sum()}), x, y)
        return out, fn((y, {"s": m.tensor(2.0, dtype=m.float64)}))
    assert_same(build, X, Y)


def test_vjp_has_aux_and_repeated_calls():
    def build(m, x):
        out, fn, aux = m.func.vjp(lambda a: (a.exp(), a.sum()), x, has_aux=True)
        return out, aux, fn(m.ones_like(out)), fn(out)
    assert_same(build, X)


def test_vjp_cotangent_of_the_wrong_shape():
    errors_alike(lambda m, x: m.func.vjp(lambda x: x * 2, x)[1](m.ones(2, dtype=m.float64)), X)


# -- jacrev --------------------------------------------------------------------------------------------------------
def test_jacrev_matches_torch_and_autograd_functional_jacobian():
    f = lambda x: x.sin() * x.sum()  # noqa: E731
    assert_same(lambda m, x: m.func.jacrev(f)(x), X)
    x = tensorlab.tensor(X)
    np.testing.assert_allclose(jacrev(f)(x).numpy(), tensorlab.autograd.functional.jacobian(f, x).numpy(),
                               atol=1e-12)


def test_jacrev_structures():
    f = lambda x, y: {"a": x * y, "b": (x @ y)}  # noqa: E731
    assert_same(lambda m, x, y: (m.func.jacrev(f, argnums=(0, 1))(x, y), m.func.jacrev(f)(x, y),
                                 m.func.jacrev(lambda x: x.outer(x))(x),
                                 m.func.jacrev(lambda x: (x.exp(), x.sum()), has_aux=True)(x)), X, Y)


def test_jacrev_of_matrix_input_and_inside_vmap():
    assert_same(lambda m, a: (m.func.jacrev(lambda a: a.t() @ a)(a),
                              m.func.vmap(m.func.jacrev(lambda r: r.tanh() * r.sum()))(a)), M)


# -- per-sample gradients and ensembling with modules --------------------------------------------------------------
def _mlp(m):
    return m.nn.Sequential(m.nn.Linear(4, 8), m.nn.Tanh(), m.nn.Linear(8, 3)).double()


def _same_weights():
    theirs = _mlp(torch)
    ours = _mlp(tensorlab)
    ours.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


def test_per_sample_gradients_of_an_mlp_match_torch():
    ours, theirs = _same_weights()
    x, y = RNG.standard_normal((6, 4)), RNG.integers(0, 3, 6)

    def per_sample(m, model):
        params = {k: v.detach() for k, v in model.named_parameters()}
        buffers = {k: v.detach() for k, v in model.named_buffers()}

        def loss(params, buffers, xi, yi):
            out = m.func.functional_call(model, (params, buffers), (xi.unsqueeze(0),))
            return m.nn.functional.cross_entropy(out, yi.unsqueeze(0))
        return m.func.vmap(m.func.grad(loss), in_dims=(None, None, 0, 0))(params, buffers, m.tensor(x), m.tensor(y))
    got, want = per_sample(tensorlab, ours), per_sample(torch, theirs)
    assert sorted(got) == sorted(want)
    for k in want:
        assert tuple(got[k].shape) == tuple(want[k].shape)
        np.testing.assert_allclose(got[k].numpy(), want[k].numpy(), atol=1e-12)
    # and each one is the gradient of that sample's loss alone
    g0 = grad(lambda p: tensorlab.nn.functional.cross_entropy(functional_call(ours, p, (tensorlab.tensor(x[:1]),)),
                                                              tensorlab.tensor(y[:1])))(dict(ours.named_parameters()))
    np.testing.assert_allclose(got["0.weight"][0].numpy(), g0["0.weight"].detach().numpy(), atol=1e-12)


def test_ensembling_with_stack_module_state():
    models = [_mlp(tensorlab) for _ in range(3)]
    params, buffers = stack_module_state(models)
    assert params["0.weight"].shape == (3, 8, 4) and params["0.weight"].requires_grad and buffers == {}
    base = _mlp(tensorlab)
    x = tensorlab.tensor(RNG.standard_normal((5, 4)))
    out = vmap(lambda p, b, x: functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x)
    assert out.shape == (3, 5, 3)
    for i, model in enumerate(models):
        np.testing.assert_allclose(out[i].detach().numpy(), model(x).detach().numpy(), atol=1e-12)


def test_stack_module_state_matches_torch():
    ours, theirs = _same_weights()
    p1, _ = stack_module_state([ours, ours])
    p2, _ = torch.func.stack_module_state([theirs, theirs])
    assert list(p1) == list(p2)
    for k in p2:
        assert tuple(p1[k].shape) == tuple(p2[k].shape) and p1[k].requires_grad == p2[k].requires_grad
        np.testing.assert_allclose(p1[k].detach().numpy(), p2[k].detach().numpy())


def test_functional_call_restores_the_module_and_checks_strict():
    model = _mlp(tensorlab)
    before = {k: v for k, v in model.named_parameters()}
    zeros = {k: tensorlab.zeros_like(v) for k, v in before.items()}
    out = functional_call(model, zeros, tensorlab.tensor(RNG.standard_normal((2, 4))))
    assert out.abs().sum().item() == 0
    assert all(model.get_parameter(k) is v for k, v in before.items())
    with pytest.raises(RuntimeError, match="Missing key"):
        functional_call(model, {"0.weight": zeros["0.weight"]}, (tensorlab.ones(1, 4, dtype=tensorlab.float64),),
                        strict=True)
    with pytest.raises(ValueError, match="appeared in multiple dictionaries"):
        functional_call(model, (zeros, zeros), (tensorlab.ones(1, 4, dtype=tensorlab.float64),))


def test_functional_call_ties_shared_weights():
    lin = tensorlab.nn.Linear(3, 3, bias=False).double()
    model = tensorlab.nn.Sequential(lin, lin)
    w = tensorlab.tensor(np.eye(3) * 2)
    out = functional_call(model, {"0.weight": w}, (tensorlab.ones(1, 3, dtype=tensorlab.float64),))
    np.testing.assert_allclose(out.detach().numpy(), np.full((1, 3), 4.0))
