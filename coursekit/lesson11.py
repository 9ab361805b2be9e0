"""Exercise checks of course/11_modules_and_parameters.ipynb (reference solutions:
coursekit/solutions/lesson11.py).

    >>> _ = check_counts(solution.counts)
    Correct! parameters() walks every registered submodule; buffers and layers without
             weights add nothing.

Exercise 3 changes a model in place, which ``check_function`` (it compares return values) does not
cover; :func:`check_freeze` is written here with the same parts (``libraries``, ``on``).
"""
from . import guard
from .check import (Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong,
                    works_only_on_tensorlab)
from .compare import kind
from .libs import libraries, on
from .solutions import lesson11 as solution


def _count(module):
    return sum(p.numel() for p in module.parameters())


# -- exercise 1: count the parameters ------------------------------------------------------------

def _bn_hint(got, truth):
    if got in (32, 33, 48, 49):
        return ("running_mean and running_var (and num_batches_tracked) are *buffers*: saved in "
                "state_dict, but not parameters. BatchNorm learns only weight and bias, one of each per channel.")
    return "BatchNorm2d(8) learns a scale (weight) and a shift (bias) per channel."


def _conv_hint(got, truth):
    if got == 80:
        return ("The weight has one 3x3 kernel per (output channel, input channel) pair: "
                "[out_channels, in_channels, 3, 3].")
    return "A Conv2d weight is [out_channels, in_channels, k, k], plus one bias per output channel."


COUNT_QUESTIONS = [
    Question("nn.Linear(10, 5)", lambda torch: _count(torch.nn.Linear(10, 5)),
             "Count weight and bias: weight is [out_features, in_features], and there is one bias per "
             "output feature."),
    Question("nn.Linear(10, 5, bias=False)", lambda torch: _count(torch.nn.Linear(10, 5, bias=False)),
             "bias=False registers no bias at all (bias is None): only the weight is left."),
    Question("nn.Conv2d(3, 8, kernel_size=3)", lambda torch: _count(torch.nn.Conv2d(3, 8, kernel_size=3)),
             _conv_hint),
    Question("nn.BatchNorm2d(8)", lambda torch: _count(torch.nn.BatchNorm2d(8)), _bn_hint),
    Question("nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))",
             lambda torch: _count(torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(),
                                                      torch.nn.Linear(3, 2))),
             "parameters() recurses into every registered submodule: add up each Linear's weight and bias; "
             "ReLU adds nothing."),
    Question("nn.MaxPool2d(2)", lambda torch: _count(torch.nn.MaxPool2d(2)),
             "Pooling takes the largest value of each window: is there anything in that to learn?"),
]


def check_counts(answer):
    """Exercise 1: a tuple of 6 ints, sum(p.numel() for p in m.parameters()) for each module."""
    return check_predictions(answer, COUNT_QUESTIONS,
                             what="a tuple of 6 numbers of parameters, one per line of the table",
                             note="parameters() walks every registered submodule; buffers and layers "
                                  "without weights add nothing.")


# -- exercise 2: which names are registered -----------------------------------------------------------

def make_probe(torch):
    """The lesson's Probe model, built on ``torch`` (tensorlab or PyTorch)."""
    nn = torch.nn

    class Probe(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 2)
            self.scale = nn.Parameter(torch.ones(2))
            self.register_buffer("mean", torch.zeros(2))
            self.register_buffer("scratch", torch.zeros(2), persistent=False)
            self.offset = torch.zeros(2, requires_grad=True)
            self.heads = [nn.Linear(2, 2), nn.Linear(2, 2)]

        def forward(self, x):
            x = self.fc(x) * self.scale + self.offset - self.mean
            return sum(head(x) for head in self.heads)

    return Probe()


def _names_hint(kind_of_walk):
    def hint(got, truth):
        if not isinstance(got, tuple):
            return "Write the names as a list or tuple of strings."
        got_set, truth_set = set(got), set(truth)
        if "offset" in got_set:
            return ("offset is a plain tensor: requires_grad=True does not make it a Parameter, so "
                    "Module.__setattr__ stores it as an ordinary attribute.")
        if any(str(n).startswith("heads") for n in got_set):
            return ("heads is a Python list: __setattr__ does not look inside lists, so its Linears are "
                    "never registered (lesson 12's nn.ModuleList is the fix).")
        if kind_of_walk == "state_dict" and "scratch" in got_set:
            return "persistent=False is exactly what keeps a buffer out of state_dict."
        if kind_of_walk == "state_dict" and "mean" not in got_set:
            return "state_dict() saves the parameters *and* the persistent buffers."
        if kind_of_walk == "buffers" and "scratch" not in got_set:
            return "persistent=False keeps a buffer out of state_dict(), not out of buffers()."
        if got_set == truth_set:
            return ("The right names, in another order: a module lists its *own* entries first (in the order "
                    "they were registered), then each child's, prefixed with the child's name.")
        missing = truth_set - got_set
        extra = sorted(map(str, got_set - truth_set))
        parts = ([f"{len(missing)} registered name(s) missing"] if missing else []) + \
                ([f"not registered: {', '.join(extra)}"] if extra else [])
        return ("; ".join(parts) + ". Go through Probe.__init__: which attributes are Parameters, Modules or "
                "buffers, and what are their own parameters called?")
    return hint


