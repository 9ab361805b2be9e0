"""Exercise checks of course/12_containers_and_state_dict.ipynb (reference solutions:
coursekit/solutions/lesson12.py).

    >>> _ = check_sequential(solution.predictions)
    Correct! A Sequential names its children by position (or by the OrderedDict's keys);
             state_dict saves parameters and buffers under those names.

Exercises 2 and 4 answer with a Module *class*, and exercise 3's answer changes what a model loads;
``check_function`` covers neither, so this module has its own small checks built from the same
parts; :func:`coursekit.libs.class_on` re-creates a learner's Module subclass for PyTorch.
"""
from collections import OrderedDict

from . import guard
from .check import (Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong,
                    works_only_on_tensorlab)
from .compare import differences, is_tensor, kind
from .language import tr
from .libs import TENSORLAB, class_on, libraries, library_name, on
from .solutions import lesson12 as solution


# -- exercise 1: predict names and counts ----------------------------------------------------------------

def make_model(torch):
    """The lesson's Sequential built from an OrderedDict, on ``torch``."""
    nn = torch.nn
    return nn.Sequential(OrderedDict([
        ("conv", nn.Conv2d(1, 4, 3)),
        ("bn", nn.BatchNorm2d(4)),
        ("act", nn.ReLU()),
        ("head", nn.Sequential(nn.Flatten(), nn.Linear(4 * 6 * 6, 10))),
    ]))


def _keys_hint(got, truth):
    if not isinstance(got, tuple):
        return tr("Write the keys as a list or tuple of strings.")
    got_set, truth_set = set(got), set(truth)
    if any(str(k).startswith("act") for k in got_set):
        return tr("ReLU has nothing to save: no parameters, no buffers, so no keys.")
    if any(str(k).startswith("head.0") for k in got_set):
        return tr("Flatten is head.0 and has no parameters; the Linear is head.1 -- a Sequential numbers its "
                  "children by position, whether they have parameters or not.")
    if not {"bn.running_mean", "bn.running_var"} <= got_set:
        return tr("BatchNorm's running statistics are buffers, and persistent buffers are saved in state_dict.")
    if "bn.num_batches_tracked" not in got_set:
        return tr("BatchNorm keeps a third buffer, num_batches_tracked (a 0-d int64 counter), saved too.")
    if got_set == truth_set:
        return tr("The right keys, in another order: children in the order they were registered, each with its "
                  "parameters first and then its buffers.")
    missing, extra = truth_set - got_set, sorted(map(str, got_set - truth_set))
    problems = "; ".join(([tr("{n} key(s) missing", n=len(missing))] if missing else []) +
                         ([tr("not keys: {keys}", keys=", ".join(extra))] if extra else []))
    return tr("{problems}. Each child's keys are its name, a dot and its own parameter or buffer names.",
              problems=problems)


def _params_hint(got, truth):
    if got == 9:
        return tr("parameters() yields only Parameters: BatchNorm's three buffers are in state_dict, not here.")
    return tr("Count the Parameter tensors, not their elements: which layers have a weight and a bias? "
              "(Buffers are not parameters.)")


def _modules_hint(got, truth):
    if got == 6:
        return tr("modules() starts with the model itself.")
    if got in (4, 5):
        return tr("modules() is recursive and starts with the model itself: head's own two children count too.")
    return tr("modules() yields the model itself, then every module inside it, at any depth: count them.")


def _shape_hint(got, truth):
    if got == (144, 10):
        return tr("A Linear weight is [out_features, in_features]: one row per output.")
    return tr("A Linear weight is [out_features, in_features]; in_features is what Flatten makes of the "
              "conv's output: channels x height x width after a 3x3 convolution of the 8x8 input.")


PREDICTION_QUESTIONS = [
    Question("list(model.state_dict())", lambda torch: tuple(make_model(torch).state_dict()), _keys_hint),
    Question("len(list(model.parameters()))", lambda torch: len(list(make_model(torch).parameters())),
             _params_hint),
    Question("len(list(model.modules()))", lambda torch: len(list(make_model(torch).modules())), _modules_hint),
    Question("model.head[1].weight.shape", lambda torch: tuple(make_model(torch).head[1].weight.shape),
             _shape_hint),
]


