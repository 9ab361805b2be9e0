"""vision.transforms: conversions, Normalize, Resize (vs torch's interpolate), crops, flips, rotations.

torchvision is the reference where installed (TestAgainstTorchvision); otherwise the documented
formulas, NumPy, and PyTorch's ``interpolate`` (what torchvision's tensor Resize calls) are.
"""
import numpy as np
import pytest

import tensorlab
from tensorlab.vision import transforms as T
from tensorlab.vision.transforms import InterpolationMode
from tensorlab.vision.transforms import functional as F

Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")


def _tensor(array):
    return tensorlab.from_numpy(np.ascontiguousarray(array))


@pytest.fixture
def chw(rng):
    return rng.random((3, 7, 9)).astype(np.float32)


# -- ToTensor / ToPILImage ---------------------------------------------------------------------------


def test_to_tensor_uint8_hwc_becomes_chw_floats_over_255(rng):
    hwc = rng.integers(0, 256, (4, 5, 3)).astype(np.uint8)
    out = T.ToTensor()(hwc)
    assert out.shape == (3, 4, 5) and out.dtype == tensorlab.float32 and out.is_contiguous()
    np.testing.assert_allclose(out.numpy(), hwc.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    assert T.ToTensor()(hwc[:, :, 0]).shape == (1, 4, 5)


def test_to_tensor_reads_pil_images_of_each_mode(rng):
    rgb = rng.integers(0, 256, (4, 5, 3)).astype(np.uint8)
    np.testing.assert_allclose(T.ToTensor()(Image.fromarray(rgb)).numpy(), rgb.transpose(2, 0, 1) / 255.0,
                               rtol=1e-6)
    grey = Image.fromarray(rgb[:, :, 0])
    assert T.ToTensor()(grey).shape == (1, 4, 5)
    binary = Image.fromarray(rgb[:, :, 0] > 128).convert("1")
    np.testing.assert_array_equal(T.ToTensor()(binary).numpy()[0], (rgb[:, :, 0] > 128).astype(np.float32))


def test_to_tensor_keeps_non_uint8_values():
    floats = np.full((2, 2, 1), 7.5)
    out = T.ToTensor()(floats)
    assert out.dtype == tensorlab.float64 and float(out.numpy().max()) == 7.5


def test_to_tensor_errors():
    with pytest.raises(TypeError, match="pic should be PIL Image or ndarray.*already a tensor"):
        T.ToTensor()(tensorlab.zeros(1, 2, 2))
    with pytest.raises(ValueError, match="pic should be 2/3 dimensional. Got 4 dimensions."):
        T.ToTensor()(np.zeros((1, 2, 2, 1), np.uint8))


def test_to_pil_image_round_trips_uint8_and_truncates_floats(rng):
    rgb = rng.integers(0, 256, (4, 5, 3)).astype(np.uint8)
    image = T.ToPILImage()(T.ToTensor()(rgb))
    assert image.mode == "RGB"
    np.testing.assert_array_equal(np.array(image), rgb)
    grey = T.ToPILImage()(tensorlab.tensor([[[0.999, 0.5]]]))
    assert grey.mode == "L" and np.array(grey).tolist() == [[254, 127]]        # int(255 * v)
    assert T.ToPILImage()(rng.integers(0, 256, (3, 3, 4)).astype(np.uint8)).mode == "RGBA"
    with pytest.raises(ValueError, match="1, 3 or 4 channels"):
        T.ToPILImage()(tensorlab.zeros(2, 3, 3))


# -- Normalize ---------------------------------------------------------------------------------------


def test_normalize_is_the_per_channel_formula(chw):
    mean, std = (0.1, 0.2, 0.3), (0.5, 1.0, 2.0)
    x = _tensor(chw.copy())
    out = T.Normalize(mean, std)(x)
    expected = (chw - np.array(mean, np.float32)[:, None, None]) / np.array(std, np.float32)[:, None, None]
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(x.numpy(), chw)                   # not in place by default
    batch = T.Normalize(mean, std)(_tensor(np.stack([chw, chw])))    # (..., C, H, W)
    np.testing.assert_allclose(batch.numpy()[1], expected, rtol=1e-6)


def test_normalize_matches_torch(torch, chw):
    ours = T.Normalize((0.4, 0.5, 0.6), (0.2, 0.3, 0.4))(_tensor(chw.copy())).numpy()
    x = torch.from_numpy(chw.copy())
    ref = ((x - torch.tensor([0.4, 0.5, 0.6]).view(-1, 1, 1)) / torch.tensor([0.2, 0.3, 0.4]).view(-1, 1, 1))
    np.testing.assert_allclose(ours, ref.numpy(), rtol=1e-6)


def test_normalize_inplace_overwrites_and_returns_the_input(chw):
    x = _tensor(chw.copy())
    out = T.Normalize((0.5,), (0.5,), inplace=True)(x)
    assert out is x
    np.testing.assert_allclose(x.numpy(), (chw - 0.5) / 0.5, rtol=1e-6)


def test_normalize_errors_change_nothing(chw):
    x = _tensor(chw.copy())
    with pytest.raises(ValueError, match="std evaluated to zero after conversion to torch.float32"):
        T.Normalize((0.5,), (0.0,), inplace=True)(x)
    np.testing.assert_array_equal(x.numpy(), chw)
    with pytest.raises(TypeError, match="Input tensor should be a float tensor. Got torch.uint8."):
        T.Normalize((0.5,), (0.5,))(tensorlab.zeros(1, 2, 2, dtype=tensorlab.uint8))
    with pytest.raises(ValueError, match=r"Expected tensor to be a tensor image of size \(..., C, H, W\)"):
        T.Normalize((0.5,), (0.5,))(tensorlab.zeros(2, 2))
    with pytest.raises(TypeError, match="img should be Tensor Image"):
        T.Normalize((0.5,), (0.5,))(chw)
    assert repr(T.Normalize((0.5,), (0.25,))) == "Normalize(mean=(0.5,), std=(0.25,))"


# -- Resize ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(5, 7), (20, 30), (7, 9), (3, 25), (1, 1)])
@pytest.mark.parametrize("mode,antialias", [("bilinear", True), ("bilinear", False), ("nearest", True),
                                            ("nearest-exact", True)])
def test_resize_matches_torch_interpolate(torch, rng, size, mode, antialias):
    x = rng.random((2, 3, 7, 9)).astype(np.float32)
    ours = T.Resize(size, interpolation=mode, antialias=antialias)(_tensor(x.copy()))
    kwargs = {"align_corners": False, "antialias": antialias} if mode == "bilinear" else {}
    ref = torch.nn.functional.interpolate(torch.from_numpy(x), size=size, mode=mode, **kwargs)
    assert ours.shape == tuple(ref.shape) and ours.dtype == tensorlab.float32
    np.testing.assert_allclose(ours.numpy(), ref.numpy(), atol=2e-6)


def test_resize_bilinear_weights_follow_the_documented_formula():
    """Halving a row with antialias averages each output pixel's footprint (triangle of width 2 pixels)."""
    row = _tensor(np.array([[[0.0, 4.0, 8.0, 12.0]]], np.float32))
    # output pixel 0 is centred at input coordinate 1.0: weights 1 - |j + 0.5 - 1| / 2 = 0.75, 0.75, 0.25, 0
    expected0 = (0.75 * 0 + 0.75 * 4 + 0.25 * 8) / 1.75
    np.testing.assert_allclose(F.resize(row, (1, 2)).numpy()[0, 0, 0], expected0, rtol=1e-6)
    # without antialias only the two nearest pixels (0.5 and 1.5 around 1.0) mix, half and half
    np.testing.assert_allclose(F.resize(row, (1, 2), antialias=False).numpy()[0, 0], [2.0, 10.0])


def test_resize_int_sets_the_shorter_side_and_keeps_aspect():
    assert F.resize(tensorlab.zeros(1, 10, 20), 5).shape == (1, 5, 10)
    assert F.resize(tensorlab.zeros(1, 30, 20), 8).shape == (1, 12, 8)              # int(8 * 30 / 20)
    assert F.resize(tensorlab.zeros(1, 10, 35), [4]).shape == (1, 4, 14)
    assert F.resize(tensorlab.zeros(1, 10, 40), 5, max_size=12).shape == (1, 3, 12)
    with pytest.raises(ValueError, match="max_size = 5 must be strictly greater"):
        F.resize(tensorlab.zeros(1, 10, 40), 5, max_size=5)
    with pytest.raises(ValueError, match="max_size should only be passed if size specifies"):
        F.resize(tensorlab.zeros(1, 10, 40), (5, 5), max_size=10)


def test_resize_uint8_tensors_round_and_keep_dtype():
    x = _tensor(np.array([[[0, 255, 0, 255]]], np.uint8))
    out = F.resize(x, (1, 2), antialias=False)
    assert out.dtype == tensorlab.uint8 and out.numpy().tolist() == [[[128, 128]]]     # 127.5 rounds to 128


def test_resize_pil_images_with_pillow(rng):
    image = Image.fromarray(rng.integers(0, 256, (10, 20, 3)).astype(np.uint8))
    out = T.Resize(5)(image)
    assert isinstance(out, Image.Image) and out.size == (10, 5)
    np.testing.assert_array_equal(np.array(out), np.array(image.resize((10, 5), Image.BILINEAR)))


def test_resize_errors_and_repr():
    with pytest.raises(TypeError, match="Size should be int or sequence"):
        T.Resize("big")
    with pytest.raises(ValueError, match="unknown interpolation 'cubic'"):
        T.Resize(3, interpolation="cubic")
    with pytest.raises(ValueError, match="bicubic interpolation is implemented for PIL images only"):
        T.Resize(3, interpolation=InterpolationMode.BICUBIC)(tensorlab.zeros(1, 5, 5))
    with pytest.raises(TypeError, match="img should be PIL Image or Tensor"):
        T.Resize(3)(np.zeros((5, 5)))
    assert repr(T.Resize(32)) == "Resize(size=32, interpolation=bilinear, max_size=None, antialias=True)"


# -- crops and padding -------------------------------------------------------------------------------


@pytest.mark.parametrize("size,top,left", [((3, 5), 2, 2), ((4, 4), int(round(1.5)), int(round(2.5))),
                                           ((7, 9), 0, 0)])
def test_center_crop_offsets_are_rounded_halves(chw, size, top, left):
    out = T.CenterCrop(size)(_tensor(chw.copy()))
    np.testing.assert_array_equal(out.numpy(), chw[:, top:top + size[0], left:left + size[1]])


def test_center_crop_larger_than_the_image_pads_with_zeros(chw):
    out = F.center_crop(_tensor(chw.copy()), (10, 10)).numpy()
    assert out.shape == (3, 10, 10)
    np.testing.assert_array_equal(out[:, 1:8, 0:9], chw)            # pads (1, 2) rows and (0, 1) columns
    assert out[:, 0].sum() == 0 and out[:, 8:].sum() == 0 and out[:, :, 9].sum() == 0


def test_center_crop_pil_agrees_with_tensor(rng):
    rgb = rng.integers(0, 256, (7, 10, 3)).astype(np.uint8)
    from_pil = F.to_tensor(T.CenterCrop(4)(Image.fromarray(rgb)))
    from_tensor = T.CenterCrop(4)(F.to_tensor(rgb))
    np.testing.assert_array_equal(from_pil.numpy(), from_tensor.numpy())


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_pad_modes_are_numpys(chw, mode):
    out = T.Pad((1, 2, 3, 4), fill=0.5, padding_mode=mode)(_tensor(chw.copy())).numpy()
    kwargs = {"constant_values": 0.5} if mode == "constant" else {}
    np.testing.assert_array_equal(out, np.pad(chw, [(0, 0), (2, 4), (1, 3)], mode=mode, **kwargs))


def test_pad_forms_of_padding_and_pil(rng):
    x = tensorlab.ones(1, 2, 2)
    assert F.pad(x, 1).shape == (1, 4, 4) and F.pad(x, [1, 2]).shape == (1, 6, 4)
    grey = rng.integers(0, 256, (3, 4)).astype(np.uint8)
    padded = F.pad(Image.fromarray(grey), [1, 2], fill=9)
    assert padded.mode == "L"
    np.testing.assert_array_equal(np.array(padded), np.pad(grey, [(2, 2), (1, 1)], constant_values=9))
    with pytest.raises(ValueError, match="Padding must be an int or a 1, 2, or 4 element tuple"):
        F.pad(x, [1, 2, 3])
    with pytest.raises(ValueError, match="Padding mode should be either"):
        T.Pad(1, padding_mode="wrap")


def test_random_crop_is_a_window_of_the_padded_image_and_seedable(chw):
    padded = np.pad(chw, [(0, 0), (2, 2), (2, 2)])
    crop = T.RandomCrop((7, 9), padding=2)
    corners = set()
    tensorlab.manual_seed(0)
    first = [crop(_tensor(chw.copy())).numpy() for _ in range(60)]
    for out in first:
        matches = [(i, j) for i in range(5) for j in range(5)
                   if np.array_equal(padded[:, i:i + 7, j:j + 9], out)]
        assert matches
        corners.update(matches)
    assert len(corners) >= 20                                      # positions drawn all over the 5 x 5 range
    tensorlab.manual_seed(0)
    again = [crop(_tensor(chw.copy())).numpy() for _ in range(60)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again))


