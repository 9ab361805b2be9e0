"""Exercise checks of course/19_saving_and_loading.ipynb (reference solutions:
coursekit/solutions/lesson19.py).

    >>> _ = check_sharing(solution.predictions)
    Correct! A checkpoint saves storages, not just values: what shared memory before saving
             shares it after loading.
    >>> _ = check_resume(solution.make_checkpoint, solution.restore)
    Correct! Weights, optimizer state, step and random generator: everything that decides
             the next step is in the checkpoint.
    >>> _ = check_globals(solution.globals_in)
    Correct! Those are the names a weights_only load looks up in its allow-list -- read from
             the pickle's instructions, without running one.

Exercise 2 runs a short training twice -- straight through, and with a save, a "new process" (a
fresh model and optimizer, another seed) and a restore in the middle -- on tensorlab and on PyTorch.
Exercise 3 reads checkpoints that tensorlab and (when installed) PyTorch wrote.

The lesson also uses :func:`pytorch_checkpoint` (the bytes of a file that ``torch.save`` wrote),
:func:`tensorlab_checkpoint` (one that ``tensorlab.save`` writes) and :func:`checkpoint_from_a_gpu`
(the file a GPU machine would write), which any machine can make.
"""
import base64
import contextlib
import io
import zipfile
import zlib

from . import guard
from .check import (Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised,
                    works_only_on_tensorlab, wrong)
from .compare import describe, differences, kind
from .crosscheck import error_line
from .language import tr
from .libs import TENSORLAB, libraries, library_name, on
from .solutions import lesson19 as solution

# -- checkpoints the lesson reads ------------------------------------------------------------------------

#: ``torch.manual_seed(0); torch.save(torch.nn.Linear(3, 2).state_dict(), f)`` as PyTorch 2.13 writes
#: it (zlib-compressed, base64-encoded). tests/test_lesson19_exercises.py checks that PyTorch, when
#: installed, still writes exactly these bytes.
_PYTORCH_LINEAR_3_2 = (
    "eNqlVM9r01Acf026Nsu0++XcD2EHTxFml7RbszrcJEguOVg7lOIlpGlswrJ2L3nd2GAiyAZDPHl2F/8BBUFBGehB8LiLP8DbLupF"
    "wYtH30u2Lkltp/NBeP3x/fx433y+r6DQcQAYBrSsPjAANEc3rRVjsqIhLb28aMtSCtwKrbuUrtdt29CRVa+57DWnYjhG5aqlIxaC"
    "C0UY40oJTLZqWFUTQUpHdUyZVhvIsl1WdYxyw7IrKjJqbt1RVzIspDmulMQIF1dqVQPGfQgr23UNLfg/srCrFMM1PEyUaLzryw2Y"
    "VBIIMtcVoFAKvQW7FVqJbUF22yQuehA8VYSnS/iooGxpLkyZWMeMmz6PAHvNpEIh2OfhN2G/EtuEAz52EMEzRTjU2IBnS924WF0y"
    "kEYaAoe9/0dKpFtwdAOOecZXDMfFvYDnlJjruuV0QUkynPvi0XmsRJ5C244Pg9Fmx9O3686ShtQDNlkaijT+YAmE/vn3z/fIOcjT"
    "nn4MiEf0B+1VNduq1paMGpKl7J8VOq/cFDEwvwq/UliC6migH8w3DZTXkFEnYZGl2ZPoHi7bQsg2iIfNy/ujJGqJjh5SYC6U6kle"
    "li79h4Evjx+8HHy4M3dH+bn77v6n3afP9N2F7fE54uj1h+rbEaw5coyjibAjQZa4v3Z0ZXH21br2zdN782P/JhFgOur1gtmmXjNd"
    "4klbkGWJ8t5O9cbx738cZI4C6B3VNRwLJ3BdI7eHalVkKf2PRvjpnCDwM9OZbE7I50R+OpOf4kVR5PPZKV6YyYn5LP4szhCXmbX0"
    "Ew774DyXMWK26TM4oX0tzqP3YBQdHMDhENKJgXYzHSUJDtFYiGQvSNIyuVGe4CD0h3iKFGgdwCg8mNpUCP6eApHZiWKDCQxjTTqC"
    "FaLYYIZ6Q9iPAWyb3gVf7Xj4zHFwTOgKSiIxcRhR+mITyUT2Hsrff8X9HePIfQ/opP/dv327Ej6G8er92t/ScKbL")


