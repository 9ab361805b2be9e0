"""tensorlab beside PyTorch and the other Python autograd libraries, on the workloads of the speed
goal: HIPS autograd (``autograd``), MyGrad (``mygrad``) and micrograd. ``pip install -e ".[bench]"``
installs the three; a missing one leaves its column empty and is listed under "Not run here".

Each library runs a workload the way its own documentation writes it:

* tensorlab and PyTorch: tensors, ``requires_grad``, ``backward()``, ``nn`` modules, ``optim.SGD``.
* HIPS autograd: a plain function of NumPy arrays written with ``autograd.numpy``, differentiated
  by ``autograd.value_and_grad`` (forward + backward) or ``autograd.make_vjp`` (forward that records
  the graph, the "with grad" row); without grad, the ``autograd.numpy`` function on bare ndarrays.
* MyGrad: its ``Tensor`` (``constant=True`` where nothing needs a gradient), ``mygrad.nnet`` for
  relu, convolution, max-pooling and cross-entropy, ``backward()``.
* micrograd: scalar ``Value`` only -- it has no arrays, so it runs the one scalar ``a + b``.
* NumPy, where the row needs no gradient: the same expression on ndarrays.

The optimizer step of the peers is SGD with momentum written in NumPy as ``torch.optim.SGD`` does it
(the first step's buffer is the gradient, later ones ``momentum * buf + grad``; ``p -= lr * buf``),
in place on the parameter arrays. Every library starts from the same weights, copied from the
PyTorch model, and sees the same batch.

Correctness guard: when this module is imported, each library's workload is run (training steps
twice, so that the momentum update is checked too) and its answer -- values, loss, gradients -- is
compared with PyTorch's. A library whose answer differs, or that raises, is not timed: its callable
is replaced by one that raises, and the table says "failed" with the difference (``GUARDS`` keeps
what each check found; tests/test_benchmarks_peers.py asserts every check passes).

Times are CPU time (``CLOCK = "cpu"``), one thread, all libraries interleaved in the same run.
"""
import importlib
import os
import subprocess
import sys

import numpy as np

import tensorlab

from .bench_tensor import _import_time
from .steps import training_step