def test_random_crop_with_a_generator_ignores_the_global_seed(chw):
    outs = []
    for global_seed in (1, 2):
        tensorlab.manual_seed(global_seed)
        crop = T.RandomCrop(3, generator=tensorlab.Generator().manual_seed(5))
        outs.append([crop(_tensor(chw.copy())).numpy() for _ in range(5)])
    assert all(np.array_equal(a, b) for a, b in zip(*outs))


def test_random_crop_sizes_and_errors():
    assert T.RandomCrop(6, pad_if_needed=True)(tensorlab.ones(1, 4, 5)).shape == (1, 6, 6)
    assert T.RandomCrop((4, 5))(tensorlab.ones(1, 4, 5)).shape == (1, 4, 5)
    with pytest.raises(ValueError, match=r"Required crop size \(6, 6\) is larger than input image size \(4, 5\)"):
        T.RandomCrop(6)(tensorlab.ones(1, 4, 5))
    assert repr(T.RandomCrop(3, padding=4)) == "RandomCrop(size=(3, 3), padding=4)"


# -- flips and rotations -----------------------------------------------------------------------------


def test_flips_reverse_the_last_axes(chw):
    x = _tensor(chw.copy())
    np.testing.assert_array_equal(T.RandomHorizontalFlip(p=1.0)(x).numpy(), chw[:, :, ::-1])
    np.testing.assert_array_equal(T.RandomVerticalFlip(p=1.0)(x).numpy(), chw[:, ::-1, :])
    assert T.RandomHorizontalFlip(p=0.0)(x) is x


