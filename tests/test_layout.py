"""_layout.py: the pure stride arithmetic, checked against PyTorch and NumPy.

The key property: ``view_strides`` succeeds exactly when torch's ``view`` does, with the same strides.
"""
import doctest
import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tensorlab import _layout, _view_geometry

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("module", [_layout, _view_geometry])
def test_doctests_all_pass_and_every_function_has_one(module):
    result = doctest.testmod(module)
    assert result.failed == 0
    with_examples = {t.name.split(".")[-1] for t in doctest.DocTestFinder().find(module) if t.examples}
    functions = {n for n, f in vars(module).items() if inspect.isfunction(f) and f.__module__ == module.__name__}
    assert not functions - with_examples, functions - with_examples


# -- strategies: a random strided layout made by the ops PyTorch offers ------------------------------


@st.composite
def layouts(draw, max_dims=4):
    """(shape, strides, offset) of a view of a contiguous tensor: permuted, sliced, maybe expanded."""
    ndim = draw(st.integers(1, max_dims))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    strides = _layout.contiguous_strides(shape)
    offset = 0
    perm = draw(st.permutations(range(ndim)))
    shape, strides = tuple(shape[p] for p in perm), tuple(strides[p] for p in perm)
    slices = []
    for size in shape:
        start = draw(st.integers(0, size - 1))
        stop = draw(st.integers(start + 1, size))
        step = draw(st.integers(1, 2))
        slices.append(slice(start, stop, step))
    offset, shape, strides = _view_geometry.basic_index(shape, strides, offset, tuple(slices))
    if draw(st.booleans()):  # expand one size-1 dim
        ones = [d for d, n in enumerate(shape) if n == 1]
        if ones:
            d = draw(st.sampled_from(ones))
            target = list(shape)
            target[d] = draw(st.integers(1, 3))
            shape, strides = _layout.expand_strides(shape, strides, tuple(target))
    return shape, strides, offset, perm, tuple(slices)