def check_sequential(answer):
    """Exercise 1: (state_dict keys, number of parameter tensors, number of modules, a weight's shape)."""
    return check_predictions(answer, PREDICTION_QUESTIONS,
                             what=tr("a tuple of 4 predictions: a list of keys, two numbers and a shape"),
                             note=tr("A Sequential names its children by position (or by the OrderedDict's "
                                     "keys); state_dict saves parameters and buffers under those names."))


# -- exercise 2: a registered list of layers -------------------------------------------------------------

STACK_SIZES = ([4, 8, 3], [3, 5, 5, 2])


def _keys_for(sizes):
    return [f"layers.{i}.{p}" for i in range(len(sizes) - 1) for p in ("weight", "bias")]


def _stack_problem(cls, reference, sizes, torch):
    """(what is off, why) for the learner's ``Stack(sizes)`` on ``torch``, or None."""
    label = f"Stack({sizes})"
    model, error = guard.run(cls, sizes)
    if error is not None:
        return raised(error, subject=label)
    names = [name for name, _ in model.named_parameters()]
    if not names:
        plain_lists = [k for k, v in vars(model).items()
                       if isinstance(v, (list, tuple, dict)) and v and
                       all(isinstance(m, torch.nn.Module) for m in (v.values() if isinstance(v, dict) else v))]
        if plain_lists:
            return (tr("{label}.parameters() is empty: `{attr}` is a Python {kind}", label=label,
                       attr=plain_lists[0], kind=type(vars(model)[plain_lists[0]]).__name__),
                    tr("Module.__setattr__ does not look inside Python lists, so the layers are never registered: "
                       "an optimizer would train nothing. nn has a container for a list of layers that "
                       "registers each of them."))
        return (tr("{label}.parameters() is empty", label=label),
                tr("Create the Linear layers in __init__ and register them."))
    keys = list(model.state_dict())
    expected = _keys_for(sizes)
    if keys != expected:
        if not any(k.startswith("layers.") for k in keys):
            return (tr("{label} saves {keys}..., not layers.0.weight ...", label=label, keys=keys[:2]),
                    tr("Keep the layers in `self.layers`, so that their keys start with `layers.`."))
        if f"layers.{2 * (len(sizes) - 2)}.weight" in keys and len(sizes) > 2:
            return (tr("{label}'s state_dict keys are {keys}", label=label, keys=keys),
                    tr("Only the Linear layers go in self.layers (so they are layers.0, layers.1, ...); apply "
                       "ReLU in forward with torch.relu."))
        return tr("{label}'s state_dict keys are {keys}, expected {expected}", label=label, keys=keys,
                  expected=expected), ""
    ref = reference(sizes)
    for (name, mine), (_, theirs) in zip(model.named_parameters(), ref.named_parameters()):
        if tuple(mine.shape) != tuple(theirs.shape):
            return (tr("{label}: {name} has shape {shape}, expected {expected}", label=label, name=name,
                       shape=tuple(mine.shape), expected=tuple(theirs.shape)),
                    tr("nn.Linear(in_features, out_features): layer i maps sizes[i] features to sizes[i + 1]."))
    ref.load_state_dict(model.state_dict())
    x = torch.linspace(-2, 2, 5 * sizes[0]).reshape(5, sizes[0])
    got, error = guard.run(model, x)
    if error is not None:
        return raised(error, subject=f"{label}(x)")
    with torch.no_grad():
        expected_out = ref(x)
        found = differences(got.detach() if hasattr(got, "detach") else got, expected_out, where=f"{label}(x)",
                            grads=False)
        if found:
            why = ""
            if not differences(got.detach(), torch.relu(expected_out), grads=False):
                why = tr("No ReLU after the last layer: the output must be able to be negative.")
            else:
                plain = x
                for layer in ref.layers:
                    plain = layer(plain)
                if not differences(got.detach(), plain, grads=False):
                    why = tr("Apply torch.relu between the layers.")
            return found[0], why
    return None


