"""Flatten and Unflatten: reshape between a conv stack's (N, C, H, W) and a classifier's (N, C*H*W).
See course/14_convolution.
"""
from .module import Module


class Flatten(Module):
    """Merge dims ``start_dim..end_dim`` (by default all but the batch dim) into one."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size``."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("unflattened_size must be tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input):
        dim = self.dim + input.dim() if self.dim < 0 else self.dim
        shape = input.shape[:dim] + tuple(self.unflattened_size) + input.shape[dim + 1:]
        return input.view(tuple(shape))

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
