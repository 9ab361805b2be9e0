"""StrideExplorer: a tensor is a storage plus a recipe (offset, shape, strides) -- see both at once.

Start from a real tensor, apply view ops (``t()``, ``[:, ::2]``, ``unfold`` ...) and copies
(``contiguous()``, ``clone()``, a ``reshape`` that cannot be a view) one at a time, and watch what
changes: the storage strip stays the same for a view (only the recipe changes) and is new for a copy.
Every number drawn is read from the real tensor -- ``stride()``, ``storage_offset()``,
``untyped_storage().data_ptr()`` -- never recomputed on the side. See course/02_storage_and_strides.

    >>> import tensorlab as torch
    >>> ex = StrideExplorer(torch.arange(6.).view(2, 3))
    >>> ex.apply("t()")
    x.t(): view (same storage), shape (3, 2), stride (1, 3), offset 0
    >>> ex.select((2, 1)).formula
    'offset + i*stride[0] + j*stride[1] = 0 + 2*1 + 1*3 = 5'
    >>> ex.apply("reshape(6)")          # a transposed tensor cannot be flattened in place: a copy
    x.t().reshape(6): copy (new storage), shape (6,), stride (1,), offset 0
    >>> ex.back().expression
    'x.t()'
    >>> ex.write((0, 1), 100.)          # writes through the view into x itself
    Written(index=(0, 1), position=3, value=100.0, seen_by=('x', 'x.t()'))

Bad input never raises: ``apply``, ``select`` and ``write`` show PyTorch's error inline, keep the
previous state, keep the message in ``.error`` and return ``None``:

    >>> ex.apply("view(6)")
    >>> ex.error
    "RuntimeError: view size is not compatible with input tensor's size and stride (at least one ..."
"""
from collections import namedtuple

from ._base import WidgetModel
from ._grid import (CELL_H, MINI_H, MINI_W, Sheet, draw_grid, draw_strip, format_value, index_text, indices,
                    storage_length, storage_positions, storage_values)
from ._parse import ParseError, Step, parse_steps
from ._svg import PALETTE, error_html, escape

MAX_ELEMENTS = 256   # a tensor (and a storage) this explorer draws; bigger ones are not a picture
MAX_BUTTONS = 64     # cells offered as click targets
MAX_THUMBNAIL = 64   # elements drawn in a history thumbnail
LOOP_NAMES = "ijklmnpqrs"
COMMON_OPS = ("t()", "transpose(0, 1)", "[:, ::2]", "reshape(-1)", "contiguous()", "unsqueeze(0)", "clone()")

Selection = namedtuple("Selection", "index position value formula")
Written = namedtuple("Written", "index position value seen_by")

VERDICTS = {"base": "the tensor we started from", "view": "view (same storage)", "copy": "copy (new storage)"}


class HistoryEntry:
    """One step: the code that made it, the real tensor it made, and whether that tensor shares its
    input's storage (``"view"``) or got a new one (``"copy"``) -- decided by comparing
    ``untyped_storage().data_ptr()`` of the two real tensors."""

    def __init__(self, code, expression, tensor, verdict, returned_self=False):
        self.code, self.expression, self.tensor, self.verdict = code, expression, tensor, verdict
        self.returned_self = returned_self   # e.g. contiguous() of a contiguous tensor returns it

    @property
    def data_ptr(self):
        return self.tensor.untyped_storage().data_ptr()

    def describe(self):
        t = self.tensor
        extra = " -- returned the same tensor" if self.returned_self else ""
        return (f"{VERDICTS[self.verdict]}{extra}, shape {tuple(t.shape)}, stride {t.stride()}, "
                f"offset {t.storage_offset()}")

    def __repr__(self):
        return f"{self.expression}: {self.describe()}"


def position_formula(tensor, index):
    """The position formula filled in for one element, e.g.
    ``offset + i*stride[0] + j*stride[1] = 0 + 2*1 + 1*3 = 5``.

    >>> import tensorlab as torch
    >>> position_formula(torch.arange(24).view(2, 3, 4)[:, 1:, ::2], (1, 0, 1))
    'offset + i*stride[0] + j*stride[1] + k*stride[2] = 4 + 1*12 + 0*4 + 1*2 = 18'
    """
    strides, offset = tensor.stride(), tensor.storage_offset()
    names = [f"{LOOP_NAMES[d]}*stride[{d}]" for d in range(len(index))]
    numbers = [f"{i}*{s}" for i, s in zip(index, strides)]
    total = offset + sum(i * s for i, s in zip(index, strides))
    return " + ".join(["offset"] + names) + " = " + " + ".join([str(offset)] + numbers) + f" = {total}"


