"""Vision: LeNet5 on the 8x8 Digits, the course's first real training run.

* "LeNet5 Digits epoch": one training epoch -- 1,438 normalised images in shuffled batches of 32
  through the dataset, the DataLoader, forward, cross-entropy, backward and Adam -- the whole
  pipeline a lesson runs, in each library.
* "LeNet5 Digits step": one forward + backward + Adam step on a fixed batch of 32.

``python -m benchmarks.bench_vision`` instead runs the full recipe once (8 epochs, cosine schedule)
and prints its wall time and test accuracy. Target: >= 95% in under a minute on 2 CPU cores.
"""
import importlib.util
import time

import numpy as np

import tensorlab
from tensorlab.utils.data import DataLoader
from tensorlab.vision import datasets, models
from tensorlab.vision import transforms as T

from .steps import copy_weights, train_on, training_step

BATCH = 32
_normalize = T.Normalize(datasets.Digits.mean, datasets.Digits.std)
_train = datasets.Digits(train=True, transform=_normalize)
_images = ((_train.data.numpy()[:, None] / np.float32(16) - np.float32(datasets.Digits.mean[0]))
           / np.float32(datasets.Digits.std[0])).astype(np.float32)
_labels = _train.targets.numpy().copy()


def _torch_lenet(torch):
    n = torch.nn
    return n.Sequential(n.Conv2d(1, 6, 5, padding=2), n.ReLU(), n.MaxPool2d(2),
                        n.Conv2d(6, 16, 5, padding=2), n.ReLU(), n.MaxPool2d(2),
                        n.Flatten(), n.Linear(64, 120), n.ReLU(), n.Linear(120, 84), n.ReLU(), n.Linear(84, 10))


def _epoch(lib, model, loader):
    optimizer = lib.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = lib.nn.CrossEntropyLoss()

    def run():
        model.train()
        for x, y in loader:
            train_on(model, loss_fn, optimizer, x, y)
    return run


def _step(lib, model, x, y):
    optimizer = lib.optim.Adam(model.parameters(), lr=3e-3)
    return training_step(model, lib.nn.CrossEntropyLoss(), optimizer, x, y)


def _cases():
    tensorlab.manual_seed(0)
    ours = models.LeNet5(input_size=8)
    ours_step = models.LeNet5(input_size=8)
    epoch = {"tensorlab": _epoch(tensorlab, ours, DataLoader(_train, batch_size=BATCH, shuffle=True)),
             "torch": None, "numpy": None}
    x, y = tensorlab.tensor(_images[:BATCH]), tensorlab.tensor(_labels[:BATCH])
    step = {"tensorlab": _step(tensorlab, ours_step, x, y), "torch": None, "numpy": None}
    if importlib.util.find_spec("torch") is not None:
        import torch
        theirs, theirs_step = _torch_lenet(torch), _torch_lenet(torch)
        copy_weights(ours, theirs, torch)
        copy_weights(ours_step, theirs_step, torch)
        data = torch.utils.data.TensorDataset(torch.from_numpy(_images), torch.from_numpy(_labels))
        epoch["torch"] = _epoch(torch, theirs, torch.utils.data.DataLoader(data, batch_size=BATCH, shuffle=True))
        step["torch"] = _step(torch, theirs_step, torch.from_numpy(_images[:BATCH]), torch.from_numpy(_labels[:BATCH]))
    return [("LeNet5 Digits epoch (1,438 images, batch 32, Adam)", epoch),
            ("LeNet5 Digits step (batch 32, Adam)", step)]


CASES = _cases()


def train_to_accuracy(epochs=8, batch_size=32, lr=3e-3, seed=0):
    """The full recipe once: ``(seconds, test accuracy)``."""
    from tensorlab import nn, optim
    from tensorlab.vision import training
    start = time.perf_counter()
    tensorlab.manual_seed(seed)
    train = DataLoader(datasets.Digits(train=True, transform=_normalize), batch_size=batch_size, shuffle=True)
    test = DataLoader(datasets.Digits(train=False, transform=_normalize), batch_size=512)
    model = models.LeNet5(input_size=8)
    opt = optim.Adam(model.parameters(), lr=lr)
    history = training.fit(model, train, nn.CrossEntropyLoss(), opt, epochs=epochs, test_loader=test,
                           scheduler=optim.lr_scheduler.CosineAnnealingLR(opt, epochs), progress_bar=False)
    return time.perf_counter() - start, history["test_accuracy"][-1]


if __name__ == "__main__":
    import os
    seconds, accuracy = train_to_accuracy()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"LeNet5 on Digits, 8 epochs: test accuracy {accuracy:.1%} in {seconds:.1f} s "
          f"({os.cpu_count()} CPUs, load average {load:.1f})")
