"""A 0-dim CPU tensor may join an op on a GPU tensor (lesson 22); its gradient must come back on
the CPU, where it lives, as PyTorch's engine does: a 0-dim gradient on another device than its
input is moved there, any other is refused ("invalid gradient at index i - expected device ...").

No GPU is needed: a stand-in "cuda" backend that keeps its arrays in NumPy lets tensors report
``cuda:0`` while everything runs on the CPU. PyTorch's side is checked on its ``meta`` device, the
one non-CPU device a CPU-only build has.
"""
import types

import pytest

import tensorlab
import tensorlab.backend as backend
from tensorlab.backend import numpy_backend


@pytest.fixture
def fake_cuda(monkeypatch):
    fake = types.ModuleType("stand_in_cuda_backend")
    fake.__dict__.update({k: v for k, v in vars(numpy_backend).items() if not k.startswith("__")})
    fake.name, fake.is_available = "stand-in", (lambda: True)
    monkeypatch.setattr(backend, "_cuda", fake)
    return tensorlab.device("cuda:0")


@pytest.mark.parametrize("order", ["scalar first", "scalar second"])
def test_a_cpu_scalar_used_with_a_cuda_tensor_gets_its_gradient_on_the_cpu(fake_cuda, order):
    scalar = tensorlab.tensor(2.0, requires_grad=True)
    on_gpu = tensorlab.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
    product = scalar * on_gpu if order == "scalar first" else on_gpu * scalar
    assert product.device == fake_cuda
    product.sum().backward()
    assert scalar.grad.device.type == "cpu" and scalar.grad.item() == 6.0
    assert on_gpu.grad.device == fake_cuda and on_gpu.grad.tolist() == [2.0, 2.0, 2.0]
    (grad,) = tensorlab.autograd.grad((on_gpu + scalar).sum(), scalar)
    assert grad.device.type == "cpu" and grad.item() == 3.0


def test_a_gradient_on_the_wrong_device_is_refused_unless_0_dim(fake_cuda, torch):
    """tensorlab's error is PyTorch's, whose message is checked on PyTorch's meta device."""
    def wrong_device(lib, device, shape):
        class Wrong(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return lib.ones(shape, device=device)
        x = lib.ones(3, requires_grad=True) if shape else lib.tensor(1.0, requires_grad=True)
        Wrong.apply(x).sum().backward()
        return x

    with pytest.raises(RuntimeError) as ours:
        wrong_device(tensorlab, "cuda", (3,))
    with pytest.raises(RuntimeError) as theirs:
        wrong_device(torch, "meta", (3,))
    assert "WrongBackward returned an invalid gradient at index 0 - expected device cpu but got" in str(ours.value)
    assert str(theirs.value).replace("meta", "cuda:0") == str(ours.value)
    # a 0-dim one is moved to the input's device: tensorlab moves it; PyTorch tries to (a meta
    # tensor holds no data, so its copy fails -- proof that it is attempted)
    assert wrong_device(tensorlab, "cuda", ()).grad.device.type == "cpu"
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
        wrong_device(torch, "meta", ())
