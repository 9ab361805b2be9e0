"""``out=``: write a pointwise op's result into a tensor you already have (``torch.add(a, b, out=c)``).

The op itself knows nothing about ``out``: ``tensorlab.add`` is ``with_out(add)``, a thin wrapper that
runs the ordinary op and then copies its result into ``out``, the way an in-place op writes back
(ops/inplace.py). PyTorch's rules, checked before anything is written, so a failing call changes nothing:
- the result is computed in the op's usual dtype, then cast to ``out``'s -- only if that cast keeps the
  result's category (an int result may go into a float ``out``; a float result may not go into an int one);
- ``out`` must be on the result's device, and must not be an expanded tensor (one cell, many elements);
- ``out=`` records no autograd history, so a differentiable op refuses inputs (or an ``out``) that
  require grad while grad mode is on;
- an ``out`` of the wrong shape is resized (with a deprecation warning, unless it had no elements).
``out`` may be one of the inputs (``torch.add(a, b, out=a)`` is ``a.add_(b)``): the result is computed
before the write. Only the ``tensorlab.*`` functions take ``out=``; Tensor methods do not, as in PyTorch.
See course/08_inplace_and_versions.
"""
import functools
import inspect
import warnings

from .. import _dtype
from .._layout import contiguous_strides
from ..autograd import grad_mode
from ..backend import for_device
from .inplace import _LEGACY, can_cast, check_writable, write_into
from .. import tensor as _t

Tensor = _t.Tensor

# The functions that take ``out=``, with the name PyTorch's autograd error gives (an alias reports its op).
DIFFERENTIABLE = {
    "add": "add", "sub": "sub", "subtract": "sub", "mul": "mul", "multiply": "mul", "div": "div",
    "divide": "div", "true_divide": "div", "neg": "neg", "negative": "neg", "reciprocal": "reciprocal",
    "pow": "pow", "remainder": "remainder", "fmod": "fmod", "square": "pow",
    "exp": "exp", "expm1": "expm1", "exp2": "exp2", "log": "log", "log1p": "log1p", "log2": "log2",
    "log10": "log10", "sqrt": "sqrt", "rsqrt": "rsqrt", "sin": "sin", "cos": "cos", "tan": "tan",
    "asin": "asin", "arcsin": "asin", "acos": "acos", "arccos": "acos", "atan": "atan", "arctan": "atan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "atan2": "atan2", "arctan2": "atan2",
    "sigmoid": "sigmoid", "erf": "erf",
    "abs": "abs", "absolute": "abs", "sign": "sign", "sgn": "sgn", "frac": "frac", "floor": "floor",
    "ceil": "ceil", "trunc": "trunc", "fix": "trunc", "round": "round", "nan_to_num": "nan_to_num",
    "clamp": "clamp", "clip": "clamp", "clamp_min": "clamp_min", "clamp_max": "clamp_max",
    "maximum": "maximum", "minimum": "minimum", "lerp": "lerp", "addcmul": "addcmul", "addcdiv": "addcdiv",
    "where": "where",
}
# ... and those whose result has no gradient (bool or integer results), which accept inputs that require grad
NOT_DIFFERENTIABLE = [
    "eq", "ne", "not_equal", "lt", "less", "le", "less_equal", "gt", "greater", "ge", "greater_equal",
    "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "isposinf", "isneginf", "floor_divide",
]

# PyTorch's kernels for these take only an ``out`` of the result's own dtype (no cast), each with its message
_FOUND = "Found dtype {out} but expected {result}"
EXACT_DTYPE = {**dict.fromkeys(["neg", "negative", "abs", "absolute", "sign", "sgn", "frac", "floor", "ceil",
                                "trunc", "fix", "round", "bitwise_not", "clamp", "clip", "clamp_min",
                                "clamp_max"], _FOUND),
               "nan_to_num": "nan_to_num: dtype of out: {out} should be same as input: {result}",
               "where": "Expected out type to be {result} but got {out}"}
