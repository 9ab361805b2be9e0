"""Lesson 18's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson18 as check
from coursekit.solutions import lesson18 as solution
from coursekit.testing import assert_rejected
from tensorlab.utils.data import Dataset


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_batch_predictions(solution.predictions)
    assert check.check_windows(solution.Windows)
    assert check.check_split_indices(solution.split_indices)
    assert capsys.readouterr().out.count("Correct!") == 3


class ListWindows(Dataset):
    def __init__(self, series, k):
        super().__init__()
        self.series, self.k = series, k

    def __len__(self):
        return self.series.shape[0] - self.k

    def __getitem__(self, i):
        return [self.series[i:i + self.k], self.series[i + self.k]]


def test_other_correct_answers_are_accepted(mode):
    assert check.check_batch_predictions([3, 2, [2, 3], 23, 22, torch.Size([64, 1, 8, 8]), "int64"])
    assert check.check_windows(ListWindows)


def _windows(length, item):
    class Windows(Dataset):
        def __init__(self, series, k):
            self.series, self.k = series, k
        __len__ = length
        __getitem__ = item
    return Windows


def _right_item(self, i):
    return self.series[i:i + self.k], self.series[i + self.k]


def _right_len(self):
    return len(self.series) - self.k


def test_stubs_get_a_fixed_message(mode):
    stub = _windows(lambda self: ..., lambda self, i: ...)
    half = _windows(_right_len, lambda self, i: ...)
    for verdict in (check.check_batch_predictions(...), check.check_windows(stub), check.check_windows(half),
                    check.check_windows(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    ((2, 3, (4, 3), 22, 23, (64, 8, 8), torch.int32),
     ["7 of 7", "ceil, not floor", "floor, not ceil", "it is short", "channel dimension", "the dtype torch.tensor gives Python ints"]),
    ((3, 2, (2, 3), 23, 22, (64, 1, 8, 8)), ["the answer should be a tuple of 7 predictions"]),
])
def test_wrong_batch_predictions(mode, answer, phrases):
    verdict = check.check_batch_predictions(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (_windows(lambda self: len(self.series), _right_item), ["len() is 10, expected 7", "count the start positions"]),
    (_windows(lambda self: len(self.series) - self.k + 1, _right_item), ["len() is 8, expected 7", "One too many"]),
    (_windows(lambda self: len(self.series) - self.k - 1, _right_item), ["len() is 6, expected 7", "One too few"]),
    (_windows(_right_len, lambda self, i: (self.series[i:i + self.k], self.series[i + self.k - 1])),
     ["(the target)", "the window's own last value"]),
    (_windows(_right_len, lambda self, i: (self.series[i:i + self.k + 1], self.series[i + self.k])),
     ["(the window)", "has shape (4,)", "the k values starting at position i"]),
    (_windows(_right_len, lambda self, i: self.series[i:i + self.k]), ["not a pair", "(window, target)"]),
])
def test_wrong_windows(mode, answer, phrases):
    verdict = check.check_windows(answer)
    assert_rejected(verdict, phrases)


# -- exercise 3: random_split by hand ---------------------------------------------------------------------

def test_the_split_solution_is_what_random_split_does(mode):
    from coursekit.libs import libraries, on
    for _, library in libraries():
        for n, lengths in check.SPLIT_CASES:
            mine = on(library, solution.split_indices)(n, lengths, library.Generator().manual_seed(check.SEED))
            assert mine == check._truth(library, n, lengths)


def _split(sizes="pytorch", generator=True, sort=False, tensors=False, flat=False):
    """split_indices with one of the usual mistakes."""
    def answer(n, lengths, g):
        if all(isinstance(x, float) for x in lengths):
            counts = [int(n * x) for x in lengths]
            if sizes == "pytorch":
                for i in range(n - sum(counts)):
                    counts[i % len(counts)] += 1
            elif sizes == "last":
                counts[-1] += n - sum(counts)
            lengths = counts
        order = torch.randperm(n, generator=g) if generator else torch.randperm(n)
        parts, start = [], 0
        for length in lengths:
            part = order[start:start + length]
            part = sorted(part.tolist()) if sort else part if tensors else part.tolist()
            parts.append(part)
            start += length
        return order.tolist() if flat else parts
    return answer


def test_other_correct_splits_are_accepted(mode):
    assert check.check_split_indices(_split(tensors=True))


@pytest.mark.parametrize("answer, phrases", [
    (_split(sizes="floor"), ["split_indices(11, [0.5, 0.25, 0.25], generator)", "add up to 9, not 11",
                             "one each to the first"]),
    (_split(sizes="last"), ["split_indices(11, [0.5, 0.25, 0.25], generator) gives splits of sizes [5, 2, 4]",
                            "one each to the first splits"]),
    (_split(generator=False), ["not the split random_split makes", "randperm(n, generator=generator)"]),
    (_split(sort=True), ["sorted", "do not sort"]),
    (_split(flat=True), ["returned", "one list of ints per split"]),
    (lambda n, lengths, g: None, ["returned None"]),
])
def test_wrong_splits(mode, answer, phrases):
    assert_rejected(check.check_split_indices(answer), phrases)
