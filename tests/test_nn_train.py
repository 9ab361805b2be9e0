"""End to end: train an MLP and a small CNN on scikit-learn's bundled 8x8 digits (offline).

* From the same initial weights, the same batches and SGD with momentum, tensorlab's loss curve follows
  PyTorch's step for step.
* Trained for a few epochs, both models reach >= 95% test accuracy.
"""
import numpy as np
import pytest

import tensorlab

sklearn_datasets = pytest.importorskip("sklearn.datasets")
pytestmark = pytest.mark.slow   # a few seconds on an idle machine, over a minute when its BLAS threads contend


BATCH, LR, MOMENTUM = 64, 0.05, 0.9


@pytest.fixture(scope="module")
def digits():
    data = sklearn_datasets.load_digits()
    x = (data.data / 16.0).astype(np.float32)
    y = data.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(x))
    split = int(0.8 * len(x))
    train, test = order[:split], order[split:]
    return x[train], y[train], x[test], y[test]


def mlp(lib):
    n = lib.nn
    return n.Sequential(n.Linear(64, 128), n.ReLU(), n.Linear(128, 64), n.ReLU(), n.Linear(64, 10))


def cnn(lib):
    n = lib.nn
    return n.Sequential(n.Unflatten(1, (1, 8, 8)),
                        n.Conv2d(1, 16, 3, padding=1), n.ReLU(), n.MaxPool2d(2),
                        n.Conv2d(16, 32, 3, padding=1), n.ReLU(), n.MaxPool2d(2),
                        n.Flatten(), n.Linear(32 * 2 * 2, 10))


def batches(n_samples, epochs, seed=1):
    """The same mini-batch index order for both libraries."""
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        order = rng.permutation(n_samples)
        for start in range(0, n_samples, BATCH):
            yield order[start:start + BATCH]


def _optimizer(lib, params):
    return lib.optim.SGD(params, lr=LR, momentum=MOMENTUM)


def train(lib, model, x, y, epochs, max_steps=None):
    optimizer = _optimizer(lib, model.parameters())
    losses = []
    model.train()
    for step, idx in enumerate(batches(len(x), epochs)):
        if max_steps is not None and step == max_steps:
            break
        logits = model(lib.tensor(x[idx]))
        loss = lib.nn.functional.cross_entropy(logits, lib.tensor(y[idx]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def accuracy(lib, model, x, y):
    model.eval()
    with lib.no_grad():
        predictions = model(lib.tensor(x)).numpy().argmax(1)
    return (predictions == y).mean()


def same_start(torch, build, seed):
    """A torch model and a tensorlab model with identical initial weights."""
    torch.manual_seed(seed)
    theirs = build(torch)
    ours = build(tensorlab)
    ours.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


@pytest.mark.parametrize("build", [mlp, cnn], ids=["mlp", "cnn"])
def test_loss_curve_matches_torch(torch, digits, build):
    x, y, _, _ = digits
    ours, theirs = same_start(torch, build, seed=0)
    steps = 40
    ours_losses = train(tensorlab, ours, x, y, epochs=2, max_steps=steps)
    theirs_losses = train(torch, theirs, x, y, epochs=2, max_steps=steps)
    assert len(ours_losses) == steps
    np.testing.assert_allclose(ours_losses, theirs_losses, rtol=2e-4, atol=2e-5)
    assert np.mean(ours_losses[-5:]) < 0.75 * ours_losses[0]          # and it is actually learning
    for (name, a), (_, b) in zip(ours.state_dict().items(), theirs.state_dict().items()):
        np.testing.assert_allclose(a.numpy(), b.detach().numpy(), rtol=1e-3, atol=1e-4, err_msg=name)


@pytest.mark.parametrize("build,epochs", [(mlp, 15), (cnn, 15)], ids=["mlp", "cnn"])
def test_reaches_95_percent_test_accuracy(digits, build, epochs):
    x, y, x_test, y_test = digits
    tensorlab.manual_seed(0)
    model = build(tensorlab)
    losses = train(tensorlab, model, x, y, epochs=epochs)
    assert np.mean(losses[-10:]) < 0.1
    assert accuracy(tensorlab, model, x_test, y_test) >= 0.95
