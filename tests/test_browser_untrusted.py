"""What a learner meets first: every lesson and widget demo opened in a fresh JupyterLab, *before*
it runs and untrusted (as on JupyterHub, Binder, or a fresh clone), must show its stored pictures;
after "Trust Notebook" none turns into a broken-widget icon; and a lesson's "read the source" link
opens the file in the lab.

JupyterLab sanitizes the HTML of a notebook it did not run itself: an inline ``<svg>`` is stripped
to run-together text, ``image/svg+xml`` is refused. Lessons store drawings as
``<img src="data:image/svg+xml;base64,...">`` or PNG (tests/test_notebooks.py checks the files);
this test checks that the browser really shows them. Screenshots of the pictures go to
test-results/untrusted/ (look at them after a change to a widget's drawing).

Needs Debian's Chromium and the Playwright package, like tests/test_browser.py; skipped without.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import test_browser as lab   # the JupyterLab and Chromium helpers

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "test-results" / "untrusted"


TRUSTED = "course/07_the_backward_graph.ipynb"   # the one notebook the lab below has been told to trust
STORED = sorted(p.relative_to(ROOT).as_posix() for p in
                list((ROOT / "course").glob("[0-9][0-9]_*.ipynb")) + list((ROOT / "course" / "zh").glob("[0-9][0-9]_*.ipynb"))
                + list((ROOT / "widgets" / "demos").glob("*.ipynb")))


def stored_pictures(path):
    """How many pictures the stored notebook's outputs hold: ``<img>`` tags in HTML, and PNG or
    JPEG outputs (which JupyterLab shows as an image only when the output has no HTML)."""
    count = 0
    for cell in json.loads((ROOT / path).read_text(encoding="utf-8"))["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "text/html" in data:
                count += "".join(data["text/html"]).count("<img")
            elif "image/png" in data or "image/jpeg" in data:
                count += 1
    return count


def shot_name(path):
    """``01_tensors``, ``zh-01_tensors``: one screenshot name per notebook of either edition."""
    parts = Path(path).parts
    return ("zh-" if "zh" in parts else "") + Path(path).stem


@pytest.fixture(scope="module")
def untrusted_lab():
    if lab._chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with lab.jupyterlab(trusted=[TRUSTED]) as (base, token, root_dir), sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=lab._chromium(), args=lab.CHROMIUM_ARGS)
        try:
            yield browser, base, token
        finally:
            browser.close()


def open_without_running(browser, base, token, path):
    """A page with ``path`` opened and rendered, no cell run."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(f"{base}/lab/tree/{path}?reset&token={token}")
    notebook = page.locator(".jp-NotebookPanel").first
    notebook.wait_for(state="attached")
    cells = len(json.loads((ROOT / path).read_text(encoding="utf-8"))["cells"])
    page.wait_for_function("n => document.querySelectorAll('.jp-NotebookPanel .jp-Cell').length >= n", arg=cells)
    return page, notebook


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in STORED if p != TRUSTED])
def test_opened_untrusted_every_stored_picture_displays(untrusted_lab, path):
    browser, base, token = untrusted_lab
    page, notebook = open_without_running(browser, base, token, path)
    try:
        expected = stored_pictures(path)
        images = notebook.locator(".jp-OutputArea-output img")
        page.wait_for_function("n => document.querySelectorAll('.jp-OutputArea-output img').length >= n",
                               arg=expected)
        assert images.count() == expected, f"{path}: {images.count()} of {expected} pictures shown"
        RESULTS.mkdir(parents=True, exist_ok=True)
        for k in range(expected):
            image = images.nth(k)
            image.scroll_into_view_if_needed()
            page.wait_for_function("img => img.complete", arg=image.element_handle())
            size = image.evaluate("img => [img.naturalWidth, img.naturalHeight]")
            assert size[0] > 0 and size[1] > 0, f"{path}: picture {k + 1} is stored but does not decode"
            if k < 4:
                image.screenshot(path=str(RESULTS / f"{shot_name(path)}-{k + 1}.png"))
        text = notebook.inner_text()
        assert "Error displaying widget" not in text
    finally:
        page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_trusted_lesson_shows_no_broken_widget(untrusted_lab):
    """After "Trust Notebook" a stored lesson must still show pictures, not broken-widget icons
    (a stored widget view with no kernel behind it shows one; lessons store none)."""
    browser, base, token = untrusted_lab
    path = TRUSTED
    page, notebook = open_without_running(browser, base, token, path)
    try:
        page.wait_for_function("n => document.querySelectorAll('.jp-OutputArea-output img').length >= n",
                               arg=stored_pictures(path))
        page.wait_for_timeout(1500)   # a stored widget view, if one were left, would render by now
        assert notebook.locator(".jp-OutputArea-output img").count() == stored_pictures(path)
        assert "Error displaying widget" not in notebook.inner_text()
        assert notebook.locator(".jupyter-widgets-disconnected, .jupyter-widgets .widget-error").count() == 0
        notebook.locator(".jp-OutputArea-output img").first.scroll_into_view_if_needed()
        RESULTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(RESULTS / "trusted-07.png"))
    finally:
        page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_read_the_source_link_opens_the_file(untrusted_lab):
    browser, base, token = untrusted_lab
    page, notebook = open_without_running(browser, base, token, "course/02_storage_and_strides.ipynb")
    try:
        link = notebook.locator(".jp-RenderedMarkdown a", has_text="tensorlab/storage.py").first
        link.scroll_into_view_if_needed()
        link.click()
        editor = page.locator(".jp-FileEditor").first
        editor.wait_for()
        page.get_by_role("tab", name="storage.py").first.wait_for()
        page.wait_for_function("() => document.querySelector('.jp-FileEditor').innerText.includes('UntypedStorage')")
        RESULTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(RESULTS / "source-link.png"))
    finally:
        page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_chinese_lesson_renders_its_characters(untrusted_lab):
    """The Chinese edition needs a CJK font where the browser runs (Debian: fonts-noto-cjk, which
    .ci/run installs): without one every character draws as the same empty box. Two different
    characters drawn with the lesson's own font must therefore differ, pixel for pixel."""
    browser, base, token = untrusted_lab
    page, notebook = open_without_running(browser, base, token, "course/zh/01_tensors.ipynb")
    try:
        heading = notebook.locator(".jp-RenderedMarkdown h1").first
        heading.wait_for()
        assert "张量" in heading.inner_text()
        same = heading.evaluate("""h => {
            const font = getComputedStyle(h).font, draw = ch => {
                const c = document.createElement('canvas'); c.width = c.height = 64;
                const g = c.getContext('2d'); g.font = font; g.fillText(ch, 4, 48);
                return Array.from(g.getImageData(0, 0, 64, 64).data).join(); };
            return draw('张') === draw('量'); }""")
        RESULTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(RESULTS / "zh-01_tensors-page.png"))
        assert not same, "Chinese characters draw as identical boxes: install a CJK font (fonts-noto-cjk)"
    finally:
        page.close()
