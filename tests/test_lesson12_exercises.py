"""Lesson 12's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson12 as check
from coursekit.libs import libraries
from coursekit.solutions import lesson12 as solution
from coursekit.testing import assert_rejected
from tensorlab import nn


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_sequential(solution.predictions)
    assert check.check_stack(solution.Stack)
    assert check.check_convert(solution.convert)
    assert check.check_multitask(solution.MultiTask)
    assert capsys.readouterr().out.count("Correct!") == 4


class SequentialStack(nn.Module):
    """Another correct Stack: a Sequential of Linears (also registered), ReLU by hand."""

    def __init__(self, sizes):
        super(SequentialStack, self).__init__()      # the old spelling names the class
        self.layers = nn.Sequential(*[nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = layer(x).relu()
        return self.layers[-1](x)


def test_other_correct_answers_are_accepted(mode):
    keys, n_params, n_modules, shape = solution.predictions
    assert check.check_sequential((list(keys), n_params, n_modules, torch.Size(shape)))
    assert check.check_stack(SequentialStack)
    assert check.check_convert(lambda s: {k.replace("hidden.", "0.").replace("out.", "2."): v for k, v in s.items()})


def test_class_on_runs_a_learner_class_on_every_library():
    for _, library in libraries():
        cls = check.class_on(library, SequentialStack)
        model = cls([2, 3])
        assert isinstance(model, library.nn.Module)
        assert [n for n, _ in model.named_parameters()] == ["layers.0.weight", "layers.0.bias"]


def test_stubs_get_a_fixed_message(mode):
    def stub(state):
        return ...

    for verdict in (check.check_sequential(...), check.check_stack(...), check.check_convert(stub),
                    check.check_convert(...), check.check_multitask(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # Flatten forgotten in the numbering, buffers counted as parameters, the model itself forgotten
    ((("conv.weight", "conv.bias", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var",
       "bn.num_batches_tracked", "head.0.weight", "head.0.bias"), 9, 6, (144, 10)),
     ["4 of 4", "Flatten is head.0", "BatchNorm's three buffers", "starts with the model itself",
      "[out_features, in_features]"]),
    # running statistics forgotten; ReLU given keys
    ((("conv.weight", "conv.bias", "bn.weight", "bn.bias", "act.weight", "head.1.weight", "head.1.bias"), 6, 7,
      (10, 144)), ["1 of 4", "ReLU has nothing to save"]),
    ((("conv.weight", "conv.bias", "bn.weight", "bn.bias", "head.1.weight", "head.1.bias"), 6, 5, (10, 144)),
     ["2 of 4", "running statistics are buffers", "head's own two children count too"]),
    ((("conv.weight", "conv.bias", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var",
       "head.1.weight", "head.1.bias"), 6, 7, (10, 144)), ["num_batches_tracked"]),
])
def test_wrong_sequential_predictions(mode, answer, phrases):
    verdict = check.check_sequential(answer)
    assert_rejected(verdict, phrases)


class PlainList(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = [nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])]

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.relu(layer(x))
        return self.layers[-1](x)


class ReluAfterLast(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


class NoRelu(ReluAfterLast):
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class ReluInTheList(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        layers = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            layers += [nn.Linear(a, b), nn.ReLU()]
        self.layers = nn.ModuleList(layers[:-1])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class OtherName(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        for layer in self.linears[:-1]:
            x = torch.relu(layer(x))
        return self.linears[-1](x)


class Swapped(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(b, a) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        return x


class OnlyFirst(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(sizes[0], sizes[1])])


@pytest.mark.parametrize("answer, phrases", [
    (PlainList, ["parameters() is empty: `layers` is a Python list", "a container for a list of layers"]),
    (ReluAfterLast, ["Stack([4, 8, 3])(x) differs", "No ReLU after the last layer"]),
    (NoRelu, ["differs", "Apply torch.relu between the layers"]),
    (ReluInTheList, ["layers.2.weight", "Only the Linear layers go in self.layers"]),
    (OtherName, ["not layers.0.weight", "Keep the layers in `self.layers`"]),
    (Swapped, ["layers.0.weight has shape (4, 8), expected (8, 4)", "nn.Linear(in_features, out_features)"]),
    (OnlyFirst, ["state_dict keys are ['layers.0.weight', 'layers.0.bias'], expected"]),
    (lambda sizes: None, ["should be a class"]),
])
def test_wrong_stacks(mode, answer, phrases):
    verdict = check.check_stack(answer)
    assert_rejected(verdict, phrases)


def _in_place(state):
    for key in list(state):
        state[key.replace("hidden", "0").replace("out", "2")] = state.pop(key)


def _in_place_returned(state):
    _in_place(state)
    return state              # the right keys -- but the old model's checkpoint is gone


@pytest.mark.parametrize("answer, phrases", [
    (lambda s: {k.replace("hidden", "0").replace("out", "1"): v for k, v in s.items()},
     ['Missing key(s) in state_dict: "2.weight", "2.bias".', 'Unexpected key(s) in state_dict: "1.weight"',
      "The ReLU has a position in the Sequential too"]),
    (lambda s: {k.replace("hidden", "0"): v for k, v in s.items()}, ["Every key must be renamed"]),
    (lambda s: {k.replace("hidden", "2").replace("out", "0"): v for k, v in s.items()},
     ["size mismatch for 0.weight", "match the layers by their shapes"]),
    (lambda s: {k.replace("hidden", "0").replace("out", "2"): v for k, v in s.items() if "weight" in k},
     ['Missing key(s) in state_dict: "0.bias", "2.bias"', "weights and biases"]),
    (_in_place, ["changed its input in place: `state` has other keys now", "build a new dict"]),
    (_in_place_returned, ["changed its input in place", "Leave `state` as it is"]),
    (lambda s: None, ["returned None", "Did you forget `return`?"]),
    (lambda s: list(s.values()), ["returned a list of 4 items", "needs a dict of tensors"]),
    (lambda s: s["hidden"], ["raised KeyError", "Loop over state.items()"]),
])
def test_wrong_conversions(mode, answer, phrases):
    verdict = check.check_convert(answer)
    assert_rejected(verdict, phrases)


# -- exercise 4: a head per task in an nn.ModuleDict, a temperature per task in an nn.ParameterDict ---------

def _multitask(heads="moduledict", temperature="parameterdict", order=None, relu=True, divide=True,
               shape=(), start=1.0, fail=False):
    """A MultiTask class with one of the usual mistakes (the defaults make the correct one)."""
    class MultiTask(nn.Module):
        def __init__(self, in_features, hidden, tasks):
            super().__init__()
            if fail:
                raise KeyError("task")
            names = list(tasks)[::-1] if order == "reversed" else list(tasks)
            self.body = nn.Linear(in_features, hidden)
            layers = {name: nn.Linear(hidden, tasks[name]) for name in names}
            self.heads = {"moduledict": nn.ModuleDict, "dict": dict}[heads](layers) if heads != "list" else \
                nn.ModuleList(layers.values())
            self.names = names
            scalars = {name: nn.Parameter(torch.full(shape, start)) for name in names}
            self.temperature = {"parameterdict": nn.ParameterDict, "dict": dict}[temperature](scalars) \
                if temperature != "list" else nn.ParameterList(scalars.values())

        def forward(self, x, task):
            key = self.names.index(task) if heads == "list" else task
            out = self.heads[key](torch.relu(self.body(x)) if relu else self.body(x))
            return out / self.temperature[task] if divide else out
    return MultiTask


class LoopBuiltMultiTask(nn.Module):
    """Another correct answer: the containers filled one key at a time, tensors given to ParameterDict."""

    def __init__(self, in_features, hidden, tasks):
        super().__init__()
        self.body = nn.Linear(in_features, hidden)
        self.heads = nn.ModuleDict()
        self.temperature = nn.ParameterDict()
        for name, n in tasks.items():
            self.heads[name] = nn.Linear(hidden, n)
            self.temperature[name] = nn.Parameter(torch.tensor(1.0))

    def forward(self, x, task):
        return self.heads[task](self.body(x).relu()) / self.temperature[task]


def test_other_correct_multitask_answers_are_accepted(mode):
    assert check.check_multitask(LoopBuiltMultiTask)
    assert check.check_multitask(_multitask())


@pytest.mark.parametrize("answer, phrases", [
    (_multitask(heads="dict"), ["`heads` is a Python dict", "never registered", "dict of layers"]),
    (_multitask(temperature="dict"), ["`temperature` is a Python dict", "dict of Parameters"]),
    (_multitask(heads="list", temperature="list"), ["heads.0.weight", "Keyed by the task's name"]),
    (_multitask(order="reversed"), ["another order", "in the order of `tasks`"]),
    (_multitask(shape=(1,)), ["temperature.digit has shape (1,), expected ()", "one scalar"]),
    (_multitask(start=0.0), ["temperature.digit starts at 0.0", "starts at 1"]),
    (_multitask(relu=False), ["MultiTask(4, 5, {'digit': 10, 'parity': 2})(x, 'digit')", "torch.relu"]),
    (_multitask(divide=False), ["Divide the head's output by the task's temperature"]),
    (_multitask(fail=True), ["raised KeyError"]),
    (lambda in_features, hidden, tasks: None, ["should be a class"]),
])
def test_wrong_multitask_answers(mode, answer, phrases):
    assert_rejected(check.check_multitask(answer), phrases)


def test_the_lessons_multitask_stub_is_not_answered_yet(mode):
    class MultiTask(nn.Module):
        def __init__(self, in_features, hidden, tasks):
            super().__init__()
            ...

        def forward(self, x, task):
            return ...
    verdict = check.check_multitask(MultiTask)
    assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")
