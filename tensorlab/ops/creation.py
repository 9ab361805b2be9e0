"""Making tensors: from data, filled, ranges, and random (reproducible with ``manual_seed``).

Random numbers come from one NumPy generator that ``manual_seed`` resets, so every lesson that seeds
prints the same numbers on every run. (They are not PyTorch's numbers: the two libraries use
different generators.) See course/01_tensors.
"""
import math
import numbers

import numpy as np

from .. import _dtype, _layout
from .._device import as_device
from ..backend import for_device
from .. import tensor as _t
from ._util import method

# -- random state ---------------------------------------------------------------------------------


class Generator:
    """A source of random numbers; ``manual_seed`` makes it repeat."""

    def __init__(self, device="cpu"):
        self.device = as_device(device)
        self._seed = 67280421310721
        self._rng = np.random.default_rng(self._seed)

    def manual_seed(self, seed):
        self._seed = int(seed)
        self._rng = np.random.default_rng(self._seed)
        return self

    def seed(self):
        self._seed = int(np.random.SeedSequence().entropy % (2**63))
        self._rng = np.random.default_rng(self._seed)
        return self._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        return _t.Tensor._from_array(np.frombuffer(repr(self._rng.bit_generator.state).encode(),
                                                   dtype=np.uint8).copy())

    def set_state(self, state):
        import ast
        self._rng.bit_generator.state = ast.literal_eval(bytes(state.numpy()).decode())
        return self


default_generator = Generator()


def manual_seed(seed):
    """Seed the random numbers of every tensorlab function (rand, randn, dropout, shuffling...)."""
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)


def _rng(generator):
    return (generator or default_generator)._rng


# -- helpers ---------------------------------------------------------------------------------------


def _size(args):
    """Accept ``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])``, like PyTorch."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, _t.Size)):
        args = tuple(args[0])
    try:
        shape = tuple(int(s) if not isinstance(s, bool) else None for s in args)
    except TypeError:
        raise TypeError(f"size must be a sequence of ints, but got {args!r}") from None
    if any(s is None for s in shape):
        raise TypeError("size must contain ints, not bool")
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: "
                           f"[{', '.join(map(str, shape))}]")
    return shape


def _finish(array, device, requires_grad=False):
    device = as_device(device)
    if device.type != "cpu":
        array = for_device(device).asarray(array)
    t = _t.Tensor._from_array(array, device)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _infer_dtype(data):
    """PyTorch's dtype for nested Python data: bool < int64 < default float."""
    if isinstance(data, np.ndarray):
        return _dtype.from_numpy_dtype(data.dtype)
    if isinstance(data, np.generic):
        return _dtype.from_numpy_dtype(data.dtype)
    kinds = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, _t.Tensor):
            kinds.add(x.dtype)
        elif isinstance(x, (bool, np.bool_)):
            kinds.add(_dtype.bool)
        elif isinstance(x, (int, np.integer)):
            kinds.add(_dtype.int64)
        elif isinstance(x, numbers.Real):
            kinds.add(_dtype.get_default_dtype())
        elif isinstance(x, np.ndarray):
            kinds.add(_dtype.from_numpy_dtype(x.dtype))
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")
    result = None
    for d in kinds:
        result = d if result is None else _dtype.promote_types(result, d)
    return result or _dtype.get_default_dtype()


def _to_numpy_data(data):
    if isinstance(data, _t.Tensor):
        return for_device(data.device).to_numpy(data._array)
    if isinstance(data, (list, tuple)):
        return [_to_numpy_data(x) for x in data]
    return data


# -- from data -------------------------------------------------------------------------------------


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a *copy* of ``data`` (nested lists, numbers, arrays or tensors)."""
    if isinstance(data, _t.Tensor):
        import warnings
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone()."
                      "detach() or sourceTensor.clone().detach().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    dtype = dtype or _infer_dtype(data)
    array = np.array(_to_numpy_data(data), dtype=dtype.np)
    if array.dtype == object:
        raise ValueError("expected sequence of equal-length lists")
    return _finish(array, device, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Like ``tensor`` but shares memory with a NumPy array or tensor when dtype and device allow."""
    if isinstance(data, _t.Tensor):
        if (dtype is None or data.dtype is dtype) and (device is None or data.device == as_device(device)):
            return data
        return data.to(device=device, dtype=dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np == data.dtype) and \
            as_device(device).type == "cpu":
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


asarray = as_tensor


