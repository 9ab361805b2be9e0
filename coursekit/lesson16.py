"""Exercise checks of course/16_training_loop.ipynb (reference solutions:
coursekit/solutions/lesson16.py).

    >>> _ = check_gradient_predictions(solution.predictions)
    Correct! backward adds into .grad until something resets it; step() reads whatever .grad
             holds.
"""
from . import guard
from .check import (Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong,
                    works_only_on_tensorlab)
from .compare import differences, is_tensor, kind
from .libs import libraries, on
from .solutions import lesson16 as solution


# -- exercise 1: gradients accumulate -------------------------------------------------------------------

def _after(line):
    """The value asked on ``line`` (1..5) of the table, the lines run one after another."""
    def compute(torch):
        w = torch.tensor(2.0, requires_grad=True)
        opt = torch.optim.SGD([w], lr=0.1)
        (3 * w).backward()
        (3 * w).backward()
        if line == 1:
            return w.grad.item()
        opt.step()
        if line == 2:
            return w.item()
        opt.zero_grad()
        if line == 3:
            return w.grad
        (w * w).backward()
        opt.step()
        if line == 4:
            return w.item()
        (w * w).backward()
        return w.grad.item()
    return compute


def _hint_sum(predicted, truth):
    if predicted == 3.0:
        return "The second backward does not replace the first one's gradient: it adds to it."
    return "Each backward computes d(3w)/dw -- and adds it into .grad."


def _hint_step(predicted, truth):
    if isinstance(predicted, float) and abs(predicted - 1.7) < 1e-6:
        return "step() uses the .grad it finds -- the accumulated one, not the last backward's."
    if isinstance(predicted, float) and abs(predicted - 2.6) < 1e-6:
        return "SGD moves *against* the gradient: w - lr * grad."
    return "SGD's step is w - lr * w.grad, with the .grad as it stands."


def _hint_none(predicted, truth):
    if predicted == 0.0 or (is_tensor(predicted)):
        return ("That was zero_grad() before PyTorch 2.0; now set_to_none=True is the default, so .grad "
                "becomes None.")
    return "zero_grad() resets every gradient the optimizer holds -- to what, by default?"


def _hint_after_none(predicted, truth):
    return ("After zero_grad() the next backward starts afresh: d(w*w)/dw at the current w, then one SGD "
            "step from there.")


def _hint_no_zero(predicted, truth):
    if isinstance(predicted, float) and abs(predicted - 2.24) < 1e-5:
        return "No zero_grad() since the last backward: the gradient of line (4) is still in .grad."
    return "The new gradient is 2w at the new w, and it is *added* to what .grad still holds."


def _floats(hint):
    """``hint``, unless the prediction is the right number written as an int."""
    def why(predicted, truth):
        if isinstance(predicted, int) and not isinstance(predicted, bool) and predicted == truth:
            return "The number is right; write it as a float (.item() of a float tensor is a Python float)."
        return hint(predicted, truth)
    return why


PREDICTION_QUESTIONS = [
    Question("(3 * w).backward() twice: w.grad.item()", _after(1), _floats(_hint_sum)),
    Question("then opt.step(): w.item()", _after(2), _floats(_hint_step)),
    Question("then opt.zero_grad(): w.grad", _after(3), _hint_none),
    Question("then (w * w).backward(); opt.step(): w.item()", _after(4), _floats(_hint_after_none)),
    Question("then (w * w).backward(): w.grad.item()", _after(5), _floats(_hint_no_zero)),
]


def check_gradient_predictions(answer):
    """Exercise 1: a tuple of 5 predictions (floats, or None)."""
    return check_predictions(answer, PREDICTION_QUESTIONS,
                             what="a tuple of 5 predictions: floats, or None",
                             note="backward adds into .grad until something resets it; step() reads "
                                  "whatever .grad holds.")


# -- exercise 2: SGD by hand --------------------------------------------------------------------------

def _sgd_setup(torch):
    """Two parameters with gradients: a weight (2, 3) and a bias (3,), as a model would hold them."""
    weight = torch.linspace(-1.0, 1.0, 6).reshape(2, 3).requires_grad_()
    bias = torch.tensor([0.5, -0.5, 0.25], requires_grad=True)
    x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
    ((x @ weight + bias) ** 2).mean().backward()
    return [weight, bias]


