"""vision.training: train_epoch / evaluate / fit, their progress bars and TensorBoard logging --
and the course's promise: LeNet5 learns the 8x8 digits to >= 95% test accuracy."""
import io

import pytest

import tensorlab
from tensorlab import nn, optim
from tensorlab.utils.data import DataLoader, TensorDataset
from tensorlab.vision import datasets, models, training
from tensorlab.vision import transforms as T


def _blobs(n, seed):
    X, y = datasets.make_blobs(n, centers=[[-3.0, 0.0], [3.0, 0.0], [0.0, 4.0]], noise=0.5, seed=seed)
    return TensorDataset(X, y)


def _mlp():
    tensorlab.manual_seed(0)
    return models.MLP(2, (16,), 3)


def test_train_epoch_lowers_the_loss_and_returns_the_mean():
    model = _mlp()
    loader = DataLoader(_blobs(300, 0), batch_size=30, shuffle=True)
    opt = optim.SGD(model.parameters(), lr=0.1)
    losses = [training.train_epoch(model, loader, nn.CrossEntropyLoss(), opt, progress_bar=False) for _ in range(5)]
    assert losses[-1] < losses[0] / 2
    assert model.training


def test_evaluate_counts_correct_argmax_predictions():
    model = _mlp()
    data = _blobs(90, 1)
    loader = DataLoader(data, batch_size=32)
    result = training.evaluate(model, loader, nn.CrossEntropyLoss())
    X, y = data.tensors
    with tensorlab.no_grad():
        logits = model(X)
    expected = float((logits.numpy().argmax(1) == y.numpy()).mean())
    assert result["accuracy"] == pytest.approx(expected)
    assert result["loss"] == pytest.approx(nn.CrossEntropyLoss()(logits, y).item(), rel=1e-5)
    assert not model.training
    assert training.evaluate(model, loader)["loss"] is None
    with pytest.raises(ValueError, match="no examples"):
        training.evaluate(model, [])


def test_fit_history_and_tensorboard_curves(tmp_path):
    from tensorlab.utils.tensorboard import SummaryWriter, event_files, read_events
    pytest.importorskip("tensorboardX", reason="tensorboardX is not installed")
    model = _mlp()
    train = DataLoader(_blobs(200, 2), batch_size=50, shuffle=True)
    test = DataLoader(_blobs(100, 3), batch_size=100)
    opt = optim.SGD(model.parameters(), lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    with SummaryWriter(tmp_path) as writer:
        history = training.fit(model, train, nn.CrossEntropyLoss(), opt, epochs=3, test_loader=test,
                               scheduler=scheduler, writer=writer, progress_bar=False)
    assert [len(v) for v in history.values()] == [3, 3, 3]
    assert history["test_accuracy"][-1] > 0.9
    assert opt.param_groups[0]["lr"] == pytest.approx(0.1 * 0.5 ** 3)
    steps = {}
    for path in event_files(tmp_path):
        for event in read_events(path):
            for value in event.summary.value:
                steps.setdefault(value.tag, []).append(event.step)
    assert steps["loss/train"] == list(range(12))                     # 4 batches x 3 epochs
    assert steps["accuracy/test"] == [3, 7, 11] and steps["loss/test"] == [3, 7, 11]


def test_fit_without_test_loader_and_progress_bar_text(monkeypatch):
    pytest.importorskip("tqdm", reason="tqdm is not installed")
    out = io.StringIO()
    from tensorlab.utils import progress as P
    real = P.progress
    monkeypatch.setattr(training, "progress", lambda *a, **k: real(*a, **{**k, "file": out, "disable": False,
                                                                      "mininterval": 0}))
    model = _mlp()
    history = training.fit(model, DataLoader(_blobs(60, 4), batch_size=20), nn.CrossEntropyLoss(),
                           optim.SGD(model.parameters(), lr=0.1), epochs=2)
    assert history["test_accuracy"] == [] and len(history["train_loss"]) == 2
    text = out.getvalue()
    assert "epochs" in text and "epoch 2" in text and "loss=" in text and "train_loss=" in text


DIGITS_RECIPE = dict(epochs=8, batch_size=32, lr=3e-3, seed=0)


def train_lenet_on_digits(epochs, batch_size, lr, seed, progress_bar=False):
    """The course's recipe: normalised Digits, LeNet5(input_size=8), Adam with a cosine schedule."""
    tensorlab.manual_seed(seed)
    normalize = T.Normalize(datasets.Digits.mean, datasets.Digits.std)
    train = DataLoader(datasets.Digits(train=True, transform=normalize), batch_size=batch_size, shuffle=True)
    test = DataLoader(datasets.Digits(train=False, transform=normalize), batch_size=512)
    model = models.LeNet5(input_size=8)
    opt = optim.Adam(model.parameters(), lr=lr)
    history = training.fit(model, train, nn.CrossEntropyLoss(), opt, epochs=epochs, test_loader=test,
                           scheduler=optim.lr_scheduler.CosineAnnealingLR(opt, epochs), progress_bar=progress_bar)
    return history["test_accuracy"][-1]


@pytest.mark.slow
def test_lenet5_learns_the_digits():
    assert train_lenet_on_digits(**DIGITS_RECIPE) >= 0.95
