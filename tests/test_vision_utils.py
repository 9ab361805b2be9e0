"""vision.utils: make_grid's layout (torchvision's) and save_image's PNG."""
import math

import numpy as np
import pytest

import tensorlab
from tensorlab.vision.utils import make_grid, save_image


def _batch(rng, n, c=3, h=4, w=5):
    return rng.random((n, c, h, w)).astype(np.float32)


def _expected_grid(batch, nrow, padding, pad_value):
    """The documented layout, written out: cols = min(nrow, B), rows = ceil(B / cols), p-pixel gutters."""
    n, c, h, w = batch.shape
    cols = min(nrow, n)
    rows = math.ceil(n / cols)
    grid = np.full((c, rows * (h + padding) + padding, cols * (w + padding) + padding), pad_value, np.float32)
    for k in range(n):
        top, left = padding + (k // cols) * (h + padding), padding + (k % cols) * (w + padding)
        grid[:, top:top + h, left:left + w] = batch[k]
    return grid


@pytest.mark.parametrize("n,nrow,padding,pad_value", [(5, 2, 1, 0.0), (8, 8, 2, 0.5), (3, 8, 0, 1.0),
                                                      (7, 3, 3, 0.25)])
def test_make_grid_layout(rng, n, nrow, padding, pad_value):
    batch = _batch(rng, n)
    grid = make_grid(tensorlab.from_numpy(batch.copy()), nrow=nrow, padding=padding, pad_value=pad_value)
    assert grid.dtype == tensorlab.float32
    np.testing.assert_array_equal(grid.numpy(), _expected_grid(batch, nrow, padding, pad_value))


def test_make_grid_shape_formula_example():
    # 10 MNIST-sized images, 4 per row, padding 2: 3 rows -> 3*30+2 = 92 high, 4*30+2 = 122 wide
    assert make_grid(tensorlab.zeros(10, 1, 28, 28), nrow=4).shape == (3, 92, 122)


def test_make_grid_repeats_a_single_channel_into_three(rng):
    batch = _batch(rng, 4, c=1)
    grid = make_grid(tensorlab.from_numpy(batch.copy()), nrow=2).numpy()
    assert grid.shape[0] == 3
    np.testing.assert_array_equal(grid[0], grid[2])
    np.testing.assert_array_equal(grid, _expected_grid(np.repeat(batch, 3, axis=1), 2, 2, 0.0))


def test_make_grid_single_image_and_list_input(rng):
    one = rng.random((1, 4, 5)).astype(np.float32)
    out = make_grid(tensorlab.from_numpy(one.copy()))
    np.testing.assert_array_equal(out.numpy(), np.repeat(one, 3, axis=0))      # no padding for one image
    assert make_grid(tensorlab.zeros(4, 5)).shape == (3, 4, 5)
    batch = _batch(rng, 3)
    from_list = make_grid([tensorlab.from_numpy(b.copy()) for b in batch], nrow=2)
    np.testing.assert_array_equal(from_list.numpy(), _expected_grid(batch, 2, 2, 0.0))


def test_make_grid_normalize_with_and_without_range(rng):
    batch = rng.random((2, 3, 4, 4)).astype(np.float32) * 10 - 3
    x = tensorlab.from_numpy(batch.copy())
    whole = make_grid(x, normalize=True, padding=0).numpy()
    low, high = batch.min(), batch.max()
    np.testing.assert_allclose(whole, _expected_grid((batch - low) / (high - low), 8, 0, 0.0), rtol=1e-5)
    ranged = make_grid(x, normalize=True, value_range=(0.0, 4.0), padding=0).numpy()
    np.testing.assert_allclose(ranged, _expected_grid(np.clip(batch, 0, 4) / 4, 8, 0, 0.0), rtol=1e-6)
    each = make_grid(x, normalize=True, scale_each=True, padding=0).numpy()
    per_image = np.stack([(b - b.min()) / (b.max() - b.min()) for b in batch])
    np.testing.assert_allclose(each, _expected_grid(per_image, 8, 0, 0.0), rtol=1e-5)
    np.testing.assert_array_equal(x.numpy(), batch)                 # the input is left alone


def test_make_grid_errors():
    with pytest.raises(TypeError, match="tensor or list of tensors expected"):
        make_grid(np.zeros((2, 3, 4, 4)))
    with pytest.raises(TypeError, match="value_range has to be a tuple"):
        make_grid(tensorlab.zeros(2, 3, 4, 4), normalize=True, value_range=[0, 1])
    with pytest.raises(ValueError, match="got 5 dimensions"):
        make_grid(tensorlab.zeros(1, 2, 3, 4, 4))
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        make_grid([tensorlab.zeros(3, 4, 4), tensorlab.zeros(3, 5, 4)])


def test_save_image_writes_the_grid_as_png(tmp_path, rng):
    Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    batch = _batch(rng, 5)
    path = tmp_path / "grid.png"
    save_image(tensorlab.from_numpy(batch.copy()), path, nrow=3, padding=1)
    with Image.open(path) as image:
        assert image.format == "PNG" and image.mode == "RGB"
        pixels = np.array(image)
    expected = _expected_grid(batch, 3, 1, 0.0)
    np.testing.assert_array_equal(pixels, np.clip(expected * 255 + 0.5, 0, 255).astype(np.uint8).transpose(1, 2, 0))


def test_save_image_to_a_file_object_with_format(tmp_path):
    Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    import io
    buffer = io.BytesIO()
    save_image(tensorlab.ones(3, 2, 2), buffer, format="PNG")
    buffer.seek(0)
    assert np.array(Image.open(buffer)).tolist() == [[[255, 255, 255]] * 2] * 2


def test_make_grid_matches_torchvision(torch, rng):
    tvu = pytest.importorskip("torchvision.utils", reason="torchvision is not installed")
    batch = rng.random((7, 1, 6, 5)).astype(np.float32) * 3
    for kwargs in ({"nrow": 3}, {"nrow": 2, "padding": 0, "pad_value": 1.0}, {"normalize": True},
                   {"normalize": True, "value_range": (0.5, 2.0), "scale_each": True}):
        ours = make_grid(tensorlab.from_numpy(batch.copy()), **kwargs).numpy()
        theirs = tvu.make_grid(torch.from_numpy(batch.copy()), **kwargs).numpy()
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)
