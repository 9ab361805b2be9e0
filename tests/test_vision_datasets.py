"""vision.datasets: Digits (shipped), MNIST/FashionMNIST from IDX files, ImageFolder -- all offline."""
import os

import numpy as np
import pytest

import tensorlab
from tensorlab.utils.data import DataLoader, Dataset
from tensorlab.vision import transforms as T
from tensorlab.vision.datasets import (MNIST, Digits, FashionMNIST, ImageFolder, read_idx, write_idx)

SHIPPED = os.path.join(os.path.dirname(tensorlab.__file__), "vision", "data", "digits.npz")


# -- Digits ------------------------------------------------------------------------------------------


def _class_counts():
    with np.load(SHIPPED) as f:
        return np.bincount(f["labels"], minlength=10)


def test_shipped_file_is_sklearns_digits_unchanged():
    datasets = pytest.importorskip("sklearn.datasets", reason="scikit-learn is not installed")
    ref = datasets.load_digits()
    with np.load(SHIPPED) as f:
        assert f["images"].dtype == np.uint8 and f["images"].shape == (1797, 8, 8)
        np.testing.assert_array_equal(f["images"], ref.images)
        np.testing.assert_array_equal(f["labels"], ref.target)


def test_digits_lengths_shapes_dtypes_and_ranges():
    train, test = Digits(train=True), Digits(train=False)
    assert (len(train), len(test)) == (1438, 359)
    image, label = train[0]
    assert isinstance(image, tensorlab.Tensor) and image.shape == (1, 8, 8) and image.dtype == tensorlab.float32
    assert isinstance(label, int)
    for part in (train, test):
        assert part.data.dtype == tensorlab.uint8 and part.data.shape == (len(part), 8, 8)
        assert part.targets.dtype == tensorlab.int64
        assert set(part.targets.tolist()) == set(range(10))
        assert int(part.data.numpy().max()) == 16 and int(part.data.numpy().min()) == 0
    assert isinstance(train, Dataset)


def test_digits_images_are_the_counts_divided_by_16():
    train = Digits()
    for i in (0, 7, len(train) - 1):
        image, label = train[i]
        np.testing.assert_array_equal(image.numpy()[0], train.data.numpy()[i] / np.float32(16))
        assert label == train.targets.numpy()[i]


def test_digits_split_is_stratified_disjoint_and_complete():
    counts = _class_counts()
    train, test = Digits(train=True), Digits(train=False)
    train_counts = np.bincount(train.targets.numpy(), minlength=10)
    expected = np.array([int(round(0.8 * c)) for c in counts])
    np.testing.assert_array_equal(train_counts, expected)
    np.testing.assert_array_equal(train_counts + np.bincount(test.targets.numpy(), minlength=10), counts)
    # together the two parts hold every image exactly once (compare as multisets of rows)
    with np.load(SHIPPED) as f:
        everything = np.concatenate([f["images"].reshape(-1, 64), f["labels"][:, None]], axis=1)
    parts = np.concatenate([np.concatenate([p.data.numpy().reshape(-1, 64), p.targets.numpy()[:, None]], axis=1)
                            for p in (train, test)])
    assert sorted(map(bytes, parts.astype(np.uint8))) == sorted(map(bytes, everything.astype(np.uint8)))


def test_digits_split_is_reproducible_and_depends_only_on_seed():
    a = Digits(seed=0)
    tensorlab.manual_seed(123)
    b = Digits(seed=0)
    c = Digits(seed=1)
    np.testing.assert_array_equal(a.data.numpy(), b.data.numpy())
    assert not np.array_equal(a.data.numpy(), c.data.numpy())
    half = Digits(split=0.5)
    assert abs(len(half) - 1797 / 2) <= 10


@pytest.mark.parametrize("split", [0, 1, 1.5, -0.2])
def test_digits_rejects_a_split_that_is_not_a_fraction(split):
    with pytest.raises(ValueError, match="split must be a fraction"):
        Digits(split=split)


