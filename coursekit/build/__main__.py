"""The build track from the command line (see coursekit/build/__init__.py and course/build/README.md).

    python -m coursekit.build new [DIR]            write the learner's files (existing ones are kept)
    python -m coursekit.build grade STAGE [DIR]    grade a stage, or all; exit 0 only if every test passes
    python -m coursekit.build solve STAGE [DIR]    fill in tensorlab's own code (a changed file is kept as .bak)
    python -m coursekit.build record               store PyTorch's answers to the cases (needs PyTorch)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..language import tr
from . import grade as grading
from .skeleton import stage_source, write_stage
from .stages import STAGES, stage_numbers


def _new(directory):
    directory = Path(directory)
    for number in sorted(STAGES):
        path = directory / STAGES[number].filename
        if path.exists():
            print(tr("kept    {file} (yours; delete it to start the stage again)", file=grading.shown_path(path)))
        else:
            write_stage(directory, number)
            print(tr("wrote   {file}  (stage {number}: {title})", file=grading.shown_path(path), number=number,
                     title=grading.title(STAGES[number])))
    return 0


def _solve(which, directory):
    directory = Path(directory)
    for number in stage_numbers(which):
        path = directory / STAGES[number].filename
        if path.exists() and path.read_text(encoding="utf-8") not in (stage_source(number),
                                                                       stage_source(number, solution=True)):
            backup = path.with_name(path.name + ".bak")
            backup.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
            print(tr("kept your version as {file}", file=grading.shown_path(backup)))
        write_stage(directory, number, solution=True)
        print(tr("solved  {file}  (stage {number}: tensorlab's own code)", file=grading.shown_path(path),
                 number=number))
    return 0


def _grade(which, directory):
    passed = total = 0
    for number in stage_numbers(which):
        result = grading.grade(number, directory)
        text = grading.report(result)
        if len(stage_numbers(which)) > 1:
            text = text.rsplit("\n", 1)[0] + f"\n  stage {number}: {result['passed']}/{result['total']} tests pass\n"
        print(text, flush=True)
        passed, total = passed + result["passed"], total + result["total"]
    if str(which) == "all":
        print(f"{passed}/{total} tests pass")
    return 0 if passed == total and total > 0 else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m coursekit.build", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="write the learner's files")
    new.add_argument("dir", nargs="?", type=Path)
    for name, text in [("grade", "grade a stage (or all)"), ("solve", "fill in the reference solution")]:
        sub = commands.add_parser(name, help=text)
        sub.add_argument("stage", help=f"{', '.join(map(str, sorted(STAGES)))} or all")
        sub.add_argument("dir", nargs="?", type=Path)
    commands.add_parser("record", help="store PyTorch's answers to the cases in reference.json")
    run = commands.add_parser("_run")  # the grading process itself (see coursekit.build.grade)
    run.add_argument("stage", type=int)
    run.add_argument("dir", type=Path)
    run.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    directory = getattr(args, "dir", None) or grading.default_dir()
    if args.command in ("grade", "solve"):
        try:
            stage_numbers(args.stage)
        except ValueError:
            parser.error(tr("no stage {which}: the stages are {stages} or all", which=repr(args.stage),
                            stages=", ".join(map(str, sorted(STAGES)))))
    try:
        if args.command == "new":
            return _new(directory)
        if args.command == "solve":
            return _solve(args.stage, directory)
        if args.command == "grade":
            return _grade(args.stage, directory)
    except ValueError as error:
        parser.error(str(error))
    if args.command == "record":
        from .cases import record
        print(tr("wrote {file}", file=grading.shown_path(record())))
        return 0
    import json
    args.out.write_text(json.dumps(grading.run_stage(args.stage, args.dir)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
