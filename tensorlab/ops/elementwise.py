"""Elementwise ops: each output element depends on the input elements at the same position.

Inputs broadcast against each other (``_layout.broadcast_shapes``); the result dtype follows PyTorch's
promotion (``_dtype.result_type``). In backward, a broadcast input receives the gradient *summed* over
the dims it was stretched along (``unbroadcast``).

Every op is an ``autograd.Function``, the same class a learner subclasses in course/08.
"""
import numpy as np

from .. import _dtype
from ..autograd.function import Function
from ._util import method, operands, unbroadcast, wrap, xp_of
from .inplace import apply_inplace
from .. import tensor as _t


def _shape(x):
    return x._shape if isinstance(x, _t.Tensor) else ()


# -- arithmetic --------------------------------------------------------------------------------


class Add(Function):
    scalar_edges = (0, 1)
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        (x, y), _, device = operands(a, b)
        ctx.shapes, ctx.alpha = (_shape(a), _shape(b)), alpha
        return wrap(x + y if alpha == 1 else x + y * alpha, device)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        gb = grad if ctx.alpha == 1 else grad * ctx.alpha
        return unbroadcast(grad, a_shape), unbroadcast(gb, b_shape), None


class Sub(Function):
    scalar_edges = (0, 1)
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        (x, y), dtype, device = operands(a, b)
        if dtype is _dtype.bool:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                               "the `^` or `logical_xor()` operator instead.")
        ctx.shapes, ctx.alpha = (_shape(a), _shape(b)), alpha
        return wrap(x - y if alpha == 1 else x - y * alpha, device)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        return unbroadcast(grad, a_shape), unbroadcast(-grad * ctx.alpha, b_shape), None


class Rsub(Sub):
    """``scalar - tensor``: PyTorch records it as its own node."""

    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, b, alpha):
        return Sub.forward(ctx, b, a, alpha)

    @staticmethod
    def backward(ctx, grad):
        gb, ga, _ = Sub.backward(ctx, grad)
        return ga, gb, None