def _optional(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


torch = _optional("torch")
autograd = _optional("autograd")
anp = _optional("autograd.numpy")
mygrad = _optional("mygrad")
micrograd = _optional("micrograd.engine")
if mygrad is not None:
    from mygrad.nnet import conv_nd, max_pool, relu as mygrad_relu, softmax_crossentropy

CLOCK = "cpu"
_INSTALL = "not installed (pip install -e '.[bench]')"
MISSING = {lib: _INSTALL for lib, module in (("autograd", autograd), ("mygrad", mygrad), ("micrograd", micrograd))
           if module is None}
if torch is None:
    SKIPPED = "PyTorch is not installed: every row is checked against it and reported as a ratio to it"

NOTES = [  # printed under the table in RESULTS.md
    "HIPS autograd without grad is `autograd.numpy`'s function on bare ndarrays; with grad it records only "
    "while it differentiates, so its `a + b` with grad row is `autograd.make_vjp` of `x + b` (the graph "
    "recorded, no backward run).",
    "micrograd has scalars only: its row adds two `Value`s, one scalar against PyTorch's 32x32.",
    "MyGrad without grad uses `constant=True` tensors.",
    "4M rows: each call's results are 16 MiB of fresh memory. Whether the C library's heap hands back pages "
    "already touched, or new ones (some 8,000 page faults a call, in system CPU time), depends on what ran "
    "before; a library's time can change by a few ms that way between runs. Compare with NumPy's column "
    "of the same run.",
]
RTOL, ATOL = 1e-4, 1e-5  # float32 libraries that round differently (BLAS, tanh) still agree to this
LR, MOMENTUM = 0.01, 0.9
_rng = np.random.default_rng(0)


# -- the correctness guard ---------------------------------------------------------------------------
def _to_numpy(x):
    """One answer of any of the libraries as a float64 ndarray."""
    if micrograd is not None and isinstance(x, micrograd.Value):
        return np.float64(x.data)
    if hasattr(x, "detach"):  # a torch or tensorlab tensor
        x = x.detach().numpy()
    return np.asarray(x, dtype=np.float64)  # an ndarray, a NumPy scalar or a MyGrad Tensor


def _answers(result):
    """A run's answer -- one value or a tuple of them (loss, gradient) -- as a list of ndarrays."""
    return [_to_numpy(x) for x in (result if isinstance(result, tuple) else (result,))]


def _compare(got, expected):
    """None when the lists of arrays agree within RTOL/ATOL, else a short description."""
    if len(got) != len(expected):
        return f"gave {len(got)} values, PyTorch {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        if g.shape != e.shape:
            return f"value {i} has shape {g.shape}, PyTorch's {e.shape}"
        if not np.allclose(g, e, rtol=RTOL, atol=ATOL):
            worst = np.max(np.abs(g - e))
            return f"value {i} differs from PyTorch's by up to {worst:.3g}"
    return None


def _failed(why):
    def run():
        raise AssertionError(why)
    return run


GUARDS = {}  # (case name, library) -> None if its answer matched PyTorch's, else why not


def _guarded(name, runs, calls=1, expected=None):
    """The case ``(name, runs)`` after checking every library's run against PyTorch's: each is called
    ``calls`` times (in step with PyTorch's) and must give the same answers. ``expected`` may map a
    library to a function that picks, from PyTorch's answers, what that library computes (micrograd
    computes one element). A library that fails is replaced by a callable that raises why."""
    reference = [_answers(runs["torch"]()) for _ in range(calls)]
    checked = {}
    for lib, run in runs.items():
        if lib == "torch" or run is None:
            checked[lib] = run
            continue
        pick = (expected or {}).get(lib, lambda answers: answers)
        try:
            problems = [_compare(_answers(run()), pick(ref)) for ref in reference]
            problem = next((p for p in problems if p), None)
        except Exception as error:  # noqa: BLE001 - a library that cannot run the case is a result
            problem = f"{type(error).__name__}: {error}"
        GUARDS[name, lib] = problem
        checked[lib] = run if problem is None else _failed(f"not timed: {problem}")
    return name, checked


# -- elementwise: the cost of one op, a chain of them, and one large expression ----------------------
def _small_inputs(*shape, count):
    return [_rng.standard_normal(shape, dtype=np.float32) for _ in range(count)]


def _elementwise_case(name, arrays, expression, anp_expression):
    """``expression(*inputs)`` with no gradient: tensors that do not require grad, MyGrad constants,
    ``autograd.numpy`` on bare ndarrays (``anp_expression``), and NumPy."""
    tl = [tensorlab.from_numpy(a.copy()) for a in arrays]
    th = [torch.from_numpy(a.copy()) for a in arrays]
    runs = {"tensorlab": lambda: expression(*tl), "torch": lambda: expression(*th),
            "numpy": lambda: expression(*arrays)}
    if anp is not None:
        runs["autograd"] = lambda: anp_expression(*arrays)
    if mygrad is not None:
        mg = [mygrad.tensor(a.copy(), constant=True) for a in arrays]
        runs["mygrad"] = lambda: expression(*mg)
    return _guarded(name, runs)


def _add(a, b):
    return a + b


def _fma(a, b, c):
    return a * b + c


def _add_with_grad_case(name, a, b):
    """``a + b`` where ``a`` requires grad: one graph node recorded, no backward. HIPS autograd
    records only while it differentiates, so its row traces ``a + b`` with ``make_vjp`` (which returns
    the value and the function that would run the backward); micrograd adds two scalar ``Value``s."""
    ta, tb = tensorlab.from_numpy(a.copy()).requires_grad_(), tensorlab.from_numpy(b.copy())
    pa, pb = torch.from_numpy(a.copy()).requires_grad_(), torch.from_numpy(b.copy())
    runs = {"tensorlab": lambda: ta + tb, "torch": lambda: pa + pb}
    if autograd is not None:
        record = autograd.make_vjp(lambda x: x + b)
        runs["autograd"] = lambda: record(a)[1]
    if mygrad is not None:
        ma, mb = mygrad.tensor(a.copy()), mygrad.tensor(b.copy(), constant=True)
        runs["mygrad"] = lambda: ma + mb
    if micrograd is not None:
        va, vb = micrograd.Value(float(a.flat[0])), micrograd.Value(float(b.flat[0]))
        runs["micrograd"] = lambda: va + vb
    return _guarded(name, runs, expected={"micrograd": lambda answers: [answers[0].flat[0]]})


def _chain(x, w, c, tanh, sin, total):
    """20 elementwise ops -- five times multiply, add, tanh, sin -- then a sum."""
    for _ in range(5):
        x = sin(tanh(x * w + c))
    return total(x)


def _chain_case(name, x, w, c):
    """Forward and backward of ``_chain`` with respect to ``x``: the loss and ``x``'s gradient."""
    def torch_like(lib):
        leaf, w_, c_ = (lib.from_numpy(a.copy()) for a in (x, w, c))
        leaf.requires_grad_()

        def run():
            leaf.grad = None
            loss = _chain(leaf, w_, c_, lib.tanh, lib.sin, lib.sum)
            loss.backward()
            return loss, leaf.grad
        return run

    runs = {"tensorlab": torch_like(tensorlab), "torch": torch_like(torch)}
    if autograd is not None:
        loss_and_grad = autograd.value_and_grad(lambda v: _chain(v, w, c, anp.tanh, anp.sin, anp.sum))
        runs["autograd"] = lambda: loss_and_grad(x)
    if mygrad is not None:
        leaf, w_, c_ = mygrad.tensor(x.copy()), mygrad.tensor(w, constant=True), mygrad.tensor(c, constant=True)

        def run():
            loss = _chain(leaf, w_, c_, mygrad.tanh, mygrad.sin, mygrad.sum)
            loss.backward()
            return loss, leaf.grad
        runs["mygrad"] = run
    return _guarded(name, runs, calls=2)


# -- training steps: forward, cross-entropy, backward, SGD with momentum ------------------------------
class MomentumSGD:
    """``torch.optim.SGD(params, lr, momentum)`` for NumPy arrays, updated in place."""

    def __init__(self, arrays, lr=LR, momentum=MOMENTUM):
        self.arrays, self.lr, self.momentum = arrays, lr, momentum
        self.buffers = [None] * len(arrays)

    def step(self, grads):
        for i, (p, g) in enumerate(zip(self.arrays, grads)):
            if self.buffers[i] is None:
                self.buffers[i] = np.array(g, copy=True)
            else:
                self.buffers[i] *= self.momentum
                self.buffers[i] += g
            p -= self.lr * self.buffers[i]


def _torch_like_step(lib, model, x, y):
    return training_step(model, lib.nn.functional.cross_entropy,
                         lib.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM),
                         lib.tensor(x), lib.tensor(y))


