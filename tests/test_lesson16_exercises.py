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
    assert check.check_sgd_step(solution.sgd_step)
    assert check.check_train_step(solution.train_step)
    assert capsys.readouterr().out.count("Correct!") == 3


def _sgd_with_zero(params, lr):
    with torch.no_grad():
        for p in params:
            p.sub_(lr * p.grad)
            p.grad.zero_()


def _step_with_model_zero_grad(model, optimizer, x, y):
    model.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def test_other_correct_answers_are_accepted(mode):
    assert check.check_gradient_predictions([6.0, 1.4, None, 1.12, 5.04])
    assert check.check_sgd_step(_sgd_with_zero)
    assert check.check_train_step(_step_with_model_zero_grad)


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_gradient_predictions(...), check.check_sgd_step(lambda params, lr: ...),
                    check.check_train_step(lambda model, optimizer, x, y: ...), check.check_sgd_step(...),
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


def _no_no_grad(params, lr):
    for p in params:
        p -= lr * p.grad
        p.grad = None


def _rebinds(params, lr):
    with torch.no_grad():
        for p in params:
            p = p - lr * p.grad  # noqa: PLW2901 - the bug under test


def _uphill(params, lr):
    with torch.no_grad():
        for p in params:
            p += lr * p.grad
            p.grad = None


def _keeps_grads(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad


def _no_lr(params, lr):
    with torch.no_grad():
        for p in params:
            p -= p.grad
            p.grad = None


def _grad_first(params, lr):
    with torch.no_grad():
        for p in params:
            p.grad = None
            p -= lr * p.grad


@pytest.mark.parametrize("answer, phrases", [
    (_no_no_grad, ["raised RuntimeError: a leaf Variable", "torch.no_grad()"]),
    (_rebinds, ["weight did not change", "only rebinds the loop variable"]),
    (_uphill, ["weight moved the wrong way", "*down* the gradient"]),
    (_keeps_grads, ["weight.grad still holds the gradient", "p.grad = None"]),
    (_no_lr, ["moved by the whole gradient", "learning rate"]),
    (_grad_first, ["raised TypeError", "before you set it to None"]),
])
def test_wrong_sgd_steps(mode, answer, phrases):
    verdict = check.check_sgd_step(answer)
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
    assert_rejected(check.check_sgd_step(lambda params, lr: sys.exit(2)), ["it called sys.exit()"])

    def step_with_odd_loss(model, optimizer, x, y):
        solution.train_step(model, optimizer, x, y)
        return Hostile()
    assert_rejected(check.check_train_step(step_with_odd_loss), ["`train_step` with SGD"])
