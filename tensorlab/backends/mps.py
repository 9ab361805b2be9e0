"""``torch.backends.mps``: Apple's Metal GPUs. tensorlab has no Metal backend, so
``device = "mps" if torch.backends.mps.is_available() else "cpu"`` picks the CPU."""


def is_available():
    return False


def is_built():
    return False
