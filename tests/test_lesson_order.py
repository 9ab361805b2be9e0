"""The course teaches before it uses: a lesson's code may call an API that a later lesson teaches
only if the learner is told so where it happens -- in the Markdown cell just before that code, or in
a comment in the cell -- with a forward link ("Adam, which [lesson 17](17_optimizers_and_schedules.ipynb)
takes apart, ...").

Which lesson teaches what is data, tools/syllabus_map.json (its "about" says how names are
spelled). The code of each lesson is read with ``ast``: imports are followed, so ``optim.Adam``,
``torch.optim.Adam`` and ``from tensorlab.optim import Adam`` are all the API ``optim.Adam``;
``x.unfold(...)`` on anything that is not a module is the method ``Tensor.unfold``.
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "course"
MAP = ROOT / "tools" / "syllabus_map.json"
LESSONS = sorted(COURSE.glob("[0-9][0-9]_*.ipynb"))
LIBRARIES = ("torch", "tensorlab", "widgets")


def taught_in():
    """API name -> the number of the lesson that teaches it."""
    lessons = json.loads(MAP.read_text(encoding="utf-8"))["lessons"]
    where = {}
    for number, names in lessons.items():
        for name in names:
            assert name not in where, f"{name} is taught twice in {MAP.name}: lessons {where[name]} and {number}"
            where[name] = int(number)
    return where


def _python(source):
    """A cell's code without IPython's magics and shell escapes (which ast cannot read)."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def _bind(aliases, node):
    """Record what the names an import statement binds stand for (module paths below tensorlab)."""
    def below(module):
        top, *rest = module.split(".")
        if top not in LIBRARIES:
            return None
        return ".".join((["widgets"] if top == "widgets" else []) + rest)
    if isinstance(node, ast.Import):
        for alias in node.names:
            path = below(alias.name)
            if path is not None and alias.asname:
                aliases[alias.asname] = path
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        base = below(node.module)
        if base is not None:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name


def _chain(node):
    """``a.b.c`` -> ["a", "b", "c"]; None when the chain does not start at a plain name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id] + parts[::-1] if isinstance(node, ast.Name) else None


def api_uses(tree, aliases):
    """The API names one cell's code uses, given the import aliases known so far (updated)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            _bind(aliases, node)
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Name)):
            parts = _chain(node)
            if parts is None:
                if isinstance(node, ast.Attribute):
                    used.add(f"Tensor.{node.attr}")   # e.g. (a * b).sum().backward()
                continue
            if parts[0] in aliases:
                used.add(".".join(p for p in [aliases[parts[0]], *parts[1:]] if p))
            elif isinstance(node, ast.Attribute):
                used.add(f"Tensor.{node.attr}")
    return used


_LESSON_NUMBERS = re.compile(r"\b[Ll]essons?\s+(\d{1,2}(?:\s*(?:,|and|or|to|-|–)\s*\d{1,2})*)")
_LESSON_LINK = re.compile(r"\((\d\d)_[a-z0-9_]+\.ipynb[)#]")


def lessons_pointed_to(text):
    """The lesson numbers a text points to: "lesson 17", "lessons 16-18", a link to 17_x.ipynb."""
    found = {int(n) for n in _LESSON_LINK.findall(text)}
    for group in _LESSON_NUMBERS.findall(text):
        for part in re.split(r"\s*(?:,|and|or)\s*", group):
            ends = [int(n) for n in re.split(r"\s*(?:to|-|–)\s*", part) if n]
            found.update(range(ends[0], ends[-1] + 1))
    return found


def early_uses(path, where=None):
    """(cell number, API, lesson that teaches it) for each use of an API before the lesson that
    teaches it, with no forward link to that lesson in the Markdown just before or in the cell."""
    where = taught_in() if where is None else where
    number = int(path.name[:2])
    nb = nbformat.read(path, as_version=4)
    aliases = {"torch": "", "tensorlab": ""}
    markdown, problems = "", []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            markdown = cell.source
            continue
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(_python(cell.source))
        except SyntaxError:
            continue
        comments = "\n".join(line.split("#", 1)[1] for line in cell.source.splitlines() if "#" in line)
        pointed = lessons_pointed_to(markdown) | lessons_pointed_to(comments)
        for api in sorted(api_uses(tree, aliases)):
            lesson = where.get(api)
            if lesson is not None and lesson > number and lesson not in pointed:
                problems.append((i, api, lesson))
    return problems


def test_the_map_names_real_lessons():
    numbers = {int(p.name[:2]) for p in LESSONS}
    assert set(taught_in().values()) <= numbers


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_a_lesson_uses_nothing_taught_later_without_saying_where(path):
    problems = early_uses(path)
    assert not problems, f"{path.name}: " + "; ".join(
        f"cell {i} uses {api}, which lesson {lesson} teaches: say so in the Markdown just before "
        f"(e.g. 'lesson {lesson}' or a link to it) or in a comment" for i, api, lesson in problems)


def test_the_resolver_follows_imports_and_methods():
    aliases = {"torch": "", "tensorlab": ""}
    tree = ast.parse("import torch.optim as o\nfrom tensorlab.utils.data import DataLoader as DL\n"
                     "from widgets import TrainingMonitor\nimport tensorlab.nn.functional as F\n"
                     "o.Adam(p); DL(d); TrainingMonitor(); F.unfold(x, 3); x.unfold(0, 3, 1)\n"
                     "torch.optim.lr_scheduler.CosineAnnealingLR(o, 2)")
    used = api_uses(tree, aliases)
    assert {"optim.Adam", "utils.data.DataLoader", "widgets.TrainingMonitor", "nn.functional.unfold",
            "Tensor.unfold", "optim.lr_scheduler.CosineAnnealingLR"} <= used


def test_a_forward_link_is_recognised():
    assert lessons_pointed_to("Adam, which lesson 17 takes apart") == {17}
    assert lessons_pointed_to("see [the loop](16_training_loop.ipynb) and lessons 17-18") == {16, 17, 18}
    assert lessons_pointed_to("lessons 16 and 18") == {16, 18}
    assert lessons_pointed_to("in 17 steps") == set()


def test_an_early_use_without_a_link_is_found(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 03 · x"),
                nbformat.v4.new_code_cell("import tensorlab as torch\nopt = torch.optim.Adam(ps)"),
                nbformat.v4.new_markdown_cell("Adam, which lesson 17 takes apart, ..."),
                nbformat.v4.new_code_cell("opt = torch.optim.Adam(ps)"),
                nbformat.v4.new_code_cell("from tensorlab import optim\noptim.Adam(ps)  # lesson 17")]
    path = tmp_path / "03_x.ipynb"
    nbformat.write(nb, path)
    assert early_uses(path, {"optim.Adam": 17}) == [(1, "optim.Adam", 17)]
