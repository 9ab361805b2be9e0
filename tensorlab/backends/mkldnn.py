"""``torch.backends.mkldnn``: Intel's oneDNN kernels for CPUs. tensorlab's CPU kernels are NumPy's."""
enabled = True


def is_available():
    return False
