"""The Chinese edition (course/zh/): generated from the English lessons plus translation files.

    python tools/translate.py status               # which lessons are translated, which cells drifted
    python tools/translate.py todo course/01_tensors.ipynb   # the English text of every cell to (re)translate
    python tools/translate.py build [LESSON ...]   # write course/zh/NN_*.ipynb and store their outputs

The build track's notebooks (course/build/*.ipynb) are translated the same way, into course/zh/build/,
from ``i18n/zh/build/<notebook>.md``; every command takes one of them too.

One source: the code cells of a Chinese lesson are the English lesson's, copied; only Markdown is
translated. Each lesson's translation lives in ``i18n/zh/lessons/<lesson>.md``, one block per
Markdown cell::

    <!-- cell 558e75ac · en 3f0c1a9b2e -->
    ## 课程地图
    ...

The block names the English cell (its id) and a hash of the English text it translates. When the
English cell changes, the hash no longer matches and tests/test_translations.py fails, naming the cell
-- so the two editions cannot drift apart silently. ``todo`` prints what to translate, with the header
line to paste above it.

Figures stay where they are: a Markdown image reference ``![alt][name]`` is translated like any text,
and its definition line (``[name]: data:image/svg+xml;base64,...``) is copied from the English cell,
so a translation never carries a picture's bytes. Relative links are written as in the English
lesson (``../tensorlab/storage.py``, ``glossary.md``); the build rewrites each to reach the same file
from course/zh/ (course/zh/build/ for a build notebook), or its Chinese edition when there is one
(``glossary.md``, a translated lesson or build notebook).

The stored outputs come from executing the Chinese notebook in course/zh/, where coursekit and the
widgets speak Chinese (coursekit/language.py).

The course's Markdown pages (the glossary, the cheat sheet, the build track's README) are translated
the same way, block by block: a paragraph, a heading, a list item or one row of a table is a block,
named by the hash of its English (``<!-- block · en 3f0c1a9b2e -->`` in ``i18n/zh/docs/<page>.md``); a
fenced code block is copied, untranslated. ``build`` writes course/zh/<page>.md too.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "course"
ZH = COURSE / "zh"
TRANSLATIONS = ROOT / "i18n" / "zh" / "lessons"
BUILD_TRANSLATIONS = ROOT / "i18n" / "zh" / "build"   # the build track: course/build/ -> course/zh/build/
DOC_TRANSLATIONS = ROOT / "i18n" / "zh" / "docs"
DOCUMENTS = ("glossary.md", "cheatsheet.md", "build/README.md")   # course/<name> -> course/zh/<name>

HEADER = re.compile(r"^<!-- cell (\S+) · en ([0-9a-f]{10}) -->[ \t]*$", re.MULTILINE)
FIGURE_DEFINITION = re.compile(r"^\[[\w-]+\]: data:\S+$", re.MULTILINE)
LINK = re.compile(r"(\]\()([^)\s#]+)((?:#[^)\s]*)?\))")


def english_text(source):
    """What a translation translates: the cell's Markdown without its figures' data (which change
    when a figure is redrawn, without any change a translator must follow)."""
    return FIGURE_DEFINITION.sub("", source).strip()


def text_hash(source):
    """Ten hex digits identifying the English text of a cell."""
    return hashlib.sha256(english_text(source).encode("utf-8")).hexdigest()[:10]


def is_build_notebook(notebook):
    return Path(notebook).parent.name == "build"


def translation_path(lesson):
    folder = BUILD_TRANSLATIONS if is_build_notebook(lesson) else TRANSLATIONS
    return folder / (Path(lesson).stem + ".md")


def english_path(notebook):
    """The English notebook a path names: course/NN_name.ipynb, or course/build/name.ipynb."""
    return COURSE / ("build" if is_build_notebook(notebook) else "") / Path(notebook).name


def chinese_path(notebook):
    """Where the Chinese edition of an English notebook goes: course/zh/[build/]name.ipynb."""
    return ZH / english_path(notebook).relative_to(COURSE)


def read_translation(path):
    """``{cell id: (hash of the English it translates, Chinese text)}`` from a translation file."""
    text = Path(path).read_text(encoding="utf-8")
    heads = list(HEADER.finditer(text))
    blocks = {}
    for head, following in zip(heads, heads[1:] + [None]):
        end = following.start() if following else len(text)
        cell_id, digest = head.group(1), head.group(2)
        if cell_id in blocks:
            raise ValueError(f"{path}: cell {cell_id} is translated twice")
        blocks[cell_id] = (digest, text[head.end():end].strip("\n").rstrip())
    return blocks


def problems(lesson):
    """What is wrong with a lesson's translation, in words: an untranslated or drifted cell, a block
    for a cell that no longer exists. Empty when the translation is complete and current."""
    import nbformat
    nb = nbformat.read(lesson, as_version=4)
    blocks = read_translation(translation_path(lesson))
    found = []
    markdown_ids = set()
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        markdown_ids.add(cell.id)
        if cell.id not in blocks:
            found.append(f"cell {cell.id} has no translation")
        elif blocks[cell.id][0] != text_hash(cell.source):
            found.append(f"cell {cell.id} changed in English since it was translated "
                         f"(translation of {blocks[cell.id][0]}, English now {text_hash(cell.source)})")
        elif not blocks[cell.id][1].strip():
            found.append(f"cell {cell.id}: the translation is empty")
    found += [f"cell {cell_id} is translated but no longer in the English lesson"
              for cell_id in blocks if cell_id not in markdown_ids]
    return found


def _chinese_edition(english):
    """The file of course/zh/ that stands for the English file ``english``, if there is one: a
    translated lesson or build notebook, a translated page (glossary.md), any other file there."""
    if COURSE not in english.parents or ZH in english.parents or english == ZH:
        return None
    if english.suffix == ".ipynb" and translation_path(english).exists():
        return chinese_path(english)
    if english.parent == COURSE and english.name in DOCUMENTS:
        return ZH / english.name if (DOC_TRANSLATIONS / english.name).exists() else None
    chinese = ZH / english.relative_to(COURSE)
    return chinese if chinese.exists() else None


def _relink(text, folder=COURSE):
    """Rewrite relative links written from ``folder`` (course/ or course/build/) so that they reach
    the same files -- or their Chinese editions -- from its place in course/zh/."""
    zh_folder = ZH / folder.relative_to(COURSE)

    def fix(match):
        target = match.group(2)
        if re.match(r"[a-z]+:", target) or target.startswith("/"):
            return match.group(0)
        english = Path(os.path.normpath(folder / target))
        if not english.exists():
            return match.group(0)
        new = os.path.relpath(_chinese_edition(english) or english, zh_folder).replace(os.sep, "/")
        return match.group(1) + new + ("/" if target.endswith("/") else "") + match.group(3)
    return LINK.sub(fix, text)


def chinese_notebook(lesson):
    """The Chinese lesson as a notebook object: English code cells, translated Markdown cells
    (figure definitions copied from the English cell), no outputs yet."""
    import copy

    import nbformat
    nb = nbformat.read(lesson, as_version=4)
    blocks = read_translation(translation_path(lesson))
    missing = problems(lesson)
    if missing:
        raise SystemExit(f"{Path(lesson).name}: the translation is not current:\n  " + "\n  ".join(missing))
    zh = copy.deepcopy(nb)
    for cell in zh.cells:
        if cell.cell_type == "markdown":
            figures = FIGURE_DEFINITION.findall(cell.source)
            text = _relink(blocks[cell.id][1], english_path(lesson).parent)
            cell.source = "\n\n".join([text, *figures]) if figures else text
        elif cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    zh.metadata["language"] = "zh-CN"
    return zh


# -- Markdown pages -------------------------------------------------------------------------------

BLOCK_HEADER = re.compile(r"^<!-- block · en ([0-9a-f]{10}) -->[ \t]*$", re.MULTILINE)


def document_blocks(text):
    """A page as ``(kind, text)`` blocks: ``"code"`` for a fenced code block (copied as it is),
    else ``"text"`` -- a paragraph, a heading, a list item, or one table row (``"row"``, so that
    rows join back into one table)."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            blocks.append(("code", "\n".join(lines[i:end + 1])))
            i = end + 1
        elif line.startswith("|"):
            blocks.append(("row", line))
            i += 1
        else:
            start = i
            i += 1
            while (i < len(lines) and lines[i].strip() and not lines[i].startswith(("|", "```", "#", "- "))
                   and not lines[start].startswith("#")):
                i += 1
            blocks.append(("text", "\n".join(lines[start:i])))
    return blocks


