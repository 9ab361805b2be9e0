"""In-place view ops (``t_``, ``transpose_``, ``swapaxes_``, ``swapdims_``, ``squeeze_``, ``unsqueeze_``,
``as_strided_``) and ``addmm_`` against PyTorch: the new geometry, the version bump, the refusal on a
leaf that requires grad, the in-place grad_fn names on a tensor with history, and the gradients."""
import numpy as np
import pytest

import tensorlab

CALLS = {
    "t_": lambda t: t.t_(),
    "transpose_": lambda t: t.transpose_(0, -1),
    "swapaxes_": lambda t: t.swapaxes_(0, 1),
    "swapdims_": lambda t: t.swapdims_(1, 0),
    "squeeze_": lambda t: t.squeeze_(),
    "squeeze_dim": lambda t: t.squeeze_(1),
    "squeeze_dims": lambda t: t.squeeze_((0, 1)),
    "unsqueeze_": lambda t: t.unsqueeze_(0),
    "unsqueeze_end": lambda t: t.unsqueeze_(-1),
    "as_strided_": lambda t: t.as_strided_((2,), (1,), 1),
}
VALUES = np.arange(6.0).reshape(3, 1, 2)[:, :, 0]  # (3, 1), non-contiguous


def _state(lib, t):
    fn = t.grad_fn
    return (tuple(t.shape), tuple(t.stride()), t.storage_offset(), t._version, t.requires_grad,
            None if fn is None else type(fn).__name__ if lib is not tensorlab else fn.name(),
            t.detach().numpy().tolist() if t.numel() and t.storage_offset() + t.numel() <= 6 else None)


def _torch_name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


def _run(lib, call, how):
    base = lib.tensor(np.arange(6.0).reshape(3, 2)[:, :1].copy() if how != "view" else np.arange(6.0).reshape(3, 2))
    if how == "plain":
        t = base
    elif how == "view":
        t = base[:, :1]
    elif how == "nonleaf":
        leaf = base.requires_grad_()
        t = leaf * 1
    else:  # "leaf"
        t = base.requires_grad_()
    out = call(t)
    assert out is t
    return t


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("how", ["plain", "view", "nonleaf"])
def test_inplace_view_ops_match_torch(torch, name, how):
    if name == "as_strided_" and how == "view":
        pytest.skip("offsets differ with the base's layout (covered by the plain case)")
    ours, theirs = _run(tensorlab, CALLS[name], how), _run(torch, CALLS[name], how)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert tuple(ours.stride()) == tuple(theirs.stride())
    assert ours.storage_offset() == theirs.storage_offset()
    assert ours._version == theirs._version
    assert ours.requires_grad == theirs.requires_grad
    assert (ours.grad_fn and ours.grad_fn.name()) == _torch_name(theirs)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    assert (ours._base is not None) == (theirs._base is not None)


@pytest.mark.parametrize("name", CALLS)
def test_inplace_view_ops_refuse_a_leaf_that_requires_grad(torch, name):
    for lib in (torch, tensorlab):
        t = lib.tensor(np.ones((3, 1)), requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            CALLS[name](t)
        assert tuple(t.shape) == (3, 1) and t._version == 0
        v = lib.tensor(np.ones((3, 1)), requires_grad=True)[:]
        with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
            CALLS[name](v)
        with lib.no_grad():  # allowed without grad mode, as in PyTorch
            CALLS[name](t)
        assert t.grad_fn is None and t.requires_grad


@pytest.mark.parametrize("name", CALLS)
def test_gradients_flow_through_inplace_view_ops(torch, name):
    grads = []
    for lib in (torch, tensorlab):
        leaf = lib.tensor(np.arange(3.0).reshape(3, 1) + 1, requires_grad=True)
        y = leaf * 2
        CALLS[name](y)
        w = lib.tensor(np.arange(float(y.numel())).reshape(tuple(y.shape)) + 1)
        (y * w).sum().backward()
        grads.append(leaf.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])


def test_view_keeps_its_base_and_other_views_keep_their_geometry(torch):
    for lib in (torch, tensorlab):
        x = lib.tensor(np.ones((2, 1)), requires_grad=True) * 1
        v1, v2 = x[:], x[:]
        v1.t_()
        assert tuple(v1.shape) == (1, 2) and tuple(v2.shape) == (2, 1) and tuple(x.shape) == (2, 1)
        assert v1._base is x and v1.grad_fn.name() == "TBackward1" and x.grad_fn.name() == "MulBackward0"


def test_version_bump_invalidates_saved_tensors(torch):
    for lib in (torch, tensorlab):
        a = lib.tensor(np.ones((2, 1)), requires_grad=True)
        b = a * 1
        c = b * b  # saves b
        b.t_()
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            c.sum().backward()


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2, 1, 3).t_(),
    lambda lib: lib.ones(2, 3).transpose_(0, 5),
    lambda lib: lib.ones(2, 3).unsqueeze_(5),
    lambda lib: lib.ones(2, 3).squeeze_(4),
    lambda lib: lib.ones(2, 3).as_strided_((4, 4), (1, 2), 1),
    lambda lib: lib.ones(2, 3).as_strided_((2,), (1, 1)),
], ids=lambda c: "")
def test_errors_match_torch_and_change_nothing(torch, call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as ours:
        call(tensorlab)
    assert str(theirs.value)[:60] in str(ours.value)


def test_addmm_inplace_matches_torch(torch, rng):
    s, m1, m2 = rng.standard_normal((2, 2)), rng.standard_normal((2, 3)), rng.standard_normal((3, 2))
    results = []
    for lib in (torch, tensorlab):
        leaf = lib.tensor(s, requires_grad=True)
        a, b = lib.tensor(m1, requires_grad=True), lib.tensor(m2)
        y = leaf * 1
        out = y.addmm_(a, b, beta=2, alpha=3)
        assert out is y and y._version == 1 and y.grad_fn.name() == "AddmmBackward0"
        y.sum().backward()
        results.append((y.detach().numpy(), leaf.grad.numpy(), a.grad.numpy()))
        plain = lib.tensor(s)
        plain.addmm_(lib.tensor(m1), lib.tensor(m2))
        results.append((plain.numpy(),))
    for ours, theirs in zip(results[2:], results[:2]):
        for o, t in zip(ours, theirs):
            np.testing.assert_allclose(o, t, rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).addmm_(lib.ones(2, 3), lib.ones(3, 2)),
    lambda lib: lib.ones(2, 2, dtype=lib.long).addmm_(lib.ones(2, 3), lib.ones(3, 2)),
    lambda lib: lib.ones(2, 2).addmm_(lib.ones(2, 3), lib.ones(2, 2)),
    lambda lib: lib.ones(2, 2, requires_grad=True).addmm_(lib.ones(2, 3), lib.ones(3, 2)),
], ids=lambda c: "")
def test_addmm_inplace_errors_match_torch(torch, call):
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as ours:
        call(tensorlab)
    assert str(theirs.value)[:60] in str(ours.value)
