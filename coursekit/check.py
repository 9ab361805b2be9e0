"""Exercise checks: run a learner's answer, say "Correct!" or exactly what is off and why.

Every lesson's ``coursekit/lessonNN.py`` builds its ``check_xxx(answer)`` functions from two
generic checks, so each exercise is a few lines of data plus the hints that make it teach:

- :func:`check_predictions` -- the answer is a tuple of predictions (dtypes, shapes, strides,
  True/False ...), one per line of a table the lesson shows; each is compared with the truth
  computed by running that line, and a wrong one gets its own hint (which does not give the answer
  away: the learner can still run the line).
- :func:`check_function` -- the answer is a function; it runs on a few inputs on tensorlab and, when
  installed, on PyTorch (:func:`coursekit.libs.on` makes ``torch`` inside it mean PyTorch),
  and each result is compared with the reference solution's. *Diagnoses* recognise plausible wrong
  answers (divided by the total instead of the row sums ...) and explain them.

A check prints its message and returns a :class:`Verdict` (``bool(verdict)`` is ``ok``), which a
notebook does not display again. A stub answer (``...``) gets a fixed "not answered yet" message,
so a lesson's stored output is deterministic. When the answer is right, the message is the same
with or without PyTorch; only a disagreement between the two libraries adds text.

    >>> import tensorlab as torch
    >>> questions = [Question("torch.tensor([1, 2]).dtype", lambda torch: torch.tensor([1, 2]).dtype,
    ...                       "Python ints become int64.")]
    >>> _ = check_predictions((torch.int64,), questions)
    Correct!
    >>> _ = check_predictions((torch.int32,), questions)
    Not yet: 1 of 1 predictions is off.
      (1) torch.tensor([1, 2]).dtype: not torch.int32. Python ints become int64.
    >>> _ = check_predictions(..., questions)
    Not answered yet: replace the ... with a tuple of 1 predictions, one per line of the table.
"""
from __future__ import annotations

import sys

from .compare import describe, differences, kind, plain
from .crosscheck import error_line
from .libs import TENSORLAB, libraries, library_name, on


class Verdict:
    """The outcome of a check: ``ok`` and the message that was printed."""

    def __init__(self, ok, message):
        self.ok, self.message = bool(ok), message

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return f"Verdict(ok={self.ok}, message={self.message!r})"

    def _ipython_display_(self):
        """Already printed by the check: a notebook shows nothing more."""


def report(ok, message):
    """Print ``message`` and return the :class:`Verdict`."""
    sys.stdout.write(message + "\n")  # one write: a kernel never splits it into two outputs
    return Verdict(ok, message)


def correct(note=""):
    return report(True, "Correct!" + (f" {note}" if note else ""))


def wrong(what, why=""):
    """'Not yet: <what is off>', then, indented, why it might be."""
    return report(False, f"Not yet: {what}" + (f"\n  Hint: {why}" if why else ""))


def ramp(torch, *shape, start=-1.0, stop=1.0):
    """Evenly spaced numbers in ``shape``: inputs that are the same on both libraries (their random
    generators differ) and different in every element (so a swapped index shows)."""
    n = 1
    for size in shape:
        n *= size
    return torch.linspace(start, stop, n).reshape(*shape)


def works_only_on_tensorlab(subject, module, found):
    """The verdict when an answer is right on tensorlab but not on PyTorch (``module``): the two
    libraries should agree, and PyTorch is the reference."""
    return wrong(f"{subject} works on tensorlab but not on {library_name(module)}: {found}.",
                 "tensorlab and PyTorch should behave the same here; PyTorch is the reference "
                 "(please report the difference).")


def not_answered(what):
    return report(False, f"Not answered yet: replace the ... with {what}.")


def is_stub(answer):
    return answer is Ellipsis


# -- predictions ------------------------------------------------------------------------------------

class Question:
    """One line of a prediction table: ``label`` as the lesson shows it, ``compute(torch)`` giving
    the truth on a library, and ``why``: a hint for a wrong prediction -- a string, or a function
    ``why(predicted, truth)`` returning one (e.g. to recognise a typical mistake)."""

    def __init__(self, label, compute, why=""):
        self.label, self.compute, self.why = label, compute, why

    def hint(self, predicted, truth):
        return self.why(predicted, truth) if callable(self.why) else self.why


def _normalise(x):
    """Predictions as a learner may write them: 'float32' for torch.float32, [2, 3] for (2, 3)."""
    x = plain(x)
    if isinstance(x, str) and x in _DTYPE_NAMES:
        return "torch." + x
    if isinstance(x, list):
        return tuple(_normalise(v) for v in x)
    if isinstance(x, tuple):
        return tuple(_normalise(v) for v in x)
    return x


_DTYPE_NAMES = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
                "half", "float", "double", "short", "int", "long"}
_ALIASES = {"torch.half": "torch.float16", "torch.float": "torch.float32", "torch.double": "torch.float64",
            "torch.short": "torch.int16", "torch.int": "torch.int32", "torch.long": "torch.int64"}


