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
from .language import tr
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
        return tr("The second backward does not replace the first one's gradient: it adds to it.")
    return tr("Each backward computes d(3w)/dw -- and adds it into .grad.")


def _hint_step(predicted, truth):
    if isinstance(predicted, float) and abs(predicted - 1.7) < 1e-6:
        return tr("step() uses the .grad it finds -- the accumulated one, not the last backward's.")
    if isinstance(predicted, float) and abs(predicted - 2.6) < 1e-6:
        return tr("SGD moves *against* the gradient: w - lr * grad.")
    return tr("SGD's step is w - lr * w.grad, with the .grad as it stands.")


def _hint_none(predicted, truth):
    if predicted == 0.0 or (is_tensor(predicted)):
        return tr("That was zero_grad() before PyTorch 2.0; now set_to_none=True is the default, so .grad "
                  "becomes None.")
    return tr("zero_grad() resets every gradient the optimizer holds -- to what, by default?")


def _hint_after_none(predicted, truth):
    return tr("After zero_grad() the next backward starts afresh: d(w*w)/dw at the current w, then one SGD "
              "step from there.")


def _hint_no_zero(predicted, truth):
    if isinstance(predicted, float) and abs(predicted - 2.24) < 1e-5:
        return tr("No zero_grad() since the last backward: the gradient of line (4) is still in .grad.")
    return tr("The new gradient is 2w at the new w, and it is *added* to what .grad still holds.")


def _floats(hint):
    """``hint``, unless the prediction is the right number written as an int."""
    def why(predicted, truth):
        if isinstance(predicted, int) and not isinstance(predicted, bool) and predicted == truth:
            return tr("The number is right; write it as a float (.item() of a float tensor is a Python float).")
        return hint(predicted, truth)
    return why


PREDICTION_QUESTIONS = [
    Question(tr("(3 * w).backward() twice: w.grad.item()"), _after(1), _floats(_hint_sum)),
    Question(tr("then {code}", code="opt.step(): w.item()"), _after(2), _floats(_hint_step)),
    Question(tr("then {code}", code="opt.zero_grad(): w.grad"), _after(3), _hint_none),
    Question(tr("then {code}", code="(w * w).backward(); opt.step(): w.item()"), _after(4), _floats(_hint_after_none)),
    Question(tr("then {code}", code="(w * w).backward(): w.grad.item()"), _after(5), _floats(_hint_no_zero)),
]


def check_gradient_predictions(answer):
    """Exercise 1: a tuple of 5 predictions (floats, or None)."""
    return check_predictions(answer, PREDICTION_QUESTIONS,
                             what=tr("a tuple of 5 predictions: floats, or None"),
                             note=tr("backward adds into .grad until something resets it; step() reads "
                                     "whatever .grad holds."))


# -- exercise 2: one big batch, in small pieces ----------------------------------------------------------

ROWS = 12
PARTS = (3, 4, 1)


def _accumulation_setup(torch, adam):
    """A small model with fixed weights, stale gradients in its .grad, an optimizer, and a batch."""
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.8, 0.9 - 0.1 * i, p.numel()).reshape(p.shape))
    x = torch.linspace(-1.0, 1.0, 2 * ROWS).reshape(ROWS, 2)
    y = x @ torch.tensor([[1.5], [-0.5]]) + 0.25
    model(x).sum().backward()          # an earlier step's gradient, left in .grad
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05) if adam else \
        torch.optim.SGD(model.parameters(), lr=0.05)
    return model, optimizer, x, y


def _accumulation_variant(torch, parts, *, scale=True, zero="start", step="end", loss="mean"):
    """The correct accumulation step, or a plausible wrong one: the loss of each piece not divided by
    ``parts``, zero_grad never / in the loop, a step per piece, the loss of the last piece returned."""
    def step_function(model, optimizer, x, y):
        if zero == "start":
            optimizer.zero_grad()
        losses = []
        for part_x, part_y in zip(x.chunk(parts), y.chunk(parts)):
            if zero == "loop":
                optimizer.zero_grad()
            part_loss = torch.nn.MSELoss()(model(part_x), part_y)
            (part_loss / parts if scale else part_loss).backward()
            losses.append(part_loss.item())
            if step == "loop":
                optimizer.step()
        if step == "end":
            optimizer.step()
        return {"mean": sum(losses) / parts, "last": losses[-1], "sum": sum(losses)}[loss]
    return step_function


