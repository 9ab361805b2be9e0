"""Exercise checks of course/08_inplace_and_versions.ipynb (reference solutions: coursekit/solutions/lesson08.py).

    >>> _ = check_versions(solution.versions)
    Correct! Every in-place write bumps the counter its storage's tensors share -- except
             through .data.
    >>> _ = check_raises(solution.raises)
    Correct! Backward only refuses when a tensor some node *saved* was changed after it was
             saved.
    >>> _ = check_sgd_step(solution.sgd_step)
    Correct! This is what optimizer.step() and optimizer.zero_grad() do for plain SGD.
    >>> _ = check_softplus_sum(solution.softplus_sum)
    Correct! Only the write into a tensor that a node saved has to go; y.mul_(2) can stay,
             because log saves its input, not its output.
"""
from . import guard
from .check import (Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong,
                    works_only_on_tensorlab)
from .compare import describe, differences, kind
from .language import tr
from .libs import libraries, on
from .solutions import lesson08 as solution

# -- exercise 1: read the version counter ---------------------------------------------------------


def _v_two_ops(torch):
    a = torch.zeros(3)
    a.add_(1)
    a.mul_(2)
    return a._version


def _v_out_of_place(torch):
    a = torch.zeros(3)
    b = a + 1
    return b._version


def _v_setitem(torch):
    a = torch.zeros(3)
    a[0] = 1
    a[1:] = 2
    return a._version


def _v_through_view(torch):
    a = torch.zeros(3)
    v = a[1:]
    v.fill_(5)
    return a._version


def _v_detach(torch):
    x = torch.ones(3, requires_grad=True)
    x.detach().zero_()
    return x._version


def _v_data(torch):
    x = torch.ones(3, requires_grad=True)
    x.data.zero_()
    return x._version


VERSION_QUESTIONS = [
    Question("a = torch.zeros(3); a.add_(1); a.mul_(2) -> a._version", _v_two_ops,
             tr("Count the in-place ops: each one (a name ending in `_`) adds 1 to the counter.")),
    Question("a = torch.zeros(3); b = a + 1 -> b._version", _v_out_of_place,
             tr("`a + 1` is out of place: b is a brand-new tensor with its own counter. Has anything written "
                "into b since it was made?")),
    Question("a = torch.zeros(3); a[0] = 1; a[1:] = 2 -> a._version", _v_setitem,
             lambda got, truth: tr("An assignment `a[...] = value` is an in-place write (a copy_ or fill_ into "
                "a view of a): one bump per assignment, however many elements it writes.") if got != truth else ""),
    Question("a = torch.zeros(3); v = a[1:]; v.fill_(5) -> a._version", _v_through_view,
             tr("A view shares its base's storage *and* its version counter: which counter does a write "
                "through v bump?")),
    Question("x = torch.ones(3, requires_grad=True); x.detach().zero_() -> x._version", _v_detach,
             tr("detach() makes a new tensor without history -- but over the same storage, and with which "
                "version counter?")),
    Question("x = torch.ones(3, requires_grad=True); x.data.zero_() -> x._version", _v_data,
             tr(".data is the old escape hatch: same storage, but a *fresh* version counter of its own. Whose "
                "counter does a write through it bump?")),
]


def check_versions(answer):
    """Exercise 1: a tuple of the 6 version numbers of the table, in order."""
    return check_predictions(answer, VERSION_QUESTIONS,
                             what=tr("a tuple of 6 ints, one per line of the table, e.g. (1, 0, ...)"),
                             note=tr("Every in-place write bumps the counter its storage's tensors share -- "
                                     "except through .data."))


# -- exercise 2: which backward refuses? -------------------------------------------------------------

def _backward_raises(build):
    """A Question's compute: build y from a fresh x, then see whether y.sum().backward() raises."""
    def compute(torch):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = build(torch, x)
        try:
            y.sum().backward()
        except RuntimeError:
            return True
        return False
    return compute


def _exp_then_add(torch, x):
    y = x.exp()
    y.add_(1)
    return y


