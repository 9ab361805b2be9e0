"""Data types and PyTorch's type-promotion rules.

A dtype says how to read the bytes of a storage: ``float32`` reads 4 bytes per element as an
IEEE float, ``int64`` reads 8 bytes as a signed integer. tensorlab's dtypes wrap NumPy's.

Type promotion decides the dtype of ``a + b`` when the operands differ. PyTorch's rule has three
tiers, highest first: tensors with dimensions, zero-dimensional tensors, Python scalars. A lower tier
can only raise the result's *category* (bool < integer < floating < complex), never its width inside the
same category. So ``int32 tensor + 5`` stays int32, ``int64 tensor + 2.5`` becomes the default float
(float32), and ``float16 tensor + float64 0-dim tensor`` stays float16. A complex number is a pair of
floats (real, imaginary): complex64 holds two float32, complex128 two float64; a complex lower tier
keeps the float width of a floating higher one (``float32 tensor + 1j`` is complex64).
See course/01_tensors.
"""
import numpy as np

_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3


class dtype:
    """One element type. ``repr`` prints ``torch.float32`` so lesson output reads like PyTorch's."""

    __slots__ = ("name", "np", "itemsize", "is_floating_point", "is_complex", "is_signed", "_category",
                 "_legacy")

    def __init__(self, name, np_dtype, category, legacy):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.is_floating_point = category == _FLOAT
        self.is_complex = category == _COMPLEX
        self.is_signed = name not in ("uint8", "bool")
        self._category = category
        self._legacy = legacy  # PyTorch's legacy type name, used in some error messages

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    def to_real(self):
        """The dtype of one part of a complex number (``complex64.to_real()`` is float32); others are kept."""
        return _REAL_OF.get(self.name, self)

    def to_complex(self):
        """The complex dtype whose parts are this float dtype (``float32.to_complex()`` is complex64)."""
        if self.is_complex:
            return self
        if self.name not in _COMPLEX_OF:
            raise RuntimeError(f"Unknown Complex ScalarType for {self._legacy[:-6]}")
        return _by_name(_COMPLEX_OF[self.name])

    @property
    def bits(self):
        return self.itemsize * 8


float16 = dtype("float16", np.float16, _FLOAT, "HalfTensor")
float32 = dtype("float32", np.float32, _FLOAT, "FloatTensor")
float64 = dtype("float64", np.float64, _FLOAT, "DoubleTensor")
int8 = dtype("int8", np.int8, _INT, "CharTensor")
int16 = dtype("int16", np.int16, _INT, "ShortTensor")
int32 = dtype("int32", np.int32, _INT, "IntTensor")
int64 = dtype("int64", np.int64, _INT, "LongTensor")
uint8 = dtype("uint8", np.uint8, _INT, "ByteTensor")
bool = dtype("bool", np.bool_, _BOOL, "BoolTensor")  # noqa: A001 - PyTorch's name
complex64 = dtype("complex64", np.complex64, _COMPLEX, "ComplexFloatTensor")
complex128 = dtype("complex128", np.complex128, _COMPLEX, "ComplexDoubleTensor")
half, float, double = float16, float32, float64  # noqa: A001
short, int, long = int16, int32, int64  # noqa: A001
cfloat, cdouble = complex64, complex128

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool)  # the real dtypes
COMPLEX = (complex64, complex128)
_FROM_NUMPY = {d.np: d for d in ALL + COMPLEX}
_REAL_OF = {"complex64": float32, "complex128": float64}
_COMPLEX_OF = {"float32": "complex64", "float64": "complex128", "float16": "complex32"}


def _by_name(name):
    found = next((d for d in ALL + COMPLEX if d.name == name), None)
    if found is None:  # complex32 (chalf): PyTorch's half-precision complex, which tensorlab lacks
        raise TypeError(f"tensorlab has no dtype {name} (PyTorch's torch.{name} is experimental)")
    return found


