"""Tensors plot directly with matplotlib (through ``Tensor.__array__``), as PyTorch tensors do;
a tensor that requires grad refuses, with PyTorch's message."""
import numpy as np
import pytest

import tensorlab

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is not installed")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture
def figure():
    fig = plt.figure()
    yield fig
    plt.close(fig)


def test_plot_a_tensor(figure):
    t = tensorlab.linspace(0, 1, 5) ** 2
    (line,) = plt.plot(t)
    np.testing.assert_allclose(line.get_ydata(), t.numpy())
    np.testing.assert_array_equal(line.get_xdata(), np.arange(5))
    (xy,) = plt.plot(tensorlab.arange(3), tensorlab.tensor([1.0, 0.0, 2.0]))
    np.testing.assert_array_equal(xy.get_ydata(), [1.0, 0.0, 2.0])


def test_imshow_a_tensor_image(figure):
    image = tensorlab.rand(8, 8)
    shown = plt.imshow(image)
    np.testing.assert_array_equal(shown.get_array(), image.numpy())
    rgb = tensorlab.rand(3, 4, 5).permute(1, 2, 0)          # HWC view of a CHW tensor
    np.testing.assert_array_equal(plt.imshow(rgb).get_array(), rgb.numpy())


def test_a_tensor_that_requires_grad_refuses_with_pytorchs_message(figure):
    w = tensorlab.linspace(0, 1, 5).requires_grad_()
    message = r"Can't call numpy\(\) on Tensor that requires grad. Use tensor.detach\(\).numpy\(\) instead."
    with pytest.raises(RuntimeError, match=message):
        plt.plot(w)
    with pytest.raises(RuntimeError, match=message):
        plt.imshow(tensorlab.rand(4, 4, requires_grad=True))
    (line,) = plt.plot(w.detach())                          # the fix the message suggests
    np.testing.assert_allclose(line.get_ydata(), w.detach().numpy())


def test_torch_refuses_the_same_way(torch, figure):
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        plt.plot(torch.zeros(3, requires_grad=True))
