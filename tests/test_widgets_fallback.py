"""What a notebook stores for every widget, as JupyterLab shows it untrusted and as nbval compares it.

An untrusted notebook's HTML is sanitized: inline <svg> is stripped and image/svg+xml refused, but an
<img> whose src is a data: URI of the SVG is shown. So no stored fallback may hold <svg> (or <style>,
<script>); each drawing must be an <img> that decodes to valid SVG. Charts of measured numbers carry
the marker tools/sanitize.cfg masks, and their text -- what nbval then compares -- is rounded."""
import base64
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tensorlab as torch
from tensorlab import nn

pytest.importorskip("ipywidgets")
pytest.importorskip("networkx")
from widgets import BroadcastExplorer, GraphExplorer, ModuleExplorer, StrideExplorer, TrainingMonitor  # noqa: E402
from widgets._chart import chart_alt, line_chart  # noqa: E402
from widgets._svg import svg_img  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
IMG = re.compile(r'<img (data-measured="true" )?src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)" alt="([^"]*)"')


def images(html):
    """Every drawing in ``html``: (measured?, the SVG text, the alt text)."""
    return [(bool(m), base64.b64decode(data).decode("utf-8"), alt) for m, data, alt in IMG.findall(html)]


def sanitize(text):
    """What nbval compares: ``text`` after the substitutions of tools/sanitize.cfg."""
    lines = [line for line in (ROOT / "tools" / "sanitize.cfg").read_text().splitlines() if line.strip()]
    pairs = [(a[len("regex: "):], b[len("replace: "):]) for a, b in zip(lines, lines[1:])
             if a.startswith("regex: ") and b.startswith("replace: ")]
    for regex, replace in pairs:
        text = re.sub(regex, replace, text)
    return text


def _graphs():
    a = torch.tensor([1., 2.], requires_grad=True)
    loss = (a * 2 + a * 3).sum()
    g = GraphExplorer(loss, params={"a": a}, show_saved=True)
    g.backward()
    g.goto(9)
    with GraphExplorer.record() as recorded:
        (a.exp() * a).sum().backward()
    return [g, recorded]


def _monitor(noise=0.0, close=True):
    m = TrainingMonitor(metrics=("loss", "accuracy"), total=30)
    for step in range(30):
        m.update(step, loss=1.0 / (step + 1) + 0.0123456 + noise)
        if step % 10 == 9:
            m.update(step, test_accuracy=0.5 + step / 70 + noise)
    if close:
        m.close()
    return m


def _widgets():
    stride = StrideExplorer(torch.arange(12.).view(3, 4))
    stride.apply("[1:, 1:]")
    stride.select(1, 2)
    written = StrideExplorer(torch.arange(6.).view(2, 3))
    written.write((0, 1), 100.)
    broadcast = BroadcastExplorer((3, 1), (4,))
    broadcast.select(1, 2)
    module = ModuleExplorer(nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)))
    module.freeze("0.weight")
    return {"stride": stride, "stride-written": written, "broadcast": broadcast,
            "broadcast-error": BroadcastExplorer((2, 3), (2,)), "broadcast-large": BroadcastExplorer((8, 1, 6, 1), (7, 1, 5)),
            "graph": _graphs()[0], "graph-recorded": _graphs()[1], "module": module,
            "monitor": _monitor(), "monitor-empty": TrainingMonitor()}


@pytest.mark.parametrize("name", list(_widgets()))
def test_stored_fallback_has_no_inline_svg_and_its_images_are_valid_svg(name):
    widget = _widgets()[name]
    bundle = widget._repr_mimebundle_()
    html = bundle["text/html"]
    for forbidden in ("<svg", "<style", "<script", "image/svg+xml;utf8"):
        assert forbidden not in html
    found = images(html)
    assert len(found) == html.count("<img ")                    # every image is of the one form
    for _, svg, alt in found:
        root = ET.fromstring(svg)                                 # well-formed XML ...
        assert root.tag == "{http://www.w3.org/2000/svg}svg"      # ... and an SVG document
        assert float(root.get("width")) > 0 and alt.strip()
    assert "application/vnd.jupyter.widget-view+json" in bundle  # the live view is still sent
    if name not in ("module", "monitor-empty"):
        assert found, "the drawing is embedded"
    if name != "monitor":                                         # deterministic: compared whole
        assert not any(measured for measured, _, _ in found)


def test_broadcast_gradients_fallback_is_an_image_too():
    html = BroadcastExplorer((3, 1), (4,)).gradient_view()._repr_mimebundle_()["text/html"]
    assert "<svg" not in html and len(images(html)) == 1


def test_the_live_view_keeps_inline_svg():
    widgets = _widgets()
    assert "<svg" in widgets["stride"].widget.picture.value
    assert "<svg" in widgets["broadcast"].widget.picture.value
    assert "<svg" in widgets["graph"].widget.drawing.value


def test_a_measured_chart_carries_the_marker_the_sanitizer_masks():
    html = _monitor().to_html()
    assert html.count('<img data-measured="true" src="data:image/svg+xml;base64,') == 1
    (measured, svg, alt), = images(html)
    assert measured and "<path" in svg
    assert "data:image/svg+xml;base64,MEASURED" in sanitize(html)


def test_float_noise_changes_no_byte_nbval_compares():
    """Two machines whose float32 sums differ a little (here by 4e-5) store the same text."""
    one, two = _monitor(), _monitor(noise=4e-5)
    assert one.to_svg() != two.to_svg()                          # the drawings differ ...
    assert sanitize(one.to_html()) == sanitize(two.to_html())    # ... what nbval compares does not
    assert one.summary() == two.summary()


SIGNIFICANT = re.compile(r"(?<![\w.])-?(\d+\.\d+|\d+)(?:e[-+]?\d+)?")


def _significant_digits(number):
    digits = number.replace(".", "").lstrip("0")
    return len(digits.rstrip("0")) if "." not in number else len(digits)


def test_the_text_of_a_measured_chart_is_rounded():
    m = _monitor()
    (_, _, alt), = images(m.to_html())
    texts = [m.summary(), alt, m.progress_text()]
    assert "loss 0.0457" in m.summary() and "test_accuracy 0.914" in m.summary()
    for text in texts:
        for number in re.findall(r"\d+\.\d+", text):
            assert _significant_digits(number) <= 3, (number, text)
    assert chart_alt([("loss", [("train", [0, 1], [0.123456, 0.0123456])])]) == \
        "training curves over steps 0 to 1. loss: train 0.123 to 0.0123 (lowest 0.0123)"


def test_svg_img_escapes_its_alt_and_marks_only_measured_charts():
    plain = svg_img(line_chart([]), 'a "quoted" <alt>')
    assert 'alt="a &quot;quoted&quot; &lt;alt&gt;"' in plain and "data-measured" not in plain
    assert svg_img("<svg/>", "x", measured=True).startswith('<img data-measured="true" src="data:image/svg+xml;base64,')
