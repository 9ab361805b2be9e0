"""View ops against PyTorch: same shape, strides, storage offset, values, grad_fn name, shared storage
and the same errors; gradients pass gradcheck on non-contiguous inputs; property tests on random
layouts."""
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tensorlab
from tensorlab import _layout
from tensorlab.autograd import gradcheck, gradgradcheck
from tests.tensor_core_oracle import chain, name, raises_like, same, values

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Inputs: the same float64 values and the same layout in both libraries, built from one arange.
INPUTS = {
    "contiguous": lambda L: L.arange(24, dtype=L.float64).reshape(2, 3, 4),
    "transposed": lambda L: L.arange(24, dtype=L.float64).reshape(4, 3, 2).transpose(0, 2),
    "sliced": lambda L: L.arange(90, dtype=L.float64).reshape(3, 6, 5)[1:, ::2, 1:],
    "offset": lambda L: L.arange(40, dtype=L.float64)[7:31].view(2, 3, 4),
}


def leaf(L, kind):
    """A leaf that requires grad but keeps the input's (possibly non-contiguous) layout."""
    return INPUTS[kind](L).detach().requires_grad_()


VIEW_OPS = {
    "view": lambda x: x.view(-1) if x.is_contiguous() else x.transpose(0, 1).contiguous().view(3, -1),
    "view_split": lambda x: x.view(2, 3, 2, 2) if x.is_contiguous() else x[..., :2].contiguous().view(2, 3, 2, 1),
    "view_as": lambda x: x.reshape(-1).view_as(x.reshape(-1)),
    "reshape": lambda x: x.reshape(x.shape[0], -1),
    "reshape_flat": lambda x: x.reshape(-1),
    "reshape_as": lambda x: x.reshape_as(x.new_zeros(x.shape[0], x.numel() // x.shape[0])),
    "flatten": lambda x: x.flatten(),
    "flatten_1": lambda x: x.flatten(1),
    "flatten_same": lambda x: x.flatten(1, 1),
    "unflatten": lambda x: x.unflatten(-1, (2, -1)),
    "ravel": lambda x: x.ravel(),
    "contiguous": lambda x: x.contiguous(),
    "clone": lambda x: x.clone(),
    "transpose": lambda x: x.transpose(0, -1),
    "swapaxes": lambda x: x.swapaxes(1, 2),
    "t": lambda x: x[0].t(),
    "T_2d": lambda x: x[0].T,
    "mT": lambda x: x.mT,
    "permute": lambda x: x.permute(2, 0, 1),
    "permute_neg": lambda x: x.permute(-1, -2, -3),
    "movedim": lambda x: x.movedim(0, -1),
    "moveaxis_many": lambda x: x.moveaxis((0, 1), (2, 0)),
    "unsqueeze": lambda x: x.unsqueeze(1),
    "unsqueeze_end": lambda x: x.unsqueeze(-1),
    "squeeze_all": lambda x: x.unsqueeze(0).unsqueeze(2).squeeze(),
    "squeeze_dim": lambda x: x.unsqueeze(1).squeeze(1),
    "squeeze_noop": lambda x: x.squeeze(0),
    "squeeze_dims": lambda x: x.unsqueeze(0).unsqueeze(-1).squeeze((0, -1)),
    "expand": lambda x: x[:, :1].expand(-1, 5, -1),
    "expand_new": lambda x: x.expand(2, *x.shape),
    "expand_as": lambda x: x[:1].expand_as(x),
    "narrow": lambda x: x.narrow(1, 1, 2),
    "narrow_neg": lambda x: x.narrow(-1, -2, 2),
    "select": lambda x: x.select(1, -1),
    "unfold": lambda x: x.unfold(2, 2, 1),
    "unfold_step": lambda x: x.unfold(1, 2, 2),
    "as_strided": lambda x: x.as_strided((2, 2), (1, 2), x.storage_offset() + 1),
    "diagonal": lambda x: x.diagonal(),
    "diagonal_args": lambda x: x.diagonal(1, 2, 0),
    "diagonal_neg": lambda x: x.diagonal(-1, -1, -2),
    "detach": lambda x: x.detach(),
}

MULTI_OPS = {
    "chunk": lambda x: x.chunk(2, 1),
    "chunk_uneven": lambda x: x.chunk(3, -1),
    "split": lambda x: x.split(2, -1),
    "split_sizes": lambda x: x.split([1, 2], 1),
    "unbind": lambda x: x.unbind(1),
    "tensor_split": lambda x: x.tensor_split(2, 1),
    "tensor_split_idx": lambda x: x.tensor_split([1, 3], -1),
}


def _storage_ptr(t):
    return t.untyped_storage().data_ptr()


@pytest.mark.parametrize("kind", list(INPUTS))
@pytest.mark.parametrize("op", list(VIEW_OPS))
def test_view_op_matches_torch(torch, op, kind):
    x_ours, x_torch = leaf(tensorlab, kind), leaf(torch, kind)
    fn = VIEW_OPS[op]
    ours, theirs = fn(x_ours), fn(x_torch)
    same(ours, theirs)
    assert chain(ours) == chain(theirs)
    # a view shares storage exactly when torch's does
    assert (_storage_ptr(ours) == _storage_ptr(x_ours)) == (_storage_ptr(theirs) == _storage_ptr(x_torch))
    assert (ours._base is not None) == (theirs._base is not None)
    assert (ours is x_ours) == (theirs is x_torch)


@pytest.mark.parametrize("kind", list(INPUTS))
@pytest.mark.parametrize("op", list(MULTI_OPS))
def test_multi_output_view_matches_torch(torch, op, kind):
    x_ours, x_torch = leaf(tensorlab, kind), leaf(torch, kind)
    ours, theirs = MULTI_OPS[op](x_ours), MULTI_OPS[op](x_torch)
    assert isinstance(ours, tuple) and len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        same(a, b)
        assert _storage_ptr(a) == _storage_ptr(x_ours)


@pytest.mark.parametrize("kind", list(INPUTS))
@pytest.mark.parametrize("op", sorted(set(VIEW_OPS) - {"detach"}))
def test_view_op_gradients_match_torch(torch, op, kind):
    x_ours, x_torch = leaf(tensorlab, kind), leaf(torch, kind)
    out_ours, out_torch = VIEW_OPS[op](x_ours), VIEW_OPS[op](x_torch)
    weights = np.arange(1, out_torch.numel() + 1, dtype=np.float64).reshape(tuple(out_torch.shape))
    (out_ours * tensorlab.tensor(weights)).sum().backward()
    (out_torch * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(values(x_ours.grad), values(x_torch.grad))


@pytest.mark.parametrize("kind", ["transposed", "sliced", "offset"])
@pytest.mark.parametrize("op", sorted(set(VIEW_OPS) - {"detach"}))
def test_view_op_gradcheck_on_non_contiguous_input(op, kind):
    x = leaf(tensorlab, kind)
    assert gradcheck(VIEW_OPS[op], (x,))


@pytest.mark.parametrize("op", ["unfold", "diagonal_args", "as_strided", "select", "narrow", "expand",
                                "squeeze_dims", "permute", "reshape_flat"])
def test_view_op_gradgradcheck(op):
    x = leaf(tensorlab, "transposed")
    assert gradgradcheck(lambda t: VIEW_OPS[op](t) ** 2, (x,))


@pytest.mark.parametrize("op", list(MULTI_OPS))
def test_multi_output_gradcheck_with_unused_pieces(torch, op):
    """Only some pieces reach the loss: the others contribute zeros (as in PyTorch)."""
    x = leaf(tensorlab, "sliced")
    assert gradcheck(lambda t: MULTI_OPS[op](t)[0] * 2, (x,))
    assert gradcheck(lambda t: MULTI_OPS[op](t)[-1].sum() + MULTI_OPS[op](t)[0].sum(), (x,))
    x_torch = leaf(torch, "sliced")
    (MULTI_OPS[op](x)[-1] ** 2).sum().backward()
    (MULTI_OPS[op](x_torch)[-1] ** 2).sum().backward()
    np.testing.assert_allclose(values(x.grad), values(x_torch.grad))


def test_as_strided_overlapping_windows_grad_matches_torch(torch):
    for L in (tensorlab, torch):
        x = L.arange(10, dtype=L.float64).requires_grad_()
        w = x.as_strided((4, 3), (2, 1), 1)  # overlapping windows, like a convolution
        (w * L.arange(12, dtype=L.float64).view(4, 3)).sum().backward()
        if L is torch:
            np.testing.assert_allclose(values(x.grad), expected)
        expected = values(x.grad)
    assert gradcheck(lambda t: t.as_strided((4, 3), (2, 1), 1), (tensorlab.rand(10, dtype=tensorlab.float64,
                                                                                 requires_grad=True),))


def test_as_strided_of_expanded_input_grad_matches_torch(torch):
    results = []
    for L in (tensorlab, torch):
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
        e = x.unsqueeze(1).expand(3, 4)
        y = e.as_strided((3, 2), (1, 0), 0)
        (y * L.arange(6, dtype=L.float64).view(3, 2)).sum().backward()
        results.append(values(x.grad))
    np.testing.assert_allclose(results[0], results[1])


# -- errors -------------------------------------------------------------------------------------------

ERRORS = {
    "view_noncontig": lambda L: L.zeros(3, 4).t().view(12),
    "view_bad_size": lambda L: L.zeros(3, 4).view(5, -1),
    "view_two_inferred": lambda L: L.zeros(3, 4).view(-1, -1),
    "view_negative": lambda L: L.zeros(3, 4).view(-2, 6),
    "view_zero_ambiguous": lambda L: L.zeros(0, 3).view(0, -1),
    "reshape_bad": lambda L: L.zeros(3, 4).reshape(5, -1),
    "expand_mismatch": lambda L: L.zeros(3, 4).expand(2, 5),
    "expand_int": lambda L: L.arange(3).expand(2, 4),
    "expand_too_few": lambda L: L.zeros(2, 3, 4).expand(3, 4),
    "expand_leading_neg": lambda L: L.zeros(3, 4).expand(-1, 3, 4),
    "transpose_dim": lambda L: L.zeros(3, 4).transpose(0, 2),
    "permute_len": lambda L: L.zeros(2, 3, 4).permute(0, 1),
    "permute_dup": lambda L: L.zeros(2, 3, 4).permute(0, 1, 1),
    "squeeze_dim": lambda L: L.zeros(2, 3, 4).squeeze(3),
    "squeeze_dup": lambda L: L.zeros(2, 1, 3).squeeze((1, 1)),
    "unsqueeze_dim": lambda L: L.zeros(2, 3, 4).unsqueeze(4),
    "t_3d": lambda L: L.zeros(2, 3, 4).t(),
    "mT_1d": lambda L: L.zeros(3).mT,
    "narrow_past_end": lambda L: L.zeros(3, 4).narrow(0, 2, 2),
    "narrow_neg_length": lambda L: L.zeros(3, 4).narrow(0, 0, -1),
    "narrow_start": lambda L: L.zeros(3, 4).narrow(0, 4, 0),
    "narrow_0d": lambda L: L.zeros(()).narrow(0, 0, 1),
    "select_range": lambda L: L.zeros(3, 4).select(0, 3),
    "select_0d": lambda L: L.zeros(()).select(0, 0),
    "unfold_size": lambda L: L.zeros(3, 4).unfold(1, 5, 1),
    "unfold_step": lambda L: L.zeros(3, 4).unfold(1, 2, 0),
    "chunk_zero": lambda L: L.zeros(3, 4).chunk(0),
    "chunk_0d": lambda L: L.zeros(()).chunk(2),
    "split_sum": lambda L: L.zeros(3, 4).split([1, 1], 0),
    "split_zero": lambda L: L.zeros(3, 4).split(0),
    "split_0d": lambda L: L.zeros(()).split(1),
    "split_negative": lambda L: L.zeros(3, 4).split([-1, 4], 0),
    "unbind_0d": lambda L: L.zeros(()).unbind(),
    "movedim_repeat": lambda L: L.zeros(2, 3, 4).movedim((0, 0), (1, 2)),
    "movedim_lengths": lambda L: L.zeros(2, 3, 4).movedim((0, 1), (1,)),
    "unflatten_product": lambda L: L.zeros(3, 4).unflatten(1, (3, 2)),
    "unflatten_empty": lambda L: L.zeros(3, 4).unflatten(1, ()),
    "flatten_order": lambda L: L.zeros(2, 3, 4).flatten(2, 1),
    "diagonal_same": lambda L: L.zeros(3, 4).diagonal(0, 0, 0),
    "as_strided_oob": lambda L: L.zeros(3, 4).as_strided((4, 4), (4, 1)),
    "as_strided_len": lambda L: L.zeros(3, 4).as_strided((4, 4), (4,)),
    "as_strided_neg_offset": lambda L: L.zeros(3, 4).as_strided((2,), (1,), -1),
    "permute_float": lambda L: L.zeros(3, 4).permute(0, 1.0),
    "permute_inf": lambda L: L.zeros(3, 4).permute((0, float("inf"))),
    "size_dim": lambda L: L.zeros(3, 4).size(2),
    "stride_dim": lambda L: L.zeros(3, 4).stride(-3),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_match_torch(torch, case):
    raises_like(lambda: ERRORS[case](torch), lambda: ERRORS[case](tensorlab))


def test_failed_view_changes_nothing():
    x = tensorlab.arange(12.0).reshape(3, 4).t()
    before = (x.shape, x.stride(), x.storage_offset(), x._version)
    with pytest.raises(RuntimeError):
        x.view(12)
    assert (x.shape, x.stride(), x.storage_offset(), x._version) == before


def test_T_on_other_ranks_warns_like_torch(torch):
    for shape in [(), (3,), (2, 3, 4)]:
        with pytest.warns(UserWarning, match="deprecated"):
            ours = tensorlab.zeros(shape).T
        with warnings.catch_warnings():  # torch warns only once per process
            warnings.simplefilter("ignore")
            theirs = torch.zeros(shape).T
        assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()


# -- the lesson's claims -----------------------------------------------------------------------------


def test_view_shares_storage_and_writes_through():
    x = tensorlab.arange(6.0)
    y = x.view(2, 3)
    y[0, 0] = 100.0
    assert x[0].item() == 100.0
    assert y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert y._version == x._version == 1


def test_reshape_copies_exactly_when_view_fails():
    x = tensorlab.arange(12.0).reshape(3, 4)
    assert x.reshape(4, 3).data_ptr() == x.data_ptr()
    copy = x.t().reshape(12)
    assert copy.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    assert chain(x.requires_grad_().t().reshape(12)) == ["UnsafeViewBackward0", "CloneBackward0", "TBackward0"]


def test_contiguous_returns_self_when_already_contiguous():
    x = tensorlab.zeros(2, 3)
    assert x.contiguous() is x
    y = x.t().contiguous()
    assert y is not x and y.is_contiguous() and y.stride() == (2, 1)


def test_expand_uses_stride_zero_and_shares_memory():
    x = tensorlab.tensor([[1.0], [2.0], [3.0]])
    e = x.expand(-1, 4)
    assert e.stride() == (1, 0) and e.data_ptr() == x.data_ptr()
    x[1, 0] = 7.0
    assert e[1].tolist() == [7.0] * 4


def test_unfold_builds_convolution_windows(torch):
    """The CNN lesson: a 1-D convolution is unfold (overlapping windows, no copy) then a matmul."""
    signal = np.arange(10, dtype=np.float64)
    kernel = np.array([1.0, -2.0, 0.5])
    x = tensorlab.tensor(signal)
    windows = x.unfold(0, 3, 1)
    assert windows.shape == (8, 3) and windows.stride() == (1, 1) and windows.data_ptr() == x.data_ptr()
    out = windows @ tensorlab.tensor(kernel) if hasattr(tensorlab.Tensor, "__matmul__") else \
        (windows * tensorlab.tensor(kernel)).sum(1)
    expected = torch.nn.functional.conv1d(torch.tensor(signal).view(1, 1, -1), torch.tensor(kernel).view(1, 1, -1))
    np.testing.assert_allclose(values(out), expected.view(-1).numpy())


def test_detach_shares_memory_and_version_but_not_history():
    x = tensorlab.ones(3, requires_grad=True)
    y = x * 2
    d = y.detach()
    assert d.grad_fn is None and not d.requires_grad and d.data_ptr() == y.data_ptr()
    d.add_(1)
    assert y._version == d._version == 1
    assert x.detach()._base is None


def test_chunk_and_split_return_tuples_of_views(torch):
    x = tensorlab.arange(10.0)
    pieces = x.chunk(3)
    assert isinstance(pieces, tuple) and [p.shape[0] for p in pieces] == [4, 4, 2]
    pieces[1][0] = -1.0
    assert x[4].item() == -1.0
    assert [tuple(p.shape) for p in tensorlab.split(x, [3, 7])] == [(3,), (7,)]
    assert [p.storage_offset() for p in x.split(4)] == [p.storage_offset() for p in torch.arange(10.).split(4)]


def test_module_level_functions_exist_like_torch(torch):
    x_ours, x_torch = leaf(tensorlab, "contiguous"), leaf(torch, "contiguous")
    for fn in ["reshape", "flatten", "transpose", "permute", "movedim", "unsqueeze", "squeeze", "narrow",
               "diagonal", "swapaxes", "t", "chunk", "split", "unbind", "select", "as_strided", "ravel"]:
        assert callable(getattr(tensorlab, fn)), fn
    same(tensorlab.movedim(x_ours, 0, 2), torch.movedim(x_torch, 0, 2))
    same(tensorlab.narrow(x_ours, 2, 1, 2), torch.narrow(x_torch, 2, 1, 2))
    same(tensorlab.diagonal(x_ours, 0, 1, 2), torch.diagonal(x_torch, 0, 1, 2))


# -- properties over random layouts ------------------------------------------------------------------


@st.composite
def strided(draw):
    """A random view of a random storage: (storage size, offset, shape, strides, permutation)."""
    ndim = draw(st.integers(1, 3))
    base = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    perm = tuple(draw(st.permutations(range(ndim))))
    slices = tuple(slice(draw(st.integers(0, base[p] - 1)), None, draw(st.integers(1, 2))) for p in perm)
    lead = draw(st.integers(0, 3))
    return base, perm, slices, lead, draw(st.integers(1, 3))


def _build(L, spec, array):
    base, perm, slices, lead, reps = spec
    flat = L.tensor(array) if L is tensorlab else L.from_numpy(array.copy())
    t = flat[lead:lead + int(np.prod(base))].view(base).permute(perm)[slices]
    ones = [d for d in range(t.dim()) if t.shape[d] == 1]
    if ones:
        shape = list(t.shape)
        shape[ones[0]] = reps
        t = t.expand(shape)
    return t


@SETTINGS
@given(strided())
def test_strided_read_equals_numpy(spec):
    base, perm, slices, lead, reps = spec
    array = np.arange(lead + int(np.prod(base)), dtype=np.float64) * 1.5
    t = _build(tensorlab, spec, array)
    expected = array[lead:lead + int(np.prod(base))].reshape(base).transpose(perm)[slices]
    expected = np.broadcast_to(expected, tuple(t.shape))
    np.testing.assert_array_equal(t.numpy(), expected)
    flat = t.untyped_storage()._flat
    for index in np.ndindex(*t.shape):
        assert flat[_layout.memory_position(index, t.stride(), t.storage_offset())] == expected[index]


@SETTINGS
@given(strided())
def test_layout_of_random_views_matches_torch(torch, spec):
    base, perm, slices, lead, reps = spec
    array = np.arange(lead + int(np.prod(base)), dtype=np.float64)
    ours, theirs = _build(tensorlab, spec, array), _build(torch, spec, array)
    same(ours, theirs, grad_fn=False)
    for target in [(-1,), (ours.shape[0], -1)]:
        r_ours, r_theirs = ours.reshape(target), theirs.reshape(target)
        same(r_ours, r_theirs, grad_fn=False)
        copied_ours = r_ours.untyped_storage().data_ptr() != ours.untyped_storage().data_ptr()
        copied_theirs = r_theirs.untyped_storage().data_ptr() != theirs.untyped_storage().data_ptr()
        assert copied_ours == copied_theirs
        view_ok = _layout.view_strides(ours.shape, ours.stride(), r_ours.shape) is not None
        assert copied_ours == (not view_ok)


@SETTINGS
@given(strided(), st.data())
def test_views_share_storage_both_ways(spec, data):
    base, perm, slices, lead, reps = spec
    array = np.arange(lead + int(np.prod(base)), dtype=np.float64)
    root = tensorlab.tensor(array)
    view = _build(tensorlab, spec, array)
    # rebuild the view on ``root`` itself so that they share storage
    view = root.as_strided(view.shape, view.stride(), view.storage_offset())
    index = tuple(data.draw(st.integers(0, n - 1)) for n in view.shape)
    position = _layout.memory_position(index, view.stride(), view.storage_offset())
    view[index] = -7.0
    assert root[position].item() == -7.0
    root[position] = 42.0
    assert view[index].item() == 42.0


VIEW_DTYPE = {
    "same_size": lambda L: L.arange(6.0).view(2, 3).view(L.int32),
    "grow": lambda L: L.arange(12, dtype=L.uint8).view(3, 4).view(L.int16),
    "grow_offset": lambda L: L.arange(12, dtype=L.uint8).view(3, 4)[1:].view(L.int32),
    "shrink": lambda L: L.arange(6.0).view(2, 3).view(L.float16),
    "shrink_strided": lambda L: L.arange(8.0, dtype=L.float64).view(4, 2)[::2].view(L.int16),
    "same_dtype": lambda L: L.arange(6.0).view(L.float32),
}
VIEW_DTYPE_ERRORS = {
    "stride": lambda L: L.arange(16, dtype=L.uint8).view(4, 4).t().view(L.int16),
    "size": lambda L: L.arange(12, dtype=L.uint8).view(3, 4)[:, :3].view(L.int16),
    "offset": lambda L: L.arange(16, dtype=L.uint8).view(4, 4)[1:, 1:3].view(L.int16),
    "zero_d": lambda L: L.tensor(1.0).view(L.float16),
    "shrink_stride": lambda L: L.arange(4.0).view(2, 2).t().view(L.float16),
}


@pytest.mark.parametrize("case", list(VIEW_DTYPE))
def test_view_as_dtype_reinterprets_bytes_like_torch(torch, case):
    ours, theirs = VIEW_DTYPE[case](tensorlab), VIEW_DTYPE[case](torch)
    same(ours, theirs)
    assert ours._base is None and not ours.requires_grad


@pytest.mark.parametrize("case", list(VIEW_DTYPE_ERRORS))
def test_view_as_dtype_errors_match_torch(torch, case):
    raises_like(lambda: VIEW_DTYPE_ERRORS[case](torch), lambda: VIEW_DTYPE_ERRORS[case](tensorlab))


def test_view_as_dtype_shares_memory_and_version():
    x = tensorlab.zeros(4)
    bits = x.view(tensorlab.int32)
    bits[1] = 1065353216  # the bit pattern of 1.0f
    assert x[1].item() == 1.0 and x._version == bits._version == 1
    assert bits.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


@pytest.mark.parametrize("dims", [(0, 0), (0, -1), (-1, 0), (1, 0), (0, 1)])
def test_flatten_of_a_0_d_tensor_checks_its_dims_like_pytorch(torch, dims):
    results = []
    for m in (tensorlab, torch):
        try:
            results.append(m.tensor(1.0).flatten(*dims).shape)
        except IndexError as error:
            results.append(str(error))
    assert results[0] == results[1]
