"""Lesson 20's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

from coursekit import lesson20 as check
from coursekit.solutions import lesson20 as solution
from coursekit.testing import assert_rejected
from tensorlab.utils.tensorboard import event_files, read_events

pytest.importorskip("tensorboardX")


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_smooth(solution.smooth)
    assert check.check_scalars(solution.scalars)
    assert capsys.readouterr().out.count("Correct!") == 2


def _smooth_with_a_count(values, weight):
    out, total, norm = [], 0.0, 0.0
    for value in values:
        total = weight * total + value
        norm = weight * norm + 1
        out.append(total / norm)
    return out


def _scalars_as_lists(log_dir, tag):
    return [[e.step, v.simple_value] for path in event_files(log_dir) for e in read_events(path)
            for v in e.summary.value if v.tag == tag]


def test_other_correct_answers_are_accepted(mode):
    assert check.check_smooth(_smooth_with_a_count)       # the same average, written as a weighted mean
    assert check.check_scalars(_scalars_as_lists)


def test_stubs_get_a_fixed_message(mode):
    def stub(*args):
        return ...

    for verdict in (check.check_smooth(...), check.check_smooth(stub), check.check_scalars(...),
                    check.check_scalars(stub)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


def _no_debias(values, weight):
    out, last = [], 0.0
    for value in values:
        last = weight * last + (1 - weight) * value
        out.append(last)
    return out


def _start_at_first(values, weight):
    out, last = [], values[0]
    for value in values:
        last = weight * last + (1 - weight) * value
        out.append(last)
    return out


def _swapped(values, weight):
    return solution.smooth(values, 1 - weight)


def _last_only(values, weight):
    return solution.smooth(values, weight)[-1]


def _zero_based(values, weight):
    out, last = [], 0.0
    for i, value in enumerate(values):
        last = weight * last + (1 - weight) * value
        out.append(last / (1 - weight ** i))
    return out


@pytest.mark.parametrize("answer, phrases", [
    (_no_debias, ["`smooth` on values [1, 2, 3, 4] with weight 0.6", "pulled towards 0", "1 - weight ** i"]),
    (_start_at_first, ["older way"]),
    (_swapped, ["how much of the *old* average is kept"]),
    (_last_only, ["Return a list"]),
    (_zero_based, ["raised ZeroDivisionError", "counting from 1"]),
])
def test_wrong_smoothing(mode, answer, phrases):
    verdict = check.check_smooth(answer)
    assert_rejected(verdict, phrases)


def _every_tag(log_dir, tag):
    return [(e.step, v.simple_value) for path in event_files(log_dir) for e in read_events(path)
            for v in e.summary.value]


def _value_first(log_dir, tag):
    return [(v.simple_value, e.step) for path in event_files(log_dir) for e in read_events(path)
            for v in e.summary.value if v.tag == tag]


def _first_event_only(log_dir, tag):
    events = list(read_events(event_files(log_dir)[0]))
    return [(events[1].step, v.simple_value) for v in events[1].summary.value if v.tag == tag]


def _summary_of_every_event(log_dir, tag):
    return [(e.step, e.summary.value[0].simple_value) for path in event_files(log_dir)
            for e in read_events(path)]


@pytest.mark.parametrize("answer, phrases", [
    (_every_tag, ["`scalars(log_dir, 'loss/train')` returned", "keep only the summary values"]),
    (_value_first, ["(step, value), in that order"]),
    (_first_event_only, ["Read every event"]),
    (_summary_of_every_event, ["raised IndexError", "event.summary.value"]),
    (lambda log_dir, tag: None, ["returned None"]),
])
def test_wrong_readers(mode, answer, phrases):
    verdict = check.check_scalars(answer)
    assert_rejected(verdict, phrases)


def _swapped_without_correction(values, weight):
    """Weights swapped and no bias correction: this answer once got only "result[0] is 0.6, expected 1.0"."""
    out, last = [], 0.0
    for value in values:
        last = (1 - weight) * last + weight * value
        out.append(last)
    return out


def _correction_fed_back(values, weight):
    out, last = [], 0.0
    for i, value in enumerate(values, 1):
        last = (weight * last + (1 - weight) * value) / (1 - weight ** i)
        out.append(last)
    return out


@pytest.mark.parametrize("answer, phrases", [
    (_swapped_without_correction, ["result[0] is 0.6, expected 1.0", "Two things: the weights are swapped",
                                   "the bias correction is missing", "`1 - weight ** i`"]),
    (_correction_fed_back, ["result[1] is 2.1875", "went back into the running average"]),
    (lambda values, weight: [v + 1 for v in solution.smooth(values, weight)],
     ["Your first smoothed value is 2.0", "Look at the first turn of your loop"]),
    (lambda values, weight: solution.smooth(values, weight)[:1] + [0.0] * (len(values) - 1),
     ["The first value is right, the later ones are not"]),
    (lambda values, weight: solution.smooth(values, weight)[:-1], ["one smoothed value per value"]),
])
def test_every_wrong_smoothing_gets_a_diagnosis(mode, answer, phrases):
    assert_rejected(check.check_smooth(answer), phrases)


def test_the_hostile_pass_answers_get_a_verdict(mode):
    """The answers that crashed the checks: sys.exit(), results whose ==/repr raise, and a smoothing
    that changes the caller's list."""
    import sys
    from coursekit.testing import Hostile
    assert_rejected(check.check_smooth(lambda values, weight: sys.exit()), ["it called sys.exit()"])
    assert_rejected(check.check_scalars(lambda log_dir, tag: sys.exit()),
                    ["`scalars(log_dir, 'loss/train')` called sys.exit()"])
    assert_rejected(check.check_scalars(lambda log_dir, tag: [Hostile()]), ["returned <a list whose repr raised ValueError>"])

    def sorts_the_input(values, weight):
        values.sort()
        return solution.smooth(values, weight)
    assert_rejected(check.check_smooth(sorts_the_input), ["`values[1]` is now 0.0 instead of 10.0",
                                                          "changed the list or dict it was given"])
