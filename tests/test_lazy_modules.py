"""Lazy modules (nn/modules/lazy.py, UninitializedParameter in nn/parameter.py), compared with PyTorch:
printed forms before and after the first call, the class swap, parameter shapes, an optimizer built
before the first call, load_state_dict into a lazy module, hooks, and the errors for using a parameter
that has no shape yet. Initial values are random in both libraries, so values are compared only after
copying one model's state into the other."""
import copy

import numpy as np
import pytest

import tensorlab

LAYERS = [  # (constructor, input shape)
    ("LazyLinear(8)", (2, 4)), ("LazyLinear(3, bias=False)", (5, 2, 7)),
    ("LazyConv1d(4, 3)", (2, 3, 10)), ("LazyConv1d(4, 3)", (3, 10)), ("LazyConv2d(6, 5, padding=2)", (2, 1, 8, 8)),
    ("LazyConv2d(4, 3, stride=2, groups=2, bias=False)", (1, 2, 9, 9)), ("LazyConv3d(2, 2)", (1, 3, 4, 4, 4)),
    ("LazyConvTranspose1d(3, 2)", (2, 4, 5)), ("LazyConvTranspose2d(3, 2, stride=2)", (1, 4, 5, 5)),
    ("LazyConvTranspose3d(2, 2)", (1, 2, 3, 3, 3)), ("LazyBatchNorm1d()", (3, 4)), ("LazyBatchNorm1d()", (3, 4, 6)),
    ("LazyBatchNorm2d()", (2, 3, 4, 4)), ("LazyBatchNorm2d(affine=False)", (2, 3, 4, 4)),
    ("LazyBatchNorm2d(track_running_stats=False)", (2, 3, 4, 4)), ("LazyBatchNorm3d(momentum=None)", (2, 2, 2, 2, 2)),
]


def _life(lib, constructor, shape):
    """What a learner sees of a lazy layer: before, the first call, after."""
    m = eval("lib.nn." + constructor, {"lib": lib})
    seen = [repr(m), type(m).__name__, [(n, repr(p)) for n, p in m.named_parameters()],
            [(n, repr(b) if b.__class__.__name__.startswith("Uninit") else tuple(b.shape))
             for n, b in m.named_buffers()], m.has_uninitialized_params(),
            isinstance(m, lib.nn.modules.lazy.LazyModuleMixin)]
    y = m(lib.ones(shape))
    seen += [repr(m), type(m).__name__, tuple(y.shape), [(n, tuple(p.shape), type(p).__name__, p.requires_grad)
                                                        for n, p in m.named_parameters()],
             [(n, tuple(b.shape), str(b.dtype)) for n, b in m.named_buffers()], len(m._forward_pre_hooks),
             isinstance(m, lib.nn.modules.lazy.LazyModuleMixin)]
    return seen


@pytest.mark.parametrize("constructor, shape", LAYERS)
def test_a_lazy_layers_life_matches_pytorch(torch, constructor, shape):
    import torch.nn.modules.lazy  # noqa: F401
    assert _life(tensorlab, constructor, shape) == _life(torch, constructor, shape)


def _d2l_step(lib):
    """d2l builds its optimizer before the first forward; the first batch shapes the weights."""
    net = lib.nn.Sequential(lib.nn.LazyLinear(4), lib.nn.ReLU(), lib.nn.LazyLinear(1))
    trainer = lib.optim.SGD(net.parameters(), lr=0.1)
    params_before = list(net.parameters())
    x, y = lib.tensor(np.linspace(-1, 1, 12).reshape(6, 2), dtype=lib.float32), lib.ones(6, 1)
    net(x)  # shapes the weights; now give both libraries the same values
    with lib.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(lib.tensor(np.linspace(-0.5, 0.5, p.numel()).reshape(tuple(p.shape)) * (i + 1), dtype=lib.float32))
    loss = lib.nn.functional.mse_loss(net(x), y)
    trainer.zero_grad()
    loss.backward()
    trainer.step()
    same_objects = all(a is b for a, b in zip(params_before, net.parameters()))
    return same_objects, repr(net), [p.detach().numpy().round(5).tolist() for p in net.parameters()]


def test_optimizer_built_before_the_first_call_trains_the_materialized_weights(torch):
    ours, theirs = _d2l_step(tensorlab), _d2l_step(torch)
    assert ours[0] and theirs[0] and ours[1] == theirs[1]
    np.testing.assert_allclose(np.concatenate([np.ravel(p) for p in ours[2]]),
                               np.concatenate([np.ravel(p) for p in theirs[2]]), rtol=1e-5)


