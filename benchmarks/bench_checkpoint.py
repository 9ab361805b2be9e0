"""Activation checkpointing: peak memory of a 20-layer MLP's forward + backward, with and without.

The model: 20 blocks of Linear(256, 256) + ReLU, batch 1024, float32 -- each block's activations
(1 MiB per tensor) dwarf its weights (256 KiB), so what autograd keeps for backward dominates. Three
ways to run one forward + backward, the same in tensorlab and PyTorch:

* ``plain``: no checkpointing; backward keeps every Linear's input and every ReLU's output.
* ``checkpoint_sequential, 4 segments``: about sqrt(20) segments (``use_reentrant=False``); only the
  segment boundaries are kept, and one segment at a time is recomputed during backward.
* ``checkpoint every block``: 20 segments; keeps the least, recomputes the most.

How memory is measured -- the same way for both libraries: each run happens in a fresh interpreter
that builds the model, warms up on a tiny input, then resets Linux's peak-RSS counter
(``/proc/self/clear_refs``) and reports how far resident memory rose during the step (``VmHWM`` minus
the RSS before). ``MALLOC_MMAP_THRESHOLD_=65536`` makes glibc give every buffer above 64 KiB its own
mapping, returned to the system when freed, so resident memory follows the bytes alive (NumPy and
PyTorch's CPU allocator both use malloc). A fourth row counts tensorlab's allocations with tracemalloc
(NumPy reports its buffers to it; PyTorch's allocator does not), an exact measure that needs no
subprocess. Ratios: tensorlab/torch per row; ``python -m benchmarks.bench_checkpoint`` also prints
checkpointed/plain per library and the number of Linear forwards each way ran (the extra compute).

Before anything is measured, ``check_gradients`` confirms that each checkpointed run gives the plain
run's gradients (tests/test_checkpoint.py runs it on a small model). Nothing asserts a number.
"""
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
LAYERS, WIDTH, BATCH = 20, 256, 1024
MODES = {"plain": None, "checkpoint_sequential, 4 segments": 4, "checkpoint every block": LAYERS}


def build(lib, layers=LAYERS, width=WIDTH, batch=BATCH, seed=0):
    """The MLP (weights drawn with NumPy, so both libraries get the same ones) and its input."""
    rng = np.random.default_rng(seed)
    blocks = []
    for _ in range(layers):
        linear = lib.nn.Linear(width, width)
        with lib.no_grad():
            linear.weight.copy_(lib.tensor(rng.standard_normal((width, width)).astype(np.float32) / width ** 0.5))
            linear.bias.zero_()
        blocks += [linear, lib.nn.ReLU()]
    x = lib.tensor(rng.standard_normal((batch, width)).astype(np.float32), requires_grad=True)
    return lib.nn.Sequential(*blocks), x


def step(lib, model, x, segments):
    """One forward + backward; ``segments`` None runs the model plainly."""
    if segments is None:
        y = model(x)
    else:
        y = lib.utils.checkpoint.checkpoint_sequential(model, segments, x, use_reentrant=False)
    y.sum().backward()


def check_gradients(lib, layers=LAYERS, width=WIDTH, batch=BATCH):
    """The correctness guard: every checkpointed mode gives the plain run's gradients (float32
    tolerance). Returns the largest difference seen; raises AssertionError if one is off."""
    reference, worst = None, 0.0
    for segments in MODES.values():
        model, x = build(lib, layers, width, batch)
        step(lib, model, x, min(segments, layers) if segments else None)
        grads = [x.grad.numpy()] + [p.grad.numpy() for p in model.parameters()]
        if reference is None:
            reference = grads
            continue
        for got, want in zip(grads, reference):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
            worst = max(worst, float(np.abs(got - want).max()))
    return worst


def count_linear_forwards(lib, segments, layers=LAYERS):
    """How many Linear forwards one step runs (a forward pre-hook counts them): the recomputation's cost."""
    model, x = build(lib, layers, 8, 4)
    calls = []
    for block in model:
        if isinstance(block, lib.nn.Linear):
            block.register_forward_pre_hook(lambda *_: calls.append(1))   # a recomputation may stop inside
    step(lib, model, x, segments)
    return len(calls)


