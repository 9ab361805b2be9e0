"""tensorlab.func's forward-mode transforms (jvp, jacfwd, hessian) against torch.func on the same inputs."""
import numpy as np
import pytest

import tensorlab
from tensorlab.autograd.function import _op_layers

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(7)
X = RNG.standard_normal(3)
W = RNG.standard_normal((4, 3))


def _close(ours, theirs):
    ours_flat, theirs_flat = _leaves(ours), _leaves(theirs)
    assert len(ours_flat) == len(theirs_flat)
    for a, b in zip(ours_flat, theirs_flat):
        assert tuple(a.shape) == tuple(b.shape)
        assert not a.requires_grad
        np.testing.assert_allclose(a.numpy(), b.detach().numpy(), rtol=1e-9, atol=1e-12)


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [x for t in tree for x in _leaves(t)]
    if isinstance(tree, dict):
        return [x for k in sorted(tree) for x in _leaves(tree[k])]
    return [tree]


def _run(kind, L):
    fn = L.func
    x, w = L.tensor(X), L.tensor(W)
    v = L.tensor(np.array([0.5, -1.0, 2.0]))
    mlp = lambda a: (w @ a).tanh()
    scalar = lambda a: (a.exp() * a).sum() + (a ** 3).prod() + a.softmax(0)[1]
    if kind == "jvp":
        return fn.jvp(mlp, (x,), (v,))
    if kind == "jvp two inputs":
        return fn.jvp(lambda a, b: (b @ a).sin() * a.sum(), (x, w), (v, L.ones(4, 3, dtype=L.float64)))
    if kind == "jvp pytree":
        out = fn.jvp(lambda p: {"y": p["w"] @ p["x"], "z": (p["x"] ** 2,)}, ({"x": x, "w": w},),
                     ({"x": v, "w": w * 0.1},))
        return out
    if kind == "jvp aux":
        primal, tangent, aux = fn.jvp(lambda a: (a.sin(), a.cos()), (x,), (v,), has_aux=True)
        return primal, tangent, aux
    if kind == "jvp independent":
        return fn.jvp(lambda a: w.sum(0), (x,), (v,))
    if kind == "jvp of jvp":   # a second directional derivative: nested levels
        return fn.jvp(lambda a: fn.jvp(scalar, (a,), (v,))[1], (x,), (v,))
    if kind == "jacfwd":
        return fn.jacfwd(mlp)(x)
    if kind == "jacfwd argnums":
        return fn.jacfwd(lambda a, b: (b @ a).sin(), argnums=(0, 1))(x, w)
    if kind == "jacfwd second arg":
        return fn.jacfwd(lambda a, b: (b @ a).sin(), argnums=1)(x, w)
    if kind == "jacfwd aux":
        return fn.jacfwd(lambda a: (a.exp(), a.sum()), has_aux=True)(x)
    if kind == "jacfwd tuple output":
        return fn.jacfwd(lambda a: (a * 2, (w @ a).sum()))(x)
    if kind == "jacfwd of jacfwd":
        return fn.jacfwd(fn.jacfwd(scalar))(x)
    if kind == "hessian":
        return fn.hessian(scalar)(x)
    if kind == "hessian argnums":
        return fn.hessian(lambda a, b: ((b @ a) ** 2).sum() * a.prod(), argnums=(0, 1))(x, w)
    raise AssertionError(kind)


KINDS = ["jvp", "jvp two inputs", "jvp pytree", "jvp aux", "jvp independent", "jvp of jvp", "jacfwd",
         "jacfwd argnums", "jacfwd second arg", "jacfwd aux", "jacfwd tuple output", "jacfwd of jacfwd",
         "hessian", "hessian argnums"]


@pytest.mark.parametrize("kind", KINDS)
def test_matches_torch_func(kind):
    _close(_run(kind, tensorlab), _run(kind, torch))
    assert _op_layers == []


def test_jacfwd_agrees_with_jacrev_and_finite_differences():
    f = lambda a: (tensorlab.tensor(W) @ a.sin()) * a.sum()
    x = tensorlab.tensor(X)
    forward = tensorlab.func.jacfwd(f)(x).numpy()
    np.testing.assert_allclose(forward, tensorlab.func.jacrev(f)(x).numpy(), rtol=1e-10)
    h = 1e-6
    columns = [(f(tensorlab.tensor(X + h * e)) - f(tensorlab.tensor(X - h * e))).numpy() / (2 * h)
               for e in np.eye(3)]
    np.testing.assert_allclose(forward, np.stack(columns, -1), rtol=1e-6, atol=1e-8)


def _error(L, kind):
    fn = L.func
    x = L.tensor(X)
    calls = {
        "primals not tuple": lambda: fn.jvp(lambda a: a, x, (x,)),
        "structure": lambda: fn.jvp(lambda a: a, (x,), (x, x)),
        "tangent not tensor": lambda: fn.jvp(lambda a: a, (x,), (1.0,)),
        "empty": lambda: fn.jvp(lambda: x, (), ()),
        "output not tensor": lambda: fn.jvp(lambda a: 3.0, (x,), (x,)),
        "aux not pair": lambda: fn.jvp(lambda a: a, (x,), (x,), has_aux=True),
        "strict": lambda: fn.jvp(lambda a: L.ones(2), (x,), (x,), strict=True),
        "argnums": lambda: fn.jacfwd(lambda a: a, argnums=2)(x),
        "randomness": lambda: fn.jacfwd(lambda a: a, randomness="sometimes")(x),
    }
    try:
        calls[kind]()
    except Exception as error:  # noqa: BLE001 - type and message are compared with torch's
        return type(error), str(error)
    return None, None


@pytest.mark.parametrize("kind", ["primals not tuple", "structure", "tangent not tensor", "empty",
                                  "output not tensor", "aux not pair", "strict", "argnums", "randomness"])
def test_errors_match_torch_func(kind):
    ours, theirs = _error(tensorlab, kind), _error(torch, kind)
    assert theirs[0] is not None and ours[0] is theirs[0], (ours, theirs)
    assert ours[1] == theirs[1]
    assert _op_layers == []


@pytest.mark.parametrize("name", ["vec -> vec", "mat -> vec", "mat -> mat", "vec -> scalar", "hessian", "argnums"])
def test_jacfwd_lays_out_its_jacobian_as_pytorch_does(name):
    """PyTorch batches the jvps with vmap and moves the batch to the end: a view, the output's dims
    first, whose columns lie one after another in memory. Same strides here."""
    def jacobian(lib):
        F = lib.func
        v, m = lib.tensor(X, dtype=lib.float64), lib.tensor(W, dtype=lib.float64)
        if name == "vec -> vec":
            return F.jacfwd(lambda t: lib.stack([t[0] * t[1], t[2].exp(), t.sum()]))(v)
        if name == "mat -> vec":
            return F.jacfwd(lambda t: t.sin().sum(1))(m)
        if name == "mat -> mat":
            return F.jacfwd(lambda t: t * t)(m)
        if name == "vec -> scalar":
            return F.jacfwd(lambda t: (t ** 3).sum())(v)
        if name == "hessian":
            return F.hessian(lambda t: (t ** 3).sum())(m)
        return F.jacfwd(lambda a, b: a * b, argnums=(0, 1))(v, v)
    ours, theirs = jacobian(tensorlab), jacobian(torch)
    _close(ours, theirs)
    assert [a.stride() for a in _leaves(ours)] == [b.stride() for b in _leaves(theirs)]
