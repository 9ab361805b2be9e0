"""Comparisons (``== != < <= > >=``), logical and bitwise ops, and tests for nan/inf.

They all return tensors (bool for comparisons and tests) and have no gradient: a comparison is a
step function, flat almost everywhere. Operands are promoted first, so ``int_tensor < 2.5`` compares
as floats, exactly as PyTorch does.
See course/04_ops_and_reductions.
"""
from .. import _dtype
from ..autograd.function import Function
from ._pointwise import broadcast_operands, inplace_method, reject
from ._util import method, wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor
_NUMBER = (int, float, bool, complex)


def _check(name, input, other, tensor_only=False):
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    allowed = (Tensor,) if tensor_only else (Tensor,) + _NUMBER
    if not isinstance(other, allowed):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")


def _compare(name, ufunc):
    """A comparison: promote both operands to their common dtype, then compare elementwise."""
    def compare(input, other):
        _check(name, input, other)
        (x, y), dtype, device = broadcast_operands(input, other)
        if dtype.is_complex and name not in ("eq", "ne"):  # complex numbers have no order
            reject(dtype, name, dtype, kernel=f"{name}_cpu")
        return wrap(getattr(xp_of(input), ufunc)(x, y), device)
    compare.__name__ = compare.__qualname__ = name
    compare.__doc__ = f"Elementwise ``{name}`` as a bool tensor (operands promoted first)."
    return compare


eq = _compare("eq", "equal")
ne = not_equal = _compare("ne", "not_equal")
lt = less = _compare("lt", "less")
le = less_equal = _compare("le", "less_equal")
gt = greater = _compare("gt", "greater")
ge = greater_equal = _compare("ge", "greater_equal")

for _names, _fn in [(("eq",), eq), (("ne", "not_equal"), ne), (("lt", "less"), lt), (("le", "less_equal"), le),
                    (("gt", "greater"), gt), (("ge", "greater_equal"), ge)]:
    method(*_names)(_fn)


def _operator(fn):
    def op(self, other):
        if not isinstance(other, (Tensor,) + _NUMBER):
            return NotImplemented
        return fn(self, other)
    return op


Tensor.__eq__ = _operator(eq)
Tensor.__ne__ = _operator(ne)
Tensor.__lt__ = _operator(lt)
Tensor.__le__ = _operator(le)
Tensor.__gt__ = _operator(gt)
Tensor.__ge__ = _operator(ge)


# -- logical ops: any nonzero value counts as True ------------------------------------------------


def _logical(name, ufunc):
    def logical(input, other):
        _check(name, input, other, tensor_only=True)
        (x, y), _, device = broadcast_operands(input, other, dtype=_dtype.bool)
        return wrap(getattr(xp_of(input), ufunc)(x, y), device)
    logical.__name__ = logical.__qualname__ = name
    logical.__doc__ = f"Elementwise ``{name}``: nonzero is True; the result is a bool tensor."
    return method(name)(logical)


logical_and = _logical("logical_and", "logical_and")
logical_or = _logical("logical_or", "logical_or")
logical_xor = _logical("logical_xor", "logical_xor")


@method()
def logical_not(input):
    """True where ``input`` is zero."""
    return wrap(xp_of(input).logical_not(input._array), input.device)


# -- bitwise ops: bool and integer tensors only ------------------------------------------------------


def _integral(dtype, kernel):
    reject(dtype, kernel, _dtype.float16, _dtype.float32, _dtype.float64, kernel=kernel + "_cpu")


def _bits(ufunc, kernel, a, b):
    """``ufunc`` (bitwise_and, left_shift...) of promoted operands; one of them may be a number."""
    (x, y), dtype, device = broadcast_operands(a, b)
    _integral(dtype, kernel)
    return wrap(getattr(xp_of(a if isinstance(a, Tensor) else b), ufunc)(x, y), device)


def _bitwise(name, ufunc, kernel):
    def bitwise(input, other):
        _check(name, input, other)
        return _bits(ufunc, kernel, input, other)
    bitwise.__name__ = bitwise.__qualname__ = name
    bitwise.__doc__ = f"Elementwise ``{name}`` of the bits of bool or integer tensors."
    return method(name)(bitwise)


bitwise_and = _bitwise("bitwise_and", "bitwise_and", "bitwise_and")
bitwise_or = _bitwise("bitwise_or", "bitwise_or", "bitwise_or")
bitwise_xor = _bitwise("bitwise_xor", "bitwise_xor", "bitwise_xor")
bitwise_left_shift = _bitwise("bitwise_left_shift", "left_shift", "lshift")
bitwise_right_shift = _bitwise("bitwise_right_shift", "right_shift", "rshift")


@method()
def bitwise_not(input):
    """Flip every bit (``~``); on bool tensors this is logical not."""
    _integral(input.dtype, "bitwise_not")
    return wrap(xp_of(input).invert(input._array), input.device)


def _invert(self):
    if self.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return bitwise_not(self)