def _same_weights(torch_model, ours):
    """tensorlab's copy of the PyTorch model, and the NumPy arrays of its parameters (in order)."""
    arrays = [p.detach().numpy().copy() for p in torch_model.parameters()]
    ours.load_state_dict({k: tensorlab.tensor(v.detach().numpy().copy())
                          for k, v in torch_model.state_dict().items()})
    return arrays


def _anp_cross_entropy(scores, y):
    """Mean cross-entropy of integer labels ``y``, through a log-softmax (autograd.numpy)."""
    shifted = scores - anp.max(scores, axis=1, keepdims=True)
    log_probs = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
    return -anp.mean(log_probs[np.arange(len(y)), y])


def _mlp_case(name, sizes, batch):
    """Linear + ReLU layers of ``sizes`` (no ReLU after the last), batch ``batch``; one SGD step."""
    def build(lib):
        layers = []
        for n_in, n_out in zip(sizes, sizes[1:]):
            layers += [lib.nn.Linear(n_in, n_out), lib.nn.ReLU()]
        return lib.nn.Sequential(*layers[:-1])

    x = _rng.standard_normal((batch, sizes[0]), dtype=np.float32)
    y = _rng.integers(0, sizes[-1], batch)
    theirs = build(torch)
    ours = build(tensorlab)
    arrays = _same_weights(theirs, ours)
    runs = {"tensorlab": _torch_like_step(tensorlab, ours, x, y), "torch": _torch_like_step(torch, theirs, x, y)}
    # the peers hold each layer as (weight transposed, bias) and compute h @ w + b
    pairs = [(w.T.copy(), b.copy()) for w, b in zip(arrays[::2], arrays[1::2])]
    if autograd is not None:
        runs["autograd"] = _autograd_mlp_step(pairs, x, y)
    if mygrad is not None:
        runs["mygrad"] = _mygrad_mlp_step(pairs, x, y)
    return _guarded(name, runs, calls=2)


