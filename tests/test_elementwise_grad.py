"""gradcheck (float64 finite differences) for every differentiable elementwise op, on contiguous,
transposed, sliced and broadcast (expanded, stride-0) inputs with hypothesis-drawn shapes; and
gradgradcheck (the backward is itself differentiable) for a representative subset."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck

# tensorlab silences NumPy's inf/nan RuntimeWarnings (PyTorch has none), but pytest resets warning filters
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")



def anywhere(rng, shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, shape)


def away_from_zero(rng, shape):
    return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.3, 2.0, shape)


def away_from_integers(rng, shape):
    """x.5 +- 0.3: far from the jumps of floor/ceil/trunc and from the .5 ties of round."""
    return rng.integers(-3, 3, shape) + rng.choice([0.25, 0.75], shape) + rng.uniform(-0.05, 0.05, shape)


def away_from_half(rng, shape):
    """Values at least 0.1 away from the clamp bounds -0.5 and 0.5."""
    return rng.choice([-0.8, 0.0, 0.8], shape) + rng.uniform(-0.3, 0.3, shape)


UNARY = {
    "exp": (lambda t: t.exp(), anywhere), "expm1": (lambda t: t.expm1(), anywhere),
    "exp2": (lambda t: t.exp2(), anywhere),
    "log": (lambda t: t.log(), lambda r, s: r.uniform(0.2, 3, s)),
    "log1p": (lambda t: t.log1p(), lambda r, s: r.uniform(-0.5, 3, s)),
    "log2": (lambda t: t.log2(), lambda r, s: r.uniform(0.2, 3, s)),
    "log10": (lambda t: t.log10(), lambda r, s: r.uniform(0.2, 3, s)),
    "sqrt": (lambda t: t.sqrt(), lambda r, s: r.uniform(0.2, 3, s)),
    "rsqrt": (lambda t: t.rsqrt(), lambda r, s: r.uniform(0.2, 3, s)),
    "square": (lambda t: t.square(), anywhere), "abs": (lambda t: abs(t), away_from_zero),
    "sign": (lambda t: t.sign(), away_from_zero), "neg": (lambda t: -t, anywhere),
    "sin": (lambda t: t.sin(), anywhere), "cos": (lambda t: t.cos(), anywhere),
    "tan": (lambda t: t.tan(), lambda r, s: r.uniform(-1, 1, s)),
    "asin": (lambda t: t.asin(), lambda r, s: r.uniform(-0.8, 0.8, s)),
    "acos": (lambda t: t.acos(), lambda r, s: r.uniform(-0.8, 0.8, s)),
    "atan": (lambda t: t.atan(), anywhere), "sinh": (lambda t: t.sinh(), anywhere),
    "cosh": (lambda t: t.cosh(), anywhere), "tanh": (lambda t: t.tanh(), anywhere),
    "sigmoid": (lambda t: t.sigmoid(), anywhere), "relu": (lambda t: t.relu(), away_from_zero),
    "erf": (lambda t: t.erf(), anywhere), "floor": (lambda t: t.floor(), away_from_integers),
    "ceil": (lambda t: t.ceil(), away_from_integers), "round": (lambda t: t.round(), away_from_integers),
    "round_decimals": (lambda t: t.round(decimals=1), lambda r, s: r.integers(-9, 9, s) / 10 + 0.025),
    "trunc": (lambda t: t.trunc(), away_from_integers), "frac": (lambda t: t.frac(), away_from_integers),
    "reciprocal": (lambda t: t.reciprocal(), away_from_zero), "nan_to_num": (lambda t: t.nan_to_num(), anywhere),
    "clamp": (lambda t: t.clamp(-0.5, 0.5), away_from_half), "clamp_min": (lambda t: t.clamp_min(0.5), away_from_half),
    "clamp_max": (lambda t: t.clamp(max=-0.5), away_from_half), "pow3": (lambda t: t ** 3, anywhere),
    "pow_half": (lambda t: t.pow(0.5), lambda r, s: r.uniform(0.2, 3, s)),
    "pow_neg": (lambda t: t ** -2, away_from_zero), "pow0": (lambda t: t ** 0, anywhere),
    "div_scalar": (lambda t: t / 3, anywhere), "rdiv": (lambda t: 2 / t, away_from_zero),
    "rpow": (lambda t: 2.5 ** t, anywhere), "rsub": (lambda t: 1 - t, anywhere),
    "mul_scalar": (lambda t: t * -1.5, anywhere), "add_scalar": (lambda t: 2 + t, anywhere),
    "remainder_scalar": (lambda t: t % 1.0, away_from_integers),
    "fmod_scalar": (lambda t: tensorlab.fmod(t, 1.0), away_from_integers),
    "div_trunc": (lambda t: tensorlab.div(t, 0.7, rounding_mode="trunc"), anywhere),
}

shapes = st.lists(st.integers(1, 3), min_size=0, max_size=3).map(tuple)
layouts = st.sampled_from(["contiguous", "transposed", "sliced", "expanded"])
seeds = st.integers(0, 2 ** 16)


def make_input(values, layout, rng):
    """A float64 leaf holding ``values`` and a function that views it in ``layout``, giving the op an input
    of ``values``' shape: transposed (strides reversed), sliced (every other element), or expanded (stride 0)."""
    shape = values.shape
    if not shape:  # a 0-dim tensor has one layout
        return tensorlab.tensor(values.copy(), requires_grad=True), lambda t: t
    if layout == "transposed" and len(shape) >= 2:
        leaf = tensorlab.tensor(values.swapaxes(0, -1).copy(), requires_grad=True)
        return leaf, lambda t: t.transpose(0, -1)
    if layout == "sliced":
        padded = np.zeros(shape[:-1] + (2 * shape[-1],))
        padded[..., ::2] = values
        leaf = tensorlab.tensor(padded, requires_grad=True)
        return leaf, lambda t: t[..., ::2]
    if layout == "expanded":
        row = values[:1]  # one row, repeated by expand: the op reads it through a stride-0 dim
        leaf = tensorlab.tensor(row.copy(), requires_grad=True)
        return leaf, lambda t: t.expand(shape)
    return tensorlab.tensor(values.copy(), requires_grad=True), lambda t: t


