"""Devices: where a tensor's storage lives. "cpu" uses NumPy; "cuda" uses CuPy when installed.

``repr`` matches PyTorch (``device(type='cpu')``) so lesson output reads the same.
See course/01_tensors.
"""

_KNOWN = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, "
          "hpu, mtia, privateuseone")


class device:
    """A device type (``'cpu'`` or ``'cuda'``) and an optional index: ``device('cuda:1')``,
    ``device('cuda', 1)``, ``device('cpu')``."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):  # noqa: A002 - PyTorch's argument name
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type
        elif isinstance(type, str) and ":" in type:
            name, _, idx = type.partition(":")
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            type, index = name, int(idx)
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got ({type!r})")
        if type not in ("cpu", "cuda"):
            if type in _KNOWN.split(", "):
                raise RuntimeError(f"tensorlab supports only the cpu and cuda device types, not {type}")
            raise RuntimeError(f"Expected one of {_KNOWN} device type at start of device string: {type}")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = type, index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


CPU = device("cpu")
_CANONICAL = {("cpu", None): CPU}


def as_device(d):
    """Normalise a device argument (None, str, int or device) to a device; cuda gets index 0.

    A tensor's device is always concrete: ``"cuda"`` means the current GPU, ``cuda:0``. Equal devices
    come back as the *same* object, so ops can compare devices with a quick ``is``.
    """
    if d is None or d is CPU:
        return CPU
    d = d if isinstance(d, device) else device(d)
    key = (d.type, 0 if d.type == "cuda" and d.index is None else d.index)
    found = _CANONICAL.get(key)
    if found is None:
        found = _CANONICAL[key] = device(*key)
    return found
