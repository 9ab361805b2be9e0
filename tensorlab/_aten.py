"""ATen names for tensorlab's ops: ``aten.mm.default``, ``aten.add.Tensor``...

PyTorch's operators live in a library called ATen. Each operator (``aten.add``, an **OpOverloadPacket**)
has one or more **overloads** for different argument types (``aten.add.Tensor`` adds a tensor,
``aten.add.Scalar`` a number); ``.default`` is the overload of an operator that has just one. A
``TorchDispatchMode`` sees every op by its overload (tensorlab/utils/_python_dispatch.py).

tensorlab's ops are ``autograd.Function`` classes (``Mm``, ``Add``...). ``overload_for(cls, args)`` names
the ATen overload that the op corresponds to; ``NAMES`` is the table. An op with no ATen counterpart
gets an overload in the ``tensorlab`` namespace, named after its class (``tensorlab.Gelu.default``) --
so a log never pretends.

    >>> from tensorlab._aten import aten
    >>> aten.mm.default
    <OpOverload(op='aten.mm', overload='default')>
    >>> str(aten.add.Tensor), aten.add.Tensor.name(), aten.add.Tensor.overloadpacket
    ('aten.add.Tensor', 'aten::add.Tensor', <OpOverloadPacket(op='aten.add')>)

Calling an overload runs the op: ``aten.mm.default(a, b)``. Its arguments are those of tensorlab's
Function (``Addmm.apply(bias, mat1, mat2, beta, alpha)``), which follow ATen's schema for most ops.
See course/25_the_dispatcher.
"""
from numbers import Number


class OpOverloadPacket:
    """An operator with all its overloads: ``aten.add``; ``aten.add.Tensor`` is one of them."""

    def __init__(self, namespace, name):
        self.namespace, self._qualified_op_name, self.__name__ = namespace, f"{namespace}::{name}", name
        self._overloads = {}

    def __getattr__(self, overload):
        if overload.startswith("__"):
            raise AttributeError(overload)
        op = self._overloads.get(overload)
        if op is None:
            op = self._overloads[overload] = OpOverload(self, overload)
        return op

    def overloads(self):
        return list(self._overloads)

    def __str__(self):
        return f"{self.namespace}.{self.__name__}"

    def __repr__(self):
        return f"<OpOverloadPacket(op='{self}')>"

    def __call__(self, *args, **kwargs):
        return _default_function(self)(*args, **kwargs)


class OpOverload:
    """One overload of an operator, e.g. ``aten.add.Tensor``. One object per name, so a mode can test
    ``func is aten.mm.default``. Calling it runs the op (the Function registered for this name)."""

    def __init__(self, packet, overload):
        self.overloadpacket, self._overloadname = packet, overload
        self.namespace = packet.namespace
        self.__name__ = f"{packet.__name__}.{overload}"
        self.function = None          # the tensorlab Function class that runs it (set by the table)

    def name(self):
        """``aten::add.Tensor``: the schema name (``.default`` is left out, as in PyTorch)."""
        base = self.overloadpacket._qualified_op_name
        return base if self._overloadname == "default" else f"{base}.{self._overloadname}"

    def __str__(self):
        return f"{self.overloadpacket}.{self._overloadname}"

    def __repr__(self):
        return f"<OpOverload(op='{self.overloadpacket}', overload='{self._overloadname}')>"

    def __call__(self, *args, **kwargs):
        # Called from a dispatch mode's __torch_dispatch__: run the op that the mode was handed.
        from .utils import _python_dispatch
        pending = _python_dispatch._pending
        if pending and pending[-1][0] is self:
            return pending[-1][1](args, kwargs)
        function = self.function or _find_function(str(self))
        if function is None:
            raise RuntimeError(f"{self} has no tensorlab implementation to call directly")
        return function.apply(*args, **kwargs)


