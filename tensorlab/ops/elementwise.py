"""Arithmetic: ``+ - * / // % **`` and their function forms (add, sub, mul, div, pow, remainder...).

Inputs broadcast against each other; the result dtype follows PyTorch's promotion
(``_dtype.result_type``: int tensor + 2.5 is float32, int / int is float32). In backward, a broadcast
input receives the gradient *summed* over the dims it was stretched along (``unbroadcast``).

Every op is an ``autograd.Function``, the same class a learner subclasses in course/09_custom_functions.
Backward formulas are written with tensor ops, so they can be differentiated again.
See course/04_ops_and_reductions.
"""
from .. import _dtype
from ..autograd.function import Function
from ._pointwise import (NotDifferentiable, broadcast_operands, check_operands, fast_operand, float_array,
                         float_dtype, inplace_method, inplace_operator, no_integer_zero_division, operator,
                         reject, save_operands, saved_or_scalar, shape_of, xp_of_operands)
from ._util import method, unbroadcast, wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor


def _check_alpha(alpha, dtype):
    if isinstance(alpha, bool) and dtype is not _dtype.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not dtype.is_floating_point:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


# -- + - * / ------------------------------------------------------------------------------------


class Add(Function):
    scalar_edges = (0, 1)
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        (x, y), dtype, device = broadcast_operands(a, b)
        ctx.alpha = alpha
        if type(alpha) is int and alpha == 1:
            return wrap(x + y, device)
        _check_alpha(alpha, dtype)
        out = x + y * alpha
        return wrap(out.astype(bool) if dtype is _dtype.bool else out, device)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.input_shapes
        ga = unbroadcast(grad, a_shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(grad if ctx.alpha == 1 else grad * ctx.alpha, b_shape) if ctx.needs_input_grad[1] else None
        return ga, gb, None


class Sub(Function):
    scalar_edges = (0, 1)
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        _no_bool_subtraction(a, b)
        (x, y), dtype, device = broadcast_operands(a, b)
        _check_alpha(alpha, dtype)
        ctx.shapes, ctx.alpha = (shape_of(a), shape_of(b)), alpha
        return wrap(x - y if alpha == 1 else x - y * alpha, device)

    @staticmethod
    def backward(ctx, grad):
        a_shape, b_shape = ctx.shapes
        ga = unbroadcast(grad, a_shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(-grad if ctx.alpha == 1 else grad * -ctx.alpha, b_shape) if ctx.needs_input_grad[1] else None
        return ga, gb, None


def _is_bool(x):
    return x.dtype is _dtype.bool if isinstance(x, Tensor) else isinstance(x, bool)


def _no_bool_subtraction(a, b):
    if _is_bool(a) and _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
                           "or `logical_xor()` operator instead.")
    if _is_bool(a) or _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                           "to invert a mask, use the `~` or `logical_not()` operator instead.")


