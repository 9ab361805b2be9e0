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
from .compare import differences, is_tensor, kind
from .language import tr
from .libs import class_on, libraries, on
from .solutions import lesson11 as solution


def _count(module):
    return sum(p.numel() for p in module.parameters())


# -- exercise 1: count the parameters ------------------------------------------------------------

def _bn_hint(got, truth):
    if got in (32, 33, 48, 49):
        return tr("running_mean and running_var (and num_batches_tracked) are *buffers*: saved in "
                  "state_dict, but not parameters. BatchNorm learns only weight and bias, one of each per channel.")
    return tr("BatchNorm2d(8) learns a scale (weight) and a shift (bias) per channel.")


def _conv_hint(got, truth):
    if got == 80:
        return tr("The weight has one 3x3 kernel per (output channel, input channel) pair: "
                  "[out_channels, in_channels, 3, 3].")
    return tr("A Conv2d weight is [out_channels, in_channels, k, k], plus one bias per output channel.")


COUNT_QUESTIONS = [
    Question("nn.Linear(10, 5)", lambda torch: _count(torch.nn.Linear(10, 5)),
             tr("Count weight and bias: weight is [out_features, in_features], and there is one bias per "
                "output feature.")),
    Question("nn.Linear(10, 5, bias=False)", lambda torch: _count(torch.nn.Linear(10, 5, bias=False)),
             tr("bias=False registers no bias at all (bias is None): only the weight is left.")),
    Question("nn.Conv2d(3, 8, kernel_size=3)", lambda torch: _count(torch.nn.Conv2d(3, 8, kernel_size=3)),
             _conv_hint),
    Question("nn.BatchNorm2d(8)", lambda torch: _count(torch.nn.BatchNorm2d(8)), _bn_hint),
    Question("nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))",
             lambda torch: _count(torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(),
                                                      torch.nn.Linear(3, 2))),
             tr("parameters() recurses into every registered submodule: add up each Linear's weight and bias; "
                "ReLU adds nothing.")),
    Question("nn.MaxPool2d(2)", lambda torch: _count(torch.nn.MaxPool2d(2)),
             tr("Pooling takes the largest value of each window: is there anything in that to learn?")),
]


def check_counts(answer):
    """Exercise 1: a tuple of 6 ints, sum(p.numel() for p in m.parameters()) for each module."""
    return check_predictions(answer, COUNT_QUESTIONS,
                             what=tr("a tuple of 6 numbers of parameters, one per line of the table"),
                             note=tr("parameters() walks every registered submodule; buffers and layers "
                                     "without weights add nothing."))


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
            return tr("Write the names as a list or tuple of strings.")
        got_set, truth_set = set(got), set(truth)
        if "offset" in got_set:
            return tr("offset is a plain tensor: requires_grad=True does not make it a Parameter, so "
                      "Module.__setattr__ stores it as an ordinary attribute.")
        if any(str(n).startswith("heads") for n in got_set):
            return tr("heads is a Python list: __setattr__ does not look inside lists, so its Linears are "
                      "never registered (lesson 12's nn.ModuleList is the fix).")
        if kind_of_walk == "state_dict" and "scratch" in got_set:
            return tr("persistent=False is exactly what keeps a buffer out of state_dict.")
        if kind_of_walk == "state_dict" and "mean" not in got_set:
            return tr("state_dict() saves the parameters *and* the persistent buffers.")
        if kind_of_walk == "buffers" and "scratch" not in got_set:
            return tr("persistent=False keeps a buffer out of state_dict(), not out of buffers().")
        if got_set == truth_set:
            return tr("The right names, in another order: a module lists its *own* entries first (in the order "
                      "they were registered), then each child's, prefixed with the child's name.")
        missing = truth_set - got_set
        extra = sorted(map(str, got_set - truth_set))
        parts = ([tr("{n} registered name(s) missing", n=len(missing))] if missing else []) + \
                ([tr("not registered: {names}", names=", ".join(extra))] if extra else [])
        return tr("{problems}. Go through Probe.__init__: which attributes are Parameters, Modules or "
                  "buffers, and what are their own parameters called?", problems="; ".join(parts))
    return hint