_ACCUMULATION_VARIANTS = [
    (dict(scale=False), tr("Each piece's MSELoss is a mean over its own rows; the full batch's loss is the mean "
                           "of the pieces' losses. Divide each piece's loss by `parts` before backward, or the "
                           "summed gradient is `parts` times too large.")),
    (dict(zero="loop"), tr("zero_grad() inside the loop throws away the gradients of the earlier pieces: only the "
                           "last piece's gradient reaches the step. Clear the gradients once, before the loop.")),
    (dict(zero="never"), tr("The parameters' .grad still held an earlier gradient when `accumulated_step` was "
                            "called, and backward adds to it: clear the gradients once, before the first piece.")),
    (dict(step="loop"), tr("One step per piece is `parts` small steps, not one big one: call optimizer.step() "
                           "once, after every piece has added its gradient.")),
    (dict(step="loop", scale=False), tr("A step per piece, each with a whole piece's gradient: accumulate the "
                                        "pieces' gradients (each loss divided by `parts`) and step once.")),
]


def _batch_sizes(model):
    """A list that fills with the batch size of every call of ``model``."""
    sizes = []
    model.register_forward_pre_hook(lambda module, args: sizes.append(len(args[0])))
    return sizes


def _accumulation_problem(answer, torch, adam, parts):
    """None when ``answer`` makes the full batch's step on ``torch``; else (what is off, why)."""
    model, optimizer, x, y = _accumulation_setup(torch, adam)
    reference = _accumulation_setup(torch, adam)
    expected_loss = on(torch, solution.accumulated_step)(*reference, 1)   # the whole batch at once
    expected = [p.detach().clone() for p in reference[0].parameters()]
    start = [p.detach().clone() for p in model.parameters()]
    before = (guard.snapshot(x), guard.snapshot(y))
    sizes = _batch_sizes(model)
    got, error = guard.run(on(torch, answer), model, optimizer, x, y, parts)
    if error is not None:
        return raised(error)
    if got is Ellipsis:
        return "stub", ""
    changed = guard.changes(before[0], x, "x") + guard.changes(before[1], y, "y")
    if changed:
        return (tr("it changed its input in place: {change}", change=changed[0]),
                tr("Leave x and y as they are: x.chunk(parts) gives views of the pieces to read."))
    if any(size > ROWS // parts for size in sizes):
        return (tr("it ran the model on {rows} rows at once; with parts={parts} a piece has {piece}",
                   rows=max(sizes), parts=parts, piece=ROWS // parts),
                tr("Run the model on one piece at a time (x.chunk(parts), y.chunk(parts)): that is what saves "
                   "the memory."))
    params = [p.detach() for p in model.parameters()]
    if not _same_params(params, expected):
        if _same_params(params, start):
            return (tr("the parameters did not change"),
                    tr("After every piece has added its gradient, let the optimizer use it: optimizer.step()."))
        for options, why in _ACCUMULATION_VARIANTS:
            variant = _accumulation_setup(torch, adam)
            _accumulation_variant(torch, parts, **options)(*variant)
            if _same_params(params, [p.detach() for p in variant[0].parameters()]):
                return (tr("the parameters after it are not those of one step on the whole batch"), why)
        found = differences(params[0], expected[0], where=tr("the first weight after the step"), grads=False)
        return (found[0] if found else tr("the parameters after it are not those of one step on the whole batch"),
                tr("Clear the gradients, add each piece's gradient (its loss divided by `parts`), step once."))
    if got is None:
        return tr("it returned None"), tr("Return the loss of the whole batch as a float.")
    if is_tensor(got):
        return tr("it returned a tensor"), tr("Return the loss as a Python float: .item().")
    if parts > 1:
        for options, why in ((dict(loss="last"), tr("That is the loss of the last piece only.")),
                             (dict(loss="sum"), tr("That is the sum of the pieces' losses, `parts` times the mean."))):
            variant = _accumulation_setup(torch, adam)
            wrong_loss = _accumulation_variant(torch, parts, **options)(*variant)
            if isinstance(got, float) and not differences(got, wrong_loss):
                return tr("it returned {got:.4g}, not the loss of the whole batch", got=got), \
                    tr("{why} The whole batch's MSELoss is the mean of the pieces' losses (equal pieces).", why=why)
    found = differences(got, expected_loss, where=tr("the returned loss"))
    if found:
        return found[0], tr("Return the loss of the whole batch: the mean of the pieces' losses.")
    return None


@always_a_verdict
def check_accumulated_step(accumulated_step):
    """Exercise 2: ``accumulated_step(model, optimizer, x, y, parts)`` makes the step of the whole
    batch from ``parts`` pieces (gradient accumulation) and returns the whole batch's loss."""
    what = tr("a function body that clears the gradients, adds those of each piece, steps once and returns "
              "the loss of the whole batch")
    if is_stub(accumulated_step):
        return not_answered(what)
    if not callable(accumulated_step):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="accumulated_step", what=what,
                        kind=kind(accumulated_step)))
    for index, (_, module) in enumerate(libraries()):
        for adam in (False, True):
            for parts in PARTS:
                problem = _accumulation_problem(accumulated_step, module, adam, parts)
                if problem is None:
                    continue
                found, why = problem
                if found == "stub":
                    return not_answered(what)
                where = tr("`accumulated_step` with {optimizer} and parts={parts}",
                           optimizer="Adam" if adam else "SGD", parts=parts)
                if index > 0:
                    return works_only_on_tensorlab(where, module, found)
                return wrong(tr("{where}: {found}.", where=where, found=found), why)
    return correct(tr("The gradient of a mean is the mean of the gradients: `parts` backwards of loss / parts "
                      "add up to the big batch's gradient, with a piece's memory."))


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
    (dict(zero=False), tr("Gradients accumulate: call optimizer.zero_grad() before loss.backward().")),
    (dict(zero=False, ascend=True), tr("Two bugs left: no zero_grad(), and the extra `p += 0.1 * p.grad` climbs "
                                       "back up the gradient.")),
    (dict(ascend=True), tr("The loop after optimizer.step() adds the gradient back: it walks uphill. Delete it; "
                           "step() already did the update.")),
    (dict(order="bzs"), tr("zero_grad() between backward and step throws the gradient away before the step uses "
                           "it.")),
    (dict(order="zsb"), tr("step() before backward() uses the previous step's gradient (the first step none at "
                           "all).")),
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
        return tr("it returned None"), tr("Return the loss as a float: loss.item().")
    if any(is_tensor(loss) for loss in losses):
        return tr("it returned a tensor"), tr("Return the loss as a Python float: loss.item().")
    if _same_params(params, expected_params):
        found = differences(list(losses), list(expected_losses), where=tr("the returned losses"))
        if found:
            return found[0], tr("Return the loss of the step, computed before the update: loss.item().")
        return None
    model = _setup(torch, adam)[0]
    if _same_params(params, [p.detach() for p in model.parameters()]):
        return (tr("the parameters did not change in 3 steps"),
                tr("optimizer.step() moves the parameters along the gradients loss.backward() left in .grad: "
                   "without step() nothing moves, and a zero_grad() between backward and step throws the "
                   "gradient away before the step uses it."))
    for options, why in _VARIANTS:
        if _same_params(params, _run(_variant(torch, **options), torch, adam)[0]):
            return tr("the parameters after 3 steps are not those of a correct step"), why
    if adam:
        return (tr("with Adam as the optimizer, the parameters are not what 3 Adam steps give"),
                tr("Let the optimizer do the update (optimizer.step()); do not update the parameters by hand."))
    found = differences(params[0], expected_params[0], where=tr("the weight after 3 steps"), grads=False)
    return (found[0] if found else tr("the parameters after 3 steps are off")), \
        tr("A step computes the loss, clears the old gradients, computes new ones and lets the optimizer "
           "use them: check that your lines do these, in that order.")


@always_a_verdict
def check_train_step(train_step):
    """Exercise 3: ``train_step(model, optimizer, x, y)`` does one correct step, returns the loss."""
    what = tr("a function body that does one training step and returns the loss as a float")
    if is_stub(train_step):
        return not_answered(what)
    if not callable(train_step):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="train_step", what=what,
                        kind=kind(train_step)))
    import tensorlab
    first, error = guard.run(on(tensorlab, train_step), *_setup(tensorlab, adam=False))
    if first is Ellipsis:
        return not_answered(what)
    if guard.failure(error) is not None:      # stopped, or sys.exit(): no need to try again
        return wrong(tr("{where}: {found}.", where="`train_step`", found=guard.failure(error)[0]),
                     guard.failure(error)[1])
    for index, (_, module) in enumerate(libraries()):
        for adam in (False, True):
            problem = _step_problem(train_step, module, adam)
            if problem is not None:
                found, why = problem
                where = tr("`train_step` with {optimizer}", optimizer="Adam" if adam else "SGD")
                if index > 0:
                    return works_only_on_tensorlab(where, module, found)
                return wrong(tr("{where}: {found}.", where=where, found=found), why)
    return correct(tr("Forward, loss, zero_grad, backward, step: the same five lines in every PyTorch program."))
