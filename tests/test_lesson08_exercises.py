"""Lesson 08's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson08 as check
from coursekit.solutions import lesson08 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_versions(solution.versions)
    assert check.check_raises(solution.raises)
    assert check.check_sgd_step(solution.sgd_step)
    assert check.check_softplus_sum(solution.softplus_sum)
    assert capsys.readouterr().out.count("Correct!") == 4


def _sgd_data(params, lr):
    for p in params:
        p.data -= lr * p.grad
        p.grad.zero_()


def _sgd_sub(params, lr):
    with torch.no_grad():
        for p in params:
            p.sub_(lr * p.grad)
            p.grad.zero_()


def test_other_correct_answers_are_accepted(mode):
    assert check.check_versions([2, 0, 2, 1, 1, 0])
    assert check.check_sgd_step(_sgd_data)
    assert check.check_sgd_step(_sgd_sub)
    assert check.check_softplus_sum(lambda x: (2 * torch.log(1 + torch.exp(x))).sum())   # nothing in place
    assert check.check_softplus_sum(lambda x: x.exp().add(1).log().mul(2).sum())


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_versions(...), check.check_raises(...), check.check_sgd_step(...),
                    check.check_sgd_step(lambda params, lr: ...), check.check_versions((2, ..., 0, 0, 0, 0)),
                    check.check_softplus_sum(...), check.check_softplus_sum(lambda x: ...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # "only the tensor written to counts", ".data is the same as detach"
    ((2, 0, 2, 0, 1, 1), ["2 of 6 predictions are off", "(4) a = torch.zeros(3); v = a[1:]",
                          "shares its base's storage *and* its version counter", "(6)", "*fresh* version counter"]),
    # "a new tensor starts at the version of what it came from", "indexing writes are not in-place ops"
    ((2, 1, 0, 1, 1, 0), ["(2) a = torch.zeros(3); b = a + 1 -> b._version: not 1", "out of place",
                          "(3)", "an in-place write"]),
    # "detach makes an independent tensor"
    ((2, 0, 2, 1, 0, 0), ["1 of 6 predictions is off", "with which version counter?"]),
    ((2, 0, 2), ["the answer should be a tuple of 6 ints", "yours is a tuple of 3 items"]),
])
def test_wrong_version_predictions(mode, answer, phrases):
    verdict = check.check_versions(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    # "any in-place op on something in the graph raises"
    ((True, True, True, True, True, True), ["3 of 6 predictions are off", "(2) y = x * x; y.add_(1): not True",
                                            "saves its *inputs*", "(4)", "AddBackward0 saves nothing",
                                            "(6)", "silently *wrong* gradient"]),
    # "only changing the output raises"
    ((True, True, False, True, True, True), ["(3) h = x * 2; y = h * h; h.add_(1): not False",
                                             "saved h", "add_ changed h after that"]),
    # "detach is a safe copy"
    ((True, False, True, False, False, False), ["1 of 6 predictions is off", "detach() shares y's storage"]),
    ((True, False), ["a tuple of 6 bools"]),
    ((1, 0, 1, 0, 1, 0), ["6 of 6 predictions are off"]),  # ints are not bools
])
def test_wrong_raise_predictions(mode, answer, phrases):
    verdict = check.check_raises(answer)
    assert_rejected(verdict, phrases)


def _no_grad_missing(params, lr):
    for p in params:
        p -= lr * p.grad
        p.grad = None


def _rebinds(params, lr):
    with torch.no_grad():
        for p in params:
            p = p - lr * p.grad
    for p in params:
        p.grad = None


def _uphill(params, lr):
    with torch.no_grad():
        for p in params:
            p += lr * p.grad
            p.grad = None


def _keeps_grad(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad


def _resets_first(params, lr):
    for p in params:
        p.grad = None
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad


def _wrong_step(params, lr):
    with torch.no_grad():
        for p in params:
            p -= p.grad
            p.grad = None


@pytest.mark.parametrize("answer, phrases", [
    (_no_grad_missing, ["raised RuntimeError: a leaf Variable that requires grad",
                        "inside `with torch.no_grad():`"]),
    (_rebinds, ["w did not change", "only rebinds the local name p"]),
    (_uphill, ["w moved to", "a step uphill"]),
    (_keeps_grad, ["w.grad still holds the old gradient", "Gradients accumulate"]),
    (_resets_first, ["raised TypeError", "Update first, then reset"]),
    (_wrong_step, ["w differs at", "p - lr * p.grad"]),
    (42, ["`sgd_step` should be a function"]),
])
def test_wrong_sgd_steps(mode, answer, phrases):
    verdict = check.check_sgd_step(answer)
    assert_rejected(verdict, phrases)


def test_the_hostile_pass_answers_get_a_verdict(mode):
    """The answers that crashed the checks: sys.exit(), and predictions whose ==/repr raise."""
    import sys
    from coursekit.testing import Hostile
    assert_rejected(check.check_sgd_step(lambda params, lr: sys.exit(0)),
                    ["`sgd_step` on w (2, 2) and b (2,): sgd_step(params, lr) called sys.exit()", "`return`"])
    assert_rejected(check.check_versions((Hostile(),) * 6), ["6 of 6 predictions are off", "repr raised"])
    assert_rejected(check.check_raises(Hostile()), ["the answer should be a tuple of 6 bools", "a Hostile"])


def _softplus(change_e, double=lambda y: y.mul_(2)):
    """buggy_softplus_sum with its first in-place op replaced by ``change_e(e)`` (returning e)."""
    def softplus_sum(x):
        e = change_e(x.exp())
        y = e.log()
        y = double(y)
        return y.sum()
    return softplus_sum


def _under_no_grad(e):
    with torch.no_grad():
        e.add_(1)
    return e


def _through_data(e):
    e.data.add_(1)
    return e


def _changes_the_leaf(x):
    x.add_(1)
    return x.sum()


@pytest.mark.parametrize("answer, phrases", [
    (_softplus(lambda e: e.add_(1)), ["backward still raises RuntimeError", "'output 0 of Exp' is the tensor"]),
    (_softplus(lambda e: e.add_(1), double=lambda y: y * 2),     # the wrong one of the two made out of place
     ["backward still raises RuntimeError", "Which in-place op changes it"]),
    (_softplus(_under_no_grad), ["backward still raises", "torch.no_grad() does not help"]),
    (_softplus(_through_data), ["x.grad differs", "although backward ran", "through .data"]),
    (_softplus(lambda e: e.detach().add(1)), ["the result does not require grad", "cut the graph"]),
    (_softplus(lambda e: e + 1, double=lambda y: y), ["the value differs", "That is half the value"]),
    (_softplus(lambda e: e), ["the value differs", "2 * log(1 + exp(x))"]),
    (_changes_the_leaf, ["a leaf Variable that requires grad is being used in an in-place operation.",
                         "cannot be changed in place"]),
    (lambda x: float((2 * (x.exp() + 1).log()).sum()), ["it returned a float", "Return y.sum()"]),
    ("softplus", ["should be a function", "it is a str"]),
])
def test_wrong_softplus_repairs(mode, answer, phrases):
    verdict = check.check_softplus_sum(answer)
    assert_rejected(verdict, phrases)