def from_numpy_dtype(np_dtype):
    """The tensorlab dtype for a NumPy dtype, or TypeError as PyTorch raises for unsupported ones."""
    try:
        return _FROM_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only supported types "
            "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool.") from None


_default_dtype = float32


def get_default_dtype():
    """The dtype of floating tensors made from Python floats (float32 unless changed)."""
    return _default_dtype


def set_default_dtype(d):
    global _default_dtype
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_dtype = d


def default_complex_dtype():
    """The dtype of complex tensors made from Python complex numbers: the default float's complex
    partner (complex64 while the default is float32, complex128 after ``set_default_dtype(float64)``)."""
    return _default_dtype.to_complex() if _default_dtype is not float16 else _by_name("complex32")


def promote_types(a, b):
    """The smallest dtype both ``a`` and ``b`` convert to without losing their category.

    A float meeting a complex keeps its width in the parts: float64 with complex64 is complex128.

    >>> promote_types(int32, float16), promote_types(uint8, int8), promote_types(bool, int64)
    (torch.float16, torch.int16, torch.int64)
    >>> promote_types(float64, complex64), promote_types(int64, complex64)
    (torch.complex128, torch.complex64)
    """
    if a is b:
        return a
    if a._category != b._category and (a._category < _FLOAT or b._category < _FLOAT):
        return a if a._category > b._category else b
    return _FROM_NUMPY[np.promote_types(a.np, b.np)]  # float/float, float/complex, complex/complex


def scalar_dtype(value):
    """The dtype PyTorch gives a Python scalar: bool, int64, the default float or the default complex."""
    if isinstance(value, (builtins_bool, np.bool_)):
        return bool
    if isinstance(value, (builtins_int, np.integer)):
        return int64
    if isinstance(value, (_builtins.complex, np.complexfloating)):
        return default_complex_dtype()
    return _default_dtype


import builtins as _builtins  # noqa: E402

builtins_bool, builtins_int = _builtins.bool, _builtins.int


def result_type(*operands):
    """The dtype of an elementwise op on ``operands`` (tensors and Python scalars), by PyTorch's tiers.

    >>> import tensorlab as t
    >>> result_type(t.tensor([1, 2]), 2.5), result_type(t.tensor([1], dtype=t.int32), 7)
    (torch.float32, torch.int32)
    """
    if operands and _one_array_dtype(operands):  # tensors of one dtype (a stack or cat of a batch): it
        return _FROM_NUMPY[operands[0]._array.dtype]
    tiers = [None, None, None]  # dimensioned tensors, 0-dim tensors, Python scalars
    for x in operands:
        if hasattr(x, "_array"):
            d, tier = x.dtype, (0 if x.ndim else 1)
        else:
            d, tier = scalar_dtype(x), 2
        tiers[tier] = d if tiers[tier] is None else promote_types(tiers[tier], d)
    return _combine(tiers[0], _combine(tiers[1], tiers[2]))


def _one_array_dtype(operands):
    """Are all ``operands`` tensors with arrays of one dtype?"""
    first = getattr(operands[0], "_array", None)
    if first is None:
        return False
    for x in operands:
        array = getattr(x, "_array", None)
        if array is None or array.dtype is not first.dtype:
            return False
    return True


def _combine(higher, lower):
    """A higher tier's dtype, raised to the category of a lower tier's (PyTorch's combine_categories).

    >>> _combine(int32, float64), _combine(float16, int64), _combine(float32, complex128)
    (torch.float64, torch.float16, torch.complex64)
    """
    if higher is None or lower is None:
        return lower if higher is None else higher
    if higher.is_complex:
        return higher
    if lower.is_complex:  # a float keeps its width: float32 with any complex is complex64
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is bool or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def can_cast(from_, to):
    """Whether PyTorch's in-place/``out=`` casting rule allows ``from_`` -> ``to``: never to a lower
    category (complex -> float, float -> int, int -> bool).

    >>> can_cast(int32, float32), can_cast(float32, int32), can_cast(complex64, float64)
    (True, False, False)
    """
    return from_._category <= to._category


_C_NAMES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
            "float16": "c10::Half", "float32": "float"}