def _autograd_mlp_step(pairs, x, y):
    params = [a for pair in pairs for a in pair]
    optimizer = MomentumSGD(params)

    def loss_fn(params):
        h = x
        for i in range(0, len(params), 2):
            h = anp.dot(h, params[i]) + params[i + 1]
            if i + 2 < len(params):
                h = anp.maximum(h, 0.0)
        return _anp_cross_entropy(h, y)

    loss_and_grads = autograd.value_and_grad(loss_fn)

    def step():
        loss, grads = loss_and_grads(params)
        optimizer.step(grads)
        return loss
    return step


def _mygrad_mlp_step(pairs, x, y):
    params = [mygrad.tensor(a) for pair in pairs for a in pair]
    optimizer = MomentumSGD([p.data for p in params])
    x_ = mygrad.tensor(x, constant=True)

    def step():
        h = x_
        for i in range(0, len(params), 2):
            h = mygrad.matmul(h, params[i]) + params[i + 1]
            if i + 2 < len(params):
                h = mygrad_relu(h)
        loss = softmax_crossentropy(h, y)
        loss.backward()
        optimizer.step([p.grad for p in params])
        return loss
    return step


def _cnn(lib):
    n = lib.nn
    return n.Sequential(n.Conv2d(1, 16, 3, padding=1), n.ReLU(), n.MaxPool2d(2),
                        n.Conv2d(16, 32, 3, padding=1), n.ReLU(), n.MaxPool2d(2),
                        n.Flatten(), n.Linear(32 * 7 * 7, 10))


def _cnn_case(name, batch):
    """The CNN of bench_nn.py; MyGrad has convolution and pooling, HIPS autograd and micrograd not."""
    x = _rng.standard_normal((batch, 1, 28, 28), dtype=np.float32)
    y = _rng.integers(0, 10, batch)
    theirs = _cnn(torch)
    ours = _cnn(tensorlab)
    arrays = _same_weights(theirs, ours)
    runs = {"tensorlab": _torch_like_step(tensorlab, ours, x, y), "torch": _torch_like_step(torch, theirs, x, y)}
    if mygrad is not None:
        runs["mygrad"] = _mygrad_cnn_step(arrays, x, y)
    return _guarded(name, runs, calls=2)


def _mygrad_cnn_step(arrays, x, y):
    params = [mygrad.tensor(a) for a in arrays]
    optimizer = MomentumSGD([p.data for p in params])
    x_ = mygrad.tensor(x, constant=True)

    def block(h, w, b):
        h = conv_nd(h, w, stride=1, padding=1) + b.reshape(1, -1, 1, 1)
        return max_pool(mygrad_relu(h), (2, 2), 2)

    def step():
        w1, b1, w2, b2, w3, b3 = params
        h = block(block(x_, w1, b1), w2, b2)
        scores = mygrad.matmul(h.reshape(len(y), -1), w3.T) + b3
        loss = softmax_crossentropy(scores, y)
        loss.backward()
        optimizer.step([p.grad for p in params])
        return loss
    return step


# -- import time --------------------------------------------------------------------------------------
def _import_case(name):
    modules = {"tensorlab": "tensorlab", "torch": "torch", "numpy": "numpy", "autograd": "autograd",
               "mygrad": "mygrad", "micrograd": "micrograd.engine"}
    installed = {"autograd": autograd, "mygrad": mygrad, "micrograd": micrograd}
    return name, {lib: (lambda m=module: _import_time(m)) for lib, module in modules.items()
                  if installed.get(lib, True) is not None}


