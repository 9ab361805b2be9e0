"""DataLoader: iterate over a dataset in batches.

One epoch, written out (this is all ``for batch in loader`` does here)::

    for indices in batch_sampler:                  # e.g. [7, 2, 9, 0] when shuffling
        examples = [dataset[i] for i in indices]
        yield collate_fn(examples)                 # -> e.g. [images [4, ...], labels [4]]

``shuffle=True`` uses a ``RandomSampler`` (a new permutation each epoch, from ``generator`` or from
the global generator that ``tensorlab.manual_seed`` resets); ``batch_size=None`` turns batching off.

Loading always runs in the calling process: ``num_workers`` (and ``pin_memory``, ``timeout``,
``worker_init_fn``, ``prefetch_factor``, ``persistent_workers``) are accepted so PyTorch code runs
unchanged, and checked as PyTorch checks them, but no worker processes are started -- the batches
are the same, only produced one after another. See course/18_data_and_transforms.
"""
import math

from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]


def get_worker_info():
    """Information about the current loader worker: always ``None``, since no workers are started."""
    return None


class DataLoader:
    """Batches from ``dataset``: ``DataLoader(ds, batch_size=64, shuffle=True)``."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers=False, pin_memory_device="", in_order=True):
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        shuffle = bool(shuffle)
        batch_size, drop_last = _check_batching_options(batch_size, shuffle, sampler, batch_sampler, drop_last)
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self):
        """Whether examples are grouped into batches (False when ``batch_size=None``)."""
        return self.batch_sampler is not None or (self._iterable and self.batch_size is not None)

    def __iter__(self):
        if self._iterable:
            return self._iter_stream()
        return self._iter_map()

    def _iter_map(self):
        if not self._auto_collation:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        fetch_many = getattr(self.dataset, "__getitems__", None)
        for indices in self.batch_sampler:
            examples = fetch_many(indices) if callable(fetch_many) else [self.dataset[i] for i in indices]
            yield self.collate_fn(examples)

    def _iter_stream(self):
        """An IterableDataset: take examples as they come, ``batch_size`` at a time."""
        if not self._auto_collation:
            for example in self.dataset:
                yield self.collate_fn(example)
            return
        batch = []
        for example in self.dataset:
            batch.append(example)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self):
        """The number of batches per epoch."""
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is None:
                return length
            return length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
        return len(self.batch_sampler if self._auto_collation else self.sampler)


def _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers):
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                         "multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers "
                         "> 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")


def _check_iterable_options(shuffle, sampler, batch_sampler):
    """An IterableDataset decides its own order: no shuffling or samplers."""
    if shuffle not in (False, None):
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                         f"shuffle={shuffle}")
    if sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                         f"sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                         f"got batch_sampler={batch_sampler}")


def _check_batching_options(batch_size, shuffle, sampler, batch_sampler, drop_last):
    if sampler is not None and shuffle:
        raise ValueError("sampler option is mutually exclusive with shuffle")
    if batch_sampler is not None:
        if batch_size != 1 or shuffle or sampler is not None or drop_last:
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                             "and drop_last")
        return None, False
    if batch_size is None and drop_last:
        raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                         "drop_last")
    return batch_size, drop_last
