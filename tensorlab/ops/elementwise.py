"""Arithmetic: ``+ - * / // % **`` and their function forms (add, sub, mul, div, pow, remainder...).

Inputs broadcast against each other; the result dtype follows PyTorch's promotion
(``_dtype.result_type``: int tensor + 2.5 is float32, int / int is float32). In backward, a broadcast
input receives the gradient *summed* over the dims it was stretched along (``unbroadcast``).

Every op is an ``autograd.Function``, the same class a learner subclasses in course/08_custom_functions.
Backward formulas are written with tensor ops, so they can be differentiated again.
See course/04_ops_and_reductions.
"""
import math

from .. import _dtype
from ..autograd.function import Function
from ._pointwise import broadcast_operands, float_dtype, inplace_method, np_errstate, shape_of
from ._util import method, unbroadcast, wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor


def _xp(*xs):
    return xp_of(next(x for x in xs if isinstance(x, Tensor)))


def _check_alpha(alpha, dtype):
    if isinstance(alpha, bool) and dtype is not _dtype.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not dtype.is_floating_point:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


def _saved_or_scalar(ctx):
    """The two operands of a binary op: saved tensors, or the Python scalars given instead."""
    a, b = ctx.saved_tensors
    return (ctx.scalars[0] if a is None else a), (ctx.scalars[1] if b is None else b)


def _save_operands(ctx, a, b, keep_a=True, keep_b=True):
    """Save the tensor operands backward needs; remember Python-scalar operands as they are."""
    ctx.save_for_backward(a if keep_a and isinstance(a, Tensor) else None,
                          b if keep_b and isinstance(b, Tensor) else None)
    ctx.scalars = (None if isinstance(a, Tensor) else a, None if isinstance(b, Tensor) else b)
    ctx.shapes = (shape_of(a), shape_of(b))


# -- + - * / ------------------------------------------------------------------------------------


