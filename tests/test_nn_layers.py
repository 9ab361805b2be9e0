"""Layers against PyTorch: same weights (copied with load_state_dict), same input -> same output, same
gradients for every parameter and for the input, same grad_fn name and the same repr."""
import math

import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn


def load_from_torch(ours, theirs):
    """Copy a torch module's state into ours, through NumPy arrays."""
    state = {k: tensorlab.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()}
    result = ours.load_state_dict(state)
    assert not result.missing_keys and not result.unexpected_keys


def run_both(torch, ours, theirs, *arrays, int_inputs=(), rtol=1e-5, atol=1e-6, grad=True):
    """Forward + backward of both modules on the same data; compare outputs and all gradients."""
    load_from_torch(ours, theirs)
    ins_ours, ins_theirs = [], []
    for i, a in enumerate(arrays):
        needs = grad and i not in int_inputs
        ins_ours.append(tensorlab.tensor(a.copy(), requires_grad=needs))
        ins_theirs.append(torch.tensor(a.copy(), requires_grad=needs))
    out_ours, out_theirs = ours(*ins_ours), theirs(*ins_theirs)
    if isinstance(out_theirs, tuple):
        out_ours, out_theirs = out_ours[0], out_theirs[0]
    assert tuple(out_ours.shape) == tuple(out_theirs.shape)
    assert str(out_ours.dtype) == str(out_theirs.dtype)
    np.testing.assert_allclose(out_ours.detach().numpy(), out_theirs.detach().numpy(), rtol=rtol, atol=atol)
    if out_theirs.grad_fn is not None and out_theirs.grad_fn.name() != "torch::autograd::CopySlices":
        # (circular padding is a chain of slice copies in PyTorch, one gather node here)
        assert out_ours.grad_fn.name() == out_theirs.grad_fn.name()
    if not grad:
        return out_ours, out_theirs
    upstream = np.random.default_rng(1).standard_normal(tuple(out_theirs.shape)).astype(
        out_theirs.detach().numpy().dtype)
    out_ours.backward(tensorlab.tensor(upstream))
    out_theirs.backward(torch.tensor(upstream))
    for (name, p), (name_t, p_t) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert name == name_t
        if p_t.grad is None:
            assert p.grad is None
            continue
        np.testing.assert_allclose(p.grad.numpy(), p_t.grad.numpy(), rtol=rtol, atol=atol * 10, err_msg=name)
    for i, (a, b) in enumerate(zip(ins_ours, ins_theirs)):
        if b.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=rtol, atol=atol * 10,
                                       err_msg=f"input {i}")
    return out_ours, out_theirs


