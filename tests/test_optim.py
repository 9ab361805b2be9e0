"""tensorlab.optim against PyTorch: the same start values and the same gradient arrays (built with NumPy)
must give the same parameter trajectories, state and state_dicts; bad options raise PyTorch's errors."""
import copy
import warnings

import numpy as np
import pytest

import tensorlab
from tensorlab import optim

SHAPES = ((3, 4), (5,), ())


def _arrays(rng, steps, dtype=np.float32):
    inits = [rng.standard_normal(s).astype(dtype) for s in SHAPES]
    grads = [[rng.standard_normal(s).astype(dtype) for s in SHAPES] for _ in range(steps)]
    return inits, grads


def _tl_params(inits):
    return [tensorlab.tensor(a.copy(), requires_grad=True) for a in inits]


def _th_params(torch, inits):
    return [torch.tensor(a.copy(), requires_grad=True) for a in inits]


def _set_grads(params, arrays, make):
    for p, g in zip(params, arrays):
        p.grad = make(g.copy())


def _check_close(tl_params, th_params, rtol=1e-5, atol=1e-6):
    for a, b in zip(tl_params, th_params):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=rtol, atol=atol)


def _run(torch, name, kwargs, steps=6, dtype=np.float32, seed=0):
    """Step both libraries' optimizers on identical gradients; compare after every step."""
    inits, grads = _arrays(np.random.default_rng(seed), steps, dtype)
    tl_params, th_params = _tl_params(inits), _th_params(torch, inits)
    tl_opt = getattr(optim, name)(tl_params, **kwargs)
    th_opt = getattr(torch.optim, name)(th_params, **kwargs)
    identity = [(id(p), p.untyped_storage(), p.data_ptr()) for p in tl_params]
    for step_grads in grads:
        _set_grads(tl_params, step_grads, tensorlab.tensor)
        _set_grads(th_params, step_grads, torch.tensor)
        tl_opt.step()
        th_opt.step()
        _check_close(tl_params, th_params)
    assert identity == [(id(p), p.untyped_storage(), p.data_ptr()) for p in tl_params]
    assert all(p.is_leaf and p.requires_grad for p in tl_params)
    return tl_opt, th_opt, tl_params, th_params


def _compare_state_dicts(tl_sd, th_sd):
    assert tl_sd["param_groups"] == th_sd["param_groups"]
    assert sorted(tl_sd["state"]) == sorted(th_sd["state"])
    for key, tl_state in tl_sd["state"].items():
        th_state = th_sd["state"][key]
        assert sorted(tl_state) == sorted(th_state)
        for name, value in tl_state.items():
            expected = th_state[name]
            if hasattr(expected, "numpy"):
                assert value.dtype.name == str(expected.dtype).replace("torch.", "")
                assert tuple(value.shape) == tuple(expected.shape)
                np.testing.assert_allclose(value.numpy(), expected.numpy(), rtol=1e-5, atol=1e-6)
            else:
                assert value == expected


SGD_OPTIONS = [
    dict(lr=0.1),
    dict(lr=0.05, momentum=0.9),
    dict(lr=0.05, momentum=0.9, dampening=0.3),
    dict(lr=0.05, momentum=0.9, nesterov=True),
    dict(lr=0.05, weight_decay=0.1),
    dict(lr=0.05, momentum=0.8, weight_decay=0.01, nesterov=True, maximize=True),
    dict(lr=0.05, maximize=True),
    dict(),
]


@pytest.mark.parametrize("kwargs", SGD_OPTIONS)
def test_sgd_matches_torch(torch, kwargs):
    tl_opt, th_opt, _, _ = _run(torch, "SGD", kwargs)
    _compare_state_dicts(tl_opt.state_dict(), th_opt.state_dict())


OTHER_OPTIONS = [
    ("Adam", dict()),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("Adam", dict(lr=0.01, weight_decay=0.1)),
    ("Adam", dict(lr=0.01, weight_decay=0.1, amsgrad=True, maximize=True)),
    ("Adam", dict(lr=0.01, decoupled_weight_decay=True, weight_decay=0.1)),
    ("AdamW", dict()),
    ("AdamW", dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    ("AdamW", dict(lr=0.01, maximize=True)),
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.01, alpha=0.9, eps=1e-6)),
    ("RMSprop", dict(lr=0.01, centered=True)),
    ("RMSprop", dict(lr=0.01, momentum=0.9)),
    ("RMSprop", dict(lr=0.01, momentum=0.5, centered=True, weight_decay=0.1, maximize=True)),
    ("Adagrad", dict()),
    ("Adagrad", dict(lr=0.1, lr_decay=0.05)),
    ("Adagrad", dict(lr=0.1, initial_accumulator_value=0.5, eps=1e-6)),
    ("Adagrad", dict(lr=0.1, weight_decay=0.1, lr_decay=0.01, maximize=True)),
]