def test_random_flip_probability_and_seed(chw):
    x = _tensor(chw.copy())
    flip = T.RandomHorizontalFlip(p=0.3)
    tensorlab.manual_seed(0)
    flipped = [flip(x) is not x for _ in range(2000)]
    assert 0.25 < np.mean(flipped) < 0.35
    tensorlab.manual_seed(0)
    assert flipped == [flip(x) is not x for _ in range(2000)]


def test_flips_pil_agree_with_tensor(rng):
    rgb = rng.integers(0, 256, (5, 6, 3)).astype(np.uint8)
    for fn in (F.hflip, F.vflip):
        np.testing.assert_array_equal(F.to_tensor(fn(Image.fromarray(rgb))).numpy(), fn(F.to_tensor(rgb)).numpy())


@pytest.mark.parametrize("angle,k", [(90, 1), (180, 2), (270, 3), (-90, 3), (360, 0), (450, 1)])
def test_rotation_by_multiples_of_90_is_rot90(rng, angle, k):
    square = rng.random((2, 5, 5)).astype(np.float32)
    np.testing.assert_array_equal(F.rotate(_tensor(square), angle).numpy(), np.rot90(square, k, axes=(1, 2)))
    tall = rng.random((1, 3, 4)).astype(np.float32)
    np.testing.assert_array_equal(F.rotate(_tensor(tall), angle, expand=True).numpy(),
                                  np.rot90(tall, k, axes=(1, 2)))