class Add(Function):
    scalar_edges = (0, 1)
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        (x, y), dtype, device = broadcast_operands(a, b)
        _check_alpha(alpha, dtype)
        ctx.shapes, ctx.alpha = (shape_of(a), shape_of(b)), alpha
        return wrap(x + y if alpha == 1 else x + y * alpha, device)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        ga = unbroadcast(grad, a_shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(grad if ctx.alpha == 1 else grad * ctx.alpha, b_shape) if ctx.needs_input_grad[1] else None
        return ga, gb, None


class Sub(Function):
    scalar_edges = (0, 1)
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        (x, y), dtype, device = broadcast_operands(a, b)
        if dtype is _dtype.bool:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                               "the `^` or `logical_xor()` operator instead.")
        _check_alpha(alpha, dtype)
        ctx.shapes, ctx.alpha = (shape_of(a), shape_of(b)), alpha
        return wrap(x - y if alpha == 1 else x - y * alpha, device)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        ga = unbroadcast(grad, a_shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(-grad if ctx.alpha == 1 else grad * -ctx.alpha, b_shape) if ctx.needs_input_grad[1] else None
        return ga, gb, None


class Rsub(Function):
    """``other - alpha * input``: ``2 - x`` (RsubBackward1) and ``torch.rsub(x, y)`` (RsubBackward0)."""

    scalar_edges = (0, 1)
    node_name = "RsubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        return Sub.forward(ctx, b, a, alpha)

    @staticmethod
    def backward(ctx, grad):
        gb, ga, _ = Sub.backward(ctx, grad)
        return ga, gb, None


class RsubScalar(Rsub):
    scalar_edges = (0,)
    node_name = "RsubBackward1"


class Mul(Function):
    scalar_edges = (0, 1)
    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        (x, y), _, device = broadcast_operands(a, b)
        # keep only what the other input's gradient needs
        _save_operands(ctx, a, b, keep_a=ctx.needs_input_grad[1], keep_b=ctx.needs_input_grad[0])
        return wrap(x * y, device)

    @staticmethod
    def backward(ctx, grad):
        a, b = _saved_or_scalar(ctx)
        ga = unbroadcast(grad * b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(grad * a, ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb


class Div(Function):
    """True division: integers divide as the default float dtype (``int / int`` is float32)."""

    scalar_edges = (0, 1)
    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, a, b):
        (x, y), _, device = broadcast_operands(a, b, dtype=float_dtype(a, b))
        _save_operands(ctx, a, b, keep_a=ctx.needs_input_grad[1])
        with np_errstate():
            return wrap(_xp(a, b).true_divide(x, y), device)

    @staticmethod
    def backward(ctx, grad):
        a, b = _saved_or_scalar(ctx)
        ga = unbroadcast(grad / b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(-grad * a / (b * b), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb


class DivRounding(Function):
    """``div(a, b, rounding_mode='trunc' | 'floor')``: piecewise constant, so its gradient is zero."""

    scalar_edges = (0, 1)
    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, rounding_mode):
        (x, y), dtype, device = broadcast_operands(a, b)
        xp = _xp(a, b)
        if dtype.is_floating_point:
            with np_errstate():
                out = xp.floor_divide(x, y) if rounding_mode == "floor" else xp.trunc(xp.true_divide(x, y))
        else:
            _no_integer_zero_division(xp, y)
            out = xp.floor_divide(x, y) if rounding_mode == "floor" else _int_trunc_div(xp, x, y)
        ctx.shapes = (shape_of(a), shape_of(b))
        return wrap(xp.asarray(out, dtype=dtype.np), device)

    @staticmethod
    def backward(ctx, grad):
        return tuple(grad.new_zeros(s) if need else None for s, need in zip(ctx.shapes, ctx.needs_input_grad)) + (None,)


class NotDifferentiable(Function):
    """An op PyTorch gives no derivative (``//``, ``scalar % tensor``): backward raises, as PyTorch's does."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, a, b, fn, aten_name):
        ctx.aten_name = aten_name
        from ..autograd import grad_mode
        with grad_mode.no_grad():
            return fn(a, b)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for aten::{ctx.aten_name} is not implemented")


def _no_integer_zero_division(xp, y):
    if (y == 0).any() if hasattr(y, "any") else y == 0:
        raise RuntimeError("ZeroDivisionError")


def _int_trunc_div(xp, x, y):
    """Integer division rounding toward zero (NumPy's ``//`` rounds toward -inf)."""
    q = xp.floor_divide(x, y)
    return q + ((q < 0) & (x - q * y != 0))


# -- remainder, fmod, pow, atan2 --------------------------------------------------------------


class Remainder(Function):
    """``a % b`` takes the sign of ``b`` (Python's rule, rounding the quotient down); ``fmod`` takes the
    sign of ``a`` (C's rule, rounding toward zero). Gradients: 1 for ``a``, -quotient for ``b``."""

    node_name = "RemainderBackward1"

    @staticmethod
    def forward(ctx, a, b, rounding):
        (x, y), dtype, device = broadcast_operands(a, b)
        xp = _xp(a, b)
        if not dtype.is_floating_point:
            _no_integer_zero_division(xp, y)
        needs_b = len(ctx.needs_input_grad) > 1 and ctx.needs_input_grad[1]
        _save_operands(ctx, a, b, keep_a=needs_b, keep_b=needs_b)
        ctx.rounding = rounding
        with np_errstate():
            return wrap(xp.remainder(x, y) if rounding == "floor" else xp.fmod(x, y), device)

    @staticmethod
    def backward(ctx, grad):
        a, b = _saved_or_scalar(ctx)
        ga = unbroadcast(grad, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = None
        if ctx.needs_input_grad[1]:
            gb = unbroadcast(-grad * a.div(b, rounding_mode=ctx.rounding), ctx.shapes[1])
        return ga, gb, None


class RemainderScalar(Remainder):
    node_name = "RemainderBackward0"


class Fmod(Remainder):
    node_name = "FmodBackward1"


class FmodScalar(Remainder):
    node_name = "FmodBackward0"


def _int_power(xp, a, e, dtype):
    """Integer powers; a negative exponent truncates like integer division (2 ** -1 == 0)."""
    negative = e < 0
    if not (negative.any() if hasattr(negative, "any") else negative):
        return xp.power(a, e)
    out = xp.power(a, xp.where(negative, 0, e))
    odd = (e % 2) != 0
    inverse = xp.where(a == 1, 1, xp.where(a == -1, xp.where(odd, -1, 1), 0))
    return xp.where(negative, inverse, out).astype(dtype.np, copy=False)


class Pow(Function):
    """``tensor ** scalar``: d/dx x^e = e * x^(e-1)."""

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, x, exponent):
        (a, e), dtype, device = broadcast_operands(x, exponent)
        if not dtype.is_floating_point and isinstance(exponent, int) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        with np_errstate():
            return wrap(xp_of(x).power(a, e), device)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return grad.new_zeros(x._shape), None
        return grad * (e * x.pow(e - 1)), None


class PowTensor(Function):
    """``tensor ** tensor``: also differentiable in the exponent, d/de x^e = x^e * log(x)."""

    scalar_edges = (0, 1)
    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, x, exponent):
        (a, e), dtype, device = broadcast_operands(x, exponent)
        xp = _xp(x, exponent)
        with np_errstate():
            out = wrap(xp.power(a, e) if dtype.is_floating_point else _int_power(xp, a, e, dtype), device)
        ctx.save_for_backward(x, exponent, out if ctx.needs_input_grad[1] else None)
        ctx.shapes = (x._shape, exponent._shape)
        return out

    @staticmethod
    def backward(ctx, grad):
        from ._pointwise import zero_where
        x, e, out = ctx.saved_tensors
        gx = ge = None
        if ctx.needs_input_grad[0]:
            gx = unbroadcast(zero_where(grad * (e * x.pow(e - 1)), e == 0), ctx.shapes[0])
        if ctx.needs_input_grad[1]:
            # 0 ** e has derivative 0 in e for e >= 0 (log(0) would give nan)
            ge = unbroadcast(grad * zero_where(out * x.log(), (x == 0) & (e >= 0)), ctx.shapes[1])
        return gx, ge


class PowScalarBase(Function):
    """``scalar ** tensor``: d/de b^e = b^e * log(b)."""

    scalar_edges = (0, 1)
    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx, base, exponent):
        (b, e), dtype, device = broadcast_operands(base, exponent)
        xp = xp_of(exponent)
        with np_errstate():
            out = wrap(xp.power(b, e) if dtype.is_floating_point else _int_power(xp, xp.asarray(b, dtype.np), e, dtype),
                       device)
        ctx.save_for_backward(out, exponent if base == 0 else None)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx, grad):
        from ._pointwise import zero_where
        out, exponent = ctx.saved_tensors
        if ctx.base == 0:
            return None, grad * zero_where(out * -math.inf, exponent >= 0)
        log_base = math.log(ctx.base) if ctx.base > 0 else math.nan
        return None, grad * (out * log_base)


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


class Reciprocal(Function):
    """``1 / x``; d/dx = -1/x^2 = -out^2."""

    node_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, x):
        from ._pointwise import float_array
        with np_errstate():
            out = wrap(xp_of(x).reciprocal(float_array(x)), x.device)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return -grad * (out * out)


