"""Exercise checks of course/09_custom_functions.ipynb (reference solutions: coursekit/solutions/lesson09.py).

The answers of exercises 1 and 2 are *classes* (subclasses of ``torch.autograd.Function``), which
:func:`coursekit.check.check_function` cannot run on PyTorch: :func:`function_on` re-creates such a
class for another library (the class-level counterpart of :func:`coursekit.libs.on`), and
:func:`check_function_class` runs forward and backward on both and compares output and gradients.

    >>> _ = check_sigmoid(solution.Sigmoid)
    Correct! Saving the output y makes backward one line: grad * y * (1 - y) -- as PyTorch's
             own SigmoidBackward0 does.
    >>> _ = check_hypot(solution.Hypot)
    Correct! gradcheck agrees with your backward now: d r/dy = y / r.
    >>> _ = check_function_facts(solution.predictions)
    Correct! A custom Function joins the graph exactly like a built-in op.
"""
import inspect

from . import guard
from .check import (Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong,
                    works_only_on_tensorlab)
from .compare import describe, differences, is_tensor, kind
from .language import tr
from .libs import libraries, on
from .solutions import lesson09 as solution


# -- a learner's Function class, on either library --------------------------------------------------

def _is_library_function_base(klass):
    return klass.__name__ == "Function" and klass.__module__.split(".")[0] in ("tensorlab", "torch")


def function_on(library, cls, returned=None):
    """A copy of the ``autograd.Function`` subclass ``cls`` for ``library`` (tensorlab or torch):
    same name, same methods, each re-created with :func:`~coursekit.libs.on` so that ``torch`` inside
    them means ``library``. With a list ``returned``, every value backward returns is appended to it
    (to tell a stub ``return ...`` from a real answer)."""
    body = {"__module__": cls.__module__, "__qualname__": cls.__qualname__}
    for klass in cls.__mro__:
        if klass is object or _is_library_function_base(klass):
            break
        for name, value in vars(klass).items():
            if name in body or name in ("__dict__", "__weakref__", "__doc__", "_backward_cls"):
                continue
            if isinstance(value, staticmethod):
                value = staticmethod(on(library, value.__func__))
            elif isinstance(value, classmethod):
                value = classmethod(on(library, value.__func__))
            elif inspect.isfunction(value):
                value = on(library, value)
            body[name] = value
    if returned is not None and "backward" in body:
        inner = body["backward"].__func__

        def backward(ctx, *grads):
            result = inner(ctx, *grads)
            returned.append(result)
            return result
        body["backward"] = staticmethod(backward)
    return type(cls.__name__, (library.autograd.Function,), body)


class FunctionCase:
    """One call of a Function exercise: ``make(torch)`` gives the inputs, ``grad(torch)`` the
    gradient backward starts from, ``names`` name the inputs in messages."""

    def __init__(self, label, make, grad, names):
        self.label, self.make, self.grad, self.names = label, make, grad, names


def _same(a, b):
    return is_tensor(a) and is_tensor(b) and not differences(a, b, grads=False)


def _is_function_class(answer):
    return inspect.isclass(answer) and any(_is_library_function_base(k) for k in answer.__mro__)


def _run_case(cls, reference, case, module, diagnose_error, diagnose_grad):
    """What is off in one case on one library: None, "stub", or (what, why)."""
    returned = []
    answer = function_on(module, cls, returned)
    inputs, ref_inputs = case.make(module), case.make(module)
    out, error = guard.run(answer.apply, *inputs)
    if error is not None:
        return raised(error, diagnose_error(error), f"{cls.__name__}.apply({', '.join(case.names)})")
    if out is Ellipsis:
        return "stub"
    expected = function_on(module, reference).apply(*ref_inputs)
    if not is_tensor(out):
        return (tr("forward returned {kind} ({value}), expected a tensor", kind=kind(out), value=describe(out)),
                tr("Return the result of forward."))
    found = differences(out, expected, where=tr("the result of forward"), grads=False)
    if found:
        return found[0], tr("forward computes the value: the same formula as without autograd.")
    if out.grad_fn is None:
        return (tr("the result does not require grad"),
                tr("Call the Function through .apply(...), with inputs that require grad."))
    _, error = guard.run(out.backward, case.grad(module))
    if error is not None:
        if returned and returned[-1] is Ellipsis:
            return "stub"
        return raised(error, diagnose_error(error), "backward")
    expected.backward(case.grad(module))
    for i, (name, a, r) in enumerate(zip(case.names, inputs, ref_inputs)):
        if not (is_tensor(a) and a.requires_grad):
            continue
        if a.grad is None:
            return (tr("{name}.grad is None", name=name),
                    tr("backward returned None in position {i}, the place of {name}'s gradient.", i=i, name=name))
        found = differences(a.grad, r.grad, where=f"{name}.grad", grads=False)
        if found:
            return found[0], diagnose_grad(name, a.grad, inputs, case.grad(module), module)
    return None