def _children_hint(got, truth):
    if got == 3:
        return "The two Linears in the list are not registered, so they are not children."
    return "children() yields the registered submodules (the values of _modules), not parameters or buffers."


NAME_QUESTIONS = [
    Question("[name for name, _ in probe.named_parameters()]",
             lambda torch: tuple(n for n, _ in make_probe(torch).named_parameters()), _names_hint("parameters")),
    Question("[name for name, _ in probe.named_buffers()]",
             lambda torch: tuple(n for n, _ in make_probe(torch).named_buffers()), _names_hint("buffers")),
    Question("list(probe.state_dict())",
             lambda torch: tuple(make_probe(torch).state_dict()), _names_hint("state_dict")),
    Question("len(list(probe.children()))",
             lambda torch: len(list(make_probe(torch).children())), _children_hint),
]


def check_names(answer):
    """Exercise 2: (parameter names, buffer names, state_dict keys, number of children) of Probe."""
    return check_predictions(answer, NAME_QUESTIONS,
                             what="a tuple of 4 predictions: three lists of names, then a number",
                             note="Only Parameters, Modules and register_buffer are registered -- and "
                                  "only what is registered is found, saved, moved and trained.")


# -- exercise 3: freeze all but the last layer ------------------------------------------------------------

FREEZE_CASES = [
    ("nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3))",
     lambda nn: nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3))),
    ("nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))",
     lambda nn: nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))),
]


def _freeze_problem(model, last):
    """What is wrong with the requires_grad flags of ``model`` (None: all is well), and why."""
    flags = {name: p.requires_grad for name, p in model.named_parameters()}
    should = {name: name.startswith(last + ".") for name in flags}
    wrong_names = [n for n in flags if flags[n] != should[n]]
    if not wrong_names:
        return None
    if any("requires_grad" in vars(m) for m in model.modules()):
        return ("requires_grad was set as an attribute of a layer, and the parameters did not change",
                "`layer.requires_grad = False` just creates an ordinary attribute on the Module. Set it on each "
                "parameter, or call `layer.requires_grad_(False)` (with the underscore), which does that for you.")
    if all(flags.values()):
        if not model.training:
            return ("every parameter still has requires_grad=True (the model was switched to eval mode)",
                    "eval() changes how Dropout and BatchNorm behave; it does not stop gradients. Freezing "
                    "means requires_grad=False on the parameters.")
        return ("every parameter still has requires_grad=True: nothing was frozen",
                "Change the Parameters themselves (p.requires_grad_(False)) -- not a copy such as "
                "p.detach() or p.clone(), which are new tensors.")
    if not any(flags.values()):
        return ("every parameter is frozen, the last layer's too",
                "The last layer must stay trainable: after freezing everything, unfreeze model[-1]'s parameters.")
    if all(flags[n] != should[n] for n in flags):
        return ("it is the other way round: the last layer is frozen and the others are trainable",
                "model[-1] is the layer to keep training; every earlier parameter gets requires_grad=False.")
    state = "frozen" if should[wrong_names[0]] else "trainable"
    why = ("Freeze *every* parameter of the earlier layers: biases too, and BatchNorm's weight and bias."
           if state == "trainable" else "Every parameter of the last layer stays trainable, its bias too.")
    return f"{', '.join(wrong_names)} {'is' if len(wrong_names) == 1 else 'are'} still {state}", why


@always_a_verdict
def check_freeze(freeze_all_but_last):
    """Exercise 3: ``freeze_all_but_last(model)`` sets requires_grad=False on every parameter of a
    Sequential except those of its last layer."""
    what = "a function body that freezes every parameter of `model` except those of `model[-1]`"
    if is_stub(freeze_all_but_last):
        return not_answered(what)
    if not callable(freeze_all_but_last):
        return wrong(f"`freeze_all_but_last` should be a function ({what}); it is {kind(freeze_all_but_last)}.")
    for index, (_, library) in enumerate(libraries()):
        function = on(library, freeze_all_but_last)
        for label, make in FREEZE_CASES:
            model = make(library.nn)
            result, error = guard.run(function, model)
            if error is not None:
                what, why = raised(error, "model[-1] is the last layer of a Sequential; model.parameters() and "
                                          "model[-1].parameters() give the tensors to change.")
                return wrong(f"`freeze_all_but_last` on {label}: {what}.", why)
            if index == 0 and result is Ellipsis:
                return not_answered(what)
            problem = _freeze_problem(model, str(len(model) - 1))
            if problem is not None:
                found, why = problem
                if index > 0:
                    return works_only_on_tensorlab(f"`freeze_all_but_last` on {label}", library, found)
                return wrong(f"`freeze_all_but_last` on {label}: {found}.", why)
    return correct("An optimizer now changes only the last layer: the frozen parameters get no .grad.")
