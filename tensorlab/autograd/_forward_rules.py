"""Forward rules: the tangent of an op's result, ``J t``, written out for the common ops.

Each rule is ``rule(cls, out, args, kwargs, tangent_of) -> tangent`` (a tuple for an op with several
results): ``out`` is the op's result, ``args`` its arguments, ``tangent_of(a)`` the tangent of an
argument (None when it has none: a plain tensor, a number). Rules are written with tensor ops, so a
tangent that requires grad gets a history (reverse-over-forward works). Three shapes of rule:

- a *linear* op (views, sum, cat...) maps tangents as it maps values: ``J t = op(t)``;
- a *multilinear* op (mul, mm, einsum) is linear in each input alone: ``J t = sum_i op(.., t_i, ..)``;
- every other op has its derivative written out (``exp``: ``t * out``).
An op without a rule here falls back on the double-backward trick (_forward_fallback.py). The
formulas are PyTorch's (its derivatives.yaml ``result:`` lines). See course/23_forward_mode_ad.
"""
from ..tensor import Tensor
from .forward_ad import _Primal
from ..ops.advanced_index import Index
from ..ops.convert import ToCopy
from ..ops.copying import Cat, Repeat, Stack
from ..ops.einsum import Einsum
from ..ops.elementwise import Add, Div, Mul, Neg, Rsub, Sub
from ..ops.index import Alias, Select, Slice
from ..ops.linalg import Addmm, Bmm, Dot, Mm, Mv
from ..ops.masking import Where
from ..ops.nn_activation import LogSoftmax, Softmax
from ..ops.nn_loss import NllLoss
from ..ops.powmod import Pow, PowScalarBase, PowTensor
from ..ops.rearrange import Flip, Roll, Tril, Triu
from ..ops.reduce import Mean, Sum
from ..ops.scan import Cumsum
from ..ops.shape import Clone, Expand, View
from ..ops.shape_pieces import Diagonal, Split, Unbind
from ..ops.shape_reorder import Permute, Squeeze, T, Transpose, Unsqueeze
from ..ops.unary import Cos, Exp, Expm1, Log, Log1p, Relu, Sigmoid, Sin, Sqrt, Tanh


def _zeros(a):
    from ..ops.creation import zeros_like
    return zeros_like(a)


def _is_float_tensor(a):
    return isinstance(a, Tensor) and (a.dtype.is_floating_point or a.dtype.is_complex)


def linear(cls, out, args, kwargs, tangent_of):
    """The op applied to the tangents: every floating-point tensor argument is replaced by its
    tangent (zeros if it has none); index tensors, dims and shapes stay."""
    def swap(a):
        if isinstance(a, (list, tuple)) and not isinstance(a, Tensor):
            return type(a)(swap(x) for x in a)
        if not _is_float_tensor(a):
            return a
        t = tangent_of(a)
        return t if t is not None else _zeros(a)
    return cls.apply(*[swap(a) for a in args], **kwargs)


def multilinear(cls, out, args, kwargs, tangent_of):
    """Linear in each tensor argument separately (a product): one term per dual argument."""
    total = None
    for i, a in enumerate(args):
        t = tangent_of(a)
        if t is None:
            continue
        term = cls.apply(*args[:i], t, *args[i + 1:], **kwargs)
        total = term if total is None else total + term
    return total


def _sum_terms(*terms):
    total = None
    for term in terms:
        if term is not None:
            total = term if total is None else total + term
    return total


def _scaled(t, factor):
    return None if t is None else (t if isinstance(factor, int) and factor == 1 else t * factor)


# -- arithmetic -------------------------------------------------------------------------------------
def add(cls, out, args, kwargs, tangent_of):
    a, b, alpha = args
    return _sum_terms(tangent_of(a), _scaled(tangent_of(b), alpha))


def sub(cls, out, args, kwargs, tangent_of):
    a, b, alpha = args
    return _sum_terms(tangent_of(a), _scaled(tangent_of(b), -alpha))


def rsub(cls, out, args, kwargs, tangent_of):
    a, b, alpha = args          # b - alpha * a
    return _sum_terms(_scaled(tangent_of(a), -alpha), tangent_of(b))


def div(cls, out, args, kwargs, tangent_of):
    a, b = args                 # d(a/b) = (da - (a/b) db) / b
    ta, tb = tangent_of(a), tangent_of(b)
    numerator = _sum_terms(ta, None if tb is None else -(out * tb))
    return numerator / b


def pow_scalar(cls, out, args, kwargs, tangent_of):
    x, e = args                 # e x^(e-1) t, and zero for e == 0
    t = tangent_of(x)
    if isinstance(e, Tensor):
        return pow_tensor(cls, out, args, kwargs, tangent_of)
    if e == 0:
        return _zeros(t)
    return t * (e * x ** (e - 1))


