"""Lesson 05's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson05 as check
from coursekit.solutions import lesson05 as solution
from coursekit.testing import assert_rejected


def _added_once(values, labels, num_classes):
    sums = torch.zeros(num_classes)
    sums[labels] += values
    return sums


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_views(solution.views)
    assert check.check_pick(solution.pick)
    assert check.check_sum_by_class(solution.sum_by_class)
    assert check.check_unsort(solution.unsort)
    assert capsys.readouterr().out.count("Correct!") == 4


def test_other_correct_answers_are_accepted(mode):
    assert check.check_pick(lambda logits, labels: logits[torch.arange(len(labels)), labels])
    assert check.check_sum_by_class(lambda v, labels, n: torch.bincount(labels, weights=v, minlength=n))
    assert check.check_sum_by_class(lambda v, labels, n: torch.zeros(n).scatter_add_(0, labels, v))
    assert check.check_unsort(lambda values, indices: values[indices.argsort()])


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_views(...), check.check_pick(lambda logits, labels: ...),
                    check.check_sum_by_class(lambda v, labels, n: ...), check.check_unsort(lambda v, i: ...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    ((True, True, True, True, False, True, True, True),
     ["2 of 8 predictions are off", "(4) x[[0, 2]]: not True", "*advanced* indexing",
      "(6) x.flip(0): not True", "negative stride"]),
    ((True, False, True, False, False, False, False, True),
     ["(2) x[:, 1]: not False", "every 4th element", "(7) x[1, 2]: not False", ".item() is what copies"]),
    ((True, True, True, False, True, False, True, True), ["1 of 8 predictions is off", "A mask picks"]),
    ((True,) * 3, ["the answer should be a tuple of 8 booleans"]),
])
def test_wrong_view_predictions(mode, answer, phrases):
    verdict = check.check_views(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda logits, labels: logits.gather(1, labels),
     ["raised RuntimeError: Index tensor must have the same number of dimensions", "labels.unsqueeze(1)"]),
    (lambda logits, labels: logits[:, labels], ["has shape (3, 3), expected (3,)", "*every* label's column"]),
    (lambda logits, labels: logits.gather(1, labels.unsqueeze(1)), ["has shape (3, 1)", "squeeze(1)"]),
    (lambda logits, labels: logits.gather(0, labels.unsqueeze(0)), ["out of bounds", "gather along dim 1"]),
    (lambda logits, labels: logits.max(dim=1).values, ["differs at", "logits of shape"]),
])
def test_wrong_picks(mode, answer, phrases):
    verdict = check.check_pick(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (_added_once, ["first at [3]: 4.0 instead of 9.0", "occur more than once", "accumulate every occurrence"]),
    (lambda v, labels, n: torch.zeros(n).scatter_(0, labels, v), ["occur more than once", "*write* once"]),
    (lambda v, labels, n: torch.bincount(labels, minlength=n), ["dtype torch.int64", "Those are counts"]),
    (lambda v, labels, n: torch.bincount(labels, weights=v), ["has shape (4,), expected (5,)", "minlength="]),
    (lambda v, labels, n: torch.zeros(n, dtype=torch.float64).index_add_(0, labels, v.double()),
     ["dtype torch.float64", "keep the values' dtype"]),
])
def test_wrong_sums(mode, answer, phrases):
    verdict = check.check_sum_by_class(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda values, indices: values[indices], ["2.0 instead of 3.0", "applies the permutation a second time"]),
    (lambda values, indices: values.gather(0, indices), ["applies the permutation a second time"]),
    (lambda values, indices: values, ["still the sorted order"]),
    (lambda values, indices: torch.zeros_like(values).scatter_(0, indices.flip(0), values), ["differs at"]),
])
def test_wrong_unsorts(mode, answer, phrases):
    verdict = check.check_unsort(answer)
    assert_rejected(verdict, phrases)