def data(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# -- linear --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 3), (3,)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_matches_torch(torch, shape, bias):
    ours, theirs = nn.Linear(3, 4, bias=bias), torch.nn.Linear(3, 4, bias=bias)
    run_both(torch, ours, theirs, data(*shape))
    assert repr(ours) == repr(theirs)


def test_linear_2d_graph_is_addmm_with_transposed_weight(torch):
    layer = nn.Linear(3, 2)
    y = layer(tensorlab.randn(4, 3, requires_grad=True))
    assert y.grad_fn.name() == "AddmmBackward0"
    names = [fn.name() if fn is not None else None for fn, _ in y.grad_fn.next_functions]
    assert names == ["torch::autograd::AccumulateGrad", "torch::autograd::AccumulateGrad", "TBackward0"]


def test_bilinear_and_identity(torch):
    ours, theirs = nn.Bilinear(3, 4, 2), torch.nn.Bilinear(3, 4, 2)
    run_both(torch, ours, theirs, data(5, 3), data(5, 4, seed=1))
    assert repr(ours) == repr(theirs)
    x = tensorlab.randn(2)
    assert nn.Identity(54, unused="x")(x) is x


# -- convolution ---------------------------------------------------------------------------------------


CONV2D_CASES = [
    dict(),
    dict(stride=2, padding=1),
    dict(padding=(2, 1), dilation=(2, 1)),
    dict(stride=(2, 1), bias=False),
    dict(groups=2),
    dict(groups=4, stride=2),
    dict(padding="same"),
    dict(padding="same", dilation=2),
    dict(padding="valid"),
    dict(padding=1, padding_mode="reflect"),
    dict(padding=2, padding_mode="replicate"),
    dict(padding=1, padding_mode="circular"),
]


@pytest.mark.parametrize("kwargs", CONV2D_CASES)
def test_conv2d_matches_torch(torch, kwargs):
    ours = nn.Conv2d(4, 6 if kwargs.get("groups", 1) != 4 else 8, (3, 2) if "dilation" in kwargs else 3,
                     **kwargs)
    theirs = torch.nn.Conv2d(ours.in_channels, ours.out_channels, ours.kernel_size, **kwargs)
    run_both(torch, ours, theirs, data(2, 4, 9, 8), rtol=1e-4, atol=1e-5)
    assert repr(ours) == repr(theirs)


@pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel lengths")   # PyTorch's own note
def test_conv2d_even_kernel_same_padding_is_asymmetric(torch):
    ours, theirs = nn.Conv2d(2, 3, 4, padding="same"), torch.nn.Conv2d(2, 3, 4, padding="same")
    out, _ = run_both(torch, ours, theirs, data(1, 2, 7, 6), rtol=1e-4, atol=1e-5)
    assert out.shape == (1, 3, 7, 6)


def test_conv2d_unbatched_input(torch):
    ours, theirs = nn.Conv2d(2, 3, 3), torch.nn.Conv2d(2, 3, 3)
    run_both(torch, ours, theirs, data(2, 6, 5), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kwargs", [dict(), dict(stride=2, padding=1, dilation=2), dict(groups=3)])
def test_conv1d_matches_torch(torch, kwargs):
    ours, theirs = nn.Conv1d(3, 6, 3, **kwargs), torch.nn.Conv1d(3, 6, 3, **kwargs)
    run_both(torch, ours, theirs, data(2, 3, 11), rtol=1e-4, atol=1e-5)
    assert repr(ours) == repr(theirs)


def test_conv3d_matches_torch(torch):
    ours, theirs = nn.Conv3d(2, 3, 2, stride=(1, 2, 1), padding=1), torch.nn.Conv3d(2, 3, 2, stride=(1, 2, 1),
                                                                                     padding=1)
    run_both(torch, ours, theirs, data(2, 2, 4, 5, 3), rtol=1e-4, atol=1e-5)


CONVT_CASES = [dict(), dict(stride=2), dict(stride=2, padding=1, output_padding=1), dict(groups=2, dilation=2),
               dict(stride=(2, 3), padding=(0, 1), output_padding=(1, 2), bias=False)]


@pytest.mark.parametrize("kwargs", CONVT_CASES)
def test_conv_transpose2d_matches_torch(torch, kwargs):
    ours, theirs = nn.ConvTranspose2d(4, 6, 3, **kwargs), torch.nn.ConvTranspose2d(4, 6, 3, **kwargs)
    run_both(torch, ours, theirs, data(2, 4, 5, 4), rtol=1e-4, atol=1e-5)
    assert repr(ours) == repr(theirs)


def test_conv_transpose2d_output_size(torch):
    ours, theirs = nn.ConvTranspose2d(2, 2, 3, stride=2), torch.nn.ConvTranspose2d(2, 2, 3, stride=2)
    load_from_torch(ours, theirs)
    x = data(1, 2, 4, 4)
    a = ours(tensorlab.tensor(x), output_size=[10, 10])
    b = theirs(torch.tensor(x), output_size=[10, 10])
    assert a.shape == (1, 2, 10, 10)
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-4, atol=1e-5)


def test_conv1d_transpose_matches_torch(torch):
    ours, theirs = nn.ConvTranspose1d(3, 2, 4, stride=3), torch.nn.ConvTranspose1d(3, 2, 4, stride=3)
    run_both(torch, ours, theirs, data(2, 3, 5), rtol=1e-4, atol=1e-5)


def test_conv_output_is_contiguous_so_view_works():
    y = nn.Conv2d(1, 3, 3)(tensorlab.randn(2, 1, 6, 6))
    assert y.is_contiguous()
    assert y.view(2, -1).shape == (2, 48)


# -- pooling -------------------------------------------------------------------------------------------------


POOL_CASES = [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=3, stride=2,
              ceil_mode=True), dict(kernel_size=(2, 3), stride=(1, 2), dilation=(2, 1)),
              dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)]


@pytest.mark.parametrize("kwargs", POOL_CASES)
def test_max_pool2d_matches_torch(torch, kwargs):
    ours, theirs = nn.MaxPool2d(**kwargs), torch.nn.MaxPool2d(**kwargs)
    run_both(torch, ours, theirs, data(2, 3, 9, 8))
    assert repr(ours) == repr(theirs)