@always_a_verdict
def check_stack(Stack):
    """Exercise 2: a Module class ``Stack(sizes)`` with its Linear layers in a registered ``self.layers``."""
    if is_stub(Stack):
        return not_answered(tr("a class Stack"))
    if not isinstance(Stack, type):
        return wrong(tr("`{name}` should be a class (a subclass of nn.Module); it is {kind}.", name="Stack",
                        kind=kind(Stack)))
    for index, (_, library) in enumerate(libraries()):
        cls, reference = class_on(library, Stack), class_on(library, solution.Stack)
        for sizes in STACK_SIZES:
            problem = _stack_problem(cls, reference, sizes, library)
            if problem is not None:
                found, why = problem
                if index > 0:
                    return works_only_on_tensorlab("`Stack`", library, found)
                return wrong(tr("{found}.", found=found), why)
    return correct(tr("nn.ModuleList registers every layer it holds: parameters(), state_dict() and to() see "
                      "them."))


# -- exercise 3: load an old checkpoint into the new model -------------------------------------------------

def make_old_net(torch):
    nn = torch.nn

    class OldNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = nn.Linear(4, 8)
            self.out = nn.Linear(8, 2)

        def forward(self, x):
            return self.out(torch.relu(self.hidden(x)))

    return OldNet()


def make_new_net(torch):
    nn = torch.nn
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


def _convert_hint(message, result):
    keys = list(result.keys())
    if any(k.startswith("1.") for k in keys):
        return tr("The ReLU has a position in the Sequential too, though no parameters: count the positions "
                  "of the two Linears.")
    if any(k.startswith(("hidden.", "out.")) for k in keys):
        return tr("Every key must be renamed: the Sequential names its layers by position (compare with "
                  "new_model.state_dict().keys()).")
    if "size mismatch" in message:
        return tr("A value went under the wrong layer's name: match the layers by their shapes (hidden maps "
                  "4 -> 8, out maps 8 -> 2).")
    if "Missing" in message:
        return tr("Keep every entry of the old state -- weights and biases -- under its new name.")
    return tr("Only the names change: each value goes under its new key.")


@always_a_verdict
def check_convert(convert):
    """Exercise 3: ``convert(state)`` renames OldNet's keys so the Sequential loads them (strict)."""
    what = tr("a function body that returns a new dict with the keys renamed")
    if is_stub(convert):
        return not_answered(what)
    if not callable(convert):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="convert", what=what,
                        kind=kind(convert)))
    for index, (_, library) in enumerate(libraries()):
        library.manual_seed(0)
        old, new = make_old_net(library), make_new_net(library)
        state = old.state_dict()
        before = guard.snapshot(state)
        result, error = guard.run(on(library, convert), state)
        if error is not None:
            found, why = raised(error, tr("Loop over state.items() and build a new dict: {new_key: value}."),
                                "`convert`")
            return wrong(tr("{found}.", found=found), why)
        if index == 0 and result is Ellipsis:
            return not_answered(what)
        changed = guard.changes(before, state, "state")
        if changed:
            return wrong(tr("`convert` changed its input in place: {change}.", change=changed[0]),
                         tr("Leave `state` as it is (the old model's checkpoint) and build a new dict with the "
                            "new keys."))
        if result is None:
            return wrong(tr("`convert` returned None."), tr("Did you forget `return`? (Changing the keys of a dict "
                                                            "while looping over it does not work either.)"))
        if not hasattr(result, "keys"):
            return wrong(tr("`convert` returned {kind}; load_state_dict needs a dict of tensors.", kind=kind(result)))
        try:
            new.load_state_dict(result)
        except RuntimeError as error:
            message = str(error)
            first = " ".join(line.strip() for line in message.split("\n\t")[1:]) or message
            found = tr("new_model.load_state_dict(convert(state)) raised RuntimeError: {error}", error=first)
            if index > 0:
                return wrong(tr("`convert` works on {tensorlab} but not on {library}: {found}", tensorlab=TENSORLAB,
                                library=library_name(library), found=found),
                             tr("PyTorch is the reference (please report the difference)."))
            return wrong(found, _convert_hint(message, result))
        x = library.linspace(-1, 1, 12).reshape(3, 4)
        with library.no_grad():
            found = differences(new(x), old(x), where="new_model(x)", grads=False)
        if found:
            return wrong(tr("{found} (after loading, it should compute what old_model(x) computes).", found=found[0]),
                         tr("Did a value go under the wrong layer's name?"))
    return correct(tr("load_state_dict matches tensors by name: rename the keys and any checkpoint loads."))


