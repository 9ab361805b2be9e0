"""Datasets: things you can index (``ds[i]``, ``len(ds)``) or iterate to get examples.

A map-style ``Dataset`` is just ``__getitem__`` and ``__len__``; ``TensorDataset`` serves row ``i``
of several equally long tensors, ``Subset`` a chosen list of indices of another dataset,
``ConcatDataset`` several datasets end to end. ``random_split`` shuffles the indices once and cuts
them into ``Subset``s (e.g. train / validation). See course/18_data_and_transforms.
"""
import bisect
import math
import warnings

__all__ = ["Dataset", "IterableDataset", "ChainDataset", "TensorDataset", "Subset", "ConcatDataset", "random_split"]


class Dataset:
    """A map-style dataset: subclasses implement ``__getitem__(i)`` (and usually ``__len__``)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of examples: subclasses implement ``__iter__`` (for data read as it arrives)."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """Several iterable datasets, one after the other."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self):
        return sum(len(d) for d in self.datasets)


class TensorDataset(Dataset):
    """Example ``i`` is ``(t[i] for t in tensors)``; all tensors must have the same first dimension."""

    def __init__(self, *tensors):
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The examples of ``dataset`` at ``indices``, renumbered 0..len(indices)-1."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        """A whole batch at once (the DataLoader uses this when a dataset offers it)."""
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several map-style datasets one after another; index ``i`` is found by a binary search."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    @staticmethod
    def cumsum(sequence):
        """End index of each dataset: lengths [3, 2, 4] give [3, 5, 9]."""
        total, out = 0, []
        for d in sequence:
            total += len(d)
            out.append(total)
        return out

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]


def random_split(dataset, lengths, generator=None):
    """Shuffle the indices once and cut them into non-overlapping ``Subset``s.

    ``lengths`` are counts that sum to ``len(dataset)``, or fractions that sum to 1 (each split
    gets ``floor(n * fraction)``, and the leftover items go one each to the first splits).
    Pass ``generator=tensorlab.Generator().manual_seed(42)`` for the same split every run.
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    from ...ops.creation import randperm
    indices = randperm(sum(lengths), generator=generator).tolist()
    splits, offset = [], 0
    for length in lengths:
        splits.append(Subset(dataset, indices[offset:offset + length]))
        offset += length
    return splits


def _lengths_from_fractions(n, fractions):
    lengths = []
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(n * frac))
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                          stacklevel=3)
    return lengths
