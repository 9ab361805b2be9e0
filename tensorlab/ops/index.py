"""Indexing: ``t[index]`` and ``t[index] = value``.

An index is read left to right, one item per dim, exactly as PyTorch does:
- an int selects (a view without that dim), a slice narrows (a view with a new offset and stride),
  ``None`` inserts a size-1 dim, ``...`` skips the dims nobody named -- all views, no copy;
- integer lists/tensors and boolean masks are *advanced* indices: they are collected and applied at
  the end in one step that copies (``advanced_index.py``).
Assignment walks the same way to a view of the target, then writes into it -- so the write lands in
the shared storage and every other view sees it. See course/02_storage_and_strides.
"""
import operator
import warnings

import numpy as np

from .. import _dtype, _layout, _view_geometry
from ..autograd import grad_mode
from ..autograd.function import Function, _op_layers  # an active OpLayer sees every view: no shortcut
from ._util import method
from .inplace import apply_fill_inplace, apply_inplace, check_writable, write_into
from .. import tensor as _t

_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
              "indices (got {})")


# -- reading the index --------------------------------------------------------------------------


def index_items(index):
    """The index as a tuple of items, plus whether it was written as a tuple (``t[a, b]``).

    A list that holds slices, ``None``, ``...``, tensors or other lists is read as a tuple (NumPy's
    legacy rule, deprecated by PyTorch); any other list is an integer or boolean index.
    """
    if isinstance(index, tuple):
        return index, True
    if isinstance(index, list) and len(index) < 32 and any(
            i is None or i is Ellipsis or isinstance(i, (slice, list, tuple, _t.Tensor)) for i in index):
        warnings.warn("Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
                      "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will "
                      "be interpreted as tensor index, x[torch.tensor(seq)], which will result either in an "
                      "error or a different result", UserWarning, stacklevel=3)
        return tuple(index), True
    return (index,), False


def _classify(item):
    """('none' | 'ellipsis' | 'slice' | 'bool' | 'int' | 'tensor', value) for one index item."""
    if item is None:
        return "none", None
    if item is Ellipsis:
        return "ellipsis", None
    if isinstance(item, slice):
        return "slice", item
    if isinstance(item, (bool, np.bool_)):
        return "bool", bool(item)
    if isinstance(item, (int, np.integer)):
        return "int", operator.index(item)
    if isinstance(item, _t.Tensor):
        if item.dim() == 0 and item.dtype.name == "bool":
            return "bool", bool(item.item())
        if item.dim() == 0 and not item.dtype.is_floating_point:
            return "int", int(item.item())
        return "tensor", item
    if isinstance(item, (list, tuple, np.ndarray)):
        from .advanced_index import as_index_tensor
        return "tensor", as_index_tensor(item)
    from .from_data import is_sequence
    if is_sequence(item):  # any other sequence -- x[range(n), y] -- is read as its list of positions
        from .advanced_index import as_index_tensor
        return "tensor", as_index_tensor(list(item))
    if isinstance(item, (str, bytes)):      # PyTorch tries to read it as index data, like tensor('a')
        raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
    raise IndexError(_BAD_INDEX.format(type(item).__name__))


def _dims_taken(kind, value):
    if kind in ("int", "slice"):
        return 1
    if kind == "tensor":
        return value.dim() if value.dtype.name in ("bool", "uint8") else 1
    return 0


