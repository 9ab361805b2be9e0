"""tensorlab.func.vmap against torch.func.vmap on the same NumPy-built inputs (float64)."""
import warnings

import numpy as np
import pytest

import tensorlab
from tensorlab.func import vmap

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(22)
A = RNG.standard_normal((4, 3))
B = RNG.standard_normal((4, 3))
M = RNG.standard_normal((4, 3, 5))
W = RNG.standard_normal((3, 5))


def run_both(build, *arrays):
    """``build(lib, *tensors)`` with tensorlab and with torch; the results, flattened to lists of arrays."""
    ours = build(tensorlab, *[tensorlab.tensor(a.copy()) for a in arrays])
    theirs = build(torch, *[torch.tensor(a.copy()) for a in arrays])
    return _leaves(ours), _leaves(theirs)


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [x for t in tree for x in _leaves(t)]
    if isinstance(tree, dict):
        return [x for k in sorted(tree) for x in _leaves(tree[k])]
    return [tree]


def assert_same(build, *arrays, atol=1e-10):
    ours, theirs = run_both(build, *arrays)
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        assert tuple(o.shape) == tuple(t.shape)
        assert str(o.dtype) == str(t.dtype)
        np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), atol=atol)


def errors_alike(build, *arrays):
    """Both libraries raise the same exception type with the same message."""
    with pytest.raises(Exception) as theirs:
        build(torch, *[torch.tensor(a.copy()) for a in arrays])
    with pytest.raises(theirs.type) as ours:
        build(tensorlab, *[tensorlab.tensor(a.copy()) for a in arrays])
    return str(ours.value), str(theirs.value)


# -- values and shapes ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [
    lambda m, x, y: x + y, lambda m, x, y: x * y.exp() - 1, lambda m, x, y: m.where(x > y, x, y),
    lambda m, x, y: m.dot(x, y), lambda m, x, y: (x.sin() / (1 + y ** 2)).sum(),
    lambda m, x, y: m.stack([x, y], 1), lambda m, x, y: m.cat([x, y]), lambda m, x, y: m.outer(x, y),
    lambda m, x, y: x.softmax(0) * y.log_softmax(-1), lambda m, x, y: x.view(3, 1) @ y.view(1, 3),
    lambda m, x, y: x.unsqueeze(0).expand(2, 3).t().reshape(-1), lambda m, x, y: x[1] * y[:2],
    lambda m, x, y: m.nn.functional.mse_loss(x, y), lambda m, x, y: x.max(), lambda m, x, y: x.max(0).values,
    lambda m, x, y: x.clamp(-0.5, 0.5).relu().tanh().sigmoid(), lambda m, x, y: x.cumsum(0).flip(0),
    lambda m, x, y: (x.var(), x.std(0), x.norm()), lambda m, x, y: x.sort().values * y.topk(2).values.sum(),
])
def test_matches_torch_for_common_ops(fn):
    assert_same(lambda m, x, y: m.func.vmap(lambda a, b: fn(m, a, b))(x, y), A, B)


def test_matmul_family_with_batched_and_unbatched_operands():
    build = lambda m, mat, w, v: (m.func.vmap(lambda a: a @ w.t())(mat),             # noqa: E731
                                  m.func.vmap(lambda b: mat[0].t() @ b, in_dims=1)(w.unsqueeze(1).expand(3, 2, 5)),
                                  m.func.vmap(m.mv)(mat, v[:, :5]),
                                  m.func.vmap(lambda a, b: a @ b)(mat, mat.transpose(1, 2)),
                                  m.func.vmap(lambda a: m.nn.functional.linear(a, w, w[:, 0]))(mat),
                                  m.func.vmap(lambda a: m.addmm(w[:, 0], a, w.t(), beta=0.5, alpha=2))(mat),
                                  m.func.vmap(lambda a, b: m.addmm(b, a, w.t()))(mat, mat[:, :, :3]))
    assert_same(build, M, W, RNG.standard_normal((4, 6)))


