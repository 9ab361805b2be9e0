"""Exercise checks of course/25_the_dispatcher.ipynb (reference solutions: coursekit/solutions/lesson25.py).

The answers of exercises 1 and 2 are *mode classes*. A check re-creates the class for each library
(:func:`coursekit.libs.class_on`: on PyTorch its base is PyTorch's own TorchDispatchMode or
TorchFunctionMode), runs a few small programs inside ``with answer():`` and compares what the mode
recorded, or what the programs returned, with the reference solution's.

    >>> _ = check_op_counter(solution.OpCounter)
    Correct! A TorchDispatchMode sees every op below autograd -- backward's too -- by its
             overload name.
    >>> _ = check_leaky_relus(solution.LeakyRelus)
    Correct! A TorchFunctionMode can change what a public call does, whichever way relu was
             spelled.
    >>> _ = check_dispatch_facts(solution.predictions)
    Correct! You can read an ATen log now: operator, overload, and who was asked first.
"""
import numpy as np

import tensorlab
import tensorlab.nn.functional  # noqa: F401 - _Slope reads tensorlab.nn.functional.relu
from tensorlab.overrides import TorchFunctionMode

from . import guard
from .check import Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong
from .check import works_only_on_tensorlab
from .compare import describe, differences, is_tensor, kind
from .language import tr
from .libs import class_on, libraries
from .solutions import lesson25 as solution


def _mode_base(library, which):
    """The library's TorchDispatchMode ("dispatch") or TorchFunctionMode ("function")."""
    if which == "dispatch":
        return library.utils._python_dispatch.TorchDispatchMode
    return library.overrides.TorchFunctionMode


_WARM = set()


def _import_modes(library):
    """Import the library's modes, and enter one of each once, outside the answer's time limit: the first
    TorchDispatchMode PyTorch enters imports torch._dynamo, which takes seconds (an import stopped halfway
    by the time limit would break every later one)."""
    import importlib
    dispatch = importlib.import_module(f"{library.__name__}.utils._python_dispatch")
    overrides = importlib.import_module(f"{library.__name__}.overrides")
    if library.__name__ not in _WARM:
        with type("Warm", (dispatch.TorchDispatchMode,), {"__torch_dispatch__": _run_op})(), \
                type("Warm", (overrides.TorchFunctionMode,), {"__torch_function__": _run_call})():
            library.ones(1) + 1
        _WARM.add(library.__name__)


def _run_op(self, func, types, args=(), kwargs=None):
    return func(*args, **(kwargs or {}))


_run_call = _run_op


class _Watched:
    """What the answer's handler returned -- a stub's Ellipsis, None, or a value -- to tell a stub
    (``return ...``) from an answer. Only those words are kept: holding on to a returned tensor would
    change what PyTorch's engine does (it reuses a gradient nobody else holds instead of copying it)."""

    def __init__(self):
        self.returned = []

    def add(self, result):
        self.returned.append(... if result is Ellipsis else None if result is None else "value")


