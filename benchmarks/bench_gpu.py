"""GPU: tensorlab on CUDA (its CuPy backend) against PyTorch on CUDA, in the same run (issue 11).

Every timed call ends with a device synchronisation (``tensorlab.cuda.synchronize()``,
``torch.cuda.synchronize()``): GPU work is queued and runs later, so a timing without it would measure
only the queueing. Here the "numpy" column is **raw CuPy** running the same array expression: the gap
tensorlab/CuPy is tensorlab's own overhead, the gap CuPy/torch is the kernels' (neither library uses
TF32 for float32 matmuls by default, so they do the same arithmetic).

* ``x * 2 + 1`` on 64M float32: two memory-bound elementwise kernels, Python scalars as operands;
* ``a @ b``, 4096x4096 float32: one cuBLAS call;
* MLP step: 4096-4096-4096-10 (ReLU), batch 512, cross-entropy, SGD with momentum;
* LeNet5 step: 1x28x28 images, batch 256, cross-entropy, Adam.

Without CuPy and a CUDA device the module has no cases and says why (``SKIPPED``); without a CUDA
build of PyTorch the torch column is a dash. Targets: within 1.2x of torch-cuda for the elementwise
case, 1.5x for the training steps. ``benchmarks/gpu_check.sh`` runs these with the cuda tests.
"""
import numpy as np

import tensorlab

from .steps import copy_weights, training_step


SKIPPED = tensorlab.cuda._why_unavailable()
CASES = []

if SKIPPED is None:
    import cupy

    try:
        import torch
        if not torch.cuda.is_available():
            torch = None
    except ImportError:
        torch = None

    _rng = np.random.default_rng(0)
    CUDA = tensorlab.device("cuda")

    def _synced(fn, sync):
        """``fn`` followed by waiting for the GPU, so the time covers the work itself."""
        def run():
            fn()
            sync()
        return run

    def _three(expression, *arrays):
        """The case's callables: tensorlab, torch and raw CuPy on the same data, each synchronised."""
        ours = [tensorlab.tensor(a, device=CUDA) for a in arrays]
        raw = [cupy.asarray(a) for a in arrays]
        impls = {"tensorlab": _synced(lambda: expression(*ours), tensorlab.cuda.synchronize),
                 "numpy": _synced(lambda: expression(*raw), tensorlab.cuda.synchronize), "torch": None}
        if torch is not None:
            theirs = [torch.from_numpy(a).cuda() for a in arrays]
            impls["torch"] = _synced(lambda: expression(*theirs), torch.cuda.synchronize)
        return impls

    def _mlp(lib):
        n = lib.nn
        return n.Sequential(n.Linear(4096, 4096), n.ReLU(), n.Linear(4096, 4096), n.ReLU(), n.Linear(4096, 10))

    def _lenet(lib):
        if lib is tensorlab:
            from tensorlab.vision.models import LeNet5
            return LeNet5(input_size=28)
        n = lib.nn
        return n.Sequential(n.Conv2d(1, 6, 5, padding=2), n.ReLU(), n.MaxPool2d(2),
                            n.Conv2d(6, 16, 5), n.ReLU(), n.MaxPool2d(2), n.Flatten(),
                            n.Linear(400, 120), n.ReLU(), n.Linear(120, 84), n.ReLU(), n.Linear(84, 10))

    def _step_case(build, make_optimizer, x, y):
        """One forward + cross-entropy + backward + optimizer step in each library, same weights."""
        impls = {"numpy": None, "torch": None}
        ours = build(tensorlab)
        ours.to(CUDA)
        impls["tensorlab"] = _synced(training_step(ours, tensorlab.nn.functional.cross_entropy,
                                                   make_optimizer(tensorlab, ours),
                                                   tensorlab.tensor(x, device=CUDA), tensorlab.tensor(y, device=CUDA)),
                                     tensorlab.cuda.synchronize)
        if torch is not None:
            theirs = build(torch)
            copy_weights(ours, theirs, torch)
            theirs.cuda()
            impls["torch"] = _synced(training_step(theirs, torch.nn.functional.cross_entropy,
                                                   make_optimizer(torch, theirs),
                                                   torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda()),
                                     torch.cuda.synchronize)
        return impls

    def _sgd(lib, model):
        return lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def _adam(lib, model):
        return lib.optim.Adam(model.parameters(), lr=1e-3)

    tensorlab.manual_seed(0)
    CASES = [
        ("x * 2 + 1, 64M float32 (numpy column: raw CuPy)",
         _three(lambda x: x * 2 + 1, _rng.standard_normal(64 * 1024 * 1024, dtype=np.float32))),
        ("a @ b, 4096x4096 float32 (numpy column: raw CuPy)",
         _three(lambda a, b: a @ b, *[_rng.standard_normal((4096, 4096), dtype=np.float32) for _ in range(2)])),
        ("MLP 4096-4096-4096-10 SGD step, batch 512",
         _step_case(_mlp, _sgd, _rng.standard_normal((512, 4096), dtype=np.float32), _rng.integers(0, 10, 512))),
        ("LeNet5 1x28x28 Adam step, batch 256",
         _step_case(_lenet, _adam, _rng.standard_normal((256, 1, 28, 28), dtype=np.float32),
                    _rng.integers(0, 10, 256))),
    ]
