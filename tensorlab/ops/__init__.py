"""Every tensor operation, once. Each family's module attaches its methods to Tensor and lists its
public functions in ``__all__``; this package re-exports them as ``tensorlab.<name>`` -- wrapped to take
NumPy's ``axis=``/``keepdims=`` (ops/numpy_names.py) and ``out=`` (ops/out.py, ops/out_others.py; Tensor
methods take no ``out=``, as in PyTorch) where PyTorch's do."""
import importlib

from .. import tensor as _t
from .out import DIFFERENTIABLE, NOT_DIFFERENTIABLE, with_out

# one module per family of ops; each lists its public names in __all__
FAMILIES = ["creation", "convert", "elementwise", "powmod", "unary", "rounding", "compare", "clamp", "reduce", "reduce_stats", "reduce_select", "scan", "histogram", "linalg", "linalg_inverse", "linalg_decomp", "einsum", "shape", "broadcasting", "shape_inplace", "index", "advanced_index",
            "copying", "rearrange", "gather_scatter", "scatter_reduce", "index_slices", "masking", "sorting", "nn", "nn_activation", "nn_conv", "nn_pool", "nn_norm", "nn_loss", "nn_pad", "complex"]

__all__ = []
for _family in FAMILIES:
    _module = importlib.import_module(f".{_family}", __name__)
    for _name in getattr(_module, "__all__", ()):
        # a function attached under several names (transpose/swapaxes) may live only on Tensor
        globals()[_name] = getattr(_module, _name, None) or getattr(_t.Tensor, _name)
        __all__.append(_name)


# NumPy's ``axis=``/``keepdims=`` wherever PyTorch's C++ argument parser takes them (ops/numpy_names.py)
from . import numpy_names as _numpy_names  # noqa: E402

for _name in __all__:
    _fn = globals()[_name]
    if _name not in _numpy_names.WRITTEN_IN_PYTHON and callable(_fn) and _numpy_names.takes_dim(_fn):
        globals()[_name] = _numpy_names.accept_numpy_names(_fn)
for _name, _fn in list(vars(_t.Tensor).items()):
    if (_name not in _numpy_names.METHODS_WRITTEN_IN_PYTHON and callable(_fn) and not isinstance(_fn, type)
            and _numpy_names.takes_dim(_fn)):
        setattr(_t.Tensor, _name, _numpy_names.accept_numpy_names(_fn))

# ``out=`` on the tensorlab.* functions that take it in PyTorch: pointwise (ops/out.py), others (ops/out_others.py)
from . import out_others as _out_others  # noqa: E402

for _name in [*DIFFERENTIABLE, *NOT_DIFFERENTIABLE]:
    globals()[_name] = with_out(globals()[_name], _name)
for _name in _out_others.RULES:
    globals()[_name] = _out_others.with_out(globals()[_name], _name)
