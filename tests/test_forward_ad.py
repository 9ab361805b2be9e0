"""Forward-mode AD (tensorlab.autograd.forward_ad) against PyTorch: tangents, errors, levels, views,
in-place ops, custom Functions' jvp, and tangents against finite differences."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
import tensorlab.autograd.forward_ad as fwAD
from tensorlab.autograd.function import _op_layers

torch = pytest.importorskip("torch")
tfwAD = torch.autograd.forward_ad

POS = "positive"  # an input that must be > 0 (log, sqrt, pow with a tensor exponent)

# (name, f(lib, *inputs), input shapes). ``lib`` is tensorlab or torch; the same code runs on both.
CASES = [
    ("add", lambda L, x, y: x + y, [(2, 3), (2, 3)]),
    ("add broadcast", lambda L, x, y: x + y, [(2, 1), (1, 3)]),
    ("add alpha", lambda L, x, y: L.add(x, y, alpha=2.5), [(2, 3), (3,)]),
    ("add scalar", lambda L, x: 2.0 + x, [(2, 3)]),
    ("sub", lambda L, x, y: x - y, [(2, 3), (2, 3)]),
    ("rsub", lambda L, x: 1.5 - x, [(3,)]),
    ("mul", lambda L, x, y: x * y, [(2, 3), (3,)]),
    ("mul scalar", lambda L, x: x * 3, [(4,)]),
    ("div", lambda L, x, y: x / y, [(2, 3), (POS, 2, 3)]),
    ("rdiv", lambda L, x: 2.0 / x, [(POS, 3)]),
    ("neg", lambda L, x: -x, [(2, 3)]),
    ("pow", lambda L, x: x ** 3, [(2, 3)]),
    ("pow half", lambda L, x: x ** 0.5, [(POS, 2, 3)]),
    ("pow zero", lambda L, x: x ** 0, [(3,)]),
    ("pow tensor", lambda L, x, y: x ** y, [(POS, 2, 3), (2, 3)]),
    ("rpow", lambda L, x: 2.0 ** x, [(3,)]),
    ("exp", lambda L, x: x.exp(), [(2, 3)]),
    ("log", lambda L, x: x.log(), [(POS, 2, 3)]),
    ("sin", lambda L, x: x.sin(), [(2, 3)]),
    ("cos", lambda L, x: x.cos(), [(2, 3)]),
    ("tanh", lambda L, x: x.tanh(), [(2, 3)]),
    ("sigmoid", lambda L, x: x.sigmoid(), [(2, 3)]),
    ("relu", lambda L, x: L.relu(x), [(2, 3)]),
    ("sqrt", lambda L, x: x.sqrt(), [(POS, 4)]),
    ("sum", lambda L, x: x.sum(), [(2, 3)]),
    ("sum dim", lambda L, x: x.sum(1, keepdim=True), [(2, 3)]),
    ("mean", lambda L, x: x.mean(), [(2, 3)]),
    ("mean dim", lambda L, x: x.mean(0), [(2, 3)]),
    ("matmul", lambda L, x, y: x @ y, [(2, 3), (3, 4)]),
    ("matmul batched", lambda L, x, y: x @ y, [(2, 2, 3), (3, 4)]),
    ("mv", lambda L, x, y: x @ y, [(2, 3), (3,)]),
    ("dot", lambda L, x, y: x.dot(y), [(3,), (3,)]),
    ("mm", lambda L, x, y: L.mm(x, y), [(2, 3), (3, 2)]),
    ("addmm", lambda L, c, x, y: L.addmm(c, x, y, beta=0.5, alpha=2.0), [(2, 2), (2, 3), (3, 2)]),
    ("linear", lambda L, x, w, b: L.nn.functional.linear(x, w, b), [(4, 3), (2, 3), (2,)]),
    ("view", lambda L, x: x.view(1, 2, 3), [(2, 3)]),
    ("reshape", lambda L, x: x.reshape(-1), [(2, 3)]),
    ("transpose", lambda L, x: x.transpose(0, 1), [(2, 3)]),
    ("permute", lambda L, x: x.permute(2, 0, 1), [(2, 3, 4)]),
    ("expand", lambda L, x: x.expand(2, 3), [(1, 3)]),
    ("index int", lambda L, x: x[1], [(2, 3)]),
    ("index slice", lambda L, x: x[:, 1:], [(2, 3)]),
    ("index list", lambda L, x: x[[0, 2, 2]], [(3, 2)]),
    ("index mask", lambda L, x: x[x > 0], [(3, 2)]),
    ("cat", lambda L, x, y: L.cat([x, y], 1), [(2, 3), (2, 2)]),
    ("stack", lambda L, x, y: L.stack([x, y]), [(2, 3), (2, 3)]),
    ("softmax", lambda L, x: x.softmax(1), [(2, 3)]),
    ("log_softmax", lambda L, x: L.nn.functional.log_softmax(x, 0), [(2, 3)]),
    ("cross_entropy", lambda L, x: L.nn.functional.cross_entropy(x, L.tensor([0, 2])), [(2, 3)]),
    ("nll_loss sum", lambda L, x: L.nn.functional.nll_loss(x, L.tensor([1, 0]), reduction="sum"), [(2, 3)]),
    ("where", lambda L, x, y: L.where(x > 0, x, y), [(2, 3), (2, 3)]),
    ("unbind", lambda L, x: x.unbind(0)[1], [(2, 3)]),
    ("split", lambda L, x: x.split(2, 1)[1], [(2, 3)]),
    ("clone", lambda L, x: x.clone(), [(2, 3)]),
    ("to float32", lambda L, x: x.to(L.float32), [(2, 3)]),
    ("einsum", lambda L, x, y: L.einsum("ij,jk->ik", x, y), [(2, 3), (3, 2)]),
    # ops without a rule: the double-backward trick through their backward
    ("fallback clamp", lambda L, x: x.clamp(-0.5, 0.5), [(2, 3)]),
    ("fallback abs", lambda L, x: x.abs(), [(2, 3)]),
    ("fallback var", lambda L, x: x.var(1), [(2, 3)]),
    ("fallback norm", lambda L, x: x.norm(), [(2, 3)]),
    ("fallback prod", lambda L, x: x.prod(1), [(2, 3)]),
    ("fallback max dim", lambda L, x: x.max(1).values, [(2, 3)]),
    ("fallback sort", lambda L, x: x.sort(1).values, [(2, 3)]),
    ("fallback atan2", lambda L, x, y: L.atan2(x, y), [(2, 3), (3,)]),
    ("fallback gelu", lambda L, x: L.nn.functional.gelu(x), [(2, 3)]),
    ("fallback mse", lambda L, x, y: L.nn.functional.mse_loss(x, y), [(2, 3), (2, 3)]),
    ("fallback layer_norm", lambda L, x, w: L.nn.functional.layer_norm(x, (3,), w), [(2, 3), (3,)]),
    ("fallback logsumexp", lambda L, x: x.logsumexp(1), [(2, 3)]),
    ("fallback cumprod", lambda L, x: x.cumprod(1), [(2, 3)]),
    ("fallback maximum", lambda L, x, y: L.maximum(x, y), [(2, 3), (2, 3)]),
    ("fallback lerp", lambda L, x, y: L.lerp(x, y, 0.3), [(2, 3), (2, 3)]),
    ("fallback gather", lambda L, x: x.gather(1, L.tensor([[0, 2], [1, 1]])), [(2, 3)]),
    ("fallback inverse", lambda L, x: L.linalg.inv(x + 3 * L.eye(3, dtype=L.float64)), [(3, 3)]),
    ("fallback conv2d", lambda L, x, w: L.nn.functional.conv2d(x, w, padding=1), [(1, 2, 4, 4), (3, 2, 3, 3)]),
    ("fallback avg_pool", lambda L, x: L.nn.functional.avg_pool2d(x, 2), [(1, 1, 4, 4)]),
    ("fallback pad", lambda L, x: L.nn.functional.pad(x, (1, 2)), [(2, 3)]),
    ("fallback sign", lambda L, x: x.sign(), [(2, 3)]),
]


def _arrays(shapes, rng, transposed=False):
    arrays = []
    for shape in shapes:
        positive = shape and shape[0] == POS
        shape = shape[1:] if positive else shape
        a = rng.standard_normal(shape)
        arrays.append(np.abs(a) + 0.5 if positive else a)
    return arrays


def _lib_inputs(lib, arrays, transposed):
    """The same values in ``lib``; ``transposed``: every matrix is a non-contiguous transposed view."""
    out = []
    for a in arrays:
        if transposed and a.ndim >= 2:
            out.append(lib.tensor(np.ascontiguousarray(np.swapaxes(a, -1, -2))).transpose(-1, -2))
        else:
            out.append(lib.tensor(a.copy()))
    return out


def _tangents_of(lib, ad, fn, primals, tangents, dual_mask):
    with ad.dual_level():
        duals = [ad.make_dual(p, t) if d else p for p, t, d in zip(primals, tangents, dual_mask)]
        out = fn(lib, *duals)
        return ad.unpack_dual(out).primal, ad.unpack_dual(out).tangent


@pytest.mark.parametrize("transposed", [False, True], ids=["contiguous", "transposed"])
@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_tangent_matches_torch(name, fn, shapes, transposed):
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    arrays = _arrays(shapes, rng)
    tangent_arrays = [rng.standard_normal(a.shape) for a in arrays]
    masks = [[True] * len(arrays)] + ([[i == j for j in range(len(arrays))] for i in range(len(arrays))]
                                      if len(arrays) > 1 else [])
    for mask in masks:   # every input dual, then one at a time
        ours = _tangents_of(tensorlab, fwAD, fn, _lib_inputs(tensorlab, arrays, transposed),
                            _lib_inputs(tensorlab, tangent_arrays, transposed), mask)
        theirs = _tangents_of(torch, tfwAD, fn, _lib_inputs(torch, arrays, transposed),
                              _lib_inputs(torch, tangent_arrays, transposed), mask)
        np.testing.assert_allclose(ours[0].numpy(), theirs[0].detach().numpy(), rtol=1e-10, atol=1e-12)
        assert ours[1] is not None, (name, mask)
        assert tuple(ours[1].shape) == tuple(theirs[1].shape)
        np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-9, atol=1e-12)
    assert _op_layers == []


FD_CASES = [c for c in CASES[::3] if "float32" not in c[0]]


@pytest.mark.parametrize("name,fn,shapes", FD_CASES, ids=[c[0] for c in FD_CASES])
def test_tangent_matches_finite_differences(name, fn, shapes):
    """J t ~ (f(x + h t) - f(x - h t)) / 2h, in float64 (as gradcheck checks a backward)."""
    rng = np.random.default_rng(1)
    arrays = _arrays(shapes, rng)
    tangents = [rng.standard_normal(a.shape) for a in arrays]
    h = 1e-6
    plus = fn(tensorlab, *[tensorlab.tensor(a + h * t) for a, t in zip(arrays, tangents)]).numpy()
    minus = fn(tensorlab, *[tensorlab.tensor(a - h * t) for a, t in zip(arrays, tangents)]).numpy()
    _, tangent = _tangents_of(tensorlab, fwAD, fn, [tensorlab.tensor(a) for a in arrays],
                              [tensorlab.tensor(t) for t in tangents], [True] * len(arrays))
    np.testing.assert_allclose(tangent.numpy(), (plus - minus) / (2 * h), rtol=1e-5, atol=1e-6)


def _error_of(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the type and message are what is compared
        return type(error), str(error)
    return None, None


def _both(call_with):
    ours = _error_of(lambda: call_with(tensorlab, fwAD))
    theirs = _error_of(lambda: call_with(torch, tfwAD))
    assert ours[0] is theirs[0] and theirs[0] is not None, (ours, theirs)
    assert ours[1] == theirs[1]
    return ours


@pytest.mark.parametrize("case", ["outside", "shape", "int primal", "int tangent", "twice", "nested",
                                  "level", "positional level"])
def test_make_dual_errors_match_torch(case):
    def call(L, ad):
        x, t = L.ones(2, 3, dtype=L.float64), L.ones(2, 3, dtype=L.float64)
        if case == "outside":
            return ad.make_dual(x, t)
        with ad.dual_level():
            if case == "shape":
                ad.make_dual(x, L.ones(3, dtype=L.float64))
            elif case == "int primal":
                ad.make_dual(L.arange(3), L.ones(3))
            elif case == "int tangent":
                ad.make_dual(L.ones(3), L.arange(3))
            elif case == "twice":
                ad.make_dual(ad.make_dual(x, t), t)
            elif case == "nested":
                ad.enter_dual_level()
            elif case == "level":
                ad.make_dual(x, t, level=3)
            else:
                ad.make_dual(x, t, 0)
    _both(call)
    assert _op_layers == []


def test_exit_errors_match_torch():
    _both(lambda L, ad: ad.exit_dual_level())
    level = fwAD.enter_dual_level()
    try:
        _, message = _error_of(lambda: fwAD.exit_dual_level(level=level + 2))
        assert message == ("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    finally:
        fwAD.exit_dual_level(level=level)
    assert fwAD.enter_dual_level() == 0   # levels are numbered from 0 again
    fwAD.exit_dual_level()


def test_levels_nesting_and_tangent_lifetime():
    x, t = tensorlab.ones(3), tensorlab.arange(3.0)
    assert fwAD.unpack_dual(x) == (x, None)
    with fwAD.dual_level() as level:
        assert level == 0 and len(_op_layers) == 1
        d = fwAD.make_dual(x, t)
        primal, tangent = fwAD.unpack_dual(d)
        assert type(fwAD.unpack_dual(d)).__name__ == "UnpackedDualTensor"
        assert tangent is t and primal._base is x and fwAD.unpack_dual(primal).tangent is None
        assert d._base is x and d.data_ptr() == x.data_ptr()
        assert fwAD.unpack_dual(x).tangent is None and fwAD.unpack_dual(x).primal is not x   # an alias
        assert fwAD.unpack_dual(d.detach()).tangent is None
        w = tensorlab.ones(2, requires_grad=True)
        primal = fwAD.unpack_dual(fwAD.make_dual(w, tensorlab.ones(2))).primal
        assert primal.grad_fn.name() == "torch::autograd::Identity" and "grad_fn=<Identity>" in repr(primal)
    assert _op_layers == []
    assert fwAD.unpack_dual(d).tangent is None and fwAD.unpack_dual(d).primal is d


def test_a_tangent_in_another_layout_is_copied_into_the_primals():
    with fwAD.dual_level():
        t = tensorlab.ones(3, 2, dtype=tensorlab.float64).t()
        d = fwAD.make_dual(tensorlab.zeros(2, 3, dtype=tensorlab.float64), t)
        assert fwAD.unpack_dual(d).tangent.stride() == (3, 1)
        assert fwAD.unpack_dual(d).tangent is not t


def test_views_carry_views_of_the_tangent():
    with fwAD.dual_level():
        t = tensorlab.arange(6.0).reshape(2, 3)
        d = fwAD.make_dual(tensorlab.zeros(2, 3), t)
        row = fwAD.unpack_dual(d[1]).tangent
        assert row.tolist() == [3.0, 4.0, 5.0] and row._base is t._base
        t[1, 0] = 10.0                                       # same memory
        assert fwAD.unpack_dual(d[1]).tangent.tolist()[0] == 10.0


def _inplace_case(L, ad, case):
    with ad.dual_level():
        x = ad.make_dual(L.tensor([1.0, 2.0, 3.0], dtype=L.float64), L.tensor([1.0, -1.0, 2.0], dtype=L.float64))
        plain = L.tensor([[0.5, 1.5, 2.5], [3.0, 4.0, 5.0]], dtype=L.float64)
        if case == "add_":
            plain.add_(x)
        elif case == "mul_ view":
            plain[1].mul_(x)
        elif case == "copy_ view":
            plain[0].copy_(x)
        elif case == "setitem":
            plain[1, 1:] = x[:2]
        elif case == "mul_ dual":
            y = x.clone()
            y.mul_(x)
            return y.tolist(), ad.unpack_dual(y).tangent.tolist()
        elif case == "sin_":
            y = x * 1
            y.sin_()
            return y.tolist(), ad.unpack_dual(y).tangent.tolist()
        elif case == "t_":
            y = x.expand(2, 3) * plain
            y.t_()
            return y.tolist(), ad.unpack_dual(y).tangent.tolist()
        elif case == "base sees view":
            v = plain[1]
            plain.copy_(x.expand(2, 3))
            return ad.unpack_dual(v).tangent.tolist(), ad.unpack_dual(plain).tangent.tolist()
        return plain.tolist(), ad.unpack_dual(plain).tangent.tolist()


@pytest.mark.parametrize("case", ["add_", "mul_ view", "copy_ view", "setitem", "mul_ dual", "sin_", "t_",
                                  "base sees view"])
def test_inplace_ops_update_the_tangent_as_torch(case):
    ours = _inplace_case(tensorlab, fwAD, case)
    theirs = _inplace_case(torch, tfwAD, case)
    np.testing.assert_allclose(np.array(ours[0]), np.array(theirs[0]), rtol=1e-12)
    np.testing.assert_allclose(np.array(ours[1]), np.array(theirs[1]), rtol=1e-12)


def test_no_grad_and_reverse_over_forward():
    x = tensorlab.tensor([0.5, 1.0], dtype=tensorlab.float64, requires_grad=True)
    t = tensorlab.tensor([1.0, 2.0], dtype=tensorlab.float64, requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        assert d.grad_fn.name() == "ViewBackward0"
        with tensorlab.no_grad():
            y = d.exp()
        assert y.grad_fn is None and fwAD.unpack_dual(y).tangent.grad_fn is None
        jvp = fwAD.unpack_dual((d * d).sum()).tangent              # 2 <x, t>
        fallback = fwAD.unpack_dual(d.abs().sum()).tangent         # <sign x, t>
    gx, gt = tensorlab.autograd.grad(jvp, (x, t))
    assert gx.tolist() == [2.0, 4.0] and gt.tolist() == [1.0, 2.0]
    assert tensorlab.autograd.grad(fallback, t)[0].tolist() == [1.0, 1.0]


def test_integer_results_have_no_tangent_and_sort_indices_neither():
    with fwAD.dual_level():
        d = fwAD.make_dual(tensorlab.tensor([3.0, 1.0]), tensorlab.ones(2))
        assert fwAD.unpack_dual(d > 1).tangent is None
        assert fwAD.unpack_dual(d.argmax()).tangent is None
        values, indices = d.sort()
        assert fwAD.unpack_dual(values).tangent.tolist() == [1.0, 1.0]
        assert fwAD.unpack_dual(indices).tangent is None


def test_an_op_whose_backward_is_not_differentiable_raises_torchs_error():
    from tensorlab.autograd.function import Function, once_differentiable

    class Hidden(Function):        # built in here for the test: behaves as a tensorlab op would
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @once_differentiable
        def backward(ctx, grad):
            return grad * 2

    Hidden.__module__ = "tensorlab.ops.hidden"
    Hidden._backward_cls._builtin = True
    with fwAD.dual_level():
        d = fwAD.make_dual(tensorlab.ones(2), tensorlab.ones(2))
        with pytest.raises(NotImplementedError, match="Trying to use forward AD with hidden that does not "
                                                      "support it because it has not been implemented yet"):
            Hidden.apply(d)


# -- custom Functions -------------------------------------------------------------------------------
def _custom(L, ad, kind):
    class Scale(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.save_for_forward(x, y)
            ctx.k = k
            return x * y * k

        @staticmethod
        def jvp(ctx, xt, yt, kt):
            x, y = ctx.saved_tensors
            assert kt is None
            return ctx.k * (xt * y + x * yt)

        @staticmethod
        def backward(ctx, grad):
            return grad, grad, None

    class ExpNew(L.autograd.Function):
        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_forward(output)

        @staticmethod
        def jvp(ctx, xt):
            out, = ctx.saved_tensors
            return out * xt

    class NoJvp(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            return grad

    class TwoTangents(Scale):
        @staticmethod
        def jvp(ctx, xt, yt, kt):
            return xt, xt

    class BadSize(Scale):
        @staticmethod
        def jvp(ctx, xt, yt, kt):
            return L.ones(3, dtype=L.float64)

    x = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=(kind == "recorded"))
    y = L.tensor([3.0, -1.0], dtype=L.float64)
    with ad.dual_level():
        d = ad.make_dual(x, L.tensor([0.5, 1.0], dtype=L.float64))
        if kind in ("plain", "recorded"):
            out = Scale.apply(d, y, 2)
            return out.tolist(), ad.unpack_dual(out).tangent.tolist(), out.requires_grad
        if kind == "setup_context":
            return ad.unpack_dual(ExpNew.apply(d)).tangent.tolist()
        if kind == "no tangent in":
            return ad.unpack_dual(NoJvp.apply(y)).tangent
        {"no jvp": NoJvp, "two": TwoTangents, "size": BadSize}[kind].apply(*((d,) if kind == "no jvp" else (d, y, 2)))


@pytest.mark.parametrize("kind", ["plain", "recorded", "setup_context", "no tangent in"])
def test_custom_function_jvp_matches_torch(kind):
    assert _custom(tensorlab, fwAD, kind) == _custom(torch, tfwAD, kind)


@pytest.mark.parametrize("kind", ["no jvp", "two", "size"])
def test_custom_function_jvp_errors_match_torch(kind):
    _both(lambda L, ad: _custom(L, ad, kind))
    assert _op_layers == []


# -- autograd.functional with strategy="forward-mode" ---------------------------------------------
def _functional(L, kind):
    F = L.autograd.functional
    rng = np.random.default_rng(3)
    x, w = L.tensor(rng.standard_normal(3)), L.tensor(rng.standard_normal((4, 3)))
    if kind == "jacobian":
        return [F.jacobian(lambda a: (w @ a).tanh(), x, vectorize=True, strategy="forward-mode")]
    if kind == "jacobian tuple":
        jac = F.jacobian(lambda a, b: (a * 2, (b @ a).sin()), (x, w), vectorize=True, strategy="forward-mode")
        return [block for row in jac for block in row]
    if kind == "hessian":        # forward-over-reverse: tangents pushed through backward's own ops
        return [F.hessian(lambda a: (a.exp() * a).sum() + (a ** 3).prod() + a.softmax(0)[0], x,
                          vectorize=True, outer_jacobian_strategy="forward-mode")]
    f = lambda a: a * 2
    if kind == "no vectorize":
        return F.jacobian(f, x, strategy="forward-mode")
    if kind == "strict":
        return F.jacobian(f, x, strict=True, vectorize=True, strategy="forward-mode")
    return F.jacobian(f, x, create_graph=True, vectorize=True, strategy="forward-mode")


@pytest.mark.parametrize("kind", ["jacobian", "jacobian tuple", "hessian"])
def test_functional_forward_mode_matches_torch(kind):
    for ours, theirs in zip(_functional(tensorlab, kind), _functional(torch, kind)):
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kind", ["no vectorize", "strict", "create_graph"])
def test_functional_forward_mode_errors_match_torch(kind):
    _both(lambda L, ad: _functional(L, kind))


# -- broadcasting, property-based -----------------------------------------------------------------
@st.composite
def _broadcast_pair(draw):
    shape = draw(st.lists(st.integers(1, 3), min_size=0, max_size=3))
    other = [draw(st.sampled_from([n, 1])) for n in shape][draw(st.integers(0, len(shape))):]
    return tuple(shape), tuple(other)


@settings(max_examples=30, deadline=None)
@given(shapes=_broadcast_pair(), op=st.sampled_from(["add", "mul", "div", "sub", "where"]), seed=st.integers(0, 99))
def test_broadcast_tangents_match_torch(shapes, op, seed):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s) + (3.0 if op == "div" and i == 1 else 0.0) for i, s in enumerate(shapes)]
    tangents = [rng.standard_normal(s) for s in shapes]
    fns = {"add": lambda L, x, y: x + y, "mul": lambda L, x, y: x * y, "div": lambda L, x, y: x / y,
           "sub": lambda L, x, y: L.sub(y, x, alpha=2.0), "where": lambda L, x, y: L.where(x > 0, x, y)}
    for mask in ([True, True], [True, False], [False, True]):
        ours = _tangents_of(tensorlab, fwAD, fns[op], [tensorlab.tensor(a) for a in arrays],
                            [tensorlab.tensor(t) for t in tangents], mask)[1]
        theirs = _tangents_of(torch, tfwAD, fns[op], [torch.tensor(a) for a in arrays],
                              [torch.tensor(t) for t in tangents], mask)[1]
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-12)


def test_a_dual_tensor_prints_its_tangent_as_pytorch_does():
    """``tangent=`` last among the suffixes, wrapped like them; a 0-d tangent as its number (an f-string
    formats a 0-d tensor as its item); outside the level, or once unpacked, no tangent."""
    def shown(lib, fw):
        with fw.dual_level():
            x = fw.make_dual(lib.tensor([1., 2., 3.]), lib.tensor([1., 0., 0.]))
            m = fw.make_dual(lib.ones(2, 2, requires_grad=True), lib.arange(4.).reshape(2, 2))
            d = fw.make_dual(lib.ones(2, dtype=lib.float64), lib.ones(2, dtype=lib.float64))
            s = fw.make_dual(lib.tensor(2.), lib.tensor(1.))
            texts = [repr(x), repr(x[1:]), repr(x * 2), repr(m), repr(d), repr(s ** 2), repr(s * 3),
                     repr(fw.unpack_dual(x)), repr(fw.make_dual(lib.zeros(0), lib.zeros(0)))]
        return texts + [repr(x)]
    assert shown(tensorlab, fwAD) == shown(torch, tfwAD)


def _over_reverse(lib, fw, how):
    """Forward over reverse without create_graph: the tangent of a gradient autograd.grad returns (the
    backward's own ops see the dual inputs), or of a .grad that backward() accumulated (dropped)."""
    x = lib.tensor([1.0, 2.0, -0.5], dtype=lib.float64, requires_grad=True)
    with fw.dual_level():
        d = fw.make_dual(x, lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64))
        if how == "x * x wrt the dual":        # two gradients summed at d
            g, = lib.autograd.grad((d * d).sum(), d)
        elif how == "sin wrt the leaf":
            g, = lib.autograd.grad(d.sin().sum(), x)
        elif how == "hessian-vector product":
            g, = lib.autograd.grad((d ** 3).sum() + d[0] * d[1], d)
        else:
            (d.exp()).sum().backward()
            g = x.grad
        primal, tangent = fw.unpack_dual(g)
        return primal.detach().numpy(), None if tangent is None else (tangent.detach().numpy(), tangent.requires_grad)


