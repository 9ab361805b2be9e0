"""``torch.backends.cpu``: which vector instructions the CPU kernels use."""


def get_cpu_capability():
    """PyTorch's answer names an instruction set ('AVX2', 'AVX512'...); tensorlab leaves that choice
    to NumPy, so it answers 'DEFAULT', PyTorch's word for "no particular one"."""
    return "DEFAULT"