CLAMPS = {"clamp", "clip", "clamp_min", "clamp_max"}  # (with tensor bounds, these cast as the others do)
BOOL_ONLY = {"isposinf", "isneginf"}  # ... and these only a bool ``out``


def with_out(op, name):
    """``op`` as a ``tensorlab.*`` function that also takes ``out=``. Without ``out`` it is ``op`` plus one
    ``is None`` test."""
    grad_name = DIFFERENTIABLE.get(name)

    @functools.wraps(op)
    def op_with_out(*args, out=None, **kwargs):
        if out is None:
            return op(*args, **kwargs)
        return write_out(name, grad_name, op, args, kwargs, out)
    del op_with_out.__wrapped__
    op_with_out.__signature__ = _signature_with_out(op)  # what help() shows: op's parameters, then out=None
    return op_with_out


def _signature_with_out(op):
    sig = inspect.signature(op)
    if "out" in sig.parameters:  # (``where`` names it for help(); the wrapper takes it first)
        return sig
    params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
    params.append(inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    params += [p for p in sig.parameters.values() if p.kind is p.VAR_KEYWORD]
    return sig.replace(parameters=params)


def write_out(name, grad_name, op, args, kwargs, out):
    """Run ``op(*args, **kwargs)`` and copy its result into ``out``; returns ``out``.
    ``grad_name``: the op's name in PyTorch's autograd error, None for an op without gradients."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if grad_name is not None and grad_mode._State.enabled and _any_requires_grad(out, args, kwargs):
        raise RuntimeError(f"{grad_name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    result = op(*args, **kwargs)
    if not isinstance(result, Tensor):  # ``where(cond)`` alone returns a tuple of index tensors
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
    _check_dtype(name, result.dtype, out.dtype, args, kwargs)
    if result._device != out._device:
        raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                           f"{result._device} and {out._device}!")
    check_writable(out)
    if result._shape != out._shape:
        _resize(out, result._shape)
    write_into(out, result._array)
    return out


def _check_dtype(name, result, out, args, kwargs):
    """May ``out`` (a dtype) take a ``result`` of this dtype? PyTorch's RuntimeError if not."""
    if name in BOOL_ONLY and out is not _dtype.bool:
        raise RuntimeError(f"{name} does not support non-boolean outputs.")
    exact = name in EXACT_DTYPE and not (name in CLAMPS and any(isinstance(x, Tensor)
                                                                for x in (*args[1:], *kwargs.values())))
    if exact and out is not result:
        raise RuntimeError(EXACT_DTYPE[name].format(out=_LEGACY[out.name], result=_LEGACY[result.name]))
    if not can_cast(result, out):
        raise RuntimeError(f"result type {_LEGACY[result.name]} can't be cast to the desired output "
                           f"type {_LEGACY[out.name]}")


def _any_requires_grad(out, args, kwargs):
    return out._requires_grad or any(isinstance(x, Tensor) and x._requires_grad
                                     for x in (*args, *kwargs.values()))


def _resize(out, shape):
    """Give ``out`` the result's shape, contiguous: in its own storage when that is large enough (as
    ``resize_`` does), else in a new one. Warns, as PyTorch does, when ``out`` had elements."""
    if out.numel():
        warnings.warn(f"An output with one or more elements was resized since it had shape "
                      f"[{', '.join(map(str, out._shape))}], which does not match the required output shape "
                      f"[{', '.join(map(str, shape))}]. This behavior is deprecated, and in a future PyTorch "
                      "release outputs will not be resized unless they have zero elements. You can explicitly "
                      "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                      UserWarning, stacklevel=4)
    strides, size = contiguous_strides(shape), 1
    for n in shape:
        size *= n
    storage, offset, backend = out._storage, out._offset, for_device(out._device)
    if offset + size > storage._flat.size:  # too small: a new storage (other views keep the old one)
        storage, offset = type(storage)(backend.xp.empty(size, storage._flat.dtype), storage.device), 0
    array = backend.strided_view(storage._flat, offset, shape, strides)
    out._storage, out._offset, out._shape, out._stride, out._array = storage, offset, tuple(shape), strides, array
