"""Helpers for the tests of lesson checks (tests/test_lessonNN_exercises.py).

A check must give the same verdict whether PyTorch is installed or not; :func:`torch_hidden` runs
code as if it were not, and :data:`LIBRARY_MODES` with :func:`library_mode` parametrise a test over
both ways (the "installed" way is skipped when PyTorch is missing).

    >>> from coursekit.libs import libraries
    >>> with torch_hidden():
    ...     [name for name, _ in libraries()]
    ['tensorlab']
"""
import contextlib

from . import libs

#: Parametrise a test with these, and enter ``library_mode(mode)`` in it.
LIBRARY_MODES = ("torch hidden", "torch installed")


@contextlib.contextmanager
def torch_hidden():
    """Run the block as if PyTorch were not installed (coursekit's own view only)."""
    saved = libs._import_torch
    libs._import_torch = lambda: None
    try:
        yield
    finally:
        libs._import_torch = saved


def library_mode(mode):
    """A context for one of :data:`LIBRARY_MODES`; None when that mode cannot run here."""
    if mode == "torch hidden":
        return torch_hidden()
    if libs.torch_or_none() is None:
        return None
    return contextlib.nullcontext()


def assert_rejected(verdict, phrases):
    """A check refused an answer, and its message names each of ``phrases`` (what is off and why)."""
    assert not verdict, f"the check accepted it: {verdict.message}"
    for phrase in phrases:
        assert phrase in verdict.message, f"{phrase!r} not in the hint: {verdict.message}"


# -- hostile answers: whatever a learner writes, a check answers with a verdict ------------------------

class Hostile:
    """A value that refuses everything a check may do with it: ==, repr, str, hash, bool, len, iter."""

    def _refuse(self, *args, **kwargs):
        raise ValueError("a hostile object refuses")

    __eq__ = __ne__ = __lt__ = __gt__ = __hash__ = __bool__ = __len__ = __iter__ = __float__ = _refuse
    __repr__ = __str__ = __format__ = __getitem__ = __index__ = __int__ = _refuse


def _exit(*args, **kwargs):
    import sys
    sys.exit(3)


def _forever(*args, **kwargs):
    while True:
        try:
            pass
        except:  # noqa: E722 - a learner's bare except must not swallow the time limit
            pass


def _hostile_result(*args, **kwargs):
    return Hostile()


def checks_of(module):
    """``{name: (kind, questions)}`` for each ``check_*`` a lesson module defines: kind "predictions"
    (built on check_predictions; ``questions`` its Question list), "function" (check_function; then
    ``questions`` is the reference solution's name) or "own" (a check written in the module)."""
    import ast
    import inspect
    found = {}
    for node in ast.parse(inspect.getsource(module)).body:
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("check_")):
            continue
        if node.name in ("check_function_class",):
            continue
        kind, detail = "own", None
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                if call.func.id == "check_predictions":
                    kind, detail = "predictions", getattr(module, call.args[1].id)
                elif call.func.id == "check_function" and isinstance(call.args[1], ast.Attribute):
                    kind, detail = "function", call.args[1].attr
        found[node.name] = (kind, detail)
    return found


def _classes(module):
    """Class answers that exit or loop, for the checks whose answer is a class."""
    import tensorlab

    class Exits:
        def __init__(self, *args, **kwargs):
            _exit()

    class Loops:
        def __init__(self, *args, **kwargs):
            _forever()

    class ExitingFunction(tensorlab.autograd.Function):
        forward = staticmethod(_exit)
        backward = staticmethod(_exit)

    class LoopingFunction(tensorlab.autograd.Function):
        forward = staticmethod(_forever)
        backward = staticmethod(_forever)
    return [Exits, ExitingFunction], [Loops, LoopingFunction]


def assert_hostile_answers_get_a_verdict(module, time_limit=0.2):
    """Every check of lesson ``module`` answers with a Verdict, never an exception, when the answer
    calls sys.exit(), never returns, or returns (or predicts) objects whose ==/repr/len raise -- and
    says which of those it was."""
    from . import guard
    from .check import Verdict
    exiting, looping = _classes(module)
    saved, guard.TIME_LIMIT = guard.TIME_LIMIT, time_limit
    try:
        for name, (kind, questions) in checks_of(module).items():
            check = getattr(module, name)
            if kind == "predictions":
                verdicts = [check((Hostile(),) * len(questions)), check(Hostile())]
                assert all(isinstance(v, Verdict) and not v for v in verdicts), (name, verdicts)
                assert "raised ValueError" in verdicts[0].message, (name, verdicts[0].message)
                continue
            answers = ([("exit", _exit), ("loop", _forever), ("hostile", _hostile_result)]
                       + [("exit", c) for c in exiting] + [("loop", c) for c in looping])
            verdicts = [(what, check(answer)) for what, answer in answers]
            assert all(isinstance(v, Verdict) and not v for _, v in verdicts), (name, verdicts)
            messages = {what: [v.message for w, v in verdicts if w == what] for what, _ in answers}
            assert any("called sys.exit()" in m for m in messages["exit"]), (name, messages["exit"])
            assert any("did not finish within" in m for m in messages["loop"]), (name, messages["loop"])
    finally:
        guard.TIME_LIMIT = saved


