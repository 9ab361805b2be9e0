"""House rules for the lesson notebooks. nbval (run by `make test` on course/) checks that stored
outputs match a fresh run; these tests check that what is stored came from a clean build."""
import importlib.util
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "course"


def _build_module():
    spec = importlib.util.spec_from_file_location("course_build", ROOT / "tools" / "build_course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _build_module()
LESSONS = build.lessons()
CHINESE = sorted((COURSE / "zh").glob(build.LESSON_GLOB))   # the Chinese edition (tools/translate.py)
EDITIONS = LESSONS + CHINESE


def _name(path):
    return path.relative_to(COURSE).as_posix() if COURSE in path.parents else path.name


def _code_cells(path):
    nb = nbformat.read(path, as_version=4)
    return nb, [c for c in nb.cells if c.cell_type == "code"]


def test_the_course_has_a_welcome_lesson():
    assert COURSE / "00_welcome.ipynb" in LESSONS


def test_lesson_file_names_are_numbered_and_unique():
    numbers = [p.name[:2] for p in LESSONS]
    assert len(numbers) == len(set(numbers)), f"two lessons share a number: {numbers}"
    for p in LESSONS:
        assert re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", p.name), p.name


@pytest.mark.parametrize("path", EDITIONS, ids=_name)
def test_lesson_is_stored_as_built_top_to_bottom(path):
    """Outputs come from `python tools/build_course.py`: one run, every cell in order, none failed."""
    nb, cells = _code_cells(path)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    ran = [c for c in cells if c.source.strip() and "NBVAL_SKIP" not in c.source]
    assert [c.execution_count for c in ran] == list(range(1, len(ran) + 1)), \
        f"{path.name}: execution counts are not 1..n -- rebuild with `make lessons LESSON={path}`"
    errors = [o for c in cells for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name} stores an error: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    assert any(c.outputs for c in cells), f"{path.name} is stored without outputs"


@pytest.mark.parametrize("path", EDITIONS, ids=_name)
def test_lesson_seeds_before_anything_else(path):
    _, cells = _code_cells(path)
    assert "manual_seed(" in cells[0].source, f"{path.name}: the first code cell must seed the generator"


@pytest.mark.parametrize("path", EDITIONS, ids=_name)
def test_lesson_has_a_title(path):
    assert build.title(path) != path.stem, f"{path.name}: its first Markdown cell needs a '# ' heading"


@pytest.mark.parametrize("readme", sorted(build.INDEXES), ids=lambda p: str(p.relative_to(ROOT)))
def test_readme_lists_every_lesson(readme):
    text = readme.read_text(encoding="utf-8")
    begin, end = text.index(build.BEGIN), text.index(build.END)
    expected = (build.course_index if readme in build.DETAILED else build.lesson_index)(build.INDEXES[readme])
    assert text[begin + len(build.BEGIN):end].strip() == expected, \
        f"{readme.name}'s lesson list is stale: run `python tools/build_course.py --index`"


@pytest.mark.parametrize("path", [p for p in LESSONS if p.name != "00_welcome.ipynb"], ids=lambda p: p.name)
def test_lesson_states_its_goals_for_the_course_index(path):
    facts = build.facts(path)
    assert len(facts["goals"]) >= 2, f"{path.name}: its first cell needs '**You will learn to**' and goals"
    assert facts["minutes"] >= 5


def test_build_merges_a_print_split_into_chunks():
    """A busy kernel may deliver one print as two stream messages; the stored lesson must not
    depend on that."""
    outputs = [nbformat.v4.new_output("stream", name="stdout", text="step 1\nst"),
               nbformat.v4.new_output("stream", name="stdout", text="ep 2\n"),
               nbformat.v4.new_output("stream", name="stderr", text="warning\n"),
               nbformat.v4.new_output("execute_result", data={"text/plain": "3"}, execution_count=1),
               nbformat.v4.new_output("stream", name="stdout", text="after\n")]
    merged = build._merge_streams(outputs)
    assert [(o.output_type, o.get("name"), o.get("text")) for o in merged] == [
        ("stream", "stdout", "step 1\nstep 2\n"), ("stream", "stderr", "warning\n"),
        ("execute_result", None, None), ("stream", "stdout", "after\n")]


def test_build_stores_no_live_widget_view():
    """A stored widget view can only break (no kernel holds its model); its picture stays."""
    view = {build.WIDGET_VIEW: {"model_id": "9f" * 16, "version_major": 2}}
    outputs = [nbformat.v4.new_output("display_data", data={**view, "text/plain": "GraphExplorer",
                                                              "text/html": "<img src='data:...'>"}),
               nbformat.v4.new_output("display_data", data=dict(view)),
               nbformat.v4.new_output("stream", name="stdout", text="after\n")]
    kept = build._without_widget_views(outputs)
    assert [sorted(o.get("data", {})) for o in kept] == [["text/html", "text/plain"], []]
    assert kept[1].text == "after\n"


DEMOS = sorted((ROOT / "widgets" / "demos").glob("*.ipynb"))
STORED = EDITIONS + DEMOS


def _outputs(path):
    nb = nbformat.read(path, as_version=4)
    for number, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            yield number, out


@pytest.mark.parametrize("path", STORED, ids=_name)
def test_every_stored_picture_displays_untrusted(path):
    """JupyterLab sanitizes the HTML of a notebook it did not run (every lesson a learner opens
    first, on JupyterHub and Binder too): an inline ``<svg>`` is stripped to run-together text and
    an ``image/svg+xml`` output is refused. A drawing is stored as ``<img src="data:image/svg+xml;
    base64,...">`` or PNG instead, which shows untrusted, on GitHub and in nbviewer."""
    nb = nbformat.read(path, as_version=4)
    assert "widgets" not in nb.metadata, f"{path.name} stores widget state: rebuild it"
    for number, out in _outputs(path):
        data = out.get("data", {})
        where = f"{path.name} cell {number}"
        assert build.WIDGET_VIEW not in data, f"{where} stores a live widget view (broken once trusted)"
        assert "image/svg+xml" not in data, f"{where}: image/svg+xml is refused untrusted"
        html = "".join(data.get("text/html", ""))
        assert "<svg" not in html, f"{where}: inline <svg> in text/html is stripped untrusted"
        assert "<script" not in html and "<style" not in html, f"{where}: sanitized away untrusted"


@pytest.mark.parametrize("path", STORED, ids=_name)
def test_stored_notebooks_stay_small(path):
    size = path.stat().st_size
    assert size < 250_000, f"{path.name} is {size // 1000} kB: a drawing is stored too often or too big"


_SOURCE_PATH = re.compile(r"(?<![\w/.(\[])((?:tensorlab|widgets|coursekit)/[\w/]*\.py)\b")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("path", EDITIONS, ids=_name)
def test_every_source_file_a_lesson_names_opens_from_it(path):
    """"Read the source" must be one click: each file path in a lesson's prose is a Markdown link,
    relative to the lesson (JupyterLab, opened at the repository root by `make lab`, opens it in a
    tab; so does GitHub), and every relative link leads to a file that exists."""
    nb = nbformat.read(path, as_version=4)
    for number, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        text = cell.source
        for target in _LINK.findall(text):
            if "://" in target or target.startswith("#"):
                continue
            file = (path.parent / target.split("#")[0]).resolve()
            assert file.exists(), f"{path.name} cell {number}: the link to {target} leads nowhere"
        bare = _SOURCE_PATH.findall(_LINK.sub("", text))
        assert not bare, f"{path.name} cell {number}: {bare} named without a link to open it"
