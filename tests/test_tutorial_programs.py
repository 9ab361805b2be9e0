"""Short programs in the style of the tutorials learners arrive with -- PyTorch's "Learn the Basics" and
"60-minute blitz", d2l's preliminaries, builders' guide and CNN chapters, makemore-style character
models, a micrograd-style autograd check -- each run end to end on tensorlab (``import tensorlab as
torch``) and, with PyTorch installed, on torch, and their printed output compared.

The programs are written for these tests. They print only what both libraries compute the same way:
shapes, dtypes, reprs of values computed from fixed inputs (rounded where float32 sums may differ in the
last digit), never freshly drawn random numbers (the two libraries' generators differ by design).
"""
import contextlib
import io
import os
import re
import tempfile
import warnings

import pytest

PROGRAMS = {}


def program(fn):
    """Register a program: its source is the function's docstring."""
    PROGRAMS[fn.__name__] = fn.__doc__
    return fn


@program
def tensors_and_devices():
    r"""
import numpy as np
import torch

rows = [[1, 2], [3, 4]]
from_list = torch.tensor(rows)
from_array = torch.from_numpy(np.array(rows))
print(f"ones like:\n{torch.ones_like(from_list)}")
print(torch.rand_like(from_list, dtype=torch.float).shape, from_array.dtype)
t = torch.ones(3, 4)
print(f"shape {t.shape}, dtype {t.dtype}, device {t.device}")
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
other = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
print(device in ("cpu", "cuda"), other in ("cpu", "cuda"))
t[:, 1] = 0
print(t[0], t[:, 0], t[..., -1])
print(torch.cat([t, t], dim=1).shape)
product = torch.empty(3, 3)
torch.matmul(t, t.T, out=product)
print(product, t @ t.T == product)
elementwise = torch.rand_like(t)
torch.mul(t, t, out=elementwise)
total = t.sum()
print(total, total.item(), type(total.item()).__name__, f"{total}", f"{total:.1f}")
t.add_(5)
print(t)
n = t.numpy()
t.mul_(2)
print(n[0])
a = np.zeros(3)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(b)
print(type(t), type(torch.Size([1])).__name__, torch.typename(t))
"""


@program
def a_model_and_its_gradients():
    r"""
import torch
from torch import nn

class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.stack = nn.Sequential(nn.Linear(4 * 4, 8), nn.ReLU(), nn.Linear(8, 3))

    def forward(self, x):
        return self.stack(self.flatten(x))

model = Classifier()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-0.2, 0.2, p.numel()).reshape(p.shape))
print(model)
images = torch.arange(2 * 4 * 4, dtype=torch.float32).reshape(2, 4, 4) / 32
logits = model(images)
probabilities = nn.Softmax(dim=1)(logits)
print(probabilities.argmax(1), probabilities.sum(axis=1).round(decimals=4))
for name, param in model.named_parameters():
    print(f"{name} | {param.size()} | {param[:1].shape}")

x = torch.ones(4)
target = torch.tensor([1.0, 0.0])
w = torch.linspace(-1, 1, 8).reshape(4, 2).requires_grad_()
b = torch.zeros(2, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, target)
print(z.grad_fn.name(), loss.grad_fn.name())
loss.backward()
print(w.grad, b.grad)
with torch.no_grad():
    print((x @ w + b).requires_grad, z.detach().requires_grad)
inp = torch.eye(3, 4, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
out.backward(torch.ones_like(out), retain_graph=True)
print(inp.grad)
inp.grad.zero_()
print(inp.grad.sum())
"""