# -- memory: one step of the 50-layer MLP of bench_autograd.py ------------------------------------------
_PEER_STEP = r'''
import sys
import numpy as np
lib = sys.argv[1]
rng = np.random.default_rng(0)
weights = [rng.standard_normal(({w}, {w})).astype(np.float32) / {w} ** 0.5 for _ in range({layers})]
biases = [np.zeros({w}, np.float32) for _ in range({layers})]
x = rng.standard_normal(({b}, {w})).astype(np.float32)

if lib == "autograd":
    import autograd
    import autograd.numpy as anp

    def total(params, x):
        h = x
        for w, b in zip(params[::2], params[1::2]):
            h = anp.maximum(anp.dot(h, w) + b, 0.0)
        return anp.sum(h)

    def step(x, weights, biases):
        params = [a for pair in zip(weights, biases) for a in pair]
        return autograd.grad(total)(params, x)
else:
    import mygrad
    from mygrad.nnet import relu
    weights = [mygrad.tensor(w) for w in weights]
    biases = [mygrad.tensor(b) for b in biases]

    def step(x, weights, biases):
        h = mygrad.tensor(x, constant=True)
        for w, b in zip(weights, biases):
            h = relu(mygrad.matmul(h, w) + b)
        h.sum().backward()


def rss(field):
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith(field)).split()[1]) * 1024


# warm up on a tiny MLP, as bench_autograd.py's script does
tiny_w, tiny_b = [np.ones((4, 4), np.float32)] * 2, [np.zeros(4, np.float32)] * 2
if lib == "mygrad":
    tiny_w, tiny_b = [mygrad.tensor(a) for a in tiny_w], [mygrad.tensor(a) for a in tiny_b]
step(np.ones((2, 4), np.float32), tiny_w, tiny_b)
import gc
gc.collect()
before = rss("VmRSS:")
open("/proc/self/clear_refs", "w").write("5")  # reset the peak-RSS counter to the current RSS
step(x, weights, biases)
print(rss("VmHWM:") - before)
'''


def _memory_case():
    """Peak resident-memory rise of one forward + backward, each library in a fresh interpreter: the
    same script, warm-up and measure as bench_autograd.py's row (whose tensorlab and PyTorch numbers
    are taken by its own function here)."""
    from . import bench_autograd as ba
    script = _PEER_STEP.format(w=ba.WIDTH, b=ba.BATCH, layers=ba.LAYERS)

    def peak(lib):
        out = subprocess.run([sys.executable, "-c", script, lib], capture_output=True, text=True,
                             env=dict(os.environ), check=True, timeout=600)
        return int(out.stdout.strip().splitlines()[-1])

    linux = sys.platform.startswith("linux")
    impls = {"tensorlab": (lambda: ba._peak_rss_of_step("tensorlab")) if linux else None,
             "torch": (lambda: ba._peak_rss_of_step("torch")) if linux else None,
             "autograd": (lambda: peak("autograd")) if linux and autograd is not None else None,
             "mygrad": (lambda: peak("mygrad")) if linux and mygrad is not None else None}
    return (f"MLP forward + backward, {ba.LAYERS} layers x {ba.WIDTH}, batch {ba.BATCH} "
            "(peak RSS rise, subprocess)", impls)


if torch is not None:
    _a32, _b32 = _small_inputs(32, 32, count=2)
    PEER_CASES = [
        _elementwise_case("a + b, 32x32 float32, no grad", [_a32, _b32], _add, lambda a, b: anp.add(a, b)),
        _add_with_grad_case("a + b, 32x32 float32, a.requires_grad (micrograd: two scalars)", _a32, _b32),
        _chain_case("20-op chain (5x mul, add, tanh, sin) + sum, forward + backward, 32x32",
                    *_small_inputs(32, 32, count=3)),
        _elementwise_case("a * b + c, 4M float32, no grad", _small_inputs(4 * 1024 * 1024, count=3), _fma,
                          lambda a, b, c: anp.add(anp.multiply(a, b), c)),
        _mlp_case("MLP 784-128-10 SGD-momentum step, batch 64", (784, 128, 10), 64),
        _mlp_case("MLP 64-128-64-10 SGD-momentum step, batch 64", (64, 128, 64, 10), 64),
        _cnn_case("CNN 2x(conv3x3+relu+maxpool) 1x28x28 SGD-momentum step, batch 32", 32),
        _import_case("import in a fresh interpreter (python -c 'import ...')"),
    ]
    PEER_MEMORY_CASES = [_memory_case()]
