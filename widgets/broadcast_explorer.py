"""BroadcastExplorer: how tensors of different shapes meet in ``a + b`` -- and what backward does about it.

Broadcasting lines the shapes up **on the right**. In each dimension the sizes must be equal, or one
of them 1 (that operand is *stretched*: ``expand`` gives it stride 0, so one stored element is read
again and again), or missing (the shorter shape gets size-1 dims prepended). Nothing is copied: the
stretched copies drawn here as ghost cells are never stored. Backward undoes the stretching by
*summing*: an element read n times receives n gradients. See course/03_views_and_broadcasting.

Everything shown comes from the library: the result shape and the error from a real ``a + b``, the
strides from a real ``expand``, the ghost cells from the expanded view's storage positions, the
gradients from a real backward.

    >>> bx = BroadcastExplorer((3, 1), (4,))
    >>> bx.result_shape
    (3, 4)
    >>> bx.marks()
    {'a': ('equal', 'stretched'), 'b': ('missing', 'equal')}
    >>> bx.expanded_strides()
    {'a': (1, 0), 'b': (0, 1)}
    >>> bx.set_shapes((2, 3), (4,))
    >>> bx.broadcast_error, bx.failing_dim
    ('The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1', 1)
    >>> bx.set_shapes((3, 1), (4,))
    >>> g = bx.gradient_view()         # (a + b).sum().backward() on real leaf tensors
    >>> g.grads["a"].tolist(), g.grads["b"].tolist()
    ([[4.0], [4.0], [4.0]], [3.0, 3.0, 3.0, 3.0])

The shape table needs no elements, so large shapes are fine (NumPy's classic example below has 1680
result elements); only the element grids are left out of the drawing:

    >>> BroadcastExplorer((8, 1, 6, 1), (7, 1, 5)).result_shape
    (8, 7, 6, 5)
    >>> bx.set_shapes(None, (4,))      # bad input: said inline, nothing changed
    >>> bx.error
    "not accepted: a shape is a tuple of sizes such as (3, 1), an int, or text such as '3, 1'; got None"
"""
import functools
import operator
import re
from collections import namedtuple

from ._base import WidgetModel, error_text
from ._grid import element_index, format_value, index_text, indices, storage_positions
from ._parse import ParseError, parse_shape
from ._i18n import tr
from ._svg import error_html, svg_img

MAX_ELEMENTS = 10**6   # an operand or a result this explorer computes for real (the table needs no more)
MAX_GRID = 144         # result elements up to which the stretched grids are drawn
MAX_BUTTONS = 64       # result cells offered as click targets
NAMES = "abcdefgh"

Mark = namedtuple("Mark", "size kind")   # kind: equal, stretched, missing or incompatible
Pick = namedtuple("Pick", "index value reads formula")


def _kind(size, target):
    """How an operand's size meets the result's in one dimension (``size`` None: the dim is missing)."""
    if size is None:
        return "missing"
    if size == target:
        return "equal"
    return "stretched" if size == 1 else "incompatible"


