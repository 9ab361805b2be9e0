"""The StrideExplorer's picture: the current tensor's recipe, its storage strip, its logical grid, the
position formula, why it is (not) contiguous, and the history of steps.

Pure drawing: every number is read from the real tensors the model holds. The drawing stays within
about 560 px (the storage wraps every 12 cells) so that it fits beside the click targets; the
selected element's storage cell is marked by a short arrow just above it, in a lane of its own --
never a line drawn across captions and cells.
"""
from ._grid import (CELL_H, CELL_W, MINI_H, MINI_W, Sheet, draw_grid, format_value, index_text, indices,
                    storage_positions, storage_values)
from ._i18n import tr
from ._svg import PALETTE

PER_ROW = 12          # storage cells in one row of the strip
POINTER = 20          # the lane above each strip row, where the selected element is pointed at
HISTORY_WORDS = {"base": "base", "view": "view", "copy": "copy"}   # what each history step is, in a word


def draw(model):
    canvas = Sheet()
    entry, t = model.history[-1], model.current
    y = _header(canvas, entry, model._storage_owner(entry))
    positions = storage_positions(t)
    reached = set(positions)
    selected = positions[indices(t.shape).index(model.selected)] if model.selected is not None else None
    values = storage_values(t)
    fills = [PALETTE["written"] if model._is_written(entry, p) else
             PALETTE["selected"] if p == selected else
             PALETTE["cell"] if p in reached else PALETTE["unreached"] for p in range(len(values))]
    canvas.text(10, y + 12, tr("storage: {n} elements, {unreached} not reached by this view (grey)", n=len(values),
                               unreached=len(values) - len(reached)), anchor="start", size=12, fill=PALETTE["muted"])
    tops, h = _strip(canvas, 10, y + 18, values, fills)
    if selected is not None:
        _point_at(canvas, tops[selected], f"{index_text(model.selected)}")
    y += 18 + h + 10

    canvas.text(10, y + 12, tr("{expression}: the logical grid", expression=model.expression), anchor="start",
                size=12, fill=PALETTE["muted"])
    canvas.text(10, y + 27, tr("(small number: the storage position each element reads)"), anchor="start", size=12,
                fill=PALETTE["muted"])
    flat = dict(zip(indices(t.shape), positions))
    element_values = t.detach().reshape(-1).tolist() if t.dim() else [t.item()]
    value_of = dict(zip(indices(t.shape), element_values))

    def paint(index):
        p = flat[index]
        fill = (PALETTE["written"] if model._is_written(entry, p) else
                PALETTE["selected"] if index == model.selected else PALETTE["cell"])
        return format_value(value_of[index]), fill, f"@{p}"

    _, (_, h) = draw_grid(canvas, 10, y + 34, tuple(t.shape), paint)
    y += 34 + h + 12
    if model.selected is not None:
        canvas.text(10, y + 12, tr("{element} is storage[{position}]:", element=model.expression + index_text(model.selected),
                                   position=selected),
                    anchor="start", weight="bold")
        from .stride_explorer import position_formula
        canvas.text(24, y + 30, position_formula(t, model.selected), anchor="start", weight="bold")
        y += 42
    y = _contiguity(canvas, t, y)
    _history(canvas, model, y + 6)
    return canvas.fit(min_width=560).to_svg()