def pytorch_checkpoint():
    """The bytes of a file that ``torch.save`` wrote (PyTorch 2.13): a ``Linear(3, 2)``'s state_dict,
    made with ``torch.manual_seed(0)``. Any machine can load it, with or without PyTorch."""
    return zlib.decompress(base64.b64decode(_PYTORCH_LINEAR_3_2))


def tensorlab_checkpoint():
    """The bytes ``tensorlab.save`` writes for a ``Linear(3, 2)``'s state_dict, made with
    ``tensorlab.manual_seed(0)`` (for a cross-check: PyTorch loads them, tensorlab does too)."""
    import tensorlab
    tensorlab.manual_seed(0)
    buffer = io.BytesIO()
    tensorlab.save(tensorlab.nn.Linear(3, 2).state_dict(), buffer)
    return buffer.getvalue()


def checkpoint_from_a_gpu(obj, save=None):
    """The file ``save(obj, f)`` (default: ``tensorlab.save``; pass ``torch.save`` for PyTorch's tensors)
    writes on a GPU machine for tensors on ``cuda:0``: the same records, except that each storage's
    location, in its persistent id in data.pkl, is ``'cuda:0'``."""
    if save is None:
        import tensorlab
        save = tensorlab.save
    buffer, out = io.BytesIO(), io.BytesIO()
    save(obj, buffer)
    source = zipfile.ZipFile(buffer)
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("/data.pkl"):    # the pickled string 'cpu' (BINUNICODE, length 3)
                data = data.replace(b"X\x03\x00\x00\x00cpu", b"X\x06\x00\x00\x00cuda:0")
            target.writestr(info.filename, data)
    return out.getvalue()



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
    return tr("The same tensor object reached twice is written once and loads as one object -- as "
              "PyTorch's pickle-based format does too (it memoises objects).")


def _tail_hint(got, truth):
    if got == 4.0:
        return tr("w[3:] is a view of w's storage. A checkpoint saves storages: both go into one block, and "
                  "they load as two views of one new storage -- so a write through one is seen by the other.")
    return tr("loaded['tail'] is loaded['w'][3:] again: its element 1 is element 4 of the storage.")


def _copy_hint(got, truth):
    return tr("clone() copies into a storage of its own; saving keeps it separate, so the write does not reach "
              "it.")