@program
def a_training_loop():
    r"""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

features = torch.linspace(-1, 1, 48).reshape(24, 2)
labels = (features[:, 0] > features[:, 1]).long()
loader = DataLoader(TensorDataset(features, labels), batch_size=8)
model = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (-1) ** i)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
size = len(loader.dataset)
for epoch in range(4):
    model.train()
    for batch, (X, y) in enumerate(loader):
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            print(f"loss: {loss.item():>.3f}  [{batch * 8 + len(X):>3d}/{size:>3d}]")
    model.eval()
    correct = 0
    with torch.no_grad():
        for X, y in loader:
            correct += (model(X).argmax(1) == y).type(torch.float).sum().item()
    print(f"epoch {epoch + 1}: accuracy {100 * correct / size:>0.1f}%")
"""


@program
def preliminaries():
    r"""
import torch
from torch.distributions.multinomial import Multinomial

x = torch.arange(12, dtype=torch.float32)
X = x.reshape(3, -1)
print(x.numel(), X.shape, torch.zeros((2, 3, 4)).shape)
X[1, 2] = 17
X[:2, :] = 12
print(X)
a, b = torch.arange(3).reshape((3, 1)), torch.arange(2).reshape((1, 2))
print(a + b)
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0).shape, (X == Y).sum())
A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
print(A.sum(axis=0), A.sum(axis=[0, 1]), A.mean(axis=0), A.sum(axis=1, keepdims=True))
print(A / A.sum(axis=1, keepdims=True))
print(A.cumsum(axis=0), A.argmax(axis=1))
v = torch.arange(3, dtype=torch.float32)
print(torch.dot(v, torch.ones(3)), torch.mv(A, v), A @ torch.ones(3, 2))
print(torch.norm(torch.tensor([3.0, -4.0])), torch.abs(torch.tensor([3.0, -4.0])).sum())
scalar = torch.tensor([3.5])
print(scalar.item(), float(scalar), int(scalar))

x = torch.arange(4.0)
x.requires_grad_(True)
y = 2 * torch.dot(x, x)
y.backward()
print(x.grad, x.grad == 4 * x)
x.grad.zero_()
y = x * x
u = y.detach()
(u * x).sum().backward()
print(x.grad == u)

def doubling(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    return b if b.sum() > 0 else 100 * b

a = torch.tensor(0.3, requires_grad=True)
d = doubling(a)
d.backward()
print(a.grad == d / a)
fair = torch.ones([6]) / 6
counts = Multinomial(10, fair).sample((50,))
print(counts.shape, counts.sum(dim=1).unique(), Multinomial(10, fair).log_prob(torch.tensor([10., 0, 0, 0, 0, 0])))
estimates = counts.cumsum(dim=0) / counts.cumsum(dim=0).sum(dim=1, keepdims=True)
print(estimates.shape)
"""


@program
def builders_guide():
    r"""
import os
import torch
from torch import nn
from torch.nn import functional as F

net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
print(net, net[0].weight)
X = torch.linspace(0, 1, 10).reshape(2, 5)
print(net(X).shape)
print(net)
print([(name, param.shape) for name, param in net.named_parameters()])
print(type(net[2].bias).__name__, net[2].weight.grad is None, net[2].state_dict().keys())

def init_constant(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 0.5)
        nn.init.zeros_(module.bias)

net.apply(init_constant)
print(net(X))
net[0].weight.data[:] += 1
net[0].weight.data[0, 0] = 42
print(net[0].weight.data[0])
shared = nn.LazyLinear(4)
net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), shared, nn.ReLU(), shared, nn.LazyLinear(1))
net(X)
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])

class CenteredLayer(nn.Module):
    def forward(self, X):
        return X - X.mean()

print(CenteredLayer()(torch.tensor([1.0, 2, 3, 4, 5])))

class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(in_units, units) / in_units)
        self.bias = nn.Parameter(torch.zeros(units))

    def forward(self, X):
        return F.relu(torch.matmul(X, self.weight.data) + self.bias.data)

print(MyLinear(5, 3)(X))
net = nn.Sequential(nn.LazyLinear(3), nn.ReLU(), nn.LazyLinear(2))
net(X)
path = os.path.join(TMP, "mlp.params")
torch.save(net.state_dict(), path)
clone = nn.Sequential(nn.LazyLinear(3), nn.ReLU(), nn.LazyLinear(2))
print(clone.load_state_dict(torch.load(path)))
print(clone.eval(), (clone(X) == net(X)).all())
"""


