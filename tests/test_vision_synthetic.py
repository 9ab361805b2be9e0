"""vision.datasets.make_moons / make_spirals / make_blobs: shapes, formulas, noise, seeding."""
import numpy as np
import pytest

import tensorlab
from tensorlab.vision.datasets import make_blobs, make_moons, make_spirals

MAKERS = [make_moons, make_spirals, make_blobs]


@pytest.mark.parametrize("make", MAKERS)
def test_shapes_dtypes_and_determinism(make):
    X, y = make(101, noise=0.1, seed=3)
    assert X.shape == (101, 2) and X.dtype == tensorlab.float32
    assert y.shape == (101,) and y.dtype == tensorlab.int64
    X2, y2 = make(101, noise=0.1, seed=3)
    np.testing.assert_array_equal(X.numpy(), X2.numpy())
    np.testing.assert_array_equal(y.numpy(), y2.numpy())
    X3, _ = make(101, noise=0.1, seed=4)
    assert not np.array_equal(X.numpy(), X3.numpy())


@pytest.mark.parametrize("make", MAKERS)
def test_seed_none_follows_tensorlab_manual_seed(make):
    tensorlab.manual_seed(7)
    a = make(50, noise=0.2, seed=None)[0].numpy()
    tensorlab.manual_seed(7)
    b = make(50, noise=0.2, seed=None)[0].numpy()
    c = make(50, noise=0.2, seed=None)[0].numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(b, c)


@pytest.mark.parametrize("make", MAKERS)
def test_negative_noise_is_rejected(make):
    with pytest.raises(ValueError, match="cannot be negative"):
        make(10, noise=-1.0)


def test_moons_match_scikit_learn_without_noise():
    sk = pytest.importorskip("sklearn.datasets", reason="scikit-learn is not installed")
    for n in (10, 11, 200):
        X, y = make_moons(n, noise=0.0, shuffle=False)
        X_ref, y_ref = sk.make_moons(n, noise=0.0, shuffle=False)
        np.testing.assert_allclose(X.numpy(), X_ref, atol=1e-6)
        np.testing.assert_array_equal(y.numpy(), y_ref)


def test_moons_noise_has_the_requested_standard_deviation():
    clean, _ = make_moons(4000, noise=0.0, shuffle=False)
    noisy, _ = make_moons(4000, noise=0.3, shuffle=False, seed=1)
    residual = noisy.numpy() - clean.numpy()
    assert abs(residual.std() - 0.3) < 0.01 and abs(residual.mean()) < 0.01


def test_shuffle_permutes_points_and_labels_together():
    X, y = make_moons(60, shuffle=False)
    Xs, ys = make_moons(60, shuffle=True)
    as_set = {(tuple(p), int(c)) for p, c in zip(X.numpy().round(5), y.numpy())}
    assert as_set == {(tuple(p), int(c)) for p, c in zip(Xs.numpy().round(5), ys.numpy())}
    assert not np.array_equal(y.numpy(), ys.numpy())


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_spirals_follow_the_documented_formula(n_classes):
    X, y = make_spirals(103, n_classes=n_classes, noise=0.0, shuffle=False)
    X, y = X.numpy().astype(np.float64), y.numpy()
    sizes = np.bincount(y)
    assert sizes.sum() == 103 and sizes.max() - sizes.min() <= 1
    for k in range(n_classes):
        points = X[y == k]
        r = np.linspace(0, 1, len(points))
        theta = 2 * np.pi * k / n_classes + 4 * r
        np.testing.assert_allclose(points, np.stack([r * np.sin(theta), r * np.cos(theta)], 1), atol=1e-6)
    with pytest.raises(ValueError, match="at least one class"):
        make_spirals(10, n_classes=0)


def test_blobs_sit_around_their_centres_with_std_noise():
    centers = [[-5.0, 0.0], [5.0, 5.0], [0.0, -6.0]]
    X, y = make_blobs(3001, centers=centers, noise=0.5, seed=2)
    X, y = X.numpy(), y.numpy()
    assert np.bincount(y).tolist() == [1001, 1000, 1000]
    for k, c in enumerate(centers):
        np.testing.assert_allclose(X[y == k].mean(axis=0), c, atol=0.05)
        np.testing.assert_allclose(X[y == k].std(axis=0), [0.5, 0.5], atol=0.03)


def test_blobs_with_a_number_of_centres_draws_them_in_the_box():
    X, y = make_blobs(300, centers=4, noise=0.0, center_box=(-2, 2))
    means = np.array([X.numpy()[y.numpy() == k].mean(axis=0) for k in range(4)])
    assert (np.abs(means) <= 2).all() and len(np.unique(means.round(4), axis=0)) == 4
    with pytest.raises(ValueError, match="list of 2-D points"):
        make_blobs(10, centers=[[1.0, 2.0, 3.0]])
