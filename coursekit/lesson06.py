"""Exercise checks of course/06_autograd_basics.ipynb (reference solutions: coursekit/solutions/lesson06.py).

    >>> _ = check_tracking(solution.predictions)
    Correct! You can tell what autograd tracks, and what keeps a .grad.
"""
import warnings

from .check import Case, Question, check_function, check_predictions
from .compare import is_tensor, to_numpy
from .language import tr
from .solutions import lesson06 as solution

# -- exercise 1: what is tracked, what is a leaf, who keeps .grad -------------------------------------


def _w(torch):
    return torch.ones(2, requires_grad=True)


def _with_no_grad(torch):
    w = _w(torch)
    with torch.no_grad():
        return (w * 2).requires_grad


def _non_leaf_grad_is_none(torch):
    w = _w(torch)
    h = w * 2
    (h * h).sum().backward()
    with warnings.catch_warnings():          # reading a non-leaf's .grad warns; the value is the point
        warnings.simplefilter("ignore")
        return h.grad is None


TRACKING_QUESTIONS = [
    Question("torch.ones(2).requires_grad", lambda torch: torch.ones(2).requires_grad,
             tr("requires_grad defaults to False: a tensor you make is a constant unless you ask for "
                "requires_grad=True.")),
    Question("(torch.ones(2) + w).requires_grad", lambda torch: (torch.ones(2) + _w(torch)).requires_grad,
             tr("One input that requires grad is enough: the result depends on w, so autograd must track it.")),
    Question("(torch.ones(2) + w).is_leaf", lambda torch: (torch.ones(2) + _w(torch)).is_leaf,
             tr("It was made by an op from a tensor that requires grad, so it has a grad_fn "
                "(AddBackward0): not a leaf.")),
    Question("w.view(2, 1).is_leaf", lambda torch: _w(torch).view(2, 1).is_leaf,
             tr("view is an operation too: its result shares w's memory but has a grad_fn (ViewBackward0). "
                "Only w itself is the leaf.")),
    Question("(w * 2).detach().is_leaf", lambda torch: (_w(torch) * 2).detach().is_leaf,
             tr("detach() returns a tensor without history (grad_fn None): a new leaf.")),
    Question("torch.ones(2).is_leaf", lambda torch: torch.ones(2).is_leaf,
             tr("By convention every tensor that does not require grad is a leaf: it has no grad_fn.")),
    Question(tr("under `with torch.no_grad():`, (w * 2).requires_grad"), _with_no_grad,
             tr("no_grad switches recording off: results made inside have no grad_fn and do not require "
                "grad, whatever their inputs.")),
    Question(tr("h = w * 2; (h * h).sum().backward(); then h.grad is None"), _non_leaf_grad_is_none,
             tr("Only leaves keep their gradient in .grad; h is an intermediate result. (h.retain_grad() "
                "before backward would keep it.)")),
]


def check_tracking(answer):
    """Exercise 1: a tuple of 8 True/False predictions, one per line of the table."""
    return check_predictions(answer, TRACKING_QUESTIONS,
                             note=tr("You can tell what autograd tracks, and what keeps a .grad."),
                             what=tr("a tuple of 8 True/False values, one per line of the table"))


# -- exercise 2: why is the gradient doubled? -----------------------------------------------------------

def _batches(torch):
    return [torch.tensor([1., 2.]), torch.tensor([0.5, 0.5]), torch.tensor([2., 0.])]


BATCH_CASES = [
    Case(tr("{w} and three batches", w="w = torch.tensor([1., -1.], requires_grad=True)"),
         lambda torch: (torch.tensor([1., -1.], requires_grad=True), _batches(torch))),
    Case(tr("a w that still holds .grad = tensor([10., 10.]) from an earlier step"),
         lambda torch: (_stale(torch), _batches(torch))),
]


def _stale(torch):
    w = torch.tensor([1., -1.], requires_grad=True)
    w.grad = torch.tensor([10., 10.])
    return w


def _close(a, b):
    import numpy as np
    return is_tensor(a) and is_tensor(b) and tuple(a.shape) == tuple(b.shape) and \
        np.allclose(to_numpy(a), to_numpy(b), rtol=1e-5, atol=1e-6)


