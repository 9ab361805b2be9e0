"""tensorlab.fft: discrete Fourier transforms, as ``torch.fft``.

The DFT writes a signal x of length n as a sum of waves: ``X[k] = sum_t x[t] exp(-2 pi i k t / n)``.
``ifft`` goes back. ``norm`` says where the factor 1/n goes: "backward" (the default) puts it on the
inverse, "forward" on the forward transform, "ortho" puts 1/sqrt(n) on both (then the DFT is unitary).
``n`` (or ``s`` for several dims) first crops or zero-pads the input to that length.

A real signal's spectrum is Hermitian (``X[n-k] = conj(X[k])``), so ``rfft`` keeps only the n//2 + 1
non-redundant entries and ``irfft`` rebuilds a real signal from them.

**Gradients.** Every transform is linear, so its backward is the adjoint (conjugate transpose) map.
The adjoint of the DFT is the inverse DFT without its 1/n -- an inverse transform with the other
``norm`` (``_DUAL``) -- followed by undoing the crop/pad. For ``rfft`` the adjoint zero-fills the
dropped half; for ``irfft`` it is ``rfft`` with the entries that stood for two (k and n-k) doubled.
The gradients follow PyTorch's complex convention (tensorlab/ops/complex.py).
See course/04_ops_and_reductions.
"""
import numpy as np

from . import _dtype, _layout
from .autograd.function import Function
from .ops._util import wrap, xp_of
from .ops.creation import tensor as _tensor

_NORMS = ("backward", "ortho", "forward")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


# -- reading the arguments ------------------------------------------------------------------------


def _norm(norm):
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _plan(x, s, dim, default_dims=None):
    """The dims to transform and the signal length along each (``s``, -1 meaning "as it is")."""
    ndim = x.dim()
    if isinstance(s, int):
        s = (s,)
    if isinstance(dim, int):
        dim = (dim,)
    if s is not None and dim is not None and len(s) != len(dim):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    if s is not None and len(s) > ndim:
        raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.")
    if dim is None:
        dim = default_dims if default_dims is not None and s is None else (
            range(ndim) if s is None else range(ndim - len(s), ndim))
    if ndim == 0:
        raise IndexError(f"Dimension specified as {tuple(dim)[0] if dim else -1} but tensor has no dimensions")
    dims = tuple(_layout.normalize_dim(d, ndim) for d in dim)
    if len(set(dims)) != len(dims):
        raise RuntimeError("FFT dims must be unique")
    sizes = tuple(x._shape[d] if s is None or s[i] == -1 else int(s[i]) for i, d in enumerate(dims))
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _n(n):
    """A 1-D transform's ``n``: a length (where ``s`` of the n-D ones also takes -1, "as it is")."""
    if n is not None and n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return n


def _as_real(x):
    """Real inputs compute in float32/float64 (integers and bools in the default float)."""
    if x.dtype.is_complex:
        return x
    if x.dtype is _dtype.float16:
        raise RuntimeError("Unsupported dtype Half")
    return x if x.dtype.is_floating_point else x.to(_dtype.get_default_dtype())


def _resize(t, dims, sizes):
    """Crop or zero-pad ``t`` at the end of each of ``dims`` to ``sizes`` (differentiable)."""
    from .ops import cat
    for d, n in zip(dims, sizes):
        have = t._shape[d]
        if have > n:
            t = t.narrow(d, 0, n)
        elif have < n:
            pad = list(t._shape)
            pad[d] = n - have
            t = cat([t, t.new_zeros(pad)], d)
    return t


# -- the three kinds of transform ------------------------------------------------------------------


class FftC2C(Function):
    """Complex to complex: ``fftn`` (``inverse=False``) or ``ifftn``."""

    node_name = "FftC2CBackward0"

    @staticmethod
    def forward(ctx, z, dims, sizes, norm, inverse):
        xp = xp_of(z)  # numpy.fft or cupy.fft: the same functions
        transform = xp.fft.ifftn if inverse else xp.fft.fftn
        out = transform(z._array, s=sizes, axes=dims, norm=norm).astype(z.dtype.np, copy=False)
        ctx.plan = (tuple(z._shape[d] for d in dims), dims, norm, inverse)
        return wrap(out, z.device)

    @staticmethod
    def backward(ctx, grad):
        in_sizes, dims, norm, inverse = ctx.plan
        sizes = tuple(grad._shape[d] for d in dims)
        adjoint = FftC2C.apply(grad, dims, sizes, _DUAL[norm], not inverse)
        return _resize(adjoint, dims, in_sizes), None, None, None, None


class FftR2C(Function):
    """Real to complex: the full spectrum (``fft`` of a real tensor) or, ``onesided``, its first half."""

    node_name = "FftR2CBackward0"

    @staticmethod
    def forward(ctx, x, dims, sizes, norm, onesided, inverse):
        xp = xp_of(x)
        if onesided:
            out = xp.fft.rfftn(x._array, s=sizes, axes=dims, norm=norm)
        else:
            out = (xp.fft.ifftn if inverse else xp.fft.fftn)(x._array, s=sizes, axes=dims, norm=norm)
        ctx.plan = (tuple(x._shape[d] for d in dims), dims, sizes, norm, onesided, inverse)
        return wrap(out.astype(x.dtype.to_complex().np, copy=False), x.device)

    @staticmethod
    def backward(ctx, grad):
        in_sizes, dims, sizes, norm, onesided, inverse = ctx.plan
        if onesided:  # the dropped half of the spectrum had no effect: its gradient is zero
            grad = _resize(grad, dims[-1:], sizes[-1:])
        adjoint = FftC2C.apply(grad, dims, sizes, _DUAL[norm], not inverse)
        return _resize(adjoint.real, dims, in_sizes), None, None, None, None, None


