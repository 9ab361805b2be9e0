"""The BroadcastExplorer's pictures: the right-aligned table, the stretched grids, the gradients.

Pure drawing: every number comes from the model (which got it from the library).
"""
from ._grid import MINI_H, MINI_W, Sheet, draw_grid, format_value, grid_layout, indices, storage_positions
from ._i18n import tr
from ._svg import PALETTE, escape

COLUMN = 76           # one dimension of the table
ROW = 38
MARK_TEXT = {"equal": "equal", "stretched": "stretched", "missing": "missing", "incompatible": "\u2717 no match"}


def legend():
    """The table's legend, in short lines (never cut off at the right)."""
    return [tr("sizes line up on the right, then in each dimension:"),
            tr("  equal: the same size"),
            tr("  stretched: size 1, its one element read again and again (stride 0)"),
            tr("  missing: a size-1 dim is prepended, then stretched")]


def draw(model):
    canvas = Sheet()
    canvas.text(10, 18, tr("{expression}: broadcasting {n} shapes", expression=model.expression(), n=len(model.names)),
                anchor="start",
                size=14, weight="bold")
    lines = legend()
    for i, line in enumerate(lines):
        canvas.text(10, 36 + 15 * i, line, anchor="start", size=12, fill=PALETTE["muted"])
    y = _draw_table(canvas, model, 36 + 15 * len(lines) - 4)
    if model.result is None:
        k = model.failing_step
        where = (f"{model.names[0]} + {model.names[1]}" if k == 1 else
                 tr("adding {name} to {sum} (that sum is tensor a)", name=model.names[k], sum=" + ".join(model.names[:k])))
        lines = [f"{where}: RuntimeError:"] + _wrap(model.broadcast_error, 64)
        for i, line in enumerate(lines):
            canvas.text(10, y + 16 + 16 * i, line, anchor="start", weight="bold", fill=PALETTE["bad"])
        if model.failing_dim is not None:
            canvas.text(10, y + 20 + 16 * len(lines), tr("(highlighted: dim {d} of the table, where the sizes differ and "
                                                         "neither is 1)", d=model.failing_dim),
                        anchor="start", size=12, fill=PALETTE["bad"])
    else:
        y = _draw_grids(canvas, model, y + 8)
    return canvas.fit(min_width=560).to_svg()


def _draw_table(canvas, model, y):
    ndim, table = model.ndim, model.table()
    label_w = 20 + 7.4 * max(len(f"{n} {s}") for n, s in zip(model.names, model.shapes))
    label_w = max(label_w, 20 + 7.4 * len(model.expression()))
    x0 = 10 + label_w
    rows = len(table) + 1
    if model.failing_dim is not None:    # the dimension PyTorch's error names, behind every row
        canvas.rect(x0 + model.failing_dim * COLUMN - 4, y + 4, COLUMN, 20 + rows * ROW + 4,
                    fill=PALETTE["incompatible"], stroke=PALETTE["bad"], stroke_width=2)
    for d in range(ndim):
        canvas.text(x0 + d * COLUMN + (COLUMN - 8) / 2, y + 18, f"dim {d} ({d - ndim})", size=11,
                    fill=PALETTE["muted"])
    canvas.text(x0 + ndim * COLUMN + 8, y + 18, tr("strides: own \u2192 expanded (real expand)"), anchor="start",
                size=11, fill=PALETTE["muted"])
    y += 24
    strides = model.expanded_strides()
    for (name, row), t in zip(table.items(), model.tensors):
        canvas.text(10, y + ROW / 2 + 4, f"{name} {tuple(t.shape)}", anchor="start", weight="bold")
        for d, mark in enumerate(row):
            _table_cell(canvas, x0 + d * COLUMN, y, mark, model._column_size(d))
        if name in strides:
            text = f"{t.stride()} \u2192 {strides[name]}"
        else:
            text = f"{t.stride()}"
        canvas.text(x0 + ndim * COLUMN + 8, y + ROW / 2 + 4, text, anchor="start")
        y += ROW
    canvas.text(10, y + ROW / 2 + 4, model.expression(), anchor="start", weight="bold")
    for d in range(ndim):
        x = x0 + d * COLUMN
        if model.result is not None:
            canvas.rect(x, y + 3, COLUMN - 8, ROW - 6, fill=PALETTE["output"])
            canvas.text(x + (COLUMN - 8) / 2, y + ROW / 2 + 4, str(model.result_shape[d]), weight="bold")
        else:
            bad = model._column_size(d) == -1
            canvas.text(x + (COLUMN - 8) / 2, y + ROW / 2 + 4, "?" if bad else str(model._column_size(d)),
                        weight="bold", fill=PALETTE["bad"] if bad else None)
    outcome = tr("shape {shape}", shape=model.result_shape) if model.result is not None else tr("no result")
    canvas.text(x0 + ndim * COLUMN + 8, y + ROW / 2 + 4, outcome, anchor="start",
                fill=PALETTE["ok"] if model.result is not None else PALETTE["bad"])
    return y + ROW