def test_digits_transforms_and_repr():
    ds = Digits(train=False, transform=T.Normalize((0.5,), (0.25,)), target_transform=lambda y: y + 100)
    image, label = ds[3]
    raw = ds.data.numpy()[3] / 16.0
    np.testing.assert_allclose(image.numpy()[0], (raw - 0.5) / 0.25, rtol=1e-6)
    assert label == int(ds.targets.numpy()[3]) + 100
    text = repr(ds)
    assert text.startswith("Dataset Digits\n    Number of datapoints: 359")
    assert "Split: Test" in text and "Transform: Normalize(mean=(0.5,), std=(0.25,))" in text


def test_digits_reads_a_copy_from_root_and_explains_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="digits.npz"):
        Digits(root=tmp_path)
    (tmp_path / "digits.npz").write_bytes(open(SHIPPED, "rb").read())
    np.testing.assert_array_equal(Digits(root=tmp_path).data.numpy(), Digits().data.numpy())


def test_digits_batches_through_a_dataloader():
    loader = DataLoader(Digits(), batch_size=64, shuffle=False)
    images, labels = next(iter(loader))
    assert images.shape == (64, 1, 8, 8) and images.dtype == tensorlab.float32
    assert labels.shape == (64,) and labels.dtype == tensorlab.int64


# -- IDX ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_idx_round_trip(tmp_path, rng, dtype, suffix):
    array = (rng.standard_normal((3, 4, 5)) * 50).astype(dtype)
    path = tmp_path / f"a-idx3{suffix}"
    write_idx(path, array)
    back = read_idx(path)
    assert back.dtype == np.dtype(dtype) and back.shape == array.shape
    np.testing.assert_array_equal(back, array)
    assert back.flags.writeable
    assert (path.read_bytes()[:2] == b"\x1f\x8b") == (suffix == ".gz")


def test_idx_header_is_the_documented_bytes(tmp_path):
    write_idx(tmp_path / "x", np.arange(6, dtype=np.int16).reshape(2, 3))
    raw = (tmp_path / "x").read_bytes()
    assert raw[:12] == bytes([0, 0, 0x0B, 2, 0, 0, 0, 2, 0, 0, 0, 3])
    assert raw[12:] == np.arange(6, dtype=">i2").tobytes()          # big-endian data


def test_idx_writes_tensors_and_zero_dim_arrays(tmp_path):
    write_idx(tmp_path / "t", tensorlab.arange(5, dtype=tensorlab.int32))
    np.testing.assert_array_equal(read_idx(tmp_path / "t"), np.arange(5))
    write_idx(tmp_path / "s", np.float64(2.5))
    assert read_idx(tmp_path / "s").shape == () and read_idx(tmp_path / "s") == 2.5


def test_idx_reader_rejects_bad_files_naming_them(tmp_path):
    bad = tmp_path / "not-idx"
    bad.write_bytes(b"\x89PNG....")
    with pytest.raises(ValueError, match="not an IDX file"):
        read_idx(bad)
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(ValueError, match="not an IDX file"):
        read_idx(tmp_path / "empty")
    (tmp_path / "code").write_bytes(bytes([0, 0, 0x07, 1, 0, 0, 0, 1, 5]))
    with pytest.raises(ValueError, match="unknown IDX type code 0x07"):
        read_idx(tmp_path / "code")
    write_idx(tmp_path / "short", np.zeros((4, 4), np.uint8))
    (tmp_path / "short").write_bytes((tmp_path / "short").read_bytes()[:-3])
    with pytest.raises(ValueError, match=r"needs 16 bytes of data, but the file has 13"):
        read_idx(tmp_path / "short")