def checked_number(value, dtype, numel=2):
    """A Python number as an element of ``dtype`` holds it, with PyTorch's check (``fill_``): an
    integer type cuts a float towards zero and refuses what it cannot hold (NaN, too big) -- except
    that an unsigned type takes negatives down to -max, wrapped as C does; float32 refuses a finite
    value past its range. (So does float16, but PyTorch skips the check for a one-element tensor,
    whose value then becomes inf.) float64, bool and complex take ``value`` as it is.

    >>> checked_number(2.7, int32), checked_number(-1, uint8)
    (2, 255)
    >>> checked_number(300, int8)
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type int8_t without overflow
    """
    if dtype.name not in _C_NAMES or isinstance(value, _builtins.complex):
        return value
    error = RuntimeError(f"value cannot be converted to type {_C_NAMES[dtype.name]} without overflow")
    if dtype.is_floating_point:
        too_big = abs(value) > np.finfo(dtype.np).max and abs(value) != _builtins.float("inf")
        if too_big and (dtype.name == "float32" or numel != 1):
            raise error
        return value
    info = np.iinfo(dtype.np)
    lowest = -_builtins.int(info.max) if info.min == 0 else _builtins.int(info.min)
    if isinstance(value, (_builtins.float, np.floating)):
        # compared as doubles, as PyTorch does: float(2**63 - 1) is 2**63, which passes and wraps
        if value != value or not _builtins.float(lowest) <= value <= _builtins.float(info.max):
            raise error
        value = _builtins.int(value)
        if value > info.max:
            return _builtins.int(info.min)
    value = _builtins.int(value)
    if not lowest <= value <= info.max:
        raise error
    return value % (_builtins.int(info.max) + 1) if value < 0 and info.min == 0 else value


class finfo:
    """Limits of a floating dtype: ``finfo(float32).eps`` is the gap between 1.0 and the next float.
    A complex dtype answers for its parts (``finfo(complex64)`` is ``finfo(float32)``)."""

    def __init__(self, type=None):  # noqa: A002 - PyTorch's argument name
        type = (type or _default_dtype).to_real()
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(type.np)
        self.dtype, self.bits = type.name, info.bits
        real = _builtins.float  # this module's ``float`` is the dtype
        self.eps, self.max, self.min = real(info.eps), real(info.max), real(info.min)
        self.tiny = self.smallest_normal = real(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype: ``iinfo(int8).min`` is -128."""

    def __init__(self, type):  # noqa: A002 - PyTorch's argument name
        if type is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point or type.is_complex:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(type.np)
        self.dtype, self.bits, self.min, self.max = type.name, info.bits, _builtins.int(info.min), \
            _builtins.int(info.max)

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


_PYTHON_TYPES = {"float": float64, "int": int64, "bool": bool, "complex": complex128}


def resolve(value, fn_name):
    """A ``dtype=`` argument as PyTorch reads it: a dtype (or None) as is, and the Python types ``float``,
    ``int``, ``bool``, ``complex`` as float64, int64, bool, complex128 (what NumPy and PyTorch make of
    Python numbers). Anything
    else -- the string ``'float32'``, ``np.float32`` -- is a TypeError, as in PyTorch."""
    if value is None or isinstance(value, dtype):
        return value
    import builtins
    if value in (builtins.float, builtins.int, builtins.bool, builtins.complex):
        return _PYTHON_TYPES[value.__name__]
    raise TypeError(f"{fn_name}(): argument 'dtype' must be torch.dtype, not {type(value).__name__}")


def reads_dtype(fn):
    """Decorator: run ``dtype=`` through ``resolve`` before ``fn`` sees it."""
    import functools

    @functools.wraps(fn)
    def with_dtype(*args, **kwargs):
        if kwargs.get("dtype") is not None and not isinstance(kwargs["dtype"], dtype):
            kwargs["dtype"] = resolve(kwargs["dtype"], fn.__name__)
        return fn(*args, **kwargs)
    return with_dtype
