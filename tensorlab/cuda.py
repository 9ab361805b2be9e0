"""``tensorlab.cuda``: is a GPU (CuPy) available?"""
from .backend import cuda_available


def is_available():
    return cuda_available()


def device_count():
    if not is_available():
        return 0
    from .backend import cuda_backend
    return cuda_backend().xp.cuda.runtime.getDeviceCount()


def manual_seed(seed):
    from .ops.creation import manual_seed as _seed
    _seed(seed)


def manual_seed_all(seed):
    manual_seed(seed)
