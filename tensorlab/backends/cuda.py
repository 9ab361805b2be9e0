"""``torch.backends.cuda``: switches for cuBLAS (``matmul.allow_tf32``) and attention kernels.
``is_built()`` says whether tensorlab can use an NVIDIA GPU at all: whether CuPy is installed."""


class _Switches:
    """A fixed set of named flags: setting or reading any other name is PyTorch's AttributeError."""

    def __init__(self, **flags):
        object.__setattr__(self, "_flags", dict(flags))

    def __getattr__(self, name):
        flags = object.__getattribute__(self, "_flags")
        if name not in flags:
            raise AttributeError(f"Unknown attribute {name}")
        return flags[name]

    def __setattr__(self, name, value):
        if name not in self._flags:
            raise AttributeError(f"Unknown attribute {name}")
        self._flags[name] = value


# TensorFloat-32 trades matmul precision for speed on Ampere GPUs; PyTorch leaves it off for matmuls
matmul = _Switches(allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
                   allow_bf16_reduced_precision_reduction=True)


def is_built():
    import importlib.util
    return importlib.util.find_spec("cupy") is not None


def flash_sdp_enabled():
    return True


def mem_efficient_sdp_enabled():
    return True


def math_sdp_enabled():
    return True
