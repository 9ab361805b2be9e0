"""``histc`` and ``histogram``: count how many elements fall into each of ``bins`` bins.

``histc`` uses ``bins`` equal-width bins over [min, max]; ``histogram`` also returns the bin edges, takes
the edges themselves (``histogram(x, torch.tensor([0., 1., 5.]))``), per-element weights, and
``density=True`` (counts divided by total * bin width, so the bars' area is 1).

An element x lands in bin ``floor((x - min) * bins / (max - min))``; the last bin also takes x == max,
and elements outside [min, max] (and NaNs) are not counted. ``min == max`` (the default 0, 0) means
"the data's own range"; if that range is a single value v, the bins cover [v - 1, v + 1].
Counting is not differentiable: the result never has a grad_fn. See course/04_ops_and_reductions.
"""
import math

from ._util import method, tensor_arg, wrap, xp_of


def _c_double(v):
    """A range end as PyTorch's C++ prints a double: 1, 0.5, inf (and -nan: x86's default NaN has its sign
    bit set, and PyTorch's min/max of data holding a NaN returns that one)."""
    if math.isnan(v):
        return "-nan"
    return str(int(v)) if math.isfinite(v) and float(v).is_integer() else str(v)


def _range(input, a, min, max):
    """The [left, right] edges of the histogram, by PyTorch's rules (see the module docstring)."""
    left, right = float(min), float(max)
    if left == right and a.size:
        left, right = float(a.min()), float(a.max())
    if left == right:
        left, right = left - 1, right + 1
    if not (math.isfinite(left) and math.isfinite(right)):
        raise RuntimeError(f"torch.histc: range of [{_c_double(left)}, {_c_double(right)}] is not finite")
    if not left < right:
        raise RuntimeError("torch.histc: max must be larger than min")
    return left, right


@method()
def histc(input, bins=100, min=0, max=0):
    """The histogram of ``input``'s elements (flattened): ``bins`` counts, of ``input``'s dtype."""
    tensor_arg("histc", "input", 1, input)
    if not isinstance(bins, int) or isinstance(bins, bool):
        raise TypeError(f"histc(): argument 'bins' (position 2) must be int, not {type(bins).__name__}")
    if not input.dtype.is_floating_point:
        kernel = "linspace_cpu" if input.dtype.name == "bool" else "histogram_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype._legacy[:-6]}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    xp, a = xp_of(input), input._array.reshape(-1)
    left, right = _range(input, a, min, max)
    lo, hi = xp.asarray(left, dtype=a.dtype), xp.asarray(right, dtype=a.dtype)
    inside = a[(a >= lo) & (a <= hi)]                       # NaNs fail both comparisons
    position = ((inside - lo) * bins / (hi - lo)).astype("int64")
    position = xp.minimum(position, bins - 1)               # x == max goes into the last bin
    counts = xp.bincount(position, minlength=bins)[:bins]
    return wrap(counts.astype(a.dtype), input.device)


@method()
def histogram(input, bins, *, range=None, weight=None, density=False):  # noqa: A002 - PyTorch's name
    """``(hist, bin_edges)``: the (weighted) count in each bin, and the ``bins + 1`` edges."""
    from .. import return_types
    from .creation import linspace
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{input.dtype._legacy[:-6]}'")
    xp, a = xp_of(input), input._array.reshape(-1)
    if isinstance(bins, int):
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        left, right = (float(range[0]), float(range[1])) if range is not None else (
            (float(a.min()), float(a.max())) if a.size else (0.0, 1.0))
        if left > right:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {_c_double(left)} max "
                               f"{_c_double(right)} for dimension 0")
        if left == right:  # one value: a bin of width 1 around it
            left, right = left - 0.5, right + 0.5
        edges = linspace(left, right, bins + 1, dtype=input.dtype, device=input.device)
    else:
        edges = bins.to(input.dtype)
    e = edges._array
    inside = (a >= e[0]) & (a <= e[-1])                    # NaNs fail both comparisons
    position = xp.minimum(xp.searchsorted(e, a[inside], side="right") - 1, e.size - 2)
    w = None if weight is None else weight._array.reshape(-1)[inside]
    hist = xp.bincount(position, weights=w, minlength=e.size - 1)[:e.size - 1].astype(a.dtype)
    if density:
        hist = hist / (hist.sum() * xp.diff(e))
    return return_types.histogram(wrap(hist.astype(a.dtype), input.device), edges)


__all__ = ["histc", "histogram"]
