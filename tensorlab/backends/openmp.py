"""``torch.backends.openmp``: PyTorch's CPU threads. tensorlab's work runs in NumPy (whose BLAS may
use threads of its own)."""


def is_available():
    return False
