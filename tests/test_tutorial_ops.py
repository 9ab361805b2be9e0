"""Ops that tutorials call and tensorlab lacked, compared with PyTorch: ``diag``/``diag_embed`` (with
gradcheck, also on non-contiguous inputs), ``searchsorted``/``bucketize``, ``F.cosine_similarity``,
``F.pairwise_distance`` and ``F.scaled_dot_product_attention`` (values and gradients)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.autograd import gradcheck, gradgradcheck


def _both(torch, array, requires_grad=False):
    return (tensorlab.tensor(array, requires_grad=requires_grad), torch.tensor(array, requires_grad=requires_grad))


@pytest.mark.parametrize("shape, k", [((3,), 0), ((3,), 1), ((3,), -2), ((3, 3), 0), ((3, 4), 1), ((4, 3), -1),
                                      ((2, 5), 3), ((0,), 0)])
def test_diag_matches_pytorch_with_gradients(torch, shape, k):
    array = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) + 1
    ours, theirs = _both(torch, array, requires_grad=True)
    a, b = tensorlab.diag(ours, k), torch.diag(theirs, k)
    assert repr(a) == repr(b)
    a.pow(2).sum().backward()
    b.pow(2).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy())


@pytest.mark.parametrize("case", ["vector", "matrix", "transposed matrix", "strided vector"])
def test_diag_and_diag_embed_pass_gradcheck(case):
    rng = np.random.default_rng(0)
    x = {"vector": lambda: tensorlab.tensor(rng.standard_normal(3)),
         "matrix": lambda: tensorlab.tensor(rng.standard_normal((3, 4))),
         "transposed matrix": lambda: tensorlab.tensor(rng.standard_normal((4, 3))).t(),
         "strided vector": lambda: tensorlab.tensor(rng.standard_normal(6))[::2]}[case]()
    x.requires_grad_(True)
    assert gradcheck(lambda t: tensorlab.diag(t, 1), (x,))
    assert gradgradcheck(lambda t: tensorlab.diag(t, -1), (x,))
    assert gradcheck(lambda t: tensorlab.diag_embed(t.expand(2, *t.shape), 1, 0, 2), (x,))


def test_diag_embed_and_errors_match_pytorch(torch):
    for lib in (tensorlab, torch):
        x = lib.arange(6.0).reshape(2, 3)
        assert lib.diag_embed(x).shape == (2, 3, 3) and lib.diag_embed(x, -1, 0, 2).shape == (4, 2, 4)
        with pytest.raises(RuntimeError, match="diag\\(\\): Supports 1D or 2D tensors. Got 3D"):
            lib.diag(lib.ones(2, 2, 2))
    assert repr(tensorlab.diag_embed(tensorlab.arange(6.0).reshape(2, 3), 1)) == repr(
        torch.diag_embed(torch.arange(6.0).reshape(2, 3), 1))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=6), st.lists(st.integers(-6, 6), max_size=5),
       st.booleans(), st.booleans())
def test_searchsorted_and_bucketize_match_pytorch(boundaries, values, right, int32):
    torch = pytest.importorskip("torch")
    boundaries = sorted(boundaries)
    results = []
    for lib in (tensorlab, torch):
        b, v = lib.tensor(boundaries), lib.tensor(values, dtype=lib.int64)
        results.append((repr(lib.searchsorted(b, v, right=right, out_int32=int32)),
                        repr(lib.bucketize(v, b, right=right)),
                        repr(lib.searchsorted(b, v, side="right" if right else "left"))))
    assert results[0] == results[1]


def test_searchsorted_by_rows_sorter_and_errors_match_pytorch(torch):
    outcomes = []
    for lib in (tensorlab, torch):
        s, v = lib.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]), lib.tensor([[3.0, 6.0], [1.0, 7.0]])
        seen = [repr(lib.searchsorted(s, v)), repr(lib.searchsorted(s[0], 4)),
                repr(lib.searchsorted(lib.tensor([5.0, 1.0, 3.0]), lib.tensor([2.0]), sorter=lib.tensor([1, 2, 0])))]
        for call in (lambda: lib.searchsorted(s, lib.ones(3, 2)), lambda: lib.bucketize(v, s),
                     lambda: lib.searchsorted(s[0], v, side="middle")):
            try:
                call()
            except RuntimeError as e:
                seen.append(str(e))
        outcomes.append(seen)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("shapes, dim", [(((2, 3), (2, 3)), 1), (((4,), (4,)), 0), (((2, 1, 3), (1, 4, 3)), -1),
                                         (((3, 2), (3, 2)), 0)])
def test_cosine_similarity_and_pairwise_distance_match_pytorch(torch, shapes, dim):
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(s) for s in shapes]
    (a1, b1), (a2, b2) = (_both(torch, arrays[0], True), _both(torch, arrays[1], True))
    ours = tensorlab.nn.functional.cosine_similarity(a1, a2, dim=dim)
    theirs = torch.nn.functional.cosine_similarity(b1, b2, dim=dim)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6)
    ours.sum().backward()
    theirs.sum().backward()
    np.testing.assert_allclose(a1.grad.numpy(), b1.grad.numpy(), rtol=1e-6, atol=1e-9)
    if len(shapes[0]) == 2 and shapes[0] == shapes[1]:
        np.testing.assert_allclose(tensorlab.nn.functional.pairwise_distance(a1, a2).detach().numpy(),
                                   torch.nn.functional.pairwise_distance(b1, b2).detach().numpy(), rtol=1e-6)
    assert gradcheck(lambda x, y: tensorlab.nn.functional.cosine_similarity(x, y, dim=dim), (a1, a2))
    assert tensorlab.cosine_similarity is tensorlab.nn.functional.cosine_similarity


@pytest.mark.parametrize("kwargs", [{}, {"is_causal": True}, {"scale": 0.5}, {"mask": "bool"}, {"mask": "float"}])
def test_scaled_dot_product_attention_matches_pytorch(torch, kwargs):
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((2, 3, 4, 5)) for _ in range(3))
    mask = rng.standard_normal((4, 4))
    results, grads = [], []
    for lib in (tensorlab, torch):
        tq, tk, tv = (lib.tensor(a, requires_grad=True) for a in (q, k, v))
        extra = dict(kwargs)
        if extra.pop("mask", None) == "bool":
            extra["attn_mask"] = lib.tensor(mask > -0.5)
        elif "mask" in kwargs:
            extra["attn_mask"] = lib.tensor(mask)
        out = lib.nn.functional.scaled_dot_product_attention(tq, tk, tv, **extra)
        out.pow(2).sum().backward()
        results.append(out.detach().numpy())
        grads.append([t.grad.numpy() for t in (tq, tk, tv)])
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6, atol=1e-9)
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("shapes, dim", [(((3,), (3,)), None), (((2, 3), (2, 3)), 1), (((3, 4), (3, 1)), 0),
                                         (((4, 3), (1, 3)), -1), (((2, 3, 3), (2, 3, 3)), -2)])
def test_cross_matches_pytorch_and_passes_gradcheck(torch, shapes, dim):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(s) for s in shapes]
    ours = [tensorlab.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = tensorlab.cross(*ours, dim=dim), torch.cross(*theirs, dim=dim)
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-7)
    assert a.grad_fn.name() == b.grad_fn.name()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(lambda x, y: tensorlab.cross(x, y, dim=dim), ours)
        assert gradgradcheck(lambda x, y: tensorlab.cross(x, y, dim=dim), ours)
    np.testing.assert_allclose(tensorlab.linalg.cross(*ours[:1] * 2).detach().numpy(), 0) if shapes[0][-1] == 3 else None


def test_cross_errors_and_linalg_cross_match_pytorch(torch):
    for lib in (tensorlab, torch):
        with pytest.raises(RuntimeError, match="linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"):
            lib.linalg.cross(lib.ones(2, 2), lib.ones(2, 2))
        with pytest.raises(RuntimeError, match="inputs must have the same number of dimensions"):
            lib.linalg.cross(lib.ones(2, 3), lib.ones(3))
        assert lib.linalg.cross(lib.tensor([1.0, 0, 0]), lib.tensor([0.0, 1, 0])).tolist() == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (3, 3), (2, 4, 3)])
def test_svd_matches_pytorch_up_to_signs(torch, shape):
    rng = np.random.default_rng(4)
    array = rng.standard_normal(shape)
    for ours, theirs in ((tensorlab.linalg.svd(tensorlab.tensor(array), full_matrices=False),
                          torch.linalg.svd(torch.tensor(array), full_matrices=False)),
                         (tensorlab.svd(tensorlab.tensor(array)), torch.svd(torch.tensor(array)))):
        assert type(ours).__name__ == type(theirs).__name__ and repr(ours).split("(")[0] == repr(theirs).split("(")[0]
        np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-10)
        for mine, other in ((ours[0], theirs[0]), (ours[2], theirs[2])):  # each singular vector up to its sign
            np.testing.assert_allclose(np.abs(mine.numpy()), np.abs(other.numpy()), rtol=1e-8, atol=1e-10)
    full = tensorlab.linalg.svd(tensorlab.tensor(array))
    assert full.U.shape == torch.linalg.svd(torch.tensor(array)).U.shape
    np.testing.assert_allclose(tensorlab.linalg.svdvals(tensorlab.tensor(array)).numpy(),
                               torch.linalg.svdvals(torch.tensor(array)).numpy(), rtol=1e-10)


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (3, 3), (2, 3, 2)])
def test_svd_gradients_pass_gradcheck(shape):
    """Functions of the SVD that do not depend on the singular vectors' signs: the values, and the rank-one
    pieces ``u_i v_i^T``."""
    rng = np.random.default_rng(5)
    A = tensorlab.tensor(rng.standard_normal(shape), requires_grad=True)
    assert gradcheck(lambda a: tensorlab.linalg.svdvals(a), (A,))

    def first_piece(a):
        U, S, Vh = tensorlab.linalg.svd(a, full_matrices=False)
        return (U[..., :, :1] @ Vh[..., :1, :]) * S[..., :1, None] + U @ Vh

    assert gradcheck(first_piece, (A,))
    assert tensorlab.svd(A).U.grad_fn.name() == "LinalgSvdBackward0"


def test_torch_functional_module_is_where_pytorch_has_it(torch):
    """``import torch.functional as F`` imports (tutorials sometimes write it for torch.nn.functional), and
    its functions are the top-level ones."""
    import importlib
    ours = importlib.import_module("tensorlab.functional")
    theirs = importlib.import_module("torch.functional")
    for name in ours.__all__:
        assert getattr(ours, name) is getattr(tensorlab, name) and hasattr(theirs, name), name
    assert tensorlab.functional is ours
