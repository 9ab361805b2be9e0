"""Collation: turn a list of examples into one batch, keeping the examples' structure.

``default_collate`` looks at the first example and recurses::

    tensors           -> stacked along a new dim 0            [B, *shape]
    NumPy arrays      -> as tensors, then stacked
    NumPy scalars     -> one tensor of their dtype
    float             -> float64 tensor        int -> int64 tensor        bool -> bool tensor
    str / bytes       -> left as they are (the batch of them: a tuple inside a tuple or list)
    dict              -> dict of collated values, key by key
    namedtuple        -> the same namedtuple of collated fields
    tuple / list      -> a list of collated positions ("transpose" the batch)

So a dataset of ``(image, label)`` pairs gives ``[images [B, C, H, W], labels [B]]``.
See course/18_data_and_transforms.
"""
import collections.abc
import copy

import numpy as np

__all__ = ["default_collate", "default_convert"]

_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _is_text_array(array):
    """NumPy arrays of strings, bytes or Python objects cannot become tensors."""
    return array.dtype.kind in "SaUO"


def default_collate(batch):
    """Stack a list of examples into a batch (see the module docstring for the rules)."""
    from ...ops.creation import as_tensor, tensor
    from ...tensor import Tensor
    from ... import _dtype
    elem = batch[0]
    if isinstance(elem, Tensor):
        from ... import stack
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if _is_text_array(elem):
            raise TypeError(_ERROR.format(elem.dtype))
        return default_collate([as_tensor(b) for b in batch])
    if isinstance(elem, (np.bool_, np.number)):
        return as_tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):           # bool is an int too: [True, False] -> a bool tensor
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return _collate_mapping(elem, batch)
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):   # namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        return _collate_sequence(elem, batch)
    raise TypeError(_ERROR.format(type(elem)))


def _collate_mapping(elem, batch):
    collated = {key: default_collate([d[key] for d in batch]) for key in elem}
    try:
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)        # keep the mapping's own type (OrderedDict, ...)
            clone.update(collated)
            return clone
        return type(elem)(collated)
    except TypeError:
        return collated


def _collate_sequence(elem, batch):
    size = len(elem)
    if any(len(e) != size for e in batch):
        raise RuntimeError("each element in list of batch should be of equal size")
    columns = [default_collate(samples) for samples in zip(*batch)]  # a column of strings stays a tuple
    if isinstance(elem, tuple):
        return columns
    try:
        if isinstance(elem, collections.abc.MutableSequence):
            clone = copy.copy(elem)
            for i, column in enumerate(columns):
                clone[i] = column
            return clone
        return type(elem)(columns)
    except TypeError:
        return columns


def default_convert(data):
    """Without batching (``batch_size=None``): only turn NumPy arrays into tensors, recursively."""
    from ...ops.creation import as_tensor
    if isinstance(data, np.ndarray):
        return data if _is_text_array(data) else as_tensor(data)
    if isinstance(data, (np.bool_, np.number)):
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _convert_mapping(data)
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return type(data)([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def _convert_mapping(data):
    converted = {key: default_convert(value) for key, value in data.items()}
    try:
        if isinstance(data, collections.abc.MutableMapping):
            clone = copy.copy(data)
            clone.update(converted)
            return clone
        return type(data)(converted)
    except TypeError:
        return converted