def _factorizations(n, max_parts=4):
    """Shapes with product n (including size-1 dims) to try as view targets."""
    out = [(n,), (1, n), (n, 1)]
    for a in range(1, n + 1):
        if n % a == 0:
            out.append((a, n // a))
            for b in range(1, n // a + 1):
                if (n // a) % b == 0:
                    out.append((a, b, n // a // b))
    return [s for s in out if len(s) <= max_parts]


def _torch_view(torch, shape, strides, offset, new_shape):
    base = torch.arange(offset + _layout.storage_span(shape, strides) + 1)
    t = base.as_strided(shape, strides, offset)
    try:
        return t.view(new_shape).stride()
    except RuntimeError as err:
        assert "view size is not compatible" in str(err)
        return None


@SETTINGS
@given(layouts(), st.data())
def test_view_strides_succeeds_exactly_when_torch_view_does(torch, layout, data):
    shape, strides, offset, _, _ = layout
    n = _layout.numel(shape)
    new_shape = data.draw(st.sampled_from(_factorizations(n)))
    ours = _layout.view_strides(shape, strides, new_shape)
    theirs = _torch_view(torch, shape, strides, offset, new_shape)
    assert ours == (None if theirs is None else tuple(theirs))


@pytest.mark.parametrize("shape,strides,new_shape", [
    ((2, 3), (3, 1), (6,)), ((2, 3), (1, 2), (6,)), ((2, 1, 3), (3, 7, 1), (6,)), ((4,), (2,), (2, 2)),
    ((2, 2), (4, 1), (4,)), ((2, 2), (4, 1), (2, 1, 2)), ((3, 0), (1, 1), (0, 5)), ((3, 0), (1, 1), (3, 0)),
    ((), (), (1, 1)), ((1,), (5,), ()), ((2, 3, 4), (12, 1, 3), (2, 12)), ((2, 3, 4), (12, 1, 3), (6, 4)),
])
def test_view_strides_edge_cases(torch, shape, strides, new_shape):
    t = torch.empty(0).new_empty(64).as_strided(shape, strides)
    try:
        expected = tuple(t.view(new_shape).stride())
    except RuntimeError:
        expected = None
    assert _layout.view_strides(shape, strides, new_shape) == expected


@SETTINGS
@given(layouts())
def test_memory_position_reads_the_element_numpy_reads(layout):
    shape, strides, offset, perm, slices = layout
    flat = np.arange(offset + _layout.storage_span(shape, strides) + 1)
    view = np.lib.stride_tricks.as_strided(flat[offset:], shape, [s * flat.itemsize for s in strides])
    for index in np.ndindex(*shape):
        assert flat[_layout.memory_position(index, strides, offset)] == view[index]


@SETTINGS
@given(layouts())
def test_basic_index_matches_numpy_slicing(layout):
    """Permute + slice computed by _layout equals NumPy's transpose + slicing of the same array."""
    _, _, _, perm, slices = layout
    dims = len(perm)
    base_shape = tuple(s.stop + 2 for s in slices)
    source_shape = [0] * dims
    for i, p in enumerate(perm):
        source_shape[p] = base_shape[i]
    array = np.arange(int(np.prod(source_shape))).reshape(source_shape)
    shape, strides = tuple(source_shape[p] for p in perm), tuple(_layout.contiguous_strides(source_shape)[p]
                                                                for p in perm)
    offset, out_shape, out_strides = _view_geometry.basic_index(shape, strides, 0, slices)
    expected = array.transpose(perm)[slices]
    got = np.array([array.reshape(-1)[_layout.memory_position(i, out_strides, offset)]
                    for i in np.ndindex(*out_shape)]).reshape(out_shape)
    np.testing.assert_array_equal(got, expected)


@SETTINGS
@given(layouts())
def test_contiguity_and_density_match_torch(torch, layout):
    shape, strides, offset, _, _ = layout
    t = torch.empty(offset + _layout.storage_span(shape, strides) + 1).as_strided(shape, strides, offset)
    assert _layout.is_contiguous(shape, strides) == t.is_contiguous()
    assert _layout.dense_strides_like(shape, strides) == t.clone().stride()
    assert _layout.dense_strides_like(shape, strides) == torch.empty_like(t).stride()


def test_contiguous_strides_and_zero_sizes(torch):
    for shape in [(2, 3, 4), (2, 0, 3), (0,), (), (5, 1, 1)]:
        assert _layout.contiguous_strides(shape) == torch.empty(shape).stride()


def test_infer_size_errors_match_torch(torch):
    cases = [((5, -1), 12), ((5, 2), 12), ((-1, -1), 12), ((-2, 6), 12), ((0, -1), 0), ((-1, 0), 12)]
    for shape, total in cases:
        with pytest.raises(RuntimeError) as ours:
            _layout.infer_size(shape, total)
        with pytest.raises(RuntimeError) as theirs:
            torch.empty(total).view(shape)
        assert str(theirs.value).splitlines()[0] in str(ours.value)
    assert _layout.infer_size((-1, 3), 0) == tuple(torch.empty(0).view(-1, 3).shape)


def test_broadcast_and_expand_messages_match_torch(torch):
    with pytest.raises(RuntimeError) as ours:
        _layout.broadcast_shapes((2, 3), (4,))
    with pytest.raises(RuntimeError) as theirs:
        torch.zeros(2, 3) + torch.zeros(4)  # what an elementwise op says
    assert str(theirs.value) in str(ours.value)
    with pytest.raises(RuntimeError) as ours:
        _layout.expand_strides((3, 4), (4, 1), (2, 5))
    with pytest.raises(RuntimeError) as theirs:
        torch.zeros(3, 4).expand(2, 5)
    assert str(ours.value) == str(theirs.value)
    assert _layout.expand_strides((3, 1), (1, 1), (2, -1, 4)) == ((2, 3, 4), tuple(
        torch.zeros(3, 1).expand(2, -1, 4).stride()))


def test_slice_geometry_errors():
    with pytest.raises(ValueError, match="step must be greater than zero"):
        _view_geometry.slice_geometry(5, 1, slice(None, None, -1))
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        _view_geometry.slice_geometry(5, 1, slice(None, None, 0))


@pytest.mark.parametrize("index", [(0, Ellipsis), (Ellipsis, 0, Ellipsis), (0, Ellipsis, 1, Ellipsis),
                                   (None, Ellipsis, None), (slice(1, None), None, 2)])
def test_basic_index_with_ellipses_matches_torch(torch, index):
    t = torch.arange(24).reshape(2, 3, 4)
    offset, shape, strides = _view_geometry.basic_index((2, 3, 4), (12, 4, 1), 0, index)
    view = t[index]
    assert (offset, shape, strides) == (view.storage_offset(), tuple(view.shape), view.stride())


def test_unfold_and_diagonal_geometry_match_torch(torch):
    t = torch.zeros(2, 3, 7)
    for dim, size, step in [(2, 3, 2), (1, 3, 1), (0, 1, 1), (2, 7, 3)]:
        u = t.unfold(dim, size, step)
        expected = (tuple(u.shape), u.stride())
        assert _view_geometry.unfold_geometry((2, 3, 7), (21, 7, 1), dim, size, step) == expected
    for offset, d1, d2 in [(0, 0, 1), (1, 2, 0), (-1, 1, 2), (5, 0, 2), (-2, 2, 1)]:
        d = t.diagonal(offset, d1, d2)
        assert _view_geometry.diagonal_geometry((2, 3, 7), (21, 7, 1), offset, d1, d2) == (
            d.storage_offset(), tuple(d.shape), d.stride())


def test_movedim_and_split_sizes_match_torch(torch):
    t = torch.zeros(2, 3, 4, 5)
    for src, dst in [((0,), (2,)), ((0, 1), (-1, 0)), ((3,), (0,)), ((1, 2), (2, 1))]:
        order = _view_geometry.movedim_order(4, src, dst)
        assert tuple(t.movedim(src, dst).shape) == tuple(t.shape[d] for d in order)
    for n, size in [(5, 2), (6, 3), (5, 7), (0, 2), (0, 0), (1, 1)]:
        assert _view_geometry.split_sizes(n, size) == [p.shape[0] for p in torch.zeros(n).split(size)]
    for n, chunks in [(5, 2), (6, 4), (6, 5), (0, 3), (5, 6), (1, 1)]:
        assert _view_geometry.chunk_sizes(n, chunks) == [p.shape[0] for p in torch.zeros(n).chunk(chunks)]


def test_overlap_detection():
    assert _layout.may_overlap((3, 4), (0, 1))
    assert _layout.may_overlap((3, 3), (1, 1))      # sliding windows share elements
    assert not _layout.may_overlap((3, 3), (3, 1))
    assert not _layout.may_overlap((1, 5), (0, 1))  # size-1 dims never move
