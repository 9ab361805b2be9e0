"""saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks (tensorlab/autograd/saved_hooks.py),
compared with PyTorch's torch.autograd.graph on the same code."""
import numpy as np
import pytest

import tensorlab
from tensorlab.autograd.graph import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks

RNG = np.random.default_rng(1)
X = RNG.standard_normal((3, 4))
W = RNG.standard_normal((4, 2))


def graph_module(lib):
    return lib.autograd.graph


def model(lib, x, w):
    """A few ops that save inputs (mm, mul) and outputs (exp, tanh)."""
    return (x.mm(w).tanh() * x.sum(1, keepdim=True)).exp().sum()


def run_with_hooks(lib, pack, unpack):
    x = lib.tensor(X, requires_grad=True)
    w = lib.tensor(W, requires_grad=True)
    with graph_module(lib).saved_tensors_hooks(pack, unpack):
        loss = model(lib, x, w)
    loss.backward()
    return x.grad, w.grad


def test_every_saved_tensor_is_packed_once_and_unpacked_once_as_in_pytorch():
    torch = pytest.importorskip("torch")
    logs = {}
    for lib in (tensorlab, torch):
        log = logs[lib.__name__] = []

        def pack(t, log=log):
            log.append(("pack", tuple(t.shape)))
            return t

        def unpack(t, log=log):
            log.append(("unpack", tuple(t.shape)))
            return t
        run_with_hooks(lib, pack, unpack)
    # the same tensors (the order within one op's saves is an implementation detail)
    assert sorted(logs["tensorlab"]) == sorted(logs["torch"])
    assert len(logs["tensorlab"]) == 2 * sum(1 for e in logs["tensorlab"] if e[0] == "pack")


@pytest.mark.parametrize("hooks", ["identity", "numpy_copy", "save_on_cpu"])
def test_gradients_are_those_without_hooks_and_pytorchs(hooks):
    torch = pytest.importorskip("torch")
    x = tensorlab.tensor(X, requires_grad=True)
    w = tensorlab.tensor(W, requires_grad=True)
    model(tensorlab, x, w).backward()
    tx, tw = torch.tensor(X, requires_grad=True), torch.tensor(W, requires_grad=True)
    model(torch, tx, tw).backward()
    if hooks == "save_on_cpu":
        xt = tensorlab.tensor(X, requires_grad=True)
        wt = tensorlab.tensor(W, requires_grad=True)
        with save_on_cpu(pin_memory=True):
            loss = model(tensorlab, xt, wt)
        loss.backward()
        gx, gw = xt.grad, wt.grad
    elif hooks == "identity":
        gx, gw = run_with_hooks(tensorlab, lambda t: t, lambda t: t)
    else:
        gx, gw = run_with_hooks(tensorlab, lambda t: t.detach().numpy().copy(), tensorlab.from_numpy)
    for ours, plain, theirs in [(gx, x.grad, tx.grad), (gw, w.grad, tw.grad)]:
        np.testing.assert_allclose(ours.numpy(), plain.numpy(), rtol=1e-12)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10)


def test_the_pack_hook_runs_with_grad_mode_off_and_gets_the_output_itself():
    seen = []

    def pack(t):
        seen.append((tensorlab.is_grad_enabled(), t.grad_fn.name() if t.grad_fn else None))
        return t * t          # would record (and save, and pack...) if grad mode were on
    x = tensorlab.tensor(X, requires_grad=True)
    with saved_tensors_hooks(pack, lambda t: t.sqrt()):
        y = x.exp()
    assert seen == [(False, "ExpBackward0")]
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp(X))


def test_the_innermost_hooks_are_used():
    log = []
    x = tensorlab.tensor(X, requires_grad=True)
    with saved_tensors_hooks(lambda t: log.append("outer") or t, lambda t: t):
        with saved_tensors_hooks(lambda t: log.append("inner") or t, lambda t: t):
            x.exp()
        x.sin()
    assert log == ["inner", "outer"]


def test_a_saved_result_comes_back_with_its_grad_fn():
    torch = pytest.importorskip("torch")
    for lib in (tensorlab, torch):
        x = lib.tensor(X, requires_grad=True)
        with graph_module(lib).saved_tensors_hooks(lambda t: ("kept", t), lambda p: p[1]):
            y = x.exp()
        saved = y.grad_fn._saved_result
        assert saved is not y and saved.grad_fn is y.grad_fn
        assert saved.requires_grad and np.array_equal(saved.detach().numpy(), y.detach().numpy())


def test_no_version_check_through_hooks_as_in_pytorch():
    """With hooks, autograd cannot see what the hooks kept, so PyTorch does not check versions."""
    torch = pytest.importorskip("torch")
    for lib in (tensorlab, torch):
        a = lib.tensor(X, requires_grad=True).clone()
        with graph_module(lib).saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
            b = a.sin()
        with lib.no_grad():
            a.add_(1)
        b.sum().backward()   # no error: the pack hook kept a copy of the old values


def test_an_inplace_op_after_saving_keeps_the_old_values_as_pytorch():
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (tensorlab, torch):
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(X[::-1].copy(), requires_grad=True)
        with graph_module(lib).saved_tensors_hooks(lambda t: t, lambda t: t):
            y = x * 1.0
            y.mul_(w)       # saves y's old values and w, then overwrites y
            y.sum().backward()
        grads.append((x.grad.numpy().copy(), w.grad.numpy().copy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0])
    np.testing.assert_allclose(grads[0][1], grads[1][1])


def test_double_backward_through_hooks_as_pytorch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (tensorlab, torch):
        x = lib.tensor(X, requires_grad=True)
        with graph_module(lib).saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
            y = (x.sin() * x).sum()
        g, = lib.autograd.grad(y, x, create_graph=True)
        gg, = lib.autograd.grad(g.sum(), x)
        results.append(gg.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)


def test_an_unpack_hook_must_return_a_tensor():
    x = tensorlab.tensor(X, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: 3):
        y = x.exp()
    with pytest.raises(TypeError, match="Output of saved tensor unpack_hook expected to be a Tensor but got "
                                        "result of type int"):
        y.sum().backward()


def test_a_pack_hook_may_not_modify_its_input():
    x = tensorlab.tensor(X, requires_grad=True).clone()
    with saved_tensors_hooks(lambda t: t.add_(0), lambda t: t):
        with pytest.raises(RuntimeError, match="A saved tensor pack hook is modifying its input in place"):
            x.exp()


def test_disabling_hooks():
    with disable_saved_tensors_hooks("no hooks here"):
        with pytest.raises(RuntimeError, match="no hooks here"):
            with saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
        tensorlab.ones(2, requires_grad=True).exp()    # saving with no hooks active is fine
    x = tensorlab.ones(2, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        with disable_saved_tensors_hooks("no hooks here"):
            with pytest.raises(RuntimeError, match="no hooks here"):
                x.exp()
        x.exp()                                         # enabled again


def test_backward_twice_through_hooks_says_so():
    x = tensorlab.tensor(X, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        y = x.exp().sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_the_engine_trace_still_knows_the_saved_shapes():
    x = tensorlab.tensor(X, requires_grad=True)
    with saved_tensors_hooks(lambda t: t.detach().numpy(), tensorlab.from_numpy):
        y = x.exp()
    assert y.grad_fn.saved_tensor_shapes == [(3, 4)]


def test_hooks_leave_nothing_behind():
    from tensorlab.autograd import saved_hooks
    with pytest.raises(ValueError):
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            raise ValueError
    assert saved_hooks._stack == [] and saved_hooks._disabled == []
