"""Ranges: ``arange``, ``linspace``, ``logspace`` (evenly spaced values) and ``eye``.

``arange(start, end, step)`` stops *before* ``end`` and has ``ceil((end - start) / step)`` elements --
computed in float64, so a float step can land just below ``end`` or not, exactly as in PyTorch.
``linspace`` instead fixes the number of points and includes both ends.
See course/01_tensors.
"""
import math
import warnings

import numpy as np

from .. import _dtype
from .. import tensor as _t


def _finish(array, device, requires_grad):
    from .creation import _finish as finish
    return finish(array, device, requires_grad)


def _check_requires_grad(dtype, requires_grad):
    from .creation import _check_requires_grad as check
    check(dtype, requires_grad)


def _check_int64(x):
    """PyTorch's errors for a Python int that is no int64: past 64 bits, or an unsigned 64-bit value."""
    if isinstance(x, int) and not -2 ** 63 <= x < 2 ** 64:
        raise OverflowError("int too big to convert")
    if isinstance(x, int) and x >= 2 ** 63:
        raise RuntimeError("value cannot be converted to type int64_t without overflow")


def _number(x):
    return x.item() if isinstance(x, _t.Tensor) else x


@_dtype.reads_dtype
def arange(start=None, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, pin_memory=False,
           requires_grad=False):
    """Values from ``start`` up to (not including) ``end``, ``step`` apart.

    Its length is ``ceil((end - start) / step)``, computed in float64 -- so with a float step a value
    just below ``end`` can appear or not depending on rounding, exactly as in PyTorch.
    """
    if end is None and start is None:
        from .creation import invalid_combination
        raise invalid_combination("arange", (), ["Number end, *, Tensor out = None, ...",
                                                 "Number start, Number end, *, ...",
                                                 "Number start, Number end, Number step = 1, *, ..."])
    if end is None:  # arange(end)
        start, end = 0, start
    if start is None:  # arange(end=5)
        start = 0
    start, end, step = _number(start), _number(end), _number(step)
    for name, x in (("start", start), ("end", end), ("step", step)):
        if not isinstance(x, (int, float, np.integer, np.floating, np.bool_)):
            raise TypeError(f"arange(): argument '{name}' must be Number, not {type(x).__name__}")
        _check_int64(x)
    if dtype is None:
        is_int = all(isinstance(x, (int, np.integer)) for x in (start, end, step))
        dtype = _dtype.int64 if is_int else _dtype.get_default_dtype()
    if dtype is _dtype.bool:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is _dtype.int64:  # int64 ranges: the bounds are truncated first
        start, end, step = int(start), int(end), int(step)
        if step == 0:
            raise ValueError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = math.ceil((end - start) / step)
    if not dtype.is_floating_point:  # other integer types: the length from the exact bounds, then whole steps
        start, step = int(start), int(step)
    _check_requires_grad(dtype, requires_grad)
    try:
        array = start + np.arange(n, dtype=np.float64 if dtype.is_floating_point else np.int64) * step
        return _finish(array.astype(dtype.np), device, requires_grad)
    except MemoryError:
        from .creation import cannot_allocate
        raise cannot_allocate(n * dtype.itemsize) from None


@_dtype.reads_dtype
def range(start, end, step=1, *, out=None, dtype=None, layout=None, device=None,  # noqa: A001
          requires_grad=False):
    """Deprecated: like ``arange`` but *including* ``end``."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
                  "in [start, end).", UserWarning, stacklevel=2)
    n = int(math.floor((end - start) / step)) + 1
    array = start + np.arange(n, dtype=np.float64) * step
    return _finish(array.astype((dtype or _dtype.get_default_dtype()).np), device, requires_grad)


@_dtype.reads_dtype
def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end``, both included."""
    if not isinstance(steps, (int, np.integer)):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtype or _dtype.get_default_dtype()
    if dtype is _dtype.bool:
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    start, end = float(_number(start)), float(_number(end))
    if dtype in (_dtype.float32, _dtype.float64):
        array = _linspace_in(dtype.np.type, start, end, int(steps))
    elif dtype.is_floating_point:
        array = np.linspace(start, end, int(steps))
    else:  # integer steps are computed in float and truncated
        step = (end - start) / (steps - 1) if steps > 1 else 0.0
        array = np.trunc(start + np.arange(steps) * step)
    return _finish(array.astype(dtype.np), device, requires_grad)


def _linspace_in(np_type, start, end, steps):
    """PyTorch's CPU linspace, in the result's own precision: step = (end - start) / (steps - 1); the first
    half counts up from ``start``, the second half down from ``end``, so both ends come out exact. Each value
    is one fused multiply-add (``start + step * i`` rounded once, as PyTorch's compiled kernel does it;
    emulated here in NumPy's extended precision, which rounds twice -- one ulp off -- only where the exact
    value needs more bits than it has: ends far apart in magnitude, or a long float64 linspace). So a value
    can differ from NumPy's ``linspace`` in the last place -- and that decides which bin of a ``histogram``
    an element on an edge falls in."""
    start, end = np_type(start), np_type(end)
    if steps == 1:
        return np.array([start])
    step = (end - start) / np_type(steps - 1)
    index, wide = np.arange(steps), np.longdouble
    up = wide(start) + wide(step) * index
    down = wide(end) - wide(step) * (steps - 1 - index)
    return np.where(index < steps // 2, up, down).astype(np_type)


@_dtype.reads_dtype
def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """``base ** linspace(start, end, steps)``."""
    dtype = dtype or _dtype.get_default_dtype()
    array = np.power(float(base), np.linspace(float(_number(start)), float(_number(end)), int(steps)))
    return _finish(array.astype(dtype.np), device, requires_grad)


@_dtype.reads_dtype
def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """The identity matrix (``n`` x ``m``; square when ``m`` is omitted)."""
    for name, position, x in (("n", 1, n), ("m", 2, m)):
        if x is not None and (isinstance(x, bool) or not isinstance(x, (int, np.integer))):
            raise TypeError(f"eye(): argument '{name}' (position {position}) must be int, not {type(x).__name__}")
        if x is not None and not -2 ** 63 <= x < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    dtype = dtype or _dtype.get_default_dtype()
    from .creation import check_storage_size
    rows, cols = int(n), int(n if m is None else m)
    check_storage_size((rows, cols), dtype)
    return _finish(np.eye(rows, cols, dtype=dtype.np), device, requires_grad)


__all__ = ["arange", "range", "linspace", "logspace", "eye"]
