"""The CUDA backend: CuPy arrays (optional; ``pip install tensorlab[gpu]``)."""
import cupy
import numpy as np

xp = cupy
name = "cupy"


def is_available():
    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # no driver, no device
        return False


def strided_view(flat, offset, shape, strides):
    item = flat.itemsize
    if 0 in shape:  # an empty view reads nothing; its offset may point past the end (PyTorch allows it)
        offset = 0
    return cupy.ndarray(shape, flat.dtype, memptr=flat.data + offset * item,
                        strides=tuple(s * item for s in strides))


def synchronize():
    """Block until every kernel queued on the current device has run."""
    cupy.cuda.runtime.deviceSynchronize()


def to_numpy(array):
    return cupy.asnumpy(array)


def asarray(data, dtype=None):
    if isinstance(data, np.ndarray) or not hasattr(data, "__cuda_array_interface__"):
        data = np.asarray(data, dtype=dtype)
    return cupy.asarray(data, dtype=dtype)


def data_ptr(flat):
    return flat.data.ptr


def empty(n, np_dtype):
    return cupy.empty(n, np_dtype)


def is_writable(array):
    """CuPy arrays have no read-only mode."""
    return True
