"""Printing tensors exactly as PyTorch does: ``tensor([1.0000, 2.5000], grad_fn=<AddBackward0>)``.

Printing happens in three steps:
1. **Choose one format for every element** (``_Formatter``). Floats share one style, picked from the
   non-zero finite values: *integer style* (``1.``) when all are whole numbers, *scientific*
   (``1.0000e+10``) when the magnitudes span more than 1000x or leave the range [1e-4, 1e8], else
   *fixed* (``1.2500``, ``precision`` digits). Every element is padded to the widest one, so columns
   line up.
2. **Lay out the nested brackets** (``_tensor_body``): one line per row, blank lines between the
   blocks of 3-D tensors, at most ``linewidth`` characters per line. Tensors with more than
   ``threshold`` elements are *summarized*: only ``edgeitems`` rows at each end, joined by ``...``.
   Complex numbers get two such formats, one chosen from the real parts and one from the imaginary
   parts (``_ComplexFormatter``): ``tensor([ 1.0000+2.5000j, -3.0000-0.1000j])``.
3. **Add what the numbers don't show** (``tensor_repr``): a non-default ``dtype=``, a non-CPU
   ``device=``, ``size=`` for empty tensors, and the autograd state (``grad_fn=<...>`` or
   ``requires_grad=True``).

Everything here works on a NumPy copy of the values; it records nothing in the autograd graph.
See course/01_tensors.
"""
import contextlib
import dataclasses
import math

import numpy as np


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: object = None  # None: decided per tensor; True/False: forced


PRINT_OPTS = _PrintOptions()

