"""The Chinese edition cannot drift from the English one (tools/translate.py, course/zh/).

Each Markdown cell of a translated lesson has a translation that names the English text it
translates (by hash); code cells are the English lesson's, unchanged; course/zh/ holds what the
translation files generate. When an English cell changes, these tests name the cell to retranslate:
``python tools/translate.py todo course/NN_name.ipynb`` prints it.
"""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import translate  # noqa: E402

LESSONS = sorted((ROOT / "course").glob("[0-9][0-9]_*.ipynb"))
BUILD_NOTEBOOKS = sorted((ROOT / "course" / "build").glob("*.ipynb"))
TRANSLATED = translate.translated_lessons()   # lessons and build notebooks

# Lessons whose Chinese edition is still to be written. The list may only shrink: a lesson that is
# translated must leave it, and a new English lesson must be translated or added here.
NOT_YET_TRANSLATED = set()

# The same for the build track (course/build/ -> course/zh/build/).
NOT_YET_TRANSLATED_BUILD = set()


def cells(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))["cells"]


def test_every_lesson_is_translated_or_listed_as_not_yet():
    translated = {p.stem for p in TRANSLATED}
    lessons = {p.stem for p in LESSONS}
    assert not translated & NOT_YET_TRANSLATED, "translated now: remove from NOT_YET_TRANSLATED"
    assert lessons - translated <= NOT_YET_TRANSLATED, "a lesson has no Chinese edition"
    assert NOT_YET_TRANSLATED <= lessons, "NOT_YET_TRANSLATED names a lesson that does not exist"


def test_every_build_notebook_is_translated_or_listed_as_not_yet():
    translated = {p.stem for p in TRANSLATED if p.parent.name == "build"}
    notebooks = {p.stem for p in BUILD_NOTEBOOKS}
    assert not translated & NOT_YET_TRANSLATED_BUILD, "translated now: remove from NOT_YET_TRANSLATED_BUILD"
    assert notebooks - translated <= NOT_YET_TRANSLATED_BUILD, "a build notebook has no Chinese edition"
    assert NOT_YET_TRANSLATED_BUILD <= notebooks, "NOT_YET_TRANSLATED_BUILD names a notebook that does not exist"


@pytest.mark.parametrize("folder, notebooks", [(translate.TRANSLATIONS, LESSONS),
                                               (translate.BUILD_TRANSLATIONS, BUILD_NOTEBOOKS)])
def test_every_translation_file_belongs_to_a_notebook(folder, notebooks):
    names = {p.stem for p in notebooks}
    for path in folder.glob("*.md"):
        assert path.stem in names, f"{path.name} translates no notebook of {folder.name}"


def _name(lesson):
    return lesson.relative_to(translate.COURSE).as_posix()   # 01_tensors.ipynb, build/puzzles.ipynb


@pytest.mark.parametrize("lesson", TRANSLATED, ids=_name)
def test_translation_is_complete_and_current(lesson):
    found = translate.problems(lesson)
    assert not found, (f"{lesson.name}: " + "; ".join(found)
                       + f" -- run: python tools/translate.py todo course/{_name(lesson)}")


@pytest.mark.parametrize("lesson", TRANSLATED, ids=_name)
def test_chinese_lesson_has_the_english_code_and_the_translated_text(lesson):
    zh_path = translate.chinese_path(lesson)
    assert zh_path.exists(), f"run: python tools/translate.py build course/{_name(lesson)}"
    english, chinese = cells(lesson), cells(zh_path)
    assert [c["id"] for c in chinese] == [c["id"] for c in english]
    expected = translate.chinese_notebook(lesson).cells
    for en, zh, want in zip(english, chinese, expected):
        assert zh["cell_type"] == en["cell_type"]
        if en["cell_type"] == "code":
            assert zh["source"] == en["source"], f"cell {en['id']}: code differs from the English lesson"
        else:
            assert "".join(zh["source"]) == want.source, (
                f"cell {en['id']}: not what the translation file gives -- run: "
                f"python tools/translate.py build course/{_name(lesson)}")


def test_a_changed_english_cell_is_reported_as_drifted(tmp_path):
    """The drift check itself: change one English Markdown cell and the translation is stale."""
    import nbformat
    lesson = TRANSLATED[0]
    nb = nbformat.read(lesson, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "markdown")
    cell.source += "\nOne more sentence."
    changed = tmp_path / lesson.name
    nbformat.write(nb, changed)
    found = translate.problems(changed)
    assert found == [f"cell {cell.id} changed in English since it was translated "
                     f"(translation of {translate.read_translation(translate.translation_path(lesson))[cell.id][0]}, "
                     f"English now {translate.text_hash(cell.source)})"]


