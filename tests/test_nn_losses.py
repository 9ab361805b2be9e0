"""Losses against PyTorch: values and input gradients for every reduction and option, numerical
stability on extreme inputs, the loss modules (options, buffers, reprs) and PyTorch's errors."""
import warnings

import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn
import tensorlab.nn.functional as F

REDUCTIONS = ["mean", "sum", "none"]


def compare(torch, name, arrays, kwargs, grad_positions=(0,), rtol=1e-5, atol=1e-6, **call):
    """Run F.<name> in both libraries on the same arrays; compare value and gradients."""
    ours_in, theirs_in = [], []
    for i, a in enumerate(arrays):
        if isinstance(a, np.ndarray):
            needs = i in grad_positions
            ours_in.append(tensorlab.tensor(a.copy(), requires_grad=needs))
            theirs_in.append(torch.tensor(a.copy(), requires_grad=needs))
        else:
            ours_in.append(a)
            theirs_in.append(a)
    conv = {k: (tensorlab.tensor(v.copy()) if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}
    conv_t = {k: (torch.tensor(v.copy()) if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}
    ours = getattr(F, name)(*ours_in, **conv)
    theirs = getattr(torch.nn.functional, name)(*theirs_in, **conv_t)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol)
    upstream = np.random.default_rng(7).standard_normal(tuple(theirs.shape)).astype(theirs.detach().numpy().dtype)
    ours.backward(tensorlab.tensor(upstream))
    theirs.backward(torch.tensor(upstream))
    for i in grad_positions:
        np.testing.assert_allclose(ours_in[i].grad.numpy(), theirs_in[i].grad.numpy(), rtol=rtol, atol=atol * 10)
    if theirs.grad_fn is not None:
        return ours.grad_fn.name(), theirs.grad_fn.name()
    return None, None


def rand(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,extra", [("mse_loss", {}), ("l1_loss", {}), ("smooth_l1_loss", {"beta": 0.5}),
                                        ("smooth_l1_loss", {"beta": 0.0}), ("huber_loss", {"delta": 0.3})])
def test_regression_losses(torch, name, extra, reduction):
    names = compare(torch, name, [rand(4, 5), rand(4, 5, seed=1)], dict(reduction=reduction, **extra),
                    grad_positions=(0, 1))
    assert names[0] == names[1]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("options", [{}, {"weight": np.array([0.2, 1.0, 3.0], dtype=np.float32)},
                                     {"ignore_index": 1}, {"label_smoothing": 0.15},
                                     {"label_smoothing": 0.2, "ignore_index": 0,
                                      "weight": np.array([0.5, 2.0, 1.0], dtype=np.float32)}])
def test_cross_entropy_class_indices(torch, options, reduction):
    target = np.array([0, 2, 1, 1, 2], dtype=np.int64)
    compare(torch, "cross_entropy", [rand(5, 3), target], dict(reduction=reduction, **options), rtol=1e-5,
            atol=1e-6)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_nd_inputs(torch, reduction):
    target = np.random.default_rng(3).integers(0, 4, (2, 3, 5))
    target[0, 0, 0] = -100
    compare(torch, "cross_entropy", [rand(2, 4, 3, 5), target], dict(reduction=reduction))
    compare(torch, "cross_entropy", [rand(2, 4, 5), target[:, 0]], dict(reduction=reduction,
                                                                        weight=np.ones(4, np.float32) * 2))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("options", [{}, {"label_smoothing": 0.3},
                                     {"weight": np.array([1.0, 0.5, 2.0, 1.0], dtype=np.float32)}])
def test_cross_entropy_probability_targets(torch, options, reduction):
    probs = np.random.default_rng(2).dirichlet(np.ones(4), size=6).astype(np.float32)
    compare(torch, "cross_entropy", [rand(6, 4), probs], dict(reduction=reduction, **options),
            grad_positions=(0, 1))


def test_cross_entropy_unbatched(torch):
    compare(torch, "cross_entropy", [rand(4), np.array(2)], {})
    compare(torch, "nll_loss", [rand(4), np.array(1)], {"reduction": "none"})


def test_cross_entropy_all_ignored_is_nan_like_torch(torch):
    x = tensorlab.randn(3, 2)
    out = F.cross_entropy(x, tensorlab.full((3,), -100))
    assert np.isnan(out.item())
    assert F.cross_entropy(x, tensorlab.full((3,), -100), reduction="sum").item() == 0


