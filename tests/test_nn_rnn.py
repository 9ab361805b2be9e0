"""Recurrent layers against PyTorch: same weights -> same outputs, final states and gradients."""
import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn
from tensorlab.autograd import gradcheck


def _copy(ours, theirs):
    ours.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})


def _states(h):
    return h if isinstance(h, tuple) else (h,)


CONFIGS = [dict(), dict(num_layers=2), dict(bidirectional=True), dict(batch_first=True, bias=False),
           dict(num_layers=2, bidirectional=True, batch_first=True)]


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("config", CONFIGS, ids=[str(c) for c in CONFIGS])
def test_recurrent_layers_match_torch(torch, kind, config):
    theirs = getattr(torch.nn, kind)(3, 4, **config)
    ours = getattr(nn, kind)(3, 4, **config)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [tuple(p.shape) for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]
    assert repr(ours) == repr(theirs)
    _copy(ours, theirs)
    shape = (2, 5, 3) if config.get("batch_first") else (5, 2, 3)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    xa, xb = tensorlab.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    out_a, h_a = ours(xa)
    out_b, h_b = theirs(xb)
    np.testing.assert_allclose(out_a.detach().numpy(), out_b.detach().numpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(_states(h_a), _states(h_b)):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)
    loss_a = out_a.sum() + sum((h * h).sum() for h in _states(h_a))
    loss_b = out_b.sum() + sum((h * h).sum() for h in _states(h_b))
    loss_a.backward()
    loss_b.backward()
    np.testing.assert_allclose(xa.grad.numpy(), xb.grad.numpy(), rtol=1e-4, atol=1e-5)
    for (name, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_initial_state_and_unbatched_input(torch, kind):
    theirs, ours = getattr(torch.nn, kind)(3, 4, num_layers=2), getattr(nn, kind)(3, 4, num_layers=2)
    _copy(ours, theirs)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 3)).astype(np.float32)            # (seq, feature): no batch dim
    h0 = rng.standard_normal((2, 4)).astype(np.float32)
    state_a = (tensorlab.tensor(h0), tensorlab.tensor(h0 * 0.5)) if kind == "LSTM" else tensorlab.tensor(h0)
    state_b = (torch.tensor(h0), torch.tensor(h0 * 0.5)) if kind == "LSTM" else torch.tensor(h0)
    out_a, h_a = ours(tensorlab.tensor(x), state_a)
    out_b, h_b = theirs(torch.tensor(x), state_b)
    assert out_a.shape == (6, 4)
    np.testing.assert_allclose(out_a.detach().numpy(), out_b.detach().numpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(_states(h_a), _states(h_b)):
        assert tuple(a.shape) == tuple(b.shape)


def test_rnn_relu_and_cells(torch):
    theirs, ours = torch.nn.RNN(3, 4, nonlinearity="relu"), nn.RNN(3, 4, nonlinearity="relu")
    assert repr(ours) == repr(theirs)
    _copy(ours, theirs)
    x = np.random.default_rng(2).standard_normal((4, 2, 3)).astype(np.float32)
    np.testing.assert_allclose(ours(tensorlab.tensor(x))[0].detach().numpy(),
                               theirs(torch.tensor(x))[0].detach().numpy(), rtol=1e-5, atol=1e-6)
    for kind, kwargs in [("RNNCell", {}), ("LSTMCell", {}), ("GRUCell", {"bias": False})]:
        tc, oc = getattr(torch.nn, kind)(3, 4, **kwargs), getattr(nn, kind)(3, 4, **kwargs)
        assert repr(oc) == repr(tc)
        _copy(oc, tc)
        a, b = _states(oc(tensorlab.tensor(x[0]))), _states(tc(torch.tensor(x[0])))
        for u, v in zip(a, b):
            np.testing.assert_allclose(u.detach().numpy(), v.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_lstm_gradcheck():
    tensorlab.manual_seed(0)
    lstm = nn.LSTM(2, 3).double()
    x = tensorlab.randn(3, 2, 2, dtype=tensorlab.float64, requires_grad=True)
    assert gradcheck(lambda inp, w: lstm(inp)[0] * w.sum(), (x, lstm.weight_hh_l0))


def test_default_init_and_errors(torch):
    tensorlab.manual_seed(0)
    gru = nn.GRU(10, 25)
    bound = 1 / 25 ** 0.5
    for p in gru.parameters():
        a = p.detach().numpy()
        assert a.min() >= -bound and a.max() <= bound
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. Expected 10, got 4"):
        gru(tensorlab.randn(5, 2, 4))
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(1, 2, 25\), got \[1, 3, 25\]"):
        gru(tensorlab.randn(5, 2, 10), tensorlab.randn(1, 3, 25))
    with pytest.raises(ValueError, match="GRU: Expected input to be 2D or 3D, got 4D tensor instead"):
        gru(tensorlab.randn(5, 2, 10, 1))
    with pytest.raises(ValueError, match="Unknown nonlinearity 'foo'. Select from 'tanh' or 'relu'."):
        nn.RNN(3, 4, nonlinearity="foo")
    with pytest.warns(UserWarning, match="dropout option adds dropout after all but last recurrent layer"):
        nn.LSTM(3, 4, dropout=0.5)