def _children_hint(got, truth):
    if got == 3:
        return tr("The two Linears in the list are not registered, so they are not children.")
    return tr("children() yields the registered submodules (the values of _modules), not parameters or buffers.")


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
                             what=tr("a tuple of 4 predictions: three lists of names, then a number"),
                             note=tr("Only Parameters, Modules and register_buffer are registered -- and "
                                     "only what is registered is found, saved, moved and trained."))


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
        return (tr("requires_grad was set as an attribute of a layer, and the parameters did not change"),
                tr("`layer.requires_grad = False` just creates an ordinary attribute on the Module. Set it on each "
                   "parameter, or call `layer.requires_grad_(False)` (with the underscore), which does that for "
                   "you."))
    if all(flags.values()):
        if not model.training:
            return (tr("every parameter still has requires_grad=True (the model was switched to eval mode)"),
                    tr("eval() changes how Dropout and BatchNorm behave; it does not stop gradients. Freezing "
                       "means requires_grad=False on the parameters."))
        return (tr("every parameter still has requires_grad=True: nothing was frozen"),
                tr("Change the Parameters themselves (p.requires_grad_(False)) -- not a copy such as "
                   "p.detach() or p.clone(), which are new tensors."))
    if not any(flags.values()):
        return (tr("every parameter is frozen, the last layer's too"),
                tr("The last layer must stay trainable: after freezing everything, unfreeze model[-1]'s "
                   "parameters."))
    if all(flags[n] != should[n] for n in flags):
        return (tr("it is the other way round: the last layer is frozen and the others are trainable"),
                tr("model[-1] is the layer to keep training; every earlier parameter gets requires_grad=False."))
    names, one = ", ".join(wrong_names), len(wrong_names) == 1
    if should[wrong_names[0]]:   # a parameter of the last layer was frozen
        return ((tr("{names} is still frozen", names=names) if one else tr("{names} are still frozen", names=names)),
                tr("Every parameter of the last layer stays trainable, its bias too."))
    return ((tr("{names} is still trainable", names=names) if one else
             tr("{names} are still trainable", names=names)),
            tr("Freeze *every* parameter of the earlier layers: biases too, and BatchNorm's weight and bias."))


@always_a_verdict
def check_freeze(freeze_all_but_last):
    """Exercise 3: ``freeze_all_but_last(model)`` sets requires_grad=False on every parameter of a
    Sequential except those of its last layer."""
    what = tr("a function body that freezes every parameter of `model` except those of `model[-1]`")
    if is_stub(freeze_all_but_last):
        return not_answered(what)
    if not callable(freeze_all_but_last):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="freeze_all_but_last", what=what,
                        kind=kind(freeze_all_but_last)))
    for index, (_, library) in enumerate(libraries()):
        function = on(library, freeze_all_but_last)
        for label, make in FREEZE_CASES:
            model = make(library.nn)
            result, error = guard.run(function, model)
            if error is not None:
                what, why = raised(error, tr("model[-1] is the last layer of a Sequential; model.parameters() and "
                                             "model[-1].parameters() give the tensors to change."))
                return wrong(tr("`{name}` on {case}: {found}.", name="freeze_all_but_last", case=label, found=what), why)
            if index == 0 and result is Ellipsis:
                return not_answered(what)
            problem = _freeze_problem(model, str(len(model) - 1))
            if problem is not None:
                found, why = problem
                if index > 0:
                    return works_only_on_tensorlab(tr("`{name}` on {case}", name="freeze_all_but_last", case=label),
                                                   library, found)
                return wrong(tr("`{name}` on {case}: {found}.", name="freeze_all_but_last", case=label, found=found), why)
    return correct(tr("An optimizer now changes only the last layer: the frozen parameters get no .grad."))


# -- exercise 4: a module with a buffer and a parameter ---------------------------------------------------

STANDARDIZE_MEANS = (lambda torch: torch.tensor([1., -2., 0.5]), lambda torch: torch.tensor([0.25, 0.]))


def _registration_problem(m, mean, torch):
    """(what is off, why) about what ``Standardize(mean)`` registered, or None."""
    params, buffers = dict(m.named_parameters()), dict(m.named_buffers())
    attrs = vars(m)
    if "mean" in params:
        return (tr("mean is a parameter"),
                tr("parameters() hands mean to the optimizer, which would change it at every step. A tensor that "
                   "belongs to the module but is not learned is a *buffer*: register_buffer."))
    if "gain" not in params:
        if "gain" in buffers:
            return (tr("gain is a buffer, not a parameter"),
                    tr("Buffers are not learned: an optimizer built from parameters() would never see gain. "
                       "Wrap it in nn.Parameter."))
        if "gain" in attrs and hasattr(attrs["gain"], "requires_grad"):
            return (tr("gain is not in parameters(): it is a plain tensor attribute"),
                    tr("requires_grad=True does not register a tensor; Module.__setattr__ registers an "
                       "nn.Parameter (or use register_parameter)."))
        return (tr("Standardize has no parameter named gain"),
                tr("parameters() gives {names}; make gain an nn.Parameter of `self`.",
                   names=sorted(params) or tr("nothing")))
    if "mean" not in buffers:
        if "mean" in attrs:
            return (tr("mean is not in buffers(): it is a plain tensor attribute"),
                    tr("self.mean = tensor keeps it out of buffers() and state_dict(), and .to() leaves it "
                       "behind. register_buffer(name, tensor) registers it."))
        return tr("Standardize has no buffer named mean"), tr("Register the given mean with register_buffer.")
    extra = sorted(set(params) - {"gain"}) + sorted(set(buffers) - {"mean"})
    if extra:
        return (tr("it also registers {names}", names=", ".join(extra)),
                tr("Standardize holds exactly two tensors: the buffer mean and the parameter gain."))
    if set(m.state_dict()) != {"gain", "mean"}:
        return (tr("state_dict() has the keys {keys}", keys=sorted(m.state_dict())),
                tr("persistent=False keeps a buffer out of state_dict(): a saved model would lose its mean. "
                   "Register mean as an ordinary (persistent) buffer."))
    gain = params["gain"]
    if tuple(gain.shape) != tuple(mean.shape):
        return (tr("gain has shape {shape}, not the shape of mean, {mean_shape}", shape=tuple(gain.shape),
                   mean_shape=tuple(mean.shape)),
                tr("One gain per feature: make it like mean."))
    if differences(gain.detach(), torch.ones_like(mean), where="gain", grads=False):
        return (tr("gain does not start at ones"),
                tr("At first the module should only shift: (x - mean) * 1. torch.ones_like(mean) has the right "
                   "shape and dtype."))
    if differences(buffers["mean"], mean, where="mean", grads=False):
        return tr("the buffer mean does not hold the given values"), tr("Register the tensor passed to __init__.")
    return None


