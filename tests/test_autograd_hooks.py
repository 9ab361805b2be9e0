"""Tensor hooks and retain_grad, compared with PyTorch: what a hook sees, what replacing the
gradient does, the order of hooks and retain_grad, removal, hooks across in-place history rebases."""
import numpy as np
import pytest

import tensorlab


def _log_run(m, build):
    """Run ``build(m, log)`` -> loss, backward it, and return the log as plain lists."""
    log = []
    loss, watched = build(m, log)
    loss.backward()
    return [(tag, np.asarray(v.detach().numpy() if hasattr(v, "detach") else v).tolist())
            for tag, v in log] + [(name, t.grad.tolist()) for name, t in watched]


def _same(torch, build):
    assert _log_run(tensorlab, build) == _log_run(torch, build)


def test_hook_on_a_non_leaf_sees_and_replaces_the_gradient(torch):
    def build(m, log):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: log.append(("y hook", g)) or g * 10)
        return (y * y).sum(), [("x", x)]
    _same(torch, build)


def test_hook_on_a_leaf_runs_before_accumulation(torch):
    def build(m, log):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: log.append(("x hook", g)) or g + 1)
        x.register_post_accumulate_grad_hook(lambda t: log.append(("post accumulate", t.grad)))
        return (x * 3).sum(), [("x", x)]
    _same(torch, build)


def test_several_hooks_run_in_registration_order_and_retain_grad_sees_the_result(torch):
    def build(m, log):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: log.append(("first", g)) or g * 10)
        y.retain_grad()  # registered in between, but stores the gradient after every hook
        y.register_hook(lambda g: log.append(("second", g)) or g + 1)
        return y.sum(), [("y", y), ("x", x)]
    _same(torch, build)


def test_removed_hooks_do_not_run(torch):
    def build(m, log):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        handle = y.register_hook(lambda g: log.append(("removed", g)) or g * 100)
        y.register_hook(lambda g: log.append(("kept", g)))
        handle.remove()
        handle.remove()  # removing twice is harmless
        with x.register_hook(lambda g: g * 0):  # a handle is also a context manager
            pass
        return y.sum(), [("x", x)]
    _same(torch, build)


def test_hooks_registered_before_an_in_place_op_stay_with_the_old_value(torch):
    def build(m, log):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: log.append(("before mul_", g)))
        y.mul_(2)
        y.register_hook(lambda g: log.append(("after mul_", g)))
        return (y * 3).sum(), [("x", x)]
    _same(torch, build)


def test_retain_grad_follows_the_tensor_through_an_in_place_op(torch):
    def build(m, log):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        y.register_hook(lambda g: g * 100)
        y.mul_(2)
        return (y * 3).sum(), [("y", y), ("x", x)]
    _same(torch, build)
    y = tensorlab.ones(2, requires_grad=True) * 2
    y.retain_grad()
    y.add_(1)
    assert y.grad_fn.name() == "AddBackward0" and y.retains_grad


def test_retain_grad_accumulates_and_leaves_are_unaffected(torch):
    for m in (tensorlab, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.retain_grad()
        y.retain_grad()  # twice is fine
        assert y.retains_grad and not x.retains_grad
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        assert y.grad.tolist() == [2.0, 2.0]
        x.retain_grad()  # a leaf: no-op
        assert not x.retains_grad


def test_hook_errors_match_torch(torch):
    for m in (tensorlab, torch):
        t = m.ones(2)
        with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require "
                                               "gradient"):
            t.register_hook(lambda g: g)
        with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
            t.retain_grad()
        y = m.ones(2, requires_grad=True) * 2
        with pytest.raises(RuntimeError, match="post accumulate grad hooks cannot be registered on non-leaf "
                                               "tensors"):
            y.register_post_accumulate_grad_hook(lambda t: None)


def test_hooks_fire_during_autograd_grad_too(torch):
    def run(m):
        log = []
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: log.append(g.tolist()) or g * 3)
        x.register_hook(lambda g: log.append(("leaf", g.tolist())))
        gx, = m.autograd.grad((y * y).sum(), x)
        return log, gx.tolist(), x.grad
    assert run(tensorlab) == run(torch)


def test_a_hook_may_not_change_the_gradient_size_or_type(torch):
    def myhook(g):
        return 3
    for m in (tensorlab, torch):
        x = m.ones(3, requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: g[:2])
        with pytest.raises(RuntimeError, match="hook '<lambda>' has changed the size of value"):
            y.sum().backward()
        y = x * 2
        y.register_hook(lambda g: g.double())
        with pytest.raises(RuntimeError, match=r"hook '<lambda>' has changed the type of value \(was "
                                               r"torch.FloatTensor got torch.DoubleTensor\)"):
            y.sum().backward()
        y = x * 2
        y.register_hook(myhook)
        with pytest.raises(TypeError, match="expected Variable, but hook returned 'int'"):
            y.sum().backward()
        assert x.grad is None
