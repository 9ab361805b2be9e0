"""Autograd engine: per-node overhead of backward, and peak memory of a training step.

Timing: graphs whose nodes do almost no arithmetic (10-element tensors), so the cost of autograd
itself dominates. "build" cases record a graph (``Function.apply`` and ``_record``: a node, its edges,
saved tensors per op); "backward" cases run the engine over a graph built once, at import --
dependency counting, the ready queue, input buffers, calling each node -- with
``backward(retain_graph=True)``. Two shapes: a 2,000-node chain, and the 2,000-way fan-in of issue 11
(``stack`` of ``leaf_i * w``, then ``sum``: 2,000 gradients meet in ``w``'s AccumulateGrad).
Targets (issue 11): within 1.8x of PyTorch's C++ engine for the chain, 2.5x for the fan-in.

Memory: forward + backward of a 50-layer MLP (width 256, batch 64). Both libraries run in a fresh
subprocess that reports how far its resident memory rose above where it stood before the step
(Linux peak-RSS counter, reset just before) -- the same measure for both, covering activations,
saved tensors and gradients. Target: within 1.3x of PyTorch, which needs saved tensors freed as the
engine goes. A second case shows tensorlab's own allocations as tracemalloc sees them.
"""
import functools
import operator
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np

import tensorlab

try:
    import torch
except ImportError:  # the torch column then shows a dash
    torch = None

ROOT = Path(__file__).resolve().parent.parent


def _chain_builder(m, n=2000):
    """A callable that builds x -> x*1.0001 -> ... (n multiplications) -> sum: one long path of
    MulBackward0 nodes."""
    x = m.tensor(np.ones(10, np.float32), requires_grad=True)

    def build():
        y = x
        for _ in range(n):
            y = y * 1.0001
        return y.sum()
    return build


def _fan_in_builder(m, n=2000):
    """A callable that builds n leaves times the shared ``w``, stacked and summed: n edges lead into
    ``w``'s AccumulateGrad (and out of StackBackward0)."""
    w = m.tensor(np.ones(10, np.float32), requires_grad=True)
    leaves = [m.tensor(np.full(10, i, np.float32), requires_grad=True) for i in range(n)]
    return lambda: m.stack([leaf * w for leaf in leaves]).sum()


def _sum_of_products(m, n=2000):
    """h = x*1 feeds n products that are added up: n gradients meet in h's input buffer."""
    x = m.tensor(np.ones(10, np.float32), requires_grad=True)
    h = x * 1.0
    return functools.reduce(operator.add, [h * float(i) for i in range(n)]).sum()


def _build_case(name, builder):
    """Recording cost: the leaves exist already; each call builds (and drops) the whole graph."""
    return (name, {"tensorlab": builder(tensorlab), "torch": builder(torch) if torch is not None else None,
                   "numpy": None})


def _backward_case(name, build):
    ours = build(tensorlab)
    theirs = build(torch) if torch is not None else None
    return (name, {"tensorlab": lambda: ours.backward(retain_graph=True),
                   "torch": (lambda: theirs.backward(retain_graph=True)) if theirs is not None else None,
                   "numpy": None})


CASES = [
    _build_case("build a 2,000-node chain (x * 1.0001, 10 float32)", _chain_builder),
    _backward_case("backward of a 2,000-node chain (x * 1.0001, 10 float32)", lambda m: _chain_builder(m)()),
    _build_case("build a 2,000-way fan-in (stack of leaf_i * w, sum; 10 float32)", _fan_in_builder),
    _backward_case("backward of a 2,000-way fan-in (stack of leaf_i * w, sum; 10 float32)",
                   lambda m: _fan_in_builder(m)()),
    _backward_case("backward of a 2,000-term sum of h * i (4,000 nodes, 10 float32)", _sum_of_products),
]


# -- memory -------------------------------------------------------------------------------------------
LAYERS, WIDTH, BATCH = 50, 256, 64

_STEP = r'''
import sys
import numpy as np
lib = sys.argv[1]
if lib == "torch":
    import torch as m
else:
    import tensorlab as m
rng = np.random.default_rng(0)
weights = [m.tensor(rng.standard_normal(({w}, {w})).astype(np.float32) / {w} ** 0.5, requires_grad=True)
           for _ in range({layers})]
biases = [m.tensor(np.zeros({w}, np.float32), requires_grad=True) for _ in range({layers})]
x = m.tensor(rng.standard_normal(({b}, {w})).astype(np.float32))


def rss(field):
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith(field)).split()[1]) * 1024


def step(x, weights, biases):
    h = x
    for w, b in zip(weights, biases):
        h = (h @ w + b).relu()
    h.sum().backward()


# warm up on a tiny MLP (lazy imports, first-call paths) without touching the big step's memory:
# memory freed by a big warm-up would stay resident and hide the real step's peak
tiny = [m.tensor(np.ones((4, 4), np.float32), requires_grad=True) for _ in range(2)]
step(m.tensor(np.ones((2, 4), np.float32)), tiny, [m.tensor(np.zeros(4, np.float32))] * 2)
import gc
gc.collect()
before = rss("VmRSS:")
open("/proc/self/clear_refs", "w").write("5")  # reset the peak-RSS counter to the current RSS
step(x, weights, biases)
print(rss("VmHWM:") - before)
'''.format(w=WIDTH, b=BATCH, layers=LAYERS)


def _peak_rss_of_step(lib):
    """Run one MLP training step in a fresh interpreter; bytes its resident memory rose at most."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", _STEP, lib], capture_output=True, text=True, env=env,
                         check=True, timeout=600)
    return int(out.stdout.strip().splitlines()[-1])


def _traced_peak_of_step():
    """tensorlab's peak allocations during the same step, as tracemalloc sees them (NumPy reports its
    buffers to tracemalloc; PyTorch's allocator does not, so torch has no column here)."""
    rng = np.random.default_rng(0)
    weights = [tensorlab.tensor(rng.standard_normal((WIDTH, WIDTH)).astype(np.float32) / WIDTH ** 0.5,
                                requires_grad=True) for _ in range(LAYERS)]
    biases = [tensorlab.tensor(np.zeros(WIDTH, np.float32), requires_grad=True) for _ in range(LAYERS)]
    x = tensorlab.tensor(rng.standard_normal((BATCH, WIDTH)).astype(np.float32))
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        h = x
        for w, b in zip(weights, biases):
            h = (h @ w + b).relu()
        h.sum().backward()
        del h
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start


_LINUX = sys.platform.startswith("linux")

MEMORY_CASES = [
    (f"MLP step, {LAYERS} layers x {WIDTH}, batch {BATCH} (peak RSS rise, subprocess)",
     {"tensorlab": (lambda: _peak_rss_of_step("tensorlab")) if _LINUX else None,
      "torch": (lambda: _peak_rss_of_step("torch")) if _LINUX and torch is not None else None}),
    (f"MLP step, {LAYERS} layers x {WIDTH}, batch {BATCH} (tracemalloc peak)",
     {"tensorlab": _traced_peak_of_step, "torch": None}),
]
