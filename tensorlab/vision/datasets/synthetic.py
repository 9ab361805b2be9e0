"""Small 2-D datasets for the first lessons: points you can plot, classes a line cannot separate.

Every function returns ``(X, y)``: ``X`` a float32 tensor of shape (n_samples, 2), ``y`` an int64
tensor of class indices. ``noise`` is the standard deviation of Gaussian noise added to every
coordinate. With an integer ``seed`` the result is the same on every call and machine (NumPy's
``default_rng(seed)``); with ``seed=None`` the randomness comes from tensorlab's global generator,
so ``tensorlab.manual_seed`` controls it.
"""
import numpy as np


def make_moons(n_samples=100, noise=0.0, seed=0, shuffle=True):
    """Two interleaving half circles (scikit-learn's ``make_moons``).

    Class 0: ``(cos t, sin t)`` for ``n_samples // 2`` values of t evenly spaced on [0, pi];
    class 1: ``(1 - cos t, 0.5 - sin t)`` for the other ``n_samples - n_samples // 2``.
    """
    rng = _rng(seed)
    n_outer = n_samples // 2
    n_inner = n_samples - n_outer
    t_outer = np.linspace(0, np.pi, n_outer)
    t_inner = np.linspace(0, np.pi, n_inner)
    X = np.concatenate([np.stack([np.cos(t_outer), np.sin(t_outer)], axis=1),
                        np.stack([1 - np.cos(t_inner), 0.5 - np.sin(t_inner)], axis=1)])
    y = np.concatenate([np.zeros(n_outer), np.ones(n_inner)])
    return _finish(X, y, noise, rng, shuffle)


def make_spirals(n_samples=100, n_classes=2, noise=0.0, seed=0, shuffle=True):
    """``n_classes`` spiral arms winding out of the origin (the classic CS231n toy problem).

    Point i of class k (of m = its share of ``n_samples``) sits at radius ``r = i / (m - 1)`` and angle
    ``theta = 2 pi k / n_classes + 4 r``: ``(r sin theta, r cos theta)``. Every arm turns 4 radians.
    """
    if n_classes < 1:
        raise ValueError(f"make_spirals needs at least one class, got n_classes={n_classes}")
    rng = _rng(seed)
    sizes = [n_samples // n_classes + (k < n_samples % n_classes) for k in range(n_classes)]
    points, labels = [], []
    for k, m in enumerate(sizes):
        r = np.linspace(0.0, 1.0, m)
        theta = 2 * np.pi * k / n_classes + 4 * r
        points.append(np.stack([r * np.sin(theta), r * np.cos(theta)], axis=1))
        labels.append(np.full(m, k))
    return _finish(np.concatenate(points), np.concatenate(labels), noise, rng, shuffle)


def make_blobs(n_samples=100, centers=3, noise=1.0, seed=0, center_box=(-10.0, 10.0), shuffle=True):
    """Gaussian blobs: class k is ``centers[k]`` plus Gaussian noise of standard deviation ``noise``.

    ``centers`` is a list of 2-D points, or a number of centres drawn uniformly from ``center_box``.
    Samples are shared out as evenly as possible, the first classes taking the remainder.
    """
    rng = _rng(seed)
    if np.ndim(centers) == 0:
        centers = rng.uniform(center_box[0], center_box[1], size=(int(centers), 2))
    centers = np.asarray(centers, dtype=np.float64)
    if centers.ndim != 2 or centers.shape[1] != 2 or len(centers) < 1:
        raise ValueError(f"make_blobs: centers must be a number or a list of 2-D points, got shape {centers.shape}")
    k = len(centers)
    sizes = [n_samples // k + (i < n_samples % k) for i in range(k)]
    y = np.repeat(np.arange(k), sizes)
    return _finish(centers[y], y, noise, rng, shuffle)


def _rng(seed):
    if seed is not None:
        return np.random.default_rng(seed)
    from ...ops.creation import default_generator
    return default_generator._rng


def _finish(X, y, noise, rng, shuffle):
    """Add the noise, shuffle (X and y together), and return ``(float32 X, int64 y)`` tensors."""
    from ... import from_numpy
    if noise < 0:
        raise ValueError(f"noise is a standard deviation and cannot be negative, got {noise}")
    if noise:
        X = X + rng.normal(scale=noise, size=X.shape)
    if shuffle:
        order = rng.permutation(len(y))
        X, y = X[order], y[order]
    return from_numpy(np.ascontiguousarray(X, dtype=np.float32)), from_numpy(np.asarray(y, dtype=np.int64))