def _same_prediction(predicted, truth):
    predicted = _ALIASES.get(predicted, predicted) if isinstance(predicted, str) else predicted
    if type(predicted) is bool or type(truth) is bool:
        return type(predicted) is type(truth) and predicted == truth
    return not differences(predicted, truth)


def check_predictions(answer, questions, *, what=None, note=""):
    """Compare a tuple of predictions with the truth of each :class:`Question`, computed on tensorlab
    and (when installed) PyTorch; PyTorch's truth is the reference when they disagree."""
    n = len(questions)
    what = what or f"a tuple of {n} predictions, one per line of the table"
    if is_stub(answer) or (isinstance(answer, (tuple, list)) and any(is_stub(a) for a in answer)):
        return not_answered(what)
    if not isinstance(answer, (tuple, list)) or len(answer) != n:
        return wrong(f"the answer should be {what}; yours is {kind(answer)} ({describe(answer)}).")
    truths = {name: [_normalise(q.compute(module)) for q in questions] for name, module in libraries()}
    reference = truths[list(truths)[-1]]
    notes = []
    if len(truths) > 1:
        for q, ours, theirs in zip(questions, truths[TENSORLAB], reference):
            if not _same_prediction(ours, theirs):
                notes.append(f"  (tensorlab differs from PyTorch on {q.label}: {describe(ours)} vs "
                             f"{describe(theirs)} -- PyTorch is the reference; please report it.)")
    off = []
    for i, (q, predicted, truth) in enumerate(zip(questions, answer, reference), 1):
        predicted = _normalise(predicted)
        if not _same_prediction(predicted, truth):
            hint = q.hint(predicted, truth)
            off.append(f"  ({i}) {q.label}: not {describe(predicted)}." + (f" {hint}" if hint else ""))
    if off:
        count = f"{len(off)} of {n} predictions {'is' if len(off) == 1 else 'are'} off."
        return report(False, "\n".join([f"Not yet: {count}"] + off + notes))
    if notes:
        return report(True, "\n".join(["Correct! (judged against PyTorch)"] + notes))
    return correct(note)


# -- functions --------------------------------------------------------------------------------------

class Case:
    """One input for a function exercise: ``label`` for messages ("scores of shape (3, 3)") and
    ``make(torch)`` returning the tuple of arguments, built fresh on the given library."""

    def __init__(self, label, make):
        self.label, self.make = label, make


def _call(function, args):
    try:
        return function(*args), None
    except Exception as error:  # noqa: BLE001 - the learner's error is what we report
        return None, error


def _first(diagnoses, *args):
    for diagnose in diagnoses:
        why = diagnose(*args)
        if why:
            return why
    return ""


def check_function(answer, reference, cases, *, name, what, strides=False, grads=True,
                   diagnoses=(), extra=None, note=""):
    """Run ``answer`` and ``reference`` on every :class:`Case`, on each library, and compare.

    Both are written as in a lesson, with ``torch`` meaning tensorlab; on PyTorch's turn both run
    through :func:`~coursekit.libs.on`. The reference is normally the solution in
    ``coursekit/solutions/lessonNN.py``, so the solutions are also what the checks compare with.

    ``what`` describes the expected function for the stub message. A wrong result is reported with
    the first difference (shape, dtype, values, strides with ``strides=True`` ...) and the hint of
    the first diagnosis that recognises it: each ``diagnose(got, expected, args, torch)`` (``got``
    may be an exception) returns a sentence or None. ``extra(got, args, torch)`` may add a property
    the values alone do not show (e.g. "is a view of the input"), returning None when all is well,
    else what is off -- or a pair (what is off, why it might be)."""
    if is_stub(answer):
        return not_answered(what)
    if not callable(answer):
        return wrong(f"`{name}` should be a function ({what}); it is {kind(answer)}.")
    for index, (lib_name, module) in enumerate(libraries()):
        function = on(module, answer)
        for case in cases:
            args = case.make(module)
            got, error = _call(function, args)
            if index == 0 and error is None and got is Ellipsis:
                return not_answered(what)
            expected = on(module, reference)(*case.make(module))
            found, why = [], ""
            if error is not None:
                found = [f"it raised {error_line(error)}"]
                why = _first(diagnoses, error, expected, args, module)
            elif got is None:
                found = ["it returned None"]
                why = "Did you forget `return`?"
            else:
                found = differences(got, expected, where="the result", strides=strides, grads=grads)
                if not found and extra is not None:
                    problem = extra(got, args, module)
                    if isinstance(problem, tuple):
                        problem, why = problem
                    found = [problem] if problem else []
                if found and not why:
                    why = _first(diagnoses, got, expected, args, module)
            if found:
                where = f"`{name}` on {case.label}"
                if index > 0:
                    return works_only_on_tensorlab(where, module, found[0])
                return wrong(f"{where}: {found[0]}.", why)
    return correct(note)
