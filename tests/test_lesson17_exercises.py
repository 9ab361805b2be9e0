"""Lesson 17's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson17 as check
from coursekit.solutions import lesson17 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_state_predictions(solution.predictions)
    assert check.check_adam_first_step(solution.adam_first_step)
    assert capsys.readouterr().out.count("Correct!") == 2


def _adam_itself(p, grad, lr):
    p = p.clone().requires_grad_()
    optimizer = torch.optim.Adam([p], lr=lr)
    p.grad = grad.clone()
    optimizer.step()
    return p.detach()


def _adam_formula(p, grad, lr):
    m = 0.1 * grad / (1 - 0.9)
    v = 0.001 * grad * grad / (1 - 0.999)
    return p - lr * m / (v.sqrt() + 1e-8)


def test_other_correct_answers_are_accepted(mode):
    assert check.check_state_predictions([0, ("momentum_buffer",), ["exp_avg", "exp_avg_sq", "step"], 3.0,
                                          0.010000000000000002])
    assert check.check_adam_first_step(_adam_itself)
    assert check.check_adam_first_step(_adam_formula)


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_state_predictions(...), check.check_adam_first_step(lambda p, grad, lr: ...),
                    check.check_adam_first_step(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    ((1, "momentum_buffer", ["exp_avg", "exp_avg_sq", "step"], 3, 0.001),
     ["4 of 5", "nothing to remember", "sorted list of strings", "float32 tensor", "how many such boundaries do 4 steps pass?"]),
    ((0, ["momentum_buffer"], ["exp_avg", "step"], 3.0, 0.1), ["2 of 5", "two running averages",
                                                               "the lr has changed"]),
    ((0, ["momentum_buffer"]), ["the answer should be a tuple of 5 predictions"]),
])
def test_wrong_state_predictions(mode, answer, phrases):
    verdict = check.check_state_predictions(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda p, g, lr: p - lr * g, ["differs", "That is SGD's step"]),
    (lambda p, g, lr: p - lr * torch.sign(g), ["1e-08", "eps=1e-8 is added"]),
    (lambda p, g, lr: p - lr * (0.1 * g) / ((0.001 * g * g).sqrt() + 1e-8), ["Without the bias corrections"]),
    (lambda p, g, lr: p + lr * g / (g.abs() + 1e-8), ["*against* the gradient"]),
    (lambda p, g, lr: p - lr * g / (g * g + 1e-8), ["*root* of v_hat"]),
    (lambda p, g, lr: None, ["returned None"]),
])
def test_wrong_adam_first_steps(mode, answer, phrases):
    verdict = check.check_adam_first_step(answer)
    assert_rejected(verdict, phrases)
