"""Lessons and widget demos in a real JupyterLab, in headless Chromium: open, run all cells, look.

The welcome lesson must show its outputs; every widget demo (widgets/demos/) must render its widgets
(no "Error displaying widget", no JavaScript errors) and redraw when clicked. Screenshots of each go
to test-results/ (the README's gallery is made from them).

Needs Debian's Chromium (``apt-get install chromium``) and the Playwright Python package (the dev
extra); Playwright's own browser download is never used. Skipped cleanly when either is missing.

The same code makes the README's screenshot and its gallery of widgets:

    .venv/bin/python tests/test_browser.py --screenshot docs/screenshot.png --gallery docs/gallery
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "course"
DEMOS = ROOT / "widgets" / "demos"
RESULTS = ROOT / "test-results"
LESSON = "course/00_welcome.ipynb"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# JupyterLab user settings: render every cell (4.x only renders cells near the viewport by
# default), and no update or news checks (there is no network to ask).
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"checkForUpdates": False, "fetchNews": "false"},
}


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# What a learner's JupyterLab shows (`make lab` opens the repository root): the lessons, the widget
# demos and the source files the lessons link to.
LEARNER_FOLDERS = ("course", "tensorlab", "widgets", "coursekit")


@contextlib.contextmanager
def jupyterlab(timeout=90, trusted=()):
    """A fresh JupyterLab server on a free local port, with its own HOME and config (so nothing is
    trusted but the notebooks named in ``trusted``, as "Trust Notebook" would), serving a temporary copy of the repository's learner-facing folders (so autosave
    never touches the stored lessons) at its root, as `make lab` does; yields (base_url, token,
    root_dir). Stopped, and its temporary folder removed, on exit."""
    port, token = _free_port(), secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="tensorlab-lab-") as tmp:
        tmp = Path(tmp)
        root_dir = tmp / "tensorlab"
        ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
        for name in LEARNER_FOLDERS:
            shutil.copytree(ROOT / name, root_dir / name, ignore=ignore)
        for relative, values in LAB_SETTINGS.items():
            path = tmp / "lab-settings" / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        env = dict(os.environ, HOME=str(tmp), JUPYTER_CONFIG_DIR=str(tmp / "config"),
                   JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(tmp / "lab-settings"),
                   JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        for notebook in trusted:
            subprocess.run([sys.executable, "-m", "jupyter", "trust", str(root_dir / notebook)], env=env,
                           check=True, capture_output=True)
        command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
                   "--ServerApp.ip=127.0.0.1", f"--ServerApp.token={token}", "--ServerApp.port_retries=0",
                   f"--ServerApp.root_dir={root_dir}", "--allow-root"]
        log = open(tmp / "server.log", "wb")
        server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                if server.poll() is not None:
                    raise RuntimeError("jupyter lab exited:\n" + (tmp / "server.log").read_text(errors="replace"))
                try:
                    with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"jupyter lab did not answer within {timeout} s")
                    time.sleep(0.5)
            yield base, token, root_dir
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()


def run_lesson(page, base, token, lesson=LESSON, timeout_ms=90_000):
    """Open ``lesson`` in JupyterLab, run all its cells and wait until the last one has output."""
    page.set_default_timeout(timeout_ms)
    page.goto(f"{base}/lab/tree/{lesson}?reset&token={token}")
    notebook = page.locator(".jp-NotebookPanel").first
    notebook.wait_for(state="attached")
    # the kernel is ready when the toolbar shows its name and the status reads idle
    page.locator(".jp-NotebookPanel-toolbar").get_by_text("Python 3", exact=False).first.wait_for()
    page.locator(".jp-NotebookPanel-toolbar [data-status='idle']").first.wait_for(state="attached")
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    cells = notebook.locator(".jp-CodeCell")
    last = cells.last
    # a finished code cell shows its execution count in the prompt, e.g. "[13]:"
    count = cells.count()
    last.locator(".jp-InputPrompt", has_text=f"[{count}]").wait_for()
    return notebook


@pytest.mark.browser
def test_welcome_lesson_runs_in_jupyterlab():
    if _chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with jupyterlab() as (base, token, _), sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            notebook = run_lesson(page, base, token)
            outputs = notebook.locator(".jp-OutputArea-output")
            assert "grad_fn=<SumBackward0>" in " ".join(outputs.all_inner_texts())
            last_output = notebook.locator(".jp-CodeCell").last.locator(".jp-OutputArea-output")
            assert last_output.inner_text().strip() == "(tensor([4., 5.]), tensor([2., 3.]))"
            assert notebook.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        finally:
            browser.close()


def _graph_explorer(page):
    """Reset the replay, then Step: the panel says what the engine did first, and the drawing is there."""
    view = page.locator(".tensorlab-graph-explorer").first
    view.scroll_into_view_if_needed()
    panel = view.locator(".tensorlab-panel")
    view.get_by_role("button", name="Reset", exact=True).click()
    panel.get_by_text("step 0 of ", exact=False).wait_for(timeout=10_000)
    view.get_by_role("button", name="Step", exact=True).click()
    panel.get_by_text("backward pass 1 starts", exact=False).wait_for(timeout=10_000)
    assert "step 1 of " in panel.inner_text() and "<svg" in view.inner_html()
    for step in range(2, 11):   # on into the pass: a node has run and the diamond's leaf is waiting
        view.get_by_role("button", name="Step", exact=True).click()
        panel.get_by_text(f"step {step} of ", exact=False).wait_for(timeout=10_000)
    assert "received" in panel.inner_text()
    return view


def _select_then_transpose(view, expression, index, position, formula):
    """StrideExplorer: click element ``index`` of ``expression``; its storage cell and the filled-in
    ``formula`` appear. Then the t() button makes a transposed view."""
    view.scroll_into_view_if_needed()
    view.get_by_title(f"{expression}{index}", exact=True).click()
    view.get_by_text(f"{expression}{index} is storage[{position}]:").wait_for(timeout=10_000)
    assert formula in view.inner_html()
    view.get_by_role("button", name="t()", exact=True).click()
    view.get_by_text(f"{expression}.t()", exact=True).first.wait_for(timeout=10_000)
    return view


def _select_then_gradients(view, cell, formula, gradient):
    """BroadcastExplorer: click result ``cell``; the ``formula`` naming the stored elements it reads
    appears. Then the Gradients toggle runs a real backward and shows ``gradient``."""
    view.scroll_into_view_if_needed()
    view.get_by_title(cell, exact=True).click()
    view.get_by_text(formula, exact=False).wait_for(timeout=10_000)
    view.get_by_role("button", name="Gradients", exact=True).click()
    view.get_by_text(gradient).wait_for(timeout=10_000)
    return view


def _stride_explorer(page):
    """Click element [1, 2] of y[::2, 1:]: its storage cell and the filled-in formula appear; then
    the t() button makes a transposed view."""
    view = page.locator(".tensorlab-stride-explorer").last      # the demo's last one: y[::2, 1:]
    assert "is storage[" not in view.locator(".widget-html svg").first.inner_html()
    return _select_then_transpose(view, "y[::2, 1:]", "[1, 2]", 11,
                                  "offset + i*stride[0] + j*stride[1] = 1 + 1*8 + 2*1 = 11")


def _broadcast_explorer(page):
    """Click element [2, 1] of x + bias: the formula names the stored elements it reads; then the
    Gradients toggle runs a real backward."""
    view = page.locator(".tensorlab-broadcast-explorer").last   # the demo's last one: x + bias
    return _select_then_gradients(view, "(x + bias)[2, 1]", "(x + bias)[2, 1] = x[2, 1] + bias[1] =",
                                  "bias.grad == ones(4, 3).sum(dim=0): True")


def _module_explorer(page):
    """Untick one parameter's requires_grad: its subtree's trainable count drops; an unknown name
    typed into the box shows PyTorch's AttributeError inline."""
    view = page.locator(".jupyter-widgets.tensorlab-module-explorer").first
    view.scroll_into_view_if_needed()
    view.get_by_title("requires_grad of classifier.1.weight", exact=True).click()
    view.get_by_text("18,814 params, 11,134 trainable", exact=False).first.wait_for(timeout=10_000)
    view.locator("input[type=text]").fill("features.7")
    view.get_by_role("button", name="Freeze", exact=True).click()
    view.locator(".tensorlab-error").get_by_text("Sequential has no attribute `7`", exact=False).wait_for(
        timeout=10_000)
    return view