def from_numpy(array):
    """A tensor that shares memory with ``array``: writes through either are seen by the other."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dt = _dtype.from_numpy_dtype(array.dtype)
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with "
                         "negative strides are not currently supported. (You can probably work around "
                         "this by making a copy of your array  with array.copy().) ")
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. "
                         "Conversion between byte orders is currently not supported.")
    array = array.astype(dt.np, copy=False)
    return _t.Tensor._from_array(array)


def from_dlpack(ext):
    """Zero-copy import from any object with ``__dlpack__`` (NumPy, PyTorch, CuPy...)."""
    if hasattr(ext, "__dlpack_device__") and ext.__dlpack_device__()[0] == 2:  # kDLCUDA
        xp = for_device(as_device("cuda")).xp
        return _t.Tensor._from_array(xp.from_dlpack(ext), as_device("cuda"))
    return _t.Tensor._from_array(np.from_dlpack(ext))


def _legacy_constructor(self, args, device):
    """``Tensor(data)`` or ``Tensor(*sizes)`` -- always the default float dtype."""
    dtype = _dtype.get_default_dtype()
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)) and not isinstance(args[0], _t.Size):
        data = args[0]
        if isinstance(data, _t.Tensor):
            src = data
        else:
            src = tensor(data, dtype=dtype, device=device)
    else:
        src = empty(*args, dtype=dtype, device=device) if args else empty(0, dtype=dtype, device=device)
    self._init(src._storage, src._offset, src._shape, src._stride, src._array, src._version_counter,
               src._base)


def _rebuild(array, requires_grad):
    t = from_numpy(array)
    t._requires_grad = requires_grad
    return t


# -- filled ----------------------------------------------------------------------------------------


def _filled(fill, size, dtype, device, requires_grad, out=None):
    dtype = dtype or (_dtype.get_default_dtype() if fill is None or isinstance(fill, float) else
                      _dtype.scalar_dtype(fill))
    shape = _size(size)
    xp = for_device(as_device(device)).xp
    array = xp.empty(shape, dtype.np) if fill is None else xp.full(shape, fill, dtype.np)
    t = _t.Tensor._from_array(array, as_device(device))
    if requires_grad:
        t.requires_grad_(True)
    return t


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None, pin_memory=False):
    return _filled(0.0 if dtype is None else 0, size, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None, pin_memory=False):
    return _filled(1.0 if dtype is None else 1, size, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None, pin_memory=False,
          memory_format=None):
    return _filled(None, size, dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False, out=None, layout=None):
    if dtype is None:
        dtype = _dtype.scalar_dtype(fill_value.item() if isinstance(fill_value, _t.Tensor) else fill_value)
    return _filled(fill_value, (size,) if not isinstance(size, (int, np.integer)) else ((size,),), dtype,
                   device, requires_grad)


def empty_strided(size, stride, dtype=None, device=None, requires_grad=False):
    """An uninitialised tensor with exactly these strides (its storage is just big enough)."""
    dtype = dtype or _dtype.get_default_dtype()
    device = as_device(device)
    size, stride = tuple(size), tuple(stride)
    n = 0 if 0 in size else 1 + sum((s - 1) * st for s, st in zip(size, stride))
    backend = for_device(device)
    flat = backend.empty(n, dtype.np)
    t = object.__new__(_t.Tensor)
    from ..storage import UntypedStorage
    t._init(UntypedStorage(flat, device), 0, size, stride, backend.strided_view(flat, 0, size, stride))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _like(fill, input, dtype, device, requires_grad):
    return _filled(fill, (input._shape,), dtype or input.dtype, device or input.device, requires_grad)


def zeros_like(input, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None):
    return _like(0, input, dtype, device, requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None):
    return _like(1, input, dtype, device, requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None):
    return _like(None, input, dtype, device, requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False, memory_format=None,
              layout=None):
    return _like(fill_value, input, dtype, device, requires_grad)


@method()
def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    return zeros(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


@method()
def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    return ones(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


@method()
def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    return empty(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


@method()
def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                requires_grad=requires_grad)


@method()
def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


# -- ranges ----------------------------------------------------------------------------------------


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False, out=None,
           layout=None):
    """Values from ``start`` up to (not including) ``end``, ``step`` apart."""
    if end is None:
        start, end = 0, start
    start, end, step = (x.item() if isinstance(x, _t.Tensor) else x for x in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    if dtype is None:
        is_int = all(isinstance(x, (int, np.integer)) for x in (start, end, step))
        dtype = _dtype.int64 if is_int else _dtype.get_default_dtype()
    n = math.ceil((end - start) / step)
    array = (start + np.arange(n, dtype=np.float64) * step) if dtype.is_floating_point else \
        np.arange(start, end, step, dtype=np.int64)
    return _finish(array.astype(dtype.np), device, requires_grad)


def range(start, end, step=1, *, dtype=None, device=None, requires_grad=False):  # noqa: A001
    import warnings
    warnings.warn("torch.range is deprecated and will be removed in a future release because its "
                  "behavior is inconsistent with Python's range builtin. Instead, use torch.arange, "
                  "which produces values in [start, end).", UserWarning, stacklevel=2)
    n = int(math.floor((end - start) / step)) + 1
    array = start + np.arange(n, dtype=np.float64) * step
    return _finish(array.astype((dtype or _dtype.get_default_dtype()).np), device, requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, out=None):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    dtype = dtype or _dtype.get_default_dtype()
    array = np.linspace(float(start), float(end), int(steps))
    if not dtype.is_floating_point:
        array = np.trunc(array)
    return _finish(array.astype(dtype.np), device, requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    dtype = dtype or _dtype.get_default_dtype()
    array = np.power(float(base), np.linspace(float(start), float(end), int(steps)))
    return _finish(array.astype(dtype.np), device, requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, out=None):
    dtype = dtype or _dtype.get_default_dtype()
    return _finish(np.eye(n, n if m is None else m, dtype=dtype.np), device, requires_grad)


# -- random ------------------------------------------------------------------------------------------


def _random(draw, size, dtype, device, requires_grad):
    dtype = dtype or _dtype.get_default_dtype()
    shape = _size(size)
    return _finish(draw(shape).astype(dtype.np, copy=False), device, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None):
    """Uniform on [0, 1)."""
    return _random(lambda s: _rng(generator).random(s), size, dtype, device, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None):
    """Standard normal (mean 0, standard deviation 1)."""
    return _random(lambda s: _rng(generator).standard_normal(s), size, dtype, device, requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    """Integers in [low, high)."""
    if high is None:
        low, high = 0, low
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    shape = _size((size,))
    array = _rng(generator).integers(low, high, shape)
    return _finish(array.astype((dtype or _dtype.int64).np), device, requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    """A random permutation of 0..n-1."""
    return _finish(_rng(generator).permutation(int(n)).astype((dtype or _dtype.int64).np), device,
                   requires_grad)


def rand_like(input, dtype=None, device=None, requires_grad=False, memory_format=None):
    return rand(input._shape, dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def randn_like(input, dtype=None, device=None, requires_grad=False, memory_format=None):
    return randn(input._shape, dtype=dtype or input.dtype, device=device or input.device,
                 requires_grad=requires_grad)


def randint_like(input, low=0, high=None, dtype=None, device=None, requires_grad=False):
    return randint(low, high, input._shape, dtype=dtype or input.dtype, device=device or input.device)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
           out=None):
    """Normal samples; ``mean``/``std`` may be tensors (broadcast) or numbers (then ``size`` is needed)."""
    m = mean._array if isinstance(mean, _t.Tensor) else mean
    s = std._array if isinstance(std, _t.Tensor) else std
    if isinstance(s, (int, float)) and s < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {s}")
    like = mean if isinstance(mean, _t.Tensor) else std if isinstance(std, _t.Tensor) else None
    if size is None and like is None:
        raise TypeError("normal() missing required argument 'size'")
    shape = _size((size,)) if size is not None else np.broadcast_shapes(np.shape(m), np.shape(s))
    dtype = dtype or (like.dtype if like is not None else _dtype.get_default_dtype())
    array = _rng(generator).standard_normal(shape) * s + m
    return _finish(np.asarray(array).astype(dtype.np), device or (like.device if like is not None else None),
                   requires_grad)


def bernoulli(input, p=None, *, generator=None):
    probs = input._array if p is None else p
    return _finish((_rng(generator).random(input._shape) < probs).astype(input.dtype.np), input.device)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    probs = np.asarray(input.detach().numpy(), dtype=np.float64)
    rng = _rng(generator)
    rows = probs.reshape(-1, probs.shape[-1])
    out = np.stack([rng.choice(row.size, num_samples, replace=replacement, p=row / row.sum()) for row in rows])
    return _finish(out.reshape(probs.shape[:-1] + (num_samples,)).astype(np.int64), input.device)


@method()
def uniform_(self, a=0.0, b=1.0, *, generator=None):
    """Fill in place with uniform samples on [a, b)."""
    return self._fill_inplace(_rng(generator).uniform(a, b, self._shape))


@method()
def normal_(self, mean=0.0, std=1.0, *, generator=None):
    return self._fill_inplace(_rng(generator).normal(mean, std, self._shape))


@method()
def random_(self, low=0, high=None, *, generator=None):
    if high is None:
        low, high = 0, low if low else 2 ** min(self.dtype.np.itemsize * 8 - 1, 53)
    return self._fill_inplace(_rng(generator).integers(low, high, self._shape))


@method()
def bernoulli_(self, p=0.5, *, generator=None):
    return self._fill_inplace(_rng(generator).random(self._shape) < p)


@method()
def exponential_(self, lambd=1.0, *, generator=None):
    return self._fill_inplace(_rng(generator).exponential(1.0 / lambd, self._shape))


@method()
def _fill_inplace(self, values):
    """Write ``values`` (a NumPy array) into this tensor's memory, as an untracked in-place op."""
    from .inplace import check_inplace
    check_inplace(self)
    self._array[...] = for_device(self.device).asarray(values.astype(self.dtype.np))
    self._bump_version()
    return self


__all__ = ["tensor", "as_tensor", "asarray", "from_numpy", "from_dlpack", "zeros", "ones", "empty", "full",
           "empty_strided", "zeros_like", "ones_like", "empty_like", "full_like", "arange", "range",
           "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm", "rand_like", "randn_like",
           "randint_like", "normal", "bernoulli", "multinomial", "manual_seed", "seed", "initial_seed",
           "get_rng_state", "set_rng_state", "Generator", "default_generator"]
