"""The CPU backend: NumPy arrays."""
import numpy as np

xp = np
name = "numpy"


def strided_view(flat, offset, shape, strides):
    """An ndarray that reads ``flat`` (1-D) at ``offset + sum(i * s)`` for each index -- no copy.

    >>> flat = np.arange(6.0)
    >>> strided_view(flat, 1, (2, 2), (3, 1))
    array([[1., 2.],
           [4., 5.]])
    """
    item = flat.itemsize
    if 0 in shape:  # an empty view reads nothing; its offset may point past the end (PyTorch allows it)
        offset = 0
    return np.ndarray(shape, flat.dtype, buffer=flat, offset=offset * item,
                      strides=[s * item for s in strides])


def to_numpy(array):
    return array


def asarray(data, dtype=None):
    return np.asarray(data, dtype=dtype)


def data_ptr(flat):
    return flat.__array_interface__["data"][0]


def empty(n, np_dtype):
    return np.empty(n, np_dtype)


def is_writable(array):
    """False for a read-only array (``np.broadcast_to``'s result, a memory-mapped file opened 'r',
    an array whose ``flags.writeable`` was cleared)."""
    return array.flags.writeable
