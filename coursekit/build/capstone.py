"""The capstone: a small CNN learns the 8x8 digits with every piece the learner built in place of
tensorlab's -- strides, broadcasting, the ops' formulas, the graph, the engine, Module, Adam and
the convolution, stages 1 to 8 all at once.

The network (:func:`network`) is two conv - ReLU - max-pool stages with a residual convolution
between them, then a linear layer, trained with Adam (lr 0.01) on :class:`~tensorlab.vision.datasets.Digits`
(the copy shipped with tensorlab, no download) for a fixed number of steps on fixed batches. Its
starting weights are drawn in NumPy and loaded with ``load_state_dict``, and the batches are cut
from NumPy permutations: no random number generator of tensorlab or PyTorch is involved, so the
same program gives the same losses on both.

Grading (``coursekit/build/capstone_tests.py``, the last tests of stage 8) trains it twice in the
grading process: with tensorlab's own code (the reference run) and with the learner's (every stage
placed, :func:`placed`); every step's loss must equal the reference run's, and PyTorch's losses
recorded in ``reference.json`` (``python -m coursekit.build record``), to float32 tolerance, and
the test accuracy must reach 95%. It trains in float64: in float32 the rounding of one machine's
kernels (or of a correct but differently ordered formula) is enough to flip a max-pool's winner after
a dozen steps, and from there the runs part; in float64 they stay together for the whole run.
When the learner's run differs, each stage of theirs is put in place alone, up to the step that
first differed, to name the stage that changes it.

    >>> [name for name, _ in initial_weights()][:3]
    ['conv1.weight', 'conv1.bias', 'conv2.weight']
"""
from __future__ import annotations

import contextlib
import time
import traceback
from pathlib import Path

import numpy as np

from ..language import tr
from . import place
from .skeleton import regions
from .stages import STAGES

STEPS = 150
BATCH = 64
LR = 0.01
SEED = 0
ACCURACY = 0.95
RTOL, ATOL = 1e-4, 1e-6     # float32 tolerance, which float64 runs of the same program keep to the end
SETUP = f"{STEPS} steps of Adam(lr={LR}) on batches of {BATCH} Digits images in float64, seed {SEED}"

#: (name in the state_dict, shape, fan_in) of each parameter of :func:`network`
SHAPES = [("conv1.weight", (8, 1, 3, 3), 9), ("conv1.bias", (8,), 9), ("conv2.weight", (8, 8, 3, 3), 72),
          ("conv2.bias", (8,), 72), ("conv3.weight", (16, 8, 3, 3), 72), ("conv3.bias", (16,), 72),
          ("fc.weight", (10, 64), 64), ("fc.bias", (10,), 64)]


# -- the program: data, network, training ------------------------------------------------------------


def digits():
    """The Digits train and test parts as NumPy arrays, normalised with the dataset's mean and std."""
    from tensorlab.vision.datasets import Digits
    parts = []
    for train in (True, False):
        data = Digits(train=train)
        images = (data._scaled.astype(np.float64) - Digits.mean[0]) / Digits.std[0]
        parts.append((images, data._labels))
    return parts


def initial_weights():
    """The starting weights, drawn in NumPy like PyTorch's default: uniform in +-1/sqrt(fan_in)."""
    rng = np.random.default_rng(SEED)
    return [(name, rng.uniform(-1, 1, shape) / np.sqrt(fan_in))
            for name, shape, fan_in in SHAPES]


def network(lib):
    """The CNN on ``lib`` (tensorlab or torch), with the starting weights loaded::

        conv1 1 -> 8, 3x3, padding 1 -> ReLU -> max-pool 2          8 x 8 -> 4 x 4
        h + ReLU(conv2 8 -> 8, 3x3, padding 1 (h))                  a skip connection: h is used twice
        conv3 8 -> 16, 3x3, padding 1 -> ReLU -> max-pool 2         4 x 4 -> 2 x 2
        flatten -> fc 64 -> 10

    The skip connection makes backward add two gradients for ``h`` (the engine's accumulation);
    the layers are registered by assignment (Module.__setattr__)."""
    nn, F = lib.nn, lib.nn.functional

    class DigitsCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
            self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
            self.conv3 = nn.Conv2d(8, 16, 3, padding=1)
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            h = F.max_pool2d(F.relu(self.conv1(x)), 2)
            h = h + F.relu(self.conv2(h))
            h = F.max_pool2d(F.relu(self.conv3(h)), 2)
            return self.fc(h.flatten(1))

    model = DigitsCNN().double()
    model.load_state_dict({name: lib.tensor(array) for name, array in initial_weights()})
    return model