@pytest.mark.parametrize("name,kwargs", OTHER_OPTIONS)
def test_optimizer_matches_torch(torch, name, kwargs):
    tl_opt, th_opt, _, _ = _run(torch, name, kwargs)
    _compare_state_dicts(tl_opt.state_dict(), th_opt.state_dict())
    assert repr(tl_opt) == repr(th_opt)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_float64_params(torch, name):
    tl_opt, th_opt, _, _ = _run(torch, name, dict(lr=0.01), dtype=np.float64)
    _compare_state_dicts(tl_opt.state_dict(), th_opt.state_dict())


def test_sgd_float64(torch):
    _run(torch, "SGD", dict(lr=0.1, momentum=0.5), dtype=np.float64)


def test_step_skips_params_without_grad(torch):
    inits, grads = _arrays(np.random.default_rng(1), 2)
    tl_params, th_params = _tl_params(inits), _th_params(torch, inits)
    tl_opt = optim.SGD(tl_params, lr=0.1, momentum=0.9)
    th_opt = torch.optim.SGD(th_params, lr=0.1, momentum=0.9)
    for step_grads in grads:
        _set_grads(tl_params[:1], step_grads, tensorlab.tensor)
        _set_grads(th_params[:1], step_grads, torch.tensor)
        tl_opt.step()
        th_opt.step()
    _check_close(tl_params, th_params)
    np.testing.assert_array_equal(tl_params[1].detach().numpy(), inits[1])
    assert len(tl_opt.state) == len(th_opt.state) == 1


def test_param_groups_use_their_own_options_and_defaults(torch):
    inits, grads = _arrays(np.random.default_rng(2), 3)
    tl_params, th_params = _tl_params(inits), _th_params(torch, inits)
    tl_opt = optim.SGD([{"params": tl_params[:1]}, {"params": tl_params[1:], "lr": 0.5}], lr=0.1, momentum=0.9)
    th_opt = torch.optim.SGD([{"params": th_params[:1]}, {"params": th_params[1:], "lr": 0.5}], lr=0.1,
                             momentum=0.9)
    for step_grads in grads:
        _set_grads(tl_params, step_grads, tensorlab.tensor)
        _set_grads(th_params, step_grads, torch.tensor)
        tl_opt.step()
        th_opt.step()
    _check_close(tl_params, th_params)
    assert [g["lr"] for g in tl_opt.param_groups] == [0.1, 0.5]
    _compare_state_dicts(tl_opt.state_dict(), th_opt.state_dict())