class Rsub(Function):
    """``other - alpha * input``: ``2 - x`` (RsubBackward1) and ``torch.rsub(x, y)`` (RsubBackward0)."""

    scalar_edges = (0, 1)
    node_name = "RsubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha):
        return Sub.forward(ctx, b, a, alpha)

    @staticmethod
    def backward(ctx, grad):
        b_shape, a_shape = ctx.shapes          # forward ran Sub.forward(ctx, b, a): shapes are (b, a)
        ga = unbroadcast(-grad if ctx.alpha == 1 else grad * -ctx.alpha, a_shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(grad, b_shape) if ctx.needs_input_grad[1] else None
        return ga, gb, None


class RsubScalar(Rsub):
    scalar_edges = (0,)
    node_name = "RsubBackward1"


class Mul(Function):
    scalar_edges = (0, 1)
    node_name = "MulBackward0"

    # build: stage 3
    @staticmethod
    def forward(ctx, a, b):
        """``a * b`` on the arrays. ``broadcast_operands`` checks that the shapes broadcast and gives
        both arrays in the common dtype (a Python number stays a number), with the device; ``wrap``
        makes the result a tensor. Save only what backward needs: a's gradient needs b, b's needs a
        (``save_operands``; ``ctx.needs_input_grad`` says which inputs want a gradient)."""
        (x, y), _, device = broadcast_operands(a, b)
        if ctx._recorded:  # keep only what the other input's gradient needs
            save_operands(ctx, a, b, keep_a=ctx.needs_input_grad[1], keep_b=ctx.needs_input_grad[0])
        return wrap(x * y, device)

    @staticmethod
    def backward(ctx, grad):
        """d(a*b)/da = b and d(a*b)/db = a: each input's gradient is ``grad`` times the *other* input,
        summed back to that input's shape (``unbroadcast``: a broadcast input was used several times).
        ``saved_or_scalar(ctx)`` gives a and b back; None for an input that needs no gradient."""
        a, b = saved_or_scalar(ctx)
        ga = unbroadcast(grad * b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(grad * a, ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb
    # build: end


class Div(Function):
    """True division: integers divide as the default float dtype (``int / int`` is float32)."""

    scalar_edges = (0, 1)
    node_name = "DivBackward0"

    # build: stage 3
    @staticmethod
    def forward(ctx, a, b):
        """``a / b`` on the arrays: true division, so integer inputs divide in the default float dtype
        (``int / int`` is float32: ask ``broadcast_operands`` for ``dtype=float_dtype(a, b)``). Both
        gradients need b; only b's gradient needs a."""
        (x, y), dtype, device = broadcast_operands(a, b)
        if not dtype.is_floating_point:
            (x, y), _, device = broadcast_operands(a, b, dtype=float_dtype(a, b))
        if ctx._recorded:  # the gradient of b needs a; both need b
            save_operands(ctx, a, b, keep_a=ctx.needs_input_grad[1])
        return wrap(xp_of_operands(a, b).true_divide(x, y), device)

    @staticmethod
    def backward(ctx, grad):
        """d(a/b)/da = 1/b and d(a/b)/db = -a/b^2, each times ``grad`` and summed back to its input's
        shape (``unbroadcast``)."""
        a, b = saved_or_scalar(ctx)
        ga = unbroadcast(grad / b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(-grad * a / (b * b), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return ga, gb
    # build: end


class DivRounding(Function):
    """``div(a, b, rounding_mode='trunc' | 'floor')``: piecewise constant, so its gradient is zero."""

    scalar_edges = (0, 1)
    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, rounding_mode):
        (x, y), dtype, device = broadcast_operands(a, b)
        reject(dtype, f"div_{rounding_mode}", _dtype.bool, *_dtype.COMPLEX)
        xp = xp_of_operands(a, b)
        if dtype.is_floating_point:
            out = xp.floor_divide(x, y) if rounding_mode == "floor" else xp.trunc(xp.true_divide(x, y))
        else:
            no_integer_zero_division(y)
            out = xp.floor_divide(x, y) if rounding_mode == "floor" else _int_trunc_div(xp, x, y)
        ctx.shapes = (shape_of(a), shape_of(b))
        return wrap(xp.asarray(out, dtype=dtype.np), device)

    @staticmethod
    def backward(ctx, grad):
        return tuple(grad.new_zeros(s) if need else None for s, need in zip(ctx.shapes, ctx.needs_input_grad)) + (None,)


def _int_trunc_div(xp, x, y):
    """Integer division rounding toward zero (NumPy's ``//`` rounds toward -inf)."""
    q = xp.floor_divide(x, y)
    return q + ((q < 0) & (x - q * y != 0))


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
        out = wrap(xp_of(x).reciprocal(float_array(x)), x.device)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        out, = ctx.saved_tensors
        return -grad * (out * out)


# -- the public functions and methods -----------------------------------------------------------

@method()
def add(input, other, *, alpha=1):
    """``input + alpha * other``, broadcasting. See course/04_ops_and_reductions."""
    check_operands("add", input, other)
    if type(alpha) is int and alpha == 1:
        return _add_operator(input, other)  # ``input + other``: its fast path, or the same Add op
    return Add.apply(input, other, alpha)


@method("sub", "subtract")
def sub(input, other, *, alpha=1):
    """``input - alpha * other``."""
    check_operands("sub", input, other)
    if type(alpha) is int and alpha == 1:
        return _sub_operator(input, other)  # ``input - other``
    return Sub.apply(input, other, alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (reversed subtraction)."""
    check_operands("rsub", input, other)
    return (Rsub if isinstance(other, Tensor) else RsubScalar).apply(input, other, alpha)


@method("mul", "multiply")
def mul(input, other):
    """Elementwise product, broadcasting."""
    check_operands("mul", input, other)
    return _mul_operator(input, other)  # ``input * other``: its fast path, or the same Mul op


multiply = mul


@method("div", "divide", "true_divide")
def div(input, other, *, rounding_mode=None):
    """``input / other``. ``rounding_mode``: None (true division, ints give floats), 'trunc' or 'floor'."""
    check_operands("div", input, other)
    if rounding_mode is None:
        return _truediv_operator(input, other)
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
    check_operands("floor_divide", input, other)
    return NotDifferentiable.apply(input, other, _floor_divide_values, "floor_divide")


@method("neg", "negative")
def neg(input):
    return Neg.apply(input)


negative = neg


@method()
def reciprocal(input):
    """``1 / input`` (floats; integers give the default float dtype)."""
    return Reciprocal.apply(input)


# -- Python operators ---------------------------------------------------------------------------------


def _rtruediv(self, other):
    """``2 / x`` is ``reciprocal(x) * 2`` in PyTorch (its graph shows MulBackward0 over ReciprocalBackward0)."""
    return Mul.apply(Reciprocal.apply(self), other)


def _floor_divide_inplace(input, other):
    """``x //= y``: as floor_divide, but PyTorch names the missing derivative after the in-place op."""
    check_operands("floor_divide_", input, other)
    return NotDifferentiable.apply(input, other, _floor_divide_values, "floor_divide_")


def _rfloordiv(other, self):
    return NotDifferentiable.apply(other, self, _floor_divide_values, "floor_divide")


# ``+ - * /`` are the most frequent ops of all, so each is written out (rather than made by
# ``operator``) and first tries the fast path: two float tensors alike, or a float tensor and a Python
# float, with nothing recorded or watching (``fast_operand``, _pointwise.py). Then the result is what the
# op's forward would compute, without the Function machinery around it.

def _add_operator(self, other):
    """``x + y`` and ``2 + x`` (which runs ``x.add(2)``, as in PyTorch)."""
    y = fast_operand(self, other)
    if y is not None:
        return wrap(self._array + y, self._device)
    if isinstance(other, (Tensor, int, float, bool, complex)):
        return Add.apply(self, other, 1)
    return NotImplemented


def _sub_operator(self, other):
    """``x - y``."""
    y = fast_operand(self, other)
    if y is not None:
        return wrap(self._array - y, self._device)
    if isinstance(other, (Tensor, int, float, bool, complex)):
        return Sub.apply(self, other, 1)
    return NotImplemented


def _mul_operator(self, other):
    """``x * y`` and ``2 * x`` (the scalar is the second input, as in PyTorch)."""
    y = fast_operand(self, other)
    if y is not None:
        return wrap(self._array * y, self._device)
    if isinstance(other, (Tensor, int, float, bool, complex)):
        return Mul.apply(self, other)
    return NotImplemented


def _truediv_operator(self, other):
    """``x / y``."""
    y = fast_operand(self, other)
    if y is not None:
        return wrap(self._array / y, self._device)
    if isinstance(other, (Tensor, int, float, bool, complex)):
        return Div.apply(self, other)
    return NotImplemented


Tensor.__add__ = Tensor.__radd__ = _add_operator
Tensor.__sub__ = _sub_operator
Tensor.__rsub__ = operator(lambda a, b: RsubScalar.apply(b, a, 1), reflected=True)
Tensor.__mul__ = Tensor.__rmul__ = _mul_operator
Tensor.__truediv__ = _truediv_operator
Tensor.__rtruediv__ = operator(_rtruediv)
Tensor.__floordiv__ = operator(floor_divide)
Tensor.__rfloordiv__ = operator(_rfloordiv, reflected=True)
Tensor.__neg__ = lambda self: Neg.apply(self)
Tensor.__pos__ = lambda self: self


# -- in-place forms: ``x.add_(y)`` is ``add(x, y)`` written back into x (see ops/inplace.py) --------

for _name, _fn in [("add_", add), ("sub_", sub), ("subtract_", sub), ("mul_", mul), ("multiply_", mul),
                   ("div_", div), ("divide_", div), ("true_divide_", div), ("floor_divide_", _floor_divide_inplace),
                   ("neg_", neg), ("negative_", neg), ("reciprocal_", reciprocal)]:
    inplace_method(_name, _fn)

Tensor.__iadd__ = inplace_operator("add_")
Tensor.__isub__ = inplace_operator("sub_")
Tensor.__imul__ = inplace_operator("mul_")
Tensor.__itruediv__ = inplace_operator("div_")
Tensor.__ifloordiv__ = inplace_operator("floor_divide_")


__all__ = ["add", "sub", "subtract", "rsub", "mul", "multiply", "div", "divide", "true_divide", "floor_divide",
           "neg", "negative", "reciprocal", "neg_", "negative_", "reciprocal_"]  # torch.neg_(x) is x.neg_()