def test_idx_writer_rejects_unsupported_dtype_and_leaves_no_file(tmp_path):
    with pytest.raises(TypeError, match="IDX cannot store dtype int64"):
        write_idx(tmp_path / "x", np.arange(3, dtype=np.int64))
    assert list(tmp_path.iterdir()) == []


# -- MNIST / FashionMNIST ----------------------------------------------------------------------------


def _write_mnist(folder, rng, n_train=7, n_test=3, gz=False):
    folder.mkdir(parents=True, exist_ok=True)
    suffix = ".gz" if gz else ""
    arrays = {}
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        images = rng.integers(0, 256, (n, 28, 28)).astype(np.uint8)
        labels = rng.integers(0, 10, n).astype(np.uint8)
        write_idx(folder / f"{prefix}-images-idx3-ubyte{suffix}", images)
        write_idx(folder / f"{prefix}-labels-idx1-ubyte{suffix}", labels)
        arrays[prefix] = (images, labels)
    return arrays


@pytest.mark.parametrize("layout", ["torchvision", "plain", "gzip"])
def test_mnist_reads_idx_files_in_both_layouts(tmp_path, rng, layout):
    folder = tmp_path / "MNIST" / "raw" if layout == "torchvision" else tmp_path
    arrays = _write_mnist(folder, rng, gz=layout == "gzip")
    train, test = MNIST(tmp_path), MNIST(str(tmp_path), train=False)
    assert (len(train), len(test)) == (7, 3)
    assert train.data.dtype == tensorlab.uint8 and train.data.shape == (7, 28, 28)
    assert train.targets.dtype == tensorlab.int64
    np.testing.assert_array_equal(test.data.numpy(), arrays["t10k"][0])
    image, label = train[4]
    assert image.mode == "L" and image.size == (28, 28)
    np.testing.assert_array_equal(np.array(image), arrays["train"][0][4])
    assert label == int(arrays["train"][1][4]) and isinstance(label, int)


def test_mnist_with_to_tensor_gives_1x28x28_floats_in_unit_range(tmp_path, rng):
    arrays = _write_mnist(tmp_path / "MNIST" / "raw", rng)
    ds = MNIST(tmp_path, transform=T.Compose([T.ToTensor()]))
    image, _ = ds[2]
    assert image.shape == (1, 28, 28) and image.dtype == tensorlab.float32
    np.testing.assert_allclose(image.numpy()[0], arrays["train"][0][2] / 255.0, rtol=1e-6)
    assert "Split: Train" in repr(ds) and "ToTensor()" in repr(ds)


def test_fashion_mnist_uses_its_own_folder_and_classes(tmp_path, rng):
    _write_mnist(tmp_path / "FashionMNIST" / "raw", rng, n_train=4)
    ds = FashionMNIST(tmp_path)
    assert len(ds) == 4 and ds.classes[9] == "Ankle boot" and ds.class_to_idx["Trouser"] == 1
    with pytest.raises(FileNotFoundError):
        MNIST(tmp_path)           # the MNIST folder is not FashionMNIST's


