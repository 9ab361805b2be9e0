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

A check prints its message, wrapped at word boundaries (:data:`WIDTH`), and returns a
:class:`Verdict` (``bool(verdict)`` is ``ok``), which a notebook does not display again. A stub
answer (``...``) gets a fixed "not answered yet" message, so a lesson's stored output is
deterministic. When the answer is right, the message is the same with or without PyTorch; only a
disagreement between the two libraries adds text.

Whatever the answer does, a check answers with a verdict and never crashes: the answer runs under
:func:`coursekit.guard.run` (a time limit, ``sys.exit()`` reported like an error), a function that
changes its inputs in place is refused with a hint that says so, and predictions or results whose
``==`` or ``repr`` raise are reported as such (:func:`always_a_verdict` is the last line of
defence, also for the lessons' own checks). Ctrl-C still stops a check.

A hint names the mistake and how to find the right answer -- never the answer itself.

    >>> import tensorlab as torch
    >>> questions = [Question("torch.tensor([1, 2]).dtype", lambda torch: torch.tensor([1, 2]).dtype,
    ...                       "Which integer dtype is the default?")]
    >>> _ = check_predictions((torch.int64,), questions)
    Correct!
    >>> _ = check_predictions((torch.int32,), questions)
    Not yet: 1 of 1 predictions is off.
      (1) torch.tensor([1, 2]).dtype: not torch.int32. Which integer dtype is the default?
    >>> _ = check_predictions(..., questions)
    Not answered yet: replace the ... with a tuple of 1 predictions, one per line of the
                      table.
"""
from __future__ import annotations

import functools
import inspect
import re
import sys
import textwrap
import unicodedata

from . import guard
from .compare import describe, differences, kind, plain
from .crosscheck import error_line
from .language import tr
from .libs import TENSORLAB, libraries, library_name, on

#: Verdicts are printed wrapped at word boundaries to this width (a notebook's output area would
#: otherwise break long lines wherever the window ends, in the middle of a word).
WIDTH = 88


def wrap(message, width=WIDTH):
    """``message`` with every line wrapped at word boundaries; a continued line is indented under
    the text after its label ("Not yet: ", "  Hint: ", "  (3) "), and `code in backticks` is never
    split.

    >>> print(wrap("Not yet: " + "word " * 20, width=40))
    Not yet: word word word word word word
             word word word word word word
             word word word word word word
             word word
    """
    lines = []
    for line in message.split("\n"):
        label = re.match(r"\s*(Not yet: |Not answered yet: |Correct! |Hint: |还不对：|尚未作答：|正确！|提示：|\(\d+\) |- )?", line).group()
        if any(_is_wide(c) for c in line):
            lines += _wrap_wide(line, width, " " * _columns(label))
            continue
        protected = re.sub(r"`[^`]*`", lambda m: m.group().replace(" ", "\0"), line)
        pieces = textwrap.wrap(protected, width, subsequent_indent=" " * len(label), break_long_words=False,
                               break_on_hyphens=False, drop_whitespace=True) or [""]
        lines += [piece.replace("\0", " ") for piece in pieces]
    return "\n".join(lines)


def _is_wide(character):
    """A character that takes two columns in a terminal or a notebook's monospace output (Chinese)."""
    return unicodedata.east_asian_width(character) in "WF"


def _columns(text):
    return sum(2 if _is_wide(c) else 1 for c in text)


# A line of Chinese breaks between any two characters, except before closing punctuation or after
# opening punctuation; a word in Latin letters and `code in backticks` stay whole.
_PIECE = re.compile(r"`[^`]*`|\s+|[^\s`]")
_NO_BREAK_BEFORE = set("，。、；：！？）》」』”’")
_NO_BREAK_AFTER = set("（《「『“‘")


def _wrap_wide(line, width, indent):
    """``line`` (which holds wide characters) cut into lines of at most ``width`` columns.

    >>> _wrap_wide("提示：先用 `t.view(2, 3)` 看看形状，再想想 stride 为什么不变。", 24, " " * 6)
    ['提示：先用 `t.view(2, 3)`', '      看看形状，再想想', '      stride 为什么不变。']
    """
    tokens, word = [], ""
    for piece in _PIECE.findall(line):          # glue Latin letters back into words
        if len(piece) == 1 and not piece.isspace() and not _is_wide(piece) and piece not in _NO_BREAK_BEFORE:
            word += piece
            continue
        if word:
            tokens.append(word)
            word = ""
        tokens.append(piece)
    tokens += [word] if word else []
    for i in range(len(tokens) - 2, -1, -1):    # an opening bracket goes with what follows it
        if tokens[i] in _NO_BREAK_AFTER:
            tokens[i:i + 2] = [tokens[i] + tokens[i + 1]]
    lines, current = [], ""
    for token in tokens:
        fits = _columns(current.rstrip() + token) <= width
        if current.strip() and not fits and not token.isspace() and token not in _NO_BREAK_BEFORE:
            lines.append(current.rstrip())
            current = indent
        if token.isspace() and current == indent:
            continue
        current += token
    return lines + [current.rstrip()]


class Verdict:
    """The outcome of a check: ``ok`` and its ``message`` (whole lines, as the checks wrote it;
    ``text`` is the same wrapped for printing, which is what the learner sees)."""

    def __init__(self, ok, message):
        self.ok, self.message = bool(ok), message

    @property
    def text(self):
        return wrap(self.message)

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return f"Verdict(ok={self.ok}, message={self.message!r})"

    def _ipython_display_(self):
        """Already printed by the check: a notebook shows nothing more."""


def report(ok, message):
    """Print ``message`` (wrapped) and return the :class:`Verdict`."""
    verdict = Verdict(ok, message)
    sys.stdout.write(verdict.text + "\n")  # one write: a kernel never splits it into two outputs
    return verdict


def correct(note=""):
    return report(True, tr("Correct!") + (f" {note}" if note else ""))


def wrong(what, why=""):
    """'Not yet: <what is off>', then, indented, why it might be."""
    return report(False, tr("Not yet: {what}", what=what) + ("\n  " + tr("Hint: {why}", why=why) if why else ""))


def raised(error, why="", subject=None):
    """``(what happened, hint)`` for an answer that failed with ``error`` (from :func:`guard.run`):
    the time limit and sys.exit() get their own words and hint; an ordinary error reads
    "<subject> raised TypeName: message" (subject: "it"), with the hint ``why``."""
    subject = tr("it") if subject is None else subject
    special = guard.failure(error, subject)
    if special is not None:
        return special
    return tr("{subject} raised {error}", subject=subject, error=error_line(error)), why


def always_a_verdict(check):
    """Decorate a check so that it answers with a verdict whatever the answer does -- the last line
    of defence behind :func:`guard.run` (e.g. an answer that returned an object whose ``==``,
    ``repr`` or ``len`` raises inside the check's own comparisons). Ctrl-C still stops it."""
    @functools.wraps(check)
    def checked(*args, **kwargs):
        try:
            return check(*args, **kwargs)
        except (Exception, SystemExit, guard.TimeLimitExceeded) as error:  # noqa: BLE001
            what, why = raised(error, tr("Look at what your answer returns or does: the check could not "
                                         "compare it (does it return an object whose ==, repr or len fails?). "
                                         "Run it yourself on the lesson's example and look at the result."))
            return wrong(tr("the check could not examine your answer: {what}.", what=what), why)
    return checked


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
    return wrong(tr("{subject} works on tensorlab but not on {library}: {found}.", subject=subject,
                    library=library_name(module), found=found),
                 tr("tensorlab and PyTorch should behave the same here; PyTorch is the reference "
                    "(please report the difference)."))


def not_answered(what):
    return report(False, tr("Not answered yet: replace the ... with {what}.", what=what))


def _sentence(text):
    """``text`` ending in one full stop (an error message often brings its own); a Chinese one in Chinese."""
    return text if text.endswith((".", "。")) else tr("{text}.", text=text)


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


def _judge(question, predicted, truth):
    """'' when ``predicted`` is right, else the line that says it is not (with the hint)."""
    try:
        predicted = _normalise(predicted)
        if _same_prediction(predicted, truth):
            return ""
    except Exception as error:  # noqa: BLE001 - a prediction whose == raises is not a prediction
        return tr("{label}: your prediction could not be compared with anything ({error}). Write it as a plain "
                  "value: a tuple, a number, True/False, a string or torch.<dtype>.",
                  label=question.label, error=error_line(error))
    try:
        hint = question.hint(predicted, truth)
    except Exception:  # noqa: BLE001 - a hint that trips over an odd prediction is left out
        hint = ""
    return tr("{label}: not {prediction}.", label=question.label, prediction=describe(predicted)) + (f" {hint}" if hint else "")


@always_a_verdict
def check_predictions(answer, questions, *, what=None, note=""):
    """Compare a tuple of predictions with the truth of each :class:`Question`, computed on tensorlab
    and (when installed) PyTorch; PyTorch's truth is the reference when they disagree."""
    n = len(questions)
    what = what or tr("a tuple of {n} predictions, one per line of the table", n=n)
    if is_stub(answer) or (isinstance(answer, (tuple, list)) and any(is_stub(a) for a in answer)):
        return not_answered(what)
    if not isinstance(answer, (tuple, list)) or len(answer) != n:
        return wrong(tr("the answer should be {what}; yours is {kind} ({value}).", what=what, kind=kind(answer),
                        value=describe(answer)))
    truths = {name: [_normalise(q.compute(module)) for q in questions] for name, module in libraries()}
    reference = truths[list(truths)[-1]]
    notes = []
    if len(truths) > 1:
        for q, ours, theirs in zip(questions, truths[TENSORLAB], reference):
            if not _same_prediction(ours, theirs):
                notes.append("  " + tr("(tensorlab differs from PyTorch on {label}: {ours} vs {theirs} -- PyTorch is "
                                       "the reference; please report it.)", label=q.label, ours=describe(ours),
                                       theirs=describe(theirs)))
    off = []
    for i, (q, predicted, truth) in enumerate(zip(questions, answer, reference), 1):
        line = _judge(q, predicted, truth)
        if line:
            off.append(f"  ({i}) {line}")
    if off:
        count = (tr("{k} of {n} predictions is off.", k=len(off), n=n) if len(off) == 1 else
                 tr("{k} of {n} predictions are off.", k=len(off), n=n))
        return report(False, "\n".join([tr("Not yet: {what}", what=count)] + off + notes))
    if notes:
        return report(True, "\n".join([tr("Correct! (judged against PyTorch)")] + notes))
    return correct(note)


# -- functions --------------------------------------------------------------------------------------

class Case:
    """One input for a function exercise: ``label`` for messages ("scores of shape (3, 3)") and
    ``make(torch)`` returning the tuple of arguments, built fresh on the given library."""

    def __init__(self, label, make):
        self.label, self.make = label, make


def _first(diagnoses, *args):
    """The hint of the first diagnosis that recognises the answer ('' when none does; a diagnosis
    that trips over an odd result counts as not recognising it)."""
    for diagnose in diagnoses:
        try:
            why = diagnose(*args)
        except Exception:  # noqa: BLE001
            why = None
        if why:
            return why
    return ""


def parameter_names(function):
    """The names of ``function``'s positional parameters, for messages ("`scores` was changed")."""
    try:
        return [p.name for p in inspect.signature(function).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return []


def _explained_by_the_change(got, expected, again, strides, grads):
    """True when the inputs' change accounts for the result: it is right, or it is what the
    reference gives on the changed inputs (``again()``, e.g. a smoothing of a list sorted in place)."""
    if not differences(got, expected, strides=strides, grads=grads):
        return True
    value, error = guard.run(again)
    return error is None and not differences(got, value, strides=strides, grads=grads)


def _examine(got, expected, args, module, *, changed, fresh, again, strides, grads, diagnoses, extra):
    """``(what is off, why)`` about what the answer did; ``([], "")`` when it is right. ``changed``
    lists what it changed in its inputs. Unless that change explains the result, the diagnoses look
    at it with ``fresh`` inputs: a wrong method, such as calling a BatchNorm in training mode, often
    changes an input on the way, and its diagnosis says more than "it changed an input"."""
    if changed:
        why = ""
        if not _explained_by_the_change(got, expected, again, strides, grads):
            why = _first(diagnoses, got, expected, fresh, module)
        return [tr("it changed its input in place: {change}", change=changed[0])], why or guard.why_changed(changed[0])
    if got is None:
        return [tr("it returned None")], tr("Did you forget `return`?")
    found, why = differences(got, expected, where=tr("the result"), strides=strides, grads=grads), ""
    if not found and extra is not None:
        problem = extra(got, args, module)
        if isinstance(problem, tuple):
            problem, why = problem
        found = [problem] if problem else []
    if found and not why:
        why = _first(diagnoses, got, expected, args, module)
    return found, why


@always_a_verdict
def check_function(answer, reference, cases, *, name, what, strides=False, grads=True,
                   diagnoses=(), extra=None, note=""):
    """Run ``answer`` and ``reference`` on every :class:`Case`, on each library, and compare.

    Both are written as in a lesson, with ``torch`` meaning tensorlab; on PyTorch's turn both run
    through :func:`~coursekit.libs.on`. The reference is normally the solution in
    ``coursekit/solutions/lessonNN.py``, so the solutions are also what the checks compare with.

    ``what`` describes the expected function for the stub message. The answer runs under
    :func:`coursekit.guard.run` (a time limit; ``sys.exit`` is an error like any other) and must
    leave its inputs as they were (:func:`coursekit.guard.changes`: an answer that divides its
    argument in place is refused, even when it returns the right values). A wrong result is reported
    with the first difference (shape, dtype, values, strides with ``strides=True`` ...) and the hint
    of the first diagnosis that recognises it: each ``diagnose(got, expected, args, torch)`` (``got``
    may be an exception) returns a sentence or None. ``extra(got, args, torch)`` may add a property
    the values alone do not show (e.g. "is a view of the input"), returning None when all is well,
    else what is off -- or a pair (what is off, why it might be)."""
    if is_stub(answer):
        return not_answered(what)
    if not callable(answer):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name=name, what=what, kind=kind(answer)))
    names = parameter_names(answer)
    for index, (lib_name, module) in enumerate(libraries()):
        function = on(module, answer)
        for case in cases:
            args = case.make(module)
            before = [guard.snapshot(a) for a in args]
            got, error = guard.run(function, *args)
            if index == 0 and error is None and got is Ellipsis:
                return not_answered(what)
            expected = on(module, reference)(*case.make(module))
            if error is not None:
                what_off, why = raised(error)
                found, why = [what_off], why or _first(diagnoses, error, expected, args, module)
            else:
                changed = guard.input_changes(before, args, names)
                examined, trouble = guard.run(lambda: _examine(
                    got, expected, args, module, changed=changed, fresh=case.make(module),
                    again=lambda: on(module, reference)(*args), strides=strides, grads=grads,
                    diagnoses=diagnoses, extra=extra))
                if trouble is not None:           # e.g. a result whose == or repr raises
                    what_off, _ = raised(trouble, subject=tr("comparing it"))
                    examined = ([tr("its result ({kind}) could not be compared with the expected one: {what}",
                                    kind=kind(got), what=what_off)],
                                tr("Return a plain result -- a tensor, a number, a tuple or list of them -- as "
                                   "the exercise asks."))
                found, why = examined
            if found:
                where = tr("`{name}` on {case}", name=name, case=case.label)
                if index > 0:
                    return works_only_on_tensorlab(where, module, found[0])
                return wrong(_sentence(tr("{where}: {found}", where=where, found=found[0])), why)
    return correct(note)
