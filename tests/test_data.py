"""tensorlab.utils.data against torch.utils.data: collation (structure, dtypes, shapes, values), batch counts,
samplers, splits, and PyTorch's errors for bad options."""
import collections
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.utils import data as tld


def _plain(x):
    """A nested structure as comparable plain Python: tensors become (dtype name, shape, values)."""
    if hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, np.ndarray):
        return ("tensor", str(x.dtype).replace("torch.", ""), tuple(x.shape), x.tolist())
    if isinstance(x, dict):
        return (type(x).__name__, [(k, _plain(v)) for k, v in x.items()])
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return ("namedtuple", type(x).__name__, [_plain(v) for v in x])
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_plain(v) for v in x])
    if isinstance(x, np.ndarray):
        return ("ndarray", str(x.dtype), x.tolist())
    return (type(x).__name__, x)


Point = collections.namedtuple("Point", "x y")


def _batches(lib):
    """Example batches (lists of examples), built the same way for both libraries."""
    rng = np.random.default_rng(0)
    images = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(4)]
    return [
        [lib.tensor(a) for a in images],
        images,
        [rng.integers(0, 9, (3,)).astype(np.int16) for _ in range(3)],
        [np.float32(1.5), np.float32(2.5)],
        [np.int32(1), np.int32(7)],
        [np.float64(0.1), np.float64(0.2)],
        [np.bool_(True), np.bool_(False)],
        [np.array(1.5), np.array(2.5)],
        [1, 2, 3],
        [1.5, 2.0],
        [True, False],
        [1, 2.5],
        ["a", "b"],
        [b"x", b"y"],
        [(lib.tensor(images[0]), 1), (lib.tensor(images[1]), 0)],
        [[1, 2.0], [3, 4.0]],
        [{"img": images[0], "label": 3, "name": "a"}, {"img": images[1], "label": 4, "name": "b"}],
        [collections.OrderedDict(a=1.0, b=[1, 2]), collections.OrderedDict(a=2.0, b=[3, 4])],
        [Point(1, 2.0), Point(3, 4.0)],
        [{"nested": (1, {"deep": np.float32(2)})}] * 3,
        [range(3), range(3)],
    ]


def test_default_collate_matches_torch(torch):
    from torch.utils.data import default_collate as th_collate
    for tl_batch, th_batch in zip(_batches(tensorlab), _batches(torch)):
        assert _plain(tld.default_collate(tl_batch)) == _plain(th_collate(th_batch)), tl_batch


def test_default_convert_matches_torch(torch):
    from torch.utils.data import default_convert as th_convert
    examples = [np.arange(3, dtype=np.int32), np.float32(2), {"a": np.ones(2), "b": "s"}, (np.zeros(1), 1),
                [np.ones(2, np.float16)], Point(np.ones(1), 2), "text", 5, np.array(["a"])]
    for ex in examples:
        assert _plain(tld.default_convert(ex)) == _plain(th_convert(ex))


@pytest.mark.parametrize("bad", [[object(), object()], [np.array(["a"]), np.array(["b"])], [[1, 2], [1]],
                                 [None, None], [{1, 2}, {3, 4}]])
def test_collate_errors_match_torch(torch, bad):
    from torch.utils.data import default_collate as th_collate
    with pytest.raises(Exception) as expected:
        th_collate(bad)
    with pytest.raises(type(expected.value)) as got:
        tld.default_collate(bad)
    assert str(got.value) == str(expected.value)


def test_collating_tensors_of_different_shapes_fails(torch):
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        tld.default_collate([tensorlab.zeros(2), tensorlab.zeros(3)])


# -- datasets ----------------------------------------------------------------------------------------


def test_tensor_dataset(torch):
    x, y = np.arange(12.0, dtype=np.float32).reshape(6, 2), np.arange(6)
    ds = tld.TensorDataset(tensorlab.tensor(x), tensorlab.tensor(y))
    assert len(ds) == 6
    assert _plain(ds[2]) == _plain(torch.utils.data.TensorDataset(torch.tensor(x), torch.tensor(y))[2])
    with pytest.raises(AssertionError) as expected:
        torch.utils.data.TensorDataset(torch.zeros(3), torch.zeros(4))
    with pytest.raises(AssertionError, match=str(expected.value)):
        tld.TensorDataset(tensorlab.zeros(3), tensorlab.zeros(4))


