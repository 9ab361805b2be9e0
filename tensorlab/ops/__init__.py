"""Every tensor operation, once. Each family's module attaches its methods to Tensor and lists its
public functions in ``__all__``; this package re-exports them as ``tensorlab.<name>``."""
from . import creation, elementwise, reduce, shape, index, linalg, convert  # noqa: F401
from . import inplace  # noqa: F401
from .. import tensor as _t

_EXPORTS = {
    creation: ["tensor", "as_tensor", "asarray", "from_numpy", "from_dlpack", "zeros", "ones", "empty", "full",
               "empty_strided", "zeros_like", "ones_like", "empty_like", "full_like", "arange", "range",
               "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm", "rand_like",
               "randn_like", "randint_like", "normal", "bernoulli", "multinomial", "manual_seed", "seed",
               "initial_seed", "get_rng_state", "set_rng_state", "Generator", "default_generator"],
    elementwise: ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide",
                  "neg", "negative", "pow", "exp", "log"],
    reduce: ["sum", "mean"],
    shape: ["reshape", "transpose", "swapaxes", "swapdims", "t", "permute", "unsqueeze", "squeeze",
            "clone", "detach", "flatten", "ravel", "as_strided"],
    index: ["select", "slice_scatter", "select_scatter"],
    linalg: ["mm"],
}

__all__ = []
for _module, _names in _EXPORTS.items():
    for _name in _names:
        # a function attached under several names (transpose/swapaxes) is found on Tensor
        globals()[_name] = getattr(_module, _name, None) or getattr(_t.Tensor, _name)
        __all__.append(_name)
