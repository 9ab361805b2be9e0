"""The static figures in course/figures/ are drawn by tools/figures.py: deterministic, fresh, plain
SVG that a browser can show as an image, embedded in the lessons that show them as Markdown images
by reference whose definition is the drawing as a data URI (so they display on GitHub too)."""
import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("course_figures", ROOT / "tools" / "figures.py")
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)


@pytest.mark.parametrize("name", sorted(figures.DRAWINGS))
def test_a_figure_is_drawn_the_same_twice_and_stored_fresh(name):
    draw = figures.DRAWINGS[name]
    svg = draw()
    assert svg == draw()
    stored = figures.FIGURES / name
    assert stored.exists() and stored.read_text(encoding="utf-8") == svg, \
        f"course/figures/{name} is stale: run `python tools/figures.py`"
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")
    assert "<script" not in svg and "<foreignObject" not in svg


def test_the_course_map_shows_every_lesson_in_order():
    rows = [(0, "Welcome", 10), (1, "Tensors: creation", 45), (21, "Sequences", 30)]
    svg = figures.course_map(rows)
    numbers = re.findall(r'font-weight="bold" fill="#222222">(\d\d)</text>', svg)
    assert numbers == ["00", "01", "21"]
    assert "~45 min" in svg and ">Tensors</text>" in svg


def test_every_figure_a_lesson_shows_is_embedded_fresh():
    """``![...][name]`` in a lesson's Markdown needs ``[name]: data:image/svg+xml;base64,...`` in the
    same cell, holding today's drawing of course/figures/<name>.svg (``python tools/figures.py``)."""
    nbformat = pytest.importorskip("nbformat")
    drawings = {Path(name).stem: figures.data_uri(draw()) for name, draw in figures.DRAWINGS.items()}
    shown = set()
    for path in sorted((ROOT / "course").glob("[0-9][0-9]_*.ipynb")):
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type != "markdown":
                continue
            where = f"{path.name} cell {number}"
            assert "](figures/" not in cell.source, f"{where}: a file beside the lesson does not show on GitHub"
            defined = {m.group(1): m.group(0).split(": ", 1)[1] for m in figures.DEFINITION.finditer(cell.source)}
            for name in re.findall(r"!\[(?:[^\[\]]|\[[^\]]*\])*\]\[(\w+)\]", cell.source):
                assert name in drawings, f"{where}: no figure named {name}"
                assert defined.get(name) == drawings[name], f"{where}: {name} is stale: run `python tools/figures.py`"
                shown.add(name)
    assert shown, "no lesson shows a figure"


SHOWN_IN = ["course/00_welcome.ipynb", "course/02_storage_and_strides.ipynb", "course/06_autograd_basics.ipynb"]


@pytest.mark.browser
@pytest.mark.slow
def test_the_figures_display_in_a_lesson_opened_untrusted():
    """Opened before it runs, untrusted (as a learner first meets it), a lesson shows its figures:
    the Markdown image's data URI survives JupyterLab's sanitizer and the SVG decodes. Screenshots go
    to test-results/figures/."""
    from tests import test_browser as lab   # the JupyterLab and Chromium helpers
    if lab._chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    results = ROOT / "test-results" / "figures"
    results.mkdir(parents=True, exist_ok=True)
    with lab.jupyterlab() as (base, token, _), sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=lab._chromium(), args=lab.CHROMIUM_ARGS)
        try:
            for path in SHOWN_IN:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(60_000)
                page.goto(f"{base}/lab/tree/{path}?reset&token={token}")
                images = page.locator(".jp-RenderedMarkdown img[src^='data:image/svg+xml']")
                images.first.wait_for(state="attached")
                for k in range(images.count()):
                    image = images.nth(k)
                    image.scroll_into_view_if_needed()
                    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
                    image.screenshot(path=str(results / f"{Path(path).stem}-{k + 1}.png"))
                page.close()
        finally:
            browser.close()