class FftC2R(Function):
    """Half a Hermitian spectrum to a real signal (``irfftn``); ``sizes[-1]`` is the output's length."""

    node_name = "FftC2RBackward0"

    @staticmethod
    def forward(ctx, z, dims, sizes, norm):
        out = xp_of(z).fft.irfftn(z._array, s=sizes, axes=dims, norm=norm)
        ctx.plan = (tuple(z._shape[d] for d in dims), dims, sizes, norm)
        return wrap(out.astype(z.dtype.to_real().np, copy=False), z.device)

    @staticmethod
    def backward(ctx, grad):
        in_sizes, dims, sizes, norm = ctx.plan
        half = FftR2C.apply(grad, dims, sizes, _DUAL[norm], True, False)
        # entries 1 .. (n-1)//2 stood for themselves and their mirror image n-k: they count twice
        n, last = sizes[-1], dims[-1]
        weights = np.ones(n // 2 + 1, dtype=grad.dtype.np)
        weights[1:(n - 1) // 2 + 1] = 2
        weights = _tensor(weights.reshape((-1,) + (1,) * (grad.dim() - 1 - last)), device=grad.device)
        return _resize(half * weights, dims, in_sizes), None, None, None


# -- the public functions ----------------------------------------------------------------------------


def _c2c(input, s, dim, norm, inverse, default_dims=None):
    dims, sizes = _plan(input, s, dim, default_dims)
    norm = _norm(norm)
    if input.dtype.is_complex:
        return FftC2C.apply(input, dims, sizes, norm, inverse)
    return FftR2C.apply(_as_real(input), dims, sizes, norm, False, inverse)


def _r2c(name, input, s, dim, norm, default_dims=None):
    if input.dtype.is_complex:  # (PyTorch words the two messages differently)
        kind = "real" if name == "rfft" else "real-valued"
        raise RuntimeError(f"{name} expects a {kind} input tensor, but got {input.dtype._legacy[:-6]}")
    dims, sizes = _plan(input, s, dim, default_dims)
    return FftR2C.apply(_as_real(input), dims, sizes, _norm(norm), True, False)


def _c2r(input, s, dim, norm, default_dims=None):
    last_given = s is not None and (s if not isinstance(s, int) else (s,))[-1] != -1
    dims, sizes = _plan(input, s, dim, default_dims)
    if not last_given:  # the default length: the half spectrum of an even-length signal
        sizes = sizes[:-1] + (2 * (input._shape[dims[-1]] - 1),)
        if sizes[-1] < 1:
            raise RuntimeError(f"Invalid number of data points ({sizes[-1]}) specified")
    z = input if input.dtype.is_complex else _as_real(input).to(_as_real(input).dtype.to_complex())
    return FftC2R.apply(z, dims, sizes, _norm(norm))


def fft(input, n=None, dim=-1, norm=None):
    """The 1-D DFT along ``dim`` (``n``: crop or zero-pad to this length first)."""
    return _c2c(input, _n(n), dim, norm, False)


def ifft(input, n=None, dim=-1, norm=None):
    """The inverse 1-D DFT along ``dim``."""
    return _c2c(input, _n(n), dim, norm, True)


def rfft(input, n=None, dim=-1, norm=None):
    """The DFT of a real signal: its n//2 + 1 non-redundant frequencies."""
    return _r2c("rfft", input, _n(n), dim, norm)


def irfft(input, n=None, dim=-1, norm=None):
    """The real signal of length ``n`` (default 2 * (size - 1)) whose ``rfft`` is ``input``."""
    return _c2r(input, _n(n), dim, norm)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    return _c2c(input, s, dim, norm, False)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return _c2c(input, s, dim, norm, True)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    return _r2c("rfftn", input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    return _c2r(input, s, dim, norm)


def fftn(input, s=None, dim=None, norm=None):
    """The DFT over ``dim`` (all dims, or the last len(s) when only ``s`` is given)."""
    return _c2c(input, s, dim, norm, False)


def ifftn(input, s=None, dim=None, norm=None):
    return _c2c(input, s, dim, norm, True)


def rfftn(input, s=None, dim=None, norm=None):
    """``rfft`` over the last of ``dim``, then ``fft`` over the others."""
    return _r2c("rfftn", input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None):
    return _c2r(input, s, dim, norm)


# -- frequencies and shifts -------------------------------------------------------------------------------


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The frequency of each entry of an ``fft`` of length n: [0, 1, ..., -(n//2), ..., -1] / (d * n)."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    return _tensor(np.fft.fftfreq(n, float(d)) if n else np.zeros(0), dtype=dtype or _dtype.get_default_dtype(), device=device,
                   requires_grad=requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The frequencies of an ``rfft`` of length n: [0, 1, ..., n//2] / (d * n)."""
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    return _tensor(np.fft.rfftfreq(n, float(d)) if n else np.zeros(0), dtype=dtype or _dtype.get_default_dtype(), device=device,
                   requires_grad=requires_grad)


def _shift(input, dim, sign):
    if dim is None:
        dim = tuple(range(input.dim()))
    elif isinstance(dim, int):
        dim = (dim,)
    dims = tuple(_layout.normalize_dim(d, input.dim()) for d in dim)
    shifts = tuple((input._shape[d] // 2) if sign > 0 else -(input._shape[d] // 2) for d in dims)
    return input.roll(shifts, dims)


def fftshift(input, dim=None):
    """Roll the zero frequency to the middle (by n // 2 along each of ``dim``, all dims by default)."""
    return _shift(input, dim, 1)


def ifftshift(input, dim=None):
    """Undo ``fftshift`` (roll back by n // 2)."""
    return _shift(input, dim, -1)


__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