def _log_term(out, base, exponent, t):
    """d/dy b^y = b^y log b, taken as 0 where b == 0 and y >= 0 (PyTorch's convention)."""
    from ..ops.masking import where
    term = out * base.log() if isinstance(base, Tensor) else out * _log_number(base)
    if isinstance(base, Tensor):
        term = where((base == 0) & (exponent >= 0), 0.0, term)
    elif base == 0:
        term = where(exponent >= 0, 0.0, term)
    return term * t


def _log_number(b):
    import math
    return math.log(b) if b > 0 else float("nan") if b < 0 else float("-inf")


def pow_tensor(cls, out, args, kwargs, tangent_of):
    x, y = args
    tx, ty = tangent_of(x), tangent_of(y)
    first = None if tx is None else tx * (y * x ** (y - 1))
    second = None if ty is None else _log_term(out, x, y, ty)
    return _sum_terms(first, second)


def pow_scalar_base(cls, out, args, kwargs, tangent_of):
    base, y = args
    return _log_term(out, base, y, tangent_of(y))


# -- unary ------------------------------------------------------------------------------------------
def _unary(derivative):
    """A rule ``t * derivative(x, out)`` for an elementwise op of one tensor."""
    def rule(cls, out, args, kwargs, tangent_of):
        return tangent_of(args[0]) * derivative(args[0], out)
    rule.__name__ = derivative.__name__
    return rule


@_unary
def exp(x, out):
    return out


@_unary
def log(x, out):
    return x.reciprocal()


@_unary
def sin(x, out):
    return x.cos()


@_unary
def cos(x, out):
    return -x.sin()


@_unary
def tanh(x, out):
    return 1 - out * out


@_unary
def sigmoid(x, out):
    return out * (1 - out)


@_unary
def sqrt(x, out):
    return (2 * out).reciprocal()


@_unary
def expm1(x, out):
    return out + 1


@_unary
def log1p(x, out):
    return (x + 1).reciprocal()


def relu(cls, out, args, kwargs, tangent_of):
    """The tangent where the result is positive, zero elsewhere (``threshold_backward(t, out, 0)``)."""
    return tangent_of(args[0]).masked_fill(out <= 0, 0)


# -- matrices ---------------------------------------------------------------------------------------
def addmm(cls, out, args, kwargs, tangent_of):
    c, m1, m2, beta, alpha = args   # beta c + alpha m1 m2
    t1, t2 = tangent_of(m1), tangent_of(m2)
    product = _sum_terms(None if t1 is None else t1 @ m2, None if t2 is None else m1 @ t2)
    return _sum_terms(_scaled(tangent_of(c), beta), _scaled(product, alpha))


# -- softmax and the loss -----------------------------------------------------------------------------
def softmax(cls, out, args, kwargs, tangent_of):
    x, dim = args[0], args[1]       # out * (t - <out, t>) along dim
    t = tangent_of(x)
    return out * (t - (out * t).sum(dim, keepdim=True))


def log_softmax(cls, out, args, kwargs, tangent_of):
    x, dim = args[0], args[1]       # t - <softmax, t> along dim
    t = tangent_of(x)
    return t - (out.exp() * t).sum(dim, keepdim=True)


def nll_loss(cls, out, args, kwargs, tangent_of):
    """Linear in the input (the target and weight pick and scale its entries)."""
    weight = args[2]
    if isinstance(weight, Tensor) and tangent_of(weight) is not None:
        raise NotImplementedError("the derivative for 'weight' is not implemented.")
    return cls.apply(tangent_of(args[0]), *args[1:], **kwargs)


def where(cls, out, args, kwargs, tangent_of):
    condition, x, y = args
    tx, ty = tangent_of(x), tangent_of(y)
    return cls.apply(condition, tx if tx is not None else _zeros(out), ty if ty is not None else _zeros(out))


_LINEAR = [Neg, Sum, Mean, View, Expand, Clone, Transpose, T, Permute, Unsqueeze, Squeeze, Select, Slice,
           Alias, Index, Cat, Stack, Repeat, Split, Unbind, Diagonal, Flip, Roll, Tril, Triu, Cumsum, ToCopy]
_LINEAR.append(_Primal)
_MULTILINEAR = [Mul, Mm, Bmm, Mv, Dot, Einsum]

RULES = {cls: linear for cls in _LINEAR}
RULES.update({cls: multilinear for cls in _MULTILINEAR})
RULES.update({
    Add: add, Sub: sub, Rsub: rsub, Div: div, Pow: pow_scalar, PowTensor: pow_tensor,
    PowScalarBase: pow_scalar_base, Exp: exp, Log: log, Sin: sin, Cos: cos, Tanh: tanh, Sigmoid: sigmoid,
    Sqrt: sqrt, Expm1: expm1, Log1p: log1p, Relu: relu, Addmm: addmm, Softmax: softmax,
    LogSoftmax: log_softmax, NllLoss: nll_loss, Where: where,
})


def rule_for(cls):
    """The rule of ``cls`` or of the op it specializes (``SumDim`` is a ``Sum``), else None."""
    for k in cls.__mro__:
        rule = RULES.get(k)
        if rule is not None:
            return rule
        if k.__module__.startswith("tensorlab.autograd"):
            return None
    return None
