"""Grading: the learner's functions in place of tensorlab's, inside the real library, under its own tests.

:func:`grade` runs one stage in a fresh Python process (so the learner's latest files are read, a
broken function cannot harm the notebook's kernel, and an editor user and a notebook user get the
same run). That process (:func:`run_stage`) imports tensorlab, loads the learner's file, and puts
each of its functions where tensorlab's own stood: the attribute of the library module, every
module that imported it by name, and its class for methods. Everything not built in this stage stays
tensorlab's. Then pytest runs the stage's cases and the project's tests for that part
(:mod:`coursekit.build.stages`), and the classic mistakes are probed (:mod:`coursekit.build.hints`).
:func:`report` turns the result into what the learner reads; its last line is ``N/M tests pass``.

The report speaks the learner's language (coursekit/language.py): the grading process is told it
(``TENSORLAB_LANG``), since it starts at the repository root, where the language would be English.
Its last line stays ``N/M tests pass`` in every language: scripts read it.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..language import language, tr
from . import cases, hints, place
from .skeleton import ROOT, regions
from .stages import STAGES

#: Mistakes' names and hints are translated where they are defined (:mod:`coursekit.build.hints`),
#: and again when shown, in case they were defined in English.
_translate = tr


def default_dir():
    """Where the learner's files live: ``TENSORLAB_BUILD_DIR``, else course/build/mytensorlab/ of
    this checkout (the same folder for the notebooks and for a terminal at the repository root)."""
    if os.environ.get("TENSORLAB_BUILD_DIR"):
        return Path(os.environ["TENSORLAB_BUILD_DIR"])
    if (ROOT / "course").is_dir():
        return ROOT / "course" / "build" / "mytensorlab"
    return Path.cwd() / "mytensorlab"


def shown_path(path):
    """A path as the report prints it: relative to the repository when inside it."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# -- inside the grading process ----------------------------------------------------------------------


def _failing(message):
    def not_importable(*args, **kwargs):
        raise RuntimeError(message)
    return not_importable


def load_learner(stage, directory):
    """{function name: the learner's function} for a stage. A file that does not import, or lacks a
    function, gives functions that raise saying so (every test then fails with that message)."""
    path = Path(directory) / STAGES[stage].filename
    names = [r.name for r in regions(stage)]
    try:
        spec = importlib.util.spec_from_file_location(f"_learner_stage{stage}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except FileNotFoundError:
        return {n: _failing(tr("{file} does not exist: run python -m coursekit.build new", file=shown_path(path)))
                for n in names}
    except Exception as error:  # noqa: BLE001 - whatever the learner's file raises on import
        return {n: _failing(tr("{file} does not import: {error}", file=shown_path(path),
                               error=f"{type(error).__name__}: {error}"))
                for n in names}
    return {n: getattr(module, n, None) or _failing(tr("{file} has no function {name}", file=shown_path(path),
                                                       name=n))
            for n in names}


def install(stage, functions):
    """Put the learner's functions where tensorlab's stand; returns how many references changed."""
    return sum(place.put(region, functions[region.name]) for region in regions(stage))


class _Collector:
    """A pytest plugin that keeps each test's outcome, in run order."""

    def __init__(self):
        self.outcomes, self.first = {}, None

    def _fail(self, nodeid, report):
        self.outcomes[nodeid] = "failed"
        if self.first is None:
            crash = getattr(report.longrepr, "reprcrash", None)
            if crash is not None:
                message = crash.message
            elif hasattr(report, "wasxfail"):
                message = tr("the test marked itself as failing (xfail): {reason}", reason=report.wasxfail)
            else:
                message = str(report.longrepr)
            self.first = {"test": nodeid, "message": "\n".join(message.splitlines()[:8])}
            self.first.update(cases.FAILURES.get(nodeid, {}))

    def pytest_runtest_logreport(self, report):
        # a test that xfails did not pass: some project tests xfail when an op raises NotImplementedError,
        # which is what a function not written yet does
        if report.failed or hasattr(report, "wasxfail"):
            self._fail(report.nodeid, report)
        elif report.skipped and self.outcomes.get(report.nodeid) != "failed":
            self.outcomes[report.nodeid] = "skipped"
        elif report.when == "call" and report.nodeid not in self.outcomes:
            self.outcomes[report.nodeid] = "passed"

    def pytest_collectreport(self, report):
        if report.failed:
            self._fail(report.nodeid or "collection", report)


def _hypothesis_profile():
    """Same examples on every run (a grade must not change by chance), no shrinking (fast failures)."""
    from hypothesis import Phase, settings
    settings.register_profile("coursekit-build", derandomize=True, database=None, deadline=None,
                              phases=(Phase.explicit, Phase.generate), print_blob=False)
    settings.load_profile("coursekit-build")


def run_stage(stage, directory):
    """Grade ``stage`` in this process (meant for a fresh one); returns the result as plain data."""
    import pytest

    import tensorlab  # noqa: F401 - the library must be imported before its functions are replaced
    os.environ["COURSEKIT_BUILD_STAGE"] = str(stage)
    _hypothesis_profile()
    functions = load_learner(stage, directory)
    install(stage, functions)
    collector = _Collector()
    args = [str(Path(__file__).with_name("case_tests.py"))] + [str(ROOT / t) for t in STAGES[stage].tests]
    args += ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist", "-o", "addopts=",
             "--import-mode=importlib", "--rootdir", str(ROOT), "-W", "ignore", "--tb=line"]
    pytest.main(args, plugins=[collector])
    outcomes = list(collector.outcomes.values())
    text = (Path(directory) / STAGES[stage].filename)
    source = text.read_text(encoding="utf-8") if text.exists() else ""
    return {"stage": stage, "passed": outcomes.count("passed"),
            "total": outcomes.count("passed") + outcomes.count("failed"),
            "skipped": outcomes.count("skipped"), "first": collector.first,
            "stubs": [r.name for r in regions(stage)
                      if f'raise NotImplementedError("stage {stage}: write {r.name}")' in source],
            "hints": [{"name": _translate(m.name), "hint": _translate(m.hint)}
                      for m in hints.mistakes_seen(stage, functions)],
            "file": shown_path(text)}


