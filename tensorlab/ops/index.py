"""Indexing. Ints, slices, None and ``...`` make views (``_layout.basic_index`` computes them);
integer lists/tensors and boolean masks copy. Assignment writes through to the shared storage.
See course/02_storage_and_strides.
"""
from ..autograd.function import Function
from ._util import method, wrap
from .inplace import apply_inplace, check_inplace, write_into
from .. import tensor as _t


@method()
def copy_(self, src, non_blocking=False):
    """Copy ``src`` (broadcast, cast) into this tensor's memory."""
    if isinstance(src, _t.Tensor) and src.device != self.device:
        src = src.to(self.device)
    return apply_inplace(self, _copy_from, src)


class CopyFrom(Function):
    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, dst, src):
        xp_src = src._array if isinstance(src, _t.Tensor) else src
        from .creation import empty_like
        out = empty_like(dst)
        out._array[...] = xp_src
        ctx.src_shape = src._shape if isinstance(src, _t.Tensor) else ()
        ctx.src_dtype = src.dtype if isinstance(src, _t.Tensor) else None
        return out

    @staticmethod
    def backward(ctx, grad):
        gsrc = grad.sum_to_size(ctx.src_shape) if ctx.src_shape != grad._shape else grad
        if ctx.src_dtype is not None and gsrc.dtype is not ctx.src_dtype:
            gsrc = gsrc.to(ctx.src_dtype)
        return grad * 0, gsrc


def _copy_from(dst, src):
    return CopyFrom.apply(dst, src)


@method()
def zero_(self):
    """Fill with zeros in place."""
    return fill_(self, 0)


class Fill(Function):
    node_name = "FillBackward0"

    @staticmethod
    def forward(ctx, x, value):
        from .creation import empty_like
        out = empty_like(x)
        out._array[...] = value._array if isinstance(value, _t.Tensor) else value
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad * 0, None


@method()
def fill_(self, value):
    """Set every element to ``value`` in place."""
    if isinstance(value, _t.Tensor) and value.dim() != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.dim()} dimensions.")
    return apply_inplace(self, Fill.apply, value)


@method("__getitem__")
def getitem(self, index):
    """``t[index]``: a view for ints/slices/None/..., a copy for integer tensors and masks."""
    from .. import _layout
    items = index if isinstance(index, tuple) else (index,)
    if any(_is_advanced(i) for i in items):
        from .advanced_index import advanced_getitem
        return advanced_getitem(self, items)
    return _basic_getitem(self, items)


def _is_advanced(i):
    return isinstance(i, (_t.Tensor, list)) or (hasattr(i, "__array__") and not isinstance(i, (int, bool)))


def _basic_getitem(self, items):
    """Apply each index item in turn as PyTorch does: select for ints, slice, unsqueeze for None."""
    from .. import _layout
    # validate the whole index first, so a bad index changes nothing and raises PyTorch's error
    _layout.basic_index(self._shape, self._stride, self._offset, items)
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
    out, dim = self, 0
    for item in items:
        if item is Ellipsis:
            dim += self.dim() - n_real
        elif item is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(item, slice):
            if item != slice(None):
                out = slice_dim(out, dim, item.start, item.stop, item.step or 1)
            dim += 1
        elif isinstance(item, bool):
            raise IndexError("tensorlab does not support a bool scalar as an index yet; use a mask tensor")
        else:
            out = out.select(dim, item)
    if out is self:
        out = Alias.apply(self)
    return out


class Alias(Function):
    node_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._make_view(x._offset, x._shape, x._stride)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Select(Function):
    node_name = "SelectBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        from .. import _layout
        d = _layout.normalize_dim(dim, x.dim())
        size = x._shape[d]
        if not -size <= index < size:
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"[{', '.join(map(str, x._shape))}] at dimension {d}")
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
def select(self, dim, index):
    """The slice at ``index`` along ``dim``, with that dim removed (a view)."""
    import operator
    return Select.apply(self, dim, operator.index(index))


class Slice(Function):
    node_name = "SliceBackward0"

    @staticmethod
    def forward(ctx, x, dim, start, end, step):
        from .. import _layout
        d = _layout.normalize_dim(dim, x.dim())
        delta, length, stride = _layout.slice_geometry(x._shape[d], x._stride[d], slice(start, end, step))
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


class SliceScatter(Function):
    """``out = input`` with ``src`` written into a slice: the backward of slicing."""

    node_name = "SliceScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, dim, start, end, step):
        out = x.clone()
        with _no_grad():
            view = slice_dim(out, dim, start, end, step)
        view._array[...] = src._array
        ctx.args = (dim, start, end, step)
        return out

    @staticmethod
    def backward(ctx, grad):
        dim, start, end, step = ctx.args
        part = slice_dim(grad, dim, start, end, step)
        return grad.slice_scatter(part * 0, dim, start, end, step), part, None, None, None, None


@method()
def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
    return SliceScatter.apply(self, src, dim, start, end, step)


class SelectScatter(Function):
    node_name = "SelectScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, dim, index):
        out = x.clone()
        with _no_grad():
            view = out.select(dim, index)
        view._array[...] = src._array
        ctx.args = (dim, index)
        return out

    @staticmethod
    def backward(ctx, grad):
        dim, index = ctx.args
        gx = grad.select_scatter(grad.select(dim, index) * 0, dim, index)
        return gx, grad.select(dim, index), None, None


@method()
def select_scatter(self, src, dim, index):
    return SelectScatter.apply(self, src, dim, index)


def _no_grad():
    from ..autograd.grad_mode import no_grad
    return no_grad()


@method("__setitem__")
def setitem(self, index, value):
    """``t[index] = value``: writes into this tensor's storage (and so into every view of it)."""
    items = index if isinstance(index, tuple) else (index,)
    if any(_is_advanced(i) for i in items):
        from .advanced_index import advanced_setitem
        return advanced_setitem(self, items, value)
    if isinstance(value, _t.Tensor):
        value = value.to(device=self.device)
    from ..autograd import grad_mode
    view = _basic_getitem(self, items) if (self._requires_grad or (isinstance(value, _t.Tensor) and
                                           value._requires_grad)) and grad_mode.is_grad_enabled() else None
    if view is None:
        check_inplace(self)
        from .. import _layout
        offset, shape, strides = _layout.basic_index(self._shape, self._stride, self._offset, items)
        target = self._make_view(offset, shape, strides)
        write_into(target, value._array if isinstance(value, _t.Tensor) else value)
        return
    view.copy_(value)


__all__ = ["select", "slice_scatter", "select_scatter"]