def _training_monitor(page):
    """A finished run: the progress line reached the end and the summary figure is drawn (live
    redraws depend on time, so they are not clicked through here)."""
    view = page.locator(".jupyter-widgets.tensorlab-training-monitor").first
    view.scroll_into_view_if_needed()
    assert view.locator("pre").first.inner_text().startswith("100%|")
    assert view.locator("svg, img[src^='data:image/svg+xml']").count() >= 1
    return view


# demo notebook -> what a learner would click, and how to tell the widget responded
WIDGET_DEMOS = {
    "broadcast_explorer.ipynb": _broadcast_explorer,
    "module_explorer.ipynb": _module_explorer,
    "training_monitor.ipynb": _training_monitor,
    "graph_explorer.ipynb": _graph_explorer,
    "stride_explorer.ipynb": _stride_explorer,
}


def _lesson_02(page):
    """Click an element of x[1:, 1:]: its storage cell and position formula appear."""
    return _select_then_transpose(page.locator(".tensorlab-stride-explorer").first, "x[1:, 1:]", "[0, 2]", 7,
                                  "= 5 + 0*4 + 2*1 = 7")


def _lesson_03(page):
    """A view with the wrong number of elements shows PyTorch's error inline; a result cell of the
    broadcast names the stored elements it reads; the Gradients toggle runs a real backward."""
    strides = page.locator(".tensorlab-stride-explorer").first
    strides.scroll_into_view_if_needed()
    strides.locator("input[type=text]").first.fill("view(5)")
    strides.get_by_role("button", name="Apply", exact=True).click()
    strides.locator(".tensorlab-error").get_by_text("is invalid for input of size", exact=False).wait_for(
        timeout=10_000)
    return _select_then_gradients(page.locator(".tensorlab-broadcast-explorer").first, "(a + b)[2, 3]",
                                  "(a + b)[2, 3] = a[2, 0] + b[3] =",
                                  "a.grad == ones(3, 4).sum(dim=1, keepdim=True): True")