def _watching(cls, method, watched):
    """A subclass of ``cls`` whose ``method`` records each value it returns."""
    original = getattr(cls, method)

    def handler(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        watched.add(result)
        return result
    return type(cls.__name__, (cls,), {method: handler})


def _make_mode(answer, library, which, watched):
    """``(mode, None)``, or ``(None, (what, why))`` when the class cannot be made into a mode."""
    cls = class_on(library, answer)
    if isinstance(cls, type) and hasattr(cls, f"__torch_{which}__"):
        cls = _watching(cls, f"__torch_{which}__", watched)
    mode, error = guard.run(cls) if callable(cls) else (None, TypeError(tr("{kind} cannot be called",
                                                                                         kind=kind(answer))))
    if error is not None:
        return None, raised(error, tr("Write the class as the lesson does, and make it with no arguments: "
                                      "`mode = YourClass()`."), tr("making the mode"))
    if not isinstance(mode, _mode_base(library, which)):
        base = "TorchDispatchMode" if which == "dispatch" else "TorchFunctionMode"
        return None, (tr("the answer should be a subclass of {base}; calling it gave {kind}", base=base,
                         kind=kind(mode)),
                      tr("Write `class ...({base}):` with a method __torch_{which}__(self, func, types, args=(), "
                         "kwargs=None).", base=base, which=which))
    return mode, None


def _run_in(mode, program, library):
    def inside():
        with mode:
            return program(library)
    return guard.run(inside)


# -- exercise 1: count the ops --------------------------------------------------------------------------

def _leaves(torch):
    x = torch.tensor(np.linspace(-1, 1, 6).reshape(2, 3), requires_grad=True)
    w = torch.tensor(np.linspace(-0.5, 0.7, 12).reshape(4, 3), requires_grad=True)
    b = torch.tensor(np.linspace(0.1, 0.4, 4), requires_grad=True)
    return x, w, b


def _linear_relu(torch):
    x, w, b = _leaves(torch)
    torch.nn.functional.linear(x, w, b).relu().sum().backward()
    return x.grad


def _mlp_mse(torch):
    x, w, b = _leaves(torch)
    h = torch.nn.functional.linear(x, w, b).tanh()
    loss = torch.nn.functional.mse_loss(h @ w, x.detach() * 2)
    loss.backward()
    return w.grad


def _scalars(torch):
    x, _, _ = _leaves(torch)
    return (x * 2 + 1 - x.t().t() * x).mean()


COUNT_PROGRAMS = [("F.linear(x, w, b).relu().sum().backward()", _linear_relu),
                  (tr("an MLP's mse_loss and its backward"), _mlp_mse),
                  ("(x * 2 + 1 - x.t().t() * x).mean()", _scalars)]


def _diagnose_counts(got, expected):
    """The hint for counts that differ from the reference's, or ''."""
    if not isinstance(got, dict):
        return tr("`self.counts` should be a dict from op name to count; make it `{}` in __init__ and add to it "
                  "in __torch_dispatch__.")
    keys = [k for k in got]
    if keys and all(not isinstance(k, str) for k in keys):
        return tr("Use str(func) as the key -- 'aten.<operator>.<overload>' -- not the OpOverload object itself "
                  "(the printed dict must be readable and equal to another mode's).")
    short = {k.split(".", 1)[1] for k in expected}
    if set(keys) == short:
        return tr("func.__name__ leaves out the namespace: str(func) names the op in full, starting with 'aten.'.")
    packets = {k.rsplit(".", 1)[0] for k in expected}
    if set(keys) == packets:
        return tr("Count each overload, not each operator: str(func.overloadpacket) drops the part after the "
                  "last dot (Tensor, default, dim_IntList...), which is what tells aten.add.Tensor from "
                  "aten.add.Scalar.")
    if set(keys) == set(expected) and all(v == 1 for v in got.values()):
        return tr("Each name is counted once only: add one to what is already there (counts.get(name, 0) + 1).")
    return ""


def _check_counter_case(answer, library, label, program):
    """(what, why) for one program on one library, "stub", or None when all agree."""
    watched = _Watched()
    mode, problem = _make_mode(answer, library, "dispatch", watched)
    if problem is not None:
        return problem
    reference = class_on(library, solution.OpCounter)()
    expected_result, _ = _run_in(reference, program, library)
    got_result, error = _run_in(mode, program, library)
    if any(r is Ellipsis for r in watched.returned):
        return "stub"
    if error is not None:
        why = ""
        if watched.returned and all(r is None for r in watched.returned):
            why = tr("__torch_dispatch__ must return what the op returns: `return func(*args, **kwargs)`. "
                     "Returning nothing replaces every op's result by None.")
        return raised(error, why or tr("Count, then run the op with func(*args, **(kwargs or {})) and return "
                                       "its result."), label)
    if not watched.returned:
        return (tr("after {label}, __torch_dispatch__ was never called", label=label),
                tr("Name the method exactly __torch_dispatch__(self, func, types, args=(), kwargs=None)."))
    if is_tensor(expected_result) and differences(got_result, expected_result):
        return (tr("{label} gave another result inside your mode", label=label),
                tr("A counting mode must change nothing: run func exactly once, with the arguments it was given."))
    counts = getattr(mode, "counts", None)
    expected = reference.counts
    if counts is None:
        return (tr("the mode has no attribute `counts`"), tr("Make `self.counts = {}` in __init__ (after "
                                                             "super().__init__())."))
    found = differences(dict(counts) if isinstance(counts, dict) else counts, expected, where="counts")
    if found or (isinstance(counts, dict) and list(counts) != list(expected)):
        shown = describe(dict(counts) if isinstance(counts, dict) else counts, limit=120)
        if any(vars(klass).get("counts") is counts for klass in type(mode).__mro__):
            return (tr("after {label}, counts is {shown}, with the ops of the programs checked before it",
                       label=label, shown=shown),
                    tr("Every OpCounter() shares one dict: make `self.counts = {}` in __init__ -- a dict written "
                       "in the class body is shared by every instance."))
        return (tr("after {label}, counts is {shown}", label=label, shown=shown),
                _diagnose_counts(counts, expected) or tr("Add one to counts[str(func)] for every op the mode sees."))
    return None


@always_a_verdict
def check_op_counter(OpCounter):
    """Exercise 1: ``OpCounter`` is a TorchDispatchMode whose ``counts`` maps str(func) to how often it ran."""
    what = tr("the body of __torch_dispatch__ (count str(func) in self.counts, then run the op and return its "
              "result)")
    if is_stub(OpCounter):
        return not_answered(what)
    for index, (_, library) in enumerate(libraries()):
        _import_modes(library)
        for label, program in COUNT_PROGRAMS:
            problem = _check_counter_case(OpCounter, library, label, program)
            if problem is None:
                continue
            if problem == "stub":
                return not_answered(what)
            found, why = problem
            if index > 0:
                return works_only_on_tensorlab("`OpCounter`", library, found)
            return wrong(tr("`{name}`: {found}.", name="OpCounter", found=found), why)
    return correct(tr("A TorchDispatchMode sees every op below autograd -- backward's too -- by its overload name."))


# -- exercise 2: change what relu does --------------------------------------------------------------------

def _torch_relu(torch):
    x = torch.tensor(np.linspace(-2, 2, 9))
    return torch.relu(x) * 2


def _functional_relu(torch):
    x = torch.tensor(np.linspace(-3, 1, 8).reshape(2, 4))
    return torch.nn.functional.relu(x).sum(0)


def _method_relu(torch):
    x = torch.tensor(np.linspace(-1, 3, 5))
    return (x - 1).relu()


def _module_relu(torch):
    x = torch.tensor(np.linspace(-4, 4, 6).reshape(3, 2))
    return torch.nn.ReLU()(x) + 1


def _no_relu(torch):
    x = torch.tensor(np.linspace(-1, 1, 4))
    return torch.sigmoid(x).exp().sum(dim=0, keepdim=True)


RELU_PROGRAMS = [("torch.relu(x) * 2", _torch_relu, "torch.relu"),
                 ("F.relu(x).sum(0)", _functional_relu, "F.relu"),
                 ("(x - 1).relu()", _method_relu, "Tensor.relu"),
                 ("nn.ReLU()(x) + 1", _module_relu, "F.relu"),
                 ("torch.sigmoid(x).exp().sum(dim=0, keepdim=True)", _no_relu, None)]


def _diagnose_leaky(got, program, spelling, library):
    """The hint for a wrong result of one program, or ''."""
    if spelling is None:
        return tr("Only relu changes: every other call must run as it was asked, `return func(*args, **kwargs)` "
                  "(kwargs may be None: use `**(kwargs or {})`).")
    plain = program(library)
    if not differences(got, plain):
        return tr("Here relu ran unchanged: this program calls it as {spelling}, which your test does not catch. "
                  "torch.relu, F.relu and Tensor.relu are three different callables; compare func with each (or "
                  "look at func.__name__).", spelling=spelling)

    def with_slope(slope):
        with class_on(library, _Slope)(slope):
            return program(library)
    for slope, why in ((0.01, tr("That is leaky_relu's default slope, 0.01: pass negative_slope=0.1.")),
                       (-0.1, tr("The slope has the wrong sign: leaky_relu keeps 0.1 * x for negative x.")),
                       (1.0, tr("Negative values must be scaled by 0.1, not passed through."))):
        if not differences(got, with_slope(slope)):
            return why
    return tr("Where relu was called, return F.leaky_relu(x, 0.1) of the same input x (args[0]).")


class _Slope(TorchFunctionMode):
    """LeakyRelus with another slope, to recognise a wrong one (class_on re-creates it for PyTorch)."""

    def __init__(self, slope):
        super().__init__()
        self.slope = slope

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in (tensorlab.relu, tensorlab.nn.functional.relu, tensorlab.Tensor.relu):
            return tensorlab.nn.functional.leaky_relu(args[0], self.slope)
        return func(*args, **(kwargs or {}))


def _check_leaky_case(answer, library, label, program, spelling):
    watched = _Watched()
    mode, problem = _make_mode(answer, library, "function", watched)
    if problem is not None:
        return problem
    expected, _ = _run_in(class_on(library, solution.LeakyRelus)(), program, library)
    got, error = _run_in(mode, program, library)
    if any(r is Ellipsis for r in watched.returned):
        return "stub"
    if error is not None:
        why = ""
        if "Multiple dispatch failed" in str(error):
            why = tr("Returning NotImplemented means 'not mine', and with no one else to ask the call fails. "
                     "Run every other call yourself: `return func(*args, **kwargs)`.")
        elif watched.returned and any(r is None for r in watched.returned):
            why = tr("__torch_function__ must return the call's result for *every* call, relu or not: a call it "
                     "answers with None gives None to the code that made it.")
        elif isinstance(error, TypeError) and "inplace" in str(error):
            why = tr("F.relu hands over its options spelled out (F.relu(x, inplace=False)): the function you "
                     "call instead takes only the input and the slope.")
        return raised(error, why, label)
    if got is None:
        return (tr("{label} gave None inside your mode", label=label),
                tr("__torch_function__ must return the call's result for every call (`return func(*args, "
                   "**kwargs)`)."))
    if not watched.returned:
        return (tr("inside your mode, {label} never reached __torch_function__", label=label),
                tr("Name the method exactly __torch_function__(self, func, types, args=(), kwargs=None)."))
    found = differences(got, expected, where=tr("the result of {label}", label=label))
    if found:
        return found[0], _diagnose_leaky(got, program, spelling, library)
    return None


@always_a_verdict
def check_leaky_relus(LeakyRelus):
    """Exercise 2: inside ``with LeakyRelus():`` every relu (torch.relu, F.relu, Tensor.relu) runs
    ``F.leaky_relu(x, 0.1)``; every other call is unchanged."""
    what = tr("the body of __torch_function__ (leaky_relu with slope 0.1 where relu was called, else the call "
              "itself)")
    if is_stub(LeakyRelus):
        return not_answered(what)
    for index, (_, library) in enumerate(libraries()):
        _import_modes(library)
        for label, program, spelling in RELU_PROGRAMS:
            problem = _check_leaky_case(LeakyRelus, library, label, program, spelling)
            if problem is None:
                continue
            if problem == "stub":
                return not_answered(what)
            found, why = problem
            if index > 0:
                return works_only_on_tensorlab("`LeakyRelus`", library, found)
            return wrong(tr("`{name}` on {label}: {found}.", name="LeakyRelus", label=label, found=found), why)
    return correct(tr("A TorchFunctionMode can change what a public call does, whichever way relu was spelled."))


# -- exercise 3: predictions ---------------------------------------------------------------------------------

def _logged(torch, code):
    """The str(func) of every op ``code(x, w)`` runs inside a logging TorchDispatchMode."""
    import importlib
    _import_modes(torch)
    base = importlib.import_module(f"{torch.__name__}.utils._python_dispatch").TorchDispatchMode
    names = []

    class Log(base):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            names.append(str(func))
            return func(*args, **(kwargs or {}))
    x = torch.tensor(np.linspace(-1, 1, 6).reshape(2, 3))
    w = torch.tensor(np.linspace(0, 1, 12).reshape(4, 3))
    with Log():
        code(torch, x, w)
    return tuple(names)


def _first_asked(torch):
    """Inside a logging TorchFunctionMode, which handler runs first for torch.add(s, 1) of a subclass s?"""
    import importlib
    _import_modes(torch)
    overrides = importlib.import_module(f"{torch.__name__}.overrides")
    order = []

    class Logged(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            order.append("subclass")
            return super().__torch_function__(func, types, args, kwargs)

    class Log(overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            order.append("mode")
            return func(*args, **(kwargs or {}))
    s = torch.ones(2).as_subclass(Logged)
    with Log():
        torch.add(s, 1)
    return order[0]


def _why_add(predicted, truth):
    if isinstance(predicted, str) and predicted.startswith("aten.add.") and predicted != truth:
        return tr("The operator is right, not the overload. PyTorch's argument parser wraps a Python number given "
                  "to + into a 0-d tensor before dispatch: which overload takes two tensors?")
    return tr("Operator + is add; the log names the namespace, the operator and the overload.")


def _why_sum(predicted, truth):
    if predicted == "aten.sum.default":
        return tr("That overload sums everything into a 0-d tensor; x.sum(0) reduces along a list of dims.")
    return tr("sum's overload for a reduction over given dims is named after its argument, a list of ints.")


def _why_linear(predicted, truth):
    if isinstance(predicted, tuple) and predicted and "aten.addmm.default" in predicted:
        return tr("addmm is bias + x @ w.t() in one kernel: without a bias there is nothing to add.")
    if isinstance(predicted, tuple) and len(predicted) == 1:
        return tr("F.linear computes x @ w.t(): the transpose is an op of its own (a view, but still an op).")
    return tr("F.linear(x, w) computes x @ w.t(), and each of those steps is an op: list them in the order they "
              "run.")


DISPATCH_QUESTIONS = [
    Question(tr("x + 1 (x a float tensor): the one op logged"),
             lambda torch: _logged(torch, lambda t, x, w: x + 1)[0], _why_add),
    Question(tr("x.sum(0): the one op logged"), lambda torch: _logged(torch, lambda t, x, w: x.sum(0))[0],
             _why_sum),
    Question(tr("F.linear(x, w), no bias: every op logged, in order"),
             lambda torch: _logged(torch, lambda t, x, w: t.nn.functional.linear(x, w)), _why_linear),
    Question(tr("torch.add(s, 1) for a subclass s inside a TorchFunctionMode: who is asked first, 'mode' or "
                "'subclass'?"), _first_asked,
             tr("Think of the precedence rule of the lesson: which of the two sees calls that have no tensor at "
                "all?")),
]


def check_dispatch_facts(answer):
    """Exercise 3: a tuple of the 4 predictions of the table."""
    return check_predictions(answer, DISPATCH_QUESTIONS,
                             what=tr("a tuple of 4 predictions, e.g. ('aten.x.y', 'aten.x.y', ('aten.x.y',), "
                                     "'mode')"),
                             note=tr("You can read an ATen log now: operator, overload, and who was asked first."))


__all__ = ["check_dispatch_facts", "check_leaky_relus", "check_op_counter"]