def _table_cell(canvas, x, y, mark, target):
    w, h = COLUMN - 8, ROW - 6
    if mark.kind == "equal":
        canvas.rect(x, y + 3, w, h, fill=PALETTE["cell"])
        top = str(mark.size)
    elif mark.kind == "stretched":
        canvas.rect(x, y + 3, w, h, fill=PALETTE["ghost"], dash="4,2")
        top = f"1\u2192{target}" if target >= 0 else "1"
    elif mark.kind == "missing":
        canvas.rect(x, y + 3, w, h, fill="none", stroke=PALETTE["muted"], dash="2,3")
        top = f"\u00b7\u2192{target}" if target >= 0 else "\u00b7"
    else:
        canvas.rect(x, y + 3, w, h, fill="none", stroke=PALETTE["bad"], stroke_width=2)
        top = str(mark.size)
    colour = PALETTE["bad"] if mark.kind == "incompatible" else None
    canvas.text(x + w / 2, y + 18, top, weight="bold", fill=colour)
    canvas.text(x + w / 2, y + 31, tr(MARK_TEXT[mark.kind]), size=9, fill=colour or PALETTE["muted"])


def _draw_grids(canvas, model, y):
    """Each operand expanded to the result shape (ghost cells: reads of an element already drawn),
    then the result; with the selected result element and what it reads highlighted."""
    shape = model.result_shape
    if model.result.numel() > 144:
        canvas.text(10, y + 16, tr("the grids of elements are left out: the result has {n:,} elements",
                                   n=model.result.numel()), anchor="start", size=12, fill=PALETTE["muted"])
        canvas.text(10, y + 32, tr("(they are drawn up to 144; select(index) still names what an element reads)"),
                    anchor="start", size=12, fill=PALETTE["muted"])
        pick = model.pick()
        if pick is not None:
            canvas.text(10, y + 52, pick.formula, anchor="start", weight="bold")
            return y + 62
        return y + 40
    pick = model.pick()
    canvas.text(10, y + 16, tr("each operand as it is read (ghost cells: stretched copies, never stored),"),
                anchor="start", size=12, fill=PALETTE["muted"])
    canvas.text(10, y + 31, tr("and the result"), anchor="start", size=12, fill=PALETTE["muted"])
    y += 15
    y += 28
    _, _, (grid_w, grid_h) = grid_layout(shape)
    pieces = [(f"{n}.expand{shape}", e, t) for (n, e), t in zip(model.expanded().items(), model.tensors)]
    pieces.append((model.expression(), model.result, None))
    x, row_top, row_h = 10, y, 0
    for k, (title, tensor, operand) in enumerate(pieces):
        if x > 10 and x + grid_w > 600:
            x, row_top = 10, row_top + row_h + 30
        canvas.text(x, row_top + 12, title, anchor="start", weight="bold")
        _draw_piece(canvas, x, row_top + 18, tensor, operand, model.selected)
        if k < len(pieces) - 1:
            canvas.text(x + grid_w + 17, row_top + 18 + grid_h / 2 + 8, "=" if k == len(pieces) - 2 else "+",
                        size=20, weight="bold")
        x, row_h = x + grid_w + 34, max(row_h, grid_h + 18)
    y = row_top + row_h + 12
    if pick is not None:
        canvas.text(10, y + 14, pick.formula, anchor="start", weight="bold")
        y += 24
    return y


