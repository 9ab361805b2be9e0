"""Draw the course's static figures, as SVG files in course/figures/ -- the pictures that explain
without needing a widget: the course map (lesson 00), a tensor's storage and strides (lessons 00
and 02), and the computation graph autograd records (lessons 00 and 06, redrawn from the seed
tutorial's figure).

    python tools/figures.py            # write every figure
    python tools/figures.py --check    # exit 1 if a stored figure, or one a lesson embeds, is stale

Lessons show them as Markdown images by reference, ``![The course map][course_map]``, the reference
defined on the cell's last line as the drawing itself, ``[course_map]: data:image/svg+xml;base64,...``
(this script writes that line; see ``embed``). A data URI displays wherever a lesson is opened:
JupyterLab before the notebook runs (untrusted too), a copy of one notebook alone, nbconvert,
nbviewer and GitHub -- whose notebook view does not find files beside the notebook. Every drawing is
plain SVG written here -- no matplotlib, no dates, no random ids -- so drawing twice gives the same
bytes (tests/test_course_figures.py checks both that, and that the stored files are fresh). The
course map reads the lessons themselves (titles and estimated times, the same ``facts`` the course
index in course/README.md shows), so after changing a lesson's Markdown, run this again.
"""
from __future__ import annotations

import argparse
import base64
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "course" / "figures"

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
INK, MUTED, EDGE = "#222222", "#666666", "#444444"
PARTS = [  # (first lesson, last lesson, name, colour)
    (0, 0, "Start here", "#f2f2f2"),
    (1, 5, "Tensors", "#dbe9f6"),
    (6, 10, "Autograd", "#fde3c8"),
    (11, 15, "Models: nn", "#dcefd9"),
    (16, 20, "Training", "#eadcf2"),
    (21, 22, "Further", "#f7dada"),
]


def _escape(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _num(x):
    return f"{x:.1f}".rstrip("0").rstrip(".")


class Drawing:
    """A tiny SVG writer: shapes in the order they are added, numbers to one decimal."""

    def __init__(self, width, height, title):
        self.width, self.height, self.title, self.parts = width, height, title, []

    def rect(self, x, y, w, h, fill="none", stroke=EDGE, rx=4, width=1.0, dash=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" rx="{rx}" '
                          f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>')

    def text(self, x, y, content, size=12, anchor="middle", weight="normal", fill=INK, mono=False,
             italic=False):
        style = ' font-style="italic"' if italic else ""
        self.parts.append(f'<text x="{_num(x)}" y="{_num(y)}" font-family="{MONO if mono else FONT}" '
                          f'font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
                          f'fill="{fill}"{style}>{_escape(content)}</text>')

    def line(self, x1, y1, x2, y2, stroke=EDGE, width=1.2, arrow=True, dash=None):
        extra = (' marker-end="url(#arrow)"' if arrow else "") + (f' stroke-dasharray="{dash}"' if dash else "")
        self.parts.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
                          f'stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>')

    def path(self, d, stroke=EDGE, width=1.2, arrow=True, dash=None):
        extra = (' marker-end="url(#arrow)"' if arrow else "") + (f' stroke-dasharray="{dash}"' if dash else "")
        self.parts.append(f'<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{_num(width)}"{extra}/>')

    def svg(self):
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" role="img">\n<title>{_escape(self.title)}</title>\n'
                '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{EDGE}"/>'
                '</marker></defs>\n'
                f'<rect width="{self.width}" height="{self.height}" fill="#ffffff"/>\n')
        return head + "\n".join(self.parts) + "\n</svg>\n"


