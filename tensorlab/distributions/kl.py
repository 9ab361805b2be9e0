"""``kl_divergence(p, q)``: KL(p || q) in closed form, for the pairs of distributions registered here."""
import math

_KL = {}


def register_kl(type_p, type_q):
    """Decorator: ``@register_kl(Normal, Normal) def kl(p, q): ...`` -- add a closed form."""
    def register(fn):
        _KL[type_p, type_q] = fn
        return fn
    return register


def kl_divergence(p, q):
    """KL(p || q) = E_p[log p(x) - log q(x)], batched over the distributions' batch shape."""
    for (type_p, type_q), fn in _KL.items():
        if isinstance(p, type_p) and isinstance(q, type_q):
            return fn(p, q)
    raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
                              f"{type(q).__name__}")


def _normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


def _bernoulli_bernoulli(p, q):
    from ..nn.functional import softplus
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2


def _categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


def _uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


def _register_builtin():
    from .bernoulli import Bernoulli
    from .categorical import Categorical
    from .normal import Normal
    from .uniform import Uniform
    register_kl(Normal, Normal)(_normal_normal)
    register_kl(Bernoulli, Bernoulli)(_bernoulli_bernoulli)
    register_kl(Categorical, Categorical)(_categorical_categorical)
    register_kl(Uniform, Uniform)(_uniform_uniform)


_register_builtin()
