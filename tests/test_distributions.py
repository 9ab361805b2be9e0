"""``tensorlab.distributions`` compared with ``torch.distributions``: printed forms, shapes of samples
(sample_shape + batch_shape + event_shape), log_prob / cdf / entropy / mean / variance values, KL
divergences, gradients of log_prob and rsample, and the errors for bad parameters and values. Draws are
compared on shapes and dtypes only; their statistics are checked against the distribution's own mean."""
import numpy as np
import pytest

import tensorlab

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

MAKE = [
    "Normal(0., 1.)", "Normal(lib.tensor([0., 1.]), lib.tensor([1., 2.]))", "Normal(lib.zeros(2, 3), 0.5)",
    "Uniform(0., 5.)", "Uniform(lib.tensor([0., -1.]), lib.tensor([1., 3.]))",
    "Bernoulli(0.3)", "Bernoulli(lib.tensor([0.1, 0.9]))", "Bernoulli(logits=lib.tensor([-1., 2.]))",
    "Categorical(lib.tensor([0.25, 0.25, 0.5]))", "Categorical(logits=lib.tensor([[1., 2., 3.], [0., 0., 0.]]))",
    "Multinomial(10, lib.tensor([0.2, 0.3, 0.5]))", "Multinomial(1, lib.ones(6) / 6)",
    "Multinomial(5, logits=lib.tensor([[0., 1.], [1., 0.]]))",
]
VALUES = {"Normal": "lib.tensor(0.5)", "Uniform": "lib.tensor(0.5)", "Bernoulli": "lib.tensor(1.)",
          "Categorical": "lib.tensor(2)", "Multinomial": None}


def _dist(lib, expr):
    import importlib
    importlib.import_module(lib.__name__ + ".distributions")
    return eval("lib.distributions." + expr, {"lib": lib})


def _values(t):
    """Rounded values as nested lists, NaN spelled out (NaN != NaN would fail the comparison)."""
    array = np.round(t.detach().numpy().astype(np.float64), 5)
    return np.where(np.isnan(array), "nan", array.astype(str)).tolist()


def _describe(lib, expr):
    d = _dist(lib, expr)
    name = type(d).__name__
    seen = [repr(d), tuple(d.batch_shape), tuple(d.event_shape)]
    for shape in [(), (4,), (2, 3)]:
        s = d.sample(shape)
        seen.append((tuple(s.shape), str(s.dtype)))
    for attr in ["mean", "variance", "stddev"]:
        try:
            seen.append(_values(getattr(d, attr)))
        except NotImplementedError:
            seen.append(attr + " not implemented")
    seen.append(_values(d.entropy()) if name != "Multinomial" else None)
    if VALUES[name]:
        value = eval(VALUES[name], {"lib": lib})
    else:
        value = lib.zeros(tuple(d.batch_shape) + tuple(d.event_shape))
        value[..., 0] = d.total_count
    seen.append(_values(d.log_prob(value)))
    return seen


@pytest.mark.parametrize("expr", MAKE)
def test_distributions_match_pytorch(torch, expr):
    assert _describe(tensorlab, expr) == _describe(torch, expr)


@pytest.mark.parametrize("expr, value", [
    ("Normal(lib.tensor([0., 1.]), lib.tensor([1., 2.]))", "lib.tensor([[0.5], [-1.]])"),
    ("Uniform(0., 2.)", "lib.tensor([0.5, 1.5])"),
    ("Categorical(logits=lib.tensor([[1., 2., 3.], [0., 0., 0.]]))", "lib.tensor([[0, 1], [2, 2]])"),
])
def test_log_prob_and_cdf_broadcast_as_pytorch(torch, expr, value):
    outcomes = []
    for lib in (tensorlab, torch):
        d = _dist(lib, expr)
        v = eval(value, {"lib": lib})
        result = [d.log_prob(v).numpy().round(5).tolist()]
        if type(d).__name__ != "Categorical":
            result.append(d.cdf(v).numpy().round(5).tolist())
        outcomes.append(result)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("p, q", [("Normal(0., 1.)", "Normal(lib.tensor([1., 0.]), lib.tensor([2., 0.5]))"),
                                  ("Bernoulli(lib.tensor([0.2, 0.7]))", "Bernoulli(0.5)"),
                                  ("Categorical(lib.tensor([0.2, 0.8]))", "Categorical(lib.tensor([0.5, 0.5]))"),
                                  ("Uniform(0., 1.)", "Uniform(-1., 2.)")])