def _draw_piece(canvas, x, y, tensor, operand, selected):
    positions = dict(zip(indices(tensor.shape), storage_positions(tensor)))
    values = dict(zip(indices(tensor.shape), tensor.reshape(-1).tolist() if tensor.dim() else [tensor.item()]))
    first_seen = {}
    for index, p in positions.items():      # row-major: the first read of a position is the stored one
        first_seen.setdefault(p, index)
    hot = positions[selected] if selected is not None else None

    def paint(index):
        p = positions[index]
        ghost = operand is not None and first_seen[p] != index
        if operand is None:
            fill = PALETTE["selected"] if index == selected else PALETTE["output"]
        else:
            fill = PALETTE["selected"] if p == hot else PALETTE["ghost"] if ghost else PALETTE["cell"]
        return format_value(values[index]), fill, None, ghost

    draw_grid(canvas, x, y, tuple(tensor.shape), paint)


def _wrap(text, width):
    """``text`` in lines of at most about ``width`` characters, broken between words."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


def gradients_error_html(error):
    return (f'<div class="tensorlab-broadcast-gradients" style="color:{PALETTE["bad"]}">'
            + tr("no backward: the forward already fails -- RuntimeError: {error}", error=escape(error)) + "</div>")


def draw_gradients(view):
    """SVG: each operand's ``.grad`` after ``(a + b).sum().backward()``, and the sum that explains it."""
    canvas = Sheet()
    expression = " + ".join(view.names)
    canvas.text(10, 18, tr("({expression}).sum() = {total}, then .backward():", expression=expression,
                           total=format_value(view.total)), anchor="start", weight="bold")
    canvas.text(10, 34, tr("every element of {expression} {shape} sends back a gradient of 1", expression=expression,
                           shape=view.result_shape), anchor="start", weight="bold")
    canvas.text(10, 52, tr("an operand element that was read n times (stretched) receives n of them:"),
                anchor="start", size=12, fill=PALETTE["muted"])
    canvas.text(10, 67, tr("its .grad is their sum"), anchor="start", size=12, fill=PALETTE["muted"])
    y = 80
    for name in view.names:
        grad = view.grads[name]
        dropped, kept = view.reductions[name]
        code, ok = view.checks[name]
        canvas.text(10, y + 14, tr("{name}.grad: shape {shape}, the shape of {name}", name=name, shape=tuple(grad.shape)),
                    anchor="start", weight="bold")
        parts = []
        if dropped:
            parts.append(tr("result dims {dims} are missing in {name}: summed away", dims=list(dropped), name=name))
        if kept:
            parts.append(tr("its dims {dims} were stretched from size 1: summed, kept as size 1", dims=list(kept)))
        why = "; ".join(parts) or tr("never stretched: one gradient per element")
        canvas.text(10, y + 30, why, anchor="start", size=12)
        canvas.text(10, y + 46, f"{name}.grad == {code}: {ok}", anchor="start", size=12,
                    fill=PALETTE["ok"] if ok else PALETTE["bad"])
        y += 54
        if grad.numel() <= 144:
            values = grad.reshape(-1).tolist() if grad.dim() else [grad.item()]
            value_of = dict(zip(indices(grad.shape), values))
            _, (_, h) = draw_grid(canvas, 24, y, tuple(grad.shape),
                                  lambda i: (format_value(value_of[i]), PALETTE["leaf"], None),
                                  MINI_W, MINI_H, labels=False)
            y += h
        y += 14
    return canvas.fit(min_width=560).to_svg()