def contiguity_reasons(tensor):
    """Why ``is_contiguous()`` says what it says, one line per dimension, as ``(ok, text)``.

    PyTorch's rule: skipping size-1 dims, the last stride is 1 and every other stride equals the
    next dim's size times the next dim's contiguous stride -- the strides a fresh tensor of this
    shape gets (``torch.empty(shape).stride()``).

    >>> import tensorlab as torch
    >>> for ok, text in contiguity_reasons(torch.zeros(2, 3).t()): print(ok, text)
    False dim 0: stride 1 != 2 = shape[1]*1
    False dim 1: stride 3 != 1 (last dim)
    """
    import tensorlab
    shape, strides = tuple(tensor.shape), tensor.stride()
    if 0 in shape:
        return [(True, "a size is 0: an empty tensor is contiguous")]
    needs = tensorlab.empty(shape).stride()          # what a fresh contiguous tensor of this shape has
    reasons = []
    for d, (size, stride, need) in enumerate(zip(shape, strides, needs)):
        if size == 1:
            reasons.append((True, f"dim {d}: size 1, its stride ({stride}) is never used"))
            continue
        why = "(last dim)" if d == len(shape) - 1 else f"= shape[{d + 1}]*{needs[d + 1]}"
        sign = "==" if stride == need else "!="
        reasons.append((stride == need, f"dim {d}: stride {stride} {sign} {need} {why}"))
    return reasons


