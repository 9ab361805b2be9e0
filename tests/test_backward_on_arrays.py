"""The backward of tanh, sin, cos, sigmoid and relu computes on the arrays when nothing records or
watches (ops/unary.py, ``_arrays_for_backward``). It must give the tensor ops' result to the last bit:
``create_graph=True`` runs those tensor ops, so the two answers are compared bit for bit, and with
PyTorch's where it is installed."""
import numpy as np
import pytest

import tensorlab

try:
    import torch
except ImportError:  # the bit-for-bit comparison still runs
    torch = None

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")

OPS = ["tanh", "sin", "cos", "sigmoid", "relu"]


def _grad(name, x, g, create_graph):
    leaf = tensorlab.from_numpy(x.copy()).requires_grad_()
    out = getattr(tensorlab, name)(leaf)
    gx, = tensorlab.autograd.grad(out, leaf, tensorlab.from_numpy(g.copy()), create_graph=create_graph)
    return gx.detach().numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", OPS)
def test_same_bits_as_the_tensor_ops(name, dtype):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((6, 5)) * 3).astype(dtype)
    x[0, 0] = 0.0  # relu's boundary
    g = rng.standard_normal((6, 5)).astype(dtype)
    on_arrays, with_ops = _grad(name, x, g, False), _grad(name, x, g, True)
    assert on_arrays.dtype == with_ops.dtype == dtype
    assert np.array_equal(on_arrays.view(np.uint8), with_ops.view(np.uint8))
    if torch is not None:
        px = torch.from_numpy(x.copy()).requires_grad_()
        expected, = torch.autograd.grad(getattr(torch, name)(px), px, torch.from_numpy(g.copy()))
        np.testing.assert_allclose(on_arrays, expected.numpy(), rtol=1e-6 if dtype == np.float32 else 1e-12,
                                   atol=1e-6 if dtype == np.float32 else 1e-12)


def test_relu_passes_inf_and_nan_only_where_the_output_is_positive():
    x = np.array([1.0, -1.0, 2.0, -2.0], np.float32)
    g = np.array([np.inf, np.inf, np.nan, np.nan], np.float32)
    on_arrays = _grad("relu", x, g, False)
    np.testing.assert_array_equal(on_arrays, np.array([np.inf, 0.0, np.nan, 0.0], np.float32))
    assert np.array_equal(on_arrays.view(np.uint8), _grad("relu", x, g, True).view(np.uint8))


def test_a_modified_saved_tensor_still_raises():
    leaf = tensorlab.ones(3, requires_grad=True)
    out = leaf.tanh()
    total = out.sum()
    with tensorlab.no_grad():
        out.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        total.backward()
