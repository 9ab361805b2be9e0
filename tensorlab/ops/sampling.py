"""Random tensors, reproducible with ``manual_seed``.

Every random number comes from a ``Generator`` -- the global ``default_generator`` unless you pass
``generator=``. A generator is a NumPy bit generator plus the seed it started from, so seeding it again
replays the same numbers, and every lesson that seeds prints the same values on every run.
(They are not PyTorch's numbers: the two libraries use different algorithms.)
See course/01_tensors.
"""
import numpy as np

from .. import _dtype, _layout
from .._device import as_device
from .. import tensor as _t
from ._util import method


class Generator:
    """A source of random numbers; ``manual_seed`` makes it start over."""

    def __init__(self, device="cpu"):
        self.device = as_device(device)
        self._seed = 67280421310721
        self._numpy_rng = None

    @property
    def _rng(self):
        """The NumPy generator that draws the numbers, started from the seed when first needed
        (so ``import tensorlab`` need not load ``numpy.random``)."""
        if self._numpy_rng is None:
            self._numpy_rng = np.random.default_rng(self._seed)
        return self._numpy_rng

    def manual_seed(self, seed):
        seed = int(seed)
        if not -2**63 <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        self._numpy_rng = None  # the next number is the first one drawn from this seed
        return self

    def seed(self):
        """Seed from the operating system's entropy; returns the new seed."""
        self._seed = int(np.random.SeedSequence().entropy % (2**63))
        self._numpy_rng = None
        return self._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """The generator's state as a uint8 tensor (``set_state`` puts it back)."""
        text = repr(self._rng.bit_generator.state).encode()
        return _t.Tensor._from_array(np.frombuffer(text, dtype=np.uint8).copy())

    def set_state(self, state):
        import ast
        self._rng.bit_generator.state = ast.literal_eval(bytes(state.numpy()).decode())
        return self

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"


default_generator = Generator()


def manual_seed(seed):
    """Seed every tensorlab random function (rand, randn, dropout, shuffling...); returns the generator."""
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


def _rng(generator):
    """The NumPy generator behind ``generator`` (the global one for None)."""
    if vmap_random_check is not None:  # inside vmap: random ops follow its randomness= (tensorlab/func/_vmap.py)
        vmap_random_check()
    return (generator or default_generator)._rng


vmap_random_check = None


def _make(draw, shape, dtype, device, requires_grad, default=None):
    from .creation import _finish, check_storage_size
    dtype = dtype or default or _dtype.get_default_dtype()
    check_storage_size(shape, dtype)
    try:
        values = draw(shape)
    except MemoryError:
        raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                           f"{_layout.numel(shape) * dtype.itemsize} bytes.") from None
    return _finish(np.asarray(values).astype(dtype.np, copy=False), device, requires_grad)


_OPTIONS = ("*, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
            "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False")


def _shape(name, sizes, size):
    from .creation import factory_shape, invalid_combination
    return factory_shape(name, sizes, size, missing=invalid_combination(name, (), [f"tuple of ints size, {_OPTIONS}"]))


@_dtype.reads_dtype
def rand(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
         pin_memory=False):
    """Uniform samples on [0, 1): ``rand(2, 3)``, ``rand((2, 3))`` or ``rand(size=(2, 3))``."""
    return _make(lambda s: _rng(generator).random(s), _shape("rand", sizes, size), dtype, device, requires_grad)


@_dtype.reads_dtype
def randn(*sizes, size=None, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
          pin_memory=False):
    """Standard normal samples (mean 0, standard deviation 1)."""
    return _make(lambda s: _rng(generator).standard_normal(s), _shape("randn", sizes, size), dtype, device,
                 requires_grad)


@_dtype.reads_dtype
def randint(*args, low=None, high=None, size=None, generator=None, dtype=None, device=None, requires_grad=False,
            out=None, layout=None, pin_memory=False):
    """Integers in [low, high): ``randint(high, size)`` or ``randint(low, high, size)`` (low is 0 if not
    given); each may also be given by keyword: ``randint(10, size=(3,))``."""
    low, high, size = _randint_arguments(args, low, high, size)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    return _make(lambda s: _rng(generator).integers(low, high, s), size, dtype, device, requires_grad,
                 default=_dtype.int64)


def _randint_arguments(args, low, high, size):
    """Sort ``randint``'s arguments into (low, high, shape) as PyTorch's two signatures do: the size is
    the last positional tuple, the number before it ``high``, the one before that ``low``."""
    from .creation import _size, invalid_combination
    positional = list(args)
    if size is None and positional and isinstance(positional[-1], (tuple, list)):
        size = positional.pop()
    if high is None and positional:
        high = positional.pop()
    if low is None and positional:
        low = positional.pop()
    if len(args) == 2 and size is None:  # randint(high, size) with a size that is not a tuple
        raise TypeError(f"randint(): argument 'size' (position 2) must be tuple of ints, not {type(args[1]).__name__}")
    if positional or (size is None and high is None and low is None) or (args and size is None):
        raise invalid_combination("randint", args, [f"int high, tuple of ints size, {_OPTIONS}",
                                                    f"int low, int high, tuple of ints size, {_OPTIONS}"])
    if high is None:  # (PyTorch's words, grammar included)
        raise TypeError('randint() missing 2 required positional argument: "high", "size"')
    if size is None:
        raise TypeError('randint() missing 1 required positional arguments: "size"')
    for name, value, position in (("low", low, 1), ("high", high, 2 if low is not None else 1)):
        if value is not None and not hasattr(value, "__index__"):
            raise TypeError(f"randint(): argument '{name}' (position {position}) must be int, not "
                            f"{type(value).__name__}")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"randint(): argument 'size' must be tuple of ints, not {type(size).__name__}")
    bad = next(((i, s) for i, s in enumerate(size) if not hasattr(s, "__index__")), None)
    if bad is not None:
        raise TypeError(f"randint(): argument 'size' (position {3 if low is not None else 2}) must be tuple of ints, "
                        f"but found element of type {type(bad[1]).__name__} at pos {bad[0]}")
    return int(low or 0), int(high), _size((size,), "randint")