class Squares(tld.Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return i * i

    def __len__(self):
        return self.n


def test_subset_concat_and_add(torch):
    a, b = Squares(3), Squares(4)
    cat = a + b
    assert isinstance(cat, tld.ConcatDataset) and len(cat) == 7
    assert [cat[i] for i in range(7)] == [0, 1, 4, 0, 1, 4, 9] and cat[-1] == 9 and cat[-7] == 0
    assert cat.cumulative_sizes == [3, 7]
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        cat[-8]
    sub = tld.Subset(b, [3, 1])
    assert len(sub) == 2 and [sub[0], sub[1]] == [9, 1]
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        tld.ConcatDataset([])


def test_base_dataset_needs_getitem(torch):
    with pytest.raises(NotImplementedError) as expected:
        torch.utils.data.Dataset()[0]
    with pytest.raises(NotImplementedError, match=str(expected.value)):
        tld.Dataset()[0]


@pytest.mark.parametrize("n,lengths", [(10, [3, 7]), (10, [0.3, 0.7]), (11, [0.3, 0.3, 0.4]), (7, [0.5, 0.5]),
                                       (5, [1.0, 0.0]), (9, [2, 3, 4])])
def test_random_split_lengths_match_torch(torch, n, lengths):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [len(s) for s in torch.utils.data.random_split(range(n), lengths)]
        splits = tld.random_split(Squares(n), lengths, generator=tensorlab.Generator().manual_seed(0))
    assert [len(s) for s in splits] == expected
    indices = sorted(i for s in splits for i in s.indices)
    assert indices == list(range(n))


def test_random_split_is_seedable():
    def split(seed):
        return [s.indices for s in tld.random_split(Squares(20), [0.5, 0.5],
                                                    generator=tensorlab.Generator().manual_seed(seed))]
    assert split(1) == split(1)
    assert split(1) != split(2)
    tensorlab.manual_seed(3)
    first = [s.indices for s in tld.random_split(Squares(20), [10, 10])]
    tensorlab.manual_seed(3)
    assert [s.indices for s in tld.random_split(Squares(20), [10, 10])] == first


def test_random_split_errors_match_torch(torch):
    for lengths in ([3, 3], [1.5, -0.5]):
        with pytest.raises(ValueError) as expected:
            torch.utils.data.random_split(range(10), lengths)
        with pytest.raises(ValueError, match=str(expected.value).replace("(", r"\(")):
            tld.random_split(Squares(10), lengths)
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        tld.random_split(Squares(3), [1.0, 0.0])


# -- samplers ----------------------------------------------------------------------------------------


def test_samplers(torch):
    assert list(tld.SequentialSampler(range(4))) == [0, 1, 2, 3]
    g = tensorlab.Generator().manual_seed(0)
    perm = list(tld.RandomSampler(range(10), generator=g))
    assert sorted(perm) == list(range(10))
    long = list(tld.RandomSampler(range(4), num_samples=10, generator=g))
    assert len(long) == 10 and all(long.count(i) >= 2 for i in range(4))
    drawn = list(tld.RandomSampler(range(3), replacement=True, num_samples=50, generator=g))
    assert len(drawn) == 50 and set(drawn) <= {0, 1, 2}
    assert sorted(tld.SubsetRandomSampler([5, 7, 9], generator=g)) == [5, 7, 9]
    weighted = list(tld.WeightedRandomSampler([0.0, 1.0, 0.0, 2.0], 30, generator=g))
    assert len(weighted) == 30 and set(weighted) <= {1, 3}
    for drop_last in (False, True):
        th = list(torch.utils.data.BatchSampler(range(10), 3, drop_last))
        tl = tld.BatchSampler(range(10), 3, drop_last)
        assert list(tl) == th and len(tl) == len(th)


@pytest.mark.parametrize("make", [
    lambda lib: lib.BatchSampler(range(3), 0, False),
    lambda lib: lib.BatchSampler(range(3), True, False),
    lambda lib: lib.BatchSampler(range(3), 2, 1),
    lambda lib: lib.RandomSampler(range(3), replacement=1),
    lambda lib: lib.RandomSampler(range(3), num_samples=0),
    lambda lib: lib.RandomSampler([], num_samples=None),
    lambda lib: lib.WeightedRandomSampler([1.0], 0),
    lambda lib: lib.WeightedRandomSampler([[1.0]], 2),
])
def test_sampler_errors_match_torch(torch, make):
    with pytest.raises(Exception) as expected:
        make(torch.utils.data)
    with pytest.raises(type(expected.value)) as got:
        make(tld)
    assert str(got.value) == str(expected.value)


# -- DataLoader ----------------------------------------------------------------------------------------


def _datasets(lib, n):
    x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
    y = np.arange(n) % 4
    return lib.utils.data.TensorDataset(lib.tensor(x), lib.tensor(y))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 40), batch_size=st.integers(1, 12), drop_last=st.booleans())