def test_shape_and_size_are_logical_inside():
    seen = []

    def f(x):
        seen.append((tuple(x.shape), x.size(1), x.dim(), x.numel(), len(x)))
        return x
    vmap(f)(tensorlab.tensor(M))
    assert seen == [((3, 5), 5, 2, 15, 3)]


def test_in_dims_none_negative_and_nested_structures():
    build = lambda m, x, y: (m.func.vmap(lambda a, b: a * b, in_dims=(-1, None))(x, y[0]),  # noqa: E731
                             m.func.vmap(lambda d: d["a"] + d["b"][0], in_dims=({"a": 0, "b": [1]},))(
                                 {"a": x.t(), "b": [y.t()]}),
                             m.func.vmap(lambda p: p[0] - p[1], in_dims=((0, None),))((x.t(), y[0])))
    assert_same(build, A.T.copy(), B)


def test_out_dims_and_tuple_outputs():
    build = lambda m, x, y: (m.func.vmap(lambda a, b: (a * 2, b.sum()), out_dims=(1, 0))(x, y),  # noqa: E731
                             m.func.vmap(lambda a: a.unsqueeze(0), out_dims=-1)(x),
                             m.func.vmap(lambda a: (a, 7), out_dims=(0, None))(x)[0])
    assert_same(build, A, B)


def test_nested_vmap():
    build = lambda m, x: (m.func.vmap(m.func.vmap(lambda a: a.exp() * 2))(x),  # noqa: E731
                          m.func.vmap(m.func.vmap(lambda a, b: a @ b, in_dims=(None, 0)), in_dims=(0, None))(
                              x, x[0]),
                          m.func.vmap(lambda r: m.func.vmap(lambda a: a * r.sum())(r))(x))
    assert_same(build, M)


def test_unbatched_output_is_repeated_and_chunk_size_gives_the_same():
    assert_same(lambda m, x: (m.func.vmap(lambda a: m.ones(2, dtype=m.float64))(x),
                              m.func.vmap(lambda a: a.sin().sum(), chunk_size=3)(x)), M)


def test_vmap_of_grad_gives_per_sample_gradients():
    build = lambda m, x, w: m.func.vmap(m.func.grad(lambda w, a: ((a @ w).tanh() ** 2).sum()),  # noqa: E731
                                        in_dims=(None, 0))(w, x)
    assert_same(build, A, W)


def test_inplace_into_a_batched_tensor():
    def f(m, x, y):
        def g(a, b):
            a = a.clone()
            a.mul_(b)
            a.add_(1)
            return a
        return m.func.vmap(g)(x, y)
    assert_same(f, A, B)


# -- the slow path ---------------------------------------------------------------------------------------
def test_an_op_without_a_rule_runs_per_sample_with_the_warning():
    x = tensorlab.tensor(A)
    with pytest.warns(UserWarning, match="There is a performance drop because we have not yet implemented the "
                                         "batching rule for"):
        out = vmap(lambda a: a.roll(1, 0))(x)
    np.testing.assert_allclose(out.numpy(), np.roll(A, 1, 1))


def test_ops_with_rules_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vmap(lambda a, b: (a * b).sum().exp() + a.softmax(0).mean())(tensorlab.tensor(A), tensorlab.tensor(B))


