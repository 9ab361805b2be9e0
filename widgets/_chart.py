"""Line charts as deterministic SVG: what the TrainingMonitor leaves behind when training is over.

A chart drawn here depends only on the numbers given -- not on the clock, the matplotlib version or
the fonts installed. But the numbers themselves are *measured*: a loss computed in float32 can differ
in its last digits from one machine (BLAS kernel, thread count) to another, and so would the curve's
coordinates. So a notebook stores such a chart as ``svg_img(..., measured=True)`` -- bytes that
nbval's sanitizer masks -- with ``chart_alt()`` beside it: the chart in words, every number rounded
to the 3 significant digits a reader takes in, which is what nbval compares.

    >>> panels = [("loss", [("train", [0, 1, 2], [1.0, 0.5, 0.2512])])]
    >>> svg = line_chart(panels)
    >>> svg.startswith("<svg") and "train 0.251" in svg
    True
    >>> chart_alt(panels)
    'training curves over steps 0 to 2. loss: train 1 to 0.251 (lowest 0.251)'
    >>> nice_ticks(0.0, 1.0)
    [0.0, 0.25, 0.5, 0.75, 1.0]
"""
import math
import sys

from ._i18n import tr
from ._svg import PALETTE, Canvas, num

# matplotlib's first colours, so the live plot and the summary colour each curve the same way
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
MAX_POINTS = 600          # a curve with more points is thinned (every k-th point, and the last)
PANEL_W, PANEL_H = 280, 170
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 24, 30


def nice_ticks(lo, hi, count=4):
    """About ``count`` round numbers (steps of 1, 2, 2.5 or 5 times a power of ten) covering [lo, hi].
    Any finite values work, from 1e-300 to 1e300: at most ``count + 2`` ticks, never a loop that
    runs away (a range too small or too large for floats gives just its two ends)."""
    if not hi > lo:
        pad = abs(lo) * 0.1 or 1.0
        lo, hi = max(lo - pad, -sys.float_info.max), min(hi + pad, sys.float_info.max)
    raw = (hi - lo) / count
    if not (math.isfinite(raw) and raw > 0):   # beyond what floats can subdivide: just the two ends
        return [lo, hi]
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(lo / step + 1e-9) * step
    n = min(max(math.ceil((hi - first) / step - 1e-9), 1), count + 2)
    digits = max(0, 2 - math.floor(math.log10(step)))          # enough to write each tick exactly
    ticks = [round(first + k * step, digits) for k in range(n + 1)]
    good = all(math.isfinite(t) for t in ticks) and ticks[0] <= lo and ticks[-1] >= hi and ticks[-1] > ticks[0]
    return ticks if good else [lo, hi]


def rounded(value):
    """A measured number as a reader takes it in: 3 significant digits (``0.0283``, ``131``, ``nan``)."""
    return format(value, ".3g")


tick_label = rounded


def thin(steps, values, limit=MAX_POINTS):
    """At most about ``limit`` points of a curve: every k-th one, always keeping the last."""
    if len(steps) <= limit:
        return list(steps), list(values)
    k = math.ceil(len(steps) / limit)
    keep = list(range(0, len(steps), k))
    if keep[-1] != len(steps) - 1:
        keep.append(len(steps) - 1)
    return [steps[i] for i in keep], [values[i] for i in keep]


