"""Re-run lesson notebooks and store their outputs -- the only way outputs get into course/ (and widgets/demos/).

    python tools/build_course.py                       # every lesson: course/NN_*.ipynb
    python tools/build_course.py course/00_welcome.ipynb   # one or several
    python tools/build_course.py --index               # only refresh the lesson list in README.md

Each lesson that has a Chinese translation (i18n/zh/lessons/) is then rebuilt in course/zh/ too
(tools/translate.py), so one command rebuilds both editions.

Each notebook is executed top to bottom in a fresh ``python3`` kernel started in course/ (the
kernelspec `make install` points at the project's environment) and written back with its sources
untouched. Live widget views are not stored: every widget leaves a picture that shows before the
notebook runs, untrusted, in JupyterLab, on GitHub and in nbviewer. Lessons seed every random generator they use, so a
second build gives the same outputs; `make test` then checks them with nbval.

The lesson lists in README.md and course/README.md (between the ``lessons:begin``/``lessons:end``
markers) are rebuilt from the notebooks: README.md lists titles; course/README.md is the course
index, with each lesson's goals, widgets, exercises and estimated time (see ``facts``).
tests/test_notebooks.py checks both.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "course"
README = ROOT / "README.md"
INDEXES = {ROOT / "README.md": "course/", COURSE / "README.md": ""}  # file -> link prefix
DETAILED = {COURSE / "README.md"}  # these carry the course index (goals, widgets, exercises, time)
LESSON_GLOB = "[0-9][0-9]_*.ipynb"
BEGIN, END = "<!-- lessons:begin -->", "<!-- lessons:end -->"
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def lessons():
    """Every lesson notebook, in course order."""
    return sorted(COURSE.glob(LESSON_GLOB))


def title(notebook_path):
    """A lesson's title: the first Markdown heading of its first Markdown cell."""
    import nbformat
    nb = nbformat.read(notebook_path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return notebook_path.stem


def lesson_index(prefix="course/"):
    """The Markdown list of lessons that a README carries between its markers; links start with
    ``prefix`` (the path from that README to course/)."""
    lines = [f"- [{title(p)}]({prefix}{p.name})" for p in lessons()]
    return "\n".join(lines) if lines else "- (no lessons yet)"


WIDGETS = ("StrideExplorer", "BroadcastExplorer", "GraphExplorer", "ModuleExplorer", "TrainingMonitor", "DispatchLog")


def facts(notebook_path):
    """What the course index says of one lesson, read from the notebook itself: its goals (the
    bullets under "You will learn to"), the widgets its code uses, its exercises (``check_*`` calls)
    and an estimated time -- reading at 150 words a minute, half a minute per code cell, six minutes
    per exercise, rounded up to five minutes."""
    import math
    import nbformat
    nb = nbformat.read(notebook_path, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    goals, in_goals = [], False
    for line in text.splitlines():
        if re.match(r"\*\*You will learn", line):
            in_goals = True
        elif in_goals and line.startswith("- "):
            goals.append(line[2:].strip())
        elif in_goals and line.startswith("  ") and goals:
            goals[-1] += " " + line.strip()
        elif in_goals and line.strip() and goals:
            in_goals = False
    exercises = len(re.findall(r"^check_\w+\(", code, flags=re.MULTILINE))
    cells = sum(1 for c in nb.cells if c.cell_type == "code")
    minutes = len(text.split()) / 150 + cells / 2 + 6 * exercises
    return {"title": title(notebook_path), "goals": goals,
            "widgets": [w for w in WIDGETS if re.search(rf"\b{w}\b", code)],
            "exercises": exercises, "minutes": max(5, 5 * math.ceil(minutes / 5))}


def course_index(prefix=""):
    """The detailed lesson list of course/README.md: per lesson, its time, widgets, exercises and goals."""
    parts = []
    for p in lessons():
        f = facts(p)
        about = [f"~{f['minutes']} min"] + [f"`{w}`" for w in f["widgets"]]
        if f["exercises"]:
            about.append(f"{f['exercises']} exercise{'s' if f['exercises'] > 1 else ''}")
        parts.append(f"- **[{f['title']}]({prefix}{p.name})** -- {' · '.join(about)}")
        parts += [f"  - {goal}" for goal in f["goals"]]
    return "\n".join(parts) if parts else "- (no lessons yet)"


def update_readme(readme=README, prefix="course/"):
    """Rewrite the lesson list in ``readme``; returns True when the file changed."""
    text = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{readme}: markers {BEGIN} ... {END} not found")
    listing = course_index(prefix) if readme in DETAILED else lesson_index(prefix)
    new = pattern.sub(lambda _: f"{BEGIN}\n{listing}\n{END}", text)
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return new != text


def _kernel_environment():
    """Make the kernel import this checkout's tensorlab and hash strings reproducibly."""
    paths = [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    os.environ["PYTHONHASHSEED"] = "0"
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"  # plots stored inline


def _merge_streams(outputs):
    """One output per run of printing to the same stream: a busy kernel may split one ``print`` into
    several chunks, which would make two builds of the same lesson differ."""
    merged = []
    for out in outputs:
        previous = merged[-1] if merged else None
        if (out.output_type == "stream" and previous is not None and previous.output_type == "stream"
                and previous.name == out.name):
            previous.text += out.text
        else:
            merged.append(out)
    return merged


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _without_widget_views(outputs):
    """The outputs as a learner should find them before running anything: a live widget's view is
    dropped (with no kernel it can only show as a broken-widget icon once the notebook is trusted),
    leaving its stored picture -- the ``text/html`` fallback every widget sends beside its view,
    which displays untrusted -- and its ``text/plain`` summary. An output that was nothing but a
    view goes. Running the cell brings the live widget back."""
    kept = []
    for out in outputs:
        data = out.get("data")
        if data is not None and WIDGET_VIEW in data:
            del data[WIDGET_VIEW]
            if not data:
                continue
        kept.append(out)
    return kept


def _tidy(nb):
    """Drop what changes from one machine or run to the next without meaning anything, and the
    live widget views a stored notebook cannot show (see ``_without_widget_views``)."""
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        cell.metadata.pop("collapsed", None)
        if cell.cell_type == "code":
            cell.outputs = _without_widget_views(_merge_streams(cell.outputs))
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    info = nb.metadata.get("language_info", {})
    info.pop("version", None)
    nb.metadata["language_info"] = info


def build(notebook_path, timeout=600):
    """Execute one notebook in place and store its outputs; raises if any cell fails."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(notebook_path).resolve()
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", store_widget_state=False,
                            record_timing=False, resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    _tidy(nb)
    nbformat.validate(nb)
    path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="lessons to build (default: all)")
    parser.add_argument("--index", action="store_true", help="only refresh README.md's lesson list")
    parser.add_argument("--timeout", type=int, default=600, help="seconds one cell may run")
    args = parser.parse_args(argv)
    if not args.index:
        _kernel_environment()
        for notebook in args.notebooks or lessons():
            print(f"building {notebook} ...", flush=True)
            build(notebook, timeout=args.timeout)
    for readme, prefix in INDEXES.items():
        if readme.exists() and update_readme(readme, prefix):
            print(f"updated the lesson list in {readme.relative_to(ROOT)}")
    _figures().main([])   # the course map shows each lesson's time: redraw it, embed it afresh
    if not args.index:    # and the Chinese edition of every built lesson that has a translation
        translate = _tool("translate")
        chosen = {Path(n).name for n in args.notebooks} if args.notebooks else None
        translate.build([p for p in translate.translated_lessons() if chosen is None or p.name in chosen],
                        timeout=args.timeout)
    return 0


def _tool(name):
    """tools/<name>.py, loaded by path (tools/ is not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"course_{name}", ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _figures():
    """tools/figures.py, which draws the course's static figures."""
    return _tool("figures")


if __name__ == "__main__":
    sys.exit(main())
