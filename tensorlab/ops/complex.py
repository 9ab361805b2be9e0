"""Complex numbers: making them, taking them apart, and their gradients.

A complex64 element is two float32 side by side in memory: the real part, then the imaginary part.
So a complex tensor *is* a float tensor with one more dim of size 2 -- ``view_as_real`` shows it that
way without copying (the new last dim has stride 1, every other stride doubles), and
``view_as_complex`` goes back. ``.real`` and ``.imag`` are views too: ``view_as_real(z)[..., 0]`` and
``[..., 1]``, so writing into ``z.real`` changes ``z``.

**Gradients.** A real loss L of a complex z has two derivatives, along the real and the imaginary
axis. PyTorch packs them into one complex number, ``dL/dx + i dL/dy`` -- twice the *conjugate
Wirtinger* derivative dL/d(conj z) -- and that is what ``z.grad`` holds. It points where L grows
fastest, so gradient descent works unchanged. For a holomorphic op ``f`` (exp, mul, matmul...) the
chain rule then reads ``grad_in = grad_out * conj(f'(z))``: the real formula with ``f'`` conjugated
(``holomorphic_backward`` below does this for the real-written backward of such ops). Ops that are
not holomorphic (abs, angle, real, imag, conj) have their own formulas here.
See course/04_ops_and_reductions and course/06_autograd_basics.

Where tensorlab differs from PyTorch: ``conj()`` returns a new tensor holding the conjugated values
(PyTorch returns a lazy view that only flips a bit, so its ``is_conj()`` is True); here ``is_conj()`` is
always False and ``resolve_conj()`` returns its input.
"""
import math

import numpy as np

from .. import _dtype
from ..autograd.function import Function
from ..backend import for_device
from ..storage import UntypedStorage
from ._pointwise import inplace_method
from ._util import method, wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor


# -- views that read the same memory as another element type -----------------------------------------


def _retyped_view(x, np_dtype, offset, shape, strides):
    """A view of ``x``'s memory read as ``np_dtype`` (complex <-> pairs of floats), counted in elements
    of the new type. It shares the version counter, so in-place changes are seen through both."""
    flat = x._storage._flat
    if flat.dtype.kind != "c" and flat.size % 2:  # a float buffer of odd length: its last float pairs with nothing
        flat = flat[:flat.size - 1]
    flat = flat.view(np_dtype)
    array = for_device(x.device).strided_view(flat, offset, shape, strides)
    view = object.__new__(Tensor)
    base = x._base if x._base is not None else x
    view._init(UntypedStorage(flat, x.device), offset, shape, strides, array, x._version_counter, base)
    return view


def _real_view(z):
    """``z`` (complex) as floats: shape + (2,), strides doubled, offset doubled."""
    return _retyped_view(z, z.dtype.to_real().np, 2 * z._offset, z._shape + (2,),
                         tuple(2 * s for s in z._stride) + (1,))