@program
def convolutions():
    r"""
import torch
from torch import nn
from torch.nn import functional as F

def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y

X = torch.ones((6, 8))
X[:, 2:6] = 0
Y = corr2d(X, torch.tensor([[1.0, -1.0]]))
print(Y)
conv = nn.LazyConv2d(1, kernel_size=(1, 2), bias=False)
conv(X.reshape((1, 1, 6, 8)))
conv.weight.data.fill_(0.5)
for i in range(10):
    loss = ((conv(X.reshape((1, 1, 6, 8))) - Y.reshape((1, 1, 6, 7))) ** 2).sum()
    conv.zero_grad()
    loss.backward()
    conv.weight.data[:] -= 3e-2 * conv.weight.grad
print(conv.weight.data.reshape((1, 2)).round(decimals=3))
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape)
pool = nn.MaxPool2d(3, padding=1, stride=2)
print(pool(torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))))
lenet = nn.Sequential(
    nn.LazyConv2d(6, kernel_size=5, padding=2), nn.LazyBatchNorm2d(), nn.Sigmoid(), nn.AvgPool2d(2, stride=2),
    nn.LazyConv2d(16, kernel_size=5), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(), nn.LazyLinear(120), nn.LazyBatchNorm1d(), nn.Sigmoid(), nn.LazyLinear(10))
X = torch.zeros(2, 1, 28, 28)
for layer in lenet:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape:\t', X.shape)

class Residual(nn.Module):
    def __init__(self, channels, strides=1):
        super().__init__()
        self.conv1 = nn.LazyConv2d(channels, kernel_size=3, padding=1, stride=strides)
        self.conv2 = nn.LazyConv2d(channels, kernel_size=3, padding=1)
        self.conv3 = nn.LazyConv2d(channels, kernel_size=1, stride=strides)
        self.bn1, self.bn2 = nn.LazyBatchNorm2d(), nn.LazyBatchNorm2d()

    def forward(self, X):
        Y = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(X)))))
        Y += self.conv3(X)
        return F.relu(Y)

print(Residual(6, strides=2)(torch.zeros(4, 3, 6, 6)).shape)
print(nn.Sequential(nn.LazyConv2d(4, 3), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten())(torch.zeros(1, 2, 5, 5)).shape)
"""


@program
def character_bigrams():
    r"""
import torch
import torch.nn.functional as F

names = ["ana", "bob", "eve", "otto", "hannah"]
chars = sorted(set("".join(names)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
for name in names:
    chs = ["."] + list(name) + ["."]
    for a, b in zip(chs, chs[1:]):
        N[stoi[a], stoi[b]] += 1
print(N[0], N.sum(), N.dtype)
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P[0].sum().round(decimals=4), P.shape)
g = torch.Generator().manual_seed(2147483647)
drawn = torch.multinomial(P[0], num_samples=5, replacement=True, generator=g)
print(drawn.shape, drawn.dtype, torch.randn((3, 2), generator=g).shape, torch.randint(0, 5, (4,), generator=g).dtype)
log_likelihood, n = 0.0, 0
for name in names:
    chs = ["."] + list(name) + ["."]
    for a, b in zip(chs, chs[1:]):
        log_likelihood += torch.log(P[stoi[a], stoi[b]])
        n += 1
print(f"{-log_likelihood / n:.4f}")
xs, ys = [], []
for name in names:
    chs = ["."] + list(name) + ["."]
    for a, b in zip(chs, chs[1:]):
        xs.append(stoi[a])
        ys.append(stoi[b])
xs, ys = torch.tensor(xs), torch.tensor(ys)
num = xs.nelement()
W = torch.linspace(-1, 1, V * V).reshape(V, V)
W.requires_grad = True
for step in range(5):
    logits = F.one_hot(xs, num_classes=V).float() @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
    print(f"{loss.item():.4f}")
logprobs = F.log_softmax(logits, 1)
dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(num), ys] = -1.0 / num
print(torch.allclose(F.cross_entropy(logits, ys), -logprobs[range(num), ys].mean()), dlogprobs.sum().round(decimals=4))
C = torch.linspace(-1, 1, V * 2).reshape(V, 2)
context = torch.tensor([[0, 0, 1], [1, 2, 3]])
emb = C[context]
print(emb.shape, torch.cat(torch.unbind(emb, 1), 1).shape, emb.view(-1, 6).shape)

@torch.no_grad()
def evaluate():
    return F.cross_entropy(F.one_hot(xs, num_classes=V).float() @ W, ys)

print(evaluate().requires_grad, f"{evaluate():.4f}")
hist, edges = torch.histogram(W.detach().view(-1), bins=4)
print(hist, edges)
"""