def _lesson_07(page):
    """The diamond's explorer: one Step moves the replay on by one engine event."""
    view = page.locator(".tensorlab-graph-explorer").first
    view.scroll_into_view_if_needed()
    panel = view.locator(".tensorlab-panel")
    position = lambda: int(re.search(r"step (\d+) of", panel.inner_text()).group(1))  # noqa: E731
    before = position()
    button = "Back" if before > 0 else "Step"
    view.get_by_role("button", name=button, exact=True).click()
    expected = before - 1 if button == "Back" else before + 1
    view.get_by_text(f"step {expected} of ", exact=False).first.wait_for(timeout=10_000)
    return view


def _lesson_11(page):
    """Untick a subtree's requires_grad: the explorer's heading counts fewer trainable parameters."""
    view = page.locator(".jp-OutputArea-output .tensorlab-module-explorer").first
    view.scroll_into_view_if_needed()
    heading = view.locator(".widget-html").first
    before = heading.inner_text()
    view.get_by_title("requires_grad of body", exact=True).click()
    page.wait_for_function("([el, before]) => el.innerText !== before", arg=[heading.element_handle(), before],
                           timeout=10_000)
    assert "trainable" in heading.inner_text()
    return view


def _lesson_20(page):
    """The finished monitor shows its progress line and chart; "Train 50 more steps" trains on and
    the monitor's line counts the new steps."""
    view = page.locator(".jupyter-widgets.tensorlab-training-monitor").first
    view.scroll_into_view_if_needed()
    assert view.locator("pre").first.inner_text().startswith("100%|")
    assert view.locator("svg, img[src^='data:image/svg+xml']").count() >= 1
    page.get_by_role("button", name="Train 50 more steps", exact=True).click()
    view.get_by_text("200/200", exact=False).first.wait_for(timeout=30_000)
    return view