def _mul_self_then_add(torch, x):
    y = x * x
    y.add_(1)
    return y


def _change_saved_input(torch, x):
    h = x * 2
    y = h * h
    h.add_(1)
    return y


def _add_then_mul(torch, x):
    y = x + 1
    y.mul_(2)
    return y


def _detach_write(torch, x):
    y = x.exp()
    y.detach().zero_()
    return y


def _data_write(torch, x):
    y = x.exp()
    y.data.zero_()
    return y


def _saved_hint(saved, changed):
    def why(got, truth):
        if truth:
            return tr("{saved} -- and {changed}, so its version no longer matches the one recorded when it was "
                      "saved.", saved=saved, changed=changed)
        return tr("{saved}; {changed}, which nothing saved, so backward has nothing to refuse.", saved=saved,
                  changed=changed)
    return why


RAISE_QUESTIONS = [
    Question("y = x.exp(); y.add_(1)", _backward_raises(_exp_then_add),
             _saved_hint(tr("ExpBackward0 saves its *output* (d exp(x)/dx = exp(x) = y)"), tr("add_ changed y"))),
    Question("y = x * x; y.add_(1)", _backward_raises(_mul_self_then_add),
             _saved_hint(tr("MulBackward0 saves its *inputs* (x and x), not its result"),
                         tr("add_ changed the result y"))),
    Question("h = x * 2; y = h * h; h.add_(1)", _backward_raises(_change_saved_input),
             _saved_hint(tr("the second MulBackward0 saved h (d(h*h)/dh needs h)"), tr("add_ changed h after that"))),
    Question("y = x + 1; y.mul_(2)", _backward_raises(_add_then_mul),
             _saved_hint(tr("AddBackward0 saves nothing (its derivative is 1), and multiplying by the number 2 "
                            "needs only the 2"), tr("mul_ changed y"))),
    Question("y = x.exp(); y.detach().zero_()", _backward_raises(_detach_write),
             lambda got, truth: tr("detach() shares y's storage and version counter: zeroing it bumps the version "
                                   "ExpBackward0 recorded for y, so backward refuses.") if truth else ""),
    Question("y = x.exp(); y.data.zero_()", _backward_raises(_data_write),
             lambda got, truth: "" if truth else tr(
                 "y.data has a fresh version counter, so autograd cannot see the write: backward runs -- and uses the "
                 "zeroed y, a silently *wrong* gradient (x.grad is all zeros). That is why detach() replaced .data.")),
]


def check_raises(answer):
    """Exercise 2: a tuple of 6 bools, True where `y.sum().backward()` raises."""
    return check_predictions(answer, RAISE_QUESTIONS,
                             what=tr("a tuple of 6 bools (True: backward raises), one per line of the table"),
                             note=tr("Backward only refuses when a tensor some node *saved* was changed after "
                                     "it was saved."))


# -- exercise 3: a parameter update that autograd does not see ------------------------------------
# check_function compares what a function *returns*; this exercise is about what it does to its
# arguments (in place), so the check runs the answer itself, on each library, and inspects them.

LR = 0.1
WHAT_SGD = "a function body that updates every parameter in place (p <- p - lr * p.grad) and then resets its .grad"


def _where(name, case):
    """The start of a verdict about ``name`` on ``case``, worded as check_function words it."""
    return tr("`{name}` on {case}", name=name, case=case)


def _parameters(torch):
    """Two leaves with gradients from a real backward pass: w (2, 2) and b (2,)."""
    w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    b = torch.tensor([0.1, -0.3], requires_grad=True)
    x = torch.tensor([1.0, 2.0])
    loss = ((w @ x + b) ** 2).sum()
    loss.backward()
    return [w, b]


def _close(a, b):
    return not differences(a, b, grads=False)


