"""gather/scatter, the index_* family, masks, where and nonzero -- against PyTorch."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tensorlab
from tests.copying_oracle import check_gradients, compare, same_error

pytestmark = pytest.mark.torch
HYPO = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
T = lambda t: t.t()  # noqa: E731


def _r(rng, *shape):
    return rng.standard_normal(shape)


def _distinct_rows(rng, n_rows, n_cols, size):
    """An index for scatter along dim 0 with no repeated target in any column (scatter is then exact)."""
    return np.stack([rng.permutation(size)[:n_rows] for _ in range(n_cols)], axis=1)


# -- gather --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather(torch, rng, dim):
    a = _r(rng, 3, 4)
    index = rng.integers(0, a.shape[dim], size=(2, 3))  # smaller than the input in the other dim
    compare(torch, lambda m, x, i: x.gather(dim, i), a, index)
    compare(torch, lambda m, x, i: m.gather(x, dim, i), _r(rng, 4, 3), index, views=[T])
    check_gradients(lambda m, x, i: x.gather(dim, i), a, index)
    check_gradients(lambda m, x, i: x.gather(dim, i), _r(rng, 4, 3), index, views=[T])
    check_gradients(lambda m, x, i: x.expand(3, 4).gather(dim, i), _r(rng, 1, 4), index)


def test_gather_with_repeated_indices_accumulates_grad(torch, rng):
    a = _r(rng, 3)
    compare(torch, lambda m, x, i: x.gather(0, i), a, np.array([0, 0, 2, 0]))
    compare(torch, lambda m, x, i: m.take_along_dim(x, i, 1), _r(rng, 2, 3), np.array([[2, 0], [1, 1]]))
    compare(torch, lambda m, x, i: m.take_along_dim(x, i), _r(rng, 2, 3), np.array([5, 0]))
    compare(torch, lambda m, x, i: m.take_along_dim(x, i, 0), _r(rng, 2, 3), np.array([[1], [0]]))
    compare(torch, lambda m, x, i: x.gather(0, i), np.array(1.5), np.array(0))


@pytest.mark.parametrize("op", [
    lambda m, x: x.gather(0, m.tensor([[5, 0, 0, 0]])),
    lambda m, x: x.gather(0, m.tensor([[-1, 0, 0, 0]])),
    lambda m, x: x.gather(0, m.tensor([[0.0, 0, 0, 0]])),
    lambda m, x: x.gather(0, m.tensor([0, 0])),
    lambda m, x: x.gather(1, m.zeros(4, 4, dtype=m.long)),
    lambda m, x: x.gather(2, m.zeros(1, 4, dtype=m.long)),
])
def test_gather_errors(torch, rng, op):
    same_error(torch, op, _r(rng, 3, 4))


# -- scatter / scatter_add -----------------------------------------------------------------------


def test_scatter_src_and_value(torch, rng):
    a, src = _r(rng, 4, 3), _r(rng, 3, 3)
    index = _distinct_rows(rng, 2, 3, 4)
    compare(torch, lambda m, x, i, s: x.scatter(0, i, s), a, index, src[:2])
    compare(torch, lambda m, x, i, s: x.scatter(0, i, s), a, index, src, grad=False)  # src larger than index
    compare(torch, lambda m, x, i: x.scatter(0, i, 2.5), a, index)
    compare(torch, lambda m, x, i: m.scatter(x, 0, i, value=-1.0), a, index)
    compare(torch, lambda m, x, i, s: x.scatter(1, i, s), _r(rng, 3, 4), index.T.copy() % 4, src[:, :2])
    compare(torch, lambda m, x, i, s: x.scatter(0, i, s), _r(rng, 3, 4), index, src[:2], views=[T])
    check_gradients(lambda m, x, i, s: x.scatter(0, i, s), a, index, src)
    check_gradients(lambda m, x, i: x.scatter(0, i, 0.5), a, index)
    check_gradients(lambda m, x, i, s: x.scatter(0, i, s), _r(rng, 3, 4), index, src, views=[T])


def test_scatter_in_place_writes_through_a_view(torch, rng):
    base = _r(rng, 5, 3)
    index = _distinct_rows(rng, 2, 3, 4)
    src = _r(rng, 2, 3)

    def op(m, b, i, s):
        y = b * 1
        y[1:].scatter_(0, i, s)
        return y

    compare(torch, op, base, index, src)
    check_gradients(op, base, index, src)


def test_scatter_add_counts_like_bincount(torch, rng):
    labels = rng.integers(0, 5, size=40)
    ones = np.ones(40, dtype="float32")
    ours, theirs = compare(torch, lambda m, z, i, o: z.scatter_add(0, i, o), np.zeros(5, dtype="float32"),
                           labels, ones)
    np.testing.assert_array_equal(ours.detach().numpy(), np.bincount(labels, minlength=5))
    compare(torch, lambda m, z, i, o: z.scatter_add_(0, i, o), np.zeros(5, dtype="float32"), labels, ones,
            grad=False)


@pytest.mark.parametrize("dim", [0, 1])
def test_scatter_add_with_repeats(torch, rng, dim):
    a = _r(rng, 3, 4)
    index = rng.integers(0, a.shape[dim], size=(3, 4))
    src = _r(rng, 3, 5)  # larger than index: only its leading block is used
    compare(torch, lambda m, x, i, s: x.scatter_add(dim, i, s), a, index, src, grad=False)
    compare(torch, lambda m, x, i, s: x.scatter_add(dim, i, s[:, :4]), a, index, src)
    check_gradients(lambda m, x, i, s: x.scatter_add(dim, i, s), a, index, src)
    check_gradients(lambda m, x, i, s: x.scatter_add(dim, i, s), _r(rng, 4, 3), index, src, views=[T])
    check_gradients(lambda m, x, i, s: x.scatter_add(dim, i, s.expand(3, 5)), a, index, _r(rng, 1, 5))


@pytest.mark.parametrize("op", [
    lambda m, x, s: x.scatter(0, m.tensor([[5, 0, 0, 0]]), 1.0),
    lambda m, x, s: x.scatter(0, m.tensor([[-1, 0, 0, 0]]), 1.0),
    lambda m, x, s: x.scatter(0, m.tensor([[0, 1, 2, 0]]), s.double()),
    lambda m, x, s: x.scatter_add(0, m.tensor([[0, 1, 2, 0]]), s.double()),
    lambda m, x, s: x.scatter(0, m.tensor([[0.0, 1, 2, 0]]), 1.0),
    lambda m, x, s: x.scatter(0, m.tensor([0, 1]), 1.0),
    lambda m, x, s: x.scatter(0, m.zeros(1, 5, dtype=m.long), m.ones(1, 5)),
    lambda m, x, s: x.scatter(0, m.zeros(1, 5, dtype=m.long), 1.0),
    lambda m, x, s: x.scatter(0, m.zeros(1, 4, dtype=m.long), m.ones(1, 3)),
    lambda m, x, s: x.scatter(0, m.zeros(1, 4, dtype=m.long), s, reduce="foo"),
    lambda m, x, s: x.scatter_reduce(0, m.zeros(1, 4, dtype=m.long), s, "foo"),
    lambda m, x, s: x.scatter_(0, m.tensor([[5, 0, 0, 0]]), 1.0),
    lambda m, x, s: x.scatter_add_(0, m.tensor([[5, 0, 0, 0]]), s),
])
@pytest.mark.filterwarnings("ignore:The reduce argument")
def test_scatter_errors(torch, rng, op):
    same_error(torch, op, _r(rng, 3, 4).astype("float32"), _r(rng, 3, 4).astype("float32"))


@pytest.mark.filterwarnings("ignore:The reduce argument")
@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_legacy_reduce(torch, rng, reduce):
    a, src = _r(rng, 3, 4), _r(rng, 3, 4)
    index = rng.integers(0, 3, size=(2, 4))
    compare(torch, lambda m, x, i, s: x.scatter(0, i, s, reduce=reduce), a, index, src, grad=False)
    compare(torch, lambda m, x, i: x.scatter(0, i, 2.0, reduce=reduce), a, index, grad=False)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce(torch, rng, reduce, include_self):
    a, src = _r(rng, 3, 4), _r(rng, 5, 4)  # src may be larger than index; only its leading block is used
    index = rng.integers(0, 3, size=(4, 4))
    op = lambda m, x, i, s: x.scatter_reduce(0, i, s, reduce, include_self=include_self)  # noqa: E731
    compare(torch, op, a, index, src[:4])
    compare(torch, op, a, index, src, grad=False)
    compare(torch, op, np.arange(12).reshape(3, 4) - 5, index, (np.arange(20).reshape(5, 4) * 7) % 11 - 3)
    check_gradients(op, a, index, src, second_order=reduce in ("sum", "mean"))
    check_gradients(op, _r(rng, 4, 3), index, src, views=[T], second_order=False)


@pytest.mark.parametrize("reduce", ["prod", "amax", "amin"])
def test_scatter_reduce_zeros_and_ties(torch, rng, reduce):
    """Products through zeros and max/min ties: PyTorch's gradient rules, not just finite differences."""
    a = np.array([0.0, 2.0, 3.0, 3.0])
    src = np.array([0.0, 3.0, 1.0, 3.0, 0.0, 5.0])
    index = np.array([0, 2, 1, 3, 1, 3])
    for include_self in (True, False):
        compare(torch, lambda m, x, i, s: x.scatter_reduce(0, i, s, reduce, include_self=include_self),
                a, index, src)


