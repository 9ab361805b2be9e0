"""``torch.backends.cudnn``: NVIDIA's library of convolution kernels. tensorlab does not use it (its
convolutions are matrix products, tensorlab/ops/nn_conv.py), so it is never available; the flags keep
their value and change nothing. ``benchmark = True`` in a tutorial is harmless here."""
import contextlib

enabled = True          # use cuDNN when it is there
benchmark = False       # time several algorithms on the first call and keep the fastest
deterministic = False   # only algorithms that give bitwise-equal results on every run
allow_tf32 = True       # let convolutions use TensorFloat-32 on Ampere GPUs
benchmark_limit = None


def is_available():
    return False


def version():
    """cuDNN's version number; None: tensorlab has none."""
    return None


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    """Set the flags inside a ``with`` block, restore them after (as PyTorch's ``cudnn.flags``)."""
    names = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")
    here = globals()
    saved = {name: here[name] for name in names}
    here.update(enabled=enabled, benchmark=benchmark, benchmark_limit=benchmark_limit,
                deterministic=deterministic, allow_tf32=allow_tf32)
    try:
        yield
    finally:
        here.update(saved)
