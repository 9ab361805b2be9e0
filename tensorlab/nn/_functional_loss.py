"""nn.functional, losses: argument checks and the composite losses (cross entropy = log_softmax +
nll_loss). The kernels are in tensorlab/ops/nn_loss.py.
See course/13_layers_and_losses.
"""
import warnings

from .. import _dtype, _layout
from ..ops import nn_activation as _act
from ..ops import nn_loss as _loss

_REDUCTIONS = ("mean", "sum", "none")


def _reduction(reduction, size_average=None, reduce=None):
    """The reduction string, translating PyTorch's deprecated ``size_average``/``reduce`` flags."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "mean" if (size_average and reduce) else "sum" if reduce else "none"
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                      "instead.", UserWarning, stacklevel=3)
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _broadcast_pair(input, target):
    """Regression losses broadcast a target of another shape -- with PyTorch's warning, since that is
    almost always a bug (a (N, 1) prediction against an (N,) target gives an (N, N) loss)."""
    if target._shape == input._shape:
        return input, target
    warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                  "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                  "same size.", UserWarning, stacklevel=3)
    shape = _layout.broadcast_shapes(input._shape, target._shape)
    return input.expand(shape), target.expand(shape)


def _reduce(losses, reduction):
    return losses.mean() if reduction == "mean" else losses.sum() if reduction == "sum" else losses


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error ``(input - target) ** 2``."""
    reduction = _reduction(reduction, size_average, reduce)
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        d = input - target
        return _reduce(d * d * weight, reduction)
    return _loss.MseLoss.apply(input, target, reduction, None)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute error ``|input - target|`` (PyTorch's graph: AbsBackward0, then the reduction)."""
    reduction = _reduction(reduction, size_average, reduce)
    input, target = _broadcast_pair(input, target)
    losses = (input - target).abs()
    return _reduce(losses * weight if weight is not None else losses, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Quadratic for ``|d| < beta``, linear beyond: robust to outliers, smooth at 0."""
    reduction = _reduction(reduction, size_average, reduce)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:   # the quadratic part vanishes: this is l1_loss (PyTorch computes it that way too)
        return l1_loss(input, target, reduction=reduction)
    input, target = _broadcast_pair(input, target)
    return _loss.SmoothL1Loss.apply(input, target, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """``0.5 d^2`` for ``|d| < delta``, else ``delta (|d| - delta/2)``."""
    reduction = _reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        return _reduce(_loss.HuberLoss.apply(input, target, "none", delta) * weight, reduction)
    return _loss.HuberLoss.apply(input, target, reduction, delta)


# -- classification -----------------------------------------------------------------------------------------


def _check_class_target(input, target, weight):
    if input.dim() == 1:
        if target.dim() != 0:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif input.dim() == 2 and target.dim() != 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif input.dim() >= 2 and target._shape[:1] != input._shape[:1]:
        raise ValueError(f"Expected input batch_size ({input._shape[0]}) to match target batch_size "
                         f"({target._shape[0] if target.dim() else 0}).")
    elif input.dim() > 2 and target._shape != input._shape[:1] + input._shape[2:]:
        raise RuntimeError(f"size mismatch (got input: {list(input._shape)} , target: {list(target._shape)}")
    if target.dtype not in (_dtype.int64, _dtype.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype._legacy[:-6]}")
    classes = input._shape[0 if input.dim() == 1 else 1]
    if weight is not None and weight._shape != (classes,):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but "
                           f"got weight tensor of shape: {list(weight._shape)}")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """``-input[i, target[i]]`` (weighted), for log-probabilities ``input``."""
    reduction = _reduction(reduction, size_average, reduce)
    _check_class_target(input, target, weight)
    return _nll(input, target.long() if target.dtype is _dtype.uint8 else target, weight, reduction,
                ignore_index)


def _nll(input, target, weight, reduction, ignore_index):
    """(N, C) inputs use nll_loss; images (N, C, H, W) nll_loss2d; other shapes are viewed as images
    (N, C, 1, -1) and the result viewed back -- the same graph PyTorch builds."""
    if input.dim() <= 2:
        return _loss.NllLoss.apply(input, target, weight, reduction, ignore_index)
    if input.dim() == 4:
        return _loss.NllLoss2d.apply(input, target, weight, reduction, ignore_index)
    n, c = input._shape[:2]
    out = _loss.NllLoss2d.apply(input.contiguous().view(n, c, 1, -1), target.contiguous().view(n, 1, -1),
                                weight, reduction, ignore_index)
    return out.view(target._shape) if reduction == "none" else out


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """Softmax + negative log likelihood, from raw scores (logits).

    ``target`` is class indices (N,) -- or class probabilities shaped like ``input``. With
    ``label_smoothing`` the true class gets ``1 - eps`` of the probability mass and every class
    ``eps / C``.
    """
    reduction = _reduction(reduction, size_average, reduce)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    logp = _act.LogSoftmax.apply(input, class_dim)
    if target.dtype.is_floating_point and target._shape == input._shape:
        return _soft_target_loss(logp, target, weight, reduction, label_smoothing, class_dim)
    _check_class_target(input, target, weight)
    nll = _nll(logp, target, weight, reduction, ignore_index)
    if label_smoothing == 0.0:
        return nll
    return _smoothed(logp, nll, target, weight, reduction, ignore_index, label_smoothing, class_dim)


def _soft_target_loss(logp, target, weight, reduction, label_smoothing, class_dim):
    """Cross entropy against a probability distribution: ``-sum_c target_c * log p_c``."""
    classes = logp._shape[class_dim]
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    terms = logp * target
    if weight is not None:
        terms = terms * weight.reshape((classes,) + (1,) * (logp.dim() - class_dim - 1))
    losses = -terms.sum(class_dim)
    if reduction == "mean":
        return losses.sum() / (logp.numel() // classes) if logp.numel() else losses.sum()
    return losses.sum() if reduction == "sum" else losses


def _smoothed(logp, nll, target, weight, reduction, ignore_index, eps, class_dim):
    """``(1 - eps) * nll + eps / C * (-sum_c w_c log p_c)``, ignoring ``ignore_index`` targets."""
    classes = logp._shape[class_dim]
    terms = logp if weight is None else logp * weight.reshape((classes,) + (1,) * (logp.dim() - class_dim - 1))
    kept = (target != ignore_index)
    smooth = -terms.sum(class_dim) * kept
    if reduction == "mean":
        if weight is None:
            denominator = kept.sum()
        else:
            safe = target.masked_fill(~kept, 0)
            denominator = (weight.detach()[safe] * kept).sum()
        smooth = smooth.sum() / denominator
    elif reduction == "sum":
        smooth = smooth.sum()
    return nll * (1 - eps) + smooth * (eps / classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """``-(t log p + (1 - t) log(1 - p))`` for probabilities ``p`` (e.g. after a sigmoid)."""
    reduction = _reduction(reduction, size_average, reduce)
    if target._shape != input._shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(_layout.broadcast_shapes(target._shape, weight._shape))
    return _loss.BinaryCrossEntropy.apply(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """BCE of ``sigmoid(input)``, computed stably from the logits. ``pos_weight`` scales positive targets."""
    reduction = _reduction(reduction, size_average, reduce)
    if target._shape != input._shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    return _loss.BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """``target * (log target - input)`` for log-probabilities ``input``; "batchmean" divides by N."""
    if reduction == "batchmean":
        pass
    else:
        reduction = _reduction(reduction, size_average, reduce)
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          UserWarning, stacklevel=2)
    if log_target:
        losses = target.exp() * (target - input)
    else:   # target * log(target), taken as 0 where target is 0
        t_log_t = target * target.masked_fill(target == 0, 1).log()
        losses = t_log_t - target * input
    if reduction == "batchmean":
        return losses.sum() / (input._shape[0] if input.dim() else 1)
    return _reduce(losses, reduction)


__all__ = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "nll_loss", "cross_entropy",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div"]
