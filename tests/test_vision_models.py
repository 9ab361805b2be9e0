"""vision.models: shapes, parameter counts, printed trees, and ResNet's BasicBlock against PyTorch."""
import numpy as np
import pytest

import tensorlab
from tensorlab.vision.models import MLP, BasicBlock, LeNet5, ResNet, resnet_tiny


def _count(model):
    return sum(p.numel() for p in model.parameters())


def test_mlp_shapes_and_parameter_count():
    model = MLP(64, (128, 32), 10)
    assert model(tensorlab.randn(5, 1, 8, 8)).shape == (5, 10)
    assert _count(model) == (64 * 128 + 128) + (128 * 32 + 32) + (32 * 10 + 10)
    assert "Dropout" in repr(MLP(64, (16,), 10, dropout=0.5))


def test_lenet5_for_28x28_is_the_classic_61706_parameters():
    model = LeNet5()
    assert model(tensorlab.randn(2, 1, 28, 28)).shape == (2, 10)
    assert _count(model) == 61706
    assert "Linear(in_features=400, out_features=120, bias=True)" in repr(model)


def test_lenet5_for_8x8_digits_pads_conv2_and_flattens_16x2x2():
    model = LeNet5(input_size=8)
    assert model(tensorlab.randn(3, 1, 8, 8)).shape == (3, 10)
    text = repr(model)
    assert "Conv2d(6, 16, kernel_size=(5, 5), stride=(1, 1), padding=(2, 2))" in text
    assert "Linear(in_features=64, out_features=120, bias=True)" in text
    assert LeNet5(num_classes=5, in_channels=3, input_size=32)(tensorlab.randn(1, 3, 32, 32)).shape == (1, 5)
    with pytest.raises(ValueError, match="too small"):
        LeNet5(input_size=2)


def test_lenet5_matches_the_same_network_in_torch(torch):
    ours = LeNet5(input_size=8)
    theirs = torch.nn.Sequential(
        torch.nn.Conv2d(1, 6, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(6, 16, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(64, 120), torch.nn.ReLU(), torch.nn.Linear(120, 84), torch.nn.ReLU(),
        torch.nn.Linear(84, 10))
    with torch.no_grad():
        for p_ours, p_theirs in zip(ours.parameters(), theirs.parameters()):
            p_theirs.copy_(torch.from_numpy(p_ours.detach().numpy().copy()))
    x = np.random.default_rng(0).standard_normal((4, 1, 8, 8)).astype(np.float32)
    np.testing.assert_allclose(ours(tensorlab.from_numpy(x.copy())).detach().numpy(),
                               theirs(torch.from_numpy(x)).detach().numpy(), rtol=1e-4, atol=1e-5)


def test_basic_block_keeps_or_halves_the_size():
    same = BasicBlock(8, 8)
    assert same.downsample is None and same(tensorlab.randn(2, 8, 6, 6)).shape == (2, 8, 6, 6)
    down = BasicBlock(8, 16, stride=2)
    assert down(tensorlab.randn(2, 8, 6, 6)).shape == (2, 16, 3, 3)
    assert set(down.state_dict()) >= {"conv1.weight", "bn1.weight", "bn1.running_mean", "conv2.weight",
                                      "bn2.bias", "downsample.0.weight", "downsample.1.running_var"}


def test_basic_block_is_relu_of_residual_plus_shortcut(torch):
    block = BasicBlock(4, 6, stride=2)
    x = np.random.default_rng(1).standard_normal((2, 4, 6, 6)).astype(np.float32)
    params = {k: torch.from_numpy(v.detach().numpy().copy()) for k, v in block.state_dict().items()}
    F = torch.nn.functional

    def bn(t, prefix):     # training mode: normalise with the batch's statistics
        return F.batch_norm(t, None, None, params[prefix + ".weight"], params[prefix + ".bias"], training=True)

    t = torch.from_numpy(x)
    out = F.relu(bn(F.conv2d(t, params["conv1.weight"], stride=2, padding=1), "bn1"))
    out = bn(F.conv2d(out, params["conv2.weight"], padding=1), "bn2")
    shortcut = bn(F.conv2d(t, params["downsample.0.weight"], stride=2), "downsample.1")
    expected = F.relu(out + shortcut)
    np.testing.assert_allclose(block(tensorlab.from_numpy(x.copy())).detach().numpy(), expected.numpy(),
                               rtol=1e-4, atol=1e-5)


def test_tiny_resnet_shapes_stages_and_repr():
    model = resnet_tiny()
    assert model(tensorlab.randn(2, 1, 8, 8)).shape == (2, 10)
    text = repr(model)
    assert text.startswith("ResNet(\n  (conv1): Conv2d(1, 8, kernel_size=(3, 3)")
    assert "(layer3): Sequential(\n    (0): BasicBlock(" in text and "(downsample): Sequential(" in text
    assert "(fc): Linear(in_features=32, out_features=10, bias=True)" in text
    deeper = ResNet(layers=(2, 2, 2), num_classes=3, in_channels=3, width=4)
    assert deeper(tensorlab.randn(1, 3, 32, 32)).shape == (1, 3)
    assert len(deeper.layer2) == 2


def test_models_train_one_step():
    model = resnet_tiny()
    loss = tensorlab.nn.functional.cross_entropy(model(tensorlab.randn(4, 1, 8, 8)), tensorlab.tensor([0, 1, 2, 3]))
    loss.backward()
    assert all(p.grad is not None for p in model.parameters())