def _diagnose_batches(got, expected, args, torch):
    if isinstance(got, Exception):
        if "second time" in str(got):
            return (tr("Each batch builds its own graph with its own loss: call backward once per loss "
                       "(no retain_graph needed)."))
        if isinstance(got, AttributeError) and "NoneType" in str(got):
            return (tr("w.grad is None until the first backward: there is nothing to zero yet. Set "
                       "w.grad = None instead (or zero it only when it is not None)."))
        return None
    if not isinstance(got, (list, tuple)) or len(got) != len(expected) or not all(is_tensor(g) for g in got):
        return tr("Return a list with one gradient tensor per batch.")
    if len(got) > 1 and got[0] is got[-1] or (len({g.data_ptr() for g in got}) == 1 and len(got) > 1):
        if _close(got[0], torch.zeros_like(got[0])):
            return (tr("Every entry is the same tensor, zeroed: you stored w.grad itself and then zeroed it "
                       "in place. Store a copy (w.grad.clone()), or set w.grad = None instead of zeroing."))
        return (tr("Every entry is the very same tensor, w.grad: backward adds into it in place, so each "
                   "entry shows the final total. Store a copy (w.grad.clone()), or set w.grad = None before "
                   "each backward so that each batch gets a fresh .grad."))
    stale = torch.tensor([10., 10.])                  # what the second case's w brings along
    for start in (torch.zeros(2), stale):
        running, cumulative = start, True
        for g, e in zip(got, expected):
            running = running + e
            cumulative = cumulative and _close(g, running)
        if cumulative and _close(start, stale) and len(got) > 1 and _close(got[1], expected[1]):
            cumulative = False                         # only the first entry is off: handled below
        if cumulative:
            return (tr("Each entry is the sum of this batch's gradient and all the earlier ones: gradients "
                       "accumulate in .grad. Reset w.grad (= None, or .zero_()) before every backward -- that "
                       "is what optimizer.zero_grad() does in a training loop."))
    if _close(got[0], expected[0] + stale):
        return (tr("The first entry still contains the .grad that w brought with it from an earlier step: "
                   "reset w.grad before the first backward too, not only between batches."))
    return None


def check_batch_gradients(batch_gradients):
    """Exercise 2: ``batch_gradients(w, batches)`` returns each batch's own gradient."""
    return check_function(batch_gradients, solution.batch_gradients, BATCH_CASES,
                          name="batch_gradients", grads=False,
                          what=tr("a fixed version of buggy_batch_gradients: a list with each batch's own "
                                  "gradient"),
                          diagnoses=[_diagnose_batches],
                          note=tr("Backward adds into .grad; reset it before each backward you want on its own."))


# -- exercise 3: a non-scalar output, without touching .grad ----------------------------------------------

VJP_CASES = [
    Case("x = torch.tensor([0., 1., -1.], requires_grad=True), v = torch.tensor([1., 2., 3.])",
         lambda torch: (torch.tensor([0., 1., -1.], requires_grad=True), torch.tensor([1., 2., 3.]))),
    Case("x = torch.tensor([[0.5, 2.]], requires_grad=True), v = torch.tensor([[1., 0.]])",
         lambda torch: (torch.tensor([[0.5, 2.]], requires_grad=True), torch.tensor([[1., 0.]]))),
]


def _diagnose_vjp(got, expected, args, torch):
    x, v = args
    if isinstance(got, Exception):
        if "implicitly created only for scalar outputs" in str(got):
            return (tr("y has several elements, so autograd needs to know which combination of them to "
                       "differentiate: pass v as grad_outputs= (autograd.grad) or gradient= (backward)."))
        if "does not require grad" in str(got):
            return tr("Differentiate y (which depends on x), not a tensor without history.")
        return None
    if isinstance(got, (tuple, list)):
        return tr("torch.autograd.grad returns a tuple, one gradient per input: take its [0].")
    if not is_tensor(got):
        return None
    with torch.no_grad():
        ones_grad = (x.exp() * (1 + x)).detach()
    if _close(got, ones_grad) and not _close(ones_grad, expected):
        return (tr("That is the gradient of y.sum(), as if every weight in v were 1: pass v as "
                   "grad_outputs=v."))
    if got.requires_grad:
        return tr("Return a plain gradient (no create_graph needed here).")
    return None


def _grad_untouched(got, args, torch):
    x = args[0]
    if x.grad is not None:
        return (tr("x.grad was changed (it is no longer None)"),
                tr("backward() adds into .grad; torch.autograd.grad returns the gradient instead and leaves "
                   ".grad alone."))
    return None


def check_weighted_gradient(weighted_gradient):
    """Exercise 3: ``weighted_gradient(x, v)`` is v . dy/dx for y = x.exp() * x, with x.grad untouched."""
    return check_function(weighted_gradient, solution.weighted_gradient, VJP_CASES, name="weighted_gradient",
                          what=tr("a function body that returns v . dy/dx without changing x.grad"),
                          diagnoses=[_diagnose_vjp], extra=_grad_untouched,
                          note=tr("autograd.grad(y, x, grad_outputs=v) is the vector-Jacobian product, and "
                                  ".grad stays as it was."))
