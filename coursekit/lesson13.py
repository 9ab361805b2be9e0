"""Exercise checks of course/13_layers_and_losses.ipynb (reference solutions:
coursekit/solutions/lesson13.py).

    >>> _ = check_layer_predictions(solution.predictions)
    Correct! A Linear maps the last dimension from in_features to out_features; a loss
             reduces to one number unless reduction="none".
"""
from .check import Case, Question, check_function, check_predictions, ramp
from .compare import differences, is_tensor
from .language import tr
from .solutions import lesson13 as solution


# -- exercise 1: shapes and values -------------------------------------------------------------------

def _float_hint(text):
    def hint(got, truth):
        if isinstance(got, int) and not isinstance(got, bool) and got == truth:
            return tr("The number is right; write it as a float (.item() of a float tensor is a Python float).")
        return text
    return hint


def _mse(torch, **kwargs):
    return torch.nn.MSELoss(**kwargs)(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 4.0])).item()


PREDICTION_QUESTIONS = [
    Question("nn.Linear(3, 2).weight.shape", lambda torch: tuple(torch.nn.Linear(3, 2).weight.shape),
             tr("The weight is [out_features, in_features]: one row of input weights per output feature.")),
    Question("nn.Linear(3, 2)(torch.zeros(5, 3)).shape",
             lambda torch: tuple(torch.nn.Linear(3, 2)(torch.zeros(5, 3)).shape),
             tr("A Linear maps each sample's in_features numbers to out_features numbers; the batch dimension "
                "stays as it is.")),
    Question("nn.Linear(3, 2)(torch.zeros(4, 7, 3)).shape",
             lambda torch: tuple(torch.nn.Linear(3, 2)(torch.zeros(4, 7, 3)).shape),
             tr("Linear only looks at the last dimension (x @ W.T broadcasts over the leading ones).")),
    Question('nn.MSELoss()(torch.tensor([1., 2.]), torch.tensor([1., 4.])).item()', _mse,
             _float_hint(tr("Square each error (prediction minus target); the default reduction then takes "
                            "their mean."))),
    Question('nn.MSELoss(reduction="sum")(torch.tensor([1., 2.]), torch.tensor([1., 4.])).item()',
             lambda torch: _mse(torch, reduction="sum"),
             _float_hint(tr('reduction="sum" adds the squared errors instead of averaging them.'))),
    Question('nn.CrossEntropyLoss(reduction="none")(torch.zeros(3, 5), torch.tensor([0, 1, 4])).shape',
             lambda torch: tuple(torch.nn.CrossEntropyLoss(reduction="none")(
                 torch.zeros(3, 5), torch.tensor([0, 1, 4])).shape),
             tr('reduction="none" keeps one loss per sample (the classes are summed over inside each loss).')),
    Question("torch.softmax(torch.tensor([1., 1., 1., 1.]), dim=0)[0].item()",
             lambda torch: torch.softmax(torch.tensor([1.0, 1.0, 1.0, 1.0]), dim=0)[0].item(),
             _float_hint(tr("Softmax turns equal scores into equal probabilities, whatever the scores are: "
                            "they sum to 1."))),
]


def check_layer_predictions(answer):
    """Exercise 1: a tuple of 7 predictions (shapes as tuples, values as floats)."""
    return check_predictions(answer, PREDICTION_QUESTIONS,
                             what=tr("a tuple of 7 predictions: shapes as tuples, values as floats"),
                             note=tr("A Linear maps the last dimension from in_features to out_features; a loss "
                                     "reduces to one number unless reduction=\"none\"."))


# -- exercise 2: a linear layer by hand -----------------------------------------------------------------

LINEAR_CASES = [
    Case(tr("x of shape (5, 3), weight (2, 3), bias (2,)"),
         lambda torch: (ramp(torch, 5, 3), ramp(torch, 2, 3, start=0.5, stop=-1.5),
                        torch.tensor([0.5, -2.0]))),
    Case(tr("x of shape (4, 7, 3), weight (2, 3), bias (2,)"),
         lambda torch: (ramp(torch, 4, 7, 3), ramp(torch, 2, 3, start=0.5, stop=-1.5),
                        torch.tensor([0.5, -2.0]))),
]


def _diagnose_linear(got, expected, args, torch):
    x, weight, bias = args
    if isinstance(got, Exception):
        text = str(got)
        if "mat1 and mat2" in text or "size mismatch" in text or "shapes cannot be multiplied" in text \
                or "matmul" in text:
            return tr("weight is [out_features, in_features], so x (..., in_features) must meet its "
                      "*transpose*.")
        if "must be a matrix" in text or "2D" in text or "2-D" in text:
            return tr("torch.mm only takes 2-D matrices; @ (matmul) treats the leading dims of x as a batch.")
        return None
    if not is_tensor(got):
        return None
    if tuple(got.shape) == tuple(expected.shape) and not differences(got, x @ weight.T, grads=False):
        return tr("That is x W^T without the bias: add bias (it broadcasts over the batch).")
    if tuple(got.shape) == tuple(expected.shape) and not differences(got, x @ weight.T - bias, grads=False):
        return tr("The bias is added, not subtracted.")
    return None


