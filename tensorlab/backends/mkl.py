"""``torch.backends.mkl``: Intel's Math Kernel Library. tensorlab calls NumPy, whichever BLAS NumPy was
built with; it does not call MKL itself."""


def is_available():
    return False
