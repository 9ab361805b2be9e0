"""Loss kernels: one number that says how wrong a prediction is.

Every loss computes a per-element loss, then reduces it: ``reduction="mean"`` (the default),
``"sum"``, or ``"none"`` (keep the per-element losses). Backward is the derivative of the per-element
loss times the incoming gradient, divided by the element count for "mean".

The classification losses are built for numerical stability: cross entropy is ``log_softmax`` (which
never forms ``exp(x)`` of a large logit) followed by ``nll_loss`` (pick ``-log p`` of the true class);
``binary_cross_entropy_with_logits`` folds the sigmoid into the log with the log-sum-exp trick.
See course/13_layers_and_losses.
"""
import numpy as np

from ..autograd.engine import arrays_suffice
from ..autograd.function import Function
from ._util import wrap, xp_of
from .nn import constant_like, put_along_axis


def reduce_array(xp, losses, reduction):
    if reduction == "mean":
        return xp.asarray(losses.mean(), dtype=losses.dtype)
    if reduction == "sum":
        return xp.asarray(losses.sum(), dtype=losses.dtype)
    return losses


def spread(grad, reduction, count):
    """The incoming gradient, as it applies to each element of the unreduced loss."""
    return grad / count if reduction == "mean" else grad


class _PointwiseLoss(Function):
    """A loss ``l(input - target)`` applied elementwise, then reduced. Subclasses give ``loss(d)``
    and ``slope(d)`` (dl/dd as a tensor expression of the difference tensor ``d``)."""

    @staticmethod
    def forward(ctx, input, target, reduction, param):
        xp = xp_of(input)
        d = input._array - target._array
        ctx.save_for_backward(input, target)
        ctx.reduction, ctx.param, ctx.count = reduction, param, max(d.size, 1)
        losses = type(ctx)._forward_cls.loss(xp, d, param).astype(d.dtype, copy=False)
        return wrap(reduce_array(xp, losses, reduction), input.device)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        slope = type(ctx)._forward_cls.slope(input - target, ctx.param) * spread(grad, ctx.reduction, ctx.count)
        return (slope if ctx.needs_input_grad[0] else None,
                -slope if ctx.needs_input_grad[1] else None, None, None)


class MseLoss(_PointwiseLoss):
    """``(input - target) ** 2``."""

    node_name = "MseLossBackward0"

    @staticmethod
    def loss(xp, d, _):
        return d * d

    @staticmethod
    def slope(d, _):
        return d * 2


class SmoothL1Loss(_PointwiseLoss):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``: quadratic near 0, linear far."""

    node_name = "SmoothL1LossBackward0"

    @staticmethod
    def loss(xp, d, beta):
        a = xp.abs(d)
        if beta == 0:
            return a
        return xp.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta)

    @staticmethod
    def slope(d, beta):
        a = d._array
        sign = constant_like(xp_of(d).sign(a), d)
        if beta == 0:
            return sign
        inner = constant_like(abs(a) < beta, d)
        return inner * d / beta + (1 - inner) * sign


class HuberLoss(_PointwiseLoss):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta * (|d| - 0.5 delta)`` (smooth L1 times delta)."""

    node_name = "HuberLossBackward0"

    @staticmethod
    def loss(xp, d, delta):
        a = xp.abs(d)
        return xp.where(a < delta, 0.5 * d * d, delta * (a - 0.5 * delta))

    @staticmethod
    def slope(d, delta):
        a = d._array
        inner = constant_like(abs(a) < delta, d)
        return inner * d + (1 - inner) * constant_like(xp_of(d).sign(a) * delta, d)


# -- classification -----------------------------------------------------------------------------------


class NllLoss(Function):
    """Negative log likelihood: ``-weight[t] * input[i, t]`` for each sample's target class ``t``.

    ``input`` holds log-probabilities (N, C, *d) -- or (C,) for one sample; ``target`` class indices
    (N, *d). Targets equal to ``ignore_index`` contribute nothing; "mean" divides by the total weight
    of the targets that were not ignored.
    """

    node_name = "NllLossBackward0"

    @staticmethod
    def forward(ctx, input, target, weight, reduction, ignore_index):
        xp, x, t = xp_of(input), input._array, target._array
        if x.ndim == 1:                       # one unbatched sample
            x, t = x[None], t[None]
        kept = t != ignore_index
        safe_t = t * kept                     # ignored targets point at class 0, with weight 0
        if safe_t.size and (int(safe_t.min()) < 0 or int(safe_t.max()) >= x.shape[1]):
            bad = t[kept & ((t < 0) | (t >= x.shape[1]))]
            raise IndexError(f"Target {int(bad.reshape(-1)[0])} is out of bounds.")
        w = kept.astype(x.dtype) if weight is None else weight._array[safe_t] * kept
        if x.ndim == 2:                       # input[i, t_i] (and input[i, t_i, ...] for images)
            picked = x[xp.arange(x.shape[0]), safe_t]
        else:
            picked = xp.take_along_axis(x, safe_t[:, None], axis=1)[:, 0]
        losses = -(w * picked)
        scale = 1.0
        if reduction == "mean":
            total = w.sum()
            scale = 1.0 / total if total else 0.0          # all ignored: loss nan, gradient 0
            out = losses.sum() * scale if total else xp.nan
        else:
            out = losses.sum() if reduction == "sum" else (losses if input.dim() > 1 else losses[0])
        ctx.safe_t, ctx.w, ctx.scale, ctx.shape = safe_t, w, scale, x.shape
        ctx.reduction, ctx.unbatched = reduction, input.dim() == 1
        return wrap(xp.asarray(out, dtype=x.dtype), input.device)

    @staticmethod
    def backward(ctx, grad):
        # d loss_i / d input[i, c] = -w_i where c == t_i, else 0: a constant pattern, scaled by grad
        xp = xp_of(grad)
        coeff = xp.zeros(ctx.shape, dtype=grad._array.dtype)
        if coeff.ndim == 2:                   # (N, C): one entry per row
            coeff[xp.arange(ctx.shape[0]), ctx.safe_t] = -ctx.scale * ctx.w
        else:
            put_along_axis(xp, coeff, ctx.safe_t[:, None], (-ctx.scale * ctx.w)[:, None], axis=1)
        if ctx.unbatched:
            coeff = coeff[0]
        per_sample = ctx.reduction == "none" and not ctx.unbatched  # grads broadcast over the class dim
        if arrays_suffice(grad):              # nothing records or watches: the product on the arrays
            coeff *= grad._array[:, None] if per_sample else grad._array
            return wrap(coeff, grad.device), None, None, None, None
        return constant_like(coeff, grad) * (grad.unsqueeze(1) if per_sample else grad), None, None, None, None


