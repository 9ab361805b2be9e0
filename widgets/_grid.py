"""Drawing a tensor as cells: its storage as a strip, its logical grid as 2-D slices.

Shared by the StrideExplorer and the BroadcastExplorer. What goes in each cell always comes from the
real tensor: :func:`storage_values` reads the whole storage through a view of it, and
:func:`storage_positions` asks the library which storage position each element reads, by applying
the tensor's own (shape, stride, storage_offset) to a storage of position numbers.

    >>> import tensorlab as torch
    >>> x = torch.arange(6.).view(2, 3)
    >>> storage_values(x.t())
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    >>> storage_positions(x.t())          # element (i, j) of x.t() lives at storage[i + 3*j]
    [0, 3, 1, 4, 2, 5]
    >>> format_value(2.0), format_value(-0.12345), format_value(7), format_value(True)
    ('2.', '-0.123', '7', 'True')
"""
import itertools
import math
import operator

from ._i18n import tr
from ._svg import PALETTE, Canvas

CELL_W, CELL_H = 44, 32      # one element in the main drawings
MINI_W, MINI_H = 30, 18      # one element in a history thumbnail
MAX_WIDTH = 720              # wrap wider drawings


class Sheet(Canvas):
    """A Canvas that grows to fit what is drawn on it: ``fit()`` sets its size from the shapes' extents
    (text width estimated from a monospace font: 0.61 em per character)."""

    def __init__(self, font_size=12, margin=10):
        super().__init__(0, 0, font_size)
        self.margin, self.right, self.bottom = margin, 0, 0

    def rect(self, x, y, w, h, **kwargs):
        super().rect(x, y, w, h, **kwargs)
        self.right, self.bottom = max(self.right, x + w), max(self.bottom, y + h)

    def text(self, x, y, content, anchor="middle", size=None, **kwargs):
        super().text(x, y, content, anchor=anchor, size=size, **kwargs)
        width = len(str(content)) * (size or self.font_size) * 0.61
        self.right = max(self.right, x + (width if anchor == "start" else width / 2))
        self.bottom = max(self.bottom, y + 4)

    def fit(self, min_width=0):
        self.width = max(min_width, self.right + self.margin)
        self.height = self.bottom + self.margin
        return self


def storage_length(tensor):
    """Elements in the tensor's storage (``untyped_storage().nbytes()`` over the element size)."""
    return tensor.untyped_storage().nbytes() // tensor.element_size()


def storage_values(tensor):
    """Every element of the storage, in storage order: read through a 1-D view of all of it."""
    return tensor.detach().as_strided((storage_length(tensor),), (1,), 0).tolist()


def storage_positions(tensor):
    """For each element of ``tensor`` in row-major order, the storage position it reads.

    The library answers: a storage holding 0, 1, 2, ... read with the tensor's own recipe."""
    import tensorlab
    numbers = tensorlab.arange(max(storage_length(tensor), 1))
    return numbers.as_strided(tuple(tensor.shape), tensor.stride(), tensor.storage_offset()).reshape(-1).tolist()