def walk_index(self, index, skip_full_slices):
    """Apply the view part of ``index`` to ``self``: returns ``(view, advanced)`` where ``advanced``
    lists, per dim of ``view``, the tensor that still indexes it (or None). Walking only makes views,
    so a bad index raises having changed nothing."""
    items, as_tuple = index_items(index)
    parsed = [_classify(i) for i in items]
    ndim = self.dim()
    specified = sum(_dims_taken(k, v) for k, v in parsed)
    if ndim == 0 and any(k == "int" for k, _ in parsed):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    skip_full = skip_full_slices or as_tuple
    out, dim, advanced = self, 0, []
    for pos, (kind, value) in enumerate(parsed):
        if kind == "none":
            out = out.unsqueeze(dim)
            advanced.append(None)
            dim += 1
        elif kind == "ellipsis":
            advanced.extend([None] * (ndim - specified))
            dim += ndim - specified
        elif kind == "slice":
            size = out._shape[dim]
            if not (skip_full and _is_full(value, size)):
                out = slice_dim(out, dim, value.start, value.stop, 1 if value.step is None else value.step)
            advanced.append(None)
            dim += 1
        elif kind == "bool":  # a new size-1 dim, kept (True) or emptied (False)
            from .creation import tensor
            out = out.unsqueeze(dim)
            advanced.append(tensor([0] if value else [], dtype=_dtype.int64, device=self.device))
            dim += 1
        elif kind == "int":
            size = out._shape[dim]
            if not -size <= value < size:
                raise IndexError(f"index {value} is out of bounds for dimension {pos} with size {size}")
            out = out.select(dim, value)
        else:
            advanced.append(value)
            dim += _dims_taken(kind, value)
    if all(a is None for a in advanced):
        advanced = []
    return out, advanced


def _is_full(s, size):
    """A slice that keeps the whole dim (PyTorch skips it inside a tuple index)."""
    step = 1 if s.step is None else operator.index(s.step)
    if step <= 0:
        return False
    return slice(s.start, s.stop, step).indices(size) == (0, size, 1)


def _is_basic(index):
    """Only ints, slices, None and ``...``: the index is one view, computable in one step."""
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i is Ellipsis or isinstance(i, slice) or
               (isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))) for i in items)


def _array_view(array, index, ndim):
    """``array[index]`` when the array module's basic indexing gives the view ``basic_index`` computed
    (same elements), else None: NumPy refuses a second ``...``, which PyTorch allows."""
    try:
        view = array[index]
    except IndexError:
        return None
    return view if type(view) is type(array) and view.ndim == ndim else None


@method("__getitem__")
def getitem(self, index):
    """``t[index]``: a view for ints/slices/None/..., a copy when integer tensors or masks are used."""
    if not (self._requires_grad and grad_mode._State.enabled) and not _op_layers and _is_basic(index):
        # nothing to record: the whole index is one (offset, shape, strides)
        offset, shape, strides = _view_geometry.basic_index(self._shape, self._stride, self._offset, index)
        array = _array_view(self._array, index, len(shape)) if shape else None  # (NumPy: a number)
        return self._make_view(offset, shape, strides, array)
    out, advanced = walk_index(self, index, skip_full_slices=False)
    if advanced:
        from .advanced_index import index_with
        return index_with(out, advanced)
    if out is self:
        return Alias.apply(self)
    return out


class Alias(Function):
    """``t[...]``: a new tensor object over exactly the same memory."""

    node_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._same_view()

    @staticmethod
    def backward(ctx, grad):
        return grad


# -- select and slice: the two view ops of indexing ------------------------------------------


class Select(Function):
    node_name = "SelectBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        if x.dim() == 0:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d = _layout.normalize_dim(dim, x.dim())
        size = x._shape[d]
        if not -size <= index < size:
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"{_layout._fmt(x._shape)} at dimension {d}")
        i = index + size if index < 0 else index
        ctx.in_shape, ctx.dim, ctx.index = x._shape, d, i
        return x._make_view(x._offset + i * x._stride[d], x._shape[:d] + x._shape[d + 1:],
                            x._stride[:d] + x._stride[d + 1:])

    @staticmethod
    def backward(ctx, grad):
        from .creation import zeros
        out = zeros(ctx.in_shape, dtype=grad.dtype, device=grad.device)
        return out.select_scatter(grad, ctx.dim, ctx.index), None, None


@method()
def select(input, dim, index):
    """The slice at ``index`` along ``dim``, with that dim removed (a view)."""
    return Select.apply(input, dim, operator.index(index))


