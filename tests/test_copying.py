"""cat/stack and friends, repeat, repeat_interleave, flip, roll, tril/triu -- against PyTorch."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab
from tests.copying_oracle import check_gradients, compare, same_error

pytestmark = pytest.mark.torch
HYPO = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

T = lambda t: t.t()  # noqa: E731 - a transposed (non-contiguous) view
EVERY_OTHER = lambda t: t[:, ::2]  # noqa: E731 - a strided view with gaps


def _r(rng, *shape):
    return rng.standard_normal(shape)


# -- cat ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, -1, -2])
def test_cat_values_strides_grads(torch, rng, dim):
    a, b = _r(rng, 2, 3), _r(rng, 2, 3)
    compare(torch, lambda m, x, y: m.cat([x, y], dim), a, b)
    compare(torch, lambda m, x, y: m.cat((x, y, x), dim=dim), a, b)
    check_gradients(lambda m, x, y: m.cat([x, y, x], dim), a, b)


def test_cat_of_non_contiguous_and_broadcast_inputs(torch, rng):
    a, b = _r(rng, 4, 3), _r(rng, 3, 2)
    compare(torch, lambda m, x, y: m.cat([x, y], 1), a, b, views=[T, None])
    check_gradients(lambda m, x, y: m.cat([x, y], 1), a, b, views=[T, None])
    c = _r(rng, 1, 3)
    compare(torch, lambda m, x, y: m.cat([x.expand(3, 3), y], 0), c, _r(rng, 2, 3))
    check_gradients(lambda m, x, y: m.cat([x.expand(3, 3), y], 0), c, _r(rng, 2, 3))
    check_gradients(lambda m, x: m.cat([x, x], 0), _r(rng, 3, 8), views=[EVERY_OTHER])


def test_cat_promotes_dtypes_and_routes_grads_back_in_each_dtype(torch, rng):
    compare(torch, lambda m, x, y: m.cat([x, y]), np.arange(3), _r(rng, 2).astype("float32"))
    compare(torch, lambda m, x, y: m.cat([x, y]), np.array([True, False]), np.arange(2, dtype="int32"))
    compare(torch, lambda m, x, y: m.cat([x, y]), _r(rng, 2).astype("float32"), _r(rng, 2))


def test_cat_skips_legacy_empty_1d_tensors(torch, rng):
    a = _r(rng, 2, 3)
    compare(torch, lambda m, x, e: m.cat([x, e, x]), a, np.zeros(0))
    compare(torch, lambda m, e: m.cat([e, e]), np.zeros(0, dtype="float32"))
    compare(torch, lambda m, x, e: m.cat([e, x], 1), a, np.zeros((2, 0)))


@pytest.mark.parametrize("op", [
    lambda m, x, y: m.cat([x, y]),
    lambda m, x, y: m.cat([x, y], 1),
    lambda m, x, y: m.cat([x, y], 2),
    lambda m, x, y: m.cat([x, y], -3),
    lambda m, x, y: m.cat([x, y.sum()]),
    lambda m, x, y: m.cat([x, y[0]]),
    lambda m, x, y: m.cat([]),
    lambda m, x, y: m.stack([x, y]),
    lambda m, x, y: m.stack([]),
    lambda m, x, y: m.stack([x, x], 3),
    lambda m, x, y: m.hstack([]),
    lambda m, x, y: m.vstack([]),
])
def test_cat_and_stack_errors(torch, rng, op):
    same_error(torch, op, _r(rng, 3, 4), _r(rng, 2, 5))


def test_cat_error_names_the_mismatching_tensor(torch, rng):
    err = same_error(torch, lambda m, x, y: m.cat([x, x, y]), _r(rng, 3, 4), _r(rng, 2, 5))
    assert "Sizes of tensors must match except in dimension 0" in str(err)
    assert "tensor number 2" in str(err)


@HYPO
@given(shapes=st.lists(hnp.array_shapes(min_dims=2, max_dims=3, min_side=0, max_side=4), min_size=1, max_size=3),
       dim=st.integers(-3, 2))
def test_cat_hypothesis(torch, shapes, dim):
    rng = np.random.default_rng(len(shapes))
    ndim = len(shapes[0])
    d = dim % ndim if -ndim <= dim < ndim else 0
    shapes = [tuple(s[k] if k == d else shapes[0][k] for k in range(ndim)) if len(s) == ndim else shapes[0]
              for s in shapes]
    arrays = [rng.standard_normal(s) for s in shapes]
    op = lambda m, *ts: m.cat(ts, d)  # noqa: E731
    compare(torch, op, *arrays)
    if all(a.size for a in arrays):
        check_gradients(op, *arrays, second_order=False)


# -- stack / hstack / vstack / dstack / column_stack ---------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_stack(torch, rng, dim):
    a, b = _r(rng, 2, 3), _r(rng, 2, 3)
    compare(torch, lambda m, x, y: m.stack([x, y, x], dim), a, b)
    check_gradients(lambda m, x, y: m.stack([x, y], dim), a, b)
    check_gradients(lambda m, x, y: m.stack([x, y], dim), _r(rng, 3, 2), b, views=[T, None])


@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "column_stack", "row_stack"])
@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (3,)], [(2, 3), (2, 3)], [(2, 3, 1), (2, 3, 2)]])
def test_stacking_helpers(torch, rng, name, shapes):
    arrays = [rng.standard_normal(s) for s in shapes]
    op = lambda m, *ts: getattr(m, name)(ts)  # noqa: E731
    try:
        getattr(torch, name)([torch.tensor(a) for a in arrays])
    except RuntimeError:
        same_error(torch, op, *arrays)
        return
    compare(torch, op, *arrays)
    check_gradients(op, *arrays, second_order=False)


def test_out_argument(torch, rng):
    a = _r(rng, 2, 2)
    out = tensorlab.empty(0, dtype=tensorlab.float64)
    result = tensorlab.cat([tensorlab.tensor(a), tensorlab.tensor(a)], out=out)
    assert result is out and out.shape == (4, 2)
    np.testing.assert_array_equal(out.numpy(), np.concatenate([a, a]))


# -- repeat / repeat_interleave -------------------------------------------------------------------


@pytest.mark.parametrize("sizes", [(2, 1), (1, 3), (2, 2), (3, 1, 2), (0, 2), (1, 1)])
def test_repeat(torch, rng, sizes):
    a = _r(rng, 2, 3)
    compare(torch, lambda m, x: x.repeat(*sizes), a)
    compare(torch, lambda m, x: x.repeat(sizes), a, views=[T])
    if 0 in sizes:
        return  # gradcheck needs a non-empty result; compare() checked the (empty) gradient
    check_gradients(lambda m, x: x.repeat(*sizes), a)
    check_gradients(lambda m, x: x.repeat(*sizes), _r(rng, 3, 2), views=[T])
    check_gradients(lambda m, x: x.expand(2, 3).repeat(*sizes), _r(rng, 1, 3))


@pytest.mark.parametrize("op", [lambda m, x: x.repeat(2), lambda m, x: x.repeat(-1, 2),
                                lambda m, x: x.repeat_interleave(-1),
                                lambda m, x: x.repeat_interleave(m.tensor([1, 2]), dim=0),
                                lambda m, x: x.repeat_interleave(m.tensor([1, -2, 1]), dim=0),
                                lambda m, x: x.repeat_interleave(m.tensor([[1]]), dim=0),
                                lambda m, x: x.repeat_interleave(m.tensor([1.0, 2.0, 1.0]), dim=0)])
def test_repeat_errors(torch, rng, op):
    same_error(torch, op, _r(rng, 3, 4))


@pytest.mark.parametrize("repeats,dim", [(2, None), (2, 0), (3, 1), (0, 1), (1, -1)])
def test_repeat_interleave_int(torch, rng, repeats, dim):
    a = _r(rng, 3, 4)
    compare(torch, lambda m, x: x.repeat_interleave(repeats, dim=dim), a)
    compare(torch, lambda m, x: m.repeat_interleave(x, repeats, dim), a, views=[EVERY_OTHER])
    if repeats == 0:
        return
    check_gradients(lambda m, x: x.repeat_interleave(repeats, dim), a)
    check_gradients(lambda m, x: x.repeat_interleave(repeats, dim), _r(rng, 4, 3), views=[T])


def test_repeat_interleave_tensor_counts(torch, rng):
    a = _r(rng, 3, 4)
    counts = np.array([1, 0, 3])
    compare(torch, lambda m, x, r: x.repeat_interleave(r, dim=0), a, counts)
    compare(torch, lambda m, x, r: x.repeat_interleave(r), a, np.arange(12) % 3)
    compare(torch, lambda m, x, r: x.repeat_interleave(r, dim=1), a, np.array(2))
    compare(torch, lambda m, r: m.repeat_interleave(r), np.array([1, 2, 0, 1]))
    check_gradients(lambda m, x, r: x.repeat_interleave(r, dim=0), a, counts)


# -- flip / roll ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dims", [(0,), (1,), (0, 1), (-1,), ()])
def test_flip(torch, rng, dims):
    a = _r(rng, 3, 4)
    compare(torch, lambda m, x: x.flip(dims), a)
    compare(torch, lambda m, x: m.flip(x, dims), _r(rng, 4, 3), views=[T])  # keeps the transposed layout
    compare(torch, lambda m, x: x.flip(*dims) if dims else x.flip(dims), _r(rng, 3, 8), views=[EVERY_OTHER])
    check_gradients(lambda m, x: x.flip(dims), a)
    check_gradients(lambda m, x: x.flip(dims), _r(rng, 4, 3), views=[T])
    check_gradients(lambda m, x: x.expand(3, 4).flip(dims), _r(rng, 1, 4))


def test_fliplr_flipud_and_0d(torch, rng):
    compare(torch, lambda m, x: x.fliplr(), _r(rng, 3, 4))
    compare(torch, lambda m, x: m.flipud(x), _r(rng, 3, 4))
    compare(torch, lambda m, x: x.flip(0), np.array(2.0))
    same_error(torch, lambda m, x: x.flip(0, 0), _r(rng, 3, 4))
    same_error(torch, lambda m, x: x.flip(2), _r(rng, 3, 4))
    same_error(torch, lambda m, x: x.fliplr(), _r(rng, 3))


@pytest.mark.parametrize("shifts,dims", [(1, 0), (-1, 1), (5, None), ((1, 2), (0, 1)), (0, 0), (7, -1)])
def test_roll(torch, rng, shifts, dims):
    a = _r(rng, 3, 4)
    compare(torch, lambda m, x: x.roll(shifts, dims), a)
    compare(torch, lambda m, x: m.roll(x, shifts, dims), _r(rng, 4, 3), views=[T])
    check_gradients(lambda m, x: x.roll(shifts, dims), a)
    check_gradients(lambda m, x: x.roll(shifts, dims), _r(rng, 3, 8), views=[EVERY_OTHER])


def test_roll_errors(torch, rng):
    same_error(torch, lambda m, x: x.roll(1, 2), _r(rng, 3, 4))
    same_error(torch, lambda m, x: x.roll((1, 2), (0,)), _r(rng, 3, 4))


# -- tril / triu ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tril", "triu"])
@pytest.mark.parametrize("diagonal", [0, 1, -1, 5, -5])
def test_triangles(torch, rng, name, diagonal):
    a = _r(rng, 3, 4)
    compare(torch, lambda m, x: getattr(x, name)(diagonal), a)
    compare(torch, lambda m, x: getattr(m, name)(x, diagonal), _r(rng, 2, 3, 3))
    compare(torch, lambda m, x: getattr(x, name)(diagonal=diagonal), _r(rng, 4, 3), views=[T])
    check_gradients(lambda m, x: getattr(x, name)(diagonal), a)
    check_gradients(lambda m, x: getattr(x, name)(diagonal), _r(rng, 4, 3), views=[T])


@pytest.mark.parametrize("name", ["tril", "triu"])
def test_triangle_in_place_and_errors(torch, rng, name):
    a = _r(rng, 3, 3)
    compare(torch, lambda m, x: getattr(x.clone(), name + "_")(1), a)
    compare(torch, lambda m, x: getattr(x.clone().t(), name + "_")(), a)
    same_error(torch, lambda m, x: getattr(x, name)(), np.array(1.0))
    same_error(torch, lambda m, x: getattr(x, name)(), _r(rng, 3))
    same_error(torch, lambda m, x: getattr(x, name + "_")(), _r(rng, 3))


def test_in_place_triangle_writes_through_views(torch, rng):
    base = tensorlab.tensor(_r(rng, 4, 4))
    expected = base.numpy().copy()
    view = base[1:, 1:]
    view.tril_()
    expected[1:, 1:] = np.tril(expected[1:, 1:])
    np.testing.assert_array_equal(base.numpy(), expected)
    leaf = tensorlab.tensor(_r(rng, 2, 2), requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        leaf.tril_()
