"""Unary math: ``exp``, ``log``, ``sqrt``, trigonometry, ``sigmoid``, ``relu``, ``abs``, rounding...

Each op is one ``Function``: a one-line forward on arrays and its derivative written with tensor ops.
Float functions (``exp``, ``sin``...) of integer or bool tensors compute in the default float dtype,
as PyTorch's do; ``abs``, ``sign``, ``relu``, ``floor``... keep integer dtypes.

The derivative is what backward multiplies the incoming gradient by (the chain rule):
``d/dx sin(x) = cos(x)``, so ``SinBackward0`` returns ``grad * x.cos()``.
See course/04_ops_and_reductions and course/06_autograd_basics.
"""
import math

from .. import _dtype
from ..autograd.engine import arrays_suffice
from ..autograd.function import Function
from ..backend import for_device
from ._pointwise import broadcast_operands, check_operands, float_array, float_dtype, inplace_method, no_complex
from ._util import method, unbroadcast, wrap, xp_of
from .powmod import Pow
from .. import tensor as _t

Tensor = _t.Tensor


def _float_op(compute, save=None):
    """The forward of a float function: ``compute(xp, array)``, saving the "input" or "output" if asked."""
    def forward(ctx, x):
        device = x._device
        array = x._array if x._array.dtype.kind in "fc" else float_array(x)  # (as float_array, one call less)
        out = wrap(compute(for_device(device).xp, array), device)
        if save is not None:
            ctx.save_for_backward(x if save == "input" else out)
        return out
    return staticmethod(forward)


def _saved(ctx):
    return ctx.saved_tensors[0]


# -- backward on the arrays -------------------------------------------------------------------------
# A derivative below is written with tensor ops (``grad * (1 - out * out)``), each a whole op call.
# When no one could see those ops (``arrays_suffice``: no ``create_graph``, no op layer or
# TorchFunctionMode) and ``grad`` and the saved tensor are plain tensors of one dtype and device, the
# same NumPy expression runs on their arrays instead: the same array calls, so the same bits.

def _arrays_for_backward(grad, saved):
    """``(grad's array, saved's array)`` when the derivative may be computed on them, else None."""
    if (arrays_suffice(grad) and type(saved) is Tensor and saved._array.dtype is grad._array.dtype
            and saved._device is grad._device):
        return grad._array, saved._array
    return None


# -- exponentials and logarithms ------------------------------------------------------------------


class Exp(Function):
    node_name = "ExpBackward0"
    forward = _float_op(lambda xp, a: xp.exp(a), save="output")

    # build: stage 3
    @staticmethod
    def backward(ctx, grad):
        """d/dx e^x = e^x, the op's own output: forward saved it (``_saved(ctx)``), so backward
        multiplies ``grad`` by it without computing e^x again."""
        return grad * _saved(ctx)                       # d/dx e^x = e^x
    # build: end


class Expm1(Function):
    node_name = "Expm1Backward0"
    forward = _float_op(lambda xp, a: xp.expm1(a), save="output")

    @staticmethod
    def backward(ctx, grad):
        return grad * (_saved(ctx) + 1)


class Exp2(Function):
    node_name = "Exp2Backward0"
    forward = _float_op(lambda xp, a: xp.exp2(a), save="output")

    @staticmethod
    def backward(ctx, grad):
        return grad * (_saved(ctx) * math.log(2.0))