def test_redrawing_a_figure_does_not_make_a_translation_stale():
    source = "Text.\n\n![alt][fig]\n\n[fig]: data:image/svg+xml;base64,AAAA"
    assert translate.text_hash(source) == translate.text_hash(source.replace("AAAA", "BBBB"))


@pytest.mark.skipif(not NOT_YET_TRANSLATED, reason="every lesson is translated")
def test_links_written_from_course_reach_the_same_files_from_course_zh():
    english_only = min(NOT_YET_TRANSLATED) + ".ipynb"   # a lesson course/zh/ does not have (yet)
    text = ("[a](../tensorlab/storage.py) [b](README.md) [c](https://pytorch.org) [d](01_tensors.ipynb) "
            f"[e](glossary.md) [f]({english_only})")
    assert translate._relink(text) == ("[a](../../tensorlab/storage.py) [b](../README.md) [c](https://pytorch.org) "
                                       f"[d](01_tensors.ipynb) [e](glossary.md) [f](../{english_only})")


def test_links_written_from_course_build_reach_the_same_files_from_course_zh_build():
    build = translate.COURSE / "build"
    text = ("[a](README.md) [b](../../tensorlab/_layout.py) [c](../02_storage_and_strides.ipynb) "
            "[d](../glossary.md) [e](../../tensorlab/) [f](https://pytorch.org) [g](missing.ipynb)")
    assert translate._relink(text, build) == (   # README.md: the build track's README in Chinese
        "[a](README.md) [b](../../../tensorlab/_layout.py) [c](../02_storage_and_strides.ipynb) "
        "[d](../glossary.md) [e](../../../tensorlab/) [f](https://pytorch.org) [g](missing.ipynb)")
    for notebook in BUILD_NOTEBOOKS:   # another build notebook: its Chinese edition once it has one
        translated = translate.translation_path(notebook).exists()
        assert translate._relink(f"[n]({notebook.name})", build) == (
            f"[n]({notebook.name})" if translated else f"[n](../../build/{notebook.name})")


def test_the_chinese_readme_lists_every_chinese_build_notebook():
    text = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    for path in sorted((translate.ZH / "build").glob("*.ipynb")):
        assert f"(course/zh/build/{path.name})" in text, f"README.zh.md misses build/{path.name}"


def test_the_chinese_readme_lists_every_chinese_lesson():
    text = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    for path in sorted(translate.ZH.glob("[0-9][0-9]_*.ipynb")):
        title = translate.read_translation(translate.translation_path(path))[cells(path)[0]["id"]][1].splitlines()[0]
        assert f"- [{title.lstrip('# ').strip()}](course/zh/{path.name})" in text, f"README.zh.md misses {path.name}"


# -- the checks and the widgets: every message passed through tr() has a Chinese translation ----------

def _messages(package):
    """``{English message: file}`` for every ``tr("...")`` in ``package``'s source; ``tr(NAME)`` counts
    the string that a module-level ``NAME = "..."`` gives."""
    import ast
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants, tables = {}, {}   # NAME = "text"; NAME = {"key": "text", ...}
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                value, name = node.value, node.targets[0].id
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    constants[name] = value.value
                elif isinstance(value, ast.Dict) and all(isinstance(v, ast.Constant) for v in value.values):
                    tables[name] = [v.value for v in value.values]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Subscript) and getattr(first.value, "id", None) in tables:
                    texts = tables[first.value.id]        # tr(WORDS[key]): every text of the table
                else:
                    texts = [first.value if isinstance(first, ast.Constant) else constants.get(getattr(first, "id", None))]
                for text in texts:
                    assert isinstance(text, str), f"{path.name}:{node.lineno}: tr() needs the English text itself"
                    found.setdefault(text, path.name)
    return found


def _catalog(package):
    import importlib
    return importlib.import_module("coursekit.zh" if package == "coursekit" else "widgets._zh").ZH


@pytest.mark.parametrize("package", ["coursekit", "widgets"])
def test_every_message_has_a_chinese_translation(package):
    import string
    messages, catalog = _messages(package), _catalog(package)
    missing = [f"{where}: {text!r}" for text, where in messages.items() if text not in catalog]
    assert not missing, "no Chinese translation (add it to the catalog):\n" + "\n".join(missing)
    stale = [text for text in catalog if text not in messages]
    assert not stale, "translations of messages the code no longer has:\n" + "\n".join(map(repr, stale))
    fields = lambda text: sorted(f for _, f, _, _ in string.Formatter().parse(text) if f)  # noqa: E731
    wrong = [text for text, zh in catalog.items() if fields(text) != fields(zh)]
    assert not wrong, "a translation lacks (or adds) a {field} of its English:\n" + "\n".join(map(repr, wrong))