def _diagnose_sgd_error(error):
    text = str(error)
    if "leaf Variable that requires grad" in text:
        return (tr("An in-place change of a leaf that requires grad is refused while autograd is recording: do "
                   "the update inside `with torch.no_grad():`."))
    if "NoneType" in text:
        return (tr("A .grad is None: did you reset the gradients *before* using them? Update first, then "
                   "reset."))
    return ""


def _check_one(function, torch):
    """What is off when ``function`` runs on ``torch``'s tensors: None, or (what, why)."""
    params = _parameters(torch)
    names = ["w", "b"]
    before = [p.detach().clone() for p in params]
    grads = [p.grad.clone() for p in params]
    result, error = guard.run(function, params, LR)
    if error is not None:
        return raised(error, _diagnose_sgd_error(error), "sgd_step(params, lr)")
    if result is Ellipsis:
        return "stub", ""
    for name, p, old, g in zip(names, params, before, grads):
        expected = old - LR * g
        now = p.detach()
        if _close(now, expected):
            pass
        elif _close(now, old):
            return (tr("{name} did not change", name=name),
                    tr("`p = p - lr * p.grad` only rebinds the local name p to a new tensor; the parameter itself is "
                       "untouched. Write into the parameter itself, in place (an augmented assignment such as -=, or "
                       "a method whose name ends in _)."))
        elif _close(now, old + LR * g):
            return (tr("{name} moved to {got}, expected {expected}", name=name, got=describe(now),
                       expected=describe(expected)),
                    tr("That is a step uphill: the gradient points to where the loss grows, so subtract it."))
        else:
            found = differences(now, expected, where=name, grads=False)
            return found[0], tr("Each parameter should become p - lr * p.grad, with the .grad it had before the "
                                "step.")
        if not (p.is_leaf and p.grad_fn is None and p.requires_grad):
            return (tr("{name} is no longer a leaf that requires grad (grad_fn={grad_fn}, requires_grad="
                       "{requires_grad})", name=name, grad_fn=p.grad_fn, requires_grad=p.requires_grad),
                    tr("Update the tensor in place under torch.no_grad(); do not replace it with a computed tensor."))
        if p.grad is not None and bool((p.grad != 0).any()):
            return (tr("{name}.grad still holds the old gradient {grad}", name=name, grad=describe(p.grad)),
                    tr("Gradients accumulate: the next backward would add to this one. Reset it after the step "
                       "(`p.grad = None`, or `p.grad.zero_()`), as optimizer.zero_grad() does."))
    return None


@always_a_verdict
def check_sgd_step(sgd_step):
    """Exercise 3: ``sgd_step(params, lr)`` updates each parameter in place without recording, then
    resets its gradient; run on tensorlab and (when installed) PyTorch."""
    what_sgd = tr(WHAT_SGD)
    if is_stub(sgd_step):
        return not_answered(what_sgd)
    if not callable(sgd_step):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="sgd_step", what=what_sgd,
                        kind=kind(sgd_step)))
    for index, (_, module) in enumerate(libraries()):
        problem = _check_one(on(module, sgd_step), module)
        if problem is None:
            continue
        what, why = problem
        if what == "stub":
            return not_answered(what_sgd)
        if index > 0:
            return works_only_on_tensorlab("`sgd_step`", module, what)
        return wrong(f"{_where('sgd_step', tr('w (2, 2) and b (2,)'))}: {what}.", why)
    return correct(tr("This is what optimizer.step() and optimizer.zero_grad() do for plain SGD."))


__all__ = ["check_versions", "check_raises", "check_sgd_step"]


# -- exercise 4: repair a forward that backward refuses ----------------------------------------------------

WHAT_SOFTPLUS = ("a repaired buggy_softplus_sum: the same value, `(2 * log(1 + exp(x))).sum()`, and a backward "
                 "that runs")
SOFTPLUS_CASES = [
    ("x = torch.tensor([-1., 0., 2.], requires_grad=True)",
     lambda torch: torch.tensor([-1., 0., 2.], requires_grad=True)),
    ("x = torch.linspace(-3, 3, 6).reshape(2, 3).requires_grad_()",
     lambda torch: torch.linspace(-3., 3., 6).reshape(2, 3).requires_grad_()),
]