# -- errors ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("build", [
    lambda m, x: m.func.vmap(lambda a: a.item())(x),
    lambda m, x: m.func.vmap(lambda a: 1 if a.sum() > 0 else 0)(x),
    lambda m, x: m.func.vmap(lambda a, b: a + b)(x, x[:2]),
    lambda m, x: m.func.vmap(lambda a, b: a + b, in_dims=(0,))(x, x),
    lambda m, x: m.func.vmap(lambda a: a, in_dims=2)(x),
    lambda m, x: m.func.vmap(lambda a: a, in_dims=None)(x),
    lambda m, x: m.func.vmap(lambda a: a, in_dims=[0])(x),
    lambda m, x: m.func.vmap(lambda a: 3)(x),
    lambda m, x: m.func.vmap(lambda a: a, out_dims=None)(x),
    lambda m, x: m.func.vmap(lambda a: a, out_dims=(0, 1))(x),
    lambda m, x: m.func.vmap(lambda a: a)(x[0, 0]),
    lambda m, x: m.func.vmap(lambda a: a)(3.0),
    lambda m, x: m.func.vmap(lambda a: a)(),
    lambda m, x: m.func.vmap(lambda a: a + m.randn(3, dtype=m.float64))(x),
    lambda m, x: m.func.vmap(lambda a: a, randomness="bad")(x),
], ids=["item", "control-flow", "sizes", "in_dims-structure", "in_dim-range", "in_dims-None", "in_dims-list",
        "non-tensor-output", "out_dims-None", "out_dims-structure", "0-dim", "float-input", "no-inputs",
        "random", "randomness-flag"])
def test_errors_match_torch(build):
    ours, theirs = errors_alike(build, A)
    assert ours == theirs.replace("torch.", "tensorlab.")


INPLACE_INTO_UNBATCHED = {
    "add_": lambda acc, a: acc.add_(a), "+=": lambda acc, a: acc.__iadd__(a),
    "add_ 0-d": lambda acc, a: acc[0].add_(a[0]), "atan2_": lambda acc, a: acc.atan2_(a),
    "sub_": lambda acc, a: acc.sub_(a, alpha=2), "mul_": lambda acc, a: acc.mul_(a), "/=": lambda acc, a: acc.__itruediv__(a),
    "copy_": lambda acc, a: acc.copy_(a), "setitem": lambda acc, a: acc.__setitem__(0, a[1]),
    "masked_fill_": lambda acc, a: acc.masked_fill_(a > 0, 1.0), "clamp_min_": lambda acc, a: acc.clamp_min_(a),
    "fill_": lambda acc, a: acc.fill_(a.sum()), "index_add_": lambda acc, a: acc.index_add_(0, lib_index(acc), a),
    "pow_": lambda acc, a: acc.pow_(a), "lerp_": lambda acc, a: acc.lerp_(a, 0.5),
    "scatter_": lambda acc, a: acc.scatter_(0, lib_index(acc), a),
    "clamp_": lambda acc, a: acc.clamp_(min=a), "addcdiv_": lambda acc, a: acc.addcdiv_(a, a + 10),
}


def lib_index(t):
    lib = tensorlab if isinstance(t, tensorlab.Tensor) else torch
    return lib.tensor([2, 0, 1])


@pytest.mark.parametrize("name", sorted(INPLACE_INTO_UNBATCHED))
def test_inplace_into_an_unbatched_tensor_is_refused_as_pytorch_refuses_it(name):
    """A batched result cannot be written into a tensor that is not batched: PyTorch's error (a failed
    broadcast for add_, "inplace arithmetic" for its binary rules, the aten name for ops it falls back
    on), and the tensor is left as it was."""
    def message(lib):
        acc = lib.ones(3, dtype=lib.float64)

        def f(a):
            INPLACE_INTO_UNBATCHED[name](acc, a)
            return a
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(RuntimeError) as info:
                lib.func.vmap(f)(lib.tensor(A))
        assert acc.tolist() == [1.0, 1.0, 1.0]
        return str(info.value)
    assert message(tensorlab) == message(torch)


def test_randomness_same_shares_one_draw():
    out = vmap(lambda a: a * 0 + tensorlab.randn(3, dtype=tensorlab.float64), randomness="same")(tensorlab.tensor(A))
    np.testing.assert_allclose(out.numpy(), np.broadcast_to(out.numpy()[0], (4, 3)))


