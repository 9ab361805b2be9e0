"""A tiny SVG writer shared by every widget: shapes in, deterministic SVG text out.

Every number is written with at most two decimals and every attribute in a fixed order, so the same
picture is the same bytes in every process -- what lets nbval compare a lesson's stored drawing with
a fresh one. Nothing here knows about tensors; the widgets decide what to draw.

    >>> c = Canvas(60, 20)
    >>> c.rect(0, 0, 20, 20, fill=PALETTE["cell"])
    >>> c.text(30, 14, "x < 1")
    >>> print(c.to_svg())  # doctest: +NORMALIZE_WHITESPACE
    <svg xmlns="http://www.w3.org/2000/svg" width="60" height="20" viewBox="0 0 60 20" font-family="monospace" font-size="12">
    <rect x="0" y="0" width="20" height="20" fill="#eef3fb" stroke="#555"/>
    <text x="30" y="14" text-anchor="middle">x &lt; 1</text>
    </svg>
"""
import base64
import math
from html import escape as _html_escape

from ._i18n import text_width

# One palette for every widget, so a colour means the same thing everywhere in the course.
PALETTE = {
    "cell": "#eef3fb",        # a storage cell / tensor element
    "unreached": "#e4e4e4",   # a storage cell the view never reaches
    "selected": "#ffd54f",    # what the learner picked
    "written": "#ef9a9a",     # changed by the last write
    "copy": "#6a1b9a",        # a step that made a new storage (a view keeps "ok" green)
    "ghost": "#f7f7f7",       # a broadcast copy that is never stored
    "incompatible": "#ffcdd2",  # behind what failed (a dimension that does not broadcast)
    "leaf": "#b3d9ff",        # a leaf tensor (torchviz's lightblue)
    "output": "#caff70",      # an output tensor (torchviz's darkolivegreen1)
    "saved": "#ffc87a",       # a saved tensor (torchviz's orange)
    "op": "#e8e8e8",          # an op node
    "running": "#ff8a65",     # the node the engine is running
    "ready": "#fff59d",       # a node waiting in the ready queue
    "done": "#c8e6c9",        # a node that has run
    "failed": "#ef9a9a",      # a node that raised an error while it ran
    "ok": "#2e7d32",
    "bad": "#c62828",
    "ink": "#222",
    "muted": "#888",
    "stroke": "#555",
}


def num(x):
    """A coordinate as short, stable text: ``12``, ``12.5``, ``0.33``."""
    text = f"{round(float(x), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def escape(text):
    """Text made safe to put inside SVG or HTML."""
    return _html_escape(str(text), quote=True)


