"""Tensor basics: the fixed cost of one small op (with and without recording a graph node), of a
broadcast op, an index, a reshape and a stack (what a data pipeline does per sample and per batch), a
large elementwise expression, a matmul, and the time ``import tensorlab`` takes.

Inputs are built once, here, from the same NumPy arrays for every implementation. Targets:
large ops within 1.1x of NumPy (tensorlab computes with NumPy, so the gap is pure overhead);
issue 11: a small op within 1.8x of PyTorch without grad, 2.5x when ``a.requires_grad`` (one node
recorded); ``import tensorlab`` under 120 ms.
"""
import os
import subprocess
import sys
import tracemalloc

import numpy as np

import tensorlab

try:
    import torch
except ImportError:  # the torch column then shows a dash
    torch = None

_rng = np.random.default_rng(0)


def _inputs(*shape, count):
    return [_rng.standard_normal(shape, dtype=np.float32) for _ in range(count)]


def _three_ways(arrays):
    """The same data as tensorlab tensors, torch tensors (or None) and NumPy arrays."""
    tl = [tensorlab.from_numpy(a.copy()) for a in arrays]
    th = [torch.from_numpy(a.copy()) for a in arrays] if torch is not None else None
    return tl, th, arrays


def _case(name, expression, arrays):
    tl, th, npy = _three_ways(arrays)
    return (name, {"tensorlab": lambda: expression(*tl),
                   "torch": (lambda: expression(*th)) if th is not None else None,
                   "numpy": lambda: expression(*npy)})


def _add(a, b):
    return a + b


def _grad_case(name, expression, arrays):
    """Like ``_case``, with the first input requiring grad: every call records a node."""
    tl, th, _ = _three_ways(arrays)
    tl[0].requires_grad_()
    if th is not None:
        th[0].requires_grad_()
    return (name, {"tensorlab": lambda: expression(*tl),
                   "torch": (lambda: expression(*th)) if th is not None else None,
                   "numpy": None})


def _import_time(module):
    """``python -c "import <module>"`` in a fresh interpreter (includes its ~15 ms start-up). Bytecode
    caches may be written (the warm-up calls write them), as in a user's environment: where
    PYTHONDONTWRITEBYTECODE is set, every call would compile the module's sources again."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, env=env)


def _fma(a, b, c):
    return a * b + c


def _mul(a, b):
    return a * b


def _matmul(a, b):
    return a @ b


def _sub(a, b):
    return a - b


def _row(a):
    return a[5]


def _flat(a):
    return a.reshape(-1)


def _stack_case(name, arrays):
    """Each library's ``stack`` of the tensors (arrays) made from ``arrays``: a DataLoader's batch."""
    tl, th, npy = _three_ways(arrays)
    return (name, {"tensorlab": lambda: tensorlab.stack(tl),
                   "torch": (lambda: torch.stack(th)) if th is not None else None,
                   "numpy": lambda: np.stack(npy)})


CASES = [
    _case("a + b, 10 float32 (per-op overhead)", _add, _inputs(10, count=2)),
    _case("a + b, 100 float32, no grad", _add, _inputs(100, count=2)),
    _grad_case("a + b, 100 float32, a.requires_grad (records a node)", _add, _inputs(100, count=2)),
    # NumPy reuses the temporary of a * b for the + (it can see the temporary has no other owner);
    # tensorlab's intermediate is a tensor and allocates like NumPy without that trick. One op alone
    # shows whether anything is copied on the way:
    _case("a - b, 64x32 and 64x1 float32 (a broadcast op)", _sub, _inputs(64, 32, count=1) + _inputs(64, 1, count=1)),
    _case("a[5], a row of a 1438x64 float32 tensor (an index)", _row, _inputs(1438, 64, count=1)),
    _case("a.reshape(-1), 32x32 float32 (a view)", _flat, _inputs(32, 32, count=1)),
    _stack_case("stack of 32 tensors of 1x8x8 float32 (a DataLoader batch)", _inputs(1, 8, 8, count=32)),
    _case("a * b, 4M float32 (one op)", _mul, _inputs(4 * 1024 * 1024, count=2)),
    _case("a * b + c, 4M float32", _fma, _inputs(4 * 1024 * 1024, count=3)),
    _case("a @ b, 1024x1024 float32", _matmul, _inputs(1024, 1024, count=2)),
    ("import in a fresh interpreter (python -c 'import ...')",
     {"tensorlab": lambda: _import_time("tensorlab"),
      "torch": (lambda: _import_time("torch")) if torch is not None else None,
      "numpy": lambda: _import_time("numpy")}),
]


def _peak_bytes(expression, args):
    """Peak bytes allocated while evaluating ``expression(*args)``, as seen by tracemalloc
    (NumPy reports its buffers to it; PyTorch's CPU allocator does not, so torch is not measured)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = expression(*args)
        _, peak = tracemalloc.get_traced_memory()
        del result
    finally:
        tracemalloc.stop()
    return peak


def _memory_case(name, expression, arrays):
    tl, _, npy = _three_ways(arrays)
    return (name, {"tensorlab": lambda: _peak_bytes(expression, tl),
                   "torch": None,
                   "numpy": lambda: _peak_bytes(expression, npy)})


MEMORY_CASES = [
    _memory_case("a * b + c, 4M float32 (peak bytes allocated)", _fma, _inputs(4 * 1024 * 1024, count=3)),
]
