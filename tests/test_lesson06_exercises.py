"""Lesson 06's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson06 as check
from coursekit.solutions import lesson06 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_tracking(solution.predictions)
    assert check.check_batch_gradients(solution.batch_gradients)
    assert check.check_weighted_gradient(solution.weighted_gradient)
    assert capsys.readouterr().out.count("Correct!") == 3


def _zero_then_clone(w, batches):
    grads = []
    for x in batches:
        if w.grad is not None:
            w.grad.zero_()
        loss = ((w * x).sum() - 1) ** 2
        loss.backward()
        grads.append(w.grad.clone())
    return grads


def _backward_with_v(x, v):
    y = x.exp() * x
    y.backward(v)
    grad = x.grad
    x.grad = None          # puts .grad back as it was: allowed
    return grad


def test_other_correct_answers_are_accepted(mode):
    assert check.check_tracking([False, True, False, False, True, True, False, True])
    assert check.check_batch_gradients(_zero_then_clone)
    assert check.check_weighted_gradient(
        lambda x, v: torch.autograd.grad((x.exp() * x * v).sum(), x)[0])
    assert check.check_weighted_gradient(_backward_with_v)


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_tracking(...), check.check_tracking((False, ...)),
                    check.check_batch_gradients(lambda w, batches: ...),
                    check.check_weighted_gradient(lambda x, v: ...), check.check_weighted_gradient(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # "views and ops of a leaf are leaves", "only requires_grad tensors are leaves"
    ((False, True, True, True, True, False, False, True),
     ["3 of 8 predictions are off", "(3) (torch.ones(2) + w).is_leaf: not True",
      "(4) w.view(2, 1).is_leaf", "ViewBackward0", "(6) torch.ones(2).is_leaf: not False", "By convention"]),
    # "no_grad only affects .grad", "every tensor keeps its gradient"
    ((False, True, False, False, True, True, True, False),
     ["2 of 8 predictions are off", "no_grad switches recording off", "Only leaves keep their gradient",
      "retain_grad()"]),
    ((False,) * 7, ["the answer should be a tuple of 8 True/False values", "yours is a tuple of 7 items"]),
    ((0, 1, 0, 0, 1, 1, 0, 1), ["8 of 8 predictions are off"]),   # ints are not bools
])
def test_wrong_tracking_predictions(mode, answer, phrases):
    verdict = check.check_tracking(answer)
    assert_rejected(verdict, phrases)


def _forgot_to_zero(w, batches):
    grads = []
    for x in batches:
        loss = ((w * x).sum() - 1) ** 2
        loss.backward()
        grads.append(w.grad.clone())
    return grads


def _kept_the_same_tensor(w, batches):
    grads = []
    for x in batches:
        loss = ((w * x).sum() - 1) ** 2
        loss.backward()
        grads.append(w.grad)
    return grads


def _zeroed_what_it_kept(w, batches):
    grads = []
    for x in batches:
        loss = ((w * x).sum() - 1) ** 2
        loss.backward()
        grads.append(w.grad)
        w.grad.zero_()
    return grads


def _zero_after_only(w, batches):
    grads = []
    for x in batches:
        loss = ((w * x).sum() - 1) ** 2
        loss.backward()
        grads.append(w.grad.clone())
        w.grad.zero_()
    return grads


def _zero_none(w, batches):
    grads = []
    for x in batches:
        w.grad.zero_()
        loss = ((w * x).sum() - 1) ** 2
        loss.backward()
        grads.append(w.grad.clone())
    return grads


@pytest.mark.parametrize("answer, phrases", [
    (_forgot_to_zero, ["result[1] differs", "gradients accumulate in .grad", "optimizer.zero_grad()"]),
    (_kept_the_same_tensor, ["result[0] differs", "the very same tensor, w.grad", "w.grad.clone()"]),
    (_zeroed_what_it_kept, ["0.0 instead of -4.0", "stored w.grad itself and then zeroed it"]),
    (_zero_after_only, ["from an earlier step", "before the first backward too"]),
    (_zero_none, ["raised AttributeError", "w.grad is None until the first backward"]),
    (lambda w, batches: _forgot_to_zero(w, batches)[-1], ["Return a list with one gradient tensor per batch"]),
])
def test_wrong_batch_gradients(mode, answer, phrases):
    verdict = check.check_batch_gradients(answer)
    assert_rejected(verdict, phrases)


def _implicit(x, v):
    y = x.exp() * x
    y.backward()
    return x.grad


def _ignores_v(x, v):
    y = x.exp() * x
    return torch.autograd.grad(y.sum(), x)[0]


def _the_tuple(x, v):
    y = x.exp() * x
    return torch.autograd.grad(y, x, grad_outputs=v)


def _touches_grad(x, v):
    y = x.exp() * x
    y.backward(v)
    return x.grad


@pytest.mark.parametrize("answer, phrases", [
    (_implicit, ["grad can be implicitly created only for scalar outputs", "pass v as grad_outputs="]),
    (_ignores_v, ["10.873128", "the gradient of y.sum()"]),
    (_the_tuple, ["is a tuple of 1 items", "take its [0]"]),
    (_touches_grad, ["x.grad was changed", "leaves .grad alone"]),
])
def test_wrong_weighted_gradients(mode, answer, phrases):
    verdict = check.check_weighted_gradient(answer)
    assert_rejected(verdict, phrases)