def test_max_pool2d_return_indices(torch):
    x = data(2, 3, 7, 6)
    out, idx = nn.MaxPool2d(3, 2, 1, return_indices=True)(tensorlab.tensor(x))
    out_t, idx_t = torch.nn.MaxPool2d(3, 2, 1, return_indices=True)(torch.tensor(x))
    np.testing.assert_array_equal(idx.numpy(), idx_t.numpy())
    assert idx.dtype == tensorlab.int64
    np.testing.assert_allclose(out.numpy(), out_t.numpy())


def test_max_pool_unbatched_and_1d_3d(torch):
    run_both(torch, nn.MaxPool2d(2), torch.nn.MaxPool2d(2), data(3, 6, 6))
    run_both(torch, nn.MaxPool1d(3, 2), torch.nn.MaxPool1d(3, 2), data(2, 3, 9))
    run_both(torch, nn.MaxPool3d(2), torch.nn.MaxPool3d(2), data(1, 2, 4, 4, 6))


def test_max_pool_ties_and_nan_follow_torch(torch):
    x = np.array([[[[1.0, 1.0], [0.0, 1.0]]], [[[np.nan, 2.0], [3.0, 1.0]]]], dtype=np.float32)
    out, idx = nn.functional.max_pool2d(tensorlab.tensor(x), 2, return_indices=True)
    out_t, idx_t = torch.nn.functional.max_pool2d(torch.tensor(x), 2, return_indices=True)
    np.testing.assert_array_equal(idx.numpy(), idx_t.numpy())
    np.testing.assert_array_equal(out.numpy(), out_t.numpy())


AVG_CASES = [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
             dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
             dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
             dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
             dict(kernel_size=(3, 2), divisor_override=5)]


@pytest.mark.parametrize("kwargs", AVG_CASES)
def test_avg_pool2d_matches_torch(torch, kwargs):
    ours, theirs = nn.AvgPool2d(**kwargs), torch.nn.AvgPool2d(**kwargs)
    run_both(torch, ours, theirs, data(2, 3, 8, 7))
    assert repr(ours) == repr(theirs)


def test_avg_pool_1d_3d_unbatched(torch):
    run_both(torch, nn.AvgPool1d(3, 2, 1), torch.nn.AvgPool1d(3, 2, 1), data(2, 3, 10))
    run_both(torch, nn.AvgPool3d(2), torch.nn.AvgPool3d(2), data(1, 2, 4, 4, 4))
    run_both(torch, nn.AvgPool2d(2), torch.nn.AvgPool2d(2), data(3, 6, 6))


@pytest.mark.parametrize("size", [(3, 3), 1, (4, 2), (None, 5), 7])
def test_adaptive_avg_pool2d_matches_torch(torch, size):
    ours, theirs = nn.AdaptiveAvgPool2d(size), torch.nn.AdaptiveAvgPool2d(size)
    run_both(torch, ours, theirs, data(2, 3, 10, 7))
    assert repr(ours) == repr(theirs)


def test_adaptive_avg_pool_1d(torch):
    run_both(torch, nn.AdaptiveAvgPool1d(4), torch.nn.AdaptiveAvgPool1d(4), data(2, 3, 9))


# -- normalisation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("momentum", [0.1, None, 0.5])
def test_batch_norm2d_training_updates_running_stats_like_torch(torch, momentum):
    ours, theirs = nn.BatchNorm2d(3, momentum=momentum), torch.nn.BatchNorm2d(3, momentum=momentum)
    load_from_torch(ours, theirs)
    for step in range(3):
        x = data(4, 3, 5, 5, seed=step) * (step + 1) + step
        a = ours(tensorlab.tensor(x))
        b = theirs(torch.tensor(x))
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-4, atol=1e-5)
    for (k, v), (k_t, v_t) in zip(ours.state_dict().items(), theirs.state_dict().items()):
        assert k == k_t
        np.testing.assert_allclose(v.numpy(), v_t.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
    assert ours.num_batches_tracked.item() == 3 and ours.num_batches_tracked.dtype == tensorlab.int64


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5)])
def test_batch_norm1d_matches_torch(torch, train, shape):
    ours, theirs = nn.BatchNorm1d(3), torch.nn.BatchNorm1d(3)
    with torch.no_grad():
        theirs.running_mean.uniform_(-1, 1)
        theirs.running_var.uniform_(0.5, 2)
        theirs.weight.uniform_(0.5, 2)
        theirs.bias.uniform_(-1, 1)
    ours.train(train), theirs.train(train)
    run_both(torch, ours, theirs, data(*shape), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ours.running_var.numpy(), theirs.running_var.numpy(), rtol=1e-5)