def _load_into_lazy(lib):
    full = lib.nn.Sequential(lib.nn.LazyLinear(3), lib.nn.ReLU(), lib.nn.LazyLinear(1), lib.nn.LazyBatchNorm1d())
    full(lib.ones(2, 5))
    lazy = lib.nn.Sequential(lib.nn.LazyLinear(3), lib.nn.ReLU(), lib.nn.LazyLinear(1), lib.nn.LazyBatchNorm1d())
    state_before = [(k, repr(v)) for k, v in lazy.state_dict().items()]
    result = repr(lazy.load_state_dict(full.state_dict()))
    loaded = [(k, tuple(v.shape), bool((v == full.state_dict()[k]).all())) for k, v in lazy.state_dict().items()]
    between = repr(lazy)
    lazy(lib.ones(2, 5))
    return state_before, result, loaded, between, repr(lazy)


def test_load_state_dict_fills_a_lazy_module_as_pytorch(torch):
    assert _load_into_lazy(tensorlab) == _load_into_lazy(torch)


def test_loading_an_uninitialized_entry_into_an_eager_layer_is_pytorchs_error(torch):
    for lib in (tensorlab, torch):
        lazy_state = lib.nn.LazyLinear(3).state_dict()
        eager = lib.nn.Linear(5, 3)
        before = eager.weight.detach().clone()
        with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized parameter or buffer"):
            eager.load_state_dict(lazy_state)
        assert (eager.weight == before).all()


@pytest.mark.parametrize("use", ["p.numel()", "p + 1", "p.sum()", "p.dim()", "p.detach()", "lib.nn.init.zeros_(p)",
                                 "lib.nn.functional.linear(lib.ones(2, 2), p)", "p.shape", "p.share_memory_()",
                                 "p.size()", "p.dtype", "p.device", "p.requires_grad", "p.is_leaf",
                                 "p.to(lib.float64).dtype", "p.double().dtype", "repr(p)", "p.grad"])
def test_using_an_uninitialized_parameter_as_pytorch(torch, use):
    """Only a few things work before the first call: the rest is PyTorch's ValueError (or, for ``shape``,
    its RuntimeError), whose message says what to do."""
    import torch.nn.parameter  # noqa: F401
    outcomes = []
    for lib in (tensorlab, torch):
        p = lib.nn.UninitializedParameter()
        try:
            outcomes.append(repr(eval(use, {"lib": lib, "p": p})).replace("tensorlab", "torch"))
        except (ValueError, RuntimeError) as e:
            phrase = ("Attempted to use an uninitialized parameter in" if "Attempted" in str(e) else str(e)[:60])
            outcomes.append((type(e).__name__, phrase))
    assert outcomes[0] == outcomes[1]


def _hooks_see(lib):
    m = lib.nn.LazyLinear(2)
    seen = []
    m.register_forward_pre_hook(lambda mod, args: seen.append(("pre", type(mod).__name__, tuple(mod.weight.shape))))
    m.register_forward_hook(lambda mod, args, out: seen.append(("post", type(mod).__name__, tuple(out.shape))))
    m(lib.ones(3, 4))
    m(lib.ones(1, 4))
    return seen


def test_hooks_run_after_the_initialization_as_pytorch(torch):
    assert _hooks_see(tensorlab) == _hooks_see(torch)


def test_initialize_parameters_by_hand_and_dtype_chosen_before(torch):
    for lib in (tensorlab, torch):
        m = lib.nn.LazyLinear(3).double()
        assert m.weight.dtype is lib.float64 and m.has_uninitialized_params()
        m.initialize_parameters(lib.ones(2, 4, dtype=lib.float64))
        assert not m.has_uninitialized_params() and type(m).__name__ == "LazyLinear"  # swapped on the next call
        assert tuple(m.weight.shape) == (3, 4) and m.weight.dtype is lib.float64
        m(lib.ones(2, 4, dtype=lib.float64))
        assert type(m) is lib.nn.Linear


def test_lazy_modules_deepcopy_and_wrong_inputs(torch):
    for lib in (tensorlab, torch):
        m = lib.nn.Sequential(lib.nn.LazyLinear(3))
        twin = copy.deepcopy(m)
        assert repr(twin) == repr(m) and twin[0].weight is not m[0].weight
        assert twin[0].weight.__class__.__name__ == "UninitializedParameter"
        with pytest.raises(RuntimeError, match="Expected 3D \\(unbatched\\) or 4D \\(batched\\) input to LazyConv2d"):
            lib.nn.LazyConv2d(2, 3)(lib.ones(1, 1, 1, 4, 4))
        with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
            lib.nn.LazyConv2d(4, 3, groups=2)(lib.ones(1, 3, 5, 5))
    assert tensorlab.nn.parameter.is_lazy(tensorlab.nn.UninitializedBuffer())
    assert not tensorlab.nn.parameter.is_lazy(tensorlab.nn.Parameter(tensorlab.ones(1)))
