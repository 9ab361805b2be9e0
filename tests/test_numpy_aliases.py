"""NumPy's ``axis=``/``keepdims=`` (ops/numpy_names.py): accepted exactly where PyTorch's C++ argument parser
accepts them -- every built-in function and method with a ``dim``/``keepdim`` -- and refused, with Python's
TypeError, by the functions PyTorch writes in Python (split, unique, norm, Tensor.unflatten, F.softmax)."""
import types

import numpy as np
import pytest

import tensorlab
from tensorlab.ops import numpy_names

CALLS = [
    "x.sum(axis=0)", "x.sum(axis=1, keepdims=True)", "x.sum(axis=(0, 1))", "x.mean(axis=[0])", "x.mean(axis=0)",
    "lib.sum(x, axis=1, keepdims=True)", "lib.mean(x, 1, keepdims=True)", "x.cumsum(axis=0)", "x.cumprod(axis=1)",
    "x.argmax(axis=1)", "x.argmin(axis=0, keepdims=True)", "x.max(axis=0)", "x.max(axis=1, keepdims=True)",
    "lib.max(x, axis=0)", "x.min(axis=1)", "x.amax(axis=0)", "x.std(axis=0, keepdims=True)", "x.var(axis=0)",
    "x.prod(axis=0)", "x.logsumexp(axis=0)", "x.all(axis=0)", "x.any(axis=1)", "lib.count_nonzero(x, axis=0)",
    "x.median(axis=0)", "x.topk(1, axis=0)", "x.sort(axis=0)", "x.argsort(axis=0)", "x.softmax(axis=1)",
    "lib.softmax(x, axis=1)", "x.log_softmax(axis=0)", "lib.cat([x, x], axis=1)", "lib.stack([x, x], axis=1)",
    "lib.concat([x, x], axis=0)", "x.unsqueeze(axis=0)", "x[None].squeeze(axis=0)", "x.size(axis=0)",
    "x.stride(axis=1)", "x.chunk(2, axis=0)", "x.narrow(axis=0, start=0, length=1)", "x.select(axis=0, index=0)",
    "lib.unbind(x, axis=0)", "lib.tensor_split(x, 2, axis=1)", "x.index_select(axis=0, index=lib.tensor([0]))",
    "lib.gather(x, axis=1, index=lib.zeros(2, 1, dtype=lib.long))", "lib.unflatten(x, axis=1, sizes=(3, 1))",
    "x.repeat_interleave(2, axis=0)", "x.kthvalue(1, axis=0)", "x.mode(axis=0)",
    # PyTorch's refusals
    "x.split(1, axis=0)", "x.unique(axis=0)", "lib.norm(x, axis=0)", "x.unflatten(axis=1, sizes=(3, 1))",
    "lib.nn.functional.softmax(x, axis=1)", "lib.nn.functional.log_softmax(x, axis=1)",
    "x.sum(axis=0, dim=0)", "x.sum(0, axis=0)", "lib.sum(x, dim=0, keepdim=True, keepdims=False)",
    "x.flip(axis=0)", "lib.flatten(x, start_axis=0)",
]


def _outcome(lib, call):
    import importlib
    importlib.import_module(lib.__name__ + ".nn.functional")
    x = lib.tensor(np.arange(6.0).reshape(2, 3))
    try:
        result = eval(call, {"lib": lib, "x": x})
    except TypeError:
        return "TypeError"
    return repr(result).replace("torch.return_types.", "").replace("tensorlab.return_types.", "")


@pytest.mark.parametrize("call", CALLS)
def test_numpy_names_accepted_and_refused_as_pytorch(torch, call):
    assert _outcome(tensorlab, call) == _outcome(torch, call)


def test_the_python_written_exceptions_are_pytorchs(torch):
    """The rule behind the lists: a function with ``dim`` that PyTorch writes in Python takes no NumPy names.
    Every tensorlab op and method with a ``dim`` is sorted by what PyTorch's counterpart is."""
    def python_written(obj):
        return isinstance(obj, (types.FunctionType, types.MethodType))
    for ours, theirs, listed in ((tensorlab, torch, numpy_names.WRITTEN_IN_PYTHON),
                                 (tensorlab.Tensor, torch.Tensor, numpy_names.METHODS_WRITTEN_IN_PYTHON)):
        takes = {n for n in dir(ours) if not n.startswith("_") and callable(getattr(ours, n))
                 and numpy_names.takes_dim(getattr(ours, n)) and hasattr(theirs, n)}
        assert {n for n in takes if python_written(getattr(theirs, n))} <= listed
        assert listed <= {n for n in dir(theirs) if python_written(getattr(theirs, n, None))}


def test_wrapped_ops_keep_their_names_and_signatures():
    import inspect
    assert tensorlab.sum.__name__ == "sum" and "dim" in inspect.signature(tensorlab.Tensor.sum).parameters