def test_cross_entropy_is_stable_for_huge_logits(torch):
    x = np.array([[1e4, -1e4, 0.0], [-5e3, 5e3, 1.0]], dtype=np.float32)
    target = np.array([1, 1])
    compare(torch, "cross_entropy", [x, target], {}, rtol=1e-5, atol=1e-3)
    loss = F.cross_entropy(tensorlab.tensor(x), tensorlab.tensor(target))
    assert np.isfinite(loss.item()) and loss.item() > 1e3


def test_cross_entropy_graph_matches_torch():
    x = tensorlab.randn(4, 3, requires_grad=True)
    loss = F.cross_entropy(x, tensorlab.tensor([0, 1, 2, 0]))
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss(torch, reduction, weighted):
    logp = np.log(np.random.default_rng(0).dirichlet(np.ones(5), size=4)).astype(np.float32)
    kwargs = {"reduction": reduction, "ignore_index": 3}
    if weighted:
        kwargs["weight"] = np.linspace(0.5, 2, 5).astype(np.float32)
    names = compare(torch, "nll_loss", [logp, np.array([0, 3, 4, 1])], kwargs)
    assert names[0] == names[1]


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy(torch, reduction):
    p = 1 / (1 + np.exp(-rand(4, 3)))
    t = (np.random.default_rng(1).random((4, 3)) > 0.5).astype(np.float32)
    compare(torch, "binary_cross_entropy", [p, t], dict(reduction=reduction))
    compare(torch, "binary_cross_entropy", [p, t], dict(reduction=reduction,
                                                        weight=np.array([1.0, 2.0, 0.5], np.float32)))
    soft = np.random.default_rng(2).random((4, 3)).astype(np.float32)
    compare(torch, "binary_cross_entropy", [p, soft], dict(reduction=reduction), grad_positions=(0, 1))


def test_binary_cross_entropy_clamps_log_at_minus_100(torch):
    p = np.array([0.0, 1.0, 0.5], dtype=np.float32)
    t = np.array([1.0, 0.0, 1.0], dtype=np.float32)
    ours = F.binary_cross_entropy(tensorlab.tensor(p), tensorlab.tensor(t), reduction="none")
    theirs = torch.nn.functional.binary_cross_entropy(torch.tensor(p), torch.tensor(t), reduction="none")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("options", [{}, {"pos_weight": np.array([1.0, 3.0, 0.25], np.float32)},
                                     {"weight": np.array([[2.0], [1.0], [0.5], [1.0]], np.float32)}])
def test_bce_with_logits(torch, options, reduction):
    t = np.random.default_rng(1).random((4, 3)).astype(np.float32)
    names = compare(torch, "binary_cross_entropy_with_logits", [rand(4, 3, seed=5) * 3, t],
                    dict(reduction=reduction, **options), grad_positions=(0, 1))
    assert names[0] == names[1]


def test_bce_with_logits_is_stable_for_huge_logits(torch):
    x = np.array([1e4, -1e4, 50.0, -50.0], dtype=np.float32)
    t = np.array([0.0, 1.0, 1.0, 0.0], dtype=np.float32)
    compare(torch, "binary_cross_entropy_with_logits", [x, t], {"reduction": "none"}, rtol=1e-6, atol=1e-6)
    values = F.binary_cross_entropy_with_logits(tensorlab.tensor(x), tensorlab.tensor(t), reduction="none")
    np.testing.assert_allclose(values.numpy(), [1e4, 1e4, 0, 0], atol=1e-6)


@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize("reduction", ["batchmean", "sum", "none"])
def test_kl_div(torch, log_target, reduction):
    logp = np.log(np.random.default_rng(0).dirichlet(np.ones(4), size=3)).astype(np.float32)
    q = np.random.default_rng(1).dirichlet(np.ones(4), size=3).astype(np.float32)
    q[0, 0] = 0.0
    target = np.log(q + 1e-12).astype(np.float32) if log_target else q
    compare(torch, "kl_div", [logp, target], dict(reduction=reduction, log_target=log_target), rtol=1e-5,
            atol=1e-5)


def test_broadcasting_regression_target_warns_like_torch(torch):
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[4, 1\]\)\) that is different to the "
                                         r"input size \(torch.Size\(\[4\]\)\)"):
        out = F.mse_loss(tensorlab.randn(4), tensorlab.randn(4, 1))
    assert out.shape == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.mse_loss(tensorlab.randn(4), tensorlab.randn(4))


