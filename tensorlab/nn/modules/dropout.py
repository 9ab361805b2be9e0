"""Dropout: during training, zero each activation with probability ``p`` (and scale the survivors by
1/(1-p)); in ``eval()`` mode, do nothing. A regulariser: no unit can rely on any single other unit.
The random mask comes from the generator ``tensorlab.manual_seed`` resets.
See course/15_normalization_and_regularization.
"""
from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    _fn = None

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return type(self)._fn(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    _fn = staticmethod(F.dropout)


class Dropout1d(_DropoutNd):
    """Drops whole channels of (N, C, L) inputs."""

    _fn = staticmethod(F.dropout1d)


class Dropout2d(_DropoutNd):
    """Drops whole feature maps of (N, C, H, W) inputs."""

    _fn = staticmethod(F.dropout2d)


class Dropout3d(_DropoutNd):
    _fn = staticmethod(F.dropout3d)