class Slice(Function):
    node_name = "SliceBackward0"

    @staticmethod
    def forward(ctx, x, dim, start, end, step):
        d = _layout.normalize_dim(dim, x.dim())
        delta, length, stride = _view_geometry.slice_geometry(x._shape[d], x._stride[d], slice(start, end, step))
        ctx.in_shape, ctx.dim, ctx.slice = x._shape, d, slice(start, end, step)
        return x._make_view(x._offset + delta, x._shape[:d] + (length,) + x._shape[d + 1:],
                            x._stride[:d] + (stride,) + x._stride[d + 1:])

    @staticmethod
    def backward(ctx, grad):
        from .creation import zeros
        out = zeros(ctx.in_shape, dtype=grad.dtype, device=grad.device)
        s = ctx.slice
        return out.slice_scatter(grad, ctx.dim, s.start, s.stop, s.step), None, None, None, None


def slice_dim(x, dim=0, start=None, end=None, step=1):
    """``x[..., start:end:step, ...]`` on one dim (PyTorch's internal ``slice`` op)."""
    return Slice.apply(x, dim, start, end, step)


# -- scatters: a copy of the input with one slice replaced (the backward of select/slice) ---------


class SliceScatter(Function):
    node_name = "SliceScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, dim, start, end, step):
        out = x.clone()
        view = slice_dim(out, dim, start, end, step)
        if view._shape != src._shape:
            raise RuntimeError(f"Expected src to have a size equal to the slice of self. src size = "
                               f"{_layout._fmt(src._shape)}, slice size = {_layout._fmt(view._shape)}")
        view._array[...] = src._array
        ctx.args = (dim, start, end, step)
        return out

    @staticmethod
    def backward(ctx, grad):
        dim, start, end, step = ctx.args
        part = slice_dim(grad, dim, start, end, step)
        return grad.slice_scatter(part * 0, dim, start, end, step), part, None, None, None, None


@method()
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """A copy of ``input`` whose slice ``start:end:step`` along ``dim`` holds ``src``."""
    return SliceScatter.apply(input, src, dim, start, end, step)


class SelectScatter(Function):
    node_name = "SelectScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, dim, index):
        out = x.clone()
        view = out.select(dim, index)
        if view._shape != src._shape:
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{_layout._fmt(src._shape)}, slice size = {_layout._fmt(view._shape)}")
        view._array[...] = src._array
        ctx.args = (dim, index)
        return out

    @staticmethod
    def backward(ctx, grad):
        dim, index = ctx.args
        gx = grad.select_scatter(grad.select(dim, index) * 0, dim, index)
        return gx, grad.select(dim, index), None, None


@method()
def select_scatter(input, src, dim, index):
    """A copy of ``input`` whose slice ``index`` along ``dim`` holds ``src``."""
    return SelectScatter.apply(input, src, dim, index)


# -- writing: copy_, fill_, and t[index] = value --------------------------------------------------


class CopyFrom(Function):
    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, dst, src):
        from .creation import empty_like
        shape = _layout.broadcast_shapes(dst._shape, src._shape)
        if shape != dst._shape:
            raise RuntimeError(f"output with shape {_layout._fmt(dst._shape)} doesn't match the broadcast "
                               f"shape {_layout._fmt(shape)}")
        out = empty_like(dst)
        out._array[...] = src._array
        ctx.src_shape, ctx.src_dtype, ctx.src_device = src._shape, src.dtype, src.device
        return out

    @staticmethod
    def backward(ctx, grad):
        gsrc = grad.sum_to_size(ctx.src_shape) if ctx.src_shape != grad._shape else grad
        if gsrc.dtype is not ctx.src_dtype or gsrc.device != ctx.src_device:
            gsrc = gsrc.to(dtype=ctx.src_dtype, device=ctx.src_device)
        return grad * 0, gsrc


CopyFrom._backward_cls.name = lambda self: "torch::autograd::CopyBackwards"


@method()
def copy_(self, src, non_blocking=False):
    """Copy ``src`` (broadcast to this shape, cast to this dtype) into this tensor's memory."""
    if not isinstance(src, _t.Tensor):
        raise TypeError(f"copy_(): argument 'src' (position 1) must be Tensor, not {type(src).__name__}")
    if src.device != self.device:
        src = src.to(self.device)
    return apply_inplace(self, CopyFrom.apply, src)