class BroadcastExplorer(WidgetModel):
    """Operands (tensors, or shapes -- a shape becomes ``torch.arange(n).view(shape)`` in float) lined
    up on the right, with the result of a real ``a + b`` or PyTorch's error."""

    def __init__(self, *operands, names=None):
        if not 1 <= len(operands) <= len(NAMES):
            raise ValueError(tr("give 1 to {limit} operands (tensors or shapes), got {n}", limit=len(NAMES), n=len(operands)))
        self.names = tuple(names) if names is not None else tuple(NAMES[:len(operands)])
        if len(self.names) != len(operands):
            raise ValueError(tr("{n} operands but {names} names", n=len(operands), names=len(self.names)))
        self.error = None          # a bad input in a text box (the state did not change)
        self.selected = None       # an index into the result
        self._set_operands(tuple(_as_tensor(op) for op in operands))

    # -- the real broadcast ------------------------------------------------------------------------
    def _set_operands(self, tensors):
        """Run the real ``a + b (+ ...)`` on new operands; keep its result, or PyTorch's error and the
        dimension it names. Raises ValueError (changing nothing) if the result is too big to draw."""
        from tensorlab import _layout
        try:   # the check every tensorlab op makes first; used here only to refuse huge results early
            numel = _layout.numel(_layout.broadcast_shapes(*(tuple(t.shape) for t in tensors)))
        except RuntimeError:
            numel = 0
        if numel > MAX_ELEMENTS:
            raise ValueError(tr("this explorer computes results of up to {limit:,} elements; this one would have {n:,} "
                                "(the drawing still shows the previous shapes)", limit=MAX_ELEMENTS, n=numel))
        result, message, failing_dim, failing_step = tensors[0], None, None, None
        for k, operand in enumerate(tensors[1:], start=1):      # a + b + c is (a + b) + c
            try:
                result = result + operand
            except RuntimeError as error:    # the op's own words: "The size of tensor a (3) must match ..."
                message, failing_step = str(error), k
                found = re.search(r"non-singleton dimension (\d+)", message)
                if found:   # a dimension of this addition's result; line it up with the table's columns
                    ndim = max(len(t.shape) for t in tensors)
                    failing_dim = int(found.group(1)) + ndim - max(result.dim(), operand.dim())
                result = None
                break
        self.tensors, self.result, self.broadcast_error = tensors, result, message
        self.failing_dim, self.failing_step, self.selected = failing_dim, failing_step, None

    @property
    def shapes(self):
        return tuple(tuple(t.shape) for t in self.tensors)

    @property
    def result_shape(self):
        """The broadcast shape (from the real result), or None when the shapes do not broadcast."""
        return None if self.result is None else tuple(self.result.shape)

    @property
    def ndim(self):
        return max(len(s) for s in self.shapes)

    def expression(self):
        return " + ".join(self.names)

    def table(self):
        """One row per operand: a Mark(size, kind) per result dimension, right-aligned. When the
        shapes do not broadcast, a column whose non-1 sizes differ is ``incompatible``."""
        rows = {}
        for name, shape in zip(self.names, self.shapes):
            padded = (None,) * (self.ndim - len(shape)) + shape
            rows[name] = tuple(Mark(size, _kind(size, self._column_size(d))) for d, size in enumerate(padded))
        return rows

    def _column_size(self, d):
        if self.result is not None:
            return self.result_shape[d]
        sizes = {s[d - (self.ndim - len(s))] for s in self.shapes if d >= self.ndim - len(s)} - {1}
        return sizes.pop() if len(sizes) == 1 else (1 if not sizes else -1)   # -1: they disagree

    def marks(self):
        """``{name: (kind per dimension)}`` -- the table without the sizes."""
        return {name: tuple(m.kind for m in row) for name, row in self.table().items()}

    def expanded(self):
        """Each operand as the real ``expand`` of it to the result shape (views, stride 0 where stretched)."""
        if self.result is None:
            return {}
        return {name: t.expand(self.result_shape) for name, t in zip(self.names, self.tensors)}

    def expanded_strides(self):
        return {name: e.stride() for name, e in self.expanded().items()}

    def summary(self):
        shapes = ", ".join(f"{n}{s}" for n, s in zip(self.names, self.shapes))
        outcome = f"-> {self.result_shape}" if self.result is not None else "-> error"
        return f"BroadcastExplorer({shapes} {outcome})"

    # -- what the learner does -----------------------------------------------------------------------
    def set_shapes(self, *shapes):
        """Replace every operand by ``arange`` of a new shape (a tuple, or text such as ``"3, 1"``)."""
        try:
            tensors = tuple(_as_tensor(parse_shape(s) if isinstance(s, str) else s) for s in shapes)
            if len(tensors) != len(self.names):
                raise ValueError(tr("give {n} shapes, got {got}", n=len(self.names), got=len(tensors)))
            self._set_operands(tensors)
        except (ParseError, ValueError, TypeError) as error:
            self.error = tr("not accepted: {error}", error=error)
        else:
            self.error = None
        self.refresh()

    def select(self, *index):
        """Pick one element of the result -- ``select(1, 2)`` or ``select((1, 2))`` -- and see which
        stored element of each operand it reads, and the sum. Returns a Pick (``reads``: name -> the
        operand's own index); bad input is said inline (``.error``) and returns None."""
        try:
            if self.result is None:
                raise RuntimeError(self.broadcast_error)
            index = element_index(index[0] if len(index) == 1 else index, self.result.dim(), "select")
            self.result[index]                      # the library checks the bounds, in its words
            index = tuple(i % n for i, n in zip(index, self.result_shape))
        except Exception as error:
            self.error = error_text(error)
            self.refresh()
            return None
        self.selected, self.error = index, None
        self.refresh()
        return self.pick()

    def pick(self):
        """The selected result element as a Pick, or None when nothing is selected."""
        if self.selected is None or self.result is None:
            return None
        index, reads = self.selected, {}
        for (name, e), t in zip(self.expanded().items(), self.tensors):
            position = e[index].storage_offset()            # where the expanded view reads ...
            own = dict(zip(storage_positions(t), indices(t.shape)))
            reads[name] = own[position]                     # ... is this element of the operand
        value = self.result[index].item()
        terms = " + ".join(f"{n}{index_text(i)}" for n, i in reads.items())
        numbers = " + ".join(format_value(t[i].item()) for t, i in zip(self.tensors, reads.values()))
        formula = f"({self.expression()}){index_text(index)} = {terms} = {numbers} = {format_value(value)}"
        return Pick(index, value, reads, formula)

    def gradient_view(self):
        """Run ``(a + b).sum().backward()`` on leaf copies of the operands and show each gradient:
        summed over the dimensions its operand was stretched along (and the missing ones dropped)."""
        return GradientView(self)

    # -- drawing ---------------------------------------------------------------------------------------
    def to_svg(self):
        from ._broadcast_draw import draw
        return draw(self)

    def to_html(self):
        """The fallback a notebook stores: the drawing as an ``<img>`` (shown untrusted), any error."""
        parts = [f'<div class="tensorlab-broadcast-explorer">{svg_img(self.to_svg(), self.summary())}']
        if self.error:
            parts.append(error_html(self.error))
        return "\n".join(parts) + "</div>"

    def _build_view(self):
        from ._broadcast_view import BroadcastView
        return BroadcastView(self)

    def _refresh_view(self):
        self._view.update()


