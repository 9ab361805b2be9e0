"""Helpers for comparing tensorlab with PyTorch on the same NumPy-built inputs."""
import numpy as np

import tensorlab


def random_array(rng, dtype, shape):
    """Random values that fill ``dtype``'s range: booleans, integers from min to max, normal floats."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return rng.standard_normal(shape).astype(dtype)


def both(torch, array, requires_grad=False):
    """The same data as a tensorlab tensor and a torch tensor (each with its own copy)."""
    array = np.asarray(array)
    a = tensorlab.tensor(array.copy(), requires_grad=requires_grad)
    b = torch.tensor(array.copy(), requires_grad=requires_grad)
    return a, b


def assert_same(ours, theirs, rtol=1e-5, atol=1e-6, check_strides=False):
    """Values, shape and dtype (and strides if asked) of a tensorlab tensor equal torch's."""
    assert tuple(ours.shape) == tuple(theirs.shape), (ours.shape, theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    if check_strides:
        assert ours.stride() == theirs.stride(), (ours.stride(), theirs.stride())
    np.testing.assert_allclose(ours.detach().numpy().astype(np.float64) if ours.dtype.is_floating_point
                               else ours.detach().numpy(),
                               theirs.detach().numpy().astype(np.float64) if theirs.dtype.is_floating_point
                               else theirs.detach().numpy(), rtol=rtol, atol=atol)


def grad_fn_name(t):
    return None if t.grad_fn is None else t.grad_fn.name()