def test_scatter_reduce_in_place(torch, rng):
    compare(torch, lambda m, x, i, s: x.clone().scatter_reduce_(0, i, s, "amax"), _r(rng, 3), np.array([0, 0, 2]),
            _r(rng, 3))


# -- index_select / index_add / index_copy / index_fill ------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select(torch, rng, dim):
    a = _r(rng, 3, 4)
    index = np.array([2, 0, 2])
    compare(torch, lambda m, x, i: x.index_select(dim, i), a, index)
    compare(torch, lambda m, x, i: m.index_select(x, dim, i), _r(rng, 4, 3), index, views=[T])
    compare(torch, lambda m, x, i: x.index_select(dim, i), a, np.array(1))
    compare(torch, lambda m, x, i: x.index_select(dim, i.int()), a, index)
    check_gradients(lambda m, x, i: x.index_select(dim, i), a, index)
    check_gradients(lambda m, x, i: x.index_select(dim, i), _r(rng, 4, 3), index, views=[T])
    check_gradients(lambda m, x, i: x.expand(3, 4).index_select(dim, i), _r(rng, 3, 1), index)


@pytest.mark.parametrize("alpha", [1, 2.5])
def test_index_add(torch, rng, alpha):
    a, source = _r(rng, 4, 3), _r(rng, 3, 3)
    index = np.array([0, 2, 0])  # a repeated position accumulates
    compare(torch, lambda m, x, i, s: x.index_add(0, i, s, alpha=alpha), a, index, source)
    compare(torch, lambda m, x, i, s: x.index_add(1, i, s), _r(rng, 4, 3), index, source, views=[T])
    check_gradients(lambda m, x, i, s: x.index_add(0, i, s, alpha=alpha), a, index, source)
    check_gradients(lambda m, x, i, s: x.index_add(1, i, s), _r(rng, 4, 3), index, source, views=[T, None, T])
    check_gradients(lambda m, x, i, s: x.index_add(0, i, s.expand(3, 3)), a, index, _r(rng, 1, 3))


