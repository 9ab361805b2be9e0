"""Module hooks: forward pre-hooks and forward hooks (with kwargs, prepend, removal) and full backward
hooks, whose gradients are compared with PyTorch's."""
from collections import OrderedDict

import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn


def _state_from_torch(theirs):
    return OrderedDict((k, tensorlab.tensor(v.detach().numpy().copy())) for k, v in theirs.state_dict().items())


def test_forward_hooks_run_in_order_and_can_replace_values():
    m = nn.Linear(2, 2)
    calls = []
    h1 = m.register_forward_pre_hook(lambda mod, args: calls.append("pre") or (args[0] * 0,))
    h2 = m.register_forward_hook(lambda mod, args, out: calls.append("post") or out + 1)
    h3 = m.register_forward_pre_hook(lambda mod, args: calls.append("first"), prepend=True)
    out = m(tensorlab.ones(1, 2))
    assert calls == ["first", "pre", "post"]
    np.testing.assert_allclose(out.detach().numpy(), (m.bias + 1).detach().numpy()[None])
    for h in (h1, h2, h3):
        h.remove()
    calls.clear()
    m(tensorlab.ones(1, 2))
    assert calls == []


def test_forward_hooks_with_kwargs():
    class Scale(nn.Module):
        def forward(self, x, factor=1.0):
            return x * factor

    m = Scale()
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": 3.0}), with_kwargs=True)
    seen = {}
    m.register_forward_hook(lambda mod, args, kwargs, out: seen.update(kwargs), with_kwargs=True)
    assert m(tensorlab.ones(1)).item() == 3.0 and seen == {"factor": 3.0}


def test_full_backward_hook_sees_torch_gradients(torch):
    ours, theirs = nn.Linear(3, 2), torch.nn.Linear(3, 2)
    ours.load_state_dict(_state_from_torch(theirs))
    got, expected = {}, {}

    def ours_hook(mod, grad_input, grad_output):
        got["in"], got["out"] = grad_input, grad_output

    def theirs_hook(mod, grad_input, grad_output):
        expected["in"], expected["out"] = grad_input, grad_output

    handle = ours.register_full_backward_hook(ours_hook)
    theirs.register_full_backward_hook(theirs_hook)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (ours(tensorlab.tensor(x, requires_grad=True)) ** 2).sum().backward()
    (theirs(torch.tensor(x, requires_grad=True)) ** 2).sum().backward()
    np.testing.assert_allclose(got["in"][0].numpy(), expected["in"][0].numpy(), rtol=1e-5)
    np.testing.assert_allclose(got["out"][0].numpy(), expected["out"][0].numpy(), rtol=1e-5)
    handle.remove()
    got.clear()
    ours(tensorlab.tensor(x, requires_grad=True)).sum().backward()
    assert got == {}


def test_backward_hook_can_replace_input_gradient_and_pre_hook_sees_output_grad():
    m = nn.Linear(2, 2)
    m.register_full_backward_hook(lambda mod, gin, gout: (gin[0] * 0,))
    outputs = []
    m.register_full_backward_pre_hook(lambda mod, gout: outputs.append(gout[0].shape))
    x = tensorlab.ones(1, 2, requires_grad=True)
    m(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 0)
    assert outputs == [(1, 2)]
    assert m.weight.grad is not None


def test_backward_hook_when_no_input_needs_grad(torch):
    m = nn.Linear(2, 2)
    got = {}
    m.register_full_backward_hook(lambda mod, gin, gout: got.update(gin=gin, gout=gout))
    with pytest.warns(UserWarning, match="Full backward hook is firing when gradients are computed with respect "
                                         "to module outputs since no inputs require gradients"):
        m(tensorlab.ones(1, 2)).sum().backward()
    assert got["gin"] == (None,)
    np.testing.assert_array_equal(got["gout"][0].numpy(), [[1.0, 1.0]])
