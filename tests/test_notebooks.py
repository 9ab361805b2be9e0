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


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
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


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lesson_seeds_before_anything_else(path):
    _, cells = _code_cells(path)
    assert "manual_seed(" in cells[0].source, f"{path.name}: the first code cell must seed the generator"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
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


def test_build_numbers_widget_models_in_order():
    import json
    ids = ["9f" * 16, "0a" * 16]
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "state": {ids[0]: {"state": {"children": [f"IPY_MODEL_{ids[1]}"]}}, ids[1]: {"state": {}}}}}
    nb.cells = [nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
        "display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": ids[0]}})])]
    text = build._number_widget_models(nbformat.writes(nb))
    state = json.loads(text)["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    first, second = "0" * 31 + "1", "0" * 31 + "2"
    assert list(state) == [first, second] and state[first]["state"]["children"] == [f"IPY_MODEL_{second}"]
    assert ids[0] not in text and ids[1] not in text