class _Namespace:
    """``aten.<name>`` makes (once) and returns the OpOverloadPacket of that operator."""

    def __init__(self, name):
        self._name, self._packets = name, {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        packet = self._packets.get(name)
        if packet is None:
            packet = self._packets[name] = OpOverloadPacket(self._name, name)
        return packet


aten = _Namespace("aten")
tensorlab_ops = _Namespace("tensorlab")   # ops with no ATen counterpart


def _default_function(packet):
    """``aten.mm(a, b)``: the packet's ``default`` overload, else the first one that has a Function."""
    if "default" in packet._overloads or f"{packet.__name__}.default" in NAMES.values():
        return packet.default
    for op in packet._overloads.values():
        if op.function is not None:
            return op
    raise RuntimeError(f"{packet} has no tensorlab implementation to call directly")


def _find_function(qualified):
    """The Function class registered in ``NAMES`` for ``aten.mm.default`` (searched once, then kept)."""
    from .autograd.function import Function
    namespace, _, name = qualified.partition(".")
    wanted = [cls for cls, rule in NAMES.items() if rule == name] if namespace == "aten" else [name.split(".")[0]]
    stack = list(Function.__subclasses__())
    while stack:
        cls = stack.pop()
        if cls.__name__ in wanted and cls.__module__.startswith("tensorlab."):
            _overload(aten if namespace == "aten" else tensorlab_ops, name).function = cls
            return cls
        stack.extend(cls.__subclasses__())
    return None


def _scalar(x):
    return isinstance(x, Number)   # a Python number (a tensor is not one)


def _pow(args):
    base, exponent = args[0], args[1]
    if _scalar(base):
        return "pow.Scalar"
    return "pow.Tensor_Scalar" if _scalar(exponent) else "pow.Tensor_Tensor"


# Function class name -> "operator.overload" (or a function of the arguments that says which).
# A Python number given to + - * / is wrapped into a tensor by PyTorch's argument parser, so ``x + 1``
# logs ``aten.add.Tensor`` there too.
NAMES = {
    # elementwise arithmetic (ops/elementwise.py, ops/powmod.py)
    "Add": "add.Tensor", "Sub": "sub.Tensor", "Mul": "mul.Tensor", "Div": "div.Tensor",
    "DivRounding": "div.Tensor_mode", "Rsub": "rsub.Tensor", "RsubScalar": "rsub.Scalar",
    "Neg": "neg.default", "Reciprocal": "reciprocal.default",
    "Pow": _pow, "PowTensor": _pow, "PowScalarBase": _pow,
    "Fmod": "fmod.Tensor", "FmodScalar": "fmod.Scalar",
    "Remainder": "remainder.Tensor", "RemainderScalar": "remainder.Scalar",
    # unary (ops/unary.py, ops/rounding.py)
    "Exp": "exp.default", "Exp2": "exp2.default", "Expm1": "expm1.default", "Log": "log.default",
    "Log2": "log2.default", "Log10": "log10.default", "Log1p": "log1p.default", "Sqrt": "sqrt.default",
    "Rsqrt": "rsqrt.default", "Sin": "sin.default", "Cos": "cos.default", "Tan": "tan.default",
    "Asin": "asin.default", "Acos": "acos.default", "Atan": "atan.default", "Atan2": "atan2.default",
    "Sinh": "sinh.default", "Cosh": "cosh.default", "Tanh": "tanh.default", "Sigmoid": "sigmoid.default",
    "Erf": "erf.default", "Relu": "relu.default", "ThresholdBackward": "threshold_backward.default",
    "Abs": "abs.default", "Sign": "sign.default", "Sgn": "sgn.default", "Ceil": "ceil.default",
    "Floor": "floor.default", "Trunc": "trunc.default", "Frac": "frac.default", "Round": "round.default",
    "RoundDecimals": "round.decimals",
    # clamps and selections (ops/clamp.py, ops/masking.py)
    "Clamp": "clamp.default", "ClampMin": "clamp_min.default", "ClampMax": "clamp_max.default",
    "ClampTensor": "clamp.Tensor", "Maximum": "maximum.default", "Minimum": "minimum.default",
    "Where": "where.self", "Addcmul": "addcmul.default", "Addcdiv": "addcdiv.default",
    "Lerp": "lerp.Scalar", "LerpTensor": "lerp.Tensor",
    # reductions (ops/reduce*.py)
    "Sum": "sum.default", "SumDim": "sum.dim_IntList", "Mean": "mean.default", "MeanDim": "mean.dim",
    "Prod": "prod.default", "ProdDim": "prod.dim_int", "MaxAll": "max.default", "MinAll": "min.default",
    "MaxDim": "max.dim", "MinDim": "min.dim", "Amax": "amax.default", "Amin": "amin.default",
    "Logsumexp": "logsumexp.default", "Cumsum": "cumsum.default", "Cumprod": "cumprod.default",
    # shapes and views (ops/shape*.py, ops/index.py)
    "View": "view.default", "UnsafeView": "_unsafe_view.default", "Expand": "expand.default",
    "AsStrided": "as_strided.default", "Clone": "clone.default", "T": "t.default",
    "Transpose": "transpose.int", "Permute": "permute.default", "Unsqueeze": "unsqueeze.default",
    "Squeeze": "squeeze.default", "SqueezeDim": "squeeze.dim", "SqueezeDims": "squeeze.dims",
    "Select": "select.int", "Slice": "slice.Tensor", "SliceScatter": "slice_scatter.default",
    "SelectScatter": "select_scatter.default", "Alias": "alias.default", "Cat": "cat.default",
    "Stack": "stack.default", "Repeat": "repeat.default", "Split": "split.Tensor",
    "Unbind": "unbind.int", "Flip": "flip.default", "Roll": "roll.default", "Tril": "tril.default",
    "Triu": "triu.default", "Diagonal": "diagonal.default", "Unfold": "unfold.default",
    "Gather": "gather.default", "IndexSelect": "index_select.default", "Index": "index.Tensor",
    "MaskedFill": "masked_fill.Scalar", "MaskedFillTensor": "masked_fill.Tensor", "ToCopy": "_to_copy.default",
    # linear algebra (ops/linalg.py)
    "Mm": "mm.default", "Bmm": "bmm.default", "Mv": "mv.default", "Dot": "dot.default",
    "Addmm": "addmm.default",
    # neural-network ops (ops/nn*.py)
    "Threshold": "threshold.default", "LeakyRelu": "leaky_relu.default", "Elu": "elu.default",
    "Gelu": "gelu.default", "Silu": "silu.default", "Mish": "mish.default", "Softplus": "softplus.default",
    "Hardtanh": "hardtanh.default", "Hardsigmoid": "hardsigmoid.default", "Hardswish": "hardswish.default",
    "Softmax": "_softmax.default", "LogSoftmax": "_log_softmax.default",
    "SoftmaxBackwardData": "_softmax_backward_data.default",
    "LogSoftmaxBackwardData": "_log_softmax_backward_data.default",
    "MseLoss": "mse_loss.default", "SmoothL1Loss": "smooth_l1_loss.default", "HuberLoss": "huber_loss.default",
    "NllLoss": "nll_loss_forward.default", "NllLoss2d": "nll_loss2d_forward.default",
    "BinaryCrossEntropy": "binary_cross_entropy.default",
    "BinaryCrossEntropyWithLogits": "binary_cross_entropy_with_logits.default",
    "Embedding": "embedding.default", "EmbeddingDenseBackward": "embedding_dense_backward.default",
    "Convolution": "convolution.default", "NativeLayerNorm": "native_layer_norm.default",
    "NativeBatchNorm": "native_batch_norm.default", "NativeGroupNorm": "native_group_norm.default",
}


def _overload(namespace, qualified):
    packet, overload = qualified.split(".")
    return getattr(getattr(namespace, packet), overload)


def overload_for(cls, args=()):
    """The OpOverload that a call ``cls.apply(*args)`` corresponds to.

        >>> from tensorlab.ops.elementwise import Add
        >>> overload_for(Add, (None, 1, 1))
        <OpOverload(op='aten.add', overload='Tensor')>
    """
    rule = NAMES.get(cls.__name__) if cls.__module__.startswith("tensorlab.") else None
    if rule is None:
        op = _overload(tensorlab_ops, f"{cls.__name__}.default")
    else:
        op = _overload(aten, rule(args) if callable(rule) else rule)
    if op.function is None:
        op.function = cls
    return op
