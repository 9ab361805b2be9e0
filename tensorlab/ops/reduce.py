"""Reductions: combine elements along dims (``sum``, ``mean``, ``prod``, ``all``, ``any``...).

``dim`` may be an int, a tuple, or None (all dims); ``keepdim=True`` keeps reduced dims with size 1.
The backward of a reduction *expands* the gradient back over the reduced dims: every input element
of a sum contributed with weight 1, so each receives the output's gradient (``expand_back``).
The statistics (var, std, norm, logsumexp) live in reduce_stats.py, the selections (max, min, median,
mode) in reduce_select.py, the running ones (cumsum, cumprod) in scan.py.
See course/04_ops_and_reductions.
"""
from .. import _dtype, _layout
from ..autograd.function import Function
from ._util import method, wrap, xp_of


def reduced_dims(dim, ndim):
    """Normalised tuple of dims to reduce (all of them for None or an empty tuple)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    if not isinstance(dim, (tuple, list)):
        d = _layout.normalize_dim(dim, ndim)
        return (d,) if ndim > 0 else ()  # a 0-d tensor has no dim to reduce
    out = tuple([_layout.normalize_dim(d, ndim) for d in dim])
    if len(set(out)) != len(out):
        repeated = next(d for d in out if out.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return out if ndim > 0 else ()


# build: stage 3
def expand_back(grad, in_shape, dims, keepdim):
    """Stretch a reduced gradient back to ``in_shape``: re-insert the dims, then expand (no copy)."""
    if not keepdim:
        for d in sorted(dims):
            grad = grad.unsqueeze(d)
    return grad.expand(in_shape)
# build: end


def _sum_dtype(x, dtype):
    """Sums of bool and integer tensors are int64, as in PyTorch (floating and complex keep their dtype)."""
    if dtype is not None:
        return dtype
    return x.dtype if x.dtype.is_floating_point or x.dtype.is_complex else _dtype.int64


class Sum(Function):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, dtype):
        dims = reduced_dims(dim, x.dim())
        ctx.in_shape, ctx.dims, ctx.keepdim = x._shape, dims, keepdim
        out_dtype = _sum_dtype(x, dtype).np
        return wrap(x._array.sum(axis=dims, keepdims=keepdim, dtype=out_dtype), x.device)

    # build: stage 3
    @staticmethod
    def backward(ctx, grad):
        """Each input element went into one output element with weight 1, so it receives that
        output's gradient: ``grad`` stretched back over the reduced dims ``ctx.dims`` to
        ``ctx.in_shape`` (``expand_back``; the sum of everything, ``Sum`` itself rather than
        ``SumDim``, has a 0-dim gradient that expands as it is). One gradient per forward argument:
        x, dim, keepdim, dtype."""
        if ctx._forward_cls is Sum:  # the sum of everything: a 0-d gradient expands as it is
            return grad.expand(ctx.in_shape), None, None, None
        return expand_back(grad, ctx.in_shape, ctx.dims, ctx.keepdim), None, None, None
    # build: end


class SumDim(Sum):
    node_name = "SumBackward1"


@method()
def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001 - PyTorch's name
    """Add up elements (over ``dim``, or all of them). Integers and bools sum to int64."""
    if dim is None:
        return Sum.apply(input, None, False, dtype)
    return SumDim.apply(input, dim, keepdim, dtype)


@method()
def sum_to_size(self, *size):
    """Sum over broadcast dims so the result has ``size`` -- the inverse of ``expand``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(size)
    if size == self._shape:
        return self
    lead = self.dim() - len(size)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(size, self._shape[lead:])):
        raise RuntimeError(f"size {{[{', '.join(map(str, size))}]}} is not expandable to size "
                           f"{{[{', '.join(map(str, self._shape))}]}}.")
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and self._shape[lead + i] != 1)
    out = self.sum(dims, keepdim=True) if dims else self
    return out.view(size) if lead or out._shape != size else out