def test_index_add_in_place_as_the_course_uses_it(torch, rng):
    compare(torch, lambda m, x, i, s: x.index_add_(0, i, s), np.zeros(5, dtype="float32"),
            np.array([1, 3, 1]), np.ones(3, dtype="float32"), grad=False)

    def op(m, base, i, s):
        y = base * 1
        y[1:].index_add_(0, i, s)
        return y

    compare(torch, op, _r(rng, 5, 2), np.array([0, 3, 0]), _r(rng, 3, 2))
    check_gradients(op, _r(rng, 5, 2), np.array([0, 3, 0]), _r(rng, 3, 2))


def test_as_strided_backward_uses_index_add(torch, rng):
    compare(torch, lambda m, x: x.as_strided((3, 3), (1, 1)), _r(rng, 5))


def test_index_copy_and_index_fill(torch, rng):
    a, source = _r(rng, 4, 3), _r(rng, 2, 3)
    index = np.array([3, 1])
    compare(torch, lambda m, x, i, s: x.index_copy(0, i, s), a, index, source)
    compare(torch, lambda m, x, i, s: x.clone().index_copy_(1, i, s), _r(rng, 4, 3), index, source.T.copy(),
            views=[T])
    check_gradients(lambda m, x, i, s: x.index_copy(0, i, s), a, index, source)
    compare(torch, lambda m, x, i: x.index_fill(0, i, -2.0), a, np.array([0, -1, 0]))
    compare(torch, lambda m, x, i, v: x.index_fill(1, i, v), a, np.array([2, 2]), np.array(0.5))
    compare(torch, lambda m, x, i: x.clone().index_fill_(1, i, 7), a, np.array([1]))
    check_gradients(lambda m, x, i: x.index_fill(0, i, 3.0), a, np.array([0, -1]))
    check_gradients(lambda m, x, i, v: x.index_fill(1, i, v), a, np.array([2, 2, 0]), np.array(0.5))