def test_add_param_group(torch):
    a, b = (tensorlab.zeros(2, requires_grad=True) for _ in range(2))
    opt = optim.SGD([a], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": b, "lr": 0.01})
    assert opt.param_groups[1]["params"] == [b]
    assert opt.param_groups[1]["momentum"] == 0.9 and opt.param_groups[1]["lr"] == 0.01
    ta = torch.zeros(2, requires_grad=True)
    th = torch.optim.SGD([ta], lr=0.1)
    with pytest.raises(ValueError) as expected:
        th.add_param_group({"params": [ta]})
    with pytest.raises(ValueError, match=str(expected.value)):
        opt.add_param_group({"params": [a]})
    assert len(opt.param_groups) == 2
    with pytest.raises(TypeError, match="param_group must be a dict"):
        opt.add_param_group([a])
    with pytest.raises(TypeError, match="ordered collections"):
        opt.add_param_group({"params": {tensorlab.zeros(1, requires_grad=True)}})


def test_duplicate_within_group_warns():
    a = tensorlab.zeros(2, requires_grad=True)
    with pytest.warns(UserWarning, match="duplicate parameters"):
        optim.SGD([a, a], lr=0.1)


def test_named_parameters_give_param_names(torch):
    a, b = tensorlab.zeros(2, requires_grad=True), tensorlab.zeros(3, requires_grad=True)
    opt = optim.SGD([("w", a), ("b", b)], lr=0.1)
    th = torch.optim.SGD([("w", torch.zeros(2, requires_grad=True)), ("b", torch.zeros(3, requires_grad=True))],
                         lr=0.1)
    assert opt.state_dict()["param_groups"] == th.state_dict()["param_groups"]


def _error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - we want whatever PyTorch raises
        return e
    raise AssertionError("expected an error")


@pytest.mark.parametrize("name,kwargs", [
    ("SGD", dict(lr=-0.1)),
    ("SGD", dict(lr=0.1, momentum=-1)),
    ("SGD", dict(lr=0.1, weight_decay=-1)),
    ("SGD", dict(lr=0.1, nesterov=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)),
    ("Adam", dict(lr=-1.0)),
    ("Adam", dict(eps=-1.0)),
    ("Adam", dict(betas=(1.0, 0.999))),
    ("Adam", dict(betas=(0.9, -0.1))),
    ("Adam", dict(weight_decay=-0.5)),
    ("Adam", dict(betas=(0, 0.999))),
    ("AdamW", dict(lr=-0.1)),
    ("RMSprop", dict(alpha=-0.1)),
    ("RMSprop", dict(momentum=-0.1)),
    ("Adagrad", dict(lr_decay=-0.1)),
    ("Adagrad", dict(initial_accumulator_value=-0.1)),
    ("Adagrad", dict(eps=-1e-3)),
])
def test_invalid_options_raise_like_torch(torch, name, kwargs):
    expected = _error_of(lambda: getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], **kwargs))
    with pytest.raises(type(expected)) as got:
        getattr(optim, name)([tensorlab.zeros(1, requires_grad=True)], **kwargs)
    assert str(got.value) == str(expected)


def test_bad_params_raise_like_torch(torch):
    for tl_arg, th_arg in [([], []), (tensorlab.zeros(2), torch.zeros(2)), ([1.0], [1.0])]:
        expected = _error_of(lambda: torch.optim.SGD(th_arg, lr=0.1))
        with pytest.raises(type(expected)) as got:
            optim.SGD(tl_arg, lr=0.1)
        assert str(got.value) == str(expected)
    leaf = torch.zeros(2, requires_grad=True)
    expected = _error_of(lambda: torch.optim.SGD([leaf * 2], lr=0.1))
    tl_leaf = tensorlab.zeros(2, requires_grad=True)
    with pytest.raises(type(expected), match=str(expected)):
        optim.SGD([tl_leaf * 2], lr=0.1)


def test_zero_grad():
    a = tensorlab.zeros(3, requires_grad=True)
    opt = optim.SGD([a], lr=0.1)
    a.grad = tensorlab.ones(3)
    grad = a.grad
    opt.zero_grad(set_to_none=False)
    assert a.grad is grad and a.grad.tolist() == [0.0, 0.0, 0.0]
    opt.zero_grad()
    assert a.grad is None


