"""``%grade STAGE [DIR]`` in a notebook, and :func:`my_file`, which a build notebook's first cell calls.

The learner's code lives in files (course/build/mytensorlab/ unless told otherwise), never in cells:
a notebook user opens the file in JupyterLab's editor, an editor user in theirs, and both grade the
same file the same way -- ``%grade 1`` here is ``python -m coursekit.build grade 1`` there.
"""
from __future__ import annotations

import shlex
from pathlib import Path

from ..language import tr
from .grade import default_dir, grade, report, shown_path
from .skeleton import write_stage
from .stages import STAGES, stage_numbers


def my_file(stage, directory=None):
    """Write the learner's file for ``stage`` if it is not there yet (never overwrite it) and say where
    it is. Prints the same line whether the file was just written or already held the learner's work."""
    directory = Path(directory or default_dir())
    path = directory / STAGES[stage].filename
    if not path.exists():
        write_stage(directory, stage)
    print(tr("Your file for stage {stage}: {file}", stage=stage, file=shown_path(path)) + "\n"
          + tr("Open it in JupyterLab (File > Open from Path...) or in your editor, write the functions, "
               "save, and run %grade {stage}.", stage=stage))
    return path


def grade_magic(line):
    """%grade STAGE [DIR]: grade a stage (or all) of the build track and show the first failing case."""
    words = shlex.split(line)
    stages = ", ".join(map(str, sorted(STAGES)))
    if not words:
        print(tr("usage: %grade STAGE [DIR] -- STAGE is {stages} or all", stages=stages))
        return
    try:
        numbers = stage_numbers(words[0])
    except ValueError:
        print(tr("no stage {which}: the stages are {stages} or all", which=repr(words[0]), stages=stages))
        return
    directory = words[1] if len(words) > 1 else None
    passed = total = 0
    for number in numbers:
        result = grade(number, directory)
        print(report(result))
        passed, total = passed + result["passed"], total + result["total"]
    if len(numbers) > 1:
        print(f"{passed}/{total} tests pass")