class GradientView:
    """The gradients of ``(a + b).sum()`` from a real backward, with the reduction that explains them.

    ``grads``: name -> the leaf's ``.grad``; ``reductions``: name -> ``(dropped dims, kept-summed dims)``;
    ``checks``: name -> (code, True when ``.grad`` equals that reduction of ``ones(result)``)."""

    def __init__(self, explorer):
        import tensorlab
        self.names, self.error = explorer.names, explorer.broadcast_error
        self.grads, self.reductions, self.checks = {}, {}, {}
        if explorer.result is None:
            return
        leaves = [t.detach().to(tensorlab.float32).clone().requires_grad_(True) for t in explorer.tensors]
        total = functools.reduce(operator.add, leaves).sum() if len(leaves) > 1 else leaves[0].sum()
        total.backward()
        shape = explorer.result_shape
        for name, leaf, row in zip(self.names, leaves, explorer.table().values()):
            self.grads[name] = leaf.grad
            dropped = tuple(d for d, m in enumerate(row) if m.kind == "missing")
            kept = tuple(d - len(dropped) for d, m in enumerate(row) if m.kind == "stretched")
            self.reductions[name] = (dropped, kept)
            expected, code = tensorlab.ones(shape), f"ones{shape}"
            if dropped:
                expected, code = expected.sum(dim=dropped), code + f".sum(dim={_dims(dropped)})"
            if kept:
                expected, code = expected.sum(dim=kept, keepdim=True), code + f".sum(dim={_dims(kept)}, keepdim=True)"
            self.checks[name] = (code, bool(tensorlab.equal(expected, leaf.grad)))
        self.total = total.item()
        self.result_shape = shape

    def summary(self):
        if self.error:
            return tr("no gradients: {error}", error=self.error)
        return "; ".join(f"{n}.grad = {c} ({tr('ok') if ok else tr('DIFFERS')})" for n, (c, ok) in self.checks.items())

    __repr__ = summary

    def to_svg(self):
        """The gradients drawn (SVG, for the live view), or None when the forward already fails."""
        from ._broadcast_draw import draw_gradients
        return draw_gradients(self)

    def to_html(self):
        """What a notebook stores: the drawing as an ``<img>`` (shown untrusted), or the error."""
        from ._broadcast_draw import gradients_error_html
        if self.error:
            return gradients_error_html(self.error)
        return f'<div class="tensorlab-broadcast-gradients">{svg_img(self.to_svg(), self.summary())}</div>'

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        return {"text/plain": self.summary(), "text/html": self.to_html()}


def _dims(dims):
    return str(dims[0]) if len(dims) == 1 else str(dims)


SHAPE_HINT = "a shape is a tuple of sizes such as (3, 1), an int, or text such as '3, 1'"   # shown through tr()


def _as_tensor(operand):
    """A tensor as it is; a shape (tuple, list, Size or int) as ``arange(n)`` in float viewed in it."""
    import tensorlab
    if isinstance(operand, tensorlab.Tensor):
        tensor = operand
    else:
        if isinstance(operand, int) and not isinstance(operand, bool):
            shape = (operand,)
        elif isinstance(operand, (tuple, list)):
            shape = tuple(operand)
        else:
            raise TypeError(tr(SHAPE_HINT) + tr("; got {operand}", operand=repr(operand)))
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in shape):
            raise TypeError(tr(SHAPE_HINT) + tr("; got {operand}", operand=repr(operand)))
        if any(n < 0 for n in shape):
            raise ValueError(tr("sizes cannot be negative, got {shape}", shape=shape))
        numel = 1
        for n in shape:
            numel *= n
        if numel > MAX_ELEMENTS:
            raise ValueError(tr("this explorer computes operands of up to {limit:,} elements; {shape} has {n:,}",
                                limit=MAX_ELEMENTS, shape=shape, n=numel))
        tensor = tensorlab.arange(float(numel)).view(shape)
    if tensor.numel() > MAX_ELEMENTS:
        raise ValueError(tr("this explorer computes operands of up to {limit:,} elements; got {n:,}", limit=MAX_ELEMENTS,
                            n=tensor.numel()))
    return tensor
