"""Helpers for the math-op tests (elementwise, reductions, linear algebra, promotion): run the same
call on tensorlab and on PyTorch with the same NumPy-built inputs, and check that both give the
same result (values, shape, dtype, grad_fn name) or the same error (type and message)."""
import numpy as np
import pytest

import tensorlab
from tests.oracle import grad_fn_name

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def lib_tensor(lib, value, requires_grad=False):
    """``value`` (a NumPy array, or a Python scalar left alone) as a tensor of ``lib``."""
    if not isinstance(value, np.ndarray):
        return value
    t = lib.tensor(value.copy())
    return t.requires_grad_() if requires_grad else t


def _run(lib, fn, args, kwargs, requires_grad):
    inputs = [lib_tensor(lib, a, requires_grad and isinstance(a, np.ndarray) and a.dtype.kind == "f")
              for a in args]
    return fn(lib, *inputs, **kwargs)


def outcome(torch, fn, *args, requires_grad=False, **kwargs):
    """``(ours, theirs)`` for ``fn(lib, *tensors)``; if torch raises, ours must raise the same way."""
    try:
        theirs = _run(torch, fn, args, kwargs, requires_grad)
    except Exception as error:  # noqa: BLE001 - whatever torch raises, we must raise too
        with pytest.raises(type(error)) as ours:
            _run(tensorlab, fn, args, kwargs, requires_grad)
        key = str(error).split("\n")[0][:70]
        assert key in str(ours.value), (str(ours.value), str(error))
        return None, None
    return _run(tensorlab, fn, args, kwargs, requires_grad), theirs


def assert_close(ours, theirs, rtol=1e-5, atol=1e-6, check_grad_fn=True):
    """Tensors (or tuples of them, or Python numbers) agree in values, shape, dtype and grad_fn name."""
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        assert type(ours).__name__ == type(theirs).__name__
        for o, t in zip(ours, theirs):
            assert_close(o, t, rtol, atol, check_grad_fn)
        return
    if not hasattr(theirs, "shape"):
        assert type(ours) is type(theirs) and (ours == theirs or (ours != ours and theirs != theirs))
        return
    assert isinstance(ours, tensorlab.Tensor), type(ours)
    assert tuple(ours.shape) == tuple(theirs.shape), (ours.shape, theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    a, b = ours.detach().numpy(), theirs.detach().numpy()
    if a.dtype.kind == "f":
        if a.dtype == np.float16:
            rtol, atol = max(rtol, 2e-3), max(atol, 1e-3)
        np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(a, b)
    if check_grad_fn:
        expected = None if theirs.grad_fn is None else theirs.grad_fn.name()
        assert grad_fn_name(ours) == expected, (grad_fn_name(ours), expected)


def same(torch, fn, *args, rtol=1e-5, atol=1e-6, requires_grad=False, **kwargs):
    """``fn(lib, *args)`` agrees between tensorlab and torch (result or error). Returns both results."""
    ours, theirs = outcome(torch, fn, *args, requires_grad=requires_grad, **kwargs)
    if theirs is not None:
        assert_close(ours, theirs, rtol, atol)
    return ours, theirs


def same_grads(torch, fn, *arrays, grad_out=None, rtol=1e-5, atol=1e-6):
    """The gradients of ``fn(lib, *leaves)`` (float arrays become leaves) agree with torch's."""
    results = []
    for lib in (tensorlab, torch):
        leaves = [lib_tensor(lib, a, isinstance(a, np.ndarray) and a.dtype.kind == "f") for a in arrays]
        out = fn(lib, *leaves)
        out = out[0] if isinstance(out, tuple) else out
        g = np.ones(tuple(out.shape)) if grad_out is None else grad_out
        out.backward(lib.tensor(g.astype(str(out.dtype).split(".")[1])))
        results.append([x.grad for x in leaves if isinstance(x, lib.Tensor) and x.requires_grad])
    for ours, theirs in zip(*results):
        if theirs is not None and theirs._is_zerotensor():  # PyTorch's lazy all-zeros gradient
            theirs = theirs.new_zeros(theirs.shape)
        if theirs is None:
            assert ours is None or not ours.detach().numpy().any()
        else:
            assert_close(ours, theirs, rtol, atol, check_grad_fn=False)


def sample(dtype, shape, rng, low=-3.0, high=3.0):
    """An array of ``dtype`` with values in [low, high] (0/1 for bool; non-negative for uint8)."""
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype == "uint8":
        return rng.integers(0, max(int(high), 1) + 1, shape).astype(np.uint8)
    if np.dtype(dtype).kind == "i":
        return rng.integers(int(np.floor(low)), int(np.ceil(high)) + 1, shape).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def leaf(array):
    """A float64 tensorlab leaf that requires grad (for gradcheck)."""
    return tensorlab.tensor(np.asarray(array, dtype=np.float64), requires_grad=True)