def test_the_checks_speak_chinese_in_course_zh(monkeypatch, capsys):
    from coursekit import check, language
    monkeypatch.setenv("TENSORLAB_LANG", "zh")
    assert language.language() == "zh"
    check.wrong("the result is off", "look again")
    assert capsys.readouterr().out == "还不对：the result is off\n  提示：look again\n"
    monkeypatch.delenv("TENSORLAB_LANG")
    monkeypatch.chdir(translate.ZH)
    assert language.language() == "zh"
    monkeypatch.chdir(translate.ZH / "build")   # a build notebook of the Chinese edition
    assert language.language() == "zh"
    monkeypatch.chdir(translate.COURSE / "build")
    assert language.language() == "en"
    monkeypatch.chdir(ROOT)
    assert language.language() == "en"


# -- the Markdown pages: glossary, cheat sheet, the build track's README -----------------------------
# (each is checked block by block: an English block changed or added without its translation fails
# test_page_translation_is_complete_and_current, naming it)

PAGES = [name for name in translate.DOCUMENTS if (translate.DOC_TRANSLATIONS / name).exists()]


def test_the_glossary_the_cheat_sheet_and_the_build_readme_have_a_chinese_edition():
    assert PAGES == list(translate.DOCUMENTS)
    assert "build/README.md" in PAGES


@pytest.mark.parametrize("name", PAGES)
def test_page_translation_is_complete_and_current(name):
    found = translate.document_problems(name)
    assert not found, "; ".join(found) + f" -- run: python tools/translate.py todo course/{name}"


@pytest.mark.parametrize("name", PAGES)
def test_chinese_page_is_what_its_translation_gives(name):
    stored = (translate.ZH / name).read_text(encoding="utf-8")
    assert stored == translate.chinese_document(name), "run: python tools/translate.py build"


def test_a_changed_row_of_a_page_is_reported(monkeypatch, tmp_path):
    english = (translate.COURSE / "glossary.md").read_text(encoding="utf-8")
    changed = english.replace("| tensor | 张量 | an n-dimensional array", "| tensor | 张量 | a multi-dimensional array")
    assert changed != english
    course = tmp_path / "course"
    course.mkdir()
    (course / "glossary.md").write_text(changed, encoding="utf-8")
    monkeypatch.setattr(translate, "COURSE", course)
    found = translate.document_problems("glossary.md")
    assert len(found) == 2 and "no translation of '| tensor | 张量 | a multi-dimensional array" in found[0]
    assert "no longer has" in found[1]


def test_a_changed_paragraph_of_the_build_readme_is_reported(monkeypatch, tmp_path):
    english = (translate.COURSE / "build" / "README.md").read_text(encoding="utf-8")
    changed = english.replace("## For the learner\n", "## For learners\n")
    assert changed != english
    (tmp_path / "course" / "build").mkdir(parents=True)
    (tmp_path / "course" / "build" / "README.md").write_text(changed, encoding="utf-8")
    monkeypatch.setattr(translate, "COURSE", tmp_path / "course")
    found = translate.document_problems("build/README.md")
    assert len(found) == 2 and "no translation of '## For learners'" in found[0]
    assert "no longer has" in found[1]


def _five_widgets():
    """One small instance of each widget, as a lesson makes it."""
    import widgets
    import tensorlab as torch
    from tensorlab import nn
    a = torch.tensor([2., 3.], requires_grad=True)
    graph = widgets.GraphExplorer((a * a).sum())
    graph.backward()
    graph.goto(kind="send")
    monitor = widgets.TrainingMonitor(metrics=("loss",), total=2)
    monitor.update(1, loss=0.5)
    monitor.update(2, loss=0.25)
    monitor.close()
    return [widgets.StrideExplorer(torch.arange(6.).view(2, 3)), widgets.BroadcastExplorer((3, 1), (4,)), graph,
            widgets.ModuleExplorer(nn.Sequential(nn.Linear(2, 3), nn.ReLU())), monitor]


def test_the_widgets_speak_chinese_in_course_zh(monkeypatch):
    """In a Chinese lesson every widget's stored picture (its alt text and HTML) and its summary are
    Chinese; the same widgets in an English lesson have no Chinese at all."""
    pytest.importorskip("ipywidgets")
    import re
    chinese = re.compile("[\u4e00-\u9fff]")
    import base64

    def shown(widget):   # the HTML, the summary, and the text of every stored drawing
        html = widget.to_html()
        drawings = [base64.b64decode(d).decode("utf-8") for d in re.findall(r"base64,([A-Za-z0-9+/=]+)", html)]
        return "\n".join([html, widget.summary(), *drawings])

    monkeypatch.setenv("TENSORLAB_LANG", "en")
    for widget in _five_widgets():
        assert not chinese.search(shown(widget)), type(widget).__name__
    monkeypatch.setenv("TENSORLAB_LANG", "zh")
    for widget in _five_widgets():
        assert chinese.search(shown(widget)), f"{type(widget).__name__} drew no Chinese"
    assert "广播 2 个形状" in shown(_five_widgets()[1])