@pytest.mark.parametrize("name", sorted(UNARY))
@settings(max_examples=12, deadline=None)
@given(shape=shapes, layout=layouts, seed=seeds)
def test_unary_gradcheck(name, shape, layout, seed):
    fn, values = UNARY[name]
    rng = np.random.default_rng(seed)
    leaf, view = make_input(values(rng, shape), layout, rng)
    assert gradcheck(lambda t: fn(view(t)), (leaf,))


BINARY = {
    "add": lambda a, b: a + b, "add_alpha": lambda a, b: tensorlab.add(a, b, alpha=-2),
    "sub": lambda a, b: a - b, "sub_alpha": lambda a, b: a.sub(b, alpha=0.5), "rsub": lambda a, b: tensorlab.rsub(a, b),
    "mul": lambda a, b: a * b, "div": lambda a, b: a / b, "pow": lambda a, b: a ** b,
    "atan2": lambda a, b: tensorlab.atan2(a, b), "maximum": lambda a, b: tensorlab.maximum(a, b),
    "minimum": lambda a, b: tensorlab.minimum(a, b), "remainder": lambda a, b: a % b,
    "fmod": lambda a, b: tensorlab.fmod(a, b), "lerp": lambda a, b: a.lerp(b, 0.3),
    "lerp_tensor": lambda a, b: tensorlab.lerp(a, b.sigmoid(), b), "addcmul": lambda a, b: a.addcmul(b, b, value=2),
    "addcdiv": lambda a, b: a.addcdiv(a, b, value=-0.5), "clamp_tensor": lambda a, b: a.clamp(b - 0.1, b + 0.1),
    "clamp_min_tensor": lambda a, b: a.clamp_min(b), "clamp_max_tensor": lambda a, b: tensorlab.clamp(a, max=b),
}