@always_a_verdict
def check_function_class(answer, reference, cases, *, name, what, diagnose_error, diagnose_grad, note=""):
    """Check an ``autograd.Function`` subclass: forward's value and every input's gradient after
    ``out.backward(grad)``, compared with ``reference``'s, on tensorlab and (when installed) PyTorch.
    ``diagnose_error(error)`` and ``diagnose_grad(name, got, inputs, grad_out, torch)`` give hints."""
    if is_stub(answer):
        return not_answered(what)
    if not _is_function_class(answer):
        return wrong(tr("`{name}` should be a subclass of torch.autograd.Function ({what}); it is {kind}.",
                        name=name, what=what, kind=kind(answer)),
                     tr("Write `class ...(torch.autograd.Function):` with two @staticmethods, forward and backward."))
    for index, (_, module) in enumerate(libraries()):
        for case in cases:
            problem = _run_case(answer, reference, case, module, diagnose_error, diagnose_grad)
            if problem is None:
                continue
            if problem == "stub":
                return not_answered(what)
            found, why = problem
            if index > 0:
                return works_only_on_tensorlab(f"`{name}`", module, found)
            return wrong(tr("`{name}` on {case}: {found}.", name=name, case=case.label, found=found), why)
    return correct(note)


def _match(got, candidates):
    """The hint of the first candidate tensor ``got`` equals, or ''."""
    for value, hint in candidates:
        if _same(got, value):
            return hint
    return ""


def _diagnose_error(n_inputs, order):
    def diagnose(error):
        text = str(error)
        if "incorrect number of gradients" in text:
            return tr("backward returns one gradient per input of forward, in the same order ({order}): "
                      "{n} values, None for an input that needs none.", order=order, n=n_inputs)
        if isinstance(error, ValueError) and "values to unpack" in text:
            return tr("ctx.saved_tensors gives back exactly the tensors forward passed to "
                      "ctx.save_for_backward, in that order: unpack as many as you saved.")
        if "save_for_backward" in text:
            return tr("ctx.save_for_backward(...) takes tensors (inputs or outputs of forward), not other values.")
        return ""
    return diagnose


# -- exercise 1: sigmoid as an autograd.Function ----------------------------------------------------

def _sigmoid_inputs(torch):
    return (torch.tensor([-2.0, 0.0, 0.5, 3.0], dtype=torch.float64, requires_grad=True),)


SIGMOID_CASES = [FunctionCase(tr("x = [-2, 0, 0.5, 3] and grad = [1, -1, 2, 0.5]"), _sigmoid_inputs,
                              lambda torch: torch.tensor([1., -1., 2., 0.5], dtype=torch.float64), ["x"])]


def _diagnose_sigmoid_grad(name, got, inputs, g, torch):
    x = inputs[0].detach()
    y = 1 / (1 + (-x).exp())
    candidates = [
        (y * (1 - y), tr("Multiply by grad: backward receives d(loss)/dy and must return d(loss)/dx = "
                         "grad * dy/dx -- the chain rule.")),
        (g * x * (1 - x), tr("The right formula, but with x where y belongs: it is written in terms of the "
                             "*output* y = sigmoid(x) -- save it in forward.")),
        (g * y, tr("Only part of the derivative: y alone is the rule for exp; sigmoid's derivative has a "
                   "second factor.")),
        (g * (1 - y), tr("One factor is missing: sigmoid's derivative is a product of two factors, both made "
                         "of y.")),
        (-g * y * (1 - y), tr("Mind the sign: sigmoid is increasing, so its derivative is positive.")),
    ]
    return _match(got, candidates) or tr("backward returns grad * dy/dx: work out the derivative of "
                                         "1 / (1 + exp(-x)) and write it in terms of y, the saved output.")


def check_sigmoid(Sigmoid):
    """Exercise 1: ``Sigmoid`` is an autograd.Function computing 1 / (1 + exp(-x)) with a correct backward."""
    return check_function_class(
        Sigmoid, solution.Sigmoid, SIGMOID_CASES, name="Sigmoid",
        what=tr("the bodies of forward (compute y = 1 / (1 + exp(-x)), save what backward needs, return y) "
                "and backward (return the gradient for x)"),
        diagnose_error=_diagnose_error(1, "x"), diagnose_grad=_diagnose_sigmoid_grad,
        note=tr("Saving the output y makes backward one line: grad * y * (1 - y) -- as PyTorch's own "
                "SigmoidBackward0 does."))


# -- exercise 2: find the bug with gradcheck ---------------------------------------------------------