class Log(Function):
    node_name = "LogBackward0"
    forward = _float_op(lambda xp, a: xp.log(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        return grad / _saved(ctx)                       # d/dx log x = 1/x


class Log1p(Function):
    node_name = "Log1PBackward0"
    forward = _float_op(lambda xp, a: xp.log1p(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        return grad / (_saved(ctx) + 1)


class Log2(Function):
    node_name = "Log2Backward0"
    forward = _float_op(lambda xp, a: xp.log2(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        return grad / (_saved(ctx) * math.log(2.0))


class Log10(Function):
    node_name = "Log10Backward0"
    forward = _float_op(lambda xp, a: xp.log10(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        return grad / (_saved(ctx) * math.log(10.0))


class Sqrt(Function):
    node_name = "SqrtBackward0"
    forward = _float_op(lambda xp, a: xp.sqrt(a), save="output")

    @staticmethod
    def backward(ctx, grad):
        return grad / (2 * _saved(ctx))                 # d/dx sqrt(x) = 1 / (2 sqrt(x))


class Rsqrt(Function):
    node_name = "RsqrtBackward0"
    forward = _float_op(lambda xp, a: xp.reciprocal(xp.sqrt(a)), save="output")

    @staticmethod
    def backward(ctx, grad):
        return -0.5 * grad * _saved(ctx).pow(3)


# -- trigonometry --------------------------------------------------------------------------------


class Sin(Function):
    node_name = "SinBackward0"
    forward = _float_op(lambda xp, a: xp.sin(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        x = _saved(ctx)
        arrays = _arrays_for_backward(grad, x)
        if arrays is not None:  # the same on the arrays (see _arrays_for_backward)
            g, a = arrays
            return wrap(g * xp_of(x).cos(a), grad._device)
        return grad * x.cos()


class Cos(Function):
    node_name = "CosBackward0"
    forward = _float_op(lambda xp, a: xp.cos(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        x = _saved(ctx)
        arrays = _arrays_for_backward(grad, x)
        if arrays is not None:  # the same on the arrays (see _arrays_for_backward)
            g, a = arrays
            return wrap(g * -xp_of(x).sin(a), grad._device)
        return grad * -x.sin()


class Tan(Function):
    node_name = "TanBackward0"
    forward = _float_op(lambda xp, a: xp.tan(a), save="output")

    @staticmethod
    def backward(ctx, grad):
        out = _saved(ctx)
        return grad * (1 + out * out)                   # d/dx tan x = 1 + tan^2 x


class Asin(Function):
    node_name = "AsinBackward0"
    forward = _float_op(lambda xp, a: xp.arcsin(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        x = _saved(ctx)
        return grad * (-x * x + 1).rsqrt()


class Acos(Function):
    node_name = "AcosBackward0"
    forward = _float_op(lambda xp, a: xp.arccos(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        x = _saved(ctx)
        return grad * -(-x * x + 1).rsqrt()


class Atan(Function):
    node_name = "AtanBackward0"
    forward = _float_op(lambda xp, a: xp.arctan(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        x = _saved(ctx)
        return grad / (x * x + 1)


class Sinh(Function):
    node_name = "SinhBackward0"
    forward = _float_op(lambda xp, a: xp.sinh(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        return grad * _saved(ctx).cosh()


class Cosh(Function):
    node_name = "CoshBackward0"
    forward = _float_op(lambda xp, a: xp.cosh(a), save="input")

    @staticmethod
    def backward(ctx, grad):
        return grad * _saved(ctx).sinh()


class Tanh(Function):
    node_name = "TanhBackward0"
    forward = _float_op(lambda xp, a: xp.tanh(a), save="output")

    @staticmethod
    def backward(ctx, grad):
        out = _saved(ctx)
        arrays = _arrays_for_backward(grad, out)
        if arrays is not None:  # the same on the arrays (see _arrays_for_backward)
            g, o = arrays
            return wrap(g * (1 - o * o), grad._device)
        return grad * (1 - out * out)                   # d/dx tanh x = 1 - tanh^2 x


class Atan2(Function):
    node_name = "Atan2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        (y, x), dtype, device = broadcast_operands(a, b, dtype=float_dtype(a, b))
        ctx.save_for_backward(a, b)
        ctx.shapes = (a._shape, b._shape)
        return wrap(xp_of(a).arctan2(y, x), device)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        scale = grad / (a * a + b * b)
        ga = unbroadcast(scale * b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(scale * -a, ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb


# -- activations and erf -------------------------------------------------------------------------


def _sigmoid(xp, a):
    """1 / (1 + e^-x), computed in one buffer (no temporaries beyond the result)."""
    out = xp.asarray(xp.negative(a))  # asarray: a 0-dim input gives a NumPy scalar, which has no buffer
    xp.exp(out, out=out)
    out += 1
    return xp.reciprocal(out, out=out)


class Sigmoid(Function):
    node_name = "SigmoidBackward0"
    forward = _float_op(_sigmoid, save="output")

    @staticmethod
    def backward(ctx, grad):
        out = _saved(ctx)
        arrays = _arrays_for_backward(grad, out)
        if arrays is not None:  # the same on the arrays (see _arrays_for_backward)
            g, o = arrays
            return wrap(g * (1 - o) * o, grad._device)
        return grad * (1 - out) * out                   # d/dx s(x) = s(x) (1 - s(x))


class Relu(Function):
    """max(x, 0). Its gradient passes where the output is positive and is zero elsewhere."""

    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dtype is _dtype.bool:
            raise RuntimeError("Boolean inputs not supported for relu")
        no_complex(x, "clamp is not supported for complex types")
        out = wrap(xp_of(x).maximum(x._array, x._array.dtype.type(0)), x.device)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out = _saved(ctx)
        if _arrays_for_backward(grad, out) is not None:  # ThresholdBackward's forward, without the op
            return wrap(_threshold_backward(xp_of(grad), grad._array, out._array), grad._device)
        return ThresholdBackward.apply(grad, out)


def _threshold_backward(xp, g, out):
    """``g`` where ``out`` is positive, 0 elsewhere."""
    positive = out > 0
    if xp.isfinite(g).all():
        return g * positive  # a multiply: several times faster than where()...
    return xp.where(positive, g, g.dtype.type(0))  # ...but inf * 0 would be nan


class ThresholdBackward(Function):
    """relu's backward as an op of its own (PyTorch's ``threshold_backward``): ``grad`` where the
    output is positive, 0 elsewhere. One array expression -- relu is in every network's backward --
    and differentiable again (in ``grad``) for double backward."""

    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(out)
        return wrap(_threshold_backward(xp_of(grad), grad._array, out._array), grad.device)

    @staticmethod
    def backward(ctx, grad_grad):
        return ThresholdBackward.apply(grad_grad, _saved(ctx)), None


def _erf(xp, a):
    """erf from SciPy when installed, else ``math.erf`` element by element (NumPy has no erf)."""
    if xp.__name__ != "numpy":
        from cupyx.scipy.special import erf
        return erf(a)
    try:
        from scipy.special import erf
    except ImportError:
        import numpy as np
        return np.vectorize(math.erf, otypes=[a.dtype])(a)
    return erf(a).astype(a.dtype, copy=False)


class Erf(Function):
    node_name = "ErfBackward0"
    forward = _float_op(_erf, save="input")

    @staticmethod
    def backward(ctx, grad):
        x = _saved(ctx)
        return grad * ((-x * x).exp() * (2 / math.sqrt(math.pi)))


# -- the public functions and methods ------------------------------------------------------------


def _public(name, fn_class, *aliases):
    """``tensorlab.<name>(x)`` and ``x.<name>()`` for a one-input Function."""
    def op(input):
        return fn_class.apply(input)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Elementwise ``{name}`` (autograd node {fn_class.node_name})."
    method(name, *aliases)(op)
    return op


exp = _public("exp", Exp)
expm1 = _public("expm1", Expm1)
exp2 = _public("exp2", Exp2)
log = _public("log", Log)
log1p = _public("log1p", Log1p)
log2 = _public("log2", Log2)
log10 = _public("log10", Log10)
sqrt = _public("sqrt", Sqrt)
rsqrt = _public("rsqrt", Rsqrt)
sin = _public("sin", Sin)
cos = _public("cos", Cos)
tan = _public("tan", Tan)
asin = arcsin = _public("asin", Asin, "arcsin")
acos = arccos = _public("acos", Acos, "arccos")
atan = arctan = _public("atan", Atan, "arctan")
sinh = _public("sinh", Sinh)
cosh = _public("cosh", Cosh)
tanh = _public("tanh", Tanh)
sigmoid = _public("sigmoid", Sigmoid)
relu = _public("relu", Relu)
erf = _public("erf", Erf)


@method("atan2", "arctan2")
def atan2(input, other):
    """The angle of the point (other, input): ``atan(input / other)`` in the right quadrant."""
    check_operands("atan2", input, other)
    if not isinstance(other, Tensor):  # (a number is not allowed here)
        raise TypeError(f"atan2(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    return Atan2.apply(input, other)


arctan2 = atan2


@method()
def square(input):
    """``input ** 2`` (PyTorch records it as PowBackward0; bool squares to int64)."""
    return Pow.apply(input, 2)


# -- in-place forms ---------------------------------------------------------------------------------

for _name, _fn in [("exp_", exp), ("expm1_", expm1), ("exp2_", exp2), ("log_", log), ("log1p_", log1p),
                   ("log2_", log2), ("log10_", log10), ("sqrt_", sqrt), ("rsqrt_", rsqrt), ("sin_", sin),
                   ("cos_", cos), ("tan_", tan), ("asin_", asin), ("arcsin_", asin), ("acos_", acos),
                   ("arccos_", acos), ("atan_", atan), ("arctan_", atan), ("sinh_", sinh), ("cosh_", cosh),
                   ("tanh_", tanh), ("sigmoid_", sigmoid), ("relu_", relu), ("erf_", erf), ("square_", square),
                   ("atan2_", atan2), ("arctan2_", atan2)]:
    inplace_method(_name, _fn)


__all__ = ["exp", "expm1", "exp2", "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "sin", "cos", "tan", "asin",
           "arcsin", "acos", "arccos", "atan", "arctan", "sinh", "cosh", "tanh", "atan2", "arctan2", "sigmoid", "relu",
           "erf", "square",
           # PyTorch offers most in-place forms as functions too: torch.exp_(x) is x.exp_()
           "exp_", "expm1_", "exp2_", "log_", "log1p_", "log2_", "log10_", "sqrt_", "rsqrt_", "sin_", "cos_", "tan_",
           "asin_", "arcsin_", "acos_", "arccos_", "atan_", "arctan_", "sinh_", "cosh_", "tanh_", "sigmoid_", "relu_",
           "erf_", "square_"]
