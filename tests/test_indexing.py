"""Indexing against PyTorch: views for basic indices (exact strides, offsets, grad_fn chains), copies for
advanced ones (NumPy's placement rule), assignment writing through shared storage, index_put_, errors,
gradients and gradcheck."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck
from tests.tensor_core_oracle import chain, raises_like, same, values

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def source(L, kind="contiguous"):
    """A float64 leaf of shape (2, 3, 4) requiring grad, contiguous or not."""
    if kind == "contiguous":
        x = L.arange(24, dtype=L.float64).reshape(2, 3, 4)
    else:
        x = L.arange(24, dtype=L.float64).reshape(4, 3, 2).permute(2, 1, 0)
    return x.detach().requires_grad_()


def T(L, data, dtype=None):
    return L.tensor(data, dtype=dtype)


BASIC = {
    "int": lambda L: 1,
    "neg_int": lambda L: -1,
    "bare_full_slice": lambda L: slice(None),
    "bare_slice": lambda L: slice(0, 1),
    "tuple_full": lambda L: (slice(None), slice(None)),
    "tuple_full_clamped": lambda L: (slice(0, 10),),
    "slice_step": lambda L: (slice(None), slice(None, None, 2)),
    "slice_step3": lambda L: (Ellipsis, slice(1, None, 3)),
    "int_int": lambda L: (1, 2),
    "int_int_int": lambda L: (1, 2, 3),
    "neg_mix": lambda L: (-1, slice(-2, None), -3),
    "none": lambda L: None,
    "none_tuple": lambda L: (None,),
    "none_middle": lambda L: (slice(None), None, 0),
    "none_none": lambda L: (None, None),
    "ellipsis": lambda L: Ellipsis,
    "ellipsis_int": lambda L: (Ellipsis, 2),
    "int_ellipsis_none": lambda L: (0, Ellipsis, None),
    "two_ellipses": lambda L: (Ellipsis, 0, Ellipsis),
    "two_ellipses_mid": lambda L: (0, Ellipsis, 1, Ellipsis),
    "empty_slice": lambda L: (slice(2, 1),),
    "slice_past_end": lambda L: (slice(5, 9),),
    "zero_d_int_tensor": lambda L: T(L, 1),
    "zero_d_int_tensors": lambda L: (T(L, 1), T(L, 0)),
    "numpy_int": lambda L: (np.int64(1), slice(None), np.int32(2)),
    "true": lambda L: True,
    "false": lambda L: False,
    "int_true": lambda L: (0, True),
    "none_true": lambda L: (None, True),
    "zero_d_bool_tensor": lambda L: T(L, True),
}

ADVANCED = {
    "list": lambda L: [0, 1],
    "list_repeat": lambda L: [1, 1, 0],
    "list_neg": lambda L: [-1, 0],
    "empty_list": lambda L: [],
    "tensor": lambda L: T(L, [1, 0]),
    "int32_tensor": lambda L: T(L, [1, 0], L.int32),
    "tensor_2d": lambda L: T(L, [[0, 1], [1, 1]]),
    "empty_tensor": lambda L: T(L, [], L.int64),
    "second_dim": lambda L: (slice(None), [2, 0]),
    "last_dim": lambda L: (Ellipsis, [3, 0, 1]),
    "adjacent": lambda L: (slice(None), [0, 1], [1, 2]),
    "separated": lambda L: ([0, 1], slice(None), [1, 2]),
    "int_then_list": lambda L: (0, slice(None), [1, 2]),
    "list_int_list": lambda L: ([0, 1], 1, [1, 2]),
    "broadcast": lambda L: (T(L, [[0], [1]]), slice(None), T(L, [1, 2])),
    "broadcast_adjacent": lambda L: (slice(None), T(L, [[0], [2]]), T(L, [1, 3])),
    "none_and_lists": lambda L: (None, [0, 1], None, [1, 2]),
    "list_then_none": lambda L: (slice(None), [0, 1], None),
    "mask_full": lambda L: L.arange(24).reshape(2, 3, 4) % 3 == 0,
    "mask_2d": lambda L: T(L, [[True, False, True], [False, False, True]]),
    "mask_1d": lambda L: (slice(None), T(L, [True, False, True])),
    "mask_list": lambda L: (slice(None), [True, False, True]),
    "mask_and_list": lambda L: (slice(None), T(L, [True, False, True]), [0, 3]),
    "mask_none_selected": lambda L: T(L, [False, False]),
    "nested_tuple": lambda L: ((0, 1),),
    "numpy_array": lambda L: (slice(None), np.array([2, 0])),
    "slice_then_list": lambda L: (slice(1, None), [0, 0, 2], slice(None, None, 2)),
}


@pytest.mark.parametrize("kind", ["contiguous", "permuted"])
@pytest.mark.parametrize("case", list(BASIC))
def test_basic_index_is_a_view_like_torch(torch, case, kind):
    x_ours, x_torch = source(tensorlab, kind), source(torch, kind)
    ours, theirs = x_ours[BASIC[case](tensorlab)], x_torch[BASIC[case](torch)]
    is_view = theirs._base is not None
    same(ours, theirs, layout=is_view)
    assert chain(ours) == chain(theirs)
    assert (ours._base is not None) == is_view
    if is_view:
        assert ours.untyped_storage().data_ptr() == x_ours.untyped_storage().data_ptr()


@pytest.mark.parametrize("kind", ["contiguous", "permuted"])
@pytest.mark.parametrize("case", list(ADVANCED))
def test_advanced_index_copies_like_torch(torch, case, kind):
    x_ours, x_torch = source(tensorlab, kind), source(torch, kind)
    ours, theirs = x_ours[ADVANCED[case](tensorlab)], x_torch[ADVANCED[case](torch)]
    # results of advanced indexing are fresh tensors; on contiguous inputs their strides match too
    same(ours, theirs, layout=kind == "contiguous")
    assert chain(ours) == chain(theirs)
    assert ours._base is None
    assert ours.untyped_storage().data_ptr() != x_ours.untyped_storage().data_ptr()


@pytest.mark.parametrize("case", list(BASIC) + list(ADVANCED))
def test_index_gradients_match_torch(torch, case):
    table = BASIC if case in BASIC else ADVANCED
    grads = []
    for L in (tensorlab, torch):
        x = source(L, "permuted")
        y = x * 1  # a non-leaf, so the index op sits on a real graph
        out = y[table[case](L)]
        weights = L.tensor(np.arange(1.0, out.numel() + 1).reshape(tuple(out.shape)))
        (out * weights).sum().backward()
        grads.append(values(x.grad))
    np.testing.assert_allclose(grads[0], grads[1])


@pytest.mark.parametrize("case", ["slice_step", "neg_mix", "none_middle", "two_ellipses_mid", "list_repeat",
                                  "separated", "broadcast", "mask_2d", "mask_and_list", "slice_then_list"])
def test_index_gradcheck_on_non_contiguous_input(case):
    table = BASIC if case in BASIC else ADVANCED
    x = source(tensorlab, "permuted")
    assert gradcheck(lambda t: t[table[case](tensorlab)], (x,))
    assert gradgradcheck(lambda t: t[table[case](tensorlab)] ** 2, (x,))


# -- errors ----------------------------------------------------------------------------------------------

GET_ERRORS = {
    "oob": lambda L: L.zeros(3, 4)[5],
    "oob_second": lambda L: L.zeros(3, 4)[:, 7],
    "oob_after_none": lambda L: L.zeros(2, 3, 4)[None, 0, 7],
    "oob_after_ellipsis": lambda L: L.zeros(2, 3, 4)[..., 9],
    "oob_negative": lambda L: L.zeros(3)[-4],
    "too_many": lambda L: L.zeros(3, 4)[0, 0, 0],
    "too_many_mask": lambda L: L.zeros(3)[0, L.tensor([True])],
    "negative_step": lambda L: L.zeros(3, 4)[::-1],
    "zero_step": lambda L: L.zeros(3, 4)[::0],
    "float": lambda L: L.zeros(3, 4)[1.5],
    "float_tensor": lambda L: L.zeros(3, 4)[L.tensor([0.0, 1.0])],
    "list_oob": lambda L: L.zeros(3, 4)[[0, 5]],
    "tensor_oob_negative": lambda L: L.zeros(3, 4)[L.tensor([0, -5])],
    "list_oob_last_dim": lambda L: L.zeros(2, 3, 4)[:, :, [0, 9]],
    "list_oob_second_index": lambda L: L.zeros(2, 3, 4)[:, [0, 1], [0, 9]],
    "mask_shape": lambda L: L.zeros(3, 4)[L.tensor([True, False])],
    "mask_shape_2d": lambda L: L.zeros(2, 3, 4)[L.ones(3, 4, dtype=L.bool)],
    "broadcast": lambda L: L.zeros(2, 3, 4)[[0, 1], [0, 1, 2]],
    "zero_d": lambda L: L.tensor(1.0)[0],
    "zero_d_mask": lambda L: L.tensor(1.0)[L.tensor([True, False])],
}


@pytest.mark.parametrize("case", list(GET_ERRORS))
def test_getitem_errors_match_torch(torch, case):
    raises_like(lambda: GET_ERRORS[case](torch), lambda: GET_ERRORS[case](tensorlab))


def _set(index, value):
    def fn(L):
        x = L.zeros(3, 4)
        x[index(L)] = value(L)
    return fn


SET_ERRORS = {
    "basic_shape": _set(lambda L: (slice(0, 2), 0), lambda L: L.ones(3)),
    "basic_too_many_dims": _set(lambda L: 0, lambda L: L.ones(2, 1, 4)),
    "advanced_shape": _set(lambda L: [0, 1], lambda L: L.ones(3)),
    "advanced_leading": _set(lambda L: [0], lambda L: L.ones(2, 1, 4)),
    "advanced_dtype": _set(lambda L: [0, 1], lambda L: L.ones(4, dtype=L.float64)),
    "mask_count": _set(lambda L: L.ones(3, 4, dtype=L.bool), lambda L: L.ones(2)),
    "oob": _set(lambda L: 3, lambda L: 1.0),
    "list_value": _set(lambda L: 0, lambda L: [1.0, 2.0, 3.0, 4.0]),
    "array_value": _set(lambda L: 0, lambda L: np.ones(4)),
    "str_value": _set(lambda L: [0], lambda L: "a"),
    "negative_step": _set(lambda L: slice(None, None, -1), lambda L: 1.0),
    "index_put_too_many": lambda L: L.zeros(3, 4).index_put_((L.tensor([0]), L.tensor([0]), L.tensor([0])),
                                                            L.tensor(1.0)),
    "index_put_dtype": lambda L: L.zeros(3).index_put_((L.tensor([0]),), L.tensor([1])),
    "copy_shape": lambda L: L.zeros(3).copy_(L.ones(2)),
    "copy_bigger": lambda L: L.zeros(3).copy_(L.ones(2, 3)),
    "fill_tensor": lambda L: L.zeros(3).fill_(L.ones(2)),
}


@pytest.mark.parametrize("case", list(SET_ERRORS))
def test_setitem_errors_match_torch(torch, case):
    raises_like(lambda: SET_ERRORS[case](torch), lambda: SET_ERRORS[case](tensorlab))


@pytest.mark.parametrize("case", ["basic_shape", "advanced_shape", "advanced_dtype", "oob"])
def test_failed_assignment_changes_nothing(case):
    x = tensorlab.arange(12.0).reshape(3, 4)
    before = x.clone()
    index = {"basic_shape": (slice(0, 2), 0), "advanced_shape": [0, 1], "advanced_dtype": [0, 1], "oob": 3}[case]
    value = {"basic_shape": tensorlab.ones(3), "advanced_shape": tensorlab.ones(3),
             "advanced_dtype": tensorlab.ones(4, dtype=tensorlab.float64), "oob": 1.0}[case]
    with pytest.raises((RuntimeError, IndexError)):
        x[index] = value
    assert x._version == 0
    np.testing.assert_array_equal(values(x), values(before))


@pytest.mark.parametrize("index", [Ellipsis, slice(None), 0, [0], (slice(None), 0)])
def test_assignment_to_a_leaf_that_requires_grad_fails_like_torch(torch, index):
    def fn(L):
        x = L.zeros(3, 2, requires_grad=True)
        x[index] = 1.0
    raises_like(lambda: fn(torch), lambda: fn(tensorlab))


# -- assignment ---------------------------------------------------------------------------------------------

SETS = {
    "int_scalar": (lambda L: 0, lambda L: 5.0),
    "int_tensor_row": (lambda L: 1, lambda L: L.tensor([1.0, 2.0, 3.0, 4.0])),
    "zero_d_target": (lambda L: (0, 0), lambda L: L.tensor(7.0)),
    "slice_broadcast": (lambda L: (slice(1, None), slice(None, None, 2)), lambda L: L.tensor([[1.0, 2.0]])),
    "leading_ones": (lambda L: 0, lambda L: L.ones(1, 1, 4)),
    "column": (lambda L: (slice(None), 1), lambda L: L.tensor([1.0, 2.0, 3.0])),
    "whole_scalar": (lambda L: Ellipsis, lambda L: 2.0),
    "whole_slice_tensor": (lambda L: slice(None), lambda L: L.tensor([1.0, 2.0, 3.0, 4.0])),
    "none_index": (lambda L: (None, 1), lambda L: 3.0),
    "list_scalar": (lambda L: [0, 2], lambda L: 9.0),
    "list_tensor": (lambda L: [2, 0], lambda L: L.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])),
    "list_repeated": (lambda L: ([0, 0, 1], [1, 1, 2]), lambda L: L.tensor([1.0, 2.0, 3.0])),
    "mask_scalar": (lambda L: L.arange(12).reshape(3, 4) % 2 == 0, lambda L: -1.0),
    "mask_rows": (lambda L: L.tensor([True, False, True]), lambda L: L.tensor([1.0, 2.0, 3.0, 4.0])),
    "view_then_list": (lambda L: (0, [1, 3]), lambda L: L.tensor([1.0, 2.0])),
    "list_leading_ones": (lambda L: [0, 1], lambda L: L.ones(1, 1, 4)),
    "float_into_int_like": (lambda L: (1, 1), lambda L: 2.7),
}


@pytest.mark.parametrize("case", list(SETS))
def test_assignment_matches_torch_and_writes_through(torch, case):
    index, value = SETS[case]
    results = []
    for L in (tensorlab, torch):
        base = L.arange(24.0).reshape(2, 12)
        x = base[1].view(3, 4)  # a view: the write must reach ``base``
        before = x._version
        x[index(L)] = value(L)
        assert x._version > before
        results.append((values(x), values(base)))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_assignment_into_integer_and_bool_tensors_casts_like_torch(torch):
    for L in (tensorlab, torch):
        i = L.arange(3)
        i[0] = 2.7
        i[[1]] = 5.9
        b = L.zeros(3, dtype=L.bool)
        b[1] = 5
        assert values(i).tolist() == [2, 5, 2] and values(b).tolist() == [False, True, False]


@pytest.mark.parametrize("case", list(SETS))
def test_assignment_graph_and_gradients_match_torch(torch, case):
    index, value = SETS[case]
    out = []
    for L in (tensorlab, torch):
        x = L.arange(12, dtype=L.float64).reshape(3, 4).requires_grad_()
        y = x * 1
        v = value(L)
        if isinstance(v, float):
            y[index(L)] = v
        else:
            v = v.to(L.float64).requires_grad_()
            y[index(L)] = v
        assert y.grad_fn is not None
        weights = L.tensor(np.arange(1.0, 13.0).reshape(3, 4))
        (y * weights).sum().backward()
        out.append((y.grad_fn.name(), [n.name() if n is not None else None for n, _ in y.grad_fn.next_functions],
                    values(x.grad), None if isinstance(v, float) else values(v.grad)))
    assert out[0][0] == out[1][0]
    assert out[0][1] == out[1][1]
    np.testing.assert_allclose(out[0][2], out[1][2])
    if out[1][3] is not None:
        np.testing.assert_allclose(out[0][3], out[1][3])


def test_setitem_on_non_leaf_records_copyslices_and_gradcheck():
    def f(x, v):
        y = x * 1
        y[1:, ::2] = v
        y[0, [1, 3]] = v[0] * 2
        return y

    x = tensorlab.rand(3, 4, dtype=tensorlab.float64, requires_grad=True)
    v = tensorlab.rand(2, dtype=tensorlab.float64, requires_grad=True)
    assert f(x, v).grad_fn.name() == "torch::autograd::CopySlices"
    assert gradcheck(f, (x, v))
    assert gradgradcheck(lambda a, b: f(a, b) ** 2, (x, v))


def test_inplace_op_on_view_of_non_leaf_matches_torch(torch):
    grads = []
    for L in (tensorlab, torch):
        x = L.arange(1.0, 7.0, dtype=L.float64).reshape(2, 3).requires_grad_()
        y = x * 1
        y[:, 1].mul_(x[:, 2].detach() + 1)
        y[0].add_(y[1])
        assert y.grad_fn.name() == "torch::autograd::CopySlices"
        (y ** 2).sum().backward()
        grads.append(values(x.grad))
    np.testing.assert_allclose(grads[0], grads[1])


# -- index_put ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_matches_torch(torch, accumulate):
    out = []
    for L in (tensorlab, torch):
        x = L.arange(12, dtype=L.float64).reshape(3, 4).requires_grad_()
        v = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
        idx = (L.tensor([0, 0, 2]), L.tensor([1, 1, 3]))
        y = x.index_put(idx, v, accumulate=accumulate)
        z = (x * 1).index_put_(idx, v, accumulate=accumulate)
        (y * L.arange(12, dtype=L.float64).view(3, 4)).sum().backward()
        out.append((values(y), values(z), y.grad_fn.name(), z.grad_fn.name(), values(x.grad), values(v.grad)))
    for a, b in zip(out[0], out[1]):
        if isinstance(a, str):
            assert a == b
        else:
            np.testing.assert_allclose(a, b)


def test_index_put_gradcheck_with_repeats_and_broadcast():
    idx = (tensorlab.tensor([[0], [2]]), tensorlab.tensor([1, 1, 3]))
    x = tensorlab.rand(3, 4, dtype=tensorlab.float64, requires_grad=True)
    v = tensorlab.rand(3, dtype=tensorlab.float64, requires_grad=True)
    assert gradcheck(lambda a, b: a.index_put(idx, b, accumulate=True), (x, v))
    idx1 = (tensorlab.tensor([0, 2]),)
    assert gradcheck(lambda a, b: a.index_put(idx1, b), (x, v[:1]))
    assert gradgradcheck(lambda a, b: a.index_put(idx, b, accumulate=True) ** 2, (x, v))


def test_index_put_with_mask_and_no_grad_writes_in_place():
    x = tensorlab.zeros(2, 3)
    ptr = x.data_ptr()
    with tensorlab.no_grad():
        x.index_put_((x == 0,), tensorlab.tensor(4.0))
    assert x.data_ptr() == ptr and x._version == 1 and values(x).tolist() == [[4.0] * 3] * 2


# -- properties --------------------------------------------------------------------------------------------


@st.composite
def basic_indices(draw):
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    items, dims_left = [], ndim
    used_ellipsis = False
    for _ in range(draw(st.integers(0, ndim + 2))):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis"] if not used_ellipsis else
                                    ["int", "slice", "none"]))
        if kind in ("int", "slice") and dims_left == 0:
            kind = "none"
        if kind == "ellipsis":
            used_ellipsis = True
            items.append(Ellipsis)
        elif kind == "none":
            items.append(None)
        elif kind == "int":
            items.append(("int", draw(st.integers(-5, 4))))
            dims_left -= 1
        else:
            start = draw(st.none() | st.integers(-6, 6))
            stop = draw(st.none() | st.integers(-6, 6))
            step = draw(st.none() | st.integers(1, 3))
            items.append(slice(start, stop, step))
            dims_left -= 1
    return shape, items


def _resolve(shape, items):
    """Make int items valid for the dim they land on (out-of-range ints are tested elsewhere)."""
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis)
    dim, out = 0, []
    for item in items:
        if item is Ellipsis:
            dim += len(shape) - n_real
            out.append(item)
        elif item is None:
            out.append(item)
        elif isinstance(item, tuple):
            size = shape[dim]
            out.append(item[1] % size - (size if item[1] < 0 else 0))
            dim += 1
        else:
            out.append(item)
            dim += 1
    return tuple(out)


@SETTINGS
@given(basic_indices())
def test_random_basic_indices_match_torch_and_numpy(torch, spec):
    shape, items = spec
    index = _resolve(shape, items)
    array = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    ours = tensorlab.tensor(array)[index]
    theirs = torch.tensor(array)[index]
    same(ours, theirs, grad_fn=False)
    np.testing.assert_array_equal(ours.numpy(), array[index])


@SETTINGS
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_random_advanced_indices_match_torch(torch, shape, data):
    array = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    index = []
    for n in shape:
        kind = data.draw(st.sampled_from(["slice", "list", "mask"]))
        if kind == "slice":
            index.append(slice(None))
        elif kind == "list":
            index.append(data.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=3)))
        else:
            index.append(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    lists = [i for i in index if isinstance(i, list)]
    # all list indices must broadcast: give them one length
    if lists:
        length = len(lists[0]) if not isinstance(lists[0][0], bool) else None
        index = [i if not isinstance(i, list) or isinstance(i[0], bool) or length is None
                 else (i * length)[:length] for i in index]
    index = tuple(index)
    try:
        theirs = torch.tensor(array)[index]
    except IndexError as err:
        with pytest.raises(IndexError) as ours:
            tensorlab.tensor(array)[index]
        assert str(err).splitlines()[0] in str(ours.value)
        return
    ours = tensorlab.tensor(array)[index]
    same(ours, theirs, layout=False, grad_fn=False)
    if theirs.numel():  # strides matter only along dims that have more than one element
        assert [s for s, n in zip(ours.stride(), ours.shape) if n > 1] == \
            [s for s, n in zip(theirs.stride(), theirs.shape) if n > 1]


@pytest.mark.parametrize("index", ["range(2)", "(range(2), lib.tensor([0, 1]))", "collections.deque([0, 2])",
                                   "range(0)", "(slice(None), range(1, 3))", "(range(3), range(3))"])
def test_any_sequence_indexes_like_a_list_as_pytorch(torch, index):
    """``logprobs[range(n), Yb]`` (makemore's backprop exercise): a range is read as its list of positions."""
    import collections
    outcomes = []
    for lib in (tensorlab, torch):
        x = lib.arange(12).reshape(3, 4)
        key = eval(index, {"lib": lib, "collections": collections})
        y = lib.zeros(3, 4)
        y[key] = -1.0
        outcomes.append((x[key].tolist(), y.tolist()))
    assert outcomes[0] == outcomes[1]