def _hypot_inputs(torch):
    x = torch.tensor([3.0, -1.0, 0.5], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([4.0, 2.0, -1.5], dtype=torch.float64, requires_grad=True)
    return x, y


HYPOT_CASES = [FunctionCase(tr("x = [3, -1, 0.5], y = [4, 2, -1.5] and grad = [1, -2, 0.5]"), _hypot_inputs,
                            lambda torch: torch.tensor([1., -2., 0.5], dtype=torch.float64), ["x", "y"])]


def _diagnose_hypot_grad(name, got, inputs, g, torch):
    x, y = (t.detach() for t in inputs)
    r = (x * x + y * y).sqrt()
    mine, other = (x, y) if name == "x" else (y, x)
    candidates = [
        (g * mine / (2 * r), tr("Still half the right size: d sqrt(u)/du = 1 / (2 sqrt(u)), and du/d{name} = "
                                "2 {name}, so the 2s cancel.", name=name)),
        (mine / r, tr("Multiply by grad: backward must scale the local derivative by the gradient it receives.")),
        (g * other / r, tr("That is the other input's formula: the gradient for {name} has {name} on top.",
                           name=name)),
        (g * mine * r, tr("Divide by r, do not multiply: a square root's derivative has it in the denominator.")),
    ]
    return _match(got, candidates) or tr("gradcheck says which input is wrong; work out d r/d{name} with the "
                                         "chain rule through the square root.", name=name)


def check_hypot(Hypot):
    """Exercise 2: ``Hypot`` (r = sqrt(x^2 + y^2)) with its backward repaired."""
    return check_function_class(
        Hypot, solution.Hypot, HYPOT_CASES, name="Hypot",
        what=tr("a repaired Hypot class (copy the class, fix its backward)"),
        diagnose_error=_diagnose_error(2, "x, y"), diagnose_grad=_diagnose_hypot_grad,
        note=tr("gradcheck agrees with your backward now: d r/dy = y / r."))


# -- exercise 3: predictions about a Function's node --------------------------------------------------

def _tensors(torch, b_number=False):
    w = torch.tensor([1., 2.], requires_grad=True)
    x = torch.tensor([3., 4.], requires_grad=not b_number)
    b = 2.0 if b_number else torch.tensor([5., 6.], requires_grad=True)
    return w, x, b


def _name(torch):
    return function_on(torch, solution.line).apply(*_tensors(torch)).grad_fn.name()


def _needs(torch):
    seen = []

    class line(torch.autograd.Function):
        @staticmethod
        def forward(ctx, w, x, b):
            seen.append(tuple(ctx.needs_input_grad))
            return w * x + b

        @staticmethod
        def backward(ctx, grad_out):
            return None, None, None

    line.apply(*_tensors(torch, b_number=True))
    return seen[0]


def _edges(torch):
    return len(function_on(torch, solution.line).apply(*_tensors(torch, b_number=True)).grad_fn.next_functions)


def _no_grad(torch):
    with torch.no_grad():
        return function_on(torch, solution.line).apply(*_tensors(torch)).requires_grad


def _why_name(got, truth):
    if isinstance(got, str) and got.lower() == truth.lower():
        return tr("Letter case counts: the node is named after the class exactly as it is spelled, plus 'Backward'.")
    if isinstance(got, str) and got.startswith(truth):
        return tr("No number for a custom Function: the 0 of MulBackward0 tells apart the overloads of a built-in "
                  "op. Yours is the class name plus 'Backward'.")
    return tr("A custom Function's node is named after its class, the way MulBackward0 is named after mul "
              "(print type(out.grad_fn).__name__ for a built-in op to see the pattern).")


FACT_QUESTIONS = [
    Question("out = line.apply(w, x, b) -> out.grad_fn.name()", _name, _why_name),
    Question(tr("needs_input_grad in line.apply(w, x, 2.0), only w requiring grad"), _needs,
             tr("One bool per argument of forward, in order: True where that input requires grad (a Python "
                "number never does).")),
    Question("len(line.apply(w, x, 2.0).grad_fn.next_functions)", _edges,
             tr("Count one edge per *tensor* argument of apply, whether it requires grad or not; does a Python "
                "number get one? (backward still returns a value for it, None.)")),
    Question("with torch.no_grad(): out = line.apply(w, x, b) -> out.requires_grad", _no_grad,
             tr("Under no_grad, apply records nothing: no node, and the result does not require grad.")),
]


def check_function_facts(answer):
    """Exercise 3: a tuple of the 4 predictions of the table."""
    return check_predictions(answer, FACT_QUESTIONS,
                             what=tr("a tuple of 4 predictions, e.g. ('xBackward', (True, True, True), 3, True)"),
                             note=tr("A custom Function joins the graph exactly like a built-in op."))


__all__ = ["FunctionCase", "check_function_class", "check_function_facts", "check_hypot", "check_sigmoid",
           "function_on"]