def check_linear(linear):
    """Exercise 2: ``linear(x, weight, bias)`` computes nn.Linear's forward pass, for any leading dims."""
    return check_function(linear, solution.linear, LINEAR_CASES, name="linear", grads=False,
                          what=tr("a function body that returns x W^T + b"),
                          diagnoses=[_diagnose_linear],
                          note=tr("That is exactly F.linear, which nn.Linear.forward calls (as one fused addmm)."))


# -- exercise 3: cross-entropy from log_softmax and nll ---------------------------------------------------

def _logits(torch, rows):
    return (torch.tensor(rows).requires_grad_(),)


CE_CASES = [
    Case(tr("logits [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], target [0, 1]"),
         lambda torch: _logits(torch, [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]]) + (torch.tensor([0, 1]),)),
    Case(tr("logits of shape (4, 5), target [4, 0, 2, 2]"),
         lambda torch: (torch.linspace(-2, 3, 20).reshape(4, 5).requires_grad_(), torch.tensor([4, 0, 2, 2]))),
    Case(tr("large logits [[1000.0, 0.0, -1000.0], [0.0, 1000.0, 10.0]], target [1, 0]"),
         lambda torch: _logits(torch, [[1000.0, 0.0, -1000.0], [0.0, 1000.0, 10.0]]) + (torch.tensor([1, 0]),)),
]


def _same(a, b):
    return is_tensor(a) and is_tensor(b) and tuple(a.shape) == tuple(b.shape) and not differences(a, b, grads=False)


def _diagnose_ce(got, expected, args, torch):
    logits, target = args
    F = torch.nn.functional
    if isinstance(got, Exception):
        if "out of bounds" in str(got) or "index" in str(got).lower():
            return tr("Pick one log-probability per row, the one at that row's target: index the rows and the "
                      "columns together (or let nll_loss do it).")
        return None
    if not is_tensor(got):
        return tr("Return a tensor (the loss), so that backward() can run through it.")
    got = got.detach()
    with torch.no_grad():
        if not bool(torch.isfinite(got).all()):
            return tr("Taking exp of large logits overflows (exp(1000) is inf in float32) or rounds the other "
                      "probabilities to 0, and log(0) = -inf. log_softmax computes x - logsumexp(x) without ever "
                      "forming those numbers.")
        if _same(got, -expected):
            return tr("Cross-entropy is the *negative* log-likelihood: -log p of the true class.")
        n = len(target)
        if _same(got, expected * n):
            return tr("Average over the batch (the default reduction is the mean), not the sum.")
        if got.dim() == 1:
            return tr("Reduce the per-sample losses to their mean: one number for the batch.")
        if _same(got, F.nll_loss(F.softmax(logits, dim=1), target)):
            return tr("nll_loss expects *log*-probabilities: use log_softmax, not softmax.")
        if _same(got, F.nll_loss(logits, target)):
            return tr("nll_loss does not apply a softmax; give it log-probabilities, not the raw logits.")
        if _same(got, F.nll_loss(F.log_softmax(logits, dim=0), target)):
            return tr("Normalise over the classes of each sample: log_softmax(logits, dim=1), not dim=0.")
    return None


def _gradient_problem(got, args, torch):
    """Once the values match: the gradient must be (softmax - one_hot) / N, as F.cross_entropy's."""
    logits, target = args
    if got.grad_fn is None:
        return (tr("the result does not depend on the logits in autograd's eyes (no grad_fn)"),
                tr("Compute the loss with tensor operations on the logits (no .item(), .detach() or .numpy())."))
    got.backward()
    fresh = logits.detach().clone().requires_grad_()
    torch.nn.functional.cross_entropy(fresh, target).backward()
    found = differences(logits.grad, fresh.grad, where="logits.grad", grads=False)
    if found:
        return found[0], tr("The values are right but the gradient is not: is part of the loss computed outside "
                            "autograd?")
    return None


def check_cross_entropy(cross_entropy):
    """Exercise 3: ``cross_entropy(logits, target)`` equals F.cross_entropy, value and gradient."""
    return check_function(cross_entropy, solution.cross_entropy, CE_CASES, name="cross_entropy", grads=False,
                          what=tr("a function body that returns the mean cross-entropy of `logits` (N, C) "
                                  "against class indices `target` (N,)"),
                          diagnoses=[_diagnose_ce], extra=_gradient_problem,
                          note=tr("log_softmax + nll_loss is exactly how F.cross_entropy is built, and its "
                                  "gradient is (softmax - one_hot) / N."))