def test_missing_mnist_files_name_the_files_and_the_folder(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        MNIST(tmp_path)
    message = str(info.value)
    assert "train-images-idx3-ubyte" in message and "train-labels-idx1-ubyte" in message
    assert os.path.join(str(tmp_path), "MNIST", "raw") in message and "does not download" in message


def test_download_true_never_downloads(tmp_path, rng):
    with pytest.raises(RuntimeError, match="never downloads") as info:
        MNIST(tmp_path, download=True)
    assert "network" in str(info.value) and "t10k" not in str(info.value)   # names the train files
    assert list(tmp_path.iterdir()) == []                                  # and created nothing
    _write_mnist(tmp_path / "MNIST" / "raw", rng)
    assert len(MNIST(tmp_path, download=True)) == 7                        # files present: just used


def test_mnist_rejects_images_and_labels_of_different_lengths(tmp_path, rng):
    folder = tmp_path / "MNIST" / "raw"
    _write_mnist(folder, rng)
    write_idx(folder / "train-labels-idx1-ubyte", np.zeros(5, np.uint8))
    with pytest.raises(ValueError, match=r"expected \(N, H, W\) images and N labels"):
        MNIST(tmp_path)


# -- ImageFolder -------------------------------------------------------------------------------------


def _png(path, array):
    from PIL import Image
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(array).save(path)


@pytest.fixture
def image_tree(tmp_path, rng):
    pytest.importorskip("PIL", reason="Pillow is not installed")
    pixels = {}
    for name in ["dog/b.png", "dog/a.png", "cat/x.png", "cat/nested/y.png", "bird/z.PNG"]:
        array = rng.integers(0, 256, (5, 6, 3)).astype(np.uint8)
        _png(tmp_path / name, array)
        pixels[name] = array
    _png(tmp_path / "cat/grey.png", np.full((5, 6), 77, np.uint8))
    (tmp_path / "cat" / "notes.txt").write_text("not an image")
    return tmp_path, pixels


def test_image_folder_classes_samples_and_items(image_tree):
    root, pixels = image_tree
    ds = ImageFolder(root)
    assert ds.classes == ["bird", "cat", "dog"]
    assert ds.class_to_idx == {"bird": 0, "cat": 1, "dog": 2}
    relative = [(os.path.relpath(p, root), t) for p, t in ds.samples]
    # a folder's own files (sorted) come before its sub-folders' (os.walk order, sorted), as in torchvision
    assert relative == [("bird/z.PNG", 0), ("cat/grey.png", 1), ("cat/x.png", 1),
                        (os.path.join("cat", "nested", "y.png"), 1), ("dog/a.png", 2), ("dog/b.png", 2)]
    assert ds.targets == [0, 1, 1, 1, 2, 2] and ds.imgs is ds.samples and len(ds) == 6
    image, target = ds[4]
    assert image.mode == "RGB" and target == 2 and ds.samples[4][0].endswith("a.png")
    np.testing.assert_array_equal(np.array(image), pixels["dog/a.png"])
    grey, _ = ds[1]
    assert grey.mode == "RGB" and (np.array(grey) == 77).all()      # grayscale files become RGB


def test_image_folder_with_transform_gives_tensors(image_tree):
    root, pixels = image_tree
    ds = ImageFolder(root, transform=T.ToTensor(), target_transform=str)
    image, target = ds[0]
    assert image.shape == (3, 5, 6) and target == "0"
    np.testing.assert_allclose(image.numpy(), pixels["bird/z.PNG"].transpose(2, 0, 1) / 255.0, rtol=1e-6)


def test_image_folder_custom_is_valid_file(image_tree):
    root, _ = image_tree
    ds = ImageFolder(root, is_valid_file=lambda p: p.endswith("a.png") or p.endswith("x.png"), allow_empty=True)
    assert [os.path.basename(p) for p, _ in ds.samples] == ["x.png", "a.png"]


def test_image_folder_errors(tmp_path):
    pytest.importorskip("PIL", reason="Pillow is not installed")
    with pytest.raises(FileNotFoundError, match="no folder"):
        ImageFolder(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="Couldn't find any class folder"):
        ImageFolder(tmp_path)
    _png(tmp_path / "a" / "1.png", np.zeros((2, 2), np.uint8))
    (tmp_path / "b").mkdir()
    with pytest.raises(FileNotFoundError, match="Found no valid file for the classes b. Supported extensions"):
        ImageFolder(tmp_path)
    assert len(ImageFolder(tmp_path, allow_empty=True)) == 1


def test_digits_mean_and_std_are_the_pixel_statistics():
    with np.load(SHIPPED) as f:
        pixels = f["images"] / 16.0
    assert Digits.mean[0] == pytest.approx(pixels.mean(), abs=1e-4)
    assert Digits.std[0] == pytest.approx(pixels.std(), abs=1e-4)