# -- the public functions and methods -----------------------------------------------------------

_NUMBER = (int, float, bool)


def _check(name, input, other=None, position=2, arg="other"):
    """Functions take a tensor ``input`` and a tensor-or-number ``other``: PyTorch's TypeError otherwise."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if other is not None and not isinstance(other, (Tensor,) + _NUMBER):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type(other).__name__}")


@method()
def add(input, other, *, alpha=1):
    """``input + alpha * other``, broadcasting. See course/04_ops_and_reductions."""
    _check("add", input, other)
    return Add.apply(input, other, alpha)


@method("sub", "subtract")
def sub(input, other, *, alpha=1):
    """``input - alpha * other``."""
    _check("sub", input, other)
    return Sub.apply(input, other, alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (reversed subtraction)."""
    _check("rsub", input, other)
    return (Rsub if isinstance(other, Tensor) else RsubScalar).apply(input, other, alpha)


@method("mul", "multiply")
def mul(input, other):
    """Elementwise product, broadcasting."""
    _check("mul", input, other)
    return Mul.apply(input, other)


multiply = mul


@method("div", "divide", "true_divide")
def div(input, other, *, rounding_mode=None):
    """``input / other``. ``rounding_mode``: None (true division, ints give floats), 'trunc' or 'floor'."""
    _check("div", input, other)
    if rounding_mode is None:
        return Div.apply(input, other)
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    return DivRounding.apply(input, other, rounding_mode)


divide = true_divide = div


def _floor_divide_values(a, b):
    return DivRounding.apply(a, b, "floor")


@method()
def floor_divide(input, other):
    """``input // other``: rounds the quotient down. PyTorch defines no gradient for it."""
    _check("floor_divide", input, other)
    return NotDifferentiable.apply(input, other, _floor_divide_values, "floor_divide")


@method("neg", "negative")
def neg(input):
    return Neg.apply(input)


negative = neg


@method()
def reciprocal(input):
    """``1 / input`` (floats; integers give the default float dtype)."""
    return Reciprocal.apply(input)


@method()
def pow(input, exponent):
    """``input ** exponent``: tensor ** number, tensor ** tensor, or number ** tensor."""
    if isinstance(exponent, Tensor):
        if not isinstance(input, Tensor):
            return PowScalarBase.apply(input, exponent)
        return PowTensor.apply(input, exponent)
    _check("pow", input, exponent, arg="exponent")
    return Pow.apply(input, exponent)