def test_print_inside_shows_the_batched_tensor():
    shown = []
    vmap(lambda a: shown.append(repr(a)) or a)(tensorlab.tensor(A[:2]))
    assert shown[0].startswith("BatchedTensor(lvl=") and "bdim=0, value=\n    tensor(" in shown[0]


def test_no_layer_or_hook_is_left_behind_after_an_error():
    from tensorlab.autograd.function import _op_layers
    from tensorlab.ops import inplace, sampling
    with pytest.raises(RuntimeError):
        vmap(lambda a: a.item())(tensorlab.tensor(A))
    assert _op_layers == [] and inplace.vmap_inplace is None and sampling.vmap_random_check is None


def test_a_batched_tensor_prints_its_level_as_pytorch_numbers_it():
    """Level 1 for the outermost vmap running, 2 inside it -- in every call, however many ran before."""
    def shown(lib):
        seen = []

        def inner(a):
            seen.append(repr(a))
            return a

        def outer(a):
            seen.append(repr(a))
            return lib.func.vmap(inner)(a)
        for _ in range(2):
            lib.func.vmap(outer)(lib.tensor(M[:2, :2, :2]))
        return seen
    assert shown(tensorlab) == shown(torch)


READS_MEMORY = {   # functions that are not autograd.Functions: no batching rule sees them
    "histc": (lambda L, a: L.histc(a, bins=4, min=-2, max=2), True),
    "argsort": (lambda L, a: a.argsort(), False),
    "one_hot": (lambda L, a: L.nn.functional.one_hot((a > 0).long(), 2), False),
    "count_nonzero": (lambda L, a: L.count_nonzero(a > 0), False),
    "bucketize": (lambda L, a: L.bucketize(a, L.tensor([-0.5, 0.5], dtype=L.float64)), False),
}


@pytest.mark.parametrize("name", sorted(READS_MEMORY))
def test_functions_that_read_memory_run_per_sample(name):
    """tensorlab runs them once per sample, with the fallback's warning (PyTorch warns too for histc,
    having no batching rule for it either); the results are PyTorch's."""
    f, torch_warns = READS_MEMORY[name]
    assert_same(lambda L, a: L.func.vmap(lambda row: f(L, row))(a), A)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tensorlab.func.vmap(lambda row: f(tensorlab, row))(tensorlab.tensor(A))
    assert any("There is a performance drop because we have not yet implemented the batching rule for aten::"
               in str(w.message) for w in caught)


def test_reading_memory_with_no_batched_form_stays_an_error():
    with pytest.raises(RuntimeError, match="reads the memory of a batched tensor"):
        vmap(lambda row: row.tolist())(tensorlab.tensor(A))


@pytest.mark.parametrize("build", [
    lambda L, a: L.func.vmap(lambda row: row.nonzero())(a),
    lambda L, a: L.func.vmap(lambda row: row.unique())(a),
    lambda L, a: L.func.vmap(lambda row: row.masked_select(row > 0))(a),
    lambda L, a: L.func.vmap(lambda row: row[row > 0])(a),
], ids=["nonzero", "unique", "masked_select", "boolean-mask"])
def test_ops_with_a_data_dependent_shape_are_refused(build):
    """Their results would be ragged across the batch: PyTorch refuses them even when the sizes agree."""
    ours, theirs = errors_alike(build, np.abs(A) + 1)
    assert ours == theirs


def test_an_unbatched_boolean_mask_is_fine():
    assert_same(lambda L, a: L.func.vmap(lambda row: row[L.tensor([True, False, True])])(a), A)


def test_an_inplace_function_without_a_rule_writes_each_sample_into_its_own_slice():
    def f(lib, a):
        u = a.clone()
        same = u.clamp_(min=lib.tensor(0.0, dtype=lib.float64)) is u
        u.addcdiv_(a, a.abs() + 1)
        return u * (1.0 if same else -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(lambda L, a: L.func.vmap(lambda row: f(L, row))(a), A)