class Mean(Function):
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, dtype):
        if not ((dtype or x.dtype).is_floating_point or (dtype or x.dtype).is_complex):
            which = "Optional" if dtype else "Input"
            raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either a floating "
                               f"point or complex dtype. Got: {(dtype or x.dtype)._legacy[:-6]}")
        dims = reduced_dims(dim, x.dim())
        ctx.in_shape, ctx.dims, ctx.keepdim = x._shape, dims, keepdim
        ctx.count = _layout.numel([x._shape[d] for d in dims])
        out_dtype = (dtype or x.dtype).np
        accumulate = "float32" if out_dtype == "float16" else out_dtype  # half sums in float, as NumPy/PyTorch
        out = xp_of(x).true_divide(x._array.sum(axis=dims, keepdims=keepdim, dtype=accumulate), ctx.count)
        return wrap(out.astype(out_dtype, copy=False), x.device)

    # build: stage 3
    @staticmethod
    def backward(ctx, grad):
        """A mean is a sum divided by the number of elements averaged, ``ctx.count``: the sum's
        gradient (stretched back, as in ``Sum.backward``), divided by that count."""
        # expand, then divide, as PyTorch's formula does (a dispatch mode sees the same two ops)
        if ctx._forward_cls is Mean:
            return grad.expand(ctx.in_shape) / ctx.count, None, None, None
        return expand_back(grad, ctx.in_shape, ctx.dims, ctx.keepdim) / ctx.count, None, None, None
    # build: end


class MeanDim(Mean):
    node_name = "MeanBackward1"


@method()
def mean(input, dim=None, keepdim=False, *, dtype=None):
    """The average (floating tensors only, or pass ``dtype``)."""
    if dim is None:
        return Mean.apply(input, None, False, dtype)
    return MeanDim.apply(input, dim, keepdim, dtype)



# -- prod ----------------------------------------------------------------------------------------


class Prod(Function):
    """The product. Element i's gradient is the product of all the *other* elements: ``out / x_i``
    when nothing is zero, otherwise (left products) * (right products), which never divides."""

    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim, dtype):
        dims = reduced_dims(dim, x.dim())
        ctx.dims, ctx.keepdim = dims, keepdim
        out = wrap(x._array.prod(axis=dims, keepdims=keepdim, dtype=_sum_dtype(x, dtype).np), x.device)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if x.dim() == 0:
            return grad, None, None, None
        grad = expand_back(grad, x._shape, ctx.dims, ctx.keepdim)
        if not (x._array == 0).any():
            return grad * (expand_back(out, x._shape, ctx.dims, ctx.keepdim) / x), None, None, None
        if len(ctx.dims) == 1:
            return _product_of_others(x, ctx.dims[0]) * grad, None, None, None
        return _product_of_others(x.reshape(-1), 0).reshape(x._shape) * grad, None, None, None


class ProdDim(Prod):
    node_name = "ProdBackward1"


def _product_of_others(x, dim):
    """For each element, the product of the other elements along ``dim``, without dividing:
    (product of those before it) * (product of those after it), each a cumprod of a shifted copy."""
    from .copying import cat
    n = x._shape[dim]
    ones = x.new_ones(x._shape[:dim] + (1,) + x._shape[dim + 1:])
    head, tail = (slice(None),) * dim + (slice(0, n - 1),), (slice(None),) * dim + (slice(1, n),)
    before = cat([ones, x[head]], dim).cumprod(dim)
    after = cat([ones, x[tail].flip(dim)], dim).cumprod(dim).flip(dim)
    return before * after


@method()
def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Multiply elements (over one ``dim``, or all). Integers and bools multiply as int64."""
    if dim is None:
        return Prod.apply(input, None, False, dtype)
    if isinstance(dim, (tuple, list)):
        raise TypeError("prod() received an invalid combination of arguments - got (tuple), but expected one "
                        "of: (*, torch.dtype dtype = None) or (int dim, bool keepdim = False, *, "
                        "torch.dtype dtype = None)")
    return ProdDim.apply(input, dim, keepdim, dtype)


# -- boolean reductions -----------------------------------------------------------------------


def _logical_reduction(name):
    def reduce(input, dim=None, keepdim=False):
        # unlike sum, all/any read an empty tuple of dims as "reduce nothing"
        dims = () if isinstance(dim, (tuple, list)) and not dim else reduced_dims(dim, input.dim())
        out = getattr(xp_of(input), name)(input._array, axis=dims, keepdims=keepdim)
        if input.dtype is _dtype.uint8:  # PyTorch keeps uint8 for all/any of uint8
            out = out.astype("uint8")
        return wrap(out, input.device)
    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = f"True if {'every' if name == 'all' else 'any'} element (over ``dim``) is nonzero."
    return method(name)(reduce)


# named with a trailing _ here so the module keeps Python's own all/any; exported as tensorlab.all/any
all_ = _logical_reduction("all")
any_ = _logical_reduction("any")


@method()
def count_nonzero(input, dim=None):
    """How many elements (over ``dim``) are not zero, as int64."""
    dims = reduced_dims(dim, input.dim())
    return wrap(xp_of(input).count_nonzero(input._array, axis=dims).astype("int64"), input.device)


__all__ = ["sum", "mean", "prod", "all", "any", "count_nonzero"]