Tensor.__and__ = Tensor.__rand__ = _operator(bitwise_and)
Tensor.__or__ = Tensor.__ror__ = _operator(bitwise_or)
Tensor.__xor__ = Tensor.__rxor__ = _operator(bitwise_xor)
Tensor.__lshift__ = _operator(bitwise_left_shift)
Tensor.__rshift__ = _operator(bitwise_right_shift)
Tensor.__rlshift__ = _operator(lambda self, other: _bits("left_shift", "lshift", other, self))   # 2 << x
Tensor.__rrshift__ = _operator(lambda self, other: _bits("right_shift", "rshift", other, self))  # 16 >> x
Tensor.__invert__ = _invert


# -- nan and inf ----------------------------------------------------------------------------------------


def _test(name, ufunc, integer_answer):
    def test(input):
        xp = xp_of(input)
        if not input.dtype.is_floating_point:  # integers are never nan or inf
            return wrap(xp.full(input._shape, integer_answer), input.device)
        return wrap(getattr(xp, ufunc)(input._array), input.device)
    test.__name__ = test.__qualname__ = name
    test.__doc__ = f"Bool tensor: ``{name}`` of each element."
    return method(name)(test)


isnan = _test("isnan", "isnan", False)
isinf = _test("isinf", "isinf", False)
isfinite = _test("isfinite", "isfinite", True)


@method()
def isposinf(input):
    return wrap(xp_of(input).isposinf(input._array), input.device)


@method()
def isneginf(input):
    return wrap(xp_of(input).isneginf(input._array), input.device)


# -- closeness --------------------------------------------------------------------------------------


def _same_dtype(input, other):
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{input.dtype._legacy[:-6]} did not match {other.dtype._legacy[:-6]}")


@method()
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|input - other| <= atol + rtol * |other|`` elementwise (equal infinities count as close)."""
    _check("isclose", input, other, tensor_only=True)
    _same_dtype(input, other)
    (x, y), _, device = broadcast_operands(input, other)
    xp = xp_of(input)
    if not input.dtype.is_floating_point:
        x, y = x.astype("float64"), y.astype("float64")
    close = (x == y) | (xp.isfinite(y) & (xp.abs(x - y) <= atol + rtol * xp.abs(y)))
    if equal_nan:
        close |= xp.isnan(x) & xp.isnan(y)
    return wrap(close, device)


@method()
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True if every element is ``isclose``."""
    return bool(isclose(input, other, rtol, atol, equal_nan)._array.all())


@method()
def equal(input, other):
    """True if both have the same shape and the same elements."""
    _check("equal", input, other, tensor_only=True)
    if input._shape != other._shape:
        return False
    return bool(eq(input, other)._array.all())



# -- in-place forms ------------------------------------------------------------------------------


class ComparedInPlace(Function):
    """``x.lt_(y)`` on a float tensor writes 0/1 in x's dtype. PyTorch records a node for it
    (``LtBackward0`` for a number, ``LtBackward1`` for a tensor) whose gradient is zero."""

    @staticmethod
    def forward(ctx, x, other, compare):
        ctx.shapes = (x._shape, other._shape if isinstance(other, Tensor) else None)
        return wrap(compare(x, other)._array.astype(x._array.dtype), x.device)

    @staticmethod
    def backward(ctx, grad):
        return tuple(None if s is None else grad.new_zeros(s) for s in ctx.shapes) + (None,)


def _compare_inplace(name, compare):
    """The in-place form of a comparison: the result is cast to self's dtype (ops/inplace.py writes it)."""
    nodes = [type(f"{name.capitalize()}{k}", (ComparedInPlace,), {"node_name": f"{name.capitalize()}Backward{k}"})
             for k in (0, 1)]

    def compared(self, other):
        if not self.dtype.is_floating_point:
            return compare(self, other)
        return nodes[isinstance(other, Tensor)].apply(self, other, compare)
    compared.__name__ = name
    inplace_method(name + "_", compared)


for _name, _fn in [("eq", eq), ("ne", ne), ("not_equal", ne), ("lt", lt), ("less", lt), ("le", le),
                   ("less_equal", le), ("gt", gt), ("greater", gt), ("ge", ge), ("greater_equal", ge)]:
    _compare_inplace(_name, _fn)

for _name, _fn in [("logical_and_", logical_and), ("logical_or_", logical_or), ("logical_xor_", logical_xor),
                   ("logical_not_", logical_not), ("bitwise_and_", bitwise_and), ("bitwise_or_", bitwise_or),
                   ("bitwise_xor_", bitwise_xor), ("bitwise_not_", bitwise_not),
                   ("bitwise_left_shift_", bitwise_left_shift), ("bitwise_right_shift_", bitwise_right_shift)]:
    inplace_method(_name, _fn)

Tensor.__iand__ = _operator(Tensor.bitwise_and_)
Tensor.__ior__ = _operator(Tensor.bitwise_or_)
Tensor.__ixor__ = _operator(Tensor.bitwise_xor_)
Tensor.__ilshift__ = _operator(Tensor.bitwise_left_shift_)
Tensor.__irshift__ = _operator(Tensor.bitwise_right_shift_)


__all__ = ["eq", "ne", "not_equal", "lt", "less", "le", "less_equal", "gt", "greater", "ge", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
           "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "isnan", "isinf", "isfinite", "isposinf",
           "isneginf", "isclose", "allclose", "equal"]
