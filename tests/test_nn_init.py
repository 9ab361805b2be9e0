"""nn.init: the distributions (checked statistically and by bounds), gains and fans as PyTorch computes
them, seeding, no_grad, and PyTorch's errors."""
import math

import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn
from tensorlab.nn import init


def weight(*shape):
    return nn.Parameter(tensorlab.empty(*shape))


def test_calculate_gain_matches_torch(torch):
    for name in ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose2d", "sigmoid", "tanh", "relu", "selu"]:
        assert init.calculate_gain(name) == pytest.approx(torch.nn.init.calculate_gain(name))
    for slope in [None, 0.2, 1, 0]:
        assert init.calculate_gain("leaky_relu", slope) == pytest.approx(
            torch.nn.init.calculate_gain("leaky_relu", slope))
    with pytest.raises(ValueError, match="Unsupported nonlinearity softmax"):
        init.calculate_gain("softmax")
    with pytest.raises(ValueError, match="negative_slope abc not a valid number"):
        init.calculate_gain("leaky_relu", "abc")


@pytest.mark.parametrize("shape", [(3, 4), (8, 3, 5, 5), (2, 6, 3), (4, 2, 1, 3, 3)])
def test_fans_match_torch(torch, shape):
    ours = init._calculate_fan_in_and_fan_out(tensorlab.empty(*shape))
    theirs = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(*shape))
    assert ours == theirs


def test_fan_needs_two_dims():
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed for tensor with fewer than 2 "
                                         "dimensions"):
        init.xavier_uniform_(tensorlab.empty(5))
    with pytest.raises(ValueError, match="Mode fan_avg not supported, please use one of fan_in, fan_out"):
        init.kaiming_uniform_(tensorlab.empty(3, 3), mode="fan_avg")


def _check_uniform(a, low, high):
    assert a.min() >= low and a.max() <= high
    span = high - low
    assert a.min() < low + 0.02 * span and a.max() > high - 0.02 * span
    assert abs(a.mean() - (low + high) / 2) < 0.02 * span
    assert abs(a.var() - span ** 2 / 12) / (span ** 2 / 12) < 0.05


def _check_normal(a, mean, std):
    assert abs(a.mean() - mean) < 0.03 * std + 1e-3
    assert abs(a.std() - std) / std < 0.03


def test_uniform_and_normal():
    tensorlab.manual_seed(0)
    _check_uniform(init.uniform_(weight(200, 100), -2.0, 3.0).detach().numpy(), -2.0, 3.0)
    _check_normal(init.normal_(weight(200, 100), 1.5, 0.3).detach().numpy(), 1.5, 0.3)


def test_xavier():
    tensorlab.manual_seed(1)
    fan_in, fan_out = 300, 200
    a = init.xavier_uniform_(weight(fan_out, fan_in), gain=2.0).detach().numpy()
    bound = 2.0 * math.sqrt(6.0 / (fan_in + fan_out))
    _check_uniform(a, -bound, bound)
    _check_normal(init.xavier_normal_(weight(fan_out, fan_in)).detach().numpy(), 0.0,
                  math.sqrt(2.0 / (fan_in + fan_out)))


@pytest.mark.parametrize("mode", ["fan_in", "fan_out"])
@pytest.mark.parametrize("nonlinearity,a", [("relu", 0), ("leaky_relu", 0.2), ("leaky_relu", math.sqrt(5))])
def test_kaiming(mode, nonlinearity, a):
    tensorlab.manual_seed(2)
    shape = (64, 32, 3, 3)
    fan = 32 * 9 if mode == "fan_in" else 64 * 9
    std = init.calculate_gain(nonlinearity, a) / math.sqrt(fan)
    u = init.kaiming_uniform_(weight(*shape), a=a, mode=mode, nonlinearity=nonlinearity).detach().numpy()
    _check_uniform(u, -math.sqrt(3) * std, math.sqrt(3) * std)
    n = init.kaiming_normal_(weight(*shape), a=a, mode=mode, nonlinearity=nonlinearity).detach().numpy()
    _check_normal(n, 0.0, std)


def test_kaiming_on_empty_tensor_warns():
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(tensorlab.empty(0, 3))


def test_trunc_normal_stays_in_bounds():
    tensorlab.manual_seed(3)
    a = init.trunc_normal_(weight(300, 300), mean=0.5, std=1.0, a=-0.5, b=1.0).detach().numpy()
    assert a.min() >= -0.5 and a.max() <= 1.0
    assert a.min() < -0.49 and a.max() > 0.99
    # a truncated standard normal on [-2, 2] has std ~0.880
    b = init.trunc_normal_(weight(300, 300)).detach().numpy()
    assert abs(b.std() - 0.8796) < 0.01 and abs(b.mean()) < 0.01


def test_constant_ones_zeros_eye_dirac(torch):
    np.testing.assert_array_equal(init.constant_(weight(2, 3), 0.25).detach().numpy(), 0.25)
    np.testing.assert_array_equal(init.ones_(weight(2, 3)).detach().numpy(), 1)
    np.testing.assert_array_equal(init.zeros_(weight(2, 3)).detach().numpy(), 0)
    np.testing.assert_array_equal(init.eye_(weight(3, 4)).detach().numpy(), np.eye(3, 4))
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(weight(2, 2, 2))
    ours = init.dirac_(weight(6, 3, 3, 3), groups=2).detach().numpy()
    theirs = torch.nn.init.dirac_(torch.empty(6, 3, 3, 3), groups=2).numpy()
    np.testing.assert_array_equal(ours, theirs)
    x = tensorlab.randn(1, 3, 5, 5)
    conv = nn.Conv2d(3, 3, 3, padding=1, bias=False)
    init.dirac_(conv.weight)
    np.testing.assert_allclose(conv(x).detach().numpy(), x.numpy(), atol=1e-6)   # the identity convolution


def test_orthogonal():
    tensorlab.manual_seed(4)
    for shape in [(5, 8), (8, 5), (4, 2, 3)]:
        w = init.orthogonal_(weight(*shape), gain=2.0).detach().numpy().reshape(shape[0], -1)
        gram = w @ w.T if shape[0] <= w.shape[1] else w.T @ w
        np.testing.assert_allclose(gram, 4.0 * np.eye(gram.shape[0]), atol=1e-5)
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions are supported"):
        init.orthogonal_(weight(4))


def test_sparse_zeroes_a_fraction_of_each_column():
    tensorlab.manual_seed(5)
    w = init.sparse_(weight(10, 6), sparsity=0.3).detach().numpy()
    assert ((w == 0).sum(axis=0) >= 3).all()


def test_init_is_seeded_and_untracked():
    tensorlab.manual_seed(7)
    a = init.kaiming_uniform_(weight(4, 4)).detach().numpy().copy()
    tensorlab.manual_seed(7)
    p = weight(4, 4)
    b = init.kaiming_uniform_(p).detach().numpy()
    np.testing.assert_array_equal(a, b)
    assert p.grad_fn is None and p.is_leaf and p.requires_grad      # no history for a leaf parameter


def test_layers_are_reproducible_under_manual_seed():
    tensorlab.manual_seed(11)
    first = [p.detach().numpy().copy() for p in nn.Sequential(nn.Conv2d(1, 2, 3), nn.Linear(4, 2)).parameters()]
    tensorlab.manual_seed(11)
    second = [p.detach().numpy() for p in nn.Sequential(nn.Conv2d(1, 2, 3), nn.Linear(4, 2)).parameters()]
    for x, y in zip(first, second):
        np.testing.assert_array_equal(x, y)