@_dtype.reads_dtype
def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None):
    """A random ordering of 0 .. n-1."""
    from .creation import _size
    (n,) = _size((n,), "randperm")
    return _make(lambda s: _rng(generator).permutation(n), (n,), dtype, device, requires_grad,
                 default=_dtype.int64)


def _like(draw, input, dtype, device, requires_grad):
    """Random values in a tensor laid out like ``input`` (same memory order, as PyTorch's *_like)."""
    from .creation import empty_like
    out = empty_like(input, dtype=dtype, device=device)
    from ..backend import for_device
    out._array[...] = for_device(out.device).asarray(np.asarray(draw(input._shape)).astype(out.dtype.np))
    if requires_grad:
        out.requires_grad_(True)
    return out


@_dtype.reads_dtype
def rand_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None):
    return _like(lambda s: _rng(None).random(s), input, dtype, device, requires_grad)


@_dtype.reads_dtype
def randn_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None):
    return _like(lambda s: _rng(None).standard_normal(s), input, dtype, device, requires_grad)


@_dtype.reads_dtype
def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False,
                 memory_format=None):
    if high is None:
        low, high = 0, low
    return randint(low, high, input._shape, dtype=dtype or input.dtype, device=device or input.device,
                   requires_grad=requires_grad)


@_dtype.reads_dtype
def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
           out=None):
    """Normal samples. ``mean``/``std`` may be tensors (they broadcast) or numbers (then give ``size``)."""
    from .creation import _finish, _size
    from .. import _layout
    like = mean if isinstance(mean, _t.Tensor) else std if isinstance(std, _t.Tensor) else None
    if size is None and like is None:
        raise TypeError("normal() received an invalid combination of arguments - got (float, float), but "
                        "expected one of: (Tensor mean, Tensor std) or "
                        "(float mean, float std, tuple of ints size)")
    m = mean._array if isinstance(mean, _t.Tensor) else mean
    s = std._array if isinstance(std, _t.Tensor) else std
    if np.min(s) < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {np.min(s):g}")
    if size is not None:
        shape = _size((size,), "normal")
    else:
        shape = _layout.broadcast_shapes(np.shape(m), np.shape(s))
    dtype = dtype or (like.dtype if like is not None else _dtype.get_default_dtype())
    array = _rng(generator).standard_normal(shape) * s + m
    return _finish(np.asarray(array).astype(dtype.np), device or (like.device if like is not None else None),
                   requires_grad)


def bernoulli(input, p=None, *, generator=None, out=None):
    """1 with probability ``input`` (or ``p``), else 0, elementwise."""
    from .creation import _finish
    probs = input._array if p is None else p
    draws = _rng(generator).random(input._shape) < probs
    return _finish(draws.astype(input.dtype.np), input.device)


@method()
def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Draw ``num_samples`` category indices per row, with probabilities proportional to ``input``
    (1-d: one distribution; 2-d: one per row). Without replacement a category is drawn at most once:
    each category gets the key ``Exponential(1) / p`` and the smallest keys win -- the same as drawing
    one by one and renormalising, and categories of probability 0 come last."""
    from .creation import _finish
    probs = _check_multinomial(input, num_samples, replacement)
    rng = _rng(generator)
    rows = probs.reshape(-1, probs.shape[-1])
    if replacement:
        draws = np.stack([rng.choice(row.size, num_samples, p=row / row.sum()) for row in rows])
    else:
        with np.errstate(divide="ignore"):
            keys = rng.exponential(size=rows.shape) / rows
        draws = np.argsort(keys, axis=-1, kind="stable")[:, :num_samples]
    return _finish(draws.reshape(probs.shape[:-1] + (num_samples,)).astype(np.int64), input.device)


def _check_multinomial(input, num_samples, replacement):
    """PyTorch's checks, in PyTorch's order; returns the probabilities as float64 NumPy."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{input.dtype._legacy[:-len('Tensor')]}")
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > input.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    probs = np.asarray(input.detach().cpu().numpy(), dtype=np.float64)
    if not np.all(np.isfinite(probs) & (probs >= 0)):
        if replacement and num_samples > 1 and np.all(np.isfinite(probs)):
            raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(probs.reshape(-1, probs.shape[-1]).sum(-1) <= 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    return probs


# -- the in-place fillers (uniform_, normal_, ...) live in random_inplace.py -------------------------


@method()
def _fill_inplace(self, values):
    """Write ``values`` (a NumPy array) into this tensor's memory, as an untracked in-place op."""
    from ..backend import for_device
    from .inplace import check_inplace, check_writable
    check_writable(self)
    check_inplace(self)
    self._array[...] = for_device(self.device).asarray(np.asarray(values).astype(self.dtype.np))
    self._bump_version()
    return self


__all__ = ["rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like", "normal",
           "bernoulli", "multinomial", "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state",
           "Generator", "default_generator"]

from . import random_inplace  # noqa: E402,F401 - attaches uniform_, normal_, ... to Tensor
