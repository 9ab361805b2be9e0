"""Lesson 04's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson04 as check
from coursekit.solutions import lesson04 as solution
from coursekit.testing import Hostile, assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_shapes(solution.shapes)
    assert check.check_normalize_rows(solution.normalize_rows)
    assert check.check_rowwise_dots(solution.rowwise_dots)
    assert check.check_running_mean(solution.running_mean)
    assert capsys.readouterr().out.count("Correct!") == 4


def test_other_correct_answers_are_accepted(mode):
    assert check.check_shapes([list(s) for s in solution.shapes])
    assert check.check_shapes(tuple(torch.Size(s) for s in solution.shapes))
    assert check.check_normalize_rows(lambda s: s / s.sum(1).unsqueeze(1))
    assert check.check_rowwise_dots(lambda a, b: (a * b).sum(dim=1))
    assert check.check_rowwise_dots(lambda a, b: torch.einsum("ij,ij->i", a, b))
    assert check.check_running_mean(lambda x: x.cumsum(0) / torch.arange(1., len(x) + 1))


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_shapes(...), check.check_normalize_rows(lambda s: ...),
                    check.check_rowwise_dots(lambda a, b: ...), check.check_running_mean(lambda x: ...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    (((2, 4), (2, 4), (3,), (2, 3, 4), (3, 4), (2, 3, 5), (2, 5), (2, 2, 3, 4)),
     ["2 of 8 predictions are off", "(2) x.sum(dim=1, keepdim=True): not (2, 4)", "keepdim=True keeps",
      "(8)", "stack is the one that adds a new dimension"]),
    (((2, 4), (2, 1, 4), (2, 3), (2, 4), (3, 4), (2, 3, 5), (2, 3, 4, 5), (2, 3, 8)),
     ["3 of 8", "(3) x.mean(dim=(0, 2)): not (2, 3)", "cumsum is a scan", "a letter missing there is summed over"]),
    (((2, 4), (2, 1, 4), (3,), (2, 3, 4), (2, 3, 4), (2, 3, 5), (2, 5), (2, 3, 8)),
     ["1 of 8 predictions is off", "(5) x.max(dim=0).indices: not (2, 3, 4)"]),
    ((2, 4), ["the answer should be a tuple of 8 shapes"]),
])
def test_wrong_shapes(mode, answer, phrases):
    verdict = check.check_shapes(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda s: s / s.sum(dim=1), ["scores of shape (3, 3)", "first at [0, 2]: 0.25 instead of 0.5",
                                  "column j by the sum of *row j*", "only runs because the matrix is square"]),
    (lambda s: s / s.sum(), ["the total of all entries"]),
    (lambda s: s / s.sum(dim=0, keepdim=True), ["Your columns sum to 1"]),
    (lambda s: s.softmax(dim=1), ["softmax exponentiates first"]),
    (lambda s: s / s.sum(dim=1).unsqueeze(0), ["column j by the sum of *row j*"]),
])
def test_wrong_row_normalisations(mode, answer, phrases):
    verdict = check.check_normalize_rows(answer)
    assert_rejected(verdict, phrases)


def test_non_square_input_catches_the_broadcast_error(mode):
    verdict = check.check_function(lambda s: s / s.sum(dim=1), solution.normalize_rows, check.ROW_CASES[1:],
                                   name="normalize_rows", what="...", diagnoses=[check._diagnose_rows])
    assert "raised RuntimeError: The size of tensor a (4) must match the size of tensor b (2)" in verdict.message
    assert "Keep the summed dim with keepdim=True" in verdict.message


@pytest.mark.parametrize("answer, phrases", [
    (lambda a, b: torch.einsum("nd,nd->", a, b), ["has shape (), expected (3,)", "a letter missing from the output"]),
    (lambda a, b: (a * b).sum(), ["has shape (), expected (3,)", "sums over n too"]),
    (lambda a, b: a @ b.T, ["has shape (3, 3), expected (3,)", "the diagonal"]),
    (lambda a, b: torch.einsum("nd,md->nm", a, b), ["the diagonal"]),
    (lambda a, b: torch.einsum("nd,nd->d", a, b), ["has shape (2,), expected (3,)", "kept d"]),
    (lambda a, b: torch.einsum("n,n->n", a, b), ["raised RuntimeError: einsum()", "one letter per dimension"]),
])
def test_wrong_rowwise_dots(mode, answer, phrases):
    verdict = check.check_rowwise_dots(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda x: x.cumsum(0) / torch.arange(len(x)), ["inf instead of 2.0", "divides by 0"]),
    (lambda x: x.cumsum(0) / len(x), ["0.5 instead of 2.0", "divided every prefix sum by n"]),
    (lambda x: x.cumsum(0) / torch.arange(1, len(x)), ["must match the size", "end must be n + 1"]),
    (lambda x: x.mean(), ["has shape (), expected (4,)", "one value per position"]),
])
def test_wrong_running_means(mode, answer, phrases):
    verdict = check.check_running_mean(answer)
    assert_rejected(verdict, phrases)


def _normalise_in_place(scores):
    scores /= scores.sum(dim=1, keepdim=True)
    return scores


def _divide_in_place(scores):
    return scores.div_(scores.sum(dim=1, keepdim=True))


@pytest.mark.parametrize("answer", [_normalise_in_place, _divide_in_place])
def test_normalising_the_input_in_place_is_refused(mode, answer):
    """The right values, returned -- but the learner's own tensor is gone (an answer that normalises in place)."""
    verdict = check.check_normalize_rows(answer)
    assert_rejected(verdict, ["it changed its input in place: `scores` has new values",
                              "version counter went from 0 to 1", "changed its input in place, so the caller"])


def test_an_in_place_write_that_keeps_the_values_is_seen_too(mode):
    verdict = check.check_normalize_rows(lambda s: s.add_(0) / s.sum(dim=1, keepdim=True))
    assert_rejected(verdict, ["was written in place (its values ended up the same, but its version counter"])


def test_sys_exit_and_broken_results_get_a_verdict(mode):
    import sys
    assert_rejected(check.check_normalize_rows(lambda s: sys.exit()), ["it called sys.exit()", "`return`"])
    assert_rejected(check.check_shapes(solution.shapes[:7] + (Hostile(),)),
                    ["1 of 8 predictions is off", "(8) torch.cat([x, x], dim=-1): not <a Hostile whose repr raised"])
    assert_rejected(check.check_rowwise_dots(lambda a, b: Hostile()), ["the result is a Hostile"])


def test_ctrl_c_stops_the_check(mode):
    def interrupted(scores):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        check.check_normalize_rows(interrupted)