def test_rotation_pil_agrees_with_tensor_at_90(rng):
    rgb = rng.integers(0, 256, (6, 6, 3)).astype(np.uint8)
    from_pil = F.to_tensor(F.rotate(Image.fromarray(rgb), 90)).numpy()
    np.testing.assert_array_equal(from_pil, F.rotate(F.to_tensor(rgb), 90).numpy())


def test_rotation_by_45_degrees_samples_nearest_and_fills_corners():
    x = _tensor(np.arange(1, 50, dtype=np.float32).reshape(1, 7, 7))
    out = F.rotate(x, 45, fill=-1).numpy()[0]
    assert out[3, 3] == 25                      # the centre stays
    assert out[0, 0] == -1 and out[6, 6] == -1  # corners came from outside the image
    # output pixel (row 3, col 5): 2 right of centre; rotating it back by -45 degrees lands at
    # x = 2 cos 45 = 1.41 -> 1 right, y = 2 sin 45 = 1.41 -> 1 down: input (4, 4) = 33
    assert out[3, 5] == 33
    assert set(np.unique(out)) <= set(range(1, 50)) | {-1}


def test_random_rotation_draws_uniform_angles_from_the_range(monkeypatch):
    angles = []
    monkeypatch.setattr(F, "rotate", lambda img, angle, *args: angles.append(angle) or img)
    rotation = T.RandomRotation(30)
    tensorlab.manual_seed(0)
    for _ in range(500):
        rotation(tensorlab.zeros(1, 3, 3))
    assert min(angles) >= -30 and max(angles) <= 30 and min(angles) < -25 and max(angles) > 25
    assert T.RandomRotation((90, 90)).get_params([90, 90]) == 90