def _offset_hint(got, truth):
    if got == 0:
        return tr("Loading does not make loaded['tail'] a separate tensor starting at 0: it is still a view, "
                  "3 elements into the storage it shares with loaded['w'].")
    return tr("storage_offset() counts elements from the start of the storage that loaded['tail'] views.")


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
                             what=tr("a tuple of 4 predictions: True/False, two numbers and an offset"),
                             note=tr("A checkpoint saves storages, not just values: what shared memory before "
                                     "saving shares it after loading."))


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
    checkpoint, error = guard.run(make_checkpoint, model, optimizer, STEPS_BEFORE)
    if error is not None:
        return raised(error, subject="make_checkpoint")
    if checkpoint is None:
        return tr("{label} returned None", label="make_checkpoint"), tr("Did you forget `return`?")
    buffer = io.BytesIO()
    try:
        torch.save(checkpoint, buffer)
    except Exception as error:  # noqa: BLE001
        return (tr("{subject} raised {error}", subject="torch.save(make_checkpoint(...))", error=error_line(error)),
                tr("A checkpoint holds data that pickle can write: tensors, numbers, dicts and lists of them."))
    buffer.seek(0)
    model, optimizer = _setup(torch, 1234)     # a new process: other weights, another generator state
    try:
        loaded = torch.load(buffer)
    except Exception as error:  # noqa: BLE001
        why = tr("A checkpoint holds data: save model.state_dict() and optimizer.state_dict(), not the model or "
                 "optimizer objects -- torch.load (weights_only=True, the default) refuses to rebuild objects "
                 "whose classes it does not know, because rebuilding them could run any code.")
        return tr("torch.load of the checkpoint raised {error}", error=error_line(error).splitlines()[0][:120]), why
    step, error = guard.run(restore, loaded, model, optimizer)
    if error is not None:
        return raised(error, tr("restore gets back what make_checkpoint returned."), subject="restore")
    if not _same_tensors(list(model.parameters()), weights, torch):
        return (tr("after restore, the model's weights are not the ones saved"),
                tr("Save model.state_dict() and load it with model.load_state_dict(...) -- into the model passed "
                   "to restore (a new model made inside restore is thrown away)."))
    if not _optimizer_tensors(optimizer) or not _same_tensors(_optimizer_tensors(optimizer), moments, torch):
        return (tr("after restore, the optimizer has not got its running averages back (exp_avg, exp_avg_sq)"),
                tr("Adam keeps state for every parameter -- two running averages and a step count -- and the next "
                   "step depends on it: save optimizer.state_dict() and load it with optimizer.load_state_dict()."))
    if not torch.equal(torch.get_rng_state(), rng):
        return (tr("after restore, the random generator is not where it was at the save: the next mini-batches "
                   "differ"),
                tr("The batches come from torch.randint. Save torch.get_rng_state() and put it back "
                   "with torch.set_rng_state(...)."))
    if step != STEPS_BEFORE:
        return (tr("restore returned {got}, expected the step saved ({step})", got=describe(step), step=STEPS_BEFORE),
                tr("Return the step stored in the checkpoint, so the loop knows where to go on."))
    losses += _train(torch, model, optimizer, STEPS_AFTER)
    found = differences(losses, _unbroken(torch), where=tr("the losses after resuming"))
    if found:
        return found[0], tr("Something else that decides the next step was not saved.")
    return None


@always_a_verdict
def check_resume(make_checkpoint, restore):
    """Exercise 2: ``make_checkpoint(model, optimizer, step)`` and ``restore(checkpoint, model, optimizer)``
    resume a training run with exactly the losses of a run without a break."""
    what = tr("two function bodies: make_checkpoint returns a dict, restore loads it and returns the step")
    if is_stub(make_checkpoint) or is_stub(restore):
        return not_answered(what)
    for name, f in (("make_checkpoint", make_checkpoint), ("restore", restore)):
        if not callable(f):
            return wrong(tr("`{name}` should be a function; it is {kind}.", name=name, kind=kind(f)))
    for index, (_, library) in enumerate(libraries()):
        mk, rs = on(library, make_checkpoint), on(library, restore)
        model, optimizer = _setup(library, 0)
        if index == 0 and guard.run(mk, model, optimizer, 0)[0] is Ellipsis:
            return not_answered(what)
        problem = _resume_problem(mk, rs, library)
        if problem is not None:
            found, why = problem
            if index > 0:
                return wrong(tr("it works on {tensorlab} but not on {library}: {found}.", tensorlab=TENSORLAB,
                                library=library_name(library), found=found),
                             why or tr("PyTorch is the reference (please report the difference)."))
            return wrong(tr("{found}.", found=found), why)
    return correct(tr("Weights, optimizer state, step and random generator: everything that decides the next "
                      "step is in the checkpoint."))


# -- exercise 3: the names a checkpoint imports ------------------------------------------------------


def surprise_checkpoint(torch):
    """A checkpoint whose pickle calls ``print`` when it is loaded with weights_only=False."""
    class Surprise:
        def __reduce__(self):
            return (print, ("this line ran while the file was being LOADED",))

    buffer = io.BytesIO()
    torch.save({"weight": torch.ones(2), "extra": Surprise()}, buffer)
    return buffer.getvalue()


