"""The tensor puzzles (coursekit/build/puzzles.py, course/build/puzzles.ipynb): every reference answer
passes, the notebook's stub is "not answered yet", a classic wrong answer to each puzzle is caught with
its hint, answers that break the rules are refused with the rule they break, and hostile answers get
a verdict -- with PyTorch installed and hidden alike."""
import sys
import time

import pytest

import tensorlab as torch
from coursekit import guard
from coursekit.build import puzzles
from coursekit.build.puzzles import PUZZLES, check_all, check_puzzle, rule_violations
from coursekit.solutions import puzzles as solution
from coursekit.testing import assert_rejected


def verdict(name, fn, **kwargs):
    return check_puzzle(name, fn, quiet=True, **kwargs)


# -- the reference answers and the stub ----------------------------------------------------------------

@pytest.mark.parametrize("name", list(PUZZLES))
def test_every_reference_answer_keeps_the_rules_and_passes(name, mode):
    assert rule_violations(getattr(solution, name)) == []
    puzzles.inputs(name)                     # drawn once per session (the first draw imports Hypothesis)
    start = time.perf_counter()
    result = verdict(name, getattr(solution, name))
    assert result, result.message
    assert result.message.startswith("Correct!")
    assert time.perf_counter() - start < 2.0


def test_without_pytorch_the_verdict_says_what_it_compared_with():
    from coursekit.testing import torch_hidden
    with torch_hidden():
        assert "tensorlab's own `torch.outer` -- PyTorch is not installed" in verdict("outer", solution.outer).message
        assert "(which has no `torch.trace`)" in verdict("trace", solution.trace).message


def test_at_least_fifteen_puzzles_each_with_a_hint():
    assert len(PUZZLES) >= 15
    assert all(spec.hints for spec in PUZZLES.values())


def stub(a, b):
    ...


def raising_stub(a):
    raise NotImplementedError


@pytest.mark.parametrize("answer", [stub, raising_stub, ...])
def test_the_stub_is_not_answered_yet(answer):
    result = verdict("outer", answer)
    assert not result and result.message.startswith("Not answered yet")


def test_check_all_counts_the_solved_puzzles(capsys):
    result = check_all({"outer": solution.outer, "eye": solution.eye, "flip": stub, "roll": WRONG["roll"][0]})
    assert not result
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"2/{len(PUZZLES)} puzzles solved"
    assert out[0].split() == ["outer", "solved"] and out[6].split()[:4] == ["flip", "not", "answered", "yet"]
    assert out[7].startswith("roll") and "not yet: its check cell says what is off" in out[7]
    assert check_all(vars(solution))


def test_the_inputs_are_drawn_the_same_every_time():
    puzzles.inputs.cache_clear()
    first = [repr(a) for a in puzzles.inputs("triu")]
    puzzles.inputs.cache_clear()
    assert [repr(a) for a in puzzles.inputs("triu")] == first
    assert len(first) == puzzles.EXAMPLES + 1


# -- a classic wrong answer to each puzzle, caught with its hint -------------------------------------

def outer(a, b):
    return a[None, :] * b[:, None]


def eye(n):
    return (torch.arange(n)[:, None] == torch.arange(n)) * 1


def diag(a):
    return a * eye(a.shape[0])


def trace(a):
    return a.sum()


def triu(a, k):
    return torch.where(torch.arange(a.shape[1])[None, :] - torch.arange(a.shape[0])[:, None] > k, a, 0)


def cumsum(a):
    n = a.shape[0]
    return torch.where(torch.arange(n)[None, :] < torch.arange(n)[:, None], a[None, :], 0).sum(1)


def flip(a):
    return a[a.shape[0] - torch.arange(a.shape[0])]


def roll(a, s):
    return a[(torch.arange(a.shape[0]) + s) % a.shape[0]]


def one_hot(a, n):
    return (a[:, None] == torch.arange(n)) * 1.0


def bincount(a, n):
    return (a[:, None] == torch.arange(n)).sum(1)