@program
def scalar_autograd_check():
    r"""
import torch

x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
print(y.data.item(), x.grad.item())
a = torch.Tensor([-4.0]).double()
b = torch.Tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b ** 3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e ** 2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(f"{g.data.item():.6f} {a.grad.item():.6f} {b.grad.item():.6f}")
"""


@program
def older_spellings():
    r"""
import torch

v = torch.FloatTensor([0.1, 1.0])
idx = torch.LongTensor([2, 0])
print(v, idx, torch.FloatTensor(2, 3).shape, torch.DoubleTensor([1]).dtype)
print(v.type(), idx.type(torch.FloatTensor), isinstance(v, torch.FloatTensor), isinstance(idx, torch.FloatTensor))
print(torch.tensor(range(5)), torch.tensor((1, 2.5)), torch.tensor([torch.tensor(1.0), 2.0]))
print(torch.randn(size=(), requires_grad=True).shape, torch.rand(size=(2, 4)).shape, torch.randint(10, size=(3,)).shape)
print(torch.zeros(size=(2,)), torch.full(size=(2,), fill_value=7), torch.ones(size=(1, 2)).sum(axis=1, keepdims=True))
result = torch.empty(0)
torch.cat([v, v], out=result)
values, indices = torch.empty(0), torch.empty(0, dtype=torch.long)
torch.max(torch.tensor([[1.0, 5.0], [7.0, 2.0]]), 1, out=(values, indices))
print(result, values, indices)
print(torch.backends.cudnn.enabled, torch.backends.mps.is_available())
"""


def _run(lib_name, source):
    """Run a program on a library; its printed output, addresses masked."""
    if lib_name == "tensorlab":
        source = re.sub(r"^(\s*)import torch$", r"\1import tensorlab as torch", source, flags=re.M)
        source = re.sub(r"^(\s*)import torch\.(\S+) as", r"\1import tensorlab.\2 as", source, flags=re.M)
        source = re.sub(r"^(\s*)from torch(\.| )", r"\1from tensorlab\2", source, flags=re.M)
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(source, f"<{lib_name} program>", "exec"), {"TMP": tmp, "__name__": "__tutorial__"})
    text = re.sub(r"0x[0-9a-f]+", "0x...", out.getvalue())
    return text.replace("tensorlab", "torch")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_runs_on_tensorlab(name):
    """Each program runs to its end on tensorlab alone (PyTorch not needed)."""
    import tensorlab
    tensorlab.manual_seed(0)
    assert _run("tensorlab", PROGRAMS[name])


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_what_pytorch_prints(torch, name):
    import tensorlab
    tensorlab.manual_seed(0)
    torch.manual_seed(0)
    ours, theirs = _run("tensorlab", PROGRAMS[name]), _run("torch", PROGRAMS[name])
    assert ours.splitlines() == theirs.splitlines()


def test_programs_are_independent_of_the_working_directory():
    assert os.getcwd() and len(PROGRAMS) >= 9
