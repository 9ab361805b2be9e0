"""nn.utils: gradient clipping and parameter <-> vector conversion, against PyTorch."""
import math

import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn


def _pair(torch, grads):
    """The same parameters with the same gradients in both libraries."""
    ours, theirs = [], []
    for g in grads:
        p = nn.Parameter(tensorlab.zeros(*g.shape))
        p.grad = tensorlab.tensor(g.copy())
        q = torch.nn.Parameter(torch.zeros(*g.shape))
        q.grad = torch.tensor(g.copy())
        ours.append(p)
        theirs.append(q)
    return ours, theirs


GRADS = [np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5, np.array([3.0, -4.0], dtype=np.float32)]


@pytest.mark.parametrize("norm_type", [2.0, 1, math.inf, 3.0])
@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_grad_norm_matches_torch(torch, norm_type, max_norm):
    ours, theirs = _pair(torch, GRADS)
    total = nn.utils.clip_grad_norm_(ours, max_norm, norm_type=norm_type)
    total_t = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type=norm_type)
    assert isinstance(total, tensorlab.Tensor) and total.shape == ()
    np.testing.assert_allclose(total.item(), total_t.item(), rtol=1e-6)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5, atol=1e-7)


def test_clip_grad_norm_single_tensor_and_no_grads():
    p = nn.Parameter(tensorlab.zeros(3))
    p.grad = tensorlab.tensor([3.0, 4.0, 0.0])
    assert nn.utils.clip_grad_norm_(p, 1.0).item() == pytest.approx(5.0)
    np.testing.assert_allclose(p.grad.numpy(), [0.6, 0.8, 0.0], rtol=1e-5)
    assert nn.utils.clip_grad_norm_([nn.Parameter(tensorlab.zeros(2))], 1.0).item() == 0.0


def test_clip_grad_norm_nonfinite(torch):
    ours, theirs = _pair(torch, [np.array([np.inf, 1.0], dtype=np.float32)])
    with pytest.raises(RuntimeError) as theirs_error:
        torch.nn.utils.clip_grad_norm_(theirs, 1.0, error_if_nonfinite=True)
    with pytest.raises(RuntimeError) as ours_error:
        nn.utils.clip_grad_norm_(ours, 1.0, error_if_nonfinite=True)
    assert str(ours_error.value) == str(theirs_error.value)
    assert math.isinf(nn.utils.clip_grad_norm_(ours, 1.0).item())


def test_clip_grad_value_matches_torch(torch):
    ours, theirs = _pair(torch, GRADS)
    nn.utils.clip_grad_value_(ours, 1.5)
    torch.nn.utils.clip_grad_value_(theirs, 1.5)
    for p, q in zip(ours, theirs):
        np.testing.assert_array_equal(p.grad.numpy(), q.grad.numpy())


def test_clipping_in_a_training_step_keeps_grad_objects():
    model = nn.Linear(3, 1)
    model(tensorlab.randn(4, 3) * 100).sum().backward()
    grads = [p.grad for p in model.parameters()]
    total = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    assert total.item() > 1.0
    assert all(p.grad is g for p, g in zip(model.parameters(), grads))   # clipped in place
    new_total = math.sqrt(sum((p.grad.numpy().astype(np.float64) ** 2).sum() for p in model.parameters()))
    assert new_total == pytest.approx(1.0, rel=1e-4)


def test_parameters_to_vector_and_back(torch):
    model = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1))
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Linear(2, 1))
    model.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})
    vec = nn.utils.parameters_to_vector(model.parameters())
    vec_t = torch.nn.utils.parameters_to_vector(theirs.parameters())
    assert vec.shape == (11,)
    np.testing.assert_array_equal(vec.detach().numpy(), vec_t.detach().numpy())
    new = tensorlab.arange(11, dtype=tensorlab.float32)
    params = list(model.parameters())
    nn.utils.vector_to_parameters(new, model.parameters())
    assert all(a is b for a, b in zip(params, model.parameters()))
    np.testing.assert_array_equal(model[0].weight.detach().numpy(), [[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(model[1].bias.detach().numpy(), [10])
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0], model.parameters())


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence_like_pytorch(torch, batch_first, side):
    results = []
    for m in (tensorlab, torch):
        seqs = [m.tensor(np.arange(n * 2, dtype=np.float64).reshape(n, 2), requires_grad=True) for n in (2, 4, 3)]
        out = m.nn.utils.rnn.pad_sequence(seqs, batch_first=batch_first, padding_value=-1.0, padding_side=side)
        (out * m.arange(out.numel(), dtype=m.float64).reshape(out.shape)).sum().backward()
        results.append((out.tolist(), [s.grad.tolist() for s in seqs]))
    assert results[0] == results[1]
    with pytest.raises(RuntimeError, match="Expected padding_side to be one of left or right"):
        tensorlab.nn.utils.rnn.pad_sequence([tensorlab.ones(2)], padding_side="mid")