def test_random_rotation_quarter_turn_and_errors(rng):
    square = rng.random((1, 4, 4)).astype(np.float32)
    np.testing.assert_array_equal(T.RandomRotation((90, 90))(_tensor(square)).numpy(), np.rot90(square, 1, (1, 2)))
    with pytest.raises(ValueError, match="If degrees is a single number, it must be positive."):
        T.RandomRotation(-5)
    with pytest.raises(ValueError, match="it must be of len 2"):
        T.RandomRotation((1, 2, 3))
    with pytest.raises(ValueError, match="InterpolationMode.NEAREST only"):
        F.rotate(_tensor(square), 10, interpolation="bilinear")
    assert repr(T.RandomRotation(10)) == \
        "RandomRotation(degrees=[-10.0, 10.0], interpolation=nearest, expand=False, fill=0)"


# -- Compose and Lambda ------------------------------------------------------------------------------


def test_compose_applies_in_order_and_prints_the_pipeline(rng):
    grey = rng.integers(0, 256, (8, 8)).astype(np.uint8)
    pipeline = T.Compose([T.ToTensor(), T.CenterCrop(4), T.Normalize((0.5,), (0.5,)), T.Lambda(lambda t: t * 2)])
    out = pipeline(Image.fromarray(grey))
    np.testing.assert_allclose(out.numpy()[0], 2 * ((grey[2:6, 2:6] / 255.0) - 0.5) / 0.5, rtol=1e-5)
    assert repr(pipeline) == ("Compose(\n    ToTensor()\n    CenterCrop(size=(4, 4))\n"
                              "    Normalize(mean=(0.5,), std=(0.5,))\n    Lambda()\n)")
    with pytest.raises(TypeError, match="Argument lambd should be callable"):
        T.Lambda(3)


# -- torchvision as the oracle, where installed -------------------------------------------------------


class TestAgainstTorchvision:
    @pytest.fixture(autouse=True)
    def tv(self, torch):
        self.tvT = pytest.importorskip("torchvision.transforms", reason="torchvision is not installed")
        self.torch = torch

    def _both(self, ours, theirs, array):
        a = ours(_tensor(array.copy())).numpy()
        b = theirs(self.torch.from_numpy(array.copy())).numpy()
        np.testing.assert_allclose(a, b, atol=1e-5)

    def test_tensor_transforms(self, chw):
        tvT = self.tvT
        self._both(T.Normalize((0.1, 0.2, 0.3), (0.4, 0.5, 0.6)), tvT.Normalize((0.1, 0.2, 0.3), (0.4, 0.5, 0.6)), chw)
        for size in (3, (4, 5), (10, 12)):
            self._both(T.CenterCrop(size), tvT.CenterCrop(size), chw)
            self._both(T.Resize(size), tvT.Resize(size), chw)
            self._both(T.Resize(size, antialias=False), tvT.Resize(size, antialias=False), chw)
        self._both(T.Pad((1, 2, 3, 4), padding_mode="reflect"), tvT.Pad((1, 2, 3, 4), padding_mode="reflect"), chw)
        self._both(T.RandomHorizontalFlip(1.0), tvT.RandomHorizontalFlip(1.0), chw)
        square = chw[:, :7, :7]
        for angle in (90, 180, 270):
            self._both(T.RandomRotation((angle, angle)), tvT.RandomRotation((angle, angle)), square)

    def test_to_tensor(self, rng):
        hwc = rng.integers(0, 256, (4, 5, 3)).astype(np.uint8)
        np.testing.assert_allclose(T.ToTensor()(hwc).numpy(), self.tvT.ToTensor()(hwc).numpy())
