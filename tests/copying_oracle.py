"""Helpers for the copying-op tests: run one op in tensorlab and in PyTorch on the same NumPy data
and compare everything a learner can see -- values, shape, strides, dtype, grad_fn, gradients,
errors. An op is written once as ``op(lib, *tensors)``, since both libraries share the API."""
import numpy as np

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck


def _flat(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _leaves(lib, arrays, grad):
    leaves = []
    for a in arrays:
        a = np.asarray(a)
        leaves.append(lib.tensor(a.copy(), requires_grad=grad and a.dtype.kind == "f"))
    return leaves


def _inputs(leaves, views):
    return [v(t) if v is not None else t for t, v in zip(leaves, views)]


def assert_same_tensor(ours, theirs, strides=True):
    assert tuple(ours.shape) == tuple(theirs.shape), (ours.shape, theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    if strides and ours.numel() > 1:
        assert ours.stride() == theirs.stride(), (ours.stride(), theirs.stride())
    a, b = ours.detach().numpy(), theirs.detach().numpy()
    np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=1e-6, atol=1e-6)
    name = lambda t: None if t.grad_fn is None else t.grad_fn.name()  # noqa: E731
    assert name(ours) == name(theirs), (name(ours), name(theirs))


def compare(torch, op, *arrays, views=None, grad=True, strides=True, seed=0):
    """Run ``op`` in both libraries; compare outputs and (if ``grad``) the gradients of the leaves."""
    views = list(views or [None] * len(arrays))
    views += [None] * (len(arrays) - len(views))
    ours_leaves, theirs_leaves = _leaves(tensorlab, arrays, grad), _leaves(torch, arrays, grad)
    ours = op(tensorlab, *_inputs(ours_leaves, views))
    theirs = op(torch, *_inputs(theirs_leaves, views))
    assert type(ours).__name__ == type(theirs).__name__ or not isinstance(theirs, tuple)
    for o, t in zip(_flat(ours), _flat(theirs), strict=True):
        assert_same_tensor(o, t, strides)
    if grad and any(t.requires_grad for t in theirs_leaves):
        _compare_grads(torch, ours, theirs, ours_leaves, theirs_leaves, seed)
    return ours, theirs


def _compare_grads(torch, ours, theirs, ours_leaves, theirs_leaves, seed):
    rng = np.random.default_rng(seed)
    loss_o = loss_t = 0
    for o, t in zip(_flat(ours), _flat(theirs)):
        if t.requires_grad:
            weight = rng.standard_normal(tuple(t.shape)).astype(np.dtype(str(t.dtype).split(".")[1]))
            loss_o = loss_o + (o * tensorlab.tensor(weight)).sum()
            loss_t = loss_t + (t * torch.tensor(weight)).sum()
    loss_o.backward()
    loss_t.backward()
    for lo, lt in zip(ours_leaves, theirs_leaves):
        if lt.requires_grad:
            assert (lo.grad is None) == (lt.grad is None)
            if lt.grad is not None:
                assert_same_tensor(lo.grad, lt.grad, strides=False)


def check_gradients(op, *arrays, views=None, second_order=True):
    """gradcheck (and gradgradcheck) in float64, through the given views of the leaves."""
    views = list(views or [None] * len(arrays))
    views += [None] * (len(arrays) - len(views))
    leaves = []
    for a in arrays:
        a = np.asarray(a)
        floating = a.dtype.kind == "f"
        leaves.append(tensorlab.tensor(a.astype(np.float64) if floating else a, requires_grad=floating))

    def fn(*ts):
        out = op(tensorlab, *_inputs(ts, views))
        return tuple(o for o in _flat(out) if o.dtype.is_floating_point)

    assert gradcheck(fn, tuple(leaves))
    if second_order:
        assert gradgradcheck(fn, tuple(leaves))


def same_error(torch, op, *arrays, views=None):
    """Both libraries raise the same exception type; ours contains PyTorch's message; nothing changed."""
    views = list(views or [None] * len(arrays))
    views += [None] * (len(arrays) - len(views))
    ours_leaves, theirs_leaves = _leaves(tensorlab, arrays, False), _leaves(torch, arrays, False)
    before = [t.numpy().copy() for t in ours_leaves]
    try:
        op(torch, *_inputs(theirs_leaves, views))
    except Exception as e:  # noqa: BLE001 - recording torch's exception type
        expected = e
    else:
        raise AssertionError("PyTorch raised nothing")
    try:
        op(tensorlab, *_inputs(ours_leaves, views))
    except Exception as e:  # noqa: BLE001
        got = e
    else:
        raise AssertionError(f"tensorlab raised nothing; PyTorch raised {expected!r}")
    assert type(got).__name__ == type(expected).__name__, (got, expected)
    phrase = str(expected).split("\n")[0].strip()
    assert phrase in str(got), (str(got), phrase)
    for b, t in zip(before, ours_leaves):
        np.testing.assert_array_equal(b, t.numpy())
    return got
