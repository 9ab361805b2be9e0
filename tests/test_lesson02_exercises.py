"""Lesson 02's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson02 as check
from coursekit.solutions import lesson02 as solution
from coursekit.testing import assert_rejected


def _neighbours_only(t):
    """The seed's rule alone: no last-stride check, no skipping of size-1 dims."""
    s, n = t.stride(), t.shape
    return all(s[i] == s[i + 1] * n[i + 1] for i in range(len(n) - 1))


def _no_size_one_skip(t):
    return t.stride()[-1] == 1 and _neighbours_only(t)


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_layouts(solution.layouts)
    assert check.check_position(solution.position)
    assert check.check_contiguity(solution.is_contiguous)
    assert capsys.readouterr().out.count("Correct!") == 3


def test_other_correct_answers_are_accepted(mode):
    assert check.check_layouts([[12, 4, 1], 4, [1, 12, 4], [4, 12, 1], [12, 1], [12, 4, 2], 20, [6, 3, 1]])
    assert check.check_position(lambda t, index: t[index].storage_offset())
    assert check.check_contiguity(lambda t: t.is_contiguous())


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_layouts(...), check.check_position(lambda t, index: ...),
                    check.check_contiguity(lambda t: ...), check.check_position(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # column-major thinking, and "permute moves the data"
    (((1, 2, 6), 4, (12, 4, 1), (4, 12, 1), (12, 1), (12, 4, 2), 20, (6, 3, 1)),
     ["2 of 8 predictions are off", "(1) t.stride(): not (1, 2, 6)", "column-major",
      "(3) t.permute(2, 0, 1).stride(): not (12, 4, 1)", "with its stride"]),
    # "every result is a fresh tensor of its own shape"
    (((12, 4, 1), 4, (1, 12, 4), (4, 12, 1), (4, 1), (12, 4, 1), 6, (1, 12, 4)),
     ["4 of 8 predictions are off", "(5) t[:, 1].stride(): not (4, 1)", "gap between its rows",
      "(6) t[..., ::2].stride(): not (12, 4, 1)", "multiplies that dim's stride", "(7)", "sum of index * stride",
      "(8)", "fresh row-major layout"]),
    (((12, 4, 1), 4), ["the answer should be a tuple of 8 answers", "yours is a tuple of 2 items"]),
])
def test_wrong_layout_predictions(mode, answer, phrases):
    verdict = check.check_layouts(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda t, index: sum(i * s for i, s in zip(index, t.stride())),
     ["[:, 1:, ::2], index (1, 0, 1): the result is 14, expected 18", "left out storage_offset()"]),
    (lambda t, index: t.storage_offset() + sum(i * s for i, s in zip(index, torch.empty(t.shape).stride())),
     ["t = torch.zeros(3, 4).t(), index (3, 1): the result is 10, expected 7", "take them from t.stride()"]),
    (lambda t, index: t[index], ["is a tensor (tensor(0.)), expected an int (23)", "a plain int"]),
    (lambda t, index: sum(index), ["the result is 6, expected 23"]),
])
def test_wrong_positions(mode, answer, phrases):
    verdict = check.check_position(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (_no_size_one_skip, ["torch.zeros(3, 1).t(): the result is False, expected True", "size-1 dims"]),
    (_neighbours_only, ["torch.zeros(6)[::2]: the result is True, expected False", "its stride must also be 1"]),
    (lambda t: t.stride()[-1] == 1, ["torch.zeros(2, 3, 4)[:, 1]: the result is True", "leave gaps between rows"]),
    (lambda t: torch.tensor(t.stride()) == torch.tensor(torch.empty(t.shape).stride()),
     ["is a tensor", "Return a Python bool"]),
])
def test_wrong_contiguity_rules(mode, answer, phrases):
    verdict = check.check_contiguity(answer)
    assert_rejected(verdict, phrases)


def test_the_hostile_pass_answers_get_a_verdict(mode):
    """The answers that crashed the checks: sys.exit(), and results/predictions whose ==/repr raise."""
    import sys
    from coursekit.testing import Hostile
    assert_rejected(check.check_position(lambda t, index: sys.exit(1)), ["it called sys.exit()"])
    assert_rejected(check.check_contiguity(lambda t: Hostile()), ["the result is <a Hostile whose repr raised"])
    assert_rejected(check.check_layouts(solution.layouts[:7] + (Hostile(),)),
                    ["1 of 8 predictions is off", "(8) t.permute(2, 0, 1).contiguous().stride(): not <a Hostile"])