@method()
def remainder(input, other):
    """Python's ``%``: the result has the sign of ``other``."""
    if not isinstance(input, Tensor) and isinstance(other, Tensor):  # torch.remainder(2, x)
        return NotDifferentiable.apply(input, other, _remainder_values, "remainder")
    _check("remainder", input, other)
    return (Remainder if isinstance(other, Tensor) else RemainderScalar).apply(input, other, "floor")


def _remainder_values(a, b):
    return Remainder.apply(a, b, "floor")


@method()
def fmod(input, other):
    """C's ``fmod``: the result has the sign of ``input``."""
    _check("fmod", input, other)
    return (Fmod if isinstance(other, Tensor) else FmodScalar).apply(input, other, "trunc")


@method("atan2", "arctan2")
def atan2(input, other):
    """The angle of the point (other, input): ``atan(input / other)`` in the right quadrant."""
    _check("atan2", input)
    if not isinstance(other, Tensor):
        raise TypeError(f"atan2(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    return Atan2.apply(input, other)


arctan2 = atan2


# -- Python operators ---------------------------------------------------------------------------------


def _operator(fn, reflected=False):
    """``a + b`` and friends: a number or tensor operand, else NotImplemented (Python tries the other side)."""
    def op(self, other):
        if not isinstance(other, (Tensor,) + _NUMBER):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)
    return op


def _rtruediv(self, other):
    """``2 / x`` is ``reciprocal(x) * 2`` in PyTorch (its graph shows MulBackward0 over ReciprocalBackward0)."""
    return Mul.apply(Reciprocal.apply(self), other)


def _rfloordiv(other, self):
    return NotDifferentiable.apply(other, self, _floor_divide_values, "floor_divide")


def _rmod(other, self):
    return NotDifferentiable.apply(other, self, _remainder_values, "remainder")


_t.Tensor.__add__ = _operator(lambda a, b: Add.apply(a, b, 1))
_t.Tensor.__radd__ = _operator(lambda a, b: Add.apply(a, b, 1), reflected=True)
_t.Tensor.__sub__ = _operator(lambda a, b: Sub.apply(a, b, 1))
_t.Tensor.__rsub__ = _operator(lambda a, b: RsubScalar.apply(b, a, 1), reflected=True)
_t.Tensor.__mul__ = _operator(Mul.apply)
_t.Tensor.__rmul__ = _operator(Mul.apply, reflected=True)
_t.Tensor.__truediv__ = _operator(Div.apply)
_t.Tensor.__rtruediv__ = _operator(_rtruediv)
_t.Tensor.__floordiv__ = _operator(floor_divide)
_t.Tensor.__rfloordiv__ = _operator(_rfloordiv, reflected=True)
_t.Tensor.__mod__ = _operator(remainder)
_t.Tensor.__rmod__ = _operator(_rmod, reflected=True)
_t.Tensor.__pow__ = _operator(pow)
_t.Tensor.__rpow__ = _operator(pow, reflected=True)
_t.Tensor.__neg__ = lambda self: Neg.apply(self)
_t.Tensor.__pos__ = lambda self: self


# -- in-place forms: ``x.add_(y)`` is ``add(x, y)`` written back into x (see ops/inplace.py) --------

for _name, _fn in [("add_", add), ("sub_", sub), ("subtract_", sub), ("mul_", mul), ("multiply_", mul),
                   ("div_", div), ("divide_", div), ("true_divide_", div), ("floor_divide_", floor_divide),
                   ("neg_", neg), ("negative_", neg), ("reciprocal_", reciprocal), ("pow_", pow),
                   ("remainder_", remainder), ("fmod_", fmod), ("atan2_", atan2), ("arctan2_", atan2)]:
    inplace_method(_name, _fn)


def _inplace_operator(name):
    method_ = getattr(_t.Tensor, name)

    def op(self, other):
        if not isinstance(other, (Tensor,) + _NUMBER):
            return NotImplemented
        return method_(self, other)
    return op


_t.Tensor.__iadd__ = _inplace_operator("add_")
_t.Tensor.__isub__ = _inplace_operator("sub_")
_t.Tensor.__imul__ = _inplace_operator("mul_")
_t.Tensor.__itruediv__ = _inplace_operator("div_")
_t.Tensor.__ifloordiv__ = _inplace_operator("floor_divide_")
_t.Tensor.__imod__ = _inplace_operator("remainder_")
_t.Tensor.__ipow__ = _inplace_operator("pow_")


__all__ = ["add", "sub", "subtract", "rsub", "mul", "multiply", "div", "divide", "true_divide", "floor_divide",
           "neg", "negative", "reciprocal", "pow", "remainder", "fmod", "atan2", "arctan2"]