class Fill(Function):
    """``fill_(number)``: every element becomes the number."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        from .creation import empty_like
        out = empty_like(x)
        out._array[...] = value._array if isinstance(value, _t.Tensor) else value
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, None


class FillTensor(Fill):
    """``fill_(0-d tensor)``: the value may require grad; it gets the sum of the gradient."""

    node_name = "FillBackward3"

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, grad.sum()


@method()
def fill_(self, value):
    """Set every element to ``value`` (a number or a 0-d tensor) in place."""
    if not isinstance(value, (_t.Tensor, int, float, complex, np.generic)):
        raise TypeError(f"fill_() received an invalid combination of arguments - got ({type(value).__name__}), but "
                        "expected one of:\n * (Tensor value)\n * (Number value)\n")
    if isinstance(value, _t.Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.dim()} dimensions.")
        return apply_fill_inplace(self, "fill_", FillTensor.apply, value)
    return apply_fill_inplace(self, "fill_", Fill.apply, _dtype.checked_number(value, self.dtype, self.numel()))


@method()
def zero_(self):
    """Fill with zeros in place."""
    return fill_(self, 0)


def _value_tensor(self, value):
    """The value of an assignment as a tensor: numbers take the target's dtype (2.7 into an int64
    tensor stores 2), tensors move to the target's device."""
    if isinstance(value, _t.Tensor):
        return value if value.device == self.device else value.to(self.device)
    _check_number(self, value)
    from .creation import tensor
    return tensor(value, dtype=self.dtype, device=self.device)


def _check_number(self, value):
    if not isinstance(value, (int, float, bool, complex, np.generic)):
        kind = "numpy.ndarray" if isinstance(value, np.ndarray) else type(value).__name__
        raise TypeError(f"can't assign a {kind} to a torch.{self.dtype._legacy}")


def _strip_leading_ones(value, always_view):
    """``x[0] = ones(1, 1, 3)`` works: leading size-1 dims of the value are dropped by a view.
    (PyTorch makes that view even when there is nothing to drop, except for advanced indices.)"""
    k = 0
    while k < value.dim() and value._shape[k] == 1:
        k += 1
    return value.view(value._shape[k:]) if k or always_view else value


@method("__setitem__")
def setitem(self, index, value):
    """``t[index] = value``: writes into this tensor's storage (and so into every view of it).

    PyTorch's order: walk the index to a view of ``self``; then a value of the same shape is copied,
    a 0-d value fills, anything else is viewed without leading 1s and expanded to the target.
    """
    recording = grad_mode._State.enabled and (
        self._requires_grad or (isinstance(value, _t.Tensor) and value._requires_grad))
    if not recording and not _op_layers and _is_basic(index):
        return _write_basic(self, index, value)
    value = _value_tensor(self, value)
    target, advanced = walk_index(self, index, skip_full_slices=True)
    if advanced:
        from .advanced_index import index_put_with
        index_put_with(target, advanced, _strip_leading_ones(value, False))
        return
    check_writable(target)               # an expanded target is refused even for a single value
    if target._shape == value._shape:
        target.copy_(value)
    elif value.dim() == 0:
        target.fill_(value)
    else:
        value = _strip_leading_ones(value, True)
        target.copy_(value if value._shape == target._shape else value.expand(target._shape))


def _write_basic(self, index, value):
    """``self[basic index] = value`` with nothing to record: check, then write straight into memory."""
    target = self._make_view(*_view_geometry.basic_index(self._shape, self._stride, self._offset, index))
    if isinstance(value, _t.Tensor):
        if value.device != self.device:
            value = value.to(self.device)
        shape = value._shape
        if shape != target._shape and shape:
            k = next((k for k, n in enumerate(shape) if n != 1), len(shape))  # drop leading 1s
            _layout.expand_strides(shape[k:], value._stride[k:], target._shape, "torch." + value.dtype._legacy)
            value = value._array.reshape(shape[k:])
        else:
            value = value._array
    else:
        _check_number(self, value)
    check_writable(target)
    write_into(target, value)


__all__ = ["select", "slice_scatter", "select_scatter"]