@pytest.mark.parametrize("op", [
    lambda m, x: x.index_select(0, m.tensor([3])),
    lambda m, x: x.index_select(0, m.tensor([-1])),
    lambda m, x: x.index_select(0, m.tensor([[0]])),
    lambda m, x: x.index_select(0, m.tensor([0.0])),
    lambda m, x: x.index_add(0, m.tensor([0]), m.ones(2, 4)),
    lambda m, x: x.index_add(0, m.tensor([5]), m.ones(1, 4)),
    lambda m, x: x.index_add(0, m.tensor([-1]), m.ones(1, 4)),
    lambda m, x: x.index_add(0, m.tensor([0]), m.ones(1, 3)),
    lambda m, x: x.index_add(0, m.tensor([0]), m.ones(1, 4, dtype=m.float64)),
    lambda m, x: x.index_add(0, m.tensor([0.0]), m.ones(1, 4)),
    lambda m, x: x.index_add(0, m.tensor([[0]]), m.ones(1, 4)),
    lambda m, x: x.index_add_(0, m.tensor([5]), m.ones(1, 4)),
    lambda m, x: x.index_copy(0, m.tensor([0]), m.ones(2, 4)),
    lambda m, x: x.index_copy(0, m.tensor([7]), m.ones(1, 4)),
    lambda m, x: x.index_copy(0, m.tensor([0.0]), m.ones(1, 4)),
    lambda m, x: x.index_copy(0, m.tensor([0], dtype=m.int32), m.ones(1, 4)),
    lambda m, x: x.index_copy(0, m.tensor([[0]]), m.ones(1, 4)),
    lambda m, x: x.index_copy(0, m.tensor([0]), m.ones(1, 4, dtype=m.float64)),
    lambda m, x: x.index_copy(0, m.tensor([0]), m.ones(1, 3)),
    lambda m, x: x.index_fill(0, m.tensor([0.0]), 1.0),
    lambda m, x: x.index_fill(0, m.tensor([5]), 1.0),
    lambda m, x: x.index_fill(0, m.tensor([[0]]), 1.0),
    lambda m, x: x.index_fill(0, m.tensor([0]), m.ones(2)),
])
def test_index_errors(torch, rng, op):
    same_error(torch, op, _r(rng, 3, 4).astype("float32"))


# -- masks ---------------------------------------------------------------------------------------


def test_masked_fill(torch, rng):
    a = _r(rng, 3, 4)
    mask = rng.random((3, 4)) > 0.5
    compare(torch, lambda m, x, k: x.masked_fill(k, 0.5), a, mask)
    compare(torch, lambda m, x, k: x.masked_fill(k, -1e9), a, mask[0])  # broadcast mask
    compare(torch, lambda m, x, k: x.masked_fill(k, 1.0), a[0], mask)  # broadcast input
    compare(torch, lambda m, x, k: x.masked_fill(k, 1.0), _r(rng, 4, 3), mask, views=[T])
    compare(torch, lambda m, x, k, v: x.masked_fill(k, v), a, mask, np.array(2.0))
    compare(torch, lambda m, x, k: x.masked_fill(k, 2.7), np.arange(12).reshape(3, 4), mask)
    check_gradients(lambda m, x, k: x.masked_fill(k, 0.5), a, mask)
    check_gradients(lambda m, x, k: x.masked_fill(k, 0.5), a[:1], mask)
    check_gradients(lambda m, x, k, v: x.masked_fill(k, v), _r(rng, 4, 3), mask, np.array(2.0), views=[T])


