"""Function transforms: per-sample gradients of an MLP, batch 64, the two ways tensorlab.func offers.

* ``vmap(grad(loss))``: one call; the batching rules run each layer once for the whole batch (a bmm), and
  one backward pass gives all 64 gradients.
* a Python loop of ``grad(loss)`` calls, one sample at a time: 64 forward and backward passes.

Both rows have PyTorch's torch.func beside them, on the same weights and data. The goal (issue 22) is
vmap(grad) at least 10x faster than the loop; ``python -m benchmarks.bench_func`` times the two tensorlab
ways interleaved in one run and prints that ratio. No timing is asserted anywhere.
"""
import importlib.util
import statistics
import time

import numpy as np

import tensorlab

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((64, 32))
_Y = _rng.integers(0, 10, 64)


def _mlp(lib):
    n = lib.nn
    return n.Sequential(n.Linear(32, 64), n.ReLU(), n.Linear(64, 64), n.ReLU(), n.Linear(64, 10)).double()


def _per_sample_grads(lib, model, x, y, loop):
    """A zero-argument callable computing the per-sample gradients of ``model``'s loss on (x, y)."""
    func = lib.func
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(params, xi, yi):
        out = func.functional_call(model, params, (xi.unsqueeze(0),))
        return lib.nn.functional.cross_entropy(out, yi.unsqueeze(0))

    if loop:
        g = func.grad(loss)
        return lambda: [g(params, x[i], y[i]) for i in range(len(x))]
    batched = func.vmap(func.grad(loss), in_dims=(None, 0, 0))
    return lambda: batched(params, x, y)


def _models():
    ours = _mlp(tensorlab)
    if importlib.util.find_spec("torch") is None:
        return ours, None
    import torch
    theirs = _mlp(torch)
    ours.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


def _case(name, loop):
    implementations = {"tensorlab": _per_sample_grads(tensorlab, _OURS, tensorlab.tensor(_X), tensorlab.tensor(_Y),
                                                      loop), "torch": None, "numpy": None}
    if _THEIRS is not None:
        import torch
        implementations["torch"] = _per_sample_grads(torch, _THEIRS, torch.tensor(_X), torch.tensor(_Y), loop)
    return name, implementations


_OURS, _THEIRS = _models()
CASES = [
    _case("per-sample grads, MLP 32-64-64-10, batch 64: vmap(grad(loss))", loop=False),
    _case("per-sample grads, MLP 32-64-64-10, batch 64: loop of grad(loss) calls", loop=True),
]


def speedup(rounds=20):
    """Median time of the loop over median time of vmap(grad), timed interleaved in one run."""
    vmapped, looped = CASES[0][1]["tensorlab"], CASES[1][1]["tensorlab"]
    times = {"vmap": [], "loop": []}
    for _ in range(rounds):
        for key, fn in (("vmap", vmapped), ("loop", looped)):
            start = time.perf_counter()
            fn()
            times[key].append(time.perf_counter() - start)
    v, lp = statistics.median(times["vmap"]), statistics.median(times["loop"])
    return v, lp, lp / v


if __name__ == "__main__":
    v, lp, ratio = speedup()
    print(f"vmap(grad): {v * 1e3:.2f} ms   loop of grad: {lp * 1e3:.2f} ms   vmap(grad) is {ratio:.1f}x faster")
