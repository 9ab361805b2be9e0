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


def _downsample(inplanes, planes, stride, nn=tensorlab.nn):
    return nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride=stride, bias=False), nn.BatchNorm2d(planes))


def test_basic_block_keeps_or_halves_the_size():
    same = BasicBlock(8, 8)
    assert same.downsample is None and same(tensorlab.randn(2, 8, 6, 6)).shape == (2, 8, 6, 6)
    down = BasicBlock(8, 16, stride=2, downsample=_downsample(8, 16, 2))
    assert down(tensorlab.randn(2, 8, 6, 6)).shape == (2, 16, 3, 3)
    assert list(down.state_dict()) == [
        "conv1.weight", "bn1.weight", "bn1.bias", "bn1.running_mean", "bn1.running_var", "bn1.num_batches_tracked",
        "conv2.weight", "bn2.weight", "bn2.bias", "bn2.running_mean", "bn2.running_var", "bn2.num_batches_tracked",
        "downsample.0.weight", "downsample.1.weight", "downsample.1.bias", "downsample.1.running_mean",
        "downsample.1.running_var", "downsample.1.num_batches_tracked"]


def test_basic_block_builds_no_shortcut_of_its_own_and_refuses_what_torchvision_refuses():
    """As torchvision's: a block that changes the shape needs a downsample passed in (ResNet._make_layer
    builds it); without one the addition fails."""
    with pytest.raises(RuntimeError, match="must match the size"):
        BasicBlock(8, 16, stride=2)(tensorlab.randn(1, 8, 6, 6))
    with pytest.raises(ValueError, match="only supports groups=1 and base_width=64"):
        BasicBlock(8, 8, groups=2)
    with pytest.raises(NotImplementedError, match="Dilation > 1 not supported"):
        BasicBlock(8, 8, dilation=2)
    assert "(relu): ReLU(inplace=True)" in repr(BasicBlock(2, 2))


def _torchvision_basic_block(torch, inplanes, planes, stride):
    """torchvision's BasicBlock, written out with the same names (torchvision is not a dependency)."""
    nn = torch.nn

    class TorchBasicBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 3, stride=stride, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.downsample = _downsample(inplanes, planes, stride, nn) if stride != 1 or inplanes != planes else None

        def forward(self, x):
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.downsample is not None:
                identity = self.downsample(x)
            out += identity
            return self.relu(out)
    return TorchBasicBlock()


@pytest.mark.parametrize("inplanes, planes, stride", [(4, 4, 1), (4, 6, 2)])
def test_basic_block_matches_torchvisions_after_loading_its_state_dict(torch, inplanes, planes, stride):
    """state_dict keys line up; forward, the input's gradient and the running statistics agree in
    training mode, and the output in eval mode."""
    ours = BasicBlock(inplanes, planes, stride,
                      _downsample(inplanes, planes, stride) if stride != 1 or inplanes != planes else None)
    rng = np.random.default_rng(2)
    with tensorlab.no_grad():
        for name, p in ours.named_parameters():       # BatchNorm's weight and bias away from 1 and 0
            p.copy_(tensorlab.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
    theirs = _torchvision_basic_block(torch, inplanes, planes, stride)
    assert list(theirs.state_dict()) == list(ours.state_dict())
    theirs.load_state_dict({k: torch.from_numpy(v.numpy().copy()) for k, v in ours.state_dict().items()})
    x = rng.standard_normal((3, inplanes, 6, 6)).astype(np.float32)
    g = rng.standard_normal((3, planes, 6 // stride, 6 // stride)).astype(np.float32)
    x_ours = tensorlab.from_numpy(x.copy()).requires_grad_()
    x_theirs = torch.from_numpy(x.copy()).requires_grad_()
    out_ours, out_theirs = ours(x_ours), theirs(x_theirs)
    np.testing.assert_allclose(out_ours.detach().numpy(), out_theirs.detach().numpy(), rtol=1e-4, atol=1e-5)
    assert out_ours.grad_fn.name() == out_theirs.grad_fn.name()
    out_ours.backward(tensorlab.from_numpy(g.copy()))
    out_theirs.backward(torch.from_numpy(g))
    np.testing.assert_allclose(x_ours.grad.numpy(), x_theirs.grad.numpy(), rtol=1e-4, atol=1e-4)
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-4, err_msg=name)
    for (name, a), (_, b) in zip(ours.named_buffers(), theirs.named_buffers()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
    ours.eval(), theirs.eval()
    with tensorlab.no_grad(), torch.no_grad():
        np.testing.assert_allclose(ours(tensorlab.from_numpy(x.copy())).numpy(), theirs(torch.from_numpy(x)).numpy(),
                                   rtol=1e-4, atol=1e-5)


def test_basic_block_is_relu_of_residual_plus_shortcut(torch):
    block = BasicBlock(4, 6, stride=2, downsample=_downsample(4, 6, 2))
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
    assert model.layer1[0].downsample is None and model.layer2[0].downsample is not None
    deeper = ResNet(layers=(2, 2, 2), num_classes=3, in_channels=3, width=4)
    assert deeper(tensorlab.randn(1, 3, 32, 32)).shape == (1, 3)
    assert len(deeper.layer2) == 2


def test_models_train_one_step():
    model = resnet_tiny()
    loss = tensorlab.nn.functional.cross_entropy(model(tensorlab.randn(4, 1, 8, 8)), tensorlab.tensor([0, 1, 2, 3]))
    loss.backward()
    assert all(p.grad is not None for p in model.parameters())
