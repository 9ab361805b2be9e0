"""nn training steps: one forward + cross-entropy + backward + SGD(momentum) update.

* MLP 64-128-64-10 (ReLU), batch 64 -- dominated by per-op overhead (small matmuls).
* CNN: two conv(3x3, pad 1)+ReLU+maxpool(2) blocks (1->16->32 channels) on 1x28x28, then a linear
  classifier, batch 32 -- dominated by im2col convolution (strided windows + one matmul).

Both libraries start from the same weights (copied through NumPy) and see the same batch. Targets:
MLP within 2x of PyTorch, CNN within 3x.
"""
import importlib.util

import numpy as np

import tensorlab

from .steps import training_step

_rng = np.random.default_rng(0)


def _mlp(lib):
    n = lib.nn
    return n.Sequential(n.Linear(64, 128), n.ReLU(), n.Linear(128, 64), n.ReLU(), n.Linear(64, 10))


def _cnn(lib):
    n = lib.nn
    return n.Sequential(n.Conv2d(1, 16, 3, padding=1), n.ReLU(), n.MaxPool2d(2),
                        n.Conv2d(16, 32, 3, padding=1), n.ReLU(), n.MaxPool2d(2),
                        n.Flatten(), n.Linear(32 * 7 * 7, 10))


def _training_step(lib, model, x, y):
    """A zero-argument callable doing one SGD step on (x, y) with ``lib``."""
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    return training_step(model, lib.nn.functional.cross_entropy, optimizer, x, y)


def _case(name, build, x, y):
    ours = build(tensorlab)
    implementations = {"tensorlab": _training_step(tensorlab, ours, tensorlab.tensor(x), tensorlab.tensor(y)),
                       "torch": None, "numpy": None}
    if importlib.util.find_spec("torch") is not None:
        import torch
        theirs = build(torch)
        ours.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy())
                              for k, v in theirs.state_dict().items()})
        implementations["torch"] = _training_step(torch, theirs, torch.tensor(x), torch.tensor(y))
    return name, implementations


CASES = [
    _case("MLP 64-128-64-10 SGD step, batch 64", _mlp,
          _rng.standard_normal((64, 64), dtype=np.float32), _rng.integers(0, 10, 64)),
    _case("CNN 2x(conv3x3+relu+maxpool) 1x28x28 SGD step, batch 32", _cnn,
          _rng.standard_normal((32, 1, 28, 28), dtype=np.float32), _rng.integers(0, 10, 32)),
]
