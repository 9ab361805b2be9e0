"""Exercise checks of course/19_saving_and_loading.ipynb (reference solutions:
coursekit/solutions/lesson19.py).

    >>> _ = check_sharing(solution.predictions)
    Correct! A checkpoint saves storages, not just values: what shared memory before saving shares it after loading.
    >>> _ = check_resume(solution.make_checkpoint, solution.restore)
    Correct! Weights, optimizer state, step and random generator: everything that decides the next step is in the checkpoint.
    >>> _ = check_manifest(solution.read_manifest)
    Correct! Magic, four fixed-size fields, two checksums, then the JSON manifest: a loader that only parses JSON and copies bytes.

Exercise 2 runs a short training twice -- straight through, and with a save, a "new process" (a
fresh model and optimizer, another seed) and a restore in the middle -- on tensorlab and on PyTorch.
Exercise 3 is about tensorlab's own file format, so it runs on tensorlab only.
"""
import io
import json

from .check import Question, check_predictions, correct, is_stub, not_answered, wrong
from .compare import describe, differences, kind
from .crosscheck import error_line
from .libs import TENSORLAB, libraries, library_name, on
from .solutions import lesson19 as solution

# -- exercise 1: what a loaded checkpoint shares ------------------------------------------------------


def _loaded(torch):
    w = torch.arange(6.0)
    buffer = io.BytesIO()
    torch.save({"w": w, "tail": w[3:], "copy": w.clone(), "again": w}, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)
    loaded["w"][4] = 100.0
    return loaded


def _again_hint(got, truth):
    return ("The same tensor object reached twice is written once and loads as one object -- as "
            "PyTorch's pickle-based format does too (it memoises objects).")


def _tail_hint(got, truth):
    if got == 4.0:
        return ("w[3:] is a view of w's storage. A checkpoint saves storages: both go into one block, and "
                "they load as two views of one new storage -- so a write through one is seen by the other.")
    return "loaded['tail'] is loaded['w'][3:] again: its element 1 is element 4 of the storage."


def _copy_hint(got, truth):
    return "clone() copies into a storage of its own; saving keeps it separate, so the write does not reach it."


def _offset_hint(got, truth):
    if got == 0:
        return ("Loading does not make loaded['tail'] a separate tensor starting at 0: it is still a view, "
                "3 elements into the storage it shares with loaded['w'].")
    return "storage_offset() counts elements from the start of the storage that loaded['tail'] views."


def _is_again(loaded):
    return loaded["again"] is loaded["w"]


SHARING_QUESTIONS = [
    Question('loaded["again"] is loaded["w"]', lambda torch: _is_again(_loaded(torch)), _again_hint),
    Question('loaded["tail"][1].item()', lambda torch: _loaded(torch)["tail"][1].item(), _tail_hint),
    Question('loaded["copy"][4].item()', lambda torch: _loaded(torch)["copy"][4].item(), _copy_hint),
    Question('loaded["tail"].storage_offset()', lambda torch: _loaded(torch)["tail"].storage_offset(),
             _offset_hint),
]


def check_sharing(answer):
    """Exercise 1: (is, a value through a view, a value of a clone, a storage offset)."""
    if isinstance(answer, (tuple, list)) and len(answer) == 4 and not any(is_stub(a) for a in answer):
        answer = tuple(float(a) if i in (1, 2) and type(a) is int else a for i, a in enumerate(answer))
    return check_predictions(answer, SHARING_QUESTIONS,
                             what="a tuple of 4 predictions: True/False, two numbers and an offset",
                             note="A checkpoint saves storages, not just values: what shared memory before "
                                  "saving shares it after loading.")


# -- exercise 2: resume training exactly ---------------------------------------------------------------

STEPS_BEFORE, STEPS_AFTER = 4, 4


def _setup(torch, seed):
    torch.manual_seed(seed)
    nn = torch.nn
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    return model, optimizer