# lesson -> the click that shows its widgets respond (issues 9 and 10 name these lessons)
LESSON_WIDGETS = {
    "20_watching_training.ipynb": _lesson_20,
    "02_storage_and_strides.ipynb": _lesson_02,
    "03_views_and_broadcasting.ipynb": _lesson_03,
    "07_the_backward_graph.ipynb": _lesson_07,
    "11_modules_and_parameters.ipynb": _lesson_11,
}


@pytest.fixture(scope="module")
def browser_page():
    """One JupyterLab (lessons + demos/) and one headless Chromium for the module's tests."""
    if _chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with jupyterlab() as (base, token, root_dir), sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            yield browser, base, token, root_dir
        finally:
            browser.close()


def run_demo(browser, base, token, path, interact, out_dir=RESULTS):
    """Open the notebook at ``path`` (a widget demo or a lesson), run it, check its widgets rendered,
    click through ``interact(page)`` (which returns the widget it used) and save two pictures in
    ``out_dir``: that widget (``<name>.png``, the README's gallery) and the page (``<name>-page.png``).
    Returns the JavaScript errors the page logged about widgets."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        notebook_panel = run_lesson(page, base, token, lesson=path)
        views = notebook_panel.locator(".jp-OutputArea-output .widget-box, .jp-OutputArea-output .widget-html")
        views.first.wait_for(state="attached")
        assert "Error displaying widget" not in notebook_panel.inner_text()
        assert notebook_panel.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        view = interact(page)
        out_dir.mkdir(parents=True, exist_ok=True)
        view.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        name = Path(path).stem
        view.screenshot(path=str(out_dir / f"{name}.png"))
        page.screenshot(path=str(out_dir / f"{name}-page.png"))
        return [e for e in errors if "widget" in e.lower() or "Uncaught" in e]
    finally:
        page.close()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("notebook", sorted(WIDGET_DEMOS))
def test_widget_demo_renders_and_responds(browser_page, notebook):
    browser, base, token, _ = browser_page
    widget_errors = run_demo(browser, base, token, f"widgets/demos/{notebook}", WIDGET_DEMOS[notebook])
    assert not widget_errors, widget_errors


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("lesson", sorted(LESSON_WIDGETS))
def test_lesson_widgets_render_and_respond(browser_page, lesson):
    browser, base, token, _ = browser_page
    widget_errors = run_demo(browser, base, token, f"course/{lesson}", LESSON_WIDGETS[lesson])
    assert not widget_errors, widget_errors


def gallery(out_dir):
    """Pictures of every widget demo after its interaction, for the README's gallery."""
    from playwright.sync_api import sync_playwright
    with jupyterlab() as (base, token, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            for notebook in sorted(WIDGET_DEMOS):
                run_demo(browser, base, token, f"widgets/demos/{notebook}", WIDGET_DEMOS[notebook], out_dir)
                (out_dir / notebook.replace(".ipynb", "-page.png")).unlink()
        finally:
            browser.close()


def screenshot(path):
    """Save a picture of JupyterLab with the welcome lesson run, for the README."""
    from playwright.sync_api import sync_playwright
    with jupyterlab() as (base, token, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1080})
            notebook = run_lesson(page, base, token)
            # show a view sharing memory and the autograd example
            notebook.locator(".jp-Cell").nth(10).evaluate("cell => cell.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(500)
            page.screenshot(path=str(path))
        finally:
            browser.close()


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description="Screenshots of the course in JupyterLab, for the README")
    parser.add_argument("--screenshot", type=Path, help="PNG file to write: the welcome lesson")
    parser.add_argument("--gallery", type=Path, help="folder to write a picture of each widget into")
    args = parser.parse_args()
    if args.screenshot:
        screenshot(args.screenshot)
    if args.gallery:
        gallery(args.gallery)