def _draw_panel(canvas, x0, title, curves, x_range):
    """One panel: axes with round ticks, a polyline per curve (a dot per point when there are few),
    and below it a legend with each curve's last value. ``x_range``: the steps every panel spans."""
    plot_w, plot_h = PANEL_W - LEFT - RIGHT, PANEL_H - TOP - BOTTOM
    finite = [(s, v) for _, steps, values in curves for s, v in zip(steps, values) if math.isfinite(v)]
    canvas.text(x0 + LEFT + plot_w / 2, 15, title, weight="bold")
    canvas.rect(x0 + LEFT, TOP, plot_w, plot_h, fill="white", stroke=PALETTE["muted"])
    if not finite:
        canvas.text(x0 + LEFT + plot_w / 2, TOP + plot_h / 2, tr("no values yet"), fill=PALETTE["muted"])
        return
    ys = [v for _, v in finite]
    x_lo, x_hi = x_range
    y_ticks = nice_ticks(min(ys), max(ys))
    y_lo, y_hi = y_ticks[0], y_ticks[-1]
    if not y_hi > y_lo:                          # too close for floats to tell apart: a flat line
        y_lo, y_hi = y_lo - 1.0, y_lo + 1.0

    def px(step):
        return x0 + LEFT + (step - x_lo) / (x_hi - x_lo) * plot_w

    def py(value):
        return TOP + plot_h - (value - y_lo) / (y_hi - y_lo) * plot_h

    for t in y_ticks:
        canvas.line(x0 + LEFT, py(t), x0 + LEFT + plot_w, py(t), stroke="#eee")
        canvas.text(x0 + LEFT - 4, py(t) + 4, tick_label(t), anchor="end", size=10, fill=PALETTE["muted"])
    for t in (x_lo, x_hi):
        canvas.text(px(t), TOP + plot_h + 13, tick_label(t), size=10, fill=PALETTE["muted"])
    canvas.text(x0 + LEFT + plot_w / 2, TOP + plot_h + 13, tr("step"), size=10, fill=PALETTE["muted"])
    for i, (label, steps, values) in enumerate(curves):
        colour = COLOURS[i % len(COLOURS)]
        steps, values = thin(steps, values)
        d, pen_down = [], False
        for s, v in zip(steps, values):
            if not math.isfinite(v):           # a NaN or inf breaks the line, as in matplotlib
                pen_down = False
                continue
            d.append(f"{'L' if pen_down else 'M'}{num(px(s))} {num(py(v))}")
            pen_down = True
        if d:
            canvas.path(" ".join(d), stroke=colour, width=1.5)
        if len(steps) <= 30:                     # few points (one per epoch): show each one
            for s, v in zip(steps, values):
                if math.isfinite(v):
                    canvas.rect(px(s) - 2, py(v) - 2, 4, 4, fill=colour, stroke=colour)
        last = values[-1] if values else float("nan")
        canvas.text(x0 + LEFT, PANEL_H + 4 + 14 * i, f"{label} {rounded(last)}", anchor="start",
                    fill=colour)


def line_chart(panels):
    """``panels``: ``[(title, [(label, steps, values), ...]), ...]`` -> one SVG, panels side by side."""
    rows = max((len(curves) for _, curves in panels), default=0)
    steps = [s for _, curves in panels for _, curve_steps, _ in curves for s in curve_steps]
    x_lo, x_hi = (min(steps), max(steps)) if steps else (0, 1)
    if x_hi == x_lo:
        x_lo, x_hi = x_lo - 1, x_hi + 1
    canvas = Canvas(PANEL_W * max(len(panels), 1), PANEL_H + 14 * rows + 4, font_size=11)
    for i, (title, curves) in enumerate(panels):
        _draw_panel(canvas, i * PANEL_W, title, curves, (x_lo, x_hi))
    return canvas.to_svg()


def chart_alt(panels):
    """The chart in words, numbers rounded (``rounded``): what a stored chart of measured values is
    compared by, and what a screen reader says. One clause per curve: first value, last, lowest."""
    steps = [s for _, curves in panels for _, curve_steps, _ in curves for s in curve_steps]
    head = (tr("training curves over steps {first} to {last}", first=min(steps), last=max(steps)) if steps
            else tr("training curves, no values yet"))
    parts = []
    for title, curves in panels:
        texts = []
        for label, _, values in curves:
            finite = [v for v in values if math.isfinite(v)]
            if not values:
                continue
            text = tr("{label} {first} to {last}", label=label, first=rounded(values[0]), last=rounded(values[-1]))
            texts.append(text + (tr(" (lowest {value})", value=rounded(min(finite))) if finite else ""))
        parts.append(f"{title}: " + ("; ".join(texts) if texts else tr("no values")))
    return ". ".join([head] + parts)