def _checkpoints(torch):
    """(label, bytes) of three checkpoints that ``torch`` writes: a state_dict into a file object,
    a whole model into ``net.pth`` (its records are then in the folder ``net/``), and a surprise."""
    import tempfile
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU())
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    yield tr("a state_dict"), buffer.getvalue()
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/net.pth"
        torch.save(model, path)
        with open(path, "rb") as f:
            yield tr("a whole model saved to net.pth"), f.read()
    yield tr("the surprise checkpoint"), surprise_checkpoint(torch)


def _globals_hint(error, label):
    text = str(error)
    if isinstance(error, KeyError) and "data.pkl" in text:
        return tr("The records sit in a folder named after the file -- net.pth has net/data.pkl, a file object "
                  "archive/data.pkl: find the name that ends with '/data.pkl' in the archive's namelist().")
    if "persistent" in text or "Weights only" in text or type(error).__name__ == "UnpicklingError":
        return tr("Don't unpickle it: unpickling is what runs a file's code. pickletools.genops(data) reads the "
                  "instructions one by one and runs none of them.")
    if isinstance(error, zipfile.BadZipFile):
        return tr("The checkpoint is a zip archive: zipfile.ZipFile(io.BytesIO(data)) opens bytes in memory.")
    if isinstance(error, ValueError):              # pickletools on the zip's bytes: no pickle there
        return tr("genops reads a pickle: give it the record data.pkl (archive.read(name)), not the zip archive "
                  "around it.")
    return tr("Open the archive with zipfile, read its data.pkl record, and walk it with pickletools.genops.")


def _globals_problem(got, expected):
    if not isinstance(got, (set, frozenset)):
        if isinstance(got, (list, tuple)) and set(got) == expected:
            return (tr("returned {what}", what=kind(got)),
                    tr("Return a set: each name once (a file may name a global many times)."))
        return tr("returned {what}", what=describe(got)), tr("Return a set of strings, one 'module.name' per global.")
    if any(isinstance(n, str) and " " in n for n in got):
        return (tr("returned {what}", what=describe(sorted(got, key=str))),
                tr("genops gives GLOBAL's argument as 'module name', with a space: write it as 'module.name'."))
    missing, extra = sorted(expected - got, key=str), sorted(got - expected, key=str)
    if missing:
        return (tr("returned a set without {names}", names=describe(missing)),
                tr("Every GLOBAL instruction of the pickle counts, wherever it is, not only the first."))
    return (tr("returned a set with {names}, which the pickle does not name", names=describe(extra)),
            tr("Only the GLOBAL instructions name a global: strings pushed by BINUNICODE are data."))


@always_a_verdict
def check_globals(globals_in):
    """Exercise 3: ``globals_in(data)`` is the set of names (``module.name``) that a checkpoint's data.pkl
    imports, read without running the pickle."""
    what = tr("a function body that returns the set of names the checkpoint's pickle imports")
    if is_stub(globals_in):
        return not_answered(what)
    if not callable(globals_in):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="globals_in", what=what,
                        kind=kind(globals_in)))
    for index, (_, library) in enumerate(libraries()):
        runs = []
        for label, data in _checkpoints(library):
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                got, error = guard.run(globals_in, data)
            if "LOADED" in printed.getvalue():
                return wrong(tr("`globals_in` on {label} ran the checkpoint's pickle: its print() call printed.",
                                label=label),
                             tr("Don't unpickle it -- that is what runs a file's code. pickletools.genops(data) reads "
                                "the instructions one by one and runs none of them."))
            runs.append((label, data, got, error))
        for label, data, got, error in runs:
            if error is not None:
                found, why = raised(error, _globals_hint(error, label), subject="`globals_in`")
                return wrong(tr("{found} on {label}.", found=found, label=label), why)
            if got is Ellipsis:
                return not_answered(what)
            expected = solution.globals_in(data)
            if got != expected:
                found, why = _globals_problem(got, expected)
                if index > 0:
                    return works_only_on_tensorlab(tr("`{name}` on {case}", name="globals_in", case=label), library,
                                                   found)
                return wrong(tr("`globals_in` on {label} {found}.", label=label, found=found), why)
    return correct(tr("Those are the names a weights_only load looks up in its allow-list -- read from the "
                      "pickle's instructions, without running one."))