# -- in the learner's process ------------------------------------------------------------------------


def grade(stage, directory=None, timeout=300):
    """Grade one stage in a fresh process; returns its result (see :func:`run_stage`) plus ``seconds``.
    The process speaks the learner's language: this one's."""
    directory = Path(directory or default_dir()).resolve()
    env = dict(os.environ, PYTHONHASHSEED="0", COURSEKIT_BUILD_STAGE=str(stage), TENSORLAB_LANG=language(),
               PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(
                   os.pathsep) if p]))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "coursekit.build", "_run", str(stage), str(directory),
                               str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        seconds = time.perf_counter() - start
        if not out.exists():
            raise RuntimeError(tr("grading stage {stage} failed:", stage=stage)
                               + f"\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        result = json.loads(out.read_text(encoding="utf-8"))
    result["seconds"] = seconds
    return result


def _indent(text, by="    "):
    return "\n".join(by + line for line in str(text).splitlines())


def title(stage):
    """A stage's title in the learner's language (stages.py holds them in English)."""
    return {
        "strides and views": tr("strides and views"),
        "broadcasting and summing a gradient back": tr("broadcasting and summing a gradient back"),
        "ops as Functions: forward and backward formulas": tr("ops as Functions: forward and backward formulas"),
        "the graph: nodes, edges and AccumulateGrad": tr("the graph: nodes, edges and AccumulateGrad"),
        "the engine: dependencies, the ready queue, accumulation, freeing":
            tr("the engine: dependencies, the ready queue, accumulation, freeing"),
        "Module: registration, named parameters, state_dict, train/eval":
            tr("Module: registration, named parameters, state_dict, train/eval"),
        "optimizers: SGD with momentum, Adam with bias correction":
            tr("optimizers: SGD with momentum, Adam with bias correction"),
        "convolution as unfold + matmul, and the capstone CNN": tr("convolution as unfold + matmul, and the capstone CNN"),
    }.get(stage.title, stage.title)


def report(result):
    """What the learner reads, in their language: the first failing case (input, PyTorch's answer,
    theirs), the hints for the mistakes it looks like, and the count -- the last line is
    ``N/M tests pass``, in English in every language (scripts read it)."""
    stage = STAGES[result["stage"]]
    lines = [tr("Stage {number}: {title} -- your file: {file}", number=stage.number, title=title(stage),
                file=result["file"])]
    if result["stubs"]:
        lines.append("  " + tr("still to write: {names}", names=", ".join(result["stubs"])))
    first = result["first"]
    if first and "input" in first:
        lines += ["  " + tr("first failing case:"),
                  "    " + tr("input:         {input}", input=first["input"]),
                  "    " + tr("PyTorch gives: {answer}", answer=cases.describe(first["expected"])),
                  "    " + tr("yours:         {answer}", answer=cases.describe(first["got"]))]
    elif first:
        lines += ["  " + tr("first failing test: {test}", test=first["test"]), _indent(first["message"], "    ")]
    for found in result["hints"]:
        lines.append("  " + tr("hint ({name}): {hint}", name=_translate(found["name"]), hint=_translate(found["hint"])))
    if first and not result["hints"] and not result["stubs"]:
        lines.append("  " + tr("no classic mistake recognised: work the failing input through your code by hand."))
    if not first and result["total"]:
        lines.append("  " + tr("every test passes: tensorlab now runs on your code for this stage."))
    if result["skipped"]:
        lines.append("  " + tr("{n} tests skipped (they need PyTorch, which is not installed)", n=result["skipped"]))
    lines.append(f"{result['passed']}/{result['total']} tests pass")
    return "\n".join(lines)