def test_batches_match_torch_without_shuffle(n, batch_size, drop_last):
    torch = pytest.importorskip("torch")
    tl = tld.DataLoader(_datasets(tensorlab, n), batch_size=batch_size, drop_last=drop_last)
    th = torch.utils.data.DataLoader(_datasets(torch, n), batch_size=batch_size, drop_last=drop_last)
    assert len(tl) == len(th)
    got, expected = [_plain(b) for b in tl], [_plain(b) for b in th]
    assert got == expected and len(got) == len(tl)


def test_shuffle_is_a_permutation_per_epoch_and_seedable():
    ds = _datasets(tensorlab, 20)

    def order(seed):
        loader = tld.DataLoader(ds, batch_size=6, shuffle=True, generator=tensorlab.Generator().manual_seed(seed))
        return [int(v) // 3 for x, _ in loader for v in x[:, 0].tolist()]

    a = order(0)
    assert sorted(a) == list(range(20)) and a != list(range(20))
    assert order(0) == a and order(1) != a
    loader = tld.DataLoader(ds, batch_size=6, shuffle=True, generator=tensorlab.Generator().manual_seed(0))
    first = [v for x, _ in loader for v in x[:, 0].tolist()]
    second = [v for x, _ in loader for v in x[:, 0].tolist()]
    assert first != second and sorted(first) == sorted(second)
    tensorlab.manual_seed(7)
    global_a = [v for x, _ in tld.DataLoader(ds, batch_size=4, shuffle=True) for v in x[:, 0].tolist()]
    tensorlab.manual_seed(7)
    global_b = [v for x, _ in tld.DataLoader(ds, batch_size=4, shuffle=True) for v in x[:, 0].tolist()]
    assert global_a == global_b


def test_batch_structure_and_dtypes_match_torch(torch):
    tl_x, th_x = next(iter(tld.DataLoader(_datasets(tensorlab, 10), batch_size=4))), \
        next(iter(torch.utils.data.DataLoader(_datasets(torch, 10), batch_size=4)))
    assert _plain(tl_x) == _plain(th_x)
    assert type(tl_x) is list and tl_x[0].shape == tensorlab.Size([4, 3]) and tl_x[1].dtype is tensorlab.int64


def test_custom_sampler_batch_sampler_and_collate_fn(torch):
    ds = Squares(10)
    assert [b.tolist() for b in tld.DataLoader(ds, batch_size=3, sampler=[9, 0, 4, 1])] == [[81, 0, 16], [1]]
    batches = tld.DataLoader(ds, batch_sampler=[[1, 2], [3]], collate_fn=lambda b: sum(b))
    assert list(batches) == [5, 9] and len(batches) == 2
    th = torch.utils.data.DataLoader(range(10), batch_size=None)
    tl = tld.DataLoader(ds, batch_size=None)
    assert len(tl) == len(th) == 10 and list(tl) == [i * i for i in range(10)]
    arrays = tld.DataLoader([np.ones(2, np.float32)], batch_size=None)
    assert _plain(list(arrays)) == _plain(list(torch.utils.data.DataLoader([np.ones(2, np.float32)],
                                                                            batch_size=None)))


def test_getitems_is_used_for_whole_batches():
    class Batched(Squares):
        calls = 0

        def __getitems__(self, indices):
            Batched.calls += 1
            return [i * i for i in indices]

    assert [b.tolist() for b in tld.DataLoader(Batched(5), batch_size=2)] == [[0, 1], [4, 9], [16]]
    assert Batched.calls == 3


class Stream(tld.IterableDataset):
    def __init__(self, n, sized=True):
        self.n, self.sized = n, sized

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        if not self.sized:
            raise TypeError("Stream has no len()")
        return self.n


@pytest.mark.parametrize("batch_size,drop_last", [(3, False), (3, True), (None, False), (5, False)])
def test_iterable_dataset(torch, batch_size, drop_last):
    class ThStream(torch.utils.data.IterableDataset):
        def __iter__(self):
            return iter(range(10))

        def __len__(self):
            return 10

    tl = tld.DataLoader(Stream(10), batch_size=batch_size, drop_last=drop_last)
    th = torch.utils.data.DataLoader(ThStream(), batch_size=batch_size, drop_last=drop_last)
    assert [_plain(b) for b in tl] == [_plain(b) for b in th]
    assert len(tl) == len(th)


@pytest.mark.parametrize("kwargs", [dict(shuffle=True), dict(sampler=[0, 1]), dict(batch_sampler=[[0]])])
def test_iterable_dataset_rejects_ordering_options(torch, kwargs):
    class ThStream(torch.utils.data.IterableDataset):
        def __iter__(self):
            return iter(range(3))

    with pytest.raises(ValueError) as expected:
        torch.utils.data.DataLoader(ThStream(), **kwargs)
    with pytest.raises(ValueError) as got:
        tld.DataLoader(Stream(3), **kwargs)
    prefix = str(expected.value).split(", but got")[0]
    assert str(got.value).startswith(prefix)


@pytest.mark.parametrize("kwargs", [
    dict(shuffle=True, sampler=[0, 1]),
    dict(batch_sampler=[[0]], batch_size=2),
    dict(batch_sampler=[[0]], drop_last=True),
    dict(batch_size=None, drop_last=True),
    dict(num_workers=-1),
    dict(timeout=-1),
    dict(prefetch_factor=2),
    dict(persistent_workers=True),
    dict(batch_size=0),
])
def test_dataloader_option_errors_match_torch(torch, kwargs):
    with pytest.raises(ValueError) as expected:
        torch.utils.data.DataLoader(range(4), **kwargs)
    with pytest.raises(ValueError) as got:
        tld.DataLoader(Squares(4), **kwargs)
    assert str(got.value) == str(expected.value)


def test_num_workers_is_accepted_and_gives_the_same_batches():
    ds = _datasets(tensorlab, 9)
    plain = [_plain(b) for b in tld.DataLoader(ds, batch_size=4)]
    workers = tld.DataLoader(ds, batch_size=4, num_workers=2, pin_memory=True, prefetch_factor=2,
                             persistent_workers=True, worker_init_fn=lambda i: None)
    assert [_plain(b) for b in workers] == plain
    assert workers.num_workers == 2 and tld.get_worker_info() is None


def test_dataset_of_dicts_trains_like_a_tutorial(torch):
    rng = np.random.default_rng(1)
    examples = [{"x": rng.standard_normal(3).astype(np.float32), "y": int(rng.integers(0, 2))} for _ in range(7)]
    tl = list(tld.DataLoader(examples, batch_size=3))
    th = list(torch.utils.data.DataLoader(examples, batch_size=3))
    assert [_plain(b) for b in tl] == [_plain(b) for b in th]


def test_a_column_of_strings_collates_to_a_tuple_as_in_pytorch(torch):
    from torch.utils.data import default_collate as theirs
    from tensorlab.utils.data import default_collate as ours
    for batch in ([("a", 1), ("b", 2)], [["a", 1.5], ["b", 2.5]]):
        got, expected = ours(batch), theirs(batch)
        assert got[0] == expected[0] and type(got[0]) is tuple
        assert got[1].tolist() == expected[1].tolist()
    assert ours(["a", "b"]) == theirs(["a", "b"]) == ["a", "b"]