def test_masked_fill_in_place(torch, rng):
    mask = rng.random((3, 4)) > 0.5
    compare(torch, lambda m, x, k: (x * 1).masked_fill_(k, 9.0), _r(rng, 3, 4), mask)
    compare(torch, lambda m, x, k: (x * 1).t().masked_fill_(k.t(), 9.0), _r(rng, 3, 4), mask)
    same_error(torch, lambda m, x, k: x.masked_fill_(k, 1.0), _r(rng, 3, 4), rng.random((2, 3, 4)) > 0.5)


@pytest.mark.parametrize("op", [
    lambda m, x: x.masked_fill(m.ones(3, 4), 1.0),
    lambda m, x: x.masked_fill(m.ones(3, 4, dtype=m.bool), m.ones(2)),
    lambda m, x: x.masked_fill(m.ones(2, 4, dtype=m.bool), 1.0),
    lambda m, x: x.masked_select(m.ones(3, 4)),
    lambda m, x: x.masked_select(m.ones(2, 4, dtype=m.bool)),
    lambda m, x: x.masked_scatter(x > 0, m.ones(0)),
    lambda m, x: x.masked_scatter(m.ones(3, 4), x),
    lambda m, x: x.masked_scatter(x > -10, x.double()),
    lambda m, x: m.where(m.ones(3, 4), x, x),
    lambda m, x: m.where(x > 0, x, m.ones(2, 4)),
])
def test_mask_errors(torch, rng, op):
    same_error(torch, op, _r(rng, 3, 4).astype("float32"))


def test_masked_select_and_masked_scatter(torch, rng):
    a = _r(rng, 3, 4)
    mask = rng.random((3, 4)) > 0.5
    compare(torch, lambda m, x, k: x.masked_select(k), a, mask)
    compare(torch, lambda m, x, k: m.masked_select(x, k), a[0], mask)  # the input broadcasts
    compare(torch, lambda m, x, k: x.masked_select(k), _r(rng, 4, 3), mask, views=[T])
    check_gradients(lambda m, x, k: x.masked_select(k), a, mask)
    check_gradients(lambda m, x, k: x.masked_select(k), a[:1], mask)
    check_gradients(lambda m, x, k: x.masked_select(k), _r(rng, 4, 3), mask, views=[T])
    source = _r(rng, 14)
    compare(torch, lambda m, x, k, s: x.masked_scatter(k, s), a, mask, source)
    compare(torch, lambda m, x, k, s: (x * 1).masked_scatter_(k, s), a, mask, source)
    check_gradients(lambda m, x, k, s: x.masked_scatter(k, s), a, mask, source)


def test_where(torch, rng):
    a, b = _r(rng, 3, 4), _r(rng, 4)
    cond = rng.random((3, 4)) > 0.5
    compare(torch, lambda m, c, x, y: m.where(c, x, y), cond, a, b)
    compare(torch, lambda m, c, x: m.where(c, x, 0.0), cond, a)
    compare(torch, lambda m, c, x: m.where(c, 1.0, x), cond, a)
    compare(torch, lambda m, c: m.where(c, 1, 2.5), cond)
    compare(torch, lambda m, c: m.where(c, 1, 2), cond)
    compare(torch, lambda m, c, x: m.where(c, x, 2.5), cond, np.arange(12).reshape(3, 4))
    compare(torch, lambda m, c, x, y: m.where(c, x, y), cond, a.astype("float32"), b)
    compare(torch, lambda m, c, x, y: x.where(c, y), cond, a, b)
    compare(torch, lambda m, c, x: m.where(c, x, 0.0), cond, _r(rng, 4, 3), views=[None, T])
    compare(torch, lambda m, c, x: m.where(c, x, 0.0), cond.T.copy(), _r(rng, 4, 3), views=[T, T])
    check_gradients(lambda m, c, x, y: m.where(c, x, y), cond, a, b)
    check_gradients(lambda m, c, x, y: m.where(c, x, y), cond, _r(rng, 4, 3), _r(rng, 3, 1), views=[None, T])


