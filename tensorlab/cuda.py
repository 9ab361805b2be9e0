"""``tensorlab.cuda``: is a GPU (CuPy) available? (And the legacy types ``torch.cuda.FloatTensor`` & co.)"""
from ._tensor_types import _make_types
from .backend import cuda_available

globals().update(_make_types(__name__, "cuda"))  # FloatTensor, LongTensor... of tensors on the GPU


def is_available():
    return cuda_available()


def _why_unavailable():
    """Why no GPU can be used here, in a sentence (for skip messages), or None when one can."""
    try:
        import cupy  # noqa: F401
    except ImportError:
        return "CuPy is not installed (pip install tensorlab[gpu]; README says which cupy package)"
    if not is_available():
        return "CuPy finds no CUDA device (no GPU, or no driver)"
    return None


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


def synchronize(device=None):
    """Wait until the GPU has finished all queued work. GPU ops return as soon as they are queued,
    so a timing that does not end with this measures the queueing, not the work."""
    if is_available():
        from .backend import cuda_backend
        cuda_backend().synchronize()