def batches(count):
    """The indices of the first ``count`` batches: each epoch a fresh NumPy permutation."""
    n = len(digits()[0][1])
    order = np.concatenate([np.random.default_rng(SEED + epoch).permutation(n)
                            for epoch in range(count * BATCH // n + 1)])
    return [order[i * BATCH:(i + 1) * BATCH] for i in range(count)]


def train(lib, steps=STEPS, evaluate=True, directory=None):
    """Train on ``lib``; returns ``{"losses": [...], "accuracy": ...}``. If the program raises, the
    losses so far and ``"error"``: the exception, the step it happened at, and where in the
    learner's files (in ``directory``) it was raised."""
    (images, labels), (test_images, test_labels) = digits()
    losses, result = [], {}
    try:
        model = network(lib)
        optimizer = lib.optim.Adam(model.parameters(), lr=LR)
        for index in batches(steps):
            loss = lib.nn.functional.cross_entropy(model(lib.tensor(images[index])), lib.tensor(labels[index]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(float(loss.item()))
        if evaluate:
            model.eval()
            with lib.no_grad():
                predicted = model(lib.tensor(test_images)).argmax(1).numpy()
            result["accuracy"] = float(np.mean(predicted == test_labels))
    except Exception as error:  # noqa: BLE001 - whatever the learner's code raises is the outcome
        result["error"] = {"step": len(losses) + 1, "message": f"{type(error).__name__}: {error}",
                           "where": _where(error, directory)}
    result["losses"] = losses
    return result


def _where(error, directory):
    """``file, function`` of the innermost frame of the learner's files in ``directory``, or None."""
    found = None
    for frame in traceback.extract_tb(error.__traceback__):
        if directory is not None and Path(frame.filename).resolve().parent == Path(directory).resolve():
            found = f"{Path(frame.filename).name}, {frame.name}"
    return found


def record(torch):
    """PyTorch's run of the same program, for reference.json (``python -m coursekit.build record``)."""
    run = train(torch)
    return {"setup": SETUP, "losses": [round(x, 8) for x in run["losses"]], "accuracy": run["accuracy"]}


def recorded():
    from .cases import _recorded
    return _recorded()["capstone"]


# -- every stage in place at once ----------------------------------------------------------------------


def own(stage):
    """tensorlab's own functions for a stage, by their names in the learner's file."""
    return {region.name: place.original(region) for region in regions(stage)}


@contextlib.contextmanager
def placed(chosen):
    """Inside the block, each stage's regions run the functions ``chosen[stage]`` gives (by name),
    and tensorlab's own for the stages not chosen; afterwards every region gets back what it had.
    A learner's file that imported another stage's function from tensorlab (stage 3's file imports
    ``unbroadcast``) calls the learner's version of it meanwhile, so their pieces work together."""
    found = [region for stage in sorted(STAGES) for region in regions(stage)]
    before = {(r.module, r.qualname): place.in_place(r) for r in found}
    now = {}
    for region in found:
        function = chosen.get(region.stage, {}).get(region.name) or place.original(region)
        place.put(region, function)
        now[id(place.original(region))] = function
    rebound = []
    for functions in chosen.values():
        for function in functions.values():
            names = getattr(function, "__globals__", {})
            for key, value in list(names.items()):
                if id(value) in now and now[id(value)] is not value:
                    rebound.append((names, key, value))
                    names[key] = now[id(value)]
    try:
        yield
    finally:
        for names, key, value in rebound:
            names[key] = value
        for region in found:
            place.put(region, before[(region.module, region.qualname)])


# -- the capstone's run and its verdicts ---------------------------------------------------------------


def stubs(directory):
    """{stage: the functions its learner's file still has to write (all of them if it is missing)}."""
    left = {}
    for stage in sorted(STAGES):
        path = Path(directory) / STAGES[stage].filename
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        names = [r.name for r in regions(stage)
                 if not text or f'raise NotImplementedError("stage {stage}: write {r.name}")' in text]
        if names:
            left[stage] = names
    return left


def first_difference(losses, reference):
    """``(step, yours, reference)`` of the first loss out of tolerance (or missing), else None."""
    for step, expected in enumerate(reference, 1):
        if step > len(losses) or not np.isclose(losses[step - 1], expected, rtol=RTOL, atol=ATOL):
            return step, (losses[step - 1] if step <= len(losses) else None), expected
    return None


def _differs(run, reference, steps):
    return "error" in run or first_difference(run["losses"][:steps], reference["losses"][:steps]) is not None


def suspects(functions, reference, step, directory=None):
    """The stages whose learner's code, put in place alone, changes the loss by ``step`` (or raises)."""
    found = []
    for stage in sorted(functions):
        with placed({stage: functions[stage]}):
            alone = train(_tensorlab(), steps=step, evaluate=False, directory=directory)
        if _differs(alone, reference, step):
            found.append(stage)
    return found


def _tensorlab():
    import tensorlab
    return tensorlab


_RUNS = {}


def run(directory):
    """The capstone for the learner's files in ``directory`` (computed once per grading process)."""
    directory = Path(directory)
    if directory in _RUNS:
        return _RUNS[directory]
    from .grade import load_learner
    result = {"stubs": stubs(directory)}
    if not result["stubs"]:
        functions = {stage: load_learner(stage, directory) for stage in sorted(STAGES)}
        start = time.process_time()
        with placed({}):
            result["reference"] = train(_tensorlab())
        with placed(functions):
            result["yours"] = train(_tensorlab(), directory=directory)
        result["cpu_seconds"] = time.process_time() - start
        yours, reference = result["yours"], result["reference"]
        if "error" in yours or first_difference(yours["losses"], reference["losses"]) is not None:
            step = yours["error"]["step"] if "error" in yours else first_difference(yours["losses"],
                                                                                  reference["losses"])[0]
            result["suspects"] = suspects(functions, reference, step, directory)
    _RUNS[directory] = result
    return result


def _stages_named(numbers):
    return ", ".join(tr("stage {stage} ({title})", stage=s, title=STAGES[s].title) for s in numbers)


def not_written(result):
    """Why the capstone cannot train yet, or None."""
    if not result["stubs"]:
        return None
    return tr("The capstone trains with every stage written; still to write: {left}. Grade each with "
              "%grade N (python -m coursekit.build grade N).",
              left="; ".join(f"{tr('stage {stage}', stage=s)}: {', '.join(names)}"
                             for s, names in result["stubs"].items()))


def cause(result):
    """The learner's stage the difference comes from, as a sentence."""
    found = result.get("suspects", [])
    if not found:
        return tr("No stage of yours changes the loss when it runs alone in tensorlab: the difference "
                  "appears only when your stages work together (look at what one of your functions "
                  "calls of another stage).")
    return tr("Likely cause: {stages} -- put in place alone, with the rest tensorlab's own, it changes "
              "the loss too. Grade it with %grade {first}.", stages=_stages_named(found), first=found[0])


def _stopped(run):
    error = run["error"]
    where = tr(" (raised in {where})", where=error["where"]) if error["where"] else ""
    return tr("Training stopped at step {step}: {message}{where}.", step=error["step"],
              message=error["message"].rstrip(". \n"), where=where)


def loss_verdict(result, against="tensorlab"):
    """None when every step's loss agrees, else what differs and where (for the learner)."""
    yours = result["yours"]
    if "error" in yours:
        return _stopped(yours) + " " + cause(result)
    if against == "tensorlab":
        expected, whose = result["reference"]["losses"], tr("tensorlab's own code")
    else:
        expected, whose = recorded()["losses"], tr("PyTorch (recorded in coursekit/build/reference.json)")
    found = first_difference(yours["losses"], expected)
    if found is None:
        return None
    step, mine, theirs = found
    text = tr("Step {step} of {steps}: the loss is {mine:.7f} with your code, {theirs:.7f} with {whose} -- they "
              "differ by {diff:.1e}, more than float32 tolerance (relative {rtol:g}).", step=step, steps=STEPS,
              mine=mine, theirs=theirs, whose=whose, diff=abs(mine - theirs), rtol=RTOL)
    if against != "tensorlab" and first_difference(result["reference"]["losses"], expected) is not None:
        return text + " " + tr("tensorlab's own run differs from PyTorch's record too: this machine computes "
                               "differently; rerecord with python -m coursekit.build record.")
    return text + " " + cause(result)


def accuracy_verdict(result):
    yours = result["yours"]
    if "error" in yours:
        return _stopped(yours) + " " + cause(result)
    if yours["accuracy"] >= ACCURACY:
        return None
    return tr("Test accuracy after {steps} steps: {accuracy:.1%} with your code, {reference:.1%} with "
              "tensorlab's own; the bar is {bar:.0%}.", steps=STEPS, accuracy=yours["accuracy"],
              reference=result["reference"].get("accuracy", float("nan")), bar=ACCURACY)