def test_batch_norm_failed_call_changes_nothing():
    bn = nn.BatchNorm2d(3)
    with pytest.raises(RuntimeError, match="running_mean should contain 4 elements not 3"):
        bn(tensorlab.randn(2, 4, 3, 3))
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        bn(tensorlab.randn(1, 3, 1, 1))
    assert bn.num_batches_tracked.item() == 0
    np.testing.assert_array_equal(bn.running_mean.numpy(), 0)


@pytest.mark.parametrize("kwargs", [dict(affine=False), dict(track_running_stats=False), dict(bias=False)])
def test_batch_norm_options(torch, kwargs):
    ours, theirs = nn.BatchNorm2d(2, **kwargs), torch.nn.BatchNorm2d(2, **kwargs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    run_both(torch, ours, theirs, data(3, 2, 4, 4), rtol=1e-4, atol=1e-5)
    ours.eval(), theirs.eval()
    run_both(torch, ours, theirs, data(3, 2, 4, 4, seed=3), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kwargs", [dict(normalized_shape=5), dict(normalized_shape=(4, 5)),
                                    dict(normalized_shape=5, elementwise_affine=False),
                                    dict(normalized_shape=5, bias=False)])
def test_layer_norm_matches_torch(torch, kwargs):
    ours, theirs = nn.LayerNorm(**kwargs), torch.nn.LayerNorm(**kwargs)
    with torch.no_grad():
        for p in theirs.parameters():
            p.uniform_(-2, 2)
    run_both(torch, ours, theirs, data(3, 4, 5), rtol=1e-4, atol=1e-5)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("groups,affine", [(1, True), (2, True), (4, False)])
def test_group_norm_matches_torch(torch, groups, affine):
    ours, theirs = nn.GroupNorm(groups, 4, affine=affine), torch.nn.GroupNorm(groups, 4, affine=affine)
    with torch.no_grad():
        for p in theirs.parameters():
            p.uniform_(-2, 2)
    run_both(torch, ours, theirs, data(3, 4, 3, 2), rtol=1e-4, atol=1e-5)
    assert repr(ours) == repr(theirs)


# -- dropout, embedding, flatten ---------------------------------------------------------------------------


def test_dropout_train_and_eval():
    tensorlab.manual_seed(0)
    layer = nn.Dropout(0.3)
    x = tensorlab.ones(1000, 100, requires_grad=True)
    y = layer(x)
    kept = y.detach().numpy() != 0
    assert abs(kept.mean() - 0.7) < 0.01
    np.testing.assert_allclose(y.detach().numpy()[kept], 1 / 0.7, rtol=1e-6)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), y.detach().numpy())   # the same mask scales the gradient
    layer.eval()
    assert layer(x) is x
    tensorlab.manual_seed(5)
    a = nn.Dropout()(tensorlab.ones(50))
    tensorlab.manual_seed(5)
    b = nn.Dropout()(tensorlab.ones(50))
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_dropout2d_drops_whole_channels():
    tensorlab.manual_seed(1)
    y = nn.Dropout2d(0.5)(tensorlab.ones(8, 16, 3, 3)).numpy()
    per_channel = y.reshape(8, 16, 9)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2).all(-1))


def test_dropout_inplace_and_p_bounds(torch):
    x = tensorlab.ones(10)
    assert nn.Dropout(0.5, inplace=True)(x) is x
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        nn.Dropout(1.5)
    assert repr(nn.Dropout(0.3, inplace=True)) == repr(torch.nn.Dropout(0.3, inplace=True))
    assert nn.functional.dropout(tensorlab.ones(4), 1.0).sum().item() == 0


@pytest.mark.parametrize("kwargs", [dict(), dict(padding_idx=0), dict(padding_idx=-2),
                                    dict(scale_grad_by_freq=True), dict(max_norm=1.0, norm_type=1.0)])
def test_embedding_matches_torch(torch, kwargs):
    ours, theirs = nn.Embedding(10, 4, **kwargs), torch.nn.Embedding(10, 4, **kwargs)
    idx = np.array([[1, 2, 0, 2], [8, 2, 3, 0]], dtype=np.int64)
    run_both(torch, ours, theirs, idx, int_inputs=(0,))
    assert repr(ours) == repr(theirs)


