"""Lesson 01's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import numpy as np
import pytest

import tensorlab as torch
from coursekit import lesson01 as check
from coursekit.solutions import lesson01 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_dtypes(solution.dtypes)
    assert check.check_mean(solution.mean_of)
    assert check.check_two_tensors(solution.two_tensors)
    assert capsys.readouterr().out.count("Correct!") == 3


def test_other_correct_answers_are_accepted(mode):
    assert check.check_dtypes(("int64", "float32", "float32", torch.float, torch.int32, torch.long,
                               torch.float32, torch.int64))
    assert check.check_mean(lambda counts: counts.sum() / len(counts))
    assert check.check_mean(lambda counts: counts.mean(dtype=torch.float32))
    assert check.check_two_tensors(lambda a: (torch.as_tensor(a), torch.from_numpy(a).clone()))


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_dtypes(...), check.check_mean(lambda counts: ...),
                    check.check_two_tensors(lambda a: ...), check.check_mean(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # everything "int64 unless there is a float", Python-float-is-64-bit thinking
    ((torch.int64, torch.float32, torch.int64, torch.float64, torch.int32, torch.int64, torch.float32,
      torch.int64), ["2 of 8 predictions are off", "(3) torch.arange(0, 1, 0.25): not torch.int64",
                     "(4) torch.zeros(3, dtype=torch.int32) + 1.5: not torch.float64",
                     "to the *default* float dtype"]),
    # "the wider int always wins", "bools sum to a bool"
    ((torch.int64, torch.float32, torch.float32, torch.float32, torch.int64, torch.int64, torch.float32,
      torch.bool), ["(5) torch.zeros(3, dtype=torch.int32) + torch.tensor(7): not torch.int64",
                    "0-d tensor counts like a Python number", "(8)", "counts the Trues"]),
    # integer division thinking
    ((torch.int64, torch.float32, torch.float32, torch.float32, torch.int32, torch.int64, torch.int64,
      torch.int64), ["1 of 8 predictions is off", "True division `/` always gives floating point"]),
    ((torch.int64,) * 7, ["the answer should be a tuple of 8 dtypes", "yours is a tuple of 7 items"]),
])
def test_wrong_dtype_predictions(mode, answer, phrases):
    verdict = check.check_dtypes(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda counts: counts.sum() // len(counts), ["dtype torch.int64, expected torch.float32", "`//`"]),
    (lambda counts: counts.double().mean(), ["dtype torch.float64", ".double() gives 64-bit floats"]),
    (lambda counts: counts.mean(), ["raised RuntimeError: mean(): could not infer output dtype",
                                    "mean() refuses integer tensors"]),
    (lambda counts: counts.float().mean().item(), ["is a float (2.0), expected a tensor", "Keep the answer a tensor"]),
    (lambda counts: counts.float().mean(0, keepdim=True), ["has shape (1,), expected ()"]),
    (lambda counts: counts.float().sum() / 4, ["counts = torch.tensor([1, 2])", "1 of 1 positions"]),
    (lambda counts: counts.float().mean(),
     None),  # sanity: the reference itself (keeps the table honest)
])
def test_wrong_means(mode, answer, phrases):
    verdict = check.check_mean(answer)
    if phrases is None:
        assert verdict
        return
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda a: (torch.tensor(a), torch.tensor(a)), ["the first tensor did not change", "always copies"]),
    (lambda a: (torch.from_numpy(a), torch.from_numpy(a)), ["the second tensor changed too",
                                                            "torch.tensor(a), or .clone()"]),
    (lambda a: (torch.from_numpy(a), torch.Tensor(a)), ["result[1] has dtype torch.float32, expected torch.int32",
                                                        "legacy constructor"]),
    (lambda a: torch.from_numpy(a), ["Return two tensors"]),
    (lambda a: (torch.from_numpy(a.astype(np.int64)), torch.tensor(a)), ["dtype torch.int64"]),
])
def test_wrong_pairs(mode, answer, phrases):
    verdict = check.check_two_tensors(answer)
    assert_rejected(verdict, phrases)
