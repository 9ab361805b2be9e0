"""Device-independent behaviour, run on the device the session asks for (``pytest --device cuda``,
``TENSORLAB_TEST_DEVICE=cuda`` or ``make test-gpu``; the default is cpu, so CI runs these too).

Each test makes its tensors on ``device`` and checks them against the same computation by tensorlab on
the CPU (which the rest of the suite checks against PyTorch), and, where PyTorch can use that device
too, against PyTorch there. Covered: tensor core (creation, transfer, elementwise with Python scalars,
promotion, reductions, views, indexing, in-place writes and versions), autograd (backward, fan-in,
double backward, hooks), nn (an MLP and a small CNN training step, ``Module.to``, state dicts), optim
(SGD with momentum, Adam) and seeded randomness. Without a usable GPU every test here skips, saying why.
"""
import numpy as np
import pytest

import tensorlab

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4))
B = RNG.standard_normal((3, 4))
ROW = RNG.standard_normal(4)


def on(device, array, requires_grad=False, dtype=None):
    return tensorlab.tensor(array, device=device, requires_grad=requires_grad, dtype=dtype)


def host(t):
    """A tensor's values as a NumPy array, from any device."""
    return t.detach().cpu().numpy()


def close(ours, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(host(ours), host(expected) if hasattr(expected, "cpu") else expected,
                               rtol=rtol, atol=atol)


# -- tensor core ----------------------------------------------------------------------------------------
def test_creation_and_transfer(device):
    made = [tensorlab.zeros(2, 3, device=device), tensorlab.ones(2, device=device),
            tensorlab.full((2,), 7.0, device=device), tensorlab.arange(5, device=device),
            tensorlab.empty(3, device=device), tensorlab.randn(4, device=device),
            tensorlab.zeros_like(on(device, A)), on(device, A)]
    for t in made:
        assert t.device == device
        assert t.is_cuda == (device.type == "cuda")
    x = on(device, A)
    np.testing.assert_array_equal(host(x), A)
    assert x.tolist() == A.tolist()
    assert x.sum().item() == pytest.approx(A.sum())
    back = x.cpu()
    assert back.device.type == "cpu" and back.to(device).device == device
    np.testing.assert_array_equal(x.to("cpu").numpy(), A)


@pytest.mark.parametrize("expression", [
    lambda a, b: a * 2 + 1,                      # Python scalars: no device array per op
    lambda a, b: 1 - a / 2.5,
    lambda a, b: a + b * b,
    lambda a, b: a - b[0],                       # broadcasting
    lambda a, b: a ** 2 + a.abs().sqrt(),
    lambda a, b: (-a).exp().log1p(),
    lambda a, b: a.relu() + a.sigmoid() + a.tanh(),
    lambda a, b: a.clamp(-0.5, 0.5),
    lambda a, b: tensorlab.where(a > b, a, b),
    lambda a, b: (a > 0) & (b < 0),
    lambda a, b: (a * 10).int() // 3 + 1,        # integer arithmetic
    lambda a, b: a.float() * 3,                  # float32 with a Python int stays float32
    lambda a, b: a.to(tensorlab.float16) + 1,
], ids=lambda f: "")
def test_elementwise_matches_cpu(device, expression):
    cpu = expression(tensorlab.tensor(A), tensorlab.tensor(B))
    ours = expression(on(device, A), on(device, B))
    assert ours.device == device and ours.dtype == cpu.dtype and ours.shape == cpu.shape
    close(ours, cpu, rtol=1e-3 if cpu.dtype == tensorlab.float16 else 1e-6)


def test_reductions_views_and_indexing(device):
    for make in (tensorlab.tensor, lambda a: on(device, a)):
        a = make(A)
        results = [a.sum(), a.mean(0), a.max(1).values, a.argmax(1), a.std(), a.t().contiguous(),
                   a.view(4, 3), a[:, 1::2], a[[0, 2]], a[a > 0], tensorlab.cat([a, a], 1),
                   tensorlab.stack([a, a]), a @ a.t(), a.softmax(1), a.cumsum(0), a.sort(1).values]
        if make is tensorlab.tensor:
            expected = results
        else:
            for ours, cpu in zip(results, expected):
                assert ours.device == device and ours.dtype == cpu.dtype and ours.shape == cpu.shape
                assert ours.stride() == cpu.stride()
                close(ours, cpu)


def test_inplace_writes_views_and_versions(device):
    x = on(device, A)
    row = x[1]
    x.add_(1).mul_(2)
    row[0] = 5.0                                 # a write through a view reaches the base
    expected = (A + 1) * 2
    expected[1, 0] = 5.0
    np.testing.assert_allclose(host(x), expected)
    assert x._version == row._version == 3
    if device.type == "cuda":
        with pytest.raises(RuntimeError, match="same device"):
            _ = x + tensorlab.ones(3, 4)          # a CPU tensor with more than 0 dims


# -- autograd ---------------------------------------------------------------------------------------------
def _graph(a, w):
    """Reuse, broadcasting, a reduction and a 50-way fan-in into ``w``."""
    h = (a.unsqueeze(2) * w).tanh()
    fan = tensorlab.stack([w * float(i) for i in range(50)]).sum()
    return (h * h.exp()).sum() + (a * a).mean() + fan


def test_backward_matches_cpu(device):
    w_array = RNG.standard_normal((4, 2))
    grads = []
    for make in (tensorlab.tensor, lambda x, **k: on(device, x, **k)):
        a, w = make(A, requires_grad=True), make(w_array, requires_grad=True)
        _graph(a, w).backward()
        grads.append((a.grad, w.grad))
    (cpu_a, cpu_w), (dev_a, dev_w) = grads
    assert dev_a.device == device and dev_w.device == device
    close(dev_a, cpu_a, rtol=1e-10)
    close(dev_w, cpu_w, rtol=1e-10)


def test_double_backward_and_hooks(device):
    x = on(device, ROW, requires_grad=True)
    seen = []
    y = x ** 3
    y.register_hook(lambda g: seen.append(g.device))
    y.retain_grad()
    (g,) = tensorlab.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = tensorlab.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(host(g), 3 * ROW ** 2)
    np.testing.assert_allclose(host(gg), 6 * ROW)
    assert seen == [device]
    z = x * 2
    z.retain_grad()
    z.sum().backward()
    assert z.grad.device == device and x.grad.device == device


# -- nn and optim -----------------------------------------------------------------------------------------
def _mlp():
    n = tensorlab.nn
    return n.Sequential(n.Linear(8, 16), n.ReLU(), n.Linear(16, 3))


def _cnn():
    n = tensorlab.nn
    return n.Sequential(n.Conv2d(1, 4, 3, padding=1), n.BatchNorm2d(4), n.ReLU(), n.MaxPool2d(2),
                        n.Flatten(), n.Linear(4 * 4 * 4, 3))


@pytest.mark.parametrize("build, shape", [(_mlp, (6, 8)), (_cnn, (6, 1, 8, 8))], ids=["mlp", "cnn"])
@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_training_steps_match_cpu(device, build, shape, optimizer):
    x, y = RNG.standard_normal(shape).astype(np.float32), RNG.integers(0, 3, shape[0])
    tensorlab.manual_seed(0)
    cpu_model = build()
    dev_model = build()
    dev_model.load_state_dict(cpu_model.state_dict())
    dev_model.to(device)
    assert all(p.device == device for p in dev_model.parameters())
    assert all(b.device == device for b in dev_model.buffers())
    for model, where in ((cpu_model, "cpu"), (dev_model, device)):
        opt = (tensorlab.optim.SGD(model.parameters(), lr=0.1, momentum=0.9) if optimizer == "sgd"
               else tensorlab.optim.Adam(model.parameters(), lr=0.01))
        inputs, targets = tensorlab.tensor(x, device=where), tensorlab.tensor(y, device=where)
        for _ in range(3):
            loss = tensorlab.nn.functional.cross_entropy(model(inputs), targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
    for (name, ours), (_, cpu) in zip(dev_model.state_dict().items(), cpu_model.state_dict().items()):
        assert ours.device == device, name
        close(ours, cpu, rtol=1e-4, atol=1e-5)


def test_matches_torch_on_the_same_device(device, torch):
    if device.type == "cuda" and not torch.cuda.is_available():
        pytest.skip("PyTorch here cannot use cuda")
    w1, w2 = RNG.standard_normal((8, 16)), RNG.standard_normal((16, 3))
    x = RNG.standard_normal((5, 8))
    grads = {}
    for m, where in ((tensorlab, device), (torch, torch.device(str(device)))):
        params = [m.tensor(w, device=where, requires_grad=True) for w in (w1, w2)]
        loss = ((m.tensor(x, device=where) @ params[0]).relu() @ params[1]).log_softmax(1).sum()
        loss.backward()
        grads[m.__name__] = [p.grad.detach().cpu().numpy() for p in params]
    for ours, theirs in zip(grads["tensorlab"], grads["torch"]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-8)


# -- seeds ------------------------------------------------------------------------------------------------
def test_seeded_randomness_is_reproducible(device):
    def draw():
        tensorlab.manual_seed(123)
        return [host(tensorlab.randn(5, device=device)), host(tensorlab.rand(5, device=device)),
                host(tensorlab.nn.functional.dropout(tensorlab.ones(20, device=device), 0.5))]
    first, second = draw(), draw()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert ((first[1] >= 0) & (first[1] < 1)).all()