def _sgd_problem(answer, torch, lr=0.1):
    """None when ``answer`` does SGD's step + zero_grad on ``torch``; else (what is off, why)."""
    params = _sgd_setup(torch)
    before = [p.detach().clone() for p in params]
    grads = [p.grad.clone() for p in params]
    result, error = guard.run(on(torch, answer), list(params), lr)
    if error is not None:
        why = ""
        if "leaf Variable" in str(error):
            why = ("Changing a parameter in place is refused while autograd records: do the update inside "
                   "`with torch.no_grad():`.")
        elif "NoneType" in str(error):
            why = "Read p.grad before you set it to None."
        return raised(error, why)
    if result is Ellipsis:
        return "stub", ""
    names = ("weight", "bias")
    for name, p, old, g in zip(names, params, before, grads):
        if not (p.is_leaf and p.requires_grad):
            return (f"{name} is no longer a leaf that requires grad",
                    "Change the tensor's values in place under no_grad; do not replace or detach it.")
        expected = old - lr * g
        if not differences(p.detach(), expected, grads=False):
            continue
        if not differences(p.detach(), old, grads=False):
            return (f"{name} did not change",
                    "`p = p - lr * p.grad` makes a new tensor and only rebinds the loop variable: the model "
                    "still holds the old one. Change p itself, in place (an augmented assignment such as -=, "
                    "or a method whose name ends in _).")
        if not differences(p.detach(), old + lr * g, grads=False):
            return f"{name} moved the wrong way", "Go *down* the gradient: p - lr * grad, not p + lr * grad."
        if not differences(p.detach(), old - g, grads=False):
            return f"{name} moved by the whole gradient", "Scale the gradient by the learning rate `lr`."
        found = differences(p.detach(), expected, where=name, grads=False)
        return found[0], "Each parameter becomes p - lr * p.grad."
    for name, p in zip(names, params):
        if p.grad is not None and bool((p.grad != 0).any()):
            return (f"{name}.grad still holds the gradient",
                    "Reset the gradients after the update (p.grad = None), as zero_grad() does -- or the next "
                    "backward adds to them.")
    return None


@always_a_verdict
def check_sgd_step(sgd_step):
    """Exercise 2: ``sgd_step(params, lr)`` updates in place under no_grad, then resets the grads."""
    what = "a function body that updates each p in params in place and sets p.grad to None"
    if is_stub(sgd_step):
        return not_answered(what)
    if not callable(sgd_step):
        return wrong(f"`sgd_step` should be a function ({what}); it is {kind(sgd_step)}.")
    for index, (_, module) in enumerate(libraries()):
        problem = _sgd_problem(sgd_step, module)
        if problem is not None:
            found, why = problem
            if found == "stub":
                return not_answered(what)
            if index > 0:
                return works_only_on_tensorlab("`sgd_step`", module, found)
            return wrong(f"`sgd_step`: {found}.", why)
    return correct("That is SGD: `p.add_(grad, alpha=-lr)` in tensorlab/optim/sgd.py, then zero_grad().")


# -- exercise 3: a training step -----------------------------------------------------------------------

STEPS = 3


def _setup(torch, adam):
    model = torch.nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.5, -0.3]]))
        model.bias.fill_(0.2)
    x = torch.linspace(-1.0, 1.0, 10).reshape(5, 2)
    y = x @ torch.tensor([[2.0], [1.0]]) - 0.5
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05) if adam else \
        torch.optim.SGD(model.parameters(), lr=0.05)
    return model, optimizer, x, y


def _run(step, torch, adam):
    """Final parameters and the returned losses after STEPS calls of ``step``; or the error."""
    model, optimizer, x, y = _setup(torch, adam)
    losses = []
    for _ in range(STEPS):
        losses.append(step(model, optimizer, x, y))
    return [p.detach().clone() for p in model.parameters()], losses


