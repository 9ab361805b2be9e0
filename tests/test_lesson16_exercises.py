"""Lesson 16's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson16 as check
from coursekit.solutions import lesson16 as solution
from coursekit.testing import assert_rejected
from tensorlab import nn


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_gradient_predictions(solution.predictions)
    assert check.check_accumulated_step(solution.accumulated_step)
    assert check.check_train_step(solution.train_step)
    assert capsys.readouterr().out.count("Correct!") == 3


def _weighted_by_rows(model, optimizer, x, y, parts):
    model.zero_grad()
    total = 0.0
    for part_x, part_y in zip(torch.chunk(x, parts), torch.chunk(y, parts)):
        loss = nn.functional.mse_loss(model(part_x), part_y) * (len(part_x) / len(x))
        loss.backward()
        total += loss.item()
    optimizer.step()
    return total


def _one_backward_of_the_summed_pieces(model, optimizer, x, y, parts):
    optimizer.zero_grad(set_to_none=False)
    loss = sum(nn.MSELoss()(model(a), b) for a, b in zip(x.chunk(parts), y.chunk(parts))) / parts
    loss.backward()
    optimizer.step()
    return loss.item()


def _step_with_model_zero_grad(model, optimizer, x, y):
    model.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def test_other_correct_answers_are_accepted(mode):
    assert check.check_gradient_predictions([6.0, 1.4, None, 1.12, 5.04])
    assert check.check_accumulated_step(_weighted_by_rows)
    assert check.check_accumulated_step(_one_backward_of_the_summed_pieces)
    assert check.check_train_step(_step_with_model_zero_grad)


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_gradient_predictions(...), check.check_accumulated_step(lambda model, optimizer, x, y, parts: ...),
                    check.check_train_step(lambda model, optimizer, x, y: ...), check.check_accumulated_step(...),
                    check.check_train_step(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    ((3.0, 1.7, 0.0, 1.12, 2.24), ["4 of 5", "adds to it", "the accumulated one", "before PyTorch 2.0",
                                   "still in .grad"]),
    ((6.0, 2.6, None, 1.12, 5.04), ["1 of 5", "*against* the gradient"]),
    ((6.0, 1.4, None), ["the answer should be a tuple of 5 predictions"]),
    ((6, 1.4, None, 1.12, 5.04), ["1 of 5", "The number is right; write it as a float"]),
])
def test_wrong_gradient_predictions(mode, answer, phrases):
    verdict = check.check_gradient_predictions(answer)
    assert_rejected(verdict, phrases)


def _accumulate(scale=True, zero="start", step="end", returns="mean", whole=False):
    """An accumulation step with one of the usual mistakes."""
    def answer(model, optimizer, x, y, parts):
        if zero == "start":
            optimizer.zero_grad()
        losses = []
        for part_x, part_y in zip(x.chunk(parts), y.chunk(parts)):
            if zero == "loop":
                optimizer.zero_grad()
            loss = nn.MSELoss()(model(part_x), part_y)
            (loss / parts if scale else loss).backward()
            losses.append(loss.item())
            if step == "loop":
                optimizer.step()
        if step == "end":
            optimizer.step()
        if whole:
            with torch.no_grad():
                return nn.MSELoss()(model(x), y).item()
        if returns == "tensor":
            return torch.tensor(sum(losses) / parts)
        return {"mean": sum(losses) / parts, "last": losses[-1], "sum": sum(losses), "none": None}[returns]
    return answer


def _halves_in_place(model, optimizer, x, y, parts):
    x /= 1                                          # noqa: the bug under test: writes into the input
    return solution.accumulated_step(model, optimizer, x, y, parts)


@pytest.mark.parametrize("answer, phrases", [
    (_accumulate(scale=False), ["with SGD and parts=3", "Divide each piece's loss by `parts`"]),
    (_accumulate(zero="loop"), ["throws away the gradients of the earlier pieces"]),
    (_accumulate(zero="never"), ["still held an earlier gradient"]),
    (_accumulate(step="loop"), ["call optimizer.step() once"]),
    (_accumulate(step="never"), ["the parameters did not change", "optimizer.step()"]),
    (_accumulate(returns="last"), ["not the loss of the whole batch", "the last piece only"]),
    (_accumulate(returns="sum"), ["`parts` times the mean"]),
    (_accumulate(returns="tensor"), ["returned a tensor", ".item()"]),
    (_accumulate(returns="none"), ["returned None"]),
    (_accumulate(whole=True), ["ran the model on 12 rows at once", "one piece at a time"]),
    (_halves_in_place, ["changed its input in place", "`x`"]),
    (solution.train_step, ["raised TypeError"]),
])
def test_wrong_accumulation_steps(mode, answer, phrases):
    verdict = check.check_accumulated_step(answer)
    assert_rejected(verdict, phrases)


def _the_buggy_step(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for p in model.parameters():
            p += 0.1 * p.grad
    return loss.item()


def _no_zero_grad(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def _uphill_step(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for p in model.parameters():
            p += 0.1 * p.grad
    return loss.item()


def _zero_after_backward(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
    return loss.item()


def _hand_update(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.05 * p.grad
    return loss.item()


def _returns_tensor(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


def _no_return(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


@pytest.mark.parametrize("answer, phrases", [
    (_the_buggy_step, ["with SGD", "Two bugs left"]),
    (_no_zero_grad, ["with SGD", "Gradients accumulate"]),
    (_uphill_step, ["with SGD", "walks uphill"]),
    (_zero_after_backward, ["throws the gradient away"]),
    (_hand_update, ["with Adam", "Let the optimizer do the update"]),
    (_returns_tensor, ["returned a tensor", "loss.item()"]),
    (_no_return, ["returned None", "loss.item()"]),
])
def test_wrong_train_steps(mode, answer, phrases):
    verdict = check.check_train_step(answer)
    assert_rejected(verdict, phrases)


def test_the_hostile_pass_answers_get_a_verdict(mode, monkeypatch):
    """The answers that crashed or hung the checks: sys.exit(), a loop that never ends, a loss whose
    repr raises."""
    import sys
    from coursekit import guard
    from coursekit.testing import Hostile
    monkeypatch.setattr(guard, "TIME_LIMIT", 0.2)

    def endless(model, optimizer, x, y):
        while True:
            pass
    assert_rejected(check.check_train_step(lambda model, optimizer, x, y: sys.exit(2)),
                    ["`train_step`: it called sys.exit()"])
    assert_rejected(check.check_train_step(endless), ["`train_step`: it did not finish within 0.2 seconds",
                                                      "a loop that never ends"])
    assert_rejected(check.check_accumulated_step(lambda model, optimizer, x, y, parts: sys.exit(2)),
                    ["it called sys.exit()"])

    def step_with_odd_loss(model, optimizer, x, y):
        solution.train_step(model, optimizer, x, y)
        return Hostile()
    assert_rejected(check.check_train_step(step_with_odd_loss), ["`train_step` with SGD"])
