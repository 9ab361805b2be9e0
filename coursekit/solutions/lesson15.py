"""Reference solutions of course/15_normalization_and_regularization.ipynb's exercises (checks:
coursekit/lesson15.py)."""
import tensorlab as torch
from tensorlab import nn

# Exercise 1: the predictions of the table, in order.
predictions = ((3,), (5, 5), True, False, True, 1.25, 1.0, 0.05)


# Exercise 2: one training-mode step of BatchNorm1d's running statistics, by hand.
def update_running_stats(running_mean, running_var, x, momentum):
    mean = x.mean(dim=0)              # one mean per feature, over the batch
    var = x.var(dim=0)                # the running variance uses the *unbiased* variance (N - 1)
    new_mean = (1 - momentum) * running_mean + momentum * mean
    new_var = (1 - momentum) * running_var + momentum * var
    return new_mean, new_var


# Exercise 3: what a BatchNorm layer returns in eval mode, from its buffers and parameters.
def batchnorm_eval(x, bn):
    shape = (1, -1) + (1,) * (x.dim() - 2)     # (1, C) or (1, C, 1, 1): lines up with the channel dim
    mean = bn.running_mean.view(shape)
    var = bn.running_var.view(shape)
    x_hat = (x - mean) / torch.sqrt(var + bn.eps)
    return x_hat * bn.weight.view(shape) + bn.bias.view(shape)


# Exercise 4: ResNet's basic block (torchvision's BasicBlock; tensorlab/vision/models.py has the same).
class Block(nn.Module):
    def __init__(self, inplanes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(
                nn.Conv2d(inplanes, planes, kernel_size=1, stride=stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)   # the shortcut
        out = self.relu(self.bn1(self.conv1(x)))                          # the residual branch F(x) ...
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)                                  # ... plus the shortcut, then ReLU
