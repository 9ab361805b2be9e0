"""Helpers shared by the pointwise op families (elementwise, unary, compare, clamp).

A pointwise op reads its inputs at the same (broadcast) position and writes one output element there.
Three small ideas recur in all of them and live here:
- checking that shapes broadcast, so a mismatch raises PyTorch's error (not NumPy's);
- the dtype a float-only function (``exp``, ``sin``...) computes in: integers become the default float;
- keeping a gradient only where a condition holds (``relu``, ``clamp``, ``maximum``...) with the
  differentiable ``where``/``masked_fill``, so the backward can itself be differentiated.
See course/04_ops_and_reductions.
"""
import warnings

import numpy as np

from .. import _dtype, _layout
from ..autograd.function import Function, _op_layers
from ..autograd.grad_mode import _State as _GradState
from ._util import method, operands, xp_of
from .inplace import apply_inplace
from .. import tensor as _t

Tensor = _t.Tensor

# NumPy warns when a result is inf or nan (1/0, inf*0, log(-1)...); PyTorch never does. Silence NumPy's
# RuntimeWarnings raised by the op modules, and only those -- no cost unless a special value appears.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tensorlab\.ops\.")


def shape_of(x):
    """The shape of a tensor operand; a Python scalar counts as 0-dim."""
    return x._shape if isinstance(x, Tensor) else ()


def broadcast_operands(*xs, dtype=None):
    """``operands`` (promoted arrays, dtype, device) after checking the shapes broadcast.

    NumPy would broadcast too, but its error message is not PyTorch's.
    """
    if len(xs) == 2:
        a, b = xs
        if isinstance(a, Tensor) and isinstance(b, Tensor):
            if a._shape != b._shape:
                _layout.broadcast_shapes(a._shape, b._shape)
            elif dtype is None and a._array.dtype is b._array.dtype and a._device is b._device \
                    and a._array.dtype.kind == "f":
                return (a._array, b._array), _dtype._FROM_NUMPY[a._array.dtype], a._device
        elif dtype is None and type(b) is float and isinstance(a, Tensor) and a._array.dtype.kind == "f":
            # a floating tensor and a Python float (``grad * 0.5``): the tensor's dtype, no shape to check
            return (a._array, b), _dtype._FROM_NUMPY[a._array.dtype], a._device
    else:
        shapes = [x._shape for x in xs if isinstance(x, Tensor)]
        if any(s != shapes[0] for s in shapes):
            _layout.broadcast_shapes(*shapes)
    arrays, dtype, device = operands(*xs, dtype=dtype)
    if dtype._category == _dtype._INT and dtype is not _dtype.int64:
        arrays = [_wrapped_int(x, dtype) if type(x) is int else x for x in arrays]
    return arrays, dtype, device


# -- the fast path ------------------------------------------------------------------------------
# Most ``a + b`` in a program are the plain case: two floating tensors of one dtype and device, of one
# shape or of shapes that broadcast (``x - x.mean(1, keepdim=True)``), or a floating tensor and a
# Python float (``x * 0.5``), with nothing to record and nothing watching. That case needs none of the
# general machinery -- no promotion, no ctx node; NumPy broadcasts as PyTorch does, once the shapes
# are known to broadcast (``broadcast_shapes`` raises PyTorch's error otherwise) -- so the arithmetic
# operators (elementwise.py) test for it first and then compute on the arrays
# directly; everything else takes the ordinary road through ``Function.apply``. What the test rules out:
# - an op layer (forward-mode AD, a vmap level, a dispatch mode): they must see every op;
# - recording (grad mode on and an input requires grad): then a node is made, and with it come
#   anomaly mode, saved-tensor hooks and trace_forward, which all act only on recorded ops;
# - ``__torch_function__`` needs no test here: once a subclass or a mode exists, the operators are
#   wrapped (tensorlab/_torch_function.py) and the wrapper decides before calling them.


def fast_operand(a, b):
    """What ``a <op> b`` computes with if it can take the fast path -- ``b``'s array, or ``b`` itself when
    it is a Python float (NumPy then keeps ``a``'s dtype, as PyTorch does) -- else None. ``a`` is the
    tensor whose operator was called: the fast path needs a floating ``a``, ``b`` a tensor of its dtype
    and device whose shape broadcasts with ``a``'s, no op layer active, and nothing to record."""
    if _op_layers or (a._requires_grad and _GradState.enabled) or a._array.dtype.kind != "f":
        return None
    if type(b) is float:
        return b
    if (isinstance(b, Tensor) and not (b._requires_grad and _GradState.enabled)
            and b._array.dtype is a._array.dtype and b._device is a._device):
        if b._shape != a._shape:
            _layout.broadcast_shapes(a._shape, b._shape)
        return b._array
    return None


def _wrapped_int(value, dtype):
    """A Python int that does not fit ``dtype`` wraps around, as in PyTorch (``int8 + 1000`` adds -24);
    NumPy would raise OverflowError instead."""
    info = np.iinfo(dtype.np)
    if info.min <= value <= info.max:
        return value
    return np.array(value).astype(dtype.np)


NUMBER = (int, float, bool, complex)


def xp_of_operands(*xs):
    """The array module of the first tensor among ``xs``."""
    return xp_of(next(x for x in xs if isinstance(x, Tensor)))