_PROFILES = {"default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
             "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
             "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None):
    """Set how tensors print (as ``numpy.set_printoptions``); ``profile`` is 'default', 'short' or 'full'.

    Options left as None keep their value -- except ``sci_mode``, which is always reset (None means
    "decide per tensor"), as in PyTorch.
    """
    if profile is not None:
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current print options as a dict."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """``with printoptions(precision=2): ...`` -- options that last for one block."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# -- step 1: one format for all elements --------------------------------------------------------


class _Formatter:
    """Chooses the style and width shared by all elements of ``values`` (a NumPy array)."""

    def __init__(self, values):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating:
            self.max_width = max([1] + [len(str(v)) for v in set(flat.tolist())])
            return
        shown = flat[np.isfinite(flat) & (flat != 0)]
        if shown.size == 0:
            return  # only zeros, nan and inf: integer style, width 1
        magnitudes = np.abs(shown).astype(np.float64)
        smallest, largest = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        if PRINT_OPTS.sci_mode is None:
            with np.errstate(over="ignore"):  # a ratio past float64's range is simply inf
                spread = largest / smallest
            self.sci_mode = bool(spread > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4)
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        self.max_width = max(len(self._measure(v)) for v in set(shown.tolist()))

    def _measure(self, value):
        """The unpadded text of a non-zero finite value (integer style counts its trailing '.')."""
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            return f"{value:.0f}."
        return f"{value:.{PRINT_OPTS.precision}f}"

    def width(self):
        return self.max_width

    def format(self, value):
        """One element as text, right-aligned to the shared width."""
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        else:
            text = f"{value:.{PRINT_OPTS.precision}f}"
        return text.rjust(self.max_width)


class _ComplexFormatter:
    """Two formats for complex numbers: one for the real parts, one for the imaginary parts (as PyTorch)."""

    def __init__(self, values):
        self.real, self.imag = _Formatter(values.real), _Formatter(values.imag)

    def width(self):
        return self.real.width() + self.imag.width() + 1  # the 'j'

    def format(self, value):
        real = self.real.format(value.real)
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return real + imag if imag[0] in "+-" else real + "+" + imag


def _formatter(values):
    return _ComplexFormatter(values) if values.dtype.kind == "c" else _Formatter(values)


def _edges(array):
    """The first and last ``edgeitems`` entries along dim 0 (what a summary shows)."""
    e = PRINT_OPTS.edgeitems
    return list(array[:e]) + list(array[len(array) - e:])


def _summarized(array):
    """Only the values a summarized print shows (so hidden values don't change the format)."""
    if array.ndim == 0:
        return array
    e = PRINT_OPTS.edgeitems
    if array.ndim == 1:
        # ``a[-0:]`` is the whole array, so edgeitems=0 keeps everything here, as in PyTorch
        return np.concatenate((array[:e], array[-e:])) if len(array) > 2 * e else array
    if not e:
        return array[(slice(0, 0),) * array.ndim]
    rows = _edges(array) if len(array) > 2 * e else list(array)
    return np.stack([_summarized(row) for row in rows])


# -- step 2: brackets and lines -------------------------------------------------------------------


def _vector_body(array, indent, summarize, fmt):
    """``[a, b, c,\\n d, e]``: as many elements per line as fit in ``linewidth``."""
    e = PRINT_OPTS.edgeitems
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (fmt.width() + 2)))
    if summarize and not e:
        items = ["..."]
    elif summarize and len(array) > 2 * e:
        items = ([fmt.format(v) for v in array[:e].tolist()] + [" ..."]
                 + [fmt.format(v) for v in array[-e:].tolist()])
    else:
        items = [fmt.format(v) for v in array.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_body(array, indent, summarize, fmt):
    """Nested brackets: each sub-tensor one indent deeper, separated by ndim-1 newlines."""
    if array.ndim == 0:
        return fmt.format(array.item())
    if array.ndim == 1:
        return _vector_body(array, indent, summarize, fmt)
    e = PRINT_OPTS.edgeitems
    if summarize and len(array) > 2 * e:
        parts = ([_tensor_body(row, indent + 1, summarize, fmt) for row in array[:e]] + ["..."]
                 + [_tensor_body(row, indent + 1, summarize, fmt) for row in array[len(array) - e:]])
    else:
        parts = [_tensor_body(row, indent + 1, summarize, fmt) for row in array]
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def format_values(array, indent):
    """The bracketed numbers of ``array`` (a NumPy array), as they appear inside ``tensor(...)``.

    ``indent`` is the width of what precedes the first bracket (7 for ``tensor(``).

    >>> print(format_values(np.array([[1.0, -2.5], [30.0, 4.0]]), indent=7))
    [[ 1.0000, -2.5000],
            [30.0000,  4.0000]]
    >>> print(format_values(np.array([1.0, 2.0, 1e10]), indent=7))
    [1.0000e+00, 2.0000e+00, 1.0000e+10]
    """
    if array.size == 0:
        return "[]"
    summarize = array.size > PRINT_OPTS.threshold
    fmt = _formatter(_summarized(array) if summarize else array)
    return _tensor_body(array, indent, summarize, fmt)


# -- step 3: the suffixes ------------------------------------------------------------------------


def _add_suffixes(body, suffixes, indent):
    """Append ``, suffix`` items, starting a new line when one would pass ``linewidth``."""
    out = [body]
    last_line = len(body) - body.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > PRINT_OPTS.linewidth:
            out.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            out.append(", " + suffix)
            last_line += len(suffix) + 2
    return "".join(out) + ")"


def _host_array(t):
    """The tensor's values as a NumPy array (copied from the GPU if needed)."""
    array = t._array
    if isinstance(array, np.ndarray):
        return array
    from .backend import for_device
    return for_device(t.device).to_numpy(array)


def _is_plain(t):
    """Plain tensors and Parameters print as ``tensor(``; other subclasses show their class name."""
    from .tensor import Tensor
    return type(t) is Tensor or type(t).__name__ == "Parameter"


def _tangent(t):
    """The tangent ``t`` carries at the current dual level (tensorlab/autograd/forward_ad.py), or None."""
    from .autograd import forward_ad
    if not forward_ad._levels:
        return None
    return forward_ad.get_tangent(t, forward_ad._levels[-1].idx)


def tensor_repr(t, tensor_contents=None):
    """``repr(t)`` as PyTorch writes it."""
    from . import _dtype
    prefix = "tensor(" if _is_plain(t) else f"{type(t).__name__}("
    indent = len(prefix)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    dtype, default = t.dtype, _dtype.get_default_dtype()
    default_complex = _dtype.complex128 if default is _dtype.float64 else _dtype.complex64
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append(f"size={tuple(t.shape)}")
        if dtype is not default:
            suffixes.append(f"dtype={dtype}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(t.shape)}")
        if dtype not in (default, default_complex, _dtype.int64, _dtype.bool):
            suffixes.append(f"dtype={dtype}")
        body = None if tensor_contents is not None else format_values(_host_array(t), indent)
    if tensor_contents is not None:
        body = tensor_contents
    if t.grad_fn is not None:
        # the node's class name, as PyTorch prints it: CopySlices, not name()'s torch::autograd::CopySlices
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    tangent = _tangent(t)
    if tangent is not None:    # a dual tensor (forward-mode AD) shows its tangent last
        suffixes.append(f"tangent={tangent}")   # format(): a 0-d one prints as its number
    text = _add_suffixes(prefix + body, suffixes, indent)
    if not _is_plain(t) and any(c.__name__ == "Parameter" for c in type(t).__mro__):
        text = f"Parameter({text})"
    return text
