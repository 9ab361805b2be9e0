"""sort, argsort, topk, kthvalue, bincount, unique -- against PyTorch."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab
from tests.copying_oracle import check_gradients, compare, same_error

pytestmark = pytest.mark.torch
HYPO = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
T = lambda t: t.t()  # noqa: E731
NAN = float("nan")


def _distinct(rng, *shape):
    """Values without ties, so every library must pick the same indices."""
    return rng.permutation(int(np.prod(shape))).reshape(shape) + rng.random(shape) * 0.5


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_values_indices_grads(torch, rng, dim, descending):
    a = _distinct(rng, 3, 4)
    ours, _ = compare(torch, lambda m, x: x.sort(dim, descending), a)
    assert type(ours) is tensorlab.return_types.sort
    assert ours.values is ours[0] and ours.indices is ours[1]
    compare(torch, lambda m, x: m.sort(x, dim=dim, descending=descending), _distinct(rng, 4, 3), views=[T])
    compare(torch, lambda m, x: x.sort(dim=dim, descending=descending, stable=True), a)
    check_gradients(lambda m, x: x.sort(dim, descending), a)
    check_gradients(lambda m, x: x.sort(dim, descending), _distinct(rng, 4, 3), views=[T])
    check_gradients(lambda m, x: x.expand(3, 4).sort(dim, descending).values, _distinct(rng, 1, 4))


@pytest.mark.parametrize("descending", [False, True])
def test_stable_sort_keeps_ties_in_order_and_nan_is_largest(torch, descending):
    data = np.array([3.0, 1.0, NAN, 1.0, 3.0, -2.0, NAN, 1.0])
    compare(torch, lambda m, x: x.sort(stable=True, descending=descending), data)
    compare(torch, lambda m, x: x.argsort(stable=True, descending=descending), data, grad=False)
    compare(torch, lambda m, x: x.sort(descending=descending), np.array([2, 0, 2, 1, 0]), grad=False)
    compare(torch, lambda m, x: x.sort(stable=True, descending=descending), np.array([True, False, True, False]))


def test_sort_of_0d_and_empty(torch):
    compare(torch, lambda m, x: x.sort(), np.array(2.5))
    compare(torch, lambda m, x: x.sort(0), np.zeros((0, 3)), grad=False)
    compare(torch, lambda m, x: x.argsort(), np.array(1.0), grad=False)
    compare(torch, lambda m, x: m.msort(x), np.array([[3.0, 1.0], [0.5, 2.0]]))


@given(array=hnp.arrays("float64", hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5),
                        elements=st.integers(-3, 3).map(float)), descending=st.booleans(), dim=st.integers(-1, 0))
@HYPO
def test_stable_sort_hypothesis_with_many_ties(torch, array, descending, dim):
    compare(torch, lambda m, x: x.sort(dim=dim, descending=descending, stable=True), array)
    compare(torch, lambda m, x: m.argsort(x, dim=dim, descending=descending, stable=True), array, grad=False)


@pytest.mark.parametrize("k,dim,largest", [(1, -1, True), (2, 1, False), (3, 0, True), (0, 1, True), (4, 1, False)])
def test_topk(torch, rng, k, dim, largest):
    a = _distinct(rng, 3, 4)
    ours, _ = compare(torch, lambda m, x: x.topk(k, dim, largest), a)
    assert type(ours) is tensorlab.return_types.topk
    compare(torch, lambda m, x: m.topk(x, k, dim=dim, largest=largest), _distinct(rng, 4, 3), views=[T])
    if k:
        check_gradients(lambda m, x: x.topk(k, dim, largest), a)
        check_gradients(lambda m, x: x.topk(k, dim, largest), _distinct(rng, 4, 3), views=[T])


def test_topk_nan_and_0d(torch):
    compare(torch, lambda m, x: x.topk(2), np.array([3.0, NAN, 1.0]))
    compare(torch, lambda m, x: x.topk(2, largest=False), np.array([3.0, NAN, 1.0]))
    compare(torch, lambda m, x: x.topk(1), np.array(2.0))


@pytest.mark.parametrize("k,dim,keepdim", [(1, -1, False), (2, 0, True), (4, 1, False), (3, 0, False)])
def test_kthvalue(torch, rng, k, dim, keepdim):
    a = _distinct(rng, 3, 4)
    ours, _ = compare(torch, lambda m, x: x.kthvalue(k, dim, keepdim), a)
    assert type(ours) is tensorlab.return_types.kthvalue
    compare(torch, lambda m, x: m.kthvalue(x, k, dim, keepdim=keepdim), _distinct(rng, 4, 3), views=[T])
    check_gradients(lambda m, x: x.kthvalue(k, dim, keepdim), a)
    check_gradients(lambda m, x: x.kthvalue(k, dim, keepdim), _distinct(rng, 4, 3), views=[T])
    compare(torch, lambda m, x: x.kthvalue(1), np.array(2.0))


@pytest.mark.parametrize("op", [
    lambda m, x: x.sort(2), lambda m, x: x.argsort(dim=5), lambda m, x: x.topk(5), lambda m, x: x.topk(-1),
    lambda m, x: x.kthvalue(0), lambda m, x: x.kthvalue(5), lambda m, x: x.topk(1, dim=3),
])
def test_sort_errors(torch, rng, op):
    same_error(torch, op, _distinct(rng, 3, 4))


# -- bincount -----------------------------------------------------------------------------------


def test_bincount(torch, rng):
    labels = rng.integers(0, 6, size=30)
    compare(torch, lambda m, x: m.bincount(x), labels)
    compare(torch, lambda m, x: x.bincount(minlength=10), labels)
    compare(torch, lambda m, x: m.bincount(x), np.zeros(0, dtype="int64"))
    compare(torch, lambda m, x: m.bincount(x, minlength=3), np.zeros(0, dtype="int64"))
    compare(torch, lambda m, x: m.bincount(x), labels.astype("uint8"))
    for dtype in ["float32", "float64", "float16", "int64"]:
        weights = rng.random(30).astype(dtype) if dtype != "int64" else rng.integers(0, 5, 30)
        compare(torch, lambda m, x, w: m.bincount(x, w), labels, weights, grad=False)


@pytest.mark.parametrize("op", [
    lambda m, x: m.bincount(x - 1), lambda m, x: m.bincount(x.reshape(2, 2)), lambda m, x: m.bincount(x.float()),
    lambda m, x: m.bincount(x, weights=m.ones(3)), lambda m, x: m.bincount(x, minlength=-1),
])
def test_bincount_errors(torch, op):
    same_error(torch, op, np.array([0, 1, 1, 3]))


# -- unique / unique_consecutive ----------------------------------------------------------------


@pytest.mark.parametrize("return_inverse", [False, True])
@pytest.mark.parametrize("return_counts", [False, True])
def test_unique(torch, rng, return_inverse, return_counts):
    flags = dict(return_inverse=return_inverse, return_counts=return_counts)
    a = rng.integers(0, 5, size=(3, 4))
    compare(torch, lambda m, x: m.unique(x, **flags), a, grad=False)
    compare(torch, lambda m, x: x.unique(sorted=False, **flags), a, grad=False)
    compare(torch, lambda m, x: x.unique(dim=0, **flags), np.array([[1, 2], [0, 5], [1, 2], [0, 1]]), grad=False)
    compare(torch, lambda m, x: x.unique(dim=1, **flags), np.array([[1, 1, 0], [2, 2, 3]]), grad=False)
    compare(torch, lambda m, x: m.unique(x, **flags), np.array([NAN, 1.0, NAN, 1.0, -0.5]), grad=False)
    compare(torch, lambda m, x: m.unique(x, **flags), np.array(3), grad=False)
    compare(torch, lambda m, x: m.unique_consecutive(x, **flags), np.array([1, 1, 2, 2, 3, 1, 1, 2]), grad=False)
    compare(torch, lambda m, x: x.unique_consecutive(dim=0, **flags), np.array([[1, 2], [1, 2], [0, 5], [1, 2]]),
            grad=False)
    compare(torch, lambda m, x: x.unique_consecutive(**flags), a, grad=False)


def test_unique_errors(torch, rng):
    same_error(torch, lambda m, x: m.unique(x, dim=3), rng.integers(0, 3, size=(2, 3)))


@given(array=hnp.arrays("int64", hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
                        elements=st.integers(-2, 2)))
@HYPO
def test_unique_hypothesis(torch, array):
    compare(torch, lambda m, x: m.unique(x, return_inverse=True, return_counts=True), array, grad=False)
    compare(torch, lambda m, x: m.unique_consecutive(x, return_inverse=True, return_counts=True), array, grad=False)
    if array.size:
        compare(torch, lambda m, x: m.unique(x, return_inverse=True, return_counts=True, dim=0), array, grad=False)