def _softplus_value_hint(got, x, torch):
    with torch.no_grad():
        if not differences(got, (x.exp() + 1).log().sum(), grads=False):
            return tr("That is half the value: the buggy version also doubles y.")
    return tr("Compute what buggy_softplus_sum computes: 2 * log(1 + exp(x)), summed to one number.")


def _softplus_problem(function, make, torch):
    """(what is off, why) for the learner's ``softplus_sum`` on one input, or None; Ellipsis for a stub."""
    x = make(torch)
    before = guard.snapshot(x)
    out, error = guard.run(function, x)
    if error is None and out is Ellipsis:
        return Ellipsis
    if error is not None:
        return raised(error, tr("A leaf that requires grad (x) cannot be changed in place: change only the tensors "
                                "the function makes.") if "leaf Variable" in str(error) else
                             tr("Start from buggy_softplus_sum and change as little as you can."))
    changed = guard.input_changes([before], [x], ["x"])
    if changed:
        return tr("it changed its input in place: {change}", change=changed[0]), guard.why_changed(changed[0])
    with torch.no_grad():
        expected = (2 * (x.exp() + 1).log()).sum()
    if not hasattr(out, "requires_grad"):
        return (tr("it returned {kind} ({value}), not a tensor", kind=kind(out), value=describe(out)),
                tr("Return y.sum(), a 0-d tensor."))
    found = differences(out.detach(), expected, where=tr("the value"), grads=False)
    if found:
        return found[0], _softplus_value_hint(out.detach(), x, torch)
    if not out.requires_grad:
        return (tr("the result does not require grad: backward has no graph to run"),
                tr("detach() or torch.no_grad() cut the graph between x and the result. Keep every step recorded; "
                   "only the in-place write that backward refuses has to go."))
    _, error = guard.run(out.backward)
    if error is not None:
        if "modified by an inplace operation" in str(error):
            return (tr("backward still raises {error}: a saved tensor was modified by an inplace operation",
                       error=type(error).__name__),
                    tr("Read the error: 'output 0 of Exp' is the tensor, and ExpBackward0 saved it for its backward. "
                       "Which in-place op changes it after that? Make that one out of place. (torch.no_grad() does "
                       "not help: the write still moves the version counter.)"))
        return raised(error, tr("Call .backward() on your result yourself and read the error."), subject="backward")
    with torch.enable_grad():
        fresh = make(torch)
        (2 * (fresh.exp() + 1).log()).sum().backward()
    found = differences(x.grad, fresh.grad, where="x.grad", grads=False)
    if found:
        return (tr("{found}, although backward ran", found=found[0]),
                tr("A change hidden from the version check -- through .data -- lets backward run on the changed "
                   "tensor and compute a wrong gradient without a word. Make the change out of place instead."))
    return None


@always_a_verdict
def check_softplus_sum(softplus_sum):
    """Exercise 4: ``softplus_sum(x)`` gives the value of buggy_softplus_sum, and its backward runs and
    gives the right gradient."""
    what = tr(WHAT_SOFTPLUS)
    if is_stub(softplus_sum):
        return not_answered(what)
    if not callable(softplus_sum):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="softplus_sum", what=what,
                        kind=kind(softplus_sum)))
    for index, (_, library) in enumerate(libraries()):
        function = on(library, softplus_sum)
        for label, make in SOFTPLUS_CASES:
            problem = _softplus_problem(function, make, library)
            if problem is Ellipsis:
                if index == 0:
                    return not_answered(what)
                problem = (tr("it returned Ellipsis"), "")
            if problem is not None:
                found, why = problem
                if index > 0:
                    return works_only_on_tensorlab(_where("softplus_sum", label), library, found)
                return wrong(f"{_where('softplus_sum', label)}: {found.rstrip('.')}.", why)
    return correct(tr("Only the write into a tensor that a node saved has to go; y.mul_(2) can stay, because "
                      "log saves its input, not its output."))