# -- exercise 4: one body, a head per task ---------------------------------------------------------------

# Task names in alphabetical order: given a plain dict, PyTorch's ParameterDict sorts the keys (its
# ModuleDict keeps their order), so only sorted names give one answer on every library.
TASK_SETS = ({"digit": 10, "parity": 2}, {"angle": 1, "colour": 2, "size": 3})


def _plain_containers(model, torch):
    """The attributes of ``model`` that are plain Python dicts or lists of Modules or Parameters."""
    found = {}
    for name, value in vars(model).items():
        if name.startswith("_"):                  # the Module's own registries
            continue
        items = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else None
        if items and all(isinstance(v, (torch.nn.Module, torch.Tensor)) for v in items):
            found[name] = value
    return found


def _names_hint(names, expected, model, torch):
    plain = _plain_containers(model, torch)
    if plain:
        attr, value = next(iter(plain.items()))
        if all(isinstance(v, torch.nn.Module) for v in (value.values() if isinstance(value, dict) else value)):
            return tr("`{attr}` is a Python {kind}: Module.__setattr__ does not look inside it, so its layers are "
                      "never registered. nn has a container for a dict of layers that registers each one under its "
                      "key.", attr=attr, kind=type(value).__name__)
        return tr("`{attr}` is a Python {kind}: Module.__setattr__ does not look inside it, so its Parameters are "
                  "never registered. nn has a container for a dict of Parameters that registers each one under its "
                  "key.", attr=attr, kind=type(value).__name__)
    if set(names) == set(expected):
        return tr("The right names in another order: build each container in the order of `tasks`.")
    prefixes = {n.split(".")[0] for n in names}
    for attr in ("body", "heads", "temperature"):
        if attr not in prefixes:
            return tr("No parameter's name starts with `{attr}.`: keep that part in `self.{attr}`, as the exercise "
                      "says.", attr=attr)
    if any(n.split(".")[1].isdigit() for n in names if n.split(".")[0] in ("heads", "temperature")):
        return tr("Keyed by the task's name, not by position: a dict container gives `heads.<task>.weight`, a list "
                  "`heads.0.weight`.")
    extra = sorted(set(names) - set(expected))
    return tr("Names that should not be there: {names}.", names=", ".join(extra)) if extra else ""