def _data(torch):
    x = torch.linspace(-1, 1, 64).reshape(32, 2)
    return x, (3 * x[:, :1] * x[:, 1:]).sin()


def _train(torch, model, optimizer, steps):
    """``steps`` Adam steps on random mini-batches (drawn with torch.randint); the losses."""
    x, y = _data(torch)
    losses = []
    for _ in range(steps):
        batch = torch.randint(0, 32, (8,))
        loss = torch.nn.functional.mse_loss(model(x[batch]), y[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def _unbroken(torch):
    model, optimizer = _setup(torch, 0)
    return _train(torch, model, optimizer, STEPS_BEFORE + STEPS_AFTER)


def _same_tensors(a, b, torch):
    return all(not differences(x, y, grads=False) for x, y in zip(a, b))


def _optimizer_tensors(optimizer):
    return [v for state in optimizer.state.values() for v in state.values() if hasattr(v, "shape")]


def _resume_problem(make_checkpoint, restore, torch):
    """(what is off, why) for one library, or None."""
    model, optimizer = _setup(torch, 0)
    losses = _train(torch, model, optimizer, STEPS_BEFORE)
    weights = [p.detach().clone() for p in model.parameters()]
    moments = [t.clone() for t in _optimizer_tensors(optimizer)]
    rng = torch.get_rng_state().clone()
    try:
        checkpoint = make_checkpoint(model, optimizer, STEPS_BEFORE)
    except Exception as error:  # noqa: BLE001 - the learner's error is what we report
        return f"make_checkpoint raised {error_line(error)}", ""
    if checkpoint is None:
        return "make_checkpoint returned None", "Did you forget `return`?"
    buffer = io.BytesIO()
    try:
        torch.save(checkpoint, buffer)
    except Exception as error:  # noqa: BLE001
        why = ("A checkpoint holds data: save model.state_dict() and optimizer.state_dict(), not the model or "
               "optimizer objects (tensorlab refuses them; PyTorch pickles them, and loading them back with "
               "weights_only=True, today's default, fails).")
        return f"torch.save(make_checkpoint(...)) raised {error_line(error)}", why
    buffer.seek(0)
    model, optimizer = _setup(torch, 1234)     # a new process: other weights, another generator state
    try:
        step = restore(torch.load(buffer), model, optimizer)
    except Exception as error:  # noqa: BLE001
        return f"restore raised {error_line(error)}", "restore gets back what make_checkpoint returned."
    if not _same_tensors(list(model.parameters()), weights, torch):
        return ("after restore, the model's weights are not the ones saved",
                "Save model.state_dict() and load it with model.load_state_dict(...) -- into the model passed "
                "to restore (a new model made inside restore is thrown away).")
    if not _optimizer_tensors(optimizer) or not _same_tensors(_optimizer_tensors(optimizer), moments, torch):
        return ("after restore, the optimizer has not got its running averages back (exp_avg, exp_avg_sq)",
                "Adam keeps state for every parameter -- two running averages and a step count -- and the next "
                "step depends on it: save optimizer.state_dict() and load it with optimizer.load_state_dict().")
    if not torch.equal(torch.get_rng_state(), rng):
        return ("after restore, the random generator is not where it was at the save: the next mini-batches "
                "differ", "The batches come from torch.randint. Save torch.get_rng_state() and put it back "
                         "with torch.set_rng_state(...).")
    if step != STEPS_BEFORE:
        return (f"restore returned {describe(step)}, expected the step saved ({STEPS_BEFORE})",
                "Return the step stored in the checkpoint, so the loop knows where to go on.")
    losses += _train(torch, model, optimizer, STEPS_AFTER)
    found = differences(losses, _unbroken(torch), where="the losses after resuming")
    if found:
        return found[0], "Something else that decides the next step was not saved."
    return None


def check_resume(make_checkpoint, restore):
    """Exercise 2: ``make_checkpoint(model, optimizer, step)`` and ``restore(checkpoint, model, optimizer)``
    resume a training run with exactly the losses of a run without a break."""
    what = "two function bodies: make_checkpoint returns a dict, restore loads it and returns the step"
    if is_stub(make_checkpoint) or is_stub(restore):
        return not_answered(what)
    for name, f in (("make_checkpoint", make_checkpoint), ("restore", restore)):
        if not callable(f):
            return wrong(f"`{name}` should be a function; it is {kind(f)}.")
    for index, (_, library) in enumerate(libraries()):
        mk, rs = on(library, make_checkpoint), on(library, restore)
        model, optimizer = _setup(library, 0)
        if index == 0 and mk(model, optimizer, 0) is Ellipsis:
            return not_answered(what)
        problem = _resume_problem(mk, rs, library)
        if problem is not None:
            found, why = problem
            if index > 0:
                return wrong(f"it works on {TENSORLAB} but not on {library_name(library)}: {found}.",
                             why or "PyTorch is the reference (please report the difference).")
            return wrong(found + ".", why)
    return correct("Weights, optimizer state, step and random generator: everything that decides the next "
                   "step is in the checkpoint.")


# -- exercise 3: read the manifest -------------------------------------------------------------------


def _checkpoints(torch):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    cases = [("a model's state_dict", model.state_dict()),
             ("a training checkpoint", {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                                        "step": 12}),
             ("an empty dict", {})]
    for label, obj in cases:
        buffer = io.BytesIO()
        torch.save(obj, buffer)
        yield label, buffer.getvalue()


def _manifest_hint(error, data):
    text = str(error)
    if isinstance(error, UnicodeDecodeError) and error.start < 8:
        error = json.JSONDecodeError("not JSON", "", 0)      # binary bytes at the start: the wrong offset
    if isinstance(error, UnicodeDecodeError) or "Extra data" in text:
        return ("The slice went past the manifest into the tensor data: the manifest's length is the uint64 "
                "at bytes 18..25, little-endian ('<Q'), and the manifest starts at byte 42.")
    if isinstance(error, json.JSONDecodeError) and error.pos == 0:
        return ("The slice does not start where the JSON does: after the magic (14 bytes) come version (4), "
                "two lengths (8 + 8) and two CRC32s (4 + 4) -- the manifest starts at byte 42.")
    if isinstance(error, json.JSONDecodeError):
        return ("The JSON is cut short: take as many bytes as the manifest length says (the first uint64, bytes "
                "18..25); the second one is the tensor data's length.")
    if "unpack requires a buffer" in text:
        return "struct.unpack needs exactly as many bytes as its format: '<IQQ' reads 4 + 8 + 8 = 20 bytes."
    return "Follow the table: magic, version, manifest length, data length, two CRCs, then the manifest."


def check_manifest(read_manifest):
    """Exercise 3: ``read_manifest(data)`` returns the JSON manifest of a checkpoint's bytes, as a dict."""
    import tensorlab

    what = "a function body that returns the manifest as a dict"
    if is_stub(read_manifest):
        return not_answered(what)
    if not callable(read_manifest):
        return wrong(f"`read_manifest` should be a function ({what}); it is {kind(read_manifest)}.")
    for label, data in _checkpoints(tensorlab):
        try:
            got = read_manifest(data)
        except Exception as error:  # noqa: BLE001
            return wrong(f"`read_manifest` on {label} raised {error_line(error)}.", _manifest_hint(error, data))
        if got is Ellipsis:
            return not_answered(what)
        if isinstance(got, (bytes, bytearray, str)):
            return wrong(f"`read_manifest` on {label} returned {kind(got)}, not a dict.",
                         "The manifest is JSON text: parse it with json.loads(...).")
        expected = solution.read_manifest(data)
        if got != expected:
            return wrong(f"`read_manifest` on {label} returned {describe(got)}, not the manifest.",
                         "It should be the whole JSON document: format, version, root and blocks.")
    return correct("Magic, four fixed-size fields, two checksums, then the JSON manifest: a loader that only "
                   "parses JSON and copies bytes.")