def format_value(value):
    """An element as PyTorch prints it, short enough for a cell: ``2.``, ``-0.123``, ``7``."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 1e5:
            return f"{int(value)}."
        return f"{value:.3g}"
    return str(value)


def indices(shape):
    """Every index of ``shape`` in row-major order (``[()]`` for a 0-d tensor)."""
    return list(itertools.product(*(range(n) for n in shape)))


def index_text(index):
    """``[1, 2]`` for an index tuple (``[]`` for the 0-d one)."""
    return "[" + ", ".join(map(str, index)) + "]"


def element_index(index, ndim, what="select"):
    """``index`` as a tuple of ``ndim`` ints -- one element, as ``x[1, 2]`` picks it; TypeError or
    IndexError, naming what is expected, for anything else. ``True``/``False`` are refused: in
    PyTorch indexing they are masks (``x[True]`` adds a dimension of size 1), not positions.

    >>> element_index([1, 0], 2), element_index(3, 1)
    ((1, 0), (3,))
    """
    items = tuple(index) if isinstance(index, (tuple, list)) else (index,)
    example = "(" + ", ".join("1021"[:ndim]) + ("," if ndim == 1 else "") + ")"
    for item in items:
        if isinstance(item, bool) or not _is_int(item):
            why = (tr(" (True and False index like a mask in PyTorch: x[True] adds a dimension)") if isinstance(item, bool)
                   else tr(" (slices, None, ... and lists pick several elements: apply them as a step, e.g. '[:, 0]')")
                   if item is None or item is Ellipsis or isinstance(item, (slice, list, tuple)) else "")
            raise TypeError(tr("{what}() picks one element: give one int per dimension, such as {example}; got {index}{why}",
                               what=what, example=example, index=repr(index), why=why))
    if len(items) != ndim:
        raise IndexError(tr("{what}() picks one element: give {ndim} indices (one per dimension), got {n}", what=what,
                            ndim=ndim, n=len(items)))
    return tuple(operator.index(i) for i in items)


def _is_int(value):
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def _slice_leads(shape):
    """The leading indices of the 2-D slices a tensor is drawn as (one, ``()``, up to 2-D)."""
    return indices(shape[:-2]) if len(shape) > 2 else [()]


def grid_layout(shape, cw=CELL_W, ch=CELL_H, labels=True, wrap=16):
    """Where every element goes: ``{index: (x, y)}`` of each cell's top-left corner, the labels
    ``[(x, y, text)]``, and the total (width, height).

    1-D is one row (wrapped every ``wrap`` cells, each row labelled with its first index), 2-D rows x
    columns; 3-D is a row of 2-D slices ``[0]``, ``[1]``, ...; 4-D a grid of slices ``[i, j]`` (i down,
    j across); higher ranks a wrapped row of slices labelled with their leading index.

    >>> cells, labels, size = grid_layout((2, 3), labels=False)
    >>> cells[(1, 2)], size
    ((88, 32), (132, 64))
    >>> grid_layout((20,), labels=False)[0][(17,)]     # the second row of a wrapped 1-D tensor
    (44, 32)
    """
    wrapped = len(shape) == 1 and shape[0] > wrap
    if wrapped:
        rows, cols = math.ceil(shape[0] / wrap), wrap
    else:
        rows = shape[-2] if len(shape) >= 2 else 1
        cols = shape[-1] if len(shape) >= 1 else 1
    column_numbers = labels and len(shape) >= 1 and not wrapped
    row_numbers = labels and (len(shape) >= 2 or wrapped)
    head = 16 if column_numbers else 0               # room for column numbers above each slice
    left = 26 if row_numbers else 0                  # room for row numbers
    title = 16 if len(shape) > 2 else 0              # room for the slice's leading index
    slice_w, slice_h = left + cols * cw, title + head + rows * ch
    gap = 14
    leads = _slice_leads(shape)
    if len(shape) == 4:
        per_row = shape[1]
    else:
        per_row = max(1, min(len(leads), MAX_WIDTH // (slice_w + gap)))
    cells, slice_labels = {}, []
    for k, lead in enumerate(leads):
        sx = (k % per_row) * (slice_w + gap)
        sy = (k // per_row) * (slice_h + gap)
        if title:
            slice_labels.append((sx + left + cols * cw / 2, sy + 11, index_text(lead)))
        if column_numbers:
            for c in range(cols):
                slice_labels.append((sx + left + c * cw + cw / 2, sy + title + 11, str(c)))
        if row_numbers:
            for r in range(rows):
                slice_labels.append((sx + left / 2, sy + title + head + r * ch + ch / 2 + 4,
                                     str(r * wrap) if wrapped else str(r)))
        for r in range(rows):
            for c in range(cols):
                if wrapped:
                    if r * wrap + c < shape[0]:
                        cells[(r * wrap + c,)] = (sx + left + c * cw, sy + head + r * ch)
                    continue
                index = () if not shape else (c,) if len(shape) == 1 else tuple(lead) + (r, c)
                cells[index] = (sx + left + c * cw, sy + title + head + r * ch)
    n_rows = math.ceil(len(leads) / per_row)
    width = min(len(leads), per_row) * (slice_w + gap) - gap
    height = n_rows * (slice_h + gap) - gap
    return cells, slice_labels, (width, height)


def draw_grid(canvas, x0, y0, shape, paint, cw=CELL_W, ch=CELL_H, labels=True):
    """Draw a tensor's logical grid at (x0, y0). ``paint(index)`` returns the cell's
    ``(text, fill, corner_text)`` or ``(text, fill, corner_text, ghost)`` -- a ghost cell (a broadcast
    copy that is not stored) is drawn dashed and faint. Returns ``({index: (centre_x, centre_y)},
    (width, height))``."""
    cells, slice_labels, size = grid_layout(shape, cw, ch, labels)
    for x, y, text in slice_labels:
        canvas.text(x0 + x, y0 + y, text, size=10, fill=PALETTE["muted"])
    centres = {}
    for index, (x, y) in cells.items():
        text, fill, corner, *ghost = paint(index)
        ghost = bool(ghost and ghost[0])
        canvas.rect(x0 + x, y0 + y, cw, ch, fill=fill, dash="3,2" if ghost else None,
                    stroke=PALETTE["muted"] if ghost else PALETTE["stroke"])
        baseline = y0 + y + (ch - 8 if corner else ch / 2 + 4)   # below the corner label, if any
        canvas.text(x0 + x + cw / 2, baseline, text, size=11 if cw >= CELL_W else 9,
                    fill=PALETTE["muted"] if ghost else None)
        if corner:
            canvas.text(x0 + x + 2, y0 + y + 9, corner, anchor="start", size=8, fill=PALETTE["muted"])
        centres[index] = (x0 + x + cw / 2, y0 + y + ch / 2)
    return centres, size


def draw_strip(canvas, x0, y0, values, fills, per_row=16, cw=CELL_W, ch=CELL_H):
    """Draw a storage as a strip of cells, numbered below, wrapped every ``per_row`` cells;
    returns ``({position: (centre_x, bottom_y)}, (width, height))``."""
    anchors = {}
    for p, (value, fill) in enumerate(zip(values, fills)):
        x = x0 + (p % per_row) * cw
        y = y0 + (p // per_row) * (ch + 16)
        canvas.rect(x, y, cw, ch, fill=fill)
        canvas.text(x + cw / 2, y + ch / 2 + 4, format_value(value), size=11)
        canvas.text(x + cw / 2, y + ch + 11, str(p), size=9, fill=PALETTE["muted"])
        anchors[p] = (x + cw / 2, y + ch)
    rows = max(1, math.ceil(len(values) / per_row))
    return anchors, (min(len(values), per_row) * cw, rows * (ch + 16))