@pytest.mark.parametrize("how", ["x * x wrt the dual", "sin wrt the leaf", "hessian-vector product", "backward()"])
def test_forward_over_reverse_without_create_graph(how):
    ours, theirs = _over_reverse(tensorlab, fwAD, how), _over_reverse(torch, tfwAD, how)
    np.testing.assert_allclose(ours[0], theirs[0])
    assert (ours[1] is None) == (theirs[1] is None)
    if theirs[1] is not None:
        np.testing.assert_allclose(ours[1][0], theirs[1][0])
        assert ours[1][1] == theirs[1][1] is False


def test_inference_mode_switches_forward_ad_off():
    def tangent(lib, fw):
        with fw.dual_level():
            d = fw.make_dual(lib.tensor([1.0, 2.0]), lib.ones(2))
            with lib.inference_mode():
                inside = fw.unpack_dual(d * 2).tangent
            with lib.no_grad():
                no_grad = fw.unpack_dual(d * 2).tangent
        return inside, no_grad.tolist()
    assert tangent(tensorlab, fwAD) == tangent(torch, tfwAD) == (None, [2.0, 2.0])


@pytest.mark.parametrize("which", ["vec -> vec", "mat -> vec", "tuples", "hessian vec", "hessian mat"])
def test_the_forward_mode_jacobian_is_laid_out_as_pytorchs(which):
    """functional.jacobian(strategy="forward-mode") and hessian(outer_jacobian_strategy="forward-mode"):
    the values and the strides of PyTorch's (a view whose columns lie one after another in memory)."""
    def jac(lib):
        F = lib.autograd.functional
        x = lib.tensor([1.0, 0.5], dtype=lib.float64)
        m = lib.tensor([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], dtype=lib.float64)
        if which == "vec -> vec":
            return F.jacobian(lambda t: lib.stack([t[0] * t[1], t[0].exp(), t[1].sin()]), x,
                              strategy="forward-mode", vectorize=True)
        if which == "mat -> vec":
            return F.jacobian(lambda t: t.sin().sum(1), m, strategy="forward-mode", vectorize=True)
        if which == "tuples":
            return F.jacobian(lambda a, b: (a * b.sum(), (a ** 2).sum()), (x, m), strategy="forward-mode",
                              vectorize=True)
        return F.hessian(lambda t: (t ** 3).sum(), x if which == "hessian vec" else m,
                         outer_jacobian_strategy="forward-mode", vectorize=True)

    def leaves(tree):   # (PyTorch gives lists for tuple outputs here, and a Hessian that requires grad)
        return [y for t in tree for y in leaves(t)] if isinstance(tree, (tuple, list)) else [tree.detach()]
    ours, theirs = leaves(jac(tensorlab)), leaves(jac(torch))
    assert [tuple(a.shape) for a in ours] == [tuple(b.shape) for b in theirs]
    assert [a.stride() for a in ours] == [b.stride() for b in theirs]
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12)
