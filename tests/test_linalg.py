"""Matrix products against PyTorch: every matmul case (values, shapes, the grad_fn name of each case,
gradients), mm/bmm/mv/dot/outer/addmm, einsum equations, errors; gradcheck on transposed inputs."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck
from tests.math_oracle import leaf, same, same_grads

# tensorlab silences NumPy's inf/nan RuntimeWarnings (PyTorch has none), but pytest resets warning filters
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:tensorlab\\.ops\\..*")


MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((2, 2, 3), (3, 4)), ((2, 2, 3), (2, 3, 4)),
    ((5, 3), (2, 3, 4)), ((3,), (2, 3, 4)), ((2, 2, 3), (3,)), ((2, 1, 2, 3), (5, 3, 4)), ((1, 2, 3), (2, 3, 4)),
    ((2, 3, 4, 5), (2, 3, 5, 2)), ((4, 3), (1, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((2, 2, 3), (2, 3)),
    ((2, 3, 4), (1, 4, 5)), ((1, 2, 3), (1, 3, 4)), ((2, 3), (0, 3, 4)),
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
@pytest.mark.parametrize("requires_grad", [True, False])
def test_matmul_matches_torch(torch, rng, shapes, requires_grad):
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    for call in [lambda lib, x, y: x @ y, lambda lib, x, y: lib.matmul(x, y), lambda lib, x, y: x.matmul(y)]:
        same(torch, call, a, b, requires_grad=requires_grad)
    if requires_grad and shapes not in (((2, 2, 3), (2, 3)),):  # (that one is a shape error)
        out = np.matmul(a, b)
        same_grads(torch, lambda lib, x, y: x @ y, a, b, grad_out=rng.standard_normal(out.shape))


@pytest.mark.parametrize("shapes", [((2, 2, 3), (3, 4)), ((5, 3), (2, 3, 4)), ((2, 1, 2, 3), (5, 3, 4)),
                                    ((1, 2, 3), (2, 3, 4)), ((2, 3, 4), (1, 4, 5)), ((3,), (2, 3, 4))], ids=str)
def test_matmul_graph_matches_torch_with_one_side_requiring_grad(torch, rng, shapes):
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    for which in (0, 1):
        def call(lib, x, y):
            (x, y)[which].requires_grad_()
            return x @ y
        same(torch, call, a, b)


def test_matmul_of_transposed_and_sliced_inputs(torch, rng):
    a, b = rng.standard_normal((4, 3, 2)), rng.standard_normal((6, 4))
    for call in [lambda lib, x, y: x.transpose(1, 2) @ y[::2, :3].t(), lambda lib, x, y: y.t()[:3] @ x[0].t().t(),
                 lambda lib, x, y: x.transpose(0, 2) @ y[:4], lambda lib, x, y: y[1] @ y[:, 1:5].t()]:
        same(torch, call, a, b, requires_grad=True)


def test_integer_and_half_matmul(torch, rng):
    ints = rng.integers(-3, 3, (2, 3)), rng.integers(-3, 3, (3, 2))
    same(torch, lambda lib, x, y: x @ y, *ints)
    same(torch, lambda lib, x, y: x @ y, ints[0].astype(np.int32), ints[1].astype(np.int32))
    same(torch, lambda lib, x, y: x @ y, np.ones((2, 3), np.float16), np.ones((3, 2), np.float16))
    same(torch, lambda lib, x, y: x @ y, np.ones((2, 3), bool), np.ones((3, 2), bool))


def test_matmul_errors_match_torch(torch, rng):
    r = rng.standard_normal
    for a, b in [((), (3,)), ((3,), ()), ((3,), (4, 5)), ((2, 3, 4), (5, 6)), ((2, 3, 4), (2, 5, 6)),
                 ((2, 3, 4), (3, 4, 6)), ((3,), (4,)), ((3, 4), (5,)), ((2, 3, 4), (5,))]:
        same(torch, lambda lib, x, y: x @ y, r(a), r(b))
    same(torch, lambda lib, x, y: x @ y, r((2, 3)).astype(np.float32), r((3, 4)))
    same(torch, lambda lib, x, y: x @ y, r((2, 2, 3)).astype(np.float32), r((2, 3, 4)))
    with pytest.raises(TypeError):
        tensorlab.ones(2, 2) @ [[1.0, 2.0], [3.0, 4.0]]


def test_mm_bmm_mv_dot_outer_match_torch(torch, rng):
    r = rng.standard_normal
    cases = [("mm", (2, 3), (3, 4)), ("bmm", (2, 3, 4), (2, 4, 5)), ("mv", (2, 3), (3,)), ("dot", (3,), (3,)),
             ("outer", (3,), (4,)), ("ger", (2,), (3,)), ("vdot", (3,), (3,))]
    for name, sa, sb in cases:
        a, b = r(sa), r(sb)
        same(torch, lambda lib, x, y: getattr(lib, name)(x, y), a, b, requires_grad=True)
        same(torch, lambda lib, x, y: getattr(x, name)(y), a, b, requires_grad=True)
        out = getattr(np, "outer" if name in ("outer", "ger") else "matmul")(a, b)
        same_grads(torch, lambda lib, x, y: getattr(lib, name)(x, y), a, b, grad_out=r(np.shape(out)))


def test_product_errors_match_torch(torch, rng):
    r = rng.standard_normal
    bad = [("mm", (2, 3), (4, 5)), ("mm", (3,), (3, 5)), ("mm", (2, 3), (3,)), ("bmm", (2, 3, 4), (2, 5, 6)),
           ("bmm", (2, 3, 4), (3, 4, 6)), ("bmm", (3, 4), (2, 4, 6)), ("bmm", (2, 3, 4), (4, 6)),
           ("mv", (2, 3), (4,)), ("mv", (3,), (3,)), ("mv", (2, 3), (3, 1)), ("dot", (3,), (4,)),
           ("dot", (3, 1), (3,)), ("outer", (3, 1), (4,))]
    for name, sa, sb in bad:
        same(torch, lambda lib, x, y: getattr(lib, name)(x, y), r(sa), r(sb))
    for name, sa, sb in [("mm", (2, 3), (3, 5)), ("bmm", (2, 3, 4), (2, 4, 6)), ("mv", (2, 3), (3,)),
                         ("dot", (3,), (3,))]:
        same(torch, lambda lib, x, y: getattr(lib, name)(x, y), r(sa).astype(np.float32), r(sb))
    same(torch, lambda lib, x, y: lib.outer(x, y), r(3).astype(np.float32), r(4))


@pytest.mark.parametrize("input_shape", [(5,), (2, 5), (1, 5), (2, 1), ()], ids=str)
@pytest.mark.parametrize("coefficients", [{}, {"beta": 0.5, "alpha": 2}, {"beta": 0}, {"alpha": -1}], ids=str)
def test_addmm_matches_torch(torch, rng, input_shape, coefficients):
    bias, m1, m2 = rng.standard_normal(input_shape), rng.standard_normal((2, 3)), rng.standard_normal((3, 5))
    same(torch, lambda lib, b, x, y: lib.addmm(b, x, y, **coefficients), bias, m1, m2, requires_grad=True)
    same(torch, lambda lib, b, x, y: b.addmm(x, y, **coefficients), bias, m1, m2, requires_grad=True)
    same_grads(torch, lambda lib, b, x, y: lib.addmm(b, x, y, **coefficients), bias, m1, m2,
               grad_out=rng.standard_normal((2, 5)))


def test_addmm_errors_and_beta_zero_ignores_nan(torch, rng):
    r = rng.standard_normal
    same(torch, lambda lib, b, x, y: lib.addmm(b, x, y), r(4), r((2, 3)), r((3, 5)))
    same(torch, lambda lib, b, x, y: lib.addmm(b, x, y), r(5), r((2, 3)), r((4, 5)))
    same(torch, lambda lib, b, x, y: lib.addmm(b, x, y), r(5), r((2, 3)).astype(np.float32), r((3, 5)).astype(np.float32))
    same(torch, lambda lib, b, x, y: lib.addmm(b, x, y, beta=0), np.full(5, np.nan), r((2, 3)), r((3, 5)))


EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
    ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("i,j->ij", [(3,), (4,)]), ("i,i->", [(3,), (3,)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]), ("i...->...", [(2, 3, 4)]), ("bA,ab", [(3, 4), (2, 3)]),
    ("ij,k->i", [(2, 3), (4,)]), ("ijk,ikl,il->j", [(2, 3, 4), (2, 4, 5), (2, 5)]), ("iij->j", [(3, 3, 2)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]), ("ij,kj->ik", [(3, 1), (4, 5)]), (" ij , jk -> ki ", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize("equation, shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_matches_torch(torch, rng, equation, shapes):
    arrays = [rng.standard_normal(s) for s in shapes]
    ours, theirs = same(torch, lambda lib, *ts: lib.einsum(equation, *ts), *arrays, requires_grad=False)
    ours_out = tensorlab.einsum(equation, *[tensorlab.tensor(a) for a in arrays])
    same_grads(torch, lambda lib, *ts: lib.einsum(equation, *ts), *arrays,
               grad_out=rng.standard_normal(tuple(ours_out.shape)))
    assert gradcheck(lambda *ts: tensorlab.einsum(equation, *ts), tuple(leaf(a) for a in arrays))


def test_einsum_forms_and_errors_match_torch(torch, rng):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    same(torch, lambda lib, x, y: lib.einsum("ij,jk", [x, y]), a, b)
    for equation, shapes in [("ij,jk->ik", [(3, 4)]), ("ij->ik", [(3, 4)]), ("ijk->ij", [(3, 4)]),
                             ("ij,jk->ik", [(3, 4), (5, 5)]), ("i,j", [(2,), (3,), (4,)])]:
        same(torch, lambda lib, *ts: lib.einsum(equation, *ts), *[rng.standard_normal(s) for s in shapes])
    same(torch, lambda lib, x, y: lib.einsum("ij,jk", x, y), a.astype(np.float32), b)
    same(torch, lambda lib, x, y: lib.einsum("ij,jk", x, y), a.astype(np.int64), b.astype(np.int64))


def test_einsum_gradgradcheck():
    rng = np.random.default_rng(0)
    for equation, shapes in [("ij,jk->ik", [(2, 3), (3, 2)]), ("ii->i", [(3, 3)]), ("ij,k->i", [(2, 3), (2,)]),
                             ("bij,bjk", [(2, 2, 3), (2, 3, 2)])]:
        assert gradgradcheck(lambda *ts: tensorlab.einsum(equation, *ts),
                             tuple(leaf(rng.standard_normal(s)) for s in shapes))


# -- gradcheck of every product on strided inputs ---------------------------------------------------------

LAYOUTS = ["contiguous", "transposed", "sliced", "expanded"]
PRODUCTS = {
    "mm": ((3, 4), (4, 2), lambda a, b: a.mm(b)), "bmm": ((2, 3, 4), (2, 4, 2), lambda a, b: a.bmm(b)),
    "mv": ((3, 4), (4,), lambda a, b: a.mv(b)), "dot": ((4,), (4,), lambda a, b: a.dot(b)),
    "outer": ((3,), (4,), lambda a, b: tensorlab.outer(a, b)),
    "addmm": ((3, 4), (4, 2), lambda a, b: tensorlab.addmm(b[0], a, b, beta=0.5, alpha=2)),
}
for _shapes in MATMUL_SHAPES:
    if 0 not in _shapes[0] + _shapes[1] and _shapes != ((2, 2, 3), (2, 3)):
        PRODUCTS[f"matmul{_shapes}"] = (_shapes[0], _shapes[1], lambda a, b: a @ b)


@pytest.mark.parametrize("name", sorted(PRODUCTS))
@settings(max_examples=6, deadline=None)
@given(layout_a=st.sampled_from(LAYOUTS), layout_b=st.sampled_from(LAYOUTS), seed=st.integers(0, 2 ** 16))
def test_product_gradcheck(name, layout_a, layout_b, seed):
    """Inputs stored contiguous, transposed (swapped strides), sliced (every other column) or expanded
    (one row read through a stride-0 dim)."""
    shape_a, shape_b, fn = PRODUCTS[name]
    rng = np.random.default_rng(seed)

    def stored(shape, layout):
        values = rng.standard_normal(shape)
        if layout == "transposed" and len(shape) >= 2:
            return leaf(values.swapaxes(-1, -2).copy()), lambda t: t.transpose(-1, -2)
        if layout == "sliced":
            return leaf(np.repeat(values, 2, axis=-1)), lambda t: t[..., ::2]
        if layout == "expanded":
            return leaf(values[:1].copy()), lambda t: t.expand(shape)
        return leaf(values), lambda t: t
    (a, view_a), (b, view_b) = stored(shape_a, layout_a), stored(shape_b, layout_b)
    assert gradcheck(lambda x, y: fn(view_a(x), view_b(y)), (a, b))


@pytest.mark.parametrize("name", ["mm", "bmm", "mv", "dot", "addmm", "matmul((5, 3), (2, 3, 4))",
                                  "matmul((2, 1, 2, 3), (5, 3, 4))", "matmul((3,), (3, 4))"])
def test_product_gradgradcheck(name):
    shape_a, shape_b, fn = PRODUCTS[name]
    rng = np.random.default_rng(0)
    assert gradgradcheck(fn, (leaf(rng.standard_normal(shape_a)), leaf(rng.standard_normal(shape_b))))


def test_large_matmul_is_the_blas_product():
    """A 1024x1024 product gives NumPy's matmul result exactly (the same BLAS call, no extra copies)."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((1024, 1024)).astype(np.float32), rng.standard_normal((1024, 1024)).astype(np.float32)
    out = tensorlab.from_numpy(a) @ tensorlab.from_numpy(b)
    np.testing.assert_array_equal(out.numpy(), a @ b)
    assert out.is_contiguous()