class StrideExplorer(WidgetModel):
    """A tensor's storage and logical grid side by side, with a history of view/copy steps.

    ``tensor`` is used as it is (writes go into it); ``name`` is how the expression starts."""

    def __init__(self, tensor, name="x"):
        import tensorlab
        if not isinstance(tensor, tensorlab.Tensor):
            raise TypeError(f"StrideExplorer needs a tensorlab tensor, got {type(tensor).__name__}")
        if not str(name).isidentifier():
            raise ValueError(f"name must be a Python identifier, got {name!r}")
        self.name = str(name)
        self.error = None
        self._check_drawable(tensor)
        self.history = [HistoryEntry(self.name, self.name, tensor, "base")]
        self.selected = None     # an index into the current tensor
        self.written = None      # (storage data_ptr, position) of the last write

    # -- state -------------------------------------------------------------------------------------
    @property
    def current(self):
        """The tensor made by the last step."""
        return self.history[-1].tensor

    @property
    def expression(self):
        """The steps so far as code to copy: ``x.t().reshape(6)``."""
        return self.history[-1].expression

    def summary(self):
        return f"StrideExplorer({self.history[-1]!r})"

    # -- what the learner does ---------------------------------------------------------------------
    def apply(self, operation):
        """Apply one operation (text such as ``"transpose(0, 1)"``, ``"[:, ::2]"``, a chain like
        ``"t().reshape(6)"``, or a parsed Step) to the current tensor; returns the new history entry."""
        try:
            steps = [operation] if isinstance(operation, Step) else parse_steps(operation)
            tensor, made = self.current, []
            for step in steps:
                result = step.apply(tensor)
                self._check_drawable(result)
                same = result.untyped_storage().data_ptr() == tensor.untyped_storage().data_ptr()
                expression = (made[-1].expression if made else self.expression) + step.code
                made.append(HistoryEntry(step.code, expression, result, "view" if same else "copy",
                                         returned_self=result is tensor))
                tensor = result
        except Exception as error:   # the library's own error, shown in its words; nothing changed
            return self._fail(error)
        self.history.extend(made)
        self.selected, self.error = None, None
        self.refresh()
        return made[-1]

    def back(self):
        """Undo the last step (the storage keeps any value written since); returns the entry now current."""
        if len(self.history) == 1:
            return self._fail(IndexError("nothing to go back to: this is the tensor we started from"))
        self.history.pop()
        self.selected, self.error = None, None
        self.refresh()
        return self.history[-1]

    def select(self, index):
        """Highlight one element of the current tensor and its storage cell; returns a Selection with
        the position formula filled in (the position itself is the library's own answer)."""
        try:
            index, element = self._element(index)
        except Exception as error:
            return self._fail(error)
        position = element.storage_offset()
        formula = position_formula(self.current, index)
        assert formula.endswith(f"= {position}"), "the formula must agree with the library"
        self.selected, self.error = index, None
        self.refresh()
        return Selection(index, position, element.item(), formula)

    def write(self, index, value):
        """``current[index] = value`` on the real tensor: the base and every view sharing the storage
        see it. Returns where it went and which expressions in the history see the change."""
        try:
            index, element = self._element(index)
            self.current[index] = value
        except Exception as error:
            return self._fail(error)
        position, ptr = element.storage_offset(), self.current.untyped_storage().data_ptr()
        self.written, self.selected, self.error = (ptr, position), index, None
        seen_by = tuple(e.expression for e in self.history
                        if e.data_ptr == ptr and position in storage_positions(e.tensor))
        self.refresh()
        return Written(index, position, element.item(), seen_by)

    # -- helpers -------------------------------------------------------------------------------------
    def _element(self, index):
        """The index as a tuple of non-negative ints, and the 0-d view of that element."""
        index = tuple(index) if isinstance(index, (tuple, list)) else (index,)
        if len(index) != self.current.dim():
            raise IndexError(f"select one element: give {self.current.dim()} indices, got {len(index)}")
        element = self.current[index]          # the library checks the bounds, in its words
        shape = tuple(self.current.shape)
        return tuple(int(i) % n for i, n in zip(index, shape)), element

    def _check_drawable(self, tensor):
        if not hasattr(tensor, "untyped_storage"):
            raise TypeError(f"the result is a {type(tensor).__name__}, not a tensor")
        for what, n in (("elements", tensor.numel()), ("storage elements", storage_length(tensor))):
            if n > MAX_ELEMENTS:
                raise ValueError(f"this explorer draws up to {MAX_ELEMENTS} {what}; the result has {n}")

    def _fail(self, error):
        self.error = error if isinstance(error, str) else _error_text(error)
        self.refresh()
        return None

    def _is_written(self, entry, position):
        return self.written is not None and self.written == (entry.data_ptr, position)

    # -- drawing ---------------------------------------------------------------------------------------
    def to_svg(self):
        """The whole picture as SVG text: header, storage strip, logical grid, formula, contiguity,
        history. Deterministic: the same state gives the same bytes."""
        canvas = Sheet()
        entry, t = self.history[-1], self.current
        y = _header(canvas, entry, self._storage_owner(entry))
        positions = storage_positions(t)
        reached = set(positions)
        selected_position = positions[indices(t.shape).index(self.selected)] if self.selected is not None else None
        values = storage_values(t)
        fills = [PALETTE["written"] if self._is_written(entry, p) else
                 PALETTE["selected"] if p == selected_position else
                 PALETTE["cell"] if p in reached else PALETTE["unreached"] for p in range(len(values))]
        canvas.text(10, y + 12, f"storage: {len(values)} elements, {len(values) - len(reached)} not reached"
                    " by this view (grey)", anchor="start", size=11, fill=PALETTE["muted"])
        anchors, (_, h) = draw_strip(canvas, 10, y + 20, values, fills)
        y += 20 + h + 14

        canvas.text(10, y + 12, f"{self.expression}: the logical grid (small number: storage position)",
                    anchor="start", size=11, fill=PALETTE["muted"])
        flat = dict(zip(indices(t.shape), positions))
        element_values = t.detach().reshape(-1).tolist() if t.dim() else [t.item()]
        value_of = dict(zip(indices(t.shape), element_values))

        def paint(index):
            p = flat[index]
            fill = (PALETTE["written"] if self._is_written(entry, p) else
                    PALETTE["selected"] if index == self.selected else PALETTE["cell"])
            return format_value(value_of[index]), fill, f"@{p}"

        centres, (_, h) = draw_grid(canvas, 10, y + 20, tuple(t.shape), paint)
        if self.selected is not None:
            (cx, cy), (sx, sy) = centres[self.selected], anchors[selected_position]
            canvas.path(f"M {cx} {cy - CELL_H / 2} C {cx} {cy - 60} {sx} {sy + 40} {sx} {sy}",
                        stroke=PALETTE["ink"], width=1.5, arrow=True)
        y += 20 + h + 12

        if self.selected is not None:
            position = positions[indices(t.shape).index(self.selected)]
            canvas.text(10, y + 12, f"{self.expression}{index_text(self.selected)} is storage[{position}]:",
                        anchor="start", weight="bold")
            canvas.text(24, y + 30, position_formula(t, self.selected), anchor="start", weight="bold")
            y += 42
        y = self._draw_contiguity(canvas, t, y)
        self._draw_history(canvas, y + 6)
        return canvas.fit(min_width=560).to_svg()

    def _storage_owner(self, entry):
        """The first expression in the history that made this entry's storage."""
        return next(e.expression for e in self.history if e.data_ptr == entry.data_ptr)

    def _draw_contiguity(self, canvas, t, y):
        good = t.is_contiguous()
        canvas.text(10, y + 12, f"is_contiguous() = {good}", anchor="start", weight="bold",
                    fill=PALETTE["ok"] if good else PALETTE["bad"])
        canvas.text(200, y + 12, "(each stride must equal the next size times the next contiguous stride)",
                    anchor="start", size=11, fill=PALETTE["muted"])
        y += 18
        for ok, text in contiguity_reasons(t):
            canvas.text(24, y + 12, ("\u2713 " if ok else "\u2717 ") + text, anchor="start", size=11,
                        fill=PALETTE["ok"] if ok else PALETTE["bad"])
            y += 16
        return y

    def _draw_history(self, canvas, y):
        canvas.text(10, y + 12, f"history -- {self.expression}", anchor="start", weight="bold")
        y += 22
        labels = [e.expression if k == 0 else e.code for k, e in enumerate(self.history)]
        verdict_x = 30 + 7.4 * max(map(len, labels))
        thumbnail_x = verdict_x + 150
        for k, (entry, label) in enumerate(zip(self.history, labels)):
            current = k == len(self.history) - 1
            canvas.text(10, y + 12, label, anchor="start", weight="bold" if current else None)
            colour = {"base": PALETTE["muted"], "view": PALETTE["ok"], "copy": PALETTE["copy"]}[entry.verdict]
            verdict = entry.verdict + (" (itself)" if entry.returned_self else "") + (" \u25c0" if current else "")
            canvas.text(verdict_x, y + 12, verdict, anchor="start", size=11, fill=colour)
            t, h = entry.tensor, 18
            if t.numel() <= MAX_THUMBNAIL:
                flat = dict(zip(indices(t.shape), storage_positions(t)))
                element_values = t.detach().reshape(-1).tolist() if t.dim() else [t.item()]
                value_of = dict(zip(indices(t.shape), element_values))

                def paint(index, entry=entry, flat=flat, value_of=value_of):
                    fill = PALETTE["written"] if self._is_written(entry, flat[index]) else PALETTE["cell"]
                    return format_value(value_of[index]), fill, None

                _, (_, h) = draw_grid(canvas, thumbnail_x, y, tuple(t.shape), paint, MINI_W, MINI_H, labels=False)
            else:
                canvas.text(thumbnail_x, y + 12, f"{t.numel()} elements", anchor="start", size=11,
                            fill=PALETTE["muted"])
            y += max(h, 18) + 10
        return y

    def to_html(self):
        parts = [f'<div class="tensorlab-stride-explorer">{self.to_svg()}']
        if self.error:
            parts.append(error_html(self.error))
        parts.append(f'<pre style="margin:4px 0">{escape(self.expression)}</pre></div>')
        return "\n".join(parts)

    def _build_view(self):
        from ._stride_view import StrideView
        return StrideView(self)

    def _refresh_view(self):
        self._view.update()


def _header(canvas, entry, owner):
    """Two lines: what the current tensor is, and whose storage it reads."""
    t = entry.tensor
    canvas.text(10, 16, entry.expression, anchor="start", size=14, weight="bold")
    facts = " \u00b7 ".join([f"shape {tuple(t.shape)}", f"stride {t.stride()}",
                              f"storage_offset {t.storage_offset()}", str(t.dtype)])
    canvas.text(10, 34, facts, anchor="start")
    if entry.verdict == "base":
        verdict, colour = "the tensor we started from: its own storage", PALETTE["muted"]
    elif entry.verdict == "view":
        verdict, colour = f"view: reads the storage of {owner} (same data_ptr)", PALETTE["ok"]
        if entry.returned_self:
            verdict += " -- the op returned the very same tensor"
    else:
        verdict, colour = "copy: a new storage (different data_ptr)", PALETTE["copy"]
    canvas.text(10, 52, verdict, anchor="start", fill=colour)
    return 60


def _error_text(error):
    """An exception as Python prints its last line: ``RuntimeError: view size is not ...``."""
    if isinstance(error, ParseError):
        return f"not accepted: {error}"
    return f"{type(error).__name__}: {error}"