def _variant(torch, zero=True, order="zbs", ascend=False):
    """A plausible wrong step, run the same way (for recognising what the learner did)."""
    def step(model, optimizer, x, y):
        loss = torch.nn.MSELoss()(model(x), y)
        for action in order:
            if action == "z" and zero:
                optimizer.zero_grad()
            elif action == "b":
                loss.backward()
            elif action == "s":
                optimizer.step()
        if ascend:
            with torch.no_grad():
                for p in model.parameters():
                    p += 0.1 * p.grad
        return loss.item()
    return step


_VARIANTS = [
    (dict(zero=False), "Gradients accumulate: call optimizer.zero_grad() before loss.backward()."),
    (dict(zero=False, ascend=True), "Two bugs left: no zero_grad(), and the extra `p += 0.1 * p.grad` climbs "
                                    "back up the gradient."),
    (dict(ascend=True), "The loop after optimizer.step() adds the gradient back: it walks uphill. Delete it; "
                        "step() already did the update."),
    (dict(order="bzs"), "zero_grad() between backward and step throws the gradient away before the step uses it."),
    (dict(order="zsb"), "step() before backward() uses the previous step's gradient (the first step none at all)."),
]


def _same_params(a, b):
    return all(not differences(p, q, grads=False) for p, q in zip(a, b))


def _step_problem(answer, torch, adam):
    function = on(torch, answer)
    expected_params, expected_losses = _run(on(torch, solution.train_step), torch, adam)
    ran, error = guard.run(_run, function, torch, adam)
    if error is not None:
        return raised(error)
    params, losses = ran
    if any(loss is None for loss in losses):
        return "it returned None", "Return the loss as a float: loss.item()."
    if any(is_tensor(loss) for loss in losses):
        return "it returned a tensor", "Return the loss as a Python float: loss.item()."
    if _same_params(params, expected_params):
        found = differences(list(losses), list(expected_losses), where="the returned losses")
        if found:
            return found[0], "Return the loss of the step, computed before the update: loss.item()."
        return None
    model = _setup(torch, adam)[0]
    if _same_params(params, [p.detach() for p in model.parameters()]):
        return ("the parameters did not change in 3 steps",
                "optimizer.step() moves the parameters along the gradients loss.backward() left in .grad: "
                "without step() nothing moves, and a zero_grad() between backward and step throws the "
                "gradient away before the step uses it.")
    for options, why in _VARIANTS:
        if _same_params(params, _run(_variant(torch, **options), torch, adam)[0]):
            return "the parameters after 3 steps are not those of a correct step", why
    if adam:
        return ("with Adam as the optimizer, the parameters are not what 3 Adam steps give",
                "Let the optimizer do the update (optimizer.step()); do not update the parameters by hand.")
    found = differences(params[0], expected_params[0], where="the weight after 3 steps", grads=False)
    return (found[0] if found else "the parameters after 3 steps are off"), \
        ("A step computes the loss, clears the old gradients, computes new ones and lets the optimizer "
         "use them: check that your lines do these, in that order.")


@always_a_verdict
def check_train_step(train_step):
    """Exercise 3: ``train_step(model, optimizer, x, y)`` does one correct step, returns the loss."""
    what = "a function body that does one training step and returns the loss as a float"
    if is_stub(train_step):
        return not_answered(what)
    if not callable(train_step):
        return wrong(f"`train_step` should be a function ({what}); it is {kind(train_step)}.")
    import tensorlab
    first, error = guard.run(on(tensorlab, train_step), *_setup(tensorlab, adam=False))
    if first is Ellipsis:
        return not_answered(what)
    if guard.failure(error) is not None:      # stopped, or sys.exit(): no need to try again
        return wrong(f"`train_step`: {guard.failure(error)[0]}.", guard.failure(error)[1])
    for index, (_, module) in enumerate(libraries()):
        for adam in (False, True):
            problem = _step_problem(train_step, module, adam)
            if problem is not None:
                found, why = problem
                where = "`train_step` with " + ("Adam" if adam else "SGD")
                if index > 0:
                    return works_only_on_tensorlab(where, module, found)
                return wrong(f"{where}: {found}.", why)
    return correct("Forward, loss, zero_grad, backward, step: the same five lines in every PyTorch program.")
