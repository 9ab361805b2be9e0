"""Batch normalisation: normalise each channel over the batch, then scale and shift.

BatchNorm is the one layer whose *buffers* change during training: ``running_mean`` and
``running_var`` track the statistics seen so far (an exponential average with ``momentum``, or a
plain average when ``momentum=None``), and ``num_batches_tracked`` counts the batches. In
``eval()`` mode it normalises with those instead of the batch's own statistics.
See course/15_normalization_and_regularization.
"""
from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..parameter import UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module
from .normalization import _affine_parameters, _reset_affine, _tensor


class _BatchNorm(Module):
    _version = 2
    _input_dims = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        _affine_parameters(self, affine, bias, (num_features,), device, dtype)
        if track_running_stats:
            from ... import _dtype
            self.register_buffer("running_mean", _tensor(0.0, num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", _tensor(1.0, num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", _tensor(0, device=device, dtype=_dtype.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def _may_be_absent(self, name, version):
        """Checkpoints from before ``num_batches_tracked`` existed (format version < 2, or a plain dict
        without version information) do not have it: the counter then keeps its value, as in PyTorch."""
        return name == "num_batches_tracked" and (version is None or version < 2)

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        _reset_affine(self)

    def _check_input_dim(self, input):
        if input.dim() not in self._input_dims:
            raise ValueError(self._dims_message.format(input.dim()))

    def forward(self, input):
        self._check_input_dim(input)
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        running_mean = self.running_mean if track else None
        running_var = self.running_var if track else None
        # check everything before counting the batch: a failed call changes nothing
        F._check_batch_norm(input, running_mean, running_var, self.weight, self.bias, use_batch_stats)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:   # cumulative average: batch k gets weight 1/k
                factor = 1.0 / float(self.num_batches_tracked)
        return F.batch_norm(input, running_mean, running_var, self.weight, self.bias, use_batch_stats, factor,
                            self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch norm over (N, C) or (N, C, L) inputs."""

    _input_dims = (2, 3)
    _dims_message = "expected 2D or 3D input (got {}D input)"


class BatchNorm2d(_BatchNorm):
    """Batch norm over (N, C, H, W) images: one mean/variance per channel."""

    _input_dims = (4,)
    _dims_message = "expected 4D input (got {}D input)"


class BatchNorm3d(_BatchNorm):
    _input_dims = (5,)
    _dims_message = "expected 5D input (got {}D input)"


class _LazyBatchNorm(LazyModuleMixin, _BatchNorm):
    """BatchNorm with ``num_features`` read off the first input's dim 1: weight, bias, running_mean and
    running_var get their shapes then (``num_batches_tracked`` is a number and exists from the start).
    See modules/lazy.py."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        # made without parameters and statistics first: the uninitialized ones take their places
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            from ... import _dtype
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = _tensor(0, device=device, dtype=_dtype.int64)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        with no_grad():
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyBatchNorm, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm, BatchNorm2d):
    """BatchNorm2d with ``num_features`` read off the first input; it then becomes a BatchNorm2d."""

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyBatchNorm, BatchNorm3d):
    cls_to_become = BatchNorm3d