def sequence_mask(values, lengths):
    return torch.where(torch.arange(values.shape[1])[None, :] <= lengths[:, None], values, 0)


def pad_to(a, j):
    return a[torch.arange(j) % a.shape[0]]


def repeat_interleave(a, r):
    return a[torch.arange(a.shape[0] * r) % a.shape[0]]


def linspace(start, stop, n):
    return start + (stop - start) * torch.arange(n) / n


def vstack(a, b):
    return torch.where(torch.arange(2)[None, :] == 0, a[:, None], b[:, None])


def heaviside(a, b):
    return torch.where(a > 0, 1.0, 0.0)


def compress(g, v, i):
    return (torch.where(g, v, 0)[:, None] * (torch.arange(v.shape[0])[:, None] == torch.arange(i))).sum(0)


def scatter_add(values, index, n):
    return torch.where(index[:, None] == torch.arange(n), values[:, None], 0).sum(1)


WRONG = {
    "outer": (outer, ["result[i, j] is a[i] * b[j]"]),
    "eye": (eye, ["dtype", "torch.eye gives float32"]),
    "diag": (diag, ["returns a vector of length n"]),
    "trace": (trace, ["sum of every element"]),
    "triu": (triu, ["Off by one diagonal: you dropped diagonal k itself"]),
    "cumsum": (cumsum, ["must include a[i] itself"]),
    "flip": (flip, ["IndexError", "the mirror of position i is not n - i"]),
    "roll": (roll, ["Rolled the wrong way"]),
    "one_hot": (one_hot, ["dtype", "one_hot gives int64"]),
    "bincount": (bincount, ["summed over the wrong axis"]),
    "sequence_mask": (sequence_mask, ["Off by one: a row of length L"]),
    "pad_to": (pad_to, ["must hold 0"]),
    "repeat_interleave": (repeat_interleave, ["repeats the whole vector"]),
    "linspace": (linspace, ["n points make n - 1 gaps"]),
    "vstack": (vstack, ["ended up as columns"]),
    "heaviside": (heaviside, ["At exactly a == 0"]),
    "compress": (compress, ["must move to the front"]),
    "scatter_add": (scatter_add, ["summed over the wrong axis"]),
}


def test_every_puzzle_has_a_classic_wrong_answer_here():
    assert set(WRONG) == set(PUZZLES)


@pytest.mark.parametrize("name", list(WRONG))
def test_a_classic_wrong_answer_is_caught_with_its_hint(name, mode):
    answer, phrases = WRONG[name]
    assert rule_violations(answer) == []
    result = verdict(name, answer)
    assert_rejected(result, ["Not yet: `" + name + "("] + phrases)


def one_hot_bool(a, n):
    return a[:, None] == torch.arange(n)


def bincount_float(a, n):
    return torch.where(a[:, None] == torch.arange(n), 1.0, 0.0).sum(0)


def triu_lower(a, k):
    return torch.where(torch.arange(a.shape[1])[None, :] - torch.arange(a.shape[0])[:, None] <= k, a, 0)


def outer_flat(a, b):
    return a * b


@pytest.mark.parametrize("name, answer, phrases", [
    ("one_hot", one_hot_bool, ["dtype", "turns bool into int64"]),
    ("bincount", bincount_float, ["dtype", "counts in int64"]),
    ("triu", triu_lower, ["lower triangle"]),
    ("outer", outer_flat, ["a length-1 axis with `None`"]),
])
def test_more_classic_mistakes(name, answer, phrases):
    assert_rejected(verdict(name, answer), phrases)


# -- the rules -------------------------------------------------------------------------------------

def cumsum_loop(a):
    total = a * 0
    for i in torch.arange(a.shape[0]):
        total = total + a
    return total


def cumsum_comprehension(a):
    return [a[:i].sum() for i in torch.arange(a.shape[0])]


def cumsum_torch(a):
    return torch.cumsum(a, 0)


