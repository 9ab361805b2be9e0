"""Exercise checks of course/20_watching_training.ipynb (reference solutions:
coursekit/solutions/lesson20.py).

    >>> _ = check_smooth(solution.smooth)
    Correct! TensorBoard's slider: a running average that forgets old values at the rate
             `weight`, debiased so the curve starts where the data do.
    >>> _ = check_scalars(solution.scalars)
    Correct! An event file is a list of Events; each carries a step, a wall time and a
             summary whose values are tagged.

Exercise 1 is plain Python (``check_function`` runs it on both libraries; it uses neither).
Exercise 2 reads event files written by ``tensorlab.utils.tensorboard.SummaryWriter`` (tensorboardX
installed), so it runs on tensorlab only.
"""
import math
import tempfile

from . import guard
from .check import Case, always_a_verdict, check_function, correct, is_stub, not_answered, raised, wrong
from .compare import describe, differences, kind
from .language import tr
from .solutions import lesson20 as solution

# -- exercise 1: the smoothing slider ------------------------------------------------------------------

SMOOTH_CASES = [
    Case(tr("values {values} with weight {weight}", values="[1, 2, 3, 4]", weight="0.6"),
         lambda torch: ([1.0, 2.0, 3.0, 4.0], 0.6)),
    Case(tr("a constant curve {values} with weight {weight}", values="[5, 5, 5, 5]", weight="0.9"),
         lambda torch: ([5.0, 5.0, 5.0, 5.0], 0.9)),
    Case(tr("values {values} with weight {weight} (no smoothing)", values="[0, 10, 0, 10]", weight="0"),
         lambda torch: ([0.0, 10.0, 0.0, 10.0], 0.0)),
]


def _ema(values, weight, start=0.0, debias=False, feedback=False, first_i=1):
    """A running average as a learner may write it: started at ``start``, divided (``debias``) by
    1 - weight ** i with i counting from ``first_i``, the divided value kept as the average
    (``feedback``) or not."""
    out, last = [], start
    for i, value in enumerate(values, first_i):
        last = weight * last + (1 - weight) * value
        shown = last / (1 - weight ** i) if debias else last
        if feedback:
            last = shown
        out.append(shown)
    return out


_KEPT = ("`weight` is how much of the *old* average is kept at each step (weight 0: no smoothing at all), "
         "so the previous average is multiplied by `weight` and the new value by `1 - weight`.")
_CORRECTION = ("An average started at 0 is pulled towards 0 at first (a constant curve of 5s would start at "
               "0.5); the bias correction repairs that: divide each step's average by the total weight its "
               "terms have so far, `1 - weight ** i`, with i the number of values seen.")


def _smoothing_mistakes(values, weight):
    """(what a plausible wrong answer returns, what its author probably did)."""
    swapped = 1 - weight
    kept, correction = tr(_KEPT), tr(_CORRECTION)
    return [
        (lambda: _ema(values, weight), tr("The bias correction is missing. {correction}", correction=correction)),
        (lambda: _ema(values, swapped), tr("Two things: the weights are swapped -- {kept} -- and the bias "
                                           "correction is missing. {correction}", kept=kept, correction=correction)),
        (lambda: _ema(values, swapped, debias=True), tr("The weights are swapped: {kept}", kept=kept)),
        (lambda: _ema(values, weight, start=values[0]),
         tr("Starting the average at the first value is an older way (TensorBoard before 2019); the slider "
            "today starts at 0 and applies the bias correction. {correction}", correction=correction)),
        (lambda: _ema(values, swapped, start=values[0]),
         tr("The weights are swapped: {kept} (And the slider starts the average at 0, with the bias "
            "correction, not at the first value.)", kept=kept)),
        (lambda: _ema(values, weight, debias=True, feedback=True),
         tr("The corrected value went back into the running average, so the next step corrects it again. "
            "The correction is only for what you put in the list; the average itself stays uncorrected.")),
        (lambda: _ema(values, weight, debias=True, first_i=2),
         tr("The bias correction is one step off: after the first value its terms have total weight "
            "`1 - weight ** 1`, so i counts from 1.")),
    ]


def _close(got, expected):
    try:
        return len(got) == len(expected) and all(math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)
                                                  for a, b in zip(got, expected))
    except TypeError:
        return False