def _forward_problem(m, mean, torch):
    """(what is off, why) about ``m``'s forward and gradient, or None."""
    x = torch.linspace(-2., 2., 4 * mean.numel()).reshape(4, mean.numel())
    for gain in (torch.ones_like(mean), torch.linspace(0.5, 2., mean.numel())):
        with torch.no_grad():
            m.gain.copy_(gain)
        m.gain.grad = None
        y, error = guard.run(m, x)
        if error is not None:
            return raised(error, tr("forward computes (x - self.mean) * self.gain for x of shape (batch, n): "
                                    "broadcasting lines the (n,) tensors up with x's last dimension."),
                          subject="forward")
        expected = (x - mean) * gain
        found = differences(y.detach() if is_tensor(y) else y, expected, where=tr("the output"), grads=False)
        if found:
            if is_tensor(y) and tuple(y.shape) == tuple(expected.shape):
                if not differences(y.detach(), x - mean, grads=False):
                    return (tr("{found} (when gain is not all ones)", found=found[0]),
                            tr("forward must use self.gain -- the registered Parameter -- so that training "
                               "changes what the module computes."))
                if not differences(y.detach(), x * gain - mean, grads=False):
                    return (tr("{found} (when gain is not all ones)", found=found[0]),
                            tr("Subtract the mean first, then scale."))
            return found[0], tr("forward returns (x - self.mean) * self.gain.")
    if not y.requires_grad:
        return (tr("the output does not require grad"),
                tr("forward must use self.gain itself, not self.gain.data or a detached copy: the graph has "
                   "to reach the parameter."))
    y.sum().backward()
    if m.gain.grad is None:
        return tr("after backward, gain.grad is None"), tr("The output must be computed from self.gain.")
    grad = differences(m.gain.grad, (x - mean).sum(0), where="gain.grad", grads=False)
    if grad:
        return grad[0], tr("forward returns (x - self.mean) * self.gain, computed from self.gain.")
    m.to(torch.float64)
    if m.mean.dtype != torch.float64 or m.gain.dtype != torch.float64:
        return (tr("after .to(torch.float64), mean or gain is still float32"),
                tr("Only registered tensors are converted: register mean with register_buffer and gain as a "
                   "Parameter."))
    return None


@always_a_verdict
def check_standardize(Standardize):
    """Exercise 4: a Module ``Standardize(mean)``: buffer ``mean``, parameter ``gain`` (ones), and
    ``forward(x) = (x - mean) * gain``."""
    what = tr("a class Standardize: __init__ registers the buffer mean and the parameter gain, forward computes "
              "(x - mean) * gain")
    if is_stub(Standardize):
        return not_answered(what)
    if not isinstance(Standardize, type):
        return wrong(tr("`Standardize` should be a class (a subclass of nn.Module); it is {kind}.",
                        kind=kind(Standardize)))
    for index, (_, library) in enumerate(libraries()):
        cls = class_on(library, Standardize)
        for make_mean in STANDARDIZE_MEANS:
            mean = make_mean(library)
            label = f"Standardize(torch.tensor({mean.tolist()}))"
            m, error = guard.run(cls, mean.clone())
            if error is not None:
                found, why = raised(error, tr("__init__ gets the mean tensor: register it with register_buffer, "
                                              "and make gain an nn.Parameter."), subject=label)
                if "before Module.__init__() call" in str(error):
                    why = tr("Call super().__init__() first: it creates the dictionaries that hold parameters, "
                             "buffers and submodules.")
            else:
                first, _ = guard.run(m, library.ones(3, mean.numel()))
                if index == 0 and first is Ellipsis:
                    return not_answered(what)
                problem = _registration_problem(m, mean, library) or _forward_problem(m, mean, library)
                if problem is None:
                    continue
                found, why = problem
                found = f"{label}: {found}"
            if index > 0:
                return works_only_on_tensorlab("`Standardize`", library, found)
            return wrong(tr("{found}.", found=found), why)
    return correct(tr("register_buffer for state that is kept but not learned, nn.Parameter for what training "
                      "changes: both are saved in state_dict() and converted by .to()."))