class Mul(Function):
    scalar_edges = (0, 1)
    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        (x, y), _, device = operands(a, b)
        ctx.save_for_backward(a if isinstance(a, _t.Tensor) else None,
                              b if isinstance(b, _t.Tensor) else None)
        ctx.scalars = (a, b)
        ctx.shapes = (_shape(a), _shape(b))
        return wrap(x * y, device)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        a = ctx.scalars[0] if a is None else a
        b = ctx.scalars[1] if b is None else b
        ga = unbroadcast(grad * b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(grad * a, ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb


class Div(Function):
    scalar_edges = (0, 1)
    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, a, b, rounding_mode):
        dtype = _dtype.result_type(a, b)
        if not dtype.is_floating_point and rounding_mode is None:
            dtype = _dtype.get_default_dtype()  # true division of integers gives floats
        (x, y), dtype, device = operands(a, b, dtype=dtype)
        ctx.save_for_backward(a if isinstance(a, _t.Tensor) else None,
                              b if isinstance(b, _t.Tensor) else None)
        ctx.scalars, ctx.shapes, ctx.rounding_mode = (a, b), (_shape(a), _shape(b)), rounding_mode
        xp = np if device.type == "cpu" else xp_of(a if isinstance(a, _t.Tensor) else b)
        with np.errstate(divide="ignore", invalid="ignore"):
            if rounding_mode is None:
                out = xp.true_divide(x, y)
            elif rounding_mode == "trunc":
                out = xp.trunc(xp.true_divide(x, y)) if dtype.is_floating_point else _int_trunc_div(xp, x, y)
            elif rounding_mode == "floor":
                out = xp.floor_divide(x, y)
            else:
                raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                                   f"found '{rounding_mode}'")
        return wrap(xp.asarray(out).astype(dtype.np, copy=False), device)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        a = ctx.scalars[0] if a is None else a
        b = ctx.scalars[1] if b is None else b
        if ctx.rounding_mode is not None:
            return grad * 0 if ctx.needs_input_grad[0] else None, grad * 0 if ctx.needs_input_grad[1] else None, None
        ga = unbroadcast(grad / b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(-grad * a / (b * b), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb, None


def _int_trunc_div(xp, x, y):
    q = xp.floor_divide(x, y)
    r = x - q * y
    return q + ((r != 0) & ((r < 0) != (xp.asarray(y) < 0)))


class Neg(Function):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dtype is _dtype.bool:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
        return wrap(-x._array, x.device)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Pow(Function):
    """``tensor ** scalar``."""

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, x, exponent):
        (a, e), dtype, device = operands(x, exponent)
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        return wrap(xp_of(x).power(a, e), device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return grad * 0, None
        return grad * e * x ** (e - 1), None


class PowTensor(Function):
    scalar_edges = (0, 1)
    """``tensor ** tensor``."""

    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, x, exponent):
        (a, e), dtype, device = operands(x, exponent)
        out = wrap(xp_of(x).power(a, e), device)
        ctx.save_for_backward(x, exponent, out)
        ctx.shapes = (x._shape, exponent._shape)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, e, out = ctx.saved_tensors
        gx = unbroadcast(grad * e * x ** (e - 1), ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        ge = None
        if ctx.needs_input_grad[1]:
            safe_log = x.log().masked_fill((x == 0) & (e >= 0), 0)
            ge = unbroadcast(grad * out * safe_log, ctx.shapes[1])
        return gx, ge


class PowScalarBase(Function):
    scalar_edges = (0, 1)
    """``scalar ** tensor``."""

    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx, base, exponent):
        (b, e), dtype, device = operands(base, exponent)
        out = wrap(xp_of(exponent).power(b, e), device)
        ctx.save_for_backward(out)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        import math
        return None, grad * out * (math.log(ctx.base) if ctx.base > 0 else float("nan") if ctx.base < 0 else 0.0)


class Exp(Function):
    node_name = "ExpBackward0"

    @staticmethod
    def forward(ctx, x):
        out = wrap(xp_of(x).exp(_float_array(x)), x.device)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return grad * out


class Log(Function):
    node_name = "LogBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return wrap(xp_of(x).log(_float_array(x)), x.device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad / x


def _float_array(x):
    """Integer inputs of float functions (exp, log, sqrt...) compute in the default float dtype."""
    a = x._array
    return a if a.dtype.kind == "f" else a.astype(_dtype.get_default_dtype().np)


# -- the public functions and methods -----------------------------------------------------------


def _check_alpha(alpha):
    return alpha


@method()
def add(input, other, *, alpha=1, out=None):
    """``input + alpha * other``, broadcasting."""
    return Add.apply(input, other, alpha)


@method()
def sub(input, other, *, alpha=1, out=None):
    return Sub.apply(input, other, alpha)


subtract = sub


@method("mul", "multiply")
def mul(input, other, *, out=None):
    return Mul.apply(input, other)


multiply = mul


@method("div", "divide", "true_divide")
def div(input, other, *, rounding_mode=None, out=None):
    return Div.apply(input, other, rounding_mode)


divide = true_divide = div


@method()
def floor_divide(input, other):
    return Div.apply(input, other, "floor")


@method("neg", "negative")
def neg(input):
    return Neg.apply(input)


negative = neg


@method()
def pow(input, exponent):
    if isinstance(exponent, _t.Tensor):
        if not isinstance(input, _t.Tensor):
            return PowScalarBase.apply(input, exponent)
        return PowTensor.apply(input, exponent)
    return Pow.apply(input, exponent)


@method()
def exp(input):
    return Exp.apply(input)


@method()
def log(input):
    return Log.apply(input)


# -- Python operators ---------------------------------------------------------------------------------

_t.Tensor.__add__ = lambda self, other: Add.apply(self, other, 1)
_t.Tensor.__radd__ = lambda self, other: Add.apply(other, self, 1)
_t.Tensor.__sub__ = lambda self, other: Sub.apply(self, other, 1)
_t.Tensor.__rsub__ = lambda self, other: Rsub.apply(self, other, 1)
_t.Tensor.__mul__ = lambda self, other: Mul.apply(self, other)
_t.Tensor.__rmul__ = lambda self, other: Mul.apply(other, self)
_t.Tensor.__truediv__ = lambda self, other: Div.apply(self, other, None)
_t.Tensor.__rtruediv__ = lambda self, other: Div.apply(other, self, None)
_t.Tensor.__floordiv__ = lambda self, other: Div.apply(self, other, "floor")
_t.Tensor.__rfloordiv__ = lambda self, other: Div.apply(other, self, "floor")
_t.Tensor.__neg__ = lambda self: Neg.apply(self)
_t.Tensor.__pos__ = lambda self: self
_t.Tensor.__pow__ = lambda self, other: pow(self, other)
_t.Tensor.__rpow__ = lambda self, other: pow(other, self)


# -- in-place forms ---------------------------------------------------------------------------------


@method()
def add_(self, other, *, alpha=1):
    return apply_inplace(self, add, other, alpha=alpha)


@method()
def sub_(self, other, *, alpha=1):
    return apply_inplace(self, sub, other, alpha=alpha)


@method("mul_", "multiply_")
def mul_(self, other):
    return apply_inplace(self, mul, other)


@method("div_", "divide_", "true_divide_")
def div_(self, other, *, rounding_mode=None):
    return apply_inplace(self, div, other, rounding_mode=rounding_mode)


@method()
def pow_(self, exponent):
    return apply_inplace(self, pow, exponent)


@method()
def neg_(self):
    return apply_inplace(self, neg)


@method()
def exp_(self):
    return apply_inplace(self, exp)


@method()
def log_(self):
    return apply_inplace(self, log)


_t.Tensor.__iadd__ = lambda self, other: add_(self, other)
_t.Tensor.__isub__ = lambda self, other: sub_(self, other)
_t.Tensor.__imul__ = lambda self, other: mul_(self, other)
_t.Tensor.__itruediv__ = lambda self, other: div_(self, other)


__all__ = ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "neg",
           "negative", "pow", "exp", "log"]
