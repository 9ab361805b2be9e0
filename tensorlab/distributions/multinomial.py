"""Multinomial distribution: counts of each of K categories in ``total_count`` independent draws."""
import math

from ..tensor import Size
from . import constraints
from .categorical import Categorical
from .distribution import Distribution
from .utils import broadcast_all


class Multinomial(Distribution):
    """``Multinomial(total_count, probs)``: one draw is a vector of K counts summing to ``total_count``
    (d2l rolls dice with ``Multinomial(1000, torch.ones(6) / 6).sample()``)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    @property
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=Size()):
        """Draw ``total_count`` categories per sample, then count each category."""
        from ..ops.creation import ones_like, zeros
        sample_shape = Size(sample_shape)
        samples = self._categorical.sample(Size((self.total_count,)) + sample_shape)
        order = list(range(samples.dim()))
        order.append(order.pop(0))              # the draws' dim last, where the counting happens
        samples = samples.permute(*order)
        counts = zeros(self._extended_shape(sample_shape), dtype=samples.dtype, device=samples.device)
        counts.scatter_add_(-1, samples, ones_like(samples))
        return counts.type_as(self.probs)

    def log_prob(self, value):
        """``log(n! / prod(x_i!)) + sum(x_i * log p_i)``; differentiable in the logits (the factorials
        are of the counts, which are data)."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = _lgamma(value.sum(-1) + 1)
        log_factorial_xs = _lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)


def _lgamma(t):
    """log Gamma of each element (of counts: no gradient), with Python's math.lgamma."""
    import numpy as np
    from ..ops.creation import tensor
    values = np.vectorize(math.lgamma, otypes=[np.float64])(t.detach().cpu().numpy())
    return tensor(values, dtype=t.dtype, device=t.device)