def _strip(canvas, x0, y0, values, fills):
    """The storage as cells numbered below, wrapped every PER_ROW, each row with a lane above it.
    Returns ``({position: (centre x, top y)}, height)``."""
    tops, pitch = {}, POINTER + CELL_H + 16
    for p, (value, fill) in enumerate(zip(values, fills)):
        x, y = x0 + (p % PER_ROW) * CELL_W, y0 + POINTER + (p // PER_ROW) * pitch
        canvas.rect(x, y, CELL_W, CELL_H, fill=fill)
        canvas.text(x + CELL_W / 2, y + CELL_H / 2 + 4, format_value(value), size=12)
        canvas.text(x + CELL_W / 2, y + CELL_H + 12, str(p), size=11, fill=PALETTE["muted"])
        tops[p] = (x + CELL_W / 2, y)
    return tops, max(1, -(-len(values) // PER_ROW)) * pitch


def _point_at(canvas, top, label):
    """A short arrow down into the storage cell at ``top``, with the element's index beside it."""
    x, y = top
    canvas.line(x, y - POINTER + 3, x, y - 1, stroke=PALETTE["ink"], width=1.5, arrow=True)
    canvas.text(x + 6, y - 6, label, anchor="start", size=12, weight="bold")


def _header(canvas, entry, owner):
    """Three lines: what the current tensor is, its recipe, and whose storage it reads."""
    t = entry.tensor
    canvas.text(10, 16, entry.expression, anchor="start", size=14, weight="bold")
    facts = " \u00b7 ".join([f"shape {tuple(t.shape)}", f"stride {t.stride()}",
                              f"storage_offset {t.storage_offset()}", str(t.dtype)])
    canvas.text(10, 34, facts, anchor="start")
    if entry.verdict == "base":
        verdict, colour = tr("the tensor we started from: its own storage"), PALETTE["muted"]
    elif entry.verdict == "view":
        verdict, colour = tr("view: reads the storage of {owner} (same data_ptr)", owner=owner), PALETTE["ok"]
        if entry.returned_self:
            verdict += tr(" -- the op returned the very same tensor")
    else:
        verdict, colour = tr("copy: a new storage (different data_ptr)"), PALETTE["copy"]
    canvas.text(10, 52, verdict, anchor="start", fill=colour)
    return 60


def _contiguity(canvas, t, y):
    from .stride_explorer import contiguity_reasons
    good = t.is_contiguous()
    canvas.text(10, y + 12, f"is_contiguous() = {good}", anchor="start", weight="bold",
                fill=PALETTE["ok"] if good else PALETTE["bad"])
    canvas.text(10, y + 28, tr("each stride must equal the next size times the next contiguous stride:"),
                anchor="start", size=12, fill=PALETTE["muted"])
    y += 34
    for ok, text in contiguity_reasons(t):
        canvas.text(24, y + 12, ("\u2713 " if ok else "\u2717 ") + text, anchor="start", size=12,
                    fill=PALETTE["ok"] if ok else PALETTE["bad"])
        y += 16
    return y


def _history(canvas, model, y):
    from .stride_explorer import MAX_THUMBNAIL
    canvas.text(10, y + 12, tr("history -- {expression}", expression=model.expression), anchor="start", weight="bold")
    y += 22
    labels = [e.expression if k == 0 else e.code for k, e in enumerate(model.history)]
    verdict_x = 30 + 7.4 * max(map(len, labels))
    thumbnail_x = verdict_x + 110
    for k, (entry, label) in enumerate(zip(model.history, labels)):
        current = k == len(model.history) - 1
        canvas.text(10, y + 12, label, anchor="start", weight="bold" if current else None)
        colour = {"base": PALETTE["muted"], "view": PALETTE["ok"], "copy": PALETTE["copy"]}[entry.verdict]
        verdict = tr(HISTORY_WORDS[entry.verdict]) + (tr(" (itself)") if entry.returned_self else "") + (" \u25c0" if current else "")
        canvas.text(verdict_x, y + 12, verdict, anchor="start", size=12, fill=colour)
        t, h = entry.tensor, 18
        if t.numel() <= MAX_THUMBNAIL:
            flat = dict(zip(indices(t.shape), storage_positions(t)))
            element_values = t.detach().reshape(-1).tolist() if t.dim() else [t.item()]
            value_of = dict(zip(indices(t.shape), element_values))

            def paint(index, entry=entry, flat=flat, value_of=value_of):
                fill = PALETTE["written"] if model._is_written(entry, flat[index]) else PALETTE["cell"]
                return format_value(value_of[index]), fill, None

            _, (_, h) = draw_grid(canvas, thumbnail_x, y, tuple(t.shape), paint, MINI_W, MINI_H, labels=False)
        else:
            canvas.text(thumbnail_x, y + 12, tr("{n} elements", n=t.numel()), anchor="start", size=12,
                        fill=PALETTE["muted"])
        y += max(h, 18) + 10
    return y