@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=3), seed=st.integers(0, 100))
@HYPO
def test_nonzero_and_one_argument_where(torch, shape, seed):
    rng = np.random.default_rng(seed)
    a = (rng.random(shape) > 0.5) * rng.integers(1, 5, size=shape)
    ours, theirs = tensorlab.tensor(a), torch.tensor(a)
    assert np.array_equal(ours.nonzero().numpy(), theirs.nonzero().numpy())
    assert tuple(ours.nonzero().shape) == tuple(theirs.nonzero().shape)
    assert ours.nonzero().dtype is tensorlab.int64
    for o, t in zip(tensorlab.nonzero(ours, as_tuple=True), torch.nonzero(theirs, as_tuple=True), strict=True):
        np.testing.assert_array_equal(o.numpy(), t.numpy())
    for o, t in zip(tensorlab.where(ours > 0), torch.where(theirs > 0), strict=True):
        np.testing.assert_array_equal(o.numpy(), t.numpy())
    np.testing.assert_array_equal(tensorlab.argwhere(ours).numpy(), torch.argwhere(theirs).numpy())


@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), dim=st.integers(0, 2), seed=st.integers(0, 99))
@HYPO
def test_gather_scatter_add_hypothesis(torch, shape, dim, seed):
    rng = np.random.default_rng(seed)
    dim = dim % len(shape)
    a = rng.standard_normal(shape)
    index_shape = [rng.integers(1, n + 1) for n in shape]
    index = rng.integers(0, shape[dim], size=index_shape)
    compare(torch, lambda m, x, i: x.gather(dim, i), a, index)
    compare(torch, lambda m, x, i, s: x.scatter_add(dim, i, s), a, index, rng.standard_normal(index_shape))
    check_gradients(lambda m, x, i: x.gather(dim, i), a, index, second_order=False)


# -- in-place rules ------------------------------------------------------------------------------

IN_PLACE = [
    lambda m, x: x.masked_fill_(m.tensor([True, False, True]), 0.5),
    lambda m, x: x.scatter_(0, m.tensor([2, 0]), m.tensor([1.0, 2.0], dtype=x.dtype)),
    lambda m, x: x.scatter_(0, m.tensor([2, 0]), 4.0),
    lambda m, x: x.scatter_add_(0, m.tensor([2, 2]), m.tensor([1.0, 2.0], dtype=x.dtype)),
    lambda m, x: x.scatter_reduce_(0, m.tensor([2, 2]), m.tensor([1.0, 2.0], dtype=x.dtype), "amax"),
    lambda m, x: x.index_add_(0, m.tensor([1, 1]), m.tensor([1.0, 2.0], dtype=x.dtype)),
    lambda m, x: x.index_copy_(0, m.tensor([1]), m.tensor([5.0], dtype=x.dtype)),
    lambda m, x: x.index_fill_(0, m.tensor([1]), 5.0),
    lambda m, x: x.masked_scatter_(m.tensor([True, False, True]), m.tensor([7.0, 8.0], dtype=x.dtype)),
]


@pytest.mark.parametrize("op", IN_PLACE)
def test_in_place_ops_follow_pytorch_rules(torch, op):
    data = np.array([0.5, 1.5, 2.5])
    for m in (tensorlab, torch):  # a leaf that requires grad refuses, and keeps its values
        leaf = m.tensor(data, requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            op(m, leaf)
        np.testing.assert_array_equal(leaf.detach().numpy(), data)
    results = {}
    for m in (tensorlab, torch):
        leaf = m.tensor(data, requires_grad=True)
        y = leaf.exp()  # exp saves its output, which the in-place op then overwrites
        assert op(m, y) is y
        results[m] = (y._version, y.grad_fn.name(), y.detach().numpy().copy())
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()
    ours, theirs = results[tensorlab], results[torch]
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2])


@pytest.mark.parametrize("op", IN_PLACE)
def test_in_place_ops_on_views_backpropagate_to_the_base(torch, rng, op):
    def through_view(m, base):
        y = base * 1
        op(m, y[1])
        return y

    compare(torch, through_view, _r(rng, 3, 3))
    check_gradients(through_view, _r(rng, 3, 3), second_order=False)
