"""Devices: where a tensor's storage lives. "cpu" uses NumPy; "cuda" uses CuPy when installed.

``repr`` matches PyTorch (``device(type='cpu')``) so lesson output reads the same.
"""


class device:
    __slots__ = ("type", "index")

    def __init__(self, type, index=None):  # noqa: A002 - PyTorch's argument name
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, str) and ":" in type:
            type, _, idx = type.partition(":")
            index = int(idx)
        elif isinstance(type, int):
            type, index = "cuda", type
        if type not in ("cpu", "cuda"):
            raise RuntimeError(
                f"Expected one of cpu, cuda device type at start of device string: {type}")
        self.type, self.index = type, index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


CPU = device("cpu")


def as_device(d):
    """Normalise a device argument (None, str, int or device) to a device; cuda gets index 0."""
    if d is None:
        return CPU
    d = d if isinstance(d, device) else device(d)
    if d.type == "cuda" and d.index is None:
        d = device("cuda", 0)
    return d