def _joined(blocks):
    """Blocks back into a page: table rows one per line, other blocks separated by a blank line."""
    out = []
    for (kind, text), previous in zip(blocks, [None] + blocks[:-1]):
        same_table = kind == "row" and previous is not None and previous[0] == "row"
        list_item = text.startswith("- ") and previous is not None and previous[1].startswith("- ")
        out.append(("\n" if same_table or list_item else "\n\n") + text if out else text)
    return "".join(out) + "\n"


def read_document_translation(name):
    """``{hash of an English block: its Chinese}`` for the page ``name``."""
    text = (DOC_TRANSLATIONS / name).read_text(encoding="utf-8")
    heads = list(BLOCK_HEADER.finditer(text))
    return {head.group(1): text[head.end():(following.start() if following else len(text))].strip("\n").rstrip()
            for head, following in zip(heads, heads[1:] + [None])}


def _translatable(kind, text):
    return kind != "code" and not re.fullmatch(r"\|[-| ]+\|", text)   # a table's |---| line is copied


def document_problems(name):
    """What is missing or stale in the translation of the page course/<name>."""
    blocks = document_blocks((COURSE / name).read_text(encoding="utf-8"))
    done = read_document_translation(name)
    wanted = {text_hash(text): text for kind, text in blocks if _translatable(kind, text)}
    found = [f"{name}: no translation of {text.splitlines()[0][:70]!r} (en {digest})"
             for digest, text in wanted.items() if not done.get(digest, "").strip()]
    found += [f"{name}: a translation of en {digest}, which the English page no longer has"
              for digest in done if digest not in wanted]
    return found