def _course_facts():
    """(number, title without its number, estimated minutes) for every lesson, from the notebooks."""
    spec = importlib.util.spec_from_file_location("course_build", ROOT / "tools" / "build_course.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    rows = []
    for path in build.lessons():
        facts = build.facts(path)
        title = facts["title"].split("·", 1)[-1].strip()
        rows.append((int(path.name[:2]), title, facts["minutes"]))
    return rows


def _short(title, limit=30):
    """A title cut at its first colon (or shortened to ``limit`` characters) to fit a box."""
    title = title.split(":")[0].strip()
    return title if len(title) <= limit else title[:limit - 1].rstrip() + "…"


def course_map(rows=None):
    """The course as parts, one row each: a box per lesson with its number, short title and time."""
    rows = _course_facts() if rows is None else rows
    box_w, box_h, gap, left, top, row_h = 168, 58, 12, 118, 58, 78
    parts = [(a, b, name, colour, [r for r in rows if a <= r[0] <= b]) for a, b, name, colour in PARTS]
    parts = [p for p in parts if p[4]]
    width = left + 5 * box_w + 4 * gap + 16
    height = top + len(parts) * row_h + 30
    total = sum(r[2] for r in rows)
    d = Drawing(width, height, "The tensorlab course: its lessons in order, by part, with estimated times")
    d.text(16, 28, "The course map", size=18, anchor="start", weight="bold")
    d.text(width - 16, 28, f"{len(rows)} lessons, about {round(total / 60)} hours; read left to right, "
           "top to bottom", size=12, anchor="end", fill=MUTED)
    for row, (a, b, name, colour, lessons) in enumerate(parts):
        y = top + row * row_h
        d.text(16, y + box_h / 2 - 2, name, size=13, anchor="start", weight="bold")
        d.text(16, y + box_h / 2 + 14, f"{a:02d}" if a == b else f"{a:02d}–{b:02d}", size=11,
               anchor="start", fill=MUTED)
        for k, (number, title, minutes) in enumerate(lessons):
            x = left + k * (box_w + gap)
            d.rect(x, y, box_w, box_h, fill=colour)
            d.text(x + 10, y + 20, f"{number:02d}", size=13, anchor="start", weight="bold")
            d.text(x + box_w - 10, y + 20, f"~{minutes} min", size=11, anchor="end", fill=MUTED)
            d.text(x + 10, y + 42, _short(title, 25), size=11, anchor="start")
            if k:
                d.line(x - gap + 1, y + box_h / 2, x - 1, y + box_h / 2)
        if row + 1 < len(parts):  # from the end of this row to the start of the next
            last_x = left + (len(lessons) - 1) * (box_w + gap) + box_w / 2
            d.path(f"M{_num(last_x)},{_num(y + box_h)} L{_num(last_x)},{_num(y + box_h + 10)} "
                   f"L{left + box_w / 2:.0f},{_num(y + box_h + 10)} L{left + box_w / 2:.0f},{_num(y + row_h - 1)}",
                   stroke="#999999")
    return d.svg()


def storage_and_strides():
    """x = tensor([[1,2,3],[4,5,6]]) and its transpose x.t(): two sets of metadata, one storage."""
    cell, left = 46, 250
    d = Drawing(700, 390, "Two tensors, one storage: x (shape (2, 3), stride (3, 1)) and its transpose "
                "x.t() (shape (3, 2), stride (1, 3)) read the same six numbers")
    d.text(16, 26, "Metadata (信息区) reads one storage (存储区)", size=16, anchor="start", weight="bold")
    # x: 2 x 3, strides (3, 1)
    xx, xy = 250, 70
    d.text(16, xy + 20, "x", size=15, anchor="start", weight="bold", mono=True)
    d.text(16, xy + 40, "shape (2, 3)", size=11, anchor="start", mono=True)
    d.text(16, xy + 56, "stride (3, 1)", size=11, anchor="start", mono=True)
    d.text(16, xy + 72, "offset 0", size=11, anchor="start", mono=True)
    for i in range(2):
        for j in range(3):
            d.rect(xx + j * cell, xy + i * 40, cell, 40, fill="#dbe9f6", rx=0)
            d.text(xx + j * cell + cell / 2, xy + i * 40 + 26, f"{3 * i + j + 1}", size=15, mono=True)
    # x.t(): 3 x 2, strides (1, 3)
    tx, ty = 560, 56
    d.text(tx - 96, ty + 20, "x.t()", size=15, anchor="start", weight="bold", mono=True)
    d.text(tx - 96, ty + 40, "shape (3, 2)", size=11, anchor="start", mono=True)
    d.text(tx - 96, ty + 56, "stride (1, 3)", size=11, anchor="start", mono=True)
    d.text(tx - 96, ty + 72, "a view", size=11, anchor="start", fill=MUTED)
    for i in range(3):
        for j in range(2):
            d.rect(tx + j * cell, ty + i * 40, cell, 40, fill="#fde3c8", rx=0)
            d.text(tx + j * cell + cell / 2, ty + i * 40 + 26, f"{i + 3 * j + 1}", size=15, mono=True)
    # the storage strip
    sy = 262
    d.text(16, sy + 24, "storage", size=13, anchor="start", weight="bold")
    d.text(16, sy + 40, "(one flat buffer)", size=11, anchor="start", fill=MUTED)
    for k in range(6):
        d.rect(left + k * cell, sy, cell, 40, fill="#fff6d5", rx=0)
        d.text(left + k * cell + cell / 2, sy + 26, f"{k + 1}", size=15, mono=True)
        d.text(left + k * cell + cell / 2, sy + 56, f"@{k}", size=10, fill=MUTED, mono=True)
    # element x[1, 2] -> position 0 + 1*3 + 2*1 = 5; x.t()[2, 1] -> 2*1 + 1*3 = 5
    d.path(f"M{xx + 2.5 * cell:.0f},{xy + 80} C{xx + 2.5 * cell:.0f},{sy - 50} {left + 5.3 * cell:.0f},{sy - 60} "
           f"{left + 5.3 * cell:.0f},{sy - 2}", stroke="#1f5fa8", width=1.6)
    d.path(f"M{tx + 1.5 * cell:.0f},{ty + 120} C{tx + 1.5 * cell:.0f},{sy - 50} {left + 5.75 * cell:.0f},{sy - 50} "
           f"{left + 5.75 * cell:.0f},{sy - 2}", stroke="#b35900", width=1.6, dash="5,3")
    d.text(left, sy + 84, "x[1, 2]  is at  0 + 1·3 + 2·1 = 5", size=12, anchor="start", mono=True, fill="#1f5fa8")
    d.text(left, sy + 102, "x.t()[2, 1]  is at  0 + 2·1 + 1·3 = 5", size=12, anchor="start", mono=True,
           fill="#b35900")
    d.text(16, sy + 84, "position =", size=12, anchor="start", fill=MUTED)
    d.text(16, sy + 100, "offset + Σ index·stride", size=12, anchor="start", fill=MUTED)
    return d.svg()


def computation_graph():
    """The seed tutorial's figure: y = w * x, z = y + b. Forward (the tensors) above; below, the
    graph autograd records -- grad_fn nodes linked by next_functions down to AccumulateGrad."""
    d = Drawing(700, 420, "The graph autograd records for y = w * x, z = y + b: z.grad_fn is "
                "AddBackward0, whose next_functions lead to MulBackward0 and AccumulateGrad(b); "
                "MulBackward0 leads to AccumulateGrad(w) and None for x")
    d.text(16, 26, "A computation graph (计算图)", size=16, anchor="start", weight="bold")

    def node(x, y, w, label, sub=None, fill="#ffffff", dash=None):
        d.rect(x, y, w, 44 if sub else 34, fill=fill, dash=dash)
        d.text(x + w / 2, y + 21, label, size=13, mono=True)
        if sub:
            d.text(x + w / 2, y + 37, sub, size=10, fill=MUTED)

    d.text(16, 52, "forward: the tensors", size=12, anchor="start", fill=MUTED, weight="bold")
    node(40, 66, 130, "x", "no grad (a constant)", fill="#f2f2f2")
    node(40, 126, 130, "w", "leaf (叶子节点)", fill="#dcefd9")
    node(235, 96, 170, "y = w * x", "grad_fn=<MulBackward0>", fill="#dbe9f6")
    node(490, 40, 130, "b", "leaf (叶子节点)", fill="#dcefd9")
    node(470, 120, 170, "z = y + b", "grad_fn=<AddBackward0>", fill="#dbe9f6")
    d.line(170, 88, 233, 112)
    d.line(170, 148, 233, 124)
    d.line(405, 130, 468, 138)
    d.line(555, 84, 555, 118)
    d.text(16, 216, "backward: the graph autograd records (grad_fn, next_functions)", size=12,
           anchor="start", fill=MUTED, weight="bold")
    d.line(320, 140, 320, 238, stroke="#aaaaaa", arrow=True, dash="2,3")
    d.text(327, 200, "y.grad_fn", size=10, anchor="start", fill=MUTED, mono=True)
    d.line(555, 164, 555, 238, stroke="#aaaaaa", arrow=True, dash="2,3")
    d.text(562, 200, "z.grad_fn", size=10, anchor="start", fill=MUTED, mono=True)
    node(480, 240, 150, "AddBackward0", fill="#fde3c8")
    node(245, 240, 150, "MulBackward0", fill="#fde3c8")
    node(245, 320, 150, "AccumulateGrad", ".variable is b → b.grad", fill="#eadcf2")
    node(20, 240, 150, "AccumulateGrad", ".variable is w → w.grad", fill="#eadcf2")
    node(35, 320, 120, "None", "x: nothing to do", dash="4,3")
    d.line(478, 257, 397, 257)
    d.text(437, 250, "(·, 0)", size=10, fill=MUTED, mono=True)
    d.path("M520,284 C500,315 450,342 397,342")
    d.text(492, 330, "(·, 0)", size=10, fill=MUTED, mono=True)
    d.line(243, 257, 172, 257)
    d.text(207, 250, "(·, 0)", size=10, fill=MUTED, mono=True)
    d.path("M265,284 C235,315 200,337 157,337", dash="4,3")
    d.text(16, 392, "Each arrow of the backward graph is an entry of next_functions: (node, input number).",
           size=11, anchor="start", fill=MUTED)
    d.text(16, 408, "backward() starts at z.grad_fn and walks them to the leaves, where AccumulateGrad "
           "adds into .grad.", size=11, anchor="start", fill=MUTED)
    return d.svg()


DRAWINGS = {"course_map.svg": course_map, "storage_and_strides.svg": storage_and_strides,
            "computation_graph.svg": computation_graph}


def data_uri(svg):
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


# the line that defines a figure's Markdown reference: "[course_map]: data:image/svg+xml;base64,..."
DEFINITION = re.compile(r"^\[(\w+)\]: data:image/svg\+xml;base64,[A-Za-z0-9+/=]*$", re.MULTILINE)


def embed(drawings, lessons=None):
    """Write each figure's current drawing into the reference definitions of the lessons that show
    it; returns the lessons whose definitions were stale (and are now fresh)."""
    import nbformat
    uris = {Path(name).stem: data_uri(svg) for name, svg in drawings.items()}
    changed = []
    editions = [ROOT / "course", ROOT / "course" / "zh"]   # the English lessons and their Chinese edition
    for path in lessons or [p for folder in editions for p in sorted(folder.glob("[0-9][0-9]_*.ipynb"))]:
        nb = nbformat.read(path, as_version=4)
        stale = False
        for cell in nb.cells:
            if cell.cell_type != "markdown":
                continue
            fresh = DEFINITION.sub(lambda m: f"[{m.group(1)}]: {uris.get(m.group(1), m.group(0))}"
                                   if m.group(1) in uris else m.group(0), cell.source)
            if fresh != cell.source:
                cell.source, stale = fresh, True
        if stale:
            nbformat.write(nb, path)
            changed.append(path)
    return changed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that the stored figures are fresh")
    args = parser.parse_args(argv)
    drawings = {name: draw() for name, draw in DRAWINGS.items()}
    stale = []
    for name, svg in drawings.items():
        path = FIGURES / name
        if path.exists() and path.read_text(encoding="utf-8") == svg:
            continue
        stale.append(name)
        if not args.check:
            FIGURES.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if not args.check:
        for path in embed(drawings):
            print(f"embedded fresh figures in {path.relative_to(ROOT)}")
    if args.check and stale:
        print(f"stale: {', '.join(stale)} -- run python tools/figures.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
