"""Comparing vectors and attending over them: ``cosine_similarity``, ``pairwise_distance`` and
``scaled_dot_product_attention`` -- each written with ordinary differentiable ops, so autograd needs
nothing new. See course/14_convolution (embeddings) and tensorlab/nn/modules/ for the layers."""
import math

from .. import _dtype
from .. import ops as _ops


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``x1 . x2 / (|x1| |x2|)`` along ``dim`` (after broadcasting); each norm is at least ``eps``."""
    x1, x2 = _ops.broadcast_tensors(x1, x2)
    n1 = x1.norm(2, dim, keepdim=True).clamp_min(eps)
    n2 = x2.norm(2, dim, keepdim=True).clamp_min(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dim."""
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """``softmax(Q K^T / sqrt(d) + mask) V``: each query's weighted average of the values, weighted by how
    well it matches each key. ``is_causal`` lets position i attend only to positions <= i; a bool
    ``attn_mask`` keeps the True positions, a float one is added to the scores."""
    from . import functional as F
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    scores = query @ key.transpose(-2, -1) * scale_factor
    if is_causal:
        keep = _ops.ones(L, S, dtype=_dtype.bool, device=query.device).tril(diagonal=0)
        scores = scores.masked_fill(keep.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype is _dtype.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = F.softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, dropout_p, training=True)
    return weights @ value


__all__ = ["cosine_similarity", "pairwise_distance", "scaled_dot_product_attention"]