def test_legacy_size_average_and_reduce(torch):
    x, t = tensorlab.randn(3, 2), tensorlab.randn(3, 2)
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated, please use "
                                         "reduction='sum' instead."):
        summed = F.mse_loss(x, t, size_average=False)
    np.testing.assert_allclose(summed.item(), F.mse_loss(x, t, reduction="sum").item(), rtol=1e-6)
    with pytest.warns(UserWarning):
        assert nn.MSELoss(reduce=False).reduction == "none"


LOSS_ERRORS = [
    "F.cross_entropy(lib.randn(4, 3), lib.tensor([0, 1, 2, 3]))",
    "F.cross_entropy(lib.randn(4, 3), lib.tensor([0, 1, 2, 1], dtype=lib.int32))",
    "F.cross_entropy(lib.randn(4, 3), lib.tensor([0, 1, 2]))",
    "F.nll_loss(lib.randn(4, 3), lib.tensor([0, 1, 2, -5]))",
    "F.cross_entropy(lib.randn(4, 3), lib.tensor([0, 1, 2, 3]).float())",
    "F.cross_entropy(lib.randn(4, 3), lib.rand(4, 2))",
    "F.mse_loss(lib.randn(3), lib.randn(3), reduction='foo')",
    "F.binary_cross_entropy(lib.rand(4), lib.rand(4, 1))",
    "F.binary_cross_entropy(lib.rand(4) + 1, lib.rand(4))",
    "F.binary_cross_entropy_with_logits(lib.rand(4), lib.rand(4, 1))",
    "F.nll_loss(lib.randn(2, 3, 4, 5), lib.zeros(2, 4, 4).long())",
    "F.nll_loss(lib.randn(4, 3), lib.tensor([0, 1, 2, 1]), weight=lib.ones(2))",
    "F.cross_entropy(lib.randn(4, 3), lib.tensor([0, 1, 2, 1]), label_smoothing=1.5)",
]


@pytest.mark.parametrize("expression", LOSS_ERRORS)
def test_loss_errors_match_torch(torch, expression):
    with pytest.raises(Exception) as theirs:
        eval(expression, {"F": torch.nn.functional, "lib": torch})  # noqa: S307
    with pytest.raises(type(theirs.value)) as ours:
        eval(expression, {"F": F, "lib": tensorlab})  # noqa: S307
    assert str(ours.value) == str(theirs.value)


# -- modules -------------------------------------------------------------------------------------------------


def test_loss_modules_match_functional_and_torch(torch):
    x, t = rand(5, 4), np.array([0, 3, 1, 1, 2])
    weight = np.array([1.0, 2.0, 0.5, 1.0], np.float32)
    ours = nn.CrossEntropyLoss(weight=tensorlab.tensor(weight), ignore_index=1, label_smoothing=0.1)
    theirs = torch.nn.CrossEntropyLoss(weight=torch.tensor(weight), ignore_index=1, label_smoothing=0.1)
    np.testing.assert_allclose(ours(tensorlab.tensor(x), tensorlab.tensor(t)).item(),
                               theirs(torch.tensor(x), torch.tensor(t)).item(), rtol=1e-5)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["weight"]
    assert repr(ours) == repr(theirs)
    pos = nn.BCEWithLogitsLoss(pos_weight=tensorlab.ones(4))
    assert list(pos.state_dict()) == list(torch.nn.BCEWithLogitsLoss(pos_weight=torch.ones(4)).state_dict())
    for name, kwargs in [("MSELoss", {}), ("L1Loss", {"reduction": "sum"}), ("SmoothL1Loss", {"beta": 0.3}),
                         ("HuberLoss", {"delta": 2.0}), ("NLLLoss", {}), ("BCELoss", {}), ("KLDivLoss", {}),
                         ("BCEWithLogitsLoss", {})]:
        assert repr(getattr(nn, name)(**kwargs)) == repr(getattr(torch.nn, name)(**kwargs))
    p = 1 / (1 + np.exp(-x))
    y = (p > 0.5).astype(np.float32)
    np.testing.assert_allclose(nn.BCELoss()(tensorlab.tensor(p), tensorlab.tensor(y)).item(),
                               torch.nn.BCELoss()(torch.tensor(p), torch.tensor(y)).item(), rtol=1e-5)
    np.testing.assert_allclose(nn.HuberLoss(delta=0.5)(tensorlab.tensor(x), tensorlab.tensor(p)).item(),
                               torch.nn.HuberLoss(delta=0.5)(torch.tensor(x), torch.tensor(p)).item(), rtol=1e-5)
