"""Small models for the course's image lessons, built from ``tensorlab.nn`` (print one to see its tree).

- ``MLP``: flatten the image, then Linear -> ReLU layers. The baseline every other model must beat.
- ``LeNet5``: LeCun et al.'s 1998 convolutional network, in its modern form (ReLU, max-pooling).
- ``BasicBlock`` and ``ResNet``: residual blocks (He et al., 2016) -- ``out = relu(F(x) + x)`` -- and a
  tiny ResNet for 8x8 digits, 28x28 MNIST or 32x32 colour images.
See course/14_convolution (LeNet) and course/15_normalization_and_regularization (ResNet).
"""
from .. import nn

__all__ = ["MLP", "LeNet5", "BasicBlock", "ResNet", "resnet_tiny"]


class MLP(nn.Module):
    """A multi-layer perceptron: ``Flatten``, then ``Linear -> ReLU (-> Dropout)`` per hidden size, then ``Linear``.

    ``MLP(64, [128], 10)`` classifies 8x8 digits; ``MLP(784, [256, 128], 10)`` MNIST.
    """

    def __init__(self, in_features=64, hidden=(128,), num_classes=10, dropout=0.0):
        super().__init__()
        layers, width = [nn.Flatten()], in_features
        for size in hidden:
            layers += [nn.Linear(width, size), nn.ReLU()]
            if dropout:
                layers.append(nn.Dropout(dropout))
            width = size
        layers.append(nn.Linear(width, num_classes))
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)


class LeNet5(nn.Module):
    """LeNet-5: two convolution + pooling stages that find strokes, then three fully connected layers.

    ::

        conv1  in_channels -> 6,  5x5, padding 2   (keeps the size)     -> ReLU -> max-pool 2x2
        conv2  6 -> 16,           5x5, padding p2                       -> ReLU -> max-pool 2x2
        fc1    16*s*s -> 120 -> ReLU,  fc2 120 -> 84 -> ReLU,  fc3 84 -> num_classes

    For 28x28 inputs (MNIST) ``p2 = 0``: 28 -> 28 -> 14 -> 10 -> 5, so ``s = 5`` as in the paper (whose
    32x32 inputs had no padding). For small inputs (``input_size < 16``, e.g. the 8x8 Digits) a 5x5
    window without padding would not fit twice, so conv2 pads by 2 too: 8 -> 8 -> 4 -> 4 -> 2, ``s = 2``.
    The layers and their roles stay the same; only the picture gets smaller. The original used tanh
    and average pooling; ReLU and max-pooling train faster, as every modern version does.
    """

    def __init__(self, num_classes=10, in_channels=1, input_size=28):
        super().__init__()
        pad2 = 2 if input_size < 16 else 0
        side = ((input_size // 2) + 2 * pad2 - 4) // 2
        if side < 1:
            raise ValueError(f"LeNet5: input_size={input_size} is too small (it needs at least 4 pixels)")
        self.features = nn.Sequential(
            nn.Conv2d(in_channels, 6, kernel_size=5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(6, 16, kernel_size=5, padding=pad2), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(16 * side * side, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
            nn.Linear(84, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


def conv3x3(in_planes, out_planes, stride=1):
    """3x3 convolution with padding 1: the size stays (or halves with stride 2). No bias: BatchNorm follows."""
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)


def conv1x1(in_planes, out_planes, stride=1):
    """1x1 convolution: changes the number of channels (and, with stride 2, halves the size) of a shortcut."""
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


class BasicBlock(nn.Module):
    """ResNet's basic block, as torchvision writes it: ``relu(bn2(conv2(relu(bn1(conv1(x))))) + identity)``.

    ``identity`` is ``x`` itself, or ``downsample(x)`` when a ``downsample`` module is given -- a
    1x1 convolution + BatchNorm that matches the shape when the block halves the size (``stride=2``)
    or changes the number of channels (``ResNet._make_layer`` builds it; the block never does, so
    ``BasicBlock(8, 16)`` without one fails at the addition, as in torchvision). The block learns only
    a *correction* ``F(x)`` to its input; the ``+ identity`` path lets gradients flow straight
    through (d(x + F(x))/dx = I + dF/dx), which is what makes very deep networks trainable. Names
    (``conv1``, ``bn1``, ``relu``, ``conv2``, ``bn2``, ``downsample``) are torchvision's, so printed
    trees and state_dict keys line up. See course/15_normalization_and_regularization.
    """

    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if groups != 1 or base_width != 64:
            raise ValueError("BasicBlock only supports groups=1 and base_width=64")
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity          # in place, as torchvision: bn2's output is not needed by its backward
        return self.relu(out)


class ResNet(nn.Module):
    """A small ResNet: a 3x3 stem, stages of ``BasicBlock``s (each stage after the first halves the
    size and doubles the channels), global average pooling, and one Linear classifier.

    ``ResNet(layers=(2, 2, 2), width=16)`` is the CIFAR-style ResNet-14; ``resnet_tiny`` uses one block
    per stage. Unlike ImageNet ResNets there is no 7x7 stem and no max-pool: inputs here are tiny. The
    stages, ``_make_layer`` (which adds the 1x1-conv + BatchNorm ``downsample`` where the shape
    changes) and the initialization (Kaiming for convolutions, BatchNorm weight 1 and bias 0) are
    torchvision's.
    """

    def __init__(self, block=BasicBlock, layers=(1, 1, 1), num_classes=10, in_channels=1, width=16):
        super().__init__()
        self.conv1 = conv3x3(in_channels, width)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.inplanes = width
        for i, blocks in enumerate(layers):
            stage = self._make_layer(block, width * 2 ** i, blocks, stride=1 if i == 0 else 2)
            setattr(self, f"layer{i + 1}", stage)
        self.num_stages = len(layers)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(self.inplanes, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    def _make_layer(self, block, planes, blocks, stride):
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(conv1x1(self.inplanes, planes * block.expansion, stride),
                                       nn.BatchNorm2d(planes * block.expansion))
        stage = [block(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * block.expansion
        stage += [block(self.inplanes, planes) for _ in range(1, blocks)]
        return nn.Sequential(*stage)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        for i in range(self.num_stages):
            x = getattr(self, f"layer{i + 1}")(x)
        return self.fc(self.avgpool(x).flatten(1))


def resnet_tiny(num_classes=10, in_channels=1, width=8):
    """Three stages of one BasicBlock each (widths 8, 16, 32): a ResNet that trains on Digits in seconds."""
    return ResNet(BasicBlock, (1, 1, 1), num_classes, in_channels, width)