def _diagnose_smooth(got, expected, args, torch):
    values, weight = args
    if isinstance(got, Exception):
        if isinstance(got, ZeroDivisionError):
            return tr("Divide by 1 - weight ** i, with i counting from 1 (the first value), never from 0.")
        return tr("Return a list with one smoothed number per value.")
    if not isinstance(got, (list, tuple)):
        return tr("Return a list: one smoothed value per step, as TensorBoard draws a whole curve.")
    if len(got) != len(values):
        return tr("Return one smoothed value per value: the list is as long as `values`.")
    for mistake, why in _smoothing_mistakes(values, weight):
        try:
            if _close(got, mistake()):
                return why
        except ZeroDivisionError:      # a variant that divides by 1 - 1 ** i (weight 0, swapped)
            continue
    if not _close(got[:1], expected[:1]):
        return tr("Your first smoothed value is {value}, but after one step the corrected average has "
                  "seen only the first value, so it must equal it. Look at the first turn of your loop: where "
                  "the average starts (0), how much of the new value it takes (`1 - weight`) and what it is "
                  "divided by (`1 - weight ** 1`).", value=describe(got[0]))
    return tr("The first value is right, the later ones are not: look at how the running average is updated "
              "(the old average times `weight`, plus the new value times `1 - weight`) and at what each step "
              "is divided by (`1 - weight ** i`, with i the number of values seen).")


def check_smooth(smooth):
    """Exercise 1: ``smooth(values, weight)`` -- TensorBoard's debiased exponential moving average."""
    return check_function(smooth, solution.smooth, SMOOTH_CASES, name="smooth",
                          what=tr("a function body that returns the list of smoothed values"),
                          diagnoses=[_diagnose_smooth],
                          note=tr("TensorBoard's slider: a running average that forgets old values at the rate "
                                  "`weight`, debiased so the curve starts where the data do."))


# -- exercise 2: read a curve back from the event files ----------------------------------------------


def _write_logs(log_dir):
    from tensorlab.utils.tensorboard import SummaryWriter
    with SummaryWriter(log_dir) as writer:
        for step in range(0, 50, 10):
            writer.add_scalar("loss/train", 1.0 / (step + 1), global_step=step)
            writer.add_scalar("accuracy/test", step / 50, global_step=step)


def _scalars_hint(got, expected):
    if not isinstance(got, (list, tuple)):
        return tr("Return a list of (step, value) pairs.")
    pairs = [p for p in got if isinstance(p, (list, tuple)) and len(p) == 2]
    if len(pairs) != len(got):
        return tr("Each item should be a pair: (event.step, value.simple_value).")
    if len(got) > len(expected):
        return tr("Every event of the file is there, whatever its tag: keep only the summary values whose "
                  "`value.tag` is the tag asked for.")
    if got and all(step == 0 for step, _ in pairs) and len(got) == len(expected):
        return tr("The step is a field of the Event (event.step), not of the summary value.")
    if [v for _, v in pairs] == [s for s, _ in expected] or [s for s, _ in pairs] == [v for _, v in expected]:
        return tr("The pair is (step, value), in that order.")
    if len(got) < len(expected):
        return tr("Read every event of every file that event_files(log_dir) lists.")
    return ""


@always_a_verdict
def check_scalars(scalars):
    """Exercise 2: ``scalars(log_dir, tag)`` -> the [(step, value), ...] of one tag, from the event files."""
    what = tr("a function body that returns a list of (step, value) pairs")
    if is_stub(scalars):
        return not_answered(what)
    if not callable(scalars):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="scalars", what=what,
                        kind=kind(scalars)))
    with tempfile.TemporaryDirectory() as log_dir:
        _write_logs(log_dir)
        for tag in ("loss/train", "accuracy/test", "no/such/tag"):
            expected = solution.scalars(log_dir, tag)
            got, error = guard.run(scalars, log_dir, tag)
            if error is not None:
                found, why = raised(error, tr("Loop over event_files(log_dir), then read_events(path), then "
                                              "event.summary.value."), f"`scalars(log_dir, {tag!r})`")
                return wrong(tr("{found}.", found=found), why)
            if got is Ellipsis:
                return not_answered(what)
            got_list = [tuple(p) if isinstance(p, (list, tuple)) else p for p in got] \
                if isinstance(got, (list, tuple)) else got
            if differences(got_list, expected, where=tr("the result")):
                return wrong(tr("{call} returned {got}, expected {expected}.", call=f"`scalars(log_dir, {tag!r})`",
                                got=describe(got), expected=describe(expected)),
                             _scalars_hint(got_list, expected))
    return correct(tr("An event file is a list of Events; each carries a step, a wall time and a summary whose "
                      "values are tagged."))