def check_operands(name, input, other, arg="other"):
    """Functions take a tensor ``input`` and a tensor-or-number ``other`` (not None): PyTorch's TypeError
    otherwise."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not isinstance(other, (Tensor,) + NUMBER):
        raise TypeError(f"{name}(): argument '{arg}' (position 2) must be Tensor, not {type(other).__name__}")


def save_operands(ctx, a, b, keep_a=True, keep_b=True):
    """Save the tensor operands backward needs; remember Python-scalar operands as they are."""
    if not ctx._recorded:  # the op runs without a graph: no backward will need anything
        return
    ctx.save_for_backward(a if keep_a and isinstance(a, Tensor) else None,
                          b if keep_b and isinstance(b, Tensor) else None)
    ctx.scalars = (None if isinstance(a, Tensor) else a, None if isinstance(b, Tensor) else b)
    ctx.shapes = (shape_of(a), shape_of(b))


def saved_or_scalar(ctx):
    """The two operands of a binary op: the saved tensors, or the Python scalars given instead."""
    a, b = ctx.saved_tensors
    return (ctx.scalars[0] if a is None else a), (ctx.scalars[1] if b is None else b)


def no_integer_zero_division(y):
    """Integer division by zero has no answer: PyTorch raises (floats give inf or nan instead)."""
    if (y == 0).any() if hasattr(y, "any") else y == 0:
        raise RuntimeError("ZeroDivisionError")


def float_dtype(*xs):
    """The dtype a float function computes in: the promoted dtype, or the default float for ints/bools."""
    dtype = _dtype.result_type(*xs)
    return dtype if dtype.is_floating_point or dtype.is_complex else _dtype.get_default_dtype()


def float_array(x):
    """``x``'s array in its float dtype (no copy when it is floating already)."""
    a = x._array
    return a if a.dtype.kind in "fc" else a.astype(_dtype.get_default_dtype().np)


def reject(dtype, op_name, *dtypes, kernel=None):
    """PyTorch has no kernel of ``op_name`` for ``dtype`` (one of ``dtypes``): raise its NotImplementedError."""
    if dtype in dtypes:
        legacy = {"bool": "Bool", "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                  "uint8": "Byte", "float16": "Half", "float32": "Float", "float64": "Double",
                  "complex64": "ComplexFloat", "complex128": "ComplexDouble"}[dtype.name]
        raise NotImplementedError(f'"{kernel or op_name + "_cpu"}" not implemented for \'{legacy}\'')


def no_complex(x, message=None, kernel=None, error=NotImplementedError):
    """PyTorch has no complex version of this op (ordering, rounding, clamping): raise its error when ``x``
    is complex -- ``message``, or for a ``kernel`` name: '"lt_cpu" not implemented for 'ComplexFloat''."""
    if isinstance(x, Tensor) and x._array.dtype.kind == "c":
        if kernel is not None:
            reject(x.dtype, kernel, x.dtype, kernel=kernel)
        raise error(message)


def c_type_name(dtype):
    """The C++ name PyTorch prints in some dtype errors ("expected ... float != double")."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
            "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}[dtype.name]


# -- masking a gradient -----------------------------------------------------------------------
# Backward formulas route a gradient with a mask: ``relu`` passes it where the output is positive,
# ``clamp`` where the input was inside the bounds. Both helpers are ordinary differentiable ops
# (ops/masking.py), so the backward itself can be differentiated again.


def keep_where(x, mask):
    """``x`` where the bool tensor ``mask`` is True, 0 elsewhere: ``where(mask, x, 0)``."""
    return x.where(mask, 0)


def zero_where(x, mask):
    """``x`` with zeros where ``mask`` is True: ``masked_fill(mask, 0)``."""
    return x.masked_fill(mask, 0)


class NotDifferentiable(Function):
    """An op PyTorch gives no derivative (``//``, ``number % tensor``): its backward raises, as PyTorch's."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, a, b, fn, aten_name):
        ctx.aten_name = aten_name
        return fn(a, b)  # Function.apply runs forward with recording off

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for aten::{ctx.aten_name} is not implemented")


# -- Python operators and in-place forms -------------------------------------------------------


def operator(fn, reflected=False):
    """``a + b`` and friends: a number or tensor operand, else NotImplemented (Python tries the other side)."""
    def op(self, other):
        if not isinstance(other, (Tensor,) + NUMBER):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)
    return op


def inplace_operator(name):
    """``a += b``: the in-place method ``name`` (looked up when called, so it may be attached later)."""
    def op(self, other):
        if not isinstance(other, (Tensor,) + NUMBER):
            return NotImplemented
        return getattr(self, name)(other)
    return op


# -- in-place forms ----------------------------------------------------------------------------


def inplace_method(name, out_of_place):
    """Attach ``Tensor.<name>``: ``out_of_place(self, ...)`` written back into ``self``'s memory.

    ``x.add_(y)`` is ``add(x, y)`` plus a write-back (version bump, history rebase): see ops/inplace.py.
    """
    def inplace(self, *args, **kwargs):
        return apply_inplace(self, out_of_place, *args, **kwargs)
    inplace.__name__ = inplace.__qualname__ = name
    inplace.__doc__ = f"In-place ``{out_of_place.__name__}``: writes the result into ``self``."
    method(name)(inplace)
    return inplace
