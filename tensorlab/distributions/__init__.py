"""``tensorlab.distributions``: probability distributions you can sample from and score.

A distribution object holds its parameters as tensors (``Normal(loc, scale)``) and answers:
``sample(shape)`` draws values (``rsample`` too, *differentiably* -- the reparameterisation trick:
``loc + scale * eps``, so gradients flow to ``loc`` and ``scale``); ``log_prob(x)`` scores values, and is
differentiable in the parameters -- which is how a policy gradient or a likelihood is trained;
``mean``, ``variance``, ``entropy()``. Shapes follow three names: ``sample_shape`` (how many draws),
``batch_shape`` (how many independent distributions share the object), ``event_shape`` (the shape of one
draw: ``()`` for Normal, ``(k,)`` for Multinomial over k categories).

The files mirror PyTorch's (``from torch.distributions.multinomial import Multinomial`` works).
Draws come from tensorlab's random generator: seeded runs repeat, but they are not PyTorch's numbers.
See course/04_ops_and_reductions.
"""
from . import constraints  # noqa: F401
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .kl import kl_divergence, register_kl
from .multinomial import Multinomial
from .normal import Normal
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Multinomial", "Normal", "Uniform", "kl_divergence",
           "register_kl"]