def chinese_document(name):
    """The Chinese page: each English block replaced by its translation, links made to work from course/zh/."""
    blocks = document_blocks((COURSE / name).read_text(encoding="utf-8"))
    done = read_document_translation(name)
    return _relink(_joined([(kind, done[text_hash(text)] if _translatable(kind, text) else text)
                            for kind, text in blocks]), (COURSE / name).parent)


def document_todo(name):
    done = read_document_translation(name) if (DOC_TRANSLATIONS / name).exists() else {}
    for kind, text in document_blocks((COURSE / name).read_text(encoding="utf-8")):
        if _translatable(kind, text) and text_hash(text) not in done:
            print(f"<!-- block · en {text_hash(text)} -->")
            print(text, end="\n\n")


def english_notebooks():
    """Every English notebook: the lessons in course order, then the build track's."""
    return sorted(COURSE.glob("[0-9][0-9]_*.ipynb")) + sorted((COURSE / "build").glob("*.ipynb"))


def translated_lessons():
    """The English notebooks (lessons, then build notebooks) that have a translation file."""
    return [p for p in english_notebooks() if translation_path(p).exists()]


def build(lessons, timeout=600):
    """Write each lesson's Chinese notebook into course/zh/ and execute it there (tools/build_course.py)."""
    import nbformat
    sys.path.insert(0, str(ROOT / "tools"))
    import build_course
    build_course._kernel_environment()
    ZH.mkdir(exist_ok=True)
    targets = [chinese_path(lesson) for lesson in lessons]
    for lesson, target in zip(lessons, targets):  # all written first: a lesson may list the others
        target.parent.mkdir(exist_ok=True)
        target.write_text(nbformat.writes(chinese_notebook(lesson)) + "\n", encoding="utf-8")
    for target in targets:
        build_course.build(target, timeout=timeout)
        print(f"built {target.relative_to(ROOT)}")
    for name in DOCUMENTS:
        if (DOC_TRANSLATIONS / name).exists():
            (ZH / name).write_text(chinese_document(name), encoding="utf-8")
            print(f"wrote {(ZH / name).relative_to(ROOT)}")


def todo(lesson):
    """The English text of each cell that needs (re)translating, under the header line to use."""
    import nbformat
    nb = nbformat.read(lesson, as_version=4)
    path = translation_path(lesson)
    blocks = read_translation(path) if path.exists() else {}
    for cell in nb.cells:
        if cell.cell_type == "markdown" and blocks.get(cell.id, (None,))[0] != text_hash(cell.source):
            print(f"<!-- cell {cell.id} · en {text_hash(cell.source)} -->")
            print(english_text(cell.source), end="\n\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("status", help="which lessons are translated, and what drifted")
    p_todo = sub.add_parser("todo", help="print the English cells to (re)translate")
    p_todo.add_argument("lesson", type=Path, help="a lesson, or a page: course/glossary.md")
    p_build = sub.add_parser("build", help="write and execute course/zh/ lessons")
    p_build.add_argument("lessons", nargs="*", type=Path, help="English lessons (default: every translated one)")
    args = parser.parse_args(argv)
    if args.command == "status":
        for name in DOCUMENTS:
            if not (DOC_TRANSLATIONS / name).exists():
                print(f"{name}: not translated")
                continue
            found = document_problems(name)
            print(f"{name}: " + ("current" if not found else f"{len(found)} to fix"))
            for line in found:
                print(f"  {line}")
        for lesson in english_notebooks():
            name = lesson.relative_to(COURSE)
            if not translation_path(lesson).exists():
                print(f"{name}: not translated")
                continue
            found = problems(lesson)
            print(f"{name}: " + ("current" if not found else f"{len(found)} to fix"))
            for line in found:
                print(f"  {line}")
    elif args.command == "todo":
        if args.lesson.suffix == ".md":
            document_todo(args.lesson.resolve().relative_to(COURSE).as_posix())
        else:
            todo(english_path(args.lesson))
    else:
        build([english_path(p) for p in args.lessons] or translated_lessons())


if __name__ == "__main__":
    main()