_STEP = '''
import gc, sys
sys.path.insert(0, {root!r})
lib = __import__(sys.argv[1])
if sys.argv[1] == "torch":
    lib.set_num_threads(1)
from benchmarks.bench_checkpoint import build, step
segments = None if sys.argv[2] == "None" else int(sys.argv[2])


def rss(field):
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith(field)).split()[1]) * 1024


tiny_model, tiny_x = build(lib, layers=4, width=8, batch=2)   # lazy imports and first-call paths
step(lib, tiny_model, tiny_x, segments and 2)
model, x = build(lib)
gc.collect()
before = rss("VmRSS:")
open("/proc/self/clear_refs", "w").write("5")   # the peak-RSS counter starts again from here
step(lib, model, x, segments)
print(rss("VmHWM:") - before)
'''


def peak_rss_of_step(lib_name, segments):
    """Bytes the resident memory of a fresh interpreter rose at most during one step."""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", _STEP.format(root=str(ROOT)), lib_name, str(segments)],
                         capture_output=True, text=True, env=env, check=True, timeout=600)
    return int(out.stdout.strip().splitlines()[-1])


def traced_peak_of_step(segments):
    """tensorlab's peak allocations during one step (tracemalloc), above what existed before it."""
    model, x = build(tensorlab)
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        step(tensorlab, model, x, segments)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start


_guarded = []


def _guarded_rss(lib_name, segments):
    if not _guarded:   # measure nothing that computes the wrong gradients
        check_gradients(tensorlab, layers=6, width=32, batch=16)
        if torch is not None:
            check_gradients(torch, layers=6, width=32, batch=16)
        _guarded.append(True)
    return peak_rss_of_step(lib_name, segments)


_LINUX = sys.platform.startswith("linux")
_NAME = f"MLP {LAYERS} x (Linear {WIDTH} + ReLU), batch {BATCH}, fwd+bwd"


def _rss_case(mode, segments):
    return (f"{_NAME}, {mode} (peak RSS rise)",
            {"tensorlab": (lambda: _guarded_rss("tensorlab", segments)) if _LINUX else None,
             "torch": (lambda: _guarded_rss("torch", segments)) if _LINUX and torch is not None else None})


MEMORY_CASES = [_rss_case(mode, segments) for mode, segments in MODES.items()] + [
    (f"{_NAME}, {mode} (tracemalloc peak)", {"tensorlab": (lambda s=segments: traced_peak_of_step(s)),
                                             "torch": None})
    for mode, segments in MODES.items()]


def summary():
    """Rows of (mode, tensorlab bytes, torch bytes, tensorlab/plain, torch/plain, Linear forwards)."""
    from benchmarks.harness import measure_memory, Case, IMPLEMENTATIONS
    rows, plain = [], None
    for (name, impls), segments in zip(MEMORY_CASES, MODES.values()):
        values = measure_memory(Case("checkpoint", name, {k: impls.get(k) for k in IMPLEMENTATIONS})).values
        plain = plain or values
        ratio = {k: values[k] / plain[k] if values[k] and plain[k] else None for k in ("tensorlab", "torch")}
        rows.append((name, values["tensorlab"], values["torch"], ratio["tensorlab"], ratio["torch"],
                     count_linear_forwards(tensorlab, segments)))
    return rows


if __name__ == "__main__":
    from benchmarks.harness import format_bytes
    print("| mode | tensorlab | torch | tensorlab/torch | tensorlab vs plain | torch vs plain | Linear forwards |")
    print("|---|---|---|---|---|---|---|")
    for name, ours, theirs, r_ours, r_theirs, forwards in summary():
        mode = name.split(", fwd+bwd, ")[1].replace(" (peak RSS rise)", "")
        print(f"| {mode} | {format_bytes(ours)} | {format_bytes(theirs)} | "
              f"{ours / theirs if theirs else float('nan'):.2f}x | {r_ours:.2f}x | "
              f"{r_theirs if r_theirs else float('nan'):.2f}x | {forwards} |")