# -- answers that change their inputs ------------------------------------------------------------------

def _change_first_input(args):
    """Change, in place, the first argument that can be changed: a tensor (+1, through .detach(),
    which shares the storage and the version counter), an array, a list, a dict or a Module."""
    import numpy as np
    from .compare import is_tensor
    for arg in args:
        if is_tensor(arg):
            target = arg.detach()
            if str(target.dtype) == "torch.bool":
                target.logical_not_()
            else:
                target.add_(1)
            return
        if isinstance(arg, np.ndarray):
            arg += 1
            return
        if isinstance(arg, list):
            arg.append(arg[-1] if arg else 0)
            return
        if isinstance(arg, dict):
            arg["changed"] = None
            return
        if hasattr(arg, "train") and hasattr(arg, "training"):
            arg.train(not arg.training)
            return
    raise AssertionError(f"nothing to change in {args!r}")


def assert_input_changes_refused(module):
    """Every check_function-based check of lesson ``module`` refuses its own reference solution when
    it also changes an input in place -- with the right values returned, the only thing wrong."""
    from . import libs
    from .solutions import __name__ as solutions
    import importlib
    solution = importlib.import_module(f"{solutions}.{module.__name__.rsplit('.', 1)[1]}")
    tried = 0
    for name, (kind, reference_name) in checks_of(module).items():
        if kind != "function":
            continue
        reference = getattr(solution, reference_name)

        def answer(*args, reference=reference):
            library = libs.libraries()[0][1]
            for _, candidate in libs.libraries():
                if any(type(a).__module__.split(".")[0] == candidate.__name__ for a in args):
                    library = candidate
            result = libs.on(library, reference)(*args)
            _change_first_input(args)
            return result
        verdict = getattr(module, name)(answer)
        assert_rejected(verdict, ["changed its input in place"])
        tried += 1
    assert tried, f"{module.__name__} has no check_function-based check"


# -- hints that give the answer away -----------------------------------------------------------------

def _spellings(truth):
    """The ways an answer may be written out in a hint: '(12, 4, 1)', '12, 4, 1', 'int64', '"error"'."""
    import re
    if isinstance(truth, bool) or truth is None:
        return []                       # True/False: a wrong verdict already says which it is
    if isinstance(truth, tuple):
        inner = ", ".join(map(str, truth))
        return [f"({inner})", f"[{inner}]"] + ([inner] if len(truth) > 1 else [])
    if isinstance(truth, str):
        return [truth.replace("torch.", "")] if truth.startswith("torch.") else [f'"{truth}"', f"'{truth}'"]
    if isinstance(truth, (int, float)):
        text = f"{truth:g}" if isinstance(truth, float) else str(truth)
        return [text] if len(re.sub(r"\D", "", text)) > 1 else []   # a lone digit appears everywhere
    return []


def _wrong_guesses(truth):
    """Plausible wrong predictions near ``truth``, to make callable hints speak."""
    guesses = ["a wrong guess", None, 0]
    if isinstance(truth, tuple):
        guesses += [truth[::-1], truth[:-1], truth + (1,), tuple(2 * v if isinstance(v, int) else v for v in truth)]
    elif isinstance(truth, (int, float)) and not isinstance(truth, bool):
        guesses += [truth + 1, truth - 1, truth * 2, float(truth), int(truth)]
    return [g for g in guesses if g != truth]


def hints_that_give_the_answer(module):
    """``[(label, hint)]`` for the prediction questions of lesson ``module`` whose hint, for some wrong
    prediction, contains the answer written out (tensorlab's truth)."""
    import re
    import tensorlab
    from .check import Question, _normalise
    found = []
    for value in list(vars(module).values()):
        if not (isinstance(value, list) and value and all(isinstance(q, Question) for q in value)):
            continue
        for question in value:
            truth = _normalise(question.compute(tensorlab))
            for guess in _wrong_guesses(truth):
                try:
                    hint = question.hint(_normalise(guess), truth) or ""
                except Exception:  # noqa: BLE001 - a hint that cannot handle the guess says nothing
                    continue
                for spelled in _spellings(truth):
                    if re.search(r"(?<![\w.])" + re.escape(spelled) + r"(?![\w.])", hint):
                        found.append((question.label, hint))
                        break
    return sorted(set(found))
