"""Helpers the distributions share: broadcasting parameters, probabilities <-> logits, lazy properties."""
import numbers


def broadcast_all(*values):
    """Numbers and tensors as tensors of one broadcast shape (numbers take the tensors' dtype, or the
    default one): ``Normal(0., torch.ones(3))`` has a loc of three zeros."""
    from .. import _dtype
    from ..ops.broadcasting import broadcast_tensors
    from ..ops.creation import tensor
    from ..tensor import Tensor
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, torch.Tensor or objects "
                         "implementing __torch_function__.")
    like = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = like.dtype if like is not None else _dtype.get_default_dtype()
    device = like.device if like is not None else None
    tensors = [v if isinstance(v, Tensor) else tensor(v, dtype=dtype, device=device) for v in values]
    return broadcast_tensors(*tensors)


def clamp_probs(probs):
    """Keep probabilities a hair inside (0, 1), so their logarithms stay finite."""
    from .. import _dtype
    eps = _dtype.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ps_clamped.log() - (-ps_clamped).log1p()
    return ps_clamped.log()


def logits_to_probs(logits, is_binary=False):
    from ..nn import functional as F
    return logits.sigmoid() if is_binary else F.softmax(logits, dim=-1)


class lazy_property:
    """A property computed on first use and then stored on the instance (``Bernoulli(probs=p).logits``)."""

    def __init__(self, fn):
        self.fn, self.__doc__ = fn, fn.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        from ..autograd.grad_mode import enable_grad
        with enable_grad():
            value = self.fn(instance)
        instance.__dict__[self.fn.__name__] = value
        return value