def binary_values(name, rng, shape_a, shape_b):
    """Values away from each op's kinks, jumps and poles, for any broadcasting pair of shapes."""
    if name in ("maximum", "minimum", "clamp_tensor", "clamp_min_tensor", "clamp_max_tensor"):
        # b on the integers, a at k + 0.5 +- 0.2: they never tie and stay apart by more than 0.1
        b = rng.integers(-2, 3, shape_b).astype(float)
        return rng.integers(-2, 2, shape_a) + 0.5 + rng.uniform(-0.2, 0.2, shape_a), b
    if name in ("remainder", "fmod"):  # b = +-1 and a = k + f, f in [0.2, 0.8]: a / b far from integers
        return rng.integers(-2, 3, shape_a) + rng.uniform(0.2, 0.8, shape_a), rng.choice([-1.0, 1.0], shape_b)
    if name == "pow":
        return rng.uniform(0.3, 2.0, shape_a), rng.uniform(-2, 2, shape_b)
    return rng.uniform(-2, 2, shape_a), rng.choice([-1.0, 1.0], shape_b) * rng.uniform(0.5, 2.0, shape_b)


def broadcast_partner(shape, rng):
    """A shape that broadcasts against ``shape``: some dims set to 1, maybe leading dims dropped."""
    partner = tuple(1 if rng.random() < 0.4 else n for n in shape)
    return partner[rng.integers(0, len(partner) + 1):] if rng.random() < 0.3 else partner


@pytest.mark.parametrize("name", sorted(BINARY))
@settings(max_examples=12, deadline=None)
@given(shape=shapes, layout=layouts, seed=seeds)
def test_binary_gradcheck(name, shape, layout, seed):
    """Both inputs differentiable; the second broadcasts against the first; the first in ``layout``."""
    rng = np.random.default_rng(seed)
    partner = broadcast_partner(shape, rng)
    a, b = binary_values(name, rng, shape, partner)
    leaf_a, view = make_input(np.asarray(a, dtype=float), layout, rng)
    leaf_b = tensorlab.tensor(np.asarray(b, dtype=float), requires_grad=True)
    assert gradcheck(lambda x, y: BINARY[name](view(x), y), (leaf_a, leaf_b))
    if name in ("add", "sub", "mul", "maximum", "minimum", "atan2"):  # the broadcast operand on the left
        assert gradcheck(lambda x, y: BINARY[name](y, view(x)), (leaf_a, leaf_b))


GRADGRAD = {
    "mul": (lambda a, b: a * b), "div": (lambda a, b: a / b), "pow": (lambda a, b: a.abs() ** b),
    "atan2": (lambda a, b: tensorlab.atan2(a, b)), "maximum": (lambda a, b: tensorlab.maximum(a, b)),
    "lerp": (lambda a, b: a.lerp(b, b.sigmoid())), "addcdiv": (lambda a, b: a.addcdiv(a, b)),
    "addcmul": (lambda a, b: a.addcmul(a, b, value=3)), "clamp": (lambda a, b: (a * b).clamp(-0.5, 0.5)),
    "exp_log": (lambda a, b: (a.exp() + b.abs().log())), "sigmoid_tanh": (lambda a, b: a.sigmoid() * b.tanh()),
    "sqrt_rsqrt": (lambda a, b: a.abs().sqrt() + b.abs().rsqrt()), "trig": (lambda a, b: a.sin() * b.cos() + a.atan()),
    "erf_relu": (lambda a, b: a.erf() * b.relu()), "reciprocal": (lambda a, b: a.reciprocal() - 2 / b),
    "remainder": (lambda a, b: a % b), "scalar_pow": (lambda a, b: 2 ** a + b ** 3),
    "abs_sign": (lambda a, b: abs(a) * b.sign()),
}


@pytest.mark.parametrize("name", sorted(GRADGRAD))
def test_gradgradcheck(name):
    rng = np.random.default_rng(1)
    a = tensorlab.tensor(rng.choice([-1.0, 1.0], (2, 3)) * rng.uniform(0.4, 1.5, (2, 3)), requires_grad=True)
    b = tensorlab.tensor(rng.choice([-1.0, 1.0], (3,)) * rng.uniform(0.4, 1.5, (3,)), requires_grad=True)
    assert gradgradcheck(GRADGRAD[name], (a, b))