def test_embedding_init_and_padding_row():
    tensorlab.manual_seed(0)
    layer = nn.Embedding(500, 20, padding_idx=3)
    w = layer.weight.detach().numpy()
    assert np.all(w[3] == 0)
    others = np.delete(w, 3, axis=0)
    assert abs(others.mean()) < 0.02 and abs(others.std() - 1) < 0.02


def test_embedding_from_pretrained_and_errors(torch):
    table = tensorlab.tensor([[1.0, 2.0], [3.0, 4.0]])
    emb = nn.Embedding.from_pretrained(table)
    assert not emb.weight.requires_grad
    np.testing.assert_array_equal(emb(tensorlab.tensor([1, 0])).numpy(), [[3, 4], [1, 2]])
    with pytest.raises(IndexError, match="index out of range in self"):
        emb(tensorlab.tensor([2]))
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices'"):
        emb(tensorlab.tensor([1.0]))


def test_flatten_unflatten(torch):
    run_both(torch, nn.Flatten(), torch.nn.Flatten(), data(2, 3, 4, 5))
    run_both(torch, nn.Flatten(0, 2), torch.nn.Flatten(0, 2), data(2, 3, 4, 5))
    run_both(torch, nn.Unflatten(1, (3, 4)), torch.nn.Unflatten(1, (3, 4)), data(2, 12))
    assert repr(nn.Unflatten(1, (3, 1))) == repr(torch.nn.Unflatten(1, (3, 1)))
    assert repr(nn.Flatten()) == repr(torch.nn.Flatten())


# -- padding and upsampling layers ----------------------------------------------------------------------------


@pytest.mark.parametrize("name,args", [("ZeroPad2d", (1,)), ("ReflectionPad2d", ((1, 2, 0, 1),)),
                                       ("ReplicationPad2d", (2,)), ("ConstantPad1d", (2, 3.5)),
                                       ("ReflectionPad1d", (2,)), ("CircularPad2d", (1,))])
def test_padding_layers(torch, name, args):
    ours, theirs = getattr(nn, name)(*args), getattr(torch.nn, name)(*args)
    run_both(torch, ours, theirs, data(2, 3, 4, 5) if "1d" not in name else data(2, 3, 5))
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("kwargs", [dict(scale_factor=2), dict(size=(5, 7), mode="bilinear"),
                                    dict(scale_factor=1.5, mode="bilinear", align_corners=True)])
def test_upsample(torch, kwargs):
    ours, theirs = nn.Upsample(**kwargs), torch.nn.Upsample(**kwargs)
    run_both(torch, ours, theirs, data(2, 3, 4, 4), rtol=1e-5, atol=1e-5)
    assert repr(ours) == repr(theirs)


# -- default initialisation --------------------------------------------------------------------------------------


def _within(t, bound):
    a = t.detach().numpy()
    return a.min() >= -bound and a.max() <= bound and a.max() > 0.8 * bound and a.min() < -0.8 * bound


def test_default_init_follows_torch_bounds():
    tensorlab.manual_seed(0)
    lin = nn.Linear(50, 300)
    assert _within(lin.weight, 1 / math.sqrt(50)) and _within(lin.bias, 1 / math.sqrt(50))
    conv = nn.Conv2d(4, 64, 3, groups=2)
    fan_in = 2 * 9
    assert _within(conv.weight, 1 / math.sqrt(fan_in)) and _within(conv.bias, 1 / math.sqrt(fan_in))
    convt = nn.ConvTranspose2d(64, 8, 3)
    assert _within(convt.weight, 1 / math.sqrt(8 * 9))
    bil = nn.Bilinear(20, 30, 40)
    assert _within(bil.weight, 1 / math.sqrt(20))
    bn = nn.BatchNorm2d(3)
    np.testing.assert_array_equal(bn.weight.detach().numpy(), 1)
    np.testing.assert_array_equal(bn.bias.detach().numpy(), 0)
    np.testing.assert_array_equal(bn.running_var.numpy(), 1)
    # uniform: the variance of U(-b, b) is b^2 / 3
    w = nn.Linear(400, 400).weight.detach().numpy()
    assert abs(w.var() - (1 / 400) / 3) / ((1 / 400) / 3) < 0.05


def test_parameters_have_requested_dtype():
    lin = nn.Linear(2, 3, dtype=tensorlab.float64)
    assert lin.weight.dtype == tensorlab.float64 and lin.bias.dtype == tensorlab.float64
    assert nn.Conv2d(1, 1, 1).weight.dtype == tensorlab.float32
