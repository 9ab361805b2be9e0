"""tensorlab: PyTorch's core, re-written on NumPy to be read.

``import tensorlab as torch`` runs tutorial code; then open the file behind any behaviour:
tensors and strides (tensor.py, _layout.py), ops (ops/), autograd (autograd/), layers (nn/).
"""
from . import _dtype
from ._dtype import (bool, double, dtype, float, float16, float32, float64, get_default_dtype, half,  # noqa: A004
                     int, int8, int16, int32, int64, long, promote_types, result_type, set_default_dtype,
                     short, uint8)
from ._dtype import cdouble, cfloat, complex64, complex128  # noqa: F401 - complex dtypes (ops/complex.py)
from ._device import device
from .tensor import Size, Tensor
from . import autograd
from .autograd import (enable_grad, inference_mode, is_anomaly_enabled, is_grad_enabled,
                       is_inference_mode_enabled, no_grad, set_grad_enabled)
from .ops import *  # noqa: F401,F403 - every op, defined once in tensorlab/ops/
from .ops import __all__ as _ops_all
from ._tensor_types import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor,  # noqa: F401
                            IntTensor, LongTensor, ShortTensor, set_default_tensor_type, tensortype, typename)
from . import cuda

__version__ = "0.1.0"

# PyTorch's constants: plain Python floats (``torch.pi * 2`` is a float), and ``newaxis`` is None
import math as _math

pi, e, inf, nan, newaxis = _math.pi, _math.e, _math.inf, _math.nan, None
del _math

# PyTorch's core classes print as ``<class 'torch.Tensor'>``, ``torch.Size``, ``torch.dtype``...: the
# name they are used by, not the file that defines them. Ours print as ``tensorlab.Tensor`` and so on.
for _cls in (Tensor, Size, dtype, device, finfo, iinfo, Generator, tensortype):  # noqa: F405 - from ops
    _cls.__module__ = __name__
del _cls


def is_tensor(obj):
    return isinstance(obj, Tensor)


def _assert(condition, message):
    """``assert condition, message`` that tensorlab.fx can trace: a Proxy condition becomes a node."""
    if type(condition) is not Tensor:
        from .overrides import handle_torch_function, has_torch_function
        if has_torch_function((condition,)):
            return handle_torch_function(_assert, (condition,), condition, message)
    assert condition, message


def numel(input):
    return input.numel()


def __getattr__(name):
    """Submodules that are imported on first use, so ``import tensorlab`` stays fast."""
    import importlib
    if name in ("nn", "optim", "utils", "vision", "serialization", "testing", "random", "linalg", "backends",
                "accelerator", "distributions", "functional", "fft", "fx", "overrides", "_C", "func"):
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            # not written yet: absent, so ``hasattr(tensorlab, name)`` is False rather than an error
            raise AttributeError(f"module 'tensorlab' has no attribute '{name}'") from None
    if name in ("save", "load"):
        return getattr(importlib.import_module(".serialization", __name__), name)
    if name in ("cosine_similarity", "pairwise_distance"):  # (defined with nn.functional, which imports ops)
        return getattr(importlib.import_module(".nn.functional", __name__), name)
    if name in ("get_float32_matmul_precision", "set_float32_matmul_precision"):
        return getattr(importlib.import_module(".backends", __name__), name)
    raise AttributeError(f"module 'tensorlab' has no attribute '{name}'")
