"""The stage's cases as pytest tests (grading runs this file first; ``COURSEKIT_BUILD_STAGE`` says
which stage). Each test calls the function that is in place inside tensorlab -- the learner's, once
grading has put it there -- and compares it with PyTorch's answer (the recorded one without PyTorch).
A failure leaves its input and both answers in ``cases.FAILURES`` for the grading report."""
import doctest
import importlib
import os

import pytest

from coursekit.build import cases, place
from coursekit.build.skeleton import regions
from coursekit.language import tr


def _stage():
    return int(os.environ.get("COURSEKIT_BUILD_STAGE", "1"))


def _in_place(function_name):
    """The function tensorlab calls under this name (its name in the learner's file) now."""
    for region in regions(_stage()):
        if region.name == function_name:
            return place.in_place(region)
    raise LookupError(function_name)


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


@pytest.mark.parametrize("case", cases.CASES.get(_stage(), []), ids=lambda c: c.id)
def test_case(case, request):
    got = case.run(_in_place(case.function))
    expected = case.expected(_torch())
    if not cases.agrees(got, expected):
        cases.FAILURES[request.node.nodeid] = {"case": case.id, "function": case.function,
                                               "input": case.tell(), "expected": expected, "got": got}
        raise AssertionError(tr("{input}: PyTorch gives {expected}, yours {got}", input=case.tell(),
                                expected=cases.describe(expected), got=cases.describe(got)))


def _examples(region):
    """The examples in a marked function's docstring, as a doctest run in its tensorlab module."""
    module = importlib.import_module(region.module)
    docstring = ast_docstring(region.source)
    return doctest.DocTestParser().get_doctest(docstring, dict(vars(module)), region.qualname,
                                               str(region.path), 0)


def ast_docstring(source):
    import ast
    return ast.get_docstring(ast.parse(source).body[0], clean=False) or ""


def _test_docstring_examples(region):
    """The examples of tensorlab's docstring, run on the function now in place (the learner's)."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    runner.run(_examples(region), out=out.append)
    assert runner.failures == 0, "".join(out)


_WITH_EXAMPLES = [r for r in regions(_stage()) if ">>>" in ast_docstring(r.source)]
if _WITH_EXAMPLES:   # (a stage whose docstrings hold no examples has no such test, rather than a skipped one)
    test_docstring_examples = pytest.mark.parametrize(
        "region", _WITH_EXAMPLES, ids=lambda r: f"docstring examples of {r.qualname}")(_test_docstring_examples)