def cumsum_method(a):
    return a.cumsum(0)


def trace_item(a):
    return diag(a).sum().item()


def flip_import(a):
    import numpy
    return numpy.flip(a)


def eye_while(n):
    while True:
        n = n + 1
    return n


def eye_numpy(n):
    return np.eye(n)  # noqa: F821 - the name is what the rules refuse


def cumsum_inplace(a):
    a += 1
    return a


def cumsum_itself(a):
    return cumsum_itself(a)


@pytest.mark.parametrize("name, answer, phrases", [
    ("cumsum", cumsum_loop, ["line 3: a `for` loop is not allowed"]),
    ("cumsum", cumsum_comprehension, ["line 2: a list comprehension is not allowed"]),
    ("cumsum", cumsum_torch, ["line 2: `torch.cumsum` is not on the allowed list"]),
    ("cumsum", cumsum_method, ["line 2: `a.cumsum` is not on the allowed list"]),
    ("trace", trace_item, ["line 2: `.item` is not on the allowed list"]),
    ("flip", flip_import, ["line 2: `import` is not allowed"]),
    ("eye", eye_while, ["line 2: a `while` loop is not allowed"]),
    ("eye", eye_numpy, ["line 2: `np.eye` is not on the allowed list"]),
    ("cumsum", cumsum_inplace, ["line 2: an in-place update"]),
    ("cumsum", cumsum_itself, ["calls itself"]),
])
def test_answers_that_break_the_rules_are_refused_naming_the_rule(name, answer, phrases):
    result = verdict(name, answer)
    assert_rejected(result, ["breaks the puzzle rules", "Only these are allowed"] + phrases)


def test_the_rules_accept_earlier_puzzles_and_allowed_calls():
    assert rule_violations(solution.compress) == []        # calls cumsum
    assert rule_violations(solution.trace) == []           # calls diag, then .sum()
    assert rule_violations(outer_flat) == []


def test_calling_an_earlier_puzzle_that_is_not_answered_yet_is_named():
    # solution.trace calls diag; here its namespace holds the notebook's untouched stub instead
    trace = type(solution.trace)(solution.trace.__code__, {**vars(solution), "diag": stub})
    assert_rejected(verdict("trace", trace), ["calls `diag`, which is not answered yet", "Solve `diag` first"])


def test_an_unknown_puzzle_name_gets_a_verdict():
    assert_rejected(verdict("cumprod", solution.cumsum), ["no puzzle named `cumprod`", "cumsum"])


def test_an_answer_without_readable_source_is_refused():
    made = {}
    exec("def outer(a, b):\n    return a * b\n", made)  # noqa: S102 - no source file behind it
    assert_rejected(verdict("outer", made["outer"]), ["source could not be read"])
    assert_rejected(verdict("outer", len), ["should be a function"])


# -- hostile answers: always a verdict -------------------------------------------------------------

def raises(a):
    return a[100]


def exits(a):
    sys.exit(3)


def forever(a):
    while True:
        pass


def test_an_answer_that_raises_gets_a_verdict():
    assert_rejected(verdict("flip", raises), ["raised IndexError"])


def test_exiting_and_looping_answers_are_refused_by_the_rules():
    assert_rejected(verdict("flip", exits), ["`sys.exit` is not on the allowed list"])
    assert_rejected(verdict("flip", forever), ["a `while` loop is not allowed"])


def test_exiting_and_looping_answers_get_a_verdict_at_run_time(monkeypatch):
    monkeypatch.setattr(guard, "TIME_LIMIT", 0.2)
    assert_rejected(verdict("flip", exits, rules=False), ["called sys.exit()"])
    assert_rejected(verdict("flip", forever, rules=False), ["did not finish within"])


def returns_a_list(a):
    return [1, 2]


def returns_none(a):
    a


def test_odd_results_get_a_verdict():
    assert not verdict("flip", returns_a_list, rules=False)
    assert_rejected(verdict("flip", returns_none), ["returned None", "forget `return`"])
