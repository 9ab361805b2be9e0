"""Array libraries, one per device type. The only place that knows NumPy from CuPy.

Everything else asks ``backend.for_device(device)`` for a small object with:
``xp`` (the array module), ``strided_view(flat, offset, shape, strides)`` (a view of a flat buffer,
in elements), ``to_numpy(array)`` and ``asarray(data, dtype)``.
"""
from . import numpy_backend

_cuda = None


def for_device(device):
    if device.type == "cpu":
        return numpy_backend
    return cuda_backend()


def cuda_backend():
    global _cuda
    if _cuda is None:
        try:
            from . import cupy_backend  # imported lazily: CuPy is optional and slow to import
        except ImportError as error:  # no CuPy: what a CPU-only build of PyTorch says
            raise AssertionError("Torch not compiled with CUDA enabled") from error
        _cuda = cupy_backend
    return _cuda


def cuda_available():
    try:
        return cuda_backend().is_available()
    except AssertionError:
        return False