def test_kl_divergence_matches_pytorch(torch, p, q):
    outcomes = []
    for lib in (tensorlab, torch):
        kl = lib.distributions.kl_divergence(_dist(lib, p), _dist(lib, q))
        outcomes.append(np.round(kl.numpy().astype(np.float64), 5).tolist())
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("expr", ["Normal(0., -1.)", "Normal(lib.tensor([0.]), lib.tensor([0.]))",
                                  "Bernoulli(1.5)", "Bernoulli(0.5, logits=0.)", "Bernoulli()",
                                  "Categorical(lib.tensor([0.5, -0.5]))", "Categorical(lib.tensor(1.))",
                                  "Multinomial(2.5, lib.ones(2))", "Uniform(1., 0.)"])
def test_bad_parameters_are_refused_as_pytorch(torch, expr):
    outcomes = []
    for lib in (tensorlab, torch):
        try:
            _dist(lib, expr)
            outcomes.append("made")
        except (ValueError, NotImplementedError) as e:
            outcomes.append((type(e).__name__, str(e).split(", but found")[0]))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("expr, value", [("Normal(0., 1.)", "lib.tensor([1., 2.])"),
                                         ("Bernoulli(0.5)", "lib.tensor(0.5)"),
                                         ("Categorical(lib.tensor([0.5, 0.5]))", "lib.tensor(3)"),
                                         ("Normal(lib.zeros(2), 1.)", "lib.zeros(3)"),
                                         ("Multinomial(3, lib.ones(2))", "lib.tensor([1., 1.])"),
                                         ("Normal(0., 1.)", "0.5")])
def test_values_outside_the_support_are_refused_as_pytorch(torch, expr, value):
    outcomes = []
    for lib in (tensorlab, torch):
        try:
            outcomes.append(np.round(_dist(lib, expr).log_prob(eval(value, {"lib": lib})).numpy(), 5).tolist())
        except ValueError as e:
            outcomes.append(str(e).split(", but found")[0].split(" vs ")[0])
    assert outcomes[0] == outcomes[1]


def test_gradients_flow_through_log_prob_and_rsample(torch):
    """A policy gradient differentiates log_prob in the parameters; a VAE differentiates rsample."""
    grads = []
    for lib in (tensorlab, torch):
        loc = lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)
        scale = lib.tensor([1.5, 0.5], dtype=lib.float64, requires_grad=True)
        logits = lib.tensor([0.1, 0.2, 0.7], dtype=lib.float64, requires_grad=True)
        d = lib.distributions
        (d.Normal(loc, scale).log_prob(lib.tensor([1.0, 0.0], dtype=lib.float64)).sum()
         + d.Categorical(logits=logits).log_prob(lib.tensor(2)) + d.Categorical(logits=logits).entropy()).backward()
        grads.append([t.grad.numpy().round(8).tolist() for t in (loc, scale, logits)])
    assert grads[0] == grads[1]
    loc = tensorlab.zeros(3, requires_grad=True)
    tensorlab.distributions.Normal(loc, 1.0).rsample((5,)).sum().backward()
    assert loc.grad.tolist() == [5.0, 5.0, 5.0]
    assert not tensorlab.distributions.Normal(loc, 1.0).sample().requires_grad


def test_samples_follow_the_distribution():
    tensorlab.manual_seed(0)
    d = tensorlab.distributions
    counts = d.Multinomial(1000, tensorlab.tensor([0.2, 0.3, 0.5])).sample()
    assert counts.sum().item() == 1000 and abs(counts[2].item() - 500) < 60
    draws = d.Categorical(tensorlab.tensor([0.1, 0.9])).sample((2000,))
    assert draws.dtype is tensorlab.int64 and abs(draws.float().mean().item() - 0.9) < 0.03
    normal = d.Normal(tensorlab.tensor(2.0), tensorlab.tensor(0.5)).sample((4000,))
    assert abs(normal.mean().item() - 2.0) < 0.03 and abs(normal.std().item() - 0.5) < 0.03
    uniform = d.Uniform(-1.0, 3.0).sample((4000,))
    assert uniform.min().item() >= -1.0 and uniform.max().item() < 3.0
    assert set(d.Bernoulli(0.5).sample((100,)).tolist()) <= {0.0, 1.0}


def test_d2l_dice_program_runs_on_both(torch):
    """d2l's probability section: roll a die, count, and estimate the probabilities as draws accumulate."""
    import importlib
    shapes = []
    for lib, module in ((tensorlab, "tensorlab.distributions.multinomial"),
                        (torch, "torch.distributions.multinomial")):
        Multinomial = importlib.import_module(module).Multinomial
        fair_probs = lib.ones([6]) / 6
        counts = Multinomial(1, fair_probs).sample((500,))
        cum_counts = counts.cumsum(dim=0)
        estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
        shapes.append((tuple(estimates.shape), str(estimates.dtype), float(cum_counts[-1].sum())))
    assert shapes[0] == shapes[1]