def test_step_closure_runs_with_grad_and_returns_loss():
    a = tensorlab.tensor([1.0, 2.0], requires_grad=True)
    opt = optim.SGD([a], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (a * a).sum()
        loss.backward()
        return loss

    with tensorlab.no_grad():
        loss = opt.step(closure)
    assert loss.item() == pytest.approx(5.0)
    np.testing.assert_allclose(a.detach().numpy(), [0.8, 1.6], rtol=1e-6)


def test_step_hooks_run_around_step():
    a = tensorlab.zeros(1, requires_grad=True)
    opt = optim.SGD([a], lr=0.1)
    calls = []
    pre = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
    opt.step()
    pre.remove()
    opt.step()
    assert calls == ["pre", "post", "post"]


def test_repr_matches_torch(torch):
    tl = optim.SGD([tensorlab.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    th = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    assert repr(tl) == repr(th)


@pytest.mark.parametrize("name,kwargs", [
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("AdamW", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01)),
])
def test_state_dict_round_trip_mid_training(torch, name, kwargs):
    """Save after 3 steps, load into a fresh optimizer over fresh params, continue: same as uninterrupted."""
    inits, grads = _arrays(np.random.default_rng(3), 6)
    tl_params, th_params = _tl_params(inits), _th_params(torch, inits)
    tl_opt = getattr(optim, name)(tl_params, **kwargs)
    th_opt = getattr(torch.optim, name)(th_params, **kwargs)
    for i, step_grads in enumerate(grads):
        if i == 3:
            saved = copy.deepcopy(tl_opt.state_dict())
            resumed = [tensorlab.tensor(p.detach().numpy().copy(), requires_grad=True) for p in tl_params]
            tl_opt = getattr(optim, name)(resumed, lr=123.0)
            tl_opt.load_state_dict(saved)
            assert tl_opt.param_groups[0]["lr"] == kwargs.get("lr", 1e-3)
            assert tl_opt.param_groups[0]["params"] == resumed
            tl_params = resumed
        _set_grads(tl_params, step_grads, tensorlab.tensor)
        _set_grads(th_params, step_grads, torch.tensor)
        tl_opt.step()
        th_opt.step()
    _check_close(tl_params, th_params)
    _compare_state_dicts(tl_opt.state_dict(), th_opt.state_dict())


def test_load_state_dict_errors_change_nothing(torch):
    a, b = tensorlab.zeros(2, requires_grad=True), tensorlab.zeros(2, requires_grad=True)
    opt = optim.SGD([a, b], lr=0.1, momentum=0.9)
    small = optim.SGD([a], lr=0.5).state_dict()
    two_groups = optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.5).state_dict()
    ta = torch.zeros(2, requires_grad=True)
    th = torch.optim.SGD([ta, torch.zeros(2, requires_grad=True)], lr=0.1)
    for sd, th_sd in [(small, torch.optim.SGD([ta], lr=0.5).state_dict()),
                      (two_groups, torch.optim.SGD([{"params": [ta]}, {"params": [torch.zeros(2, requires_grad=True)]}],
                                                   lr=0.5).state_dict())]:
        expected = _error_of(lambda: th.load_state_dict(th_sd))
        with pytest.raises(type(expected), match=str(expected)):
            opt.load_state_dict(sd)
        assert opt.param_groups[0]["lr"] == 0.1


def test_no_warning_in_normal_use():
    a = tensorlab.zeros(2, requires_grad=True)
    opt = optim.SGD([a], lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a.grad = tensorlab.ones(2)
        opt.step()
        opt.zero_grad()


def test_adagrad_state_exists_before_first_step(torch):
    tl = optim.Adagrad([tensorlab.zeros(2, requires_grad=True)], initial_accumulator_value=0.3)
    th = torch.optim.Adagrad([torch.zeros(2, requires_grad=True)], initial_accumulator_value=0.3)
    _compare_state_dicts(tl.state_dict(), th.state_dict())


def test_closure_works_for_every_optimizer():
    for name in ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]:
        a = tensorlab.tensor([1.0, -2.0], requires_grad=True)
        opt = getattr(optim, name)([a], lr=0.1)

        def closure():
            opt.zero_grad()
            loss = (a * a).sum()
            loss.backward()
            return loss

        first = opt.step(closure).item()
        for _ in range(20):
            last = opt.step(closure).item()
        assert last < first, name


def test_a_user_written_optimizer_gets_hooks_and_scheduling(torch):
    """The tutorial pattern: subclass Optimizer, pass defaults, write step under no_grad."""
    class PlainSGD(optim.Optimizer):
        def __init__(self, params, lr):
            super().__init__(params, {"lr": lr})

        @tensorlab.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        p.add_(p.grad, alpha=-group["lr"])

    a = tensorlab.tensor([1.0, 2.0], requires_grad=True)
    opt = PlainSGD([a], lr=0.5)
    calls = []
    opt.register_step_post_hook(lambda o, args, kwargs: calls.append(o))
    sched = optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    a.grad = tensorlab.tensor([1.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()
    assert a.tolist() == [0.5, 1.5] and calls == [opt] and opt.param_groups[0]["lr"] == 0.25
    assert a.is_leaf and a.requires_grad


def test_state_is_keyed_by_the_parameter_itself():
    a, b = tensorlab.zeros(2, requires_grad=True), tensorlab.zeros(3, requires_grad=True)
    opt = optim.Adam([a, b], lr=0.1)
    a.grad, b.grad = tensorlab.ones(2), tensorlab.ones(3)
    opt.step()
    assert set(map(id, opt.state)) == {id(a), id(b)}
    assert opt.state_dict()["state"][1]["exp_avg"] is opt.state[b]["exp_avg"]


def test_an_optimizer_with_two_groups_prints_like_pytorch(torch):
    texts = []
    for m in (tensorlab, torch):
        a, b = m.nn.Parameter(m.ones(2)), m.nn.Parameter(m.ones(2))
        texts.append(repr(m.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.1}], lr=0.01)))
    assert texts[0] == texts[1]