class Canvas:
    """Collects shapes in drawing order; ``to_svg()`` writes them out."""

    def __init__(self, width, height, font_size=12):
        self.width, self.height, self.font_size = width, height, font_size
        self.items = []
        self.right = 0  # where the rightmost text ends: the picture widens to show it whole
        self.arrows = {}  # line colour -> the id of the arrowhead marker drawn in that colour

    def _add(self, tag, attrs, body=None, title=None):
        parts = [f'{k.rstrip("_").replace("_", "-")}="{v}"' for k, v in attrs.items() if v is not None]
        head = f"<{tag} " + " ".join(parts)
        if title is not None:
            body = f"<title>{escape(title)}</title>" + (body or "")
        self.items.append(f"{head}>{body}</{tag}>" if body is not None else f"{head}/>")

    def rect(self, x, y, w, h, fill="none", stroke=PALETTE["stroke"], stroke_width=None, rx=None,
             dash=None, class_=None, title=None):
        self._add("rect", {"x": num(x), "y": num(y), "width": num(w), "height": num(h), "rx": rx and num(rx),
                           "fill": fill, "stroke": stroke, "stroke_width": stroke_width and num(stroke_width),
                           "stroke_dasharray": dash, "class_": class_}, title=title)

    def text(self, x, y, content, anchor="middle", size=None, weight=None, fill=None, italic=False,
             class_=None):
        width = text_width(content, size or self.font_size)   # Latin 0.6 of the size, Chinese 1
        self.right = max(self.right, x + {"start": width, "middle": width / 2}.get(anchor, 0))
        self._add("text", {"x": num(x), "y": num(y), "text_anchor": anchor, "font_size": size and num(size),
                           "font_weight": weight, "font_style": "italic" if italic else None,
                           "fill": fill, "class_": class_}, escape(content))

    def _arrow(self, arrow, stroke):
        """The marker at a line's end: an arrowhead in the line's colour (one <marker> per colour). Its
        id is made from the colour: a page showing several inline SVGs shares one id space, and an
        id must mean the same arrowhead in all of them."""
        if not arrow:
            return None
        marker = self.arrows.setdefault(stroke, "arrow-" + "".join(ch for ch in stroke if ch.isalnum()))
        return f"url(#{marker})"

    def line(self, x1, y1, x2, y2, stroke=PALETTE["stroke"], width=1, dash=None, arrow=False):
        self._add("line", {"x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2), "stroke": stroke,
                           "stroke_width": num(width) if width != 1 else None, "stroke_dasharray": dash,
                           "marker_end": self._arrow(arrow, stroke)})

    def path(self, d, stroke=PALETTE["stroke"], width=1, fill="none", dash=None, arrow=False):
        self._add("path", {"d": d, "fill": fill, "stroke": stroke,
                           "stroke_width": num(width) if width != 1 else None,
                           "stroke_dasharray": dash, "marker_end": self._arrow(arrow, stroke)})

    def to_svg(self):
        width = max(self.width, math.ceil(self.right + 4))
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(self.height)}" '
                f'viewBox="0 0 {num(width)} {num(self.height)}" font-family="monospace" '
                f'font-size="{num(self.font_size)}">')
        # arrowheads sized in the picture's own units: as large on a thick line as on a thin one
        markers = "".join(f'<marker id="{marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" '
                          f'markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
                          f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{colour}"/></marker>'
                          for colour, marker in self.arrows.items())
        defs = [f"<defs>{markers}</defs>"] if markers else []
        return "\n".join([head] + defs + self.items + ["</svg>"])


def svg_img(svg, alt, measured=False):
    """An SVG drawing as HTML that shows in a notebook nobody has trusted: ``<img src="data:...">``.

    JupyterLab sanitizes the HTML of a notebook it did not run itself (a lesson just downloaded):
    an inline ``<svg>`` is stripped (its texts run together), and an ``image/svg+xml`` output is
    refused -- but an ``<img>`` whose ``src`` holds the SVG itself, base64-encoded, is shown. ``alt``
    says in words what the picture shows (for screen readers, and what nbval compares where the
    picture is ``measured``). ``measured=True`` marks a chart of measured numbers (a training
    curve holds float32 noise that differs between machines): tools/sanitize.cfg masks the bytes of
    exactly this form, so only its rounded text is compared. A live widget view keeps inline SVG.

    >>> svg_img('<svg xmlns="http://www.w3.org/2000/svg"/>', "nothing")[:48]
    '<img src="data:image/svg+xml;base64,PHN2ZyB4bWxu'
    >>> svg_img("<svg/>", "a chart", measured=True)[:36]
    '<img data-measured="true" src="data:'
    """
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    marker = 'data-measured="true" ' if measured else ""
    return (f'<img {marker}src="data:image/svg+xml;base64,{data}" alt="{escape(alt)}" '
            f'style="max-width:100%;height:auto">')


def error_html(message):
    """An error shown inline in a widget, in PyTorch's words (the widget keeps its previous state)."""
    return (f'<div class="tensorlab-error" style="color:{PALETTE["bad"]};font-family:monospace;'
            f'white-space:pre-wrap;line-height:1.4">{escape(message)}</div>')


def status_html(message):
    """A confirmation shown inline in a widget: what the last action did (``wrote 100. into ...``)."""
    return (f'<div class="tensorlab-status" style="color:{PALETTE["ok"]};font-family:monospace;'
            f'white-space:pre-wrap;line-height:1.4">{escape(message)}</div>')