def _multitask_problem(cls, reference, tasks, torch):
    """(what is off, why) for the learner's ``MultiTask(4, 5, tasks)`` on ``torch``, or None."""
    label = f"MultiTask(4, 5, {tasks})"
    model, error = guard.run(cls, 4, 5, dict(tasks))
    if error is not None:
        return raised(error, subject=label)
    torch.manual_seed(0)
    ref = reference(4, 5, dict(tasks))
    names = [name for name, _ in model.named_parameters()]
    expected = [name for name, _ in ref.named_parameters()]
    if not names and not _plain_containers(model, torch):
        out, _ = guard.run(model.forward, torch.zeros(1, 4), next(iter(tasks)))
        if out is Ellipsis:                         # the lesson's stub: __init__ and forward still `...`
            return "stub", ""
    if names != expected:
        return ((tr("{label}.named_parameters() gives {names}", label=label, names=names) if names else
                 tr("{label}.parameters() is empty", label=label)),
                _names_hint(names, expected, model, torch))
    keys, expected_keys = list(model.state_dict()), list(ref.state_dict())
    if keys != expected_keys:
        return (tr("{label}.state_dict() has the keys {keys}, PyTorch's reference {expected}", label=label,
                   keys=keys, expected=expected_keys),
                tr("Keep only the body, the heads and the temperatures in the model: no extra buffers."))
    for (name, mine), (_, theirs) in zip(model.named_parameters(), ref.named_parameters()):
        if tuple(mine.shape) != tuple(theirs.shape):
            why = (tr("A temperature is one scalar: nn.Parameter(torch.ones(())), shape ().")
                   if name.startswith("temperature") else
                   tr("nn.Linear(in_features, out_features): the body maps in_features to hidden, each head hidden "
                      "to its task's number of outputs."))
            return tr("{label}: {name} has shape {shape}, expected {expected}", label=label, name=name,
                      shape=tuple(mine.shape), expected=tuple(theirs.shape)), why
        if name.startswith("temperature") and differences(mine.detach(), theirs.detach(), grads=False):
            return (tr("{label}: {name} starts at {value}", label=label, name=name, value=mine.detach().tolist()),
                    tr("Each temperature starts at 1."))
    with torch.no_grad():
        for i, name in enumerate(tasks):           # temperatures away from 1, so that the division shows
            model.temperature[name].fill_(0.5 + i)
    ref.load_state_dict(model.state_dict())
    x = torch.linspace(-2, 2, 3 * 4).reshape(3, 4)
    for name in tasks:
        got, error = guard.run(model, x, name)
        if error is not None:
            return raised(error, tr("forward(x, task) picks the task's head and temperature by its name."),
                          subject=f"{label}(x, {name!r})")
        expected_out = ref(x, name)
        found = differences(got.detach() if is_tensor(got) else got, expected_out.detach(),
                            where=f"{label}(x, {name!r})", grads=False)
        if found:
            hidden = torch.relu(ref.body(x))
            why = tr("forward(x, task) = heads[task](relu(body(x))) / temperature[task].")
            with torch.no_grad():
                if is_tensor(got) and tuple(got.shape) == tuple(expected_out.shape):
                    if not differences(got.detach(), ref.heads[name](hidden), grads=False):
                        why = tr("Divide the head's output by the task's temperature.")
                    elif not differences(got.detach(), ref.heads[name](ref.body(x)) / ref.temperature[name],
                                         grads=False):
                        why = tr("Apply torch.relu to the body's output before the head.")
                    elif not differences(got.detach(), ref.heads[name](hidden) * ref.temperature[name], grads=False):
                        why = tr("Divide by the temperature; do not multiply.")
            return found[0], why
    return None


@always_a_verdict
def check_multitask(MultiTask):
    """Exercise 4: ``MultiTask(in_features, hidden, tasks)`` with its heads in an ``nn.ModuleDict`` and its
    temperatures in an ``nn.ParameterDict``, keyed by task: names, state_dict keys and outputs as PyTorch's."""
    what = tr("code in MultiTask's __init__ (body, heads, temperature) and forward")
    if is_stub(MultiTask):
        return not_answered(what)
    if not isinstance(MultiTask, type):
        return wrong(tr("`{name}` should be a class (a subclass of nn.Module); it is {kind}.", name="MultiTask",
                        kind=kind(MultiTask)))
    for index, (_, library) in enumerate(libraries()):
        cls, reference = class_on(library, MultiTask), class_on(library, solution.MultiTask)
        for tasks in TASK_SETS:
            problem = _multitask_problem(cls, reference, tasks, library)
            if problem is not None:
                found, why = problem
                if found == "stub":
                    return not_answered(what)
                if index > 0:
                    return works_only_on_tensorlab("`MultiTask`", library, found)
                return wrong(tr("{found}.", found=found), why)
    return correct(tr("nn.ModuleDict and nn.ParameterDict register what they hold under its key: the task names "
                      "are in named_parameters(), state_dict() and every checkpoint."))
