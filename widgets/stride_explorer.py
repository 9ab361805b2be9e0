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
    >>> ex.status
    'wrote 100. into x.t()[0, 1]: storage[3], seen by x and x.t()'

Bad input never raises: ``apply``, ``select`` and ``write`` show the error inline (the library's
own words where the library refused), keep the previous state, keep the message in ``.error`` and
return ``None``:

    >>> ex.apply("view(6)")
    >>> ex.error
    "RuntimeError: view size is not compatible with input tensor's size and stride (at least one ..."
    >>> ex.select((slice(None), 0))     # one element: an int per dimension
    >>> ex.error
    "TypeError: select() picks one element: give one int per dimension, such as (1, 0); got (slice(None, None, None), 0) ..."
"""
from collections import namedtuple

from ._base import WidgetModel
from ._grid import element_index, format_value, index_text, storage_length, storage_positions
from ._parse import ParseError, Step, parse_steps
from ._svg import error_html, escape, status_html, svg_img
from ._i18n import tr

MAX_ELEMENTS = 256   # a tensor (and a storage) this explorer draws; bigger ones are not a picture
MAX_BUTTONS = 64     # cells offered as click targets
MAX_THUMBNAIL = 64   # elements drawn in a history thumbnail
LOOP_NAMES = "ijklmnpqrs"
COMMON_OPS = ("t()", "transpose(0, 1)", "[:, ::2]", "reshape(-1)", "contiguous()", "unsqueeze(0)", "clone()")

Selection = namedtuple("Selection", "index position value formula")
Written = namedtuple("Written", "index position value seen_by")

# what a step made, in words (each shown through tr())
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
        extra = tr(" -- returned the same tensor") if self.returned_self else ""
        return tr("{verdict}{extra}, shape {shape}, stride {stride}, offset {offset}", verdict=tr(VERDICTS[self.verdict]),
                  extra=extra, shape=tuple(t.shape), stride=t.stride(), offset=t.storage_offset())

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
        return [(True, tr("a size is 0: an empty tensor is contiguous"))]
    needs = tensorlab.empty(shape).stride()          # what a fresh contiguous tensor of this shape has
    reasons = []
    for d, (size, stride, need) in enumerate(zip(shape, strides, needs)):
        if size == 1:
            reasons.append((True, tr("dim {d}: size 1, its stride ({stride}) is never used", d=d, stride=stride)))
            continue
        why = tr("(last dim)") if d == len(shape) - 1 else f"= shape[{d + 1}]*{needs[d + 1]}"
        sign = "==" if stride == need else "!="
        reasons.append((stride == need, tr("dim {d}: stride {stride} {sign} {need} {why}", d=d, stride=stride,
                                           sign=sign, need=need, why=why)))
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
        self.status = ""         # what the last successful write did, in words
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
        self.selected, self.error, self.status = None, None, ""
        self.refresh()
        return made[-1]

    def back(self):
        """Undo the last step (the storage keeps any value written since); returns the entry now current."""
        if len(self.history) == 1:
            return self._fail(IndexError(tr("nothing to go back to: this is the tensor we started from")))
        self.history.pop()
        self.selected, self.error, self.status = None, None, ""
        self.refresh()
        return self.history[-1]

    def select(self, *index):
        """Highlight one element of the current tensor and its storage cell: ``select(1, 2)`` or
        ``select((1, 2))``. Returns a Selection with the position formula filled in (the position
        itself is the library's own answer)."""
        try:
            index, element = self._element(index[0] if len(index) == 1 else index, "select")
        except Exception as error:
            return self._fail(error)
        position = element.storage_offset()
        formula = position_formula(self.current, index)
        if not formula.endswith(f"= {position}"):   # cannot happen: then the formula would be wrong
            return self._fail(RuntimeError(f"the formula {formula} disagrees with the library ({position})"))
        self.selected, self.error, self.status = index, None, ""
        self.refresh()
        return Selection(index, position, element.item(), formula)

    def write(self, index, value):
        """``current[index] = value`` on the real tensor: the base and every view sharing the storage
        see it. Returns where it went and which expressions in the history see the change."""
        try:
            index, element = self._element(index, "write")
            self.current[index] = value
        except Exception as error:
            return self._fail(error)
        position, ptr = element.storage_offset(), self.current.untyped_storage().data_ptr()
        self.written, self.selected, self.error = (ptr, position), index, None
        seen_by = tuple(e.expression for e in self.history
                        if e.data_ptr == ptr and position in storage_positions(e.tensor))
        names = ", ".join(seen_by[:-1]) + tr(" and ") + seen_by[-1] if len(seen_by) > 1 else seen_by[0]
        self.status = tr("wrote {value} into {element}: storage[{position}], seen by {names}",
                         value=format_value(element.item()), element=self.expression + index_text(index),
                         position=position, names=names)
        self.refresh()
        return Written(index, position, element.item(), seen_by)

    # -- helpers -------------------------------------------------------------------------------------
    def _element(self, index, what):
        """The index as a tuple of non-negative ints, and the 0-d view of that element."""
        index = element_index(index, self.current.dim(), what)
        element = self.current[index]          # the library checks the bounds, in its words
        return tuple(i % n for i, n in zip(index, self.current.shape)), element

    def _check_drawable(self, tensor):
        if not hasattr(tensor, "untyped_storage"):
            raise TypeError(tr("the result is a {type}, not a tensor", type=type(tensor).__name__))
        for what, n in ((tr("elements"), tensor.numel()), (tr("storage elements"), storage_length(tensor))):
            if n > MAX_ELEMENTS:
                raise ValueError(tr("this explorer draws up to {limit} {what}; the result has {n}", limit=MAX_ELEMENTS,
                                    what=what, n=n))

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
        from ._stride_draw import draw
        return draw(self)

    def _storage_owner(self, entry):
        """The first expression in the history that made this entry's storage."""
        return next(e.expression for e in self.history if e.data_ptr == entry.data_ptr)

    def to_html(self):
        """The fallback a notebook stores: the drawing as an ``<img>`` (shown untrusted), any error or
        write confirmation, and the expression so far."""
        alt = tr("storage and strides of {entry}", entry=repr(self.history[-1]))
        parts = [f'<div class="tensorlab-stride-explorer">{svg_img(self.to_svg(), alt)}']
        if self.error:
            parts.append(error_html(self.error))
        elif self.status:
            parts.append(status_html(self.status))
        parts.append(f'<pre style="margin:4px 0">{escape(self.expression)}</pre></div>')
        return "\n".join(parts)

    def _build_view(self):
        from ._stride_view import StrideView
        return StrideView(self)

    def _refresh_view(self):
        self._view.update()


def _error_text(error):
    """An exception as Python prints its last line: ``RuntimeError: view size is not ...``."""
    if isinstance(error, ParseError):
        return tr("not accepted: {error}", error=error)
    return f"{type(error).__name__}: {error}"