class NllLoss2d(NllLoss):
    """nll_loss for (N, C, H, W) inputs (PyTorch names this node separately)."""

    node_name = "NllLoss2DBackward0"


def _quiet():
    """Silence NumPy's warnings for log(0): the result is clamped at -100 anyway."""
    return np.errstate(invalid="ignore", divide="ignore")


class BinaryCrossEntropy(Function):
    """``-weight * (t log(x) + (1 - t) log(1 - x))`` for probabilities ``x``; each log is clamped at
    -100 so ``x = 0`` or ``1`` gives a large but finite loss."""

    node_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(ctx, input, target, weight, reduction):
        xp, x, t = xp_of(input), input._array, target._array
        if bool(((x < 0) | (x > 1)).any()):
            raise RuntimeError("all elements of input should be between 0 and 1")
        with _quiet():
            log_x = xp.maximum(xp.log(x), -100)
            log_1mx = xp.maximum(xp.log1p(-x), -100)
        losses = -(t * log_x + (1 - t) * log_1mx)
        w = weight._array if weight is not None else 1
        losses = (losses * w).astype(x.dtype, copy=False)
        ctx.save_for_backward(input, target)
        ctx.w = xp.broadcast_to(xp.asarray(w, dtype=x.dtype), x.shape)
        ctx.logs = (log_x, log_1mx)
        ctx.reduction, ctx.count = reduction, max(x.size, 1)
        return wrap(reduce_array(xp, losses, reduction), input.device)

    @staticmethod
    def backward(ctx, grad):
        input, target = ctx.saved_tensors
        xp, x, t = xp_of(input), input._array, target._array
        g = spread(grad, ctx.reduction, ctx.count)
        gx = gt = None
        if ctx.needs_input_grad[0]:   # w (x - t) / (x (1 - x)), the denominator kept away from 0
            gx = g * constant_like(ctx.w * (x - t) / xp.maximum(x * (1 - x), 1e-12), grad)
        if ctx.needs_input_grad[1]:
            log_x, log_1mx = ctx.logs
            gt = g * constant_like(ctx.w * (log_1mx - log_x), grad)
        return gx, gt, None, None


class BinaryCrossEntropyWithLogits(Function):
    """BCE of ``sigmoid(x)``, computed from the logit: ``(1 - t) x + (1 + (pw - 1) t) softplus(-x)``
    where ``softplus(-x) = log(1 + exp(-|x|)) + max(-x, 0)`` never overflows."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, input, target, weight, pos_weight, reduction):
        xp, x, t = xp_of(input), input._array, target._array
        softplus_neg = xp.log1p(xp.exp(-xp.abs(x))) + xp.maximum(-x, 0)      # -log(sigmoid(x))
        if pos_weight is not None:
            losses = (1 - t) * x + (1 + (pos_weight._array - 1) * t) * softplus_neg
        else:
            losses = (1 - t) * x + softplus_neg
        if weight is not None:
            losses = losses * weight._array
        ctx.save_for_backward(input, target, weight, pos_weight)
        ctx.reduction, ctx.count = reduction, max(losses.size, 1)
        return wrap(reduce_array(xp, losses.astype(x.dtype, copy=False), reduction), input.device)

    @staticmethod
    def backward(ctx, grad):
        input, target, weight, pos_weight = ctx.saved_tensors
        g = spread(grad, ctx.reduction, ctx.count)
        if weight is not None:
            g = g * weight
        gx = gt = None
        if ctx.needs_input_grad[0]:   # sigmoid(x) (pw t + 1 - t) - pw t
            pwt = target * pos_weight if pos_weight is not None else target
            gx = g * (input.sigmoid() * (pwt + 1 - target) - pwt)
        if ctx.needs_input_grad[1]:   # pw * softplus(-x) - softplus(x)
            xp, x = xp_of(input), input._array
            sp_neg = xp.log1p(xp.exp(-xp.abs(x))) + xp.maximum(-x, 0)
            sp_pos = sp_neg + x
            pw = pos_weight._array if pos_weight is not None else 1
            gt = g * constant_like(pw * sp_neg - sp_pos, grad)
        return gx, gt, None, None, None


__all__ = []