def _complex_view(x):
    """``x`` (floats, last dim 2 with stride 1) as complex numbers, after PyTorch's checks."""
    if x.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a "
                           f"tensor of scalar type: {x.dtype._legacy[:-6]}")
    if x.dim() == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if x._shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if x._stride[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in x._stride[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if x._offset % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return _retyped_view(x, x.dtype.to_complex().np, x._offset // 2, x._shape[:-1],
                         tuple(s // 2 for s in x._stride[:-1]))


class ViewAsReal(Function):
    node_name = "ViewAsRealBackward0"

    @staticmethod
    def forward(ctx, z):
        if not z.dtype.is_complex:
            raise RuntimeError("view_as_real is only supported for complex tensors")
        return _real_view(z)

    @staticmethod
    def backward(ctx, grad):
        return view_as_complex(grad.contiguous())


class ViewAsComplex(Function):
    node_name = "ViewAsComplexBackward0"

    @staticmethod
    def forward(ctx, x):
        return _complex_view(x)

    @staticmethod
    def backward(ctx, grad):
        return view_as_real(grad.contiguous())


def view_as_real(input):
    """The complex tensor's memory read as floats: one more dim of size 2 holding (real, imag)."""
    return ViewAsReal.apply(input)


def view_as_complex(input):
    """The inverse of ``view_as_real``: a float tensor whose last dim is (real, imag) pairs."""
    return ViewAsComplex.apply(input)


# -- the parts of a complex number --------------------------------------------------------------------


def real(input):
    """The real parts, as a view (a real tensor is returned itself)."""
    if not input.dtype.is_complex:
        return input
    return view_as_real(input).select(-1, 0)


def imag(input):
    """The imaginary parts, as a view; real tensors have none."""
    if not input.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return view_as_real(input).select(-1, 1)


def _set_real(self, value):
    real(self).copy_(value)


def _set_imag(self, value):
    imag(self).copy_(value)


Tensor.real = property(real, _set_real, doc="The real parts: a writable view (``z.real = x`` copies x in).")
Tensor.imag = property(imag, _set_imag, doc="The imaginary parts: a writable view.")


class Conj(Function):
    """The complex conjugate a - ib. Its own backward: conj of the gradient."""

    node_name = "ConjBackward0"

    @staticmethod
    def forward(ctx, z):
        return wrap(xp_of(z).conj(z._array), z.device)

    @staticmethod
    def backward(ctx, grad):
        return grad.conj()


class ConjPhysical(Conj):
    node_name = "ConjPhysicalBackward0"


@method()
def conj(input):
    """The complex conjugate (a new tensor here; a lazy view in PyTorch). A real tensor is returned itself."""
    return Conj.apply(input) if input.dtype.is_complex else input


@method()
def conj_physical(input):
    """The complex conjugate, computed into new memory. A real tensor is returned itself."""
    return ConjPhysical.apply(input) if input.dtype.is_complex else input


@method()
def is_conj(input):
    """Whether ``input`` is a lazy conjugate view: never in tensorlab (its conj() copies)."""
    return False


@method()
def resolve_conj(input):
    """Materialise a lazy conjugation: tensorlab has none, so this is ``input`` itself."""
    return input


@method()
def is_neg(input):
    """Whether ``input`` is a lazy negation view (PyTorch's ``conj()`` of an imaginary-only view): never here."""
    return False


@method()
def resolve_neg(input):
    return input


@method()
def isreal(input):
    """True where the imaginary part is 0 (everywhere for a real tensor)."""
    if not input.dtype.is_complex:
        return input.new_ones(input._shape, dtype=_dtype.bool)
    return imag(input) == 0


def view_as_real_copy(input):
    return view_as_real(input).clone()


def view_as_complex_copy(input):
    return view_as_complex(input).clone()


Tensor.cfloat = lambda self, memory_format=None: self.to(_dtype.complex64)
Tensor.cdouble = lambda self, memory_format=None: self.to(_dtype.complex128)


class Angle(Function):
    """The argument of z: atan2(imag, real). For real inputs: pi for negatives, 0 otherwise (nan stays nan)."""

    node_name = "AngleBackward0"

    @staticmethod
    def forward(ctx, x):
        xp, a = xp_of(x), x._array
        ctx.save_for_backward(x)
        if x.dtype.is_complex:
            return wrap(xp.angle(a), x.device)
        a = a if x.dtype.is_floating_point else a.astype(_dtype.get_default_dtype().np)
        return wrap(xp.where(xp.isnan(a), a, xp.where(a < 0, math.pi, 0.0).astype(a.dtype)), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        if not x.dtype.is_complex:
            return grad * 0  # piecewise constant
        # d angle = (x dy - y dx) / |z|^2, so dL/dx + i dL/dy = grad * i z / |z|^2 (0 at z = 0)
        return (grad * x * 1j / (x.abs() ** 2)).masked_fill(x == 0, 0)


@method()
def angle(input):
    """The angle of each complex number in radians, in (-pi, pi]."""
    return Angle.apply(input)


# -- making complex numbers from real ones -------------------------------------------------------------


def _two_real_parts(name, a, b):
    if a.dtype not in (_dtype.float32, _dtype.float64) or b.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{a.dtype._legacy[:-6]} and {b.dtype._legacy[:-6]}")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"Expected object of scalar type {a.dtype._legacy[:-6]} but got scalar type "
                           f"{b.dtype._legacy[:-6]} for second argument")
    from .._layout import broadcast_shapes
    broadcast_shapes(a._shape, b._shape)


class Complex(Function):
    node_name = "ComplexBackward0"

    @staticmethod
    def forward(ctx, re, im):
        _two_real_parts("complex", re, im)
        ctx.shapes = (re._shape, im._shape)
        out = xp_of(re).empty(np.broadcast_shapes(re._shape, im._shape), dtype=re.dtype.to_complex().np)
        out.real, out.imag = re._array, im._array
        return wrap(out, re.device)

    @staticmethod
    def backward(ctx, grad):
        grad = grad if grad.dtype.is_complex else grad.to(grad.dtype.to_complex())
        return grad.real.sum_to_size(ctx.shapes[0]), grad.imag.sum_to_size(ctx.shapes[1])


class Polar(Function):
    node_name = "PolarBackward0"

    @staticmethod
    def forward(ctx, r, theta):
        _two_real_parts("polar", r, theta)
        xp = xp_of(r)
        out = wrap(r._array * (xp.cos(theta._array) + 1j * xp.sin(theta._array)).astype(r.dtype.to_complex().np),
                   r.device)
        ctx.save_for_backward(theta, out)
        ctx.shapes = (r._shape, theta._shape)
        return out

    @staticmethod
    def backward(ctx, grad):
        theta, out = ctx.saved_tensors
        unit = complex(theta.cos(), theta.sin())           # d out / d r = e^{i theta}
        g_r = (grad * unit.conj()).real                    # a real input takes Re(grad * conj(d out / d x))
        g_theta = (grad * (out * 1j).conj()).real          # d out / d theta = i out
        return g_r.sum_to_size(ctx.shapes[0]), g_theta.sum_to_size(ctx.shapes[1])


def complex(real, imag):  # noqa: A001 - PyTorch's name
    """``real + i * imag`` from two float tensors of one dtype (float32 -> complex64)."""
    return Complex.apply(real, imag)


def polar(abs, angle):  # noqa: A002 - PyTorch's argument names
    """``abs * (cos(angle) + i sin(angle))``: complex numbers from their length and angle."""
    return Polar.apply(abs, angle)


# -- gradients of holomorphic ops -----------------------------------------------------------------------


def holomorphic_backward(backward):
    """The backward of a holomorphic op, for complex tensors too, from its real formula.

    A real backward computes ``grad * f'(x)``; PyTorch's convention needs ``grad * conj(f'(z))``. Since
    ``conj(conj(grad) * f'(z)) = grad * conj(f'(z))``, running the real formula on conjugated gradients
    and conjugating its results gives exactly that (also for matmul: ``grad @ b.mH``). Real gradients
    go straight through. A real input of a complex op gets the real part of its gradient (the engine
    takes it, as PyTorch's does).
    """
    def complex_aware(ctx, *grads):
        for g in grads:
            if g is not None and g._array.dtype.kind == "c":
                break
        else:  # no complex gradient (a loop: it runs once per node of every backward pass)
            return backward(ctx, *grads)
        results = backward(ctx, *[g.conj() if g is not None else None for g in grads])
        if isinstance(results, tuple):
            return tuple(r.conj() if isinstance(r, Tensor) else r for r in results)
        return results.conj() if isinstance(results, Tensor) else results
    complex_aware.holomorphic = True
    complex_aware.__doc__ = backward.__doc__
    return complex_aware


def _holomorphic(*classes):
    for cls in classes:
        backward = cls.__dict__.get("backward")
        if backward is not None and not getattr(backward, "holomorphic", False):
            cls.backward = staticmethod(holomorphic_backward(backward.__func__ if hasattr(backward, "__func__")
                                                             else backward))


def _mark_holomorphic_ops():
    """The ops whose backward multiplies by saved values: their formulas need conj for complex."""
    from . import elementwise, unary, powmod, reduce, reduce_stats, linalg, scan
    found = []
    for module, names in [(elementwise, ["Mul", "Div", "Reciprocal"]),
                          (unary, ["Exp", "Expm1", "Exp2", "Log", "Log1p", "Log2", "Log10", "Sqrt", "Rsqrt",
                                   "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Sigmoid"]),
                          (powmod, ["Pow", "PowTensor", "PowScalarBase"]), (reduce, ["Prod"]), (scan, ["Cumprod"]),
                          (reduce_stats, ["Logsumexp"]),
                          (linalg, ["Mm", "Bmm", "Mv", "Dot", "Addmm"])]:
        found += [getattr(module, n) for n in names if hasattr(module, n)]
    _holomorphic(*found)


_mark_holomorphic_ops()


inplace_method("conj_physical_", conj_physical)


def conj_physical_(input):
    return input.conj_physical_()


__all__ = ["view_as_real", "view_as_complex", "view_as_real_copy", "view_as_complex_copy", "real", "imag", "conj",
           "conj_physical", "conj_physical_", "is_conj", "resolve_conj", "is_neg", "resolve_neg", "isreal", "angle",
           "complex", "polar"]
