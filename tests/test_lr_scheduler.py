"""lr schedulers against PyTorch: the same learning rates (exactly, to the last bit), momenta, state_dicts."""
import copy
import math
import warnings

import numpy as np
import pytest

import tensorlab
from tensorlab import optim
from tensorlab.optim import lr_scheduler


def _optimizers(torch, name="SGD", groups=2, **kwargs):
    """The same optimizer in both libraries, with one param group per lr (0.1, 0.05, ...)."""
    lrs = [0.1 / (i + 1) for i in range(groups)]
    kwargs = {"lr": 0.1, **kwargs}
    tl = getattr(optim, name)([{"params": [tensorlab.zeros(1, requires_grad=True)], "lr": lr} for lr in lrs],
                              **kwargs)
    th = getattr(torch.optim, name)([{"params": [torch.zeros(1, requires_grad=True)], "lr": lr} for lr in lrs],
                                    **kwargs)
    return tl, th


def _momenta(opt):
    return [(g.get("momentum"), g.get("betas")) for g in opt.param_groups]


def _scheduler_state(state):
    """Scheduler state_dicts hold plain values; compare them as plain Python."""
    return {k: (dict(v) if hasattr(v, "elements") else v) for k, v in state.items()}


SCHEDULES = [
    ("StepLR", dict(step_size=3), {}),
    ("StepLR", dict(step_size=2, gamma=0.5), {}),
    ("MultiStepLR", dict(milestones=[2, 5, 5, 9], gamma=0.3), {}),
    ("ExponentialLR", dict(gamma=0.9), {}),
    ("CosineAnnealingLR", dict(T_max=7), {}),
    ("ConstantLR", dict(), {}),
    ("ConstantLR", dict(factor=0.5, total_iters=3), {}),
    ("LinearLR", dict(), {}),
    ("LinearLR", dict(start_factor=0.1, end_factor=0.9, total_iters=7), {}),
    ("CosineAnnealingLR", dict(T_max=5, eta_min=0.001), {}),
    ("OneCycleLR", dict(max_lr=1.0, total_steps=30), dict(momentum=0.9)),
    ("OneCycleLR", dict(max_lr=[1.0, 0.5], epochs=3, steps_per_epoch=10, anneal_strategy="linear"),
     dict(momentum=0.9)),
    ("OneCycleLR", dict(max_lr=0.3, total_steps=30, three_phase=True, pct_start=0.25), dict(momentum=0.9)),
    ("OneCycleLR", dict(max_lr=0.3, total_steps=30, cycle_momentum=False), {}),
]


def _make(torch, name, kwargs, opt_kwargs, opt_name="SGD"):
    tl_opt, th_opt = _optimizers(torch, opt_name, **opt_kwargs)
    return (tl_opt, getattr(lr_scheduler, name)(tl_opt, **kwargs),
            th_opt, getattr(torch.optim.lr_scheduler, name)(th_opt, **kwargs))


def _epochs(name):
    return 29 if name == "OneCycleLR" else 25


@pytest.mark.parametrize("name,kwargs,opt_kwargs", SCHEDULES)
def test_schedule_matches_torch_exactly(torch, name, kwargs, opt_kwargs):
    tl_opt, tl_sched, th_opt, th_sched = _make(torch, name, kwargs, opt_kwargs)
    assert tl_sched.get_last_lr() == th_sched.get_last_lr()
    for _ in range(_epochs(name)):
        tl_opt.step()
        th_opt.step()
        tl_sched.step()
        th_sched.step()
        assert tl_sched.get_last_lr() == th_sched.get_last_lr()
        assert [g["lr"] for g in tl_opt.param_groups] == [g["lr"] for g in th_opt.param_groups]
        assert _momenta(tl_opt) == _momenta(th_opt)
    assert _scheduler_state(tl_sched.state_dict()) == _scheduler_state(th_sched.state_dict())
    assert tl_opt.state_dict()["param_groups"] == th_opt.state_dict()["param_groups"]


def test_one_cycle_cycles_adam_beta1(torch):
    tl_opt, tl_sched, th_opt, th_sched = _make(torch, "OneCycleLR", dict(max_lr=0.01, total_steps=20), {},
                                               opt_name="Adam")
    for _ in range(19):
        tl_opt.step()
        th_opt.step()
        tl_sched.step()
        th_sched.step()
        assert _momenta(tl_opt) == _momenta(th_opt)
        assert tl_sched.get_last_lr() == th_sched.get_last_lr()
    assert tl_opt.param_groups[0]["betas"][1] == 0.999


def test_one_cycle_stepping_past_the_end_raises(torch):
    tl_opt, tl_sched, th_opt, th_sched = _make(torch, "OneCycleLR", dict(max_lr=0.1, total_steps=3), {})
    for _ in range(3):
        tl_opt.step()
        th_opt.step()
        tl_sched.step()
        th_sched.step()
    with pytest.raises(ValueError) as expected:
        th_sched.step()
    with pytest.raises(ValueError, match=str(expected.value)):
        tl_sched.step()


def test_lambda_lr_per_group(torch):
    fns = [lambda e: 0.95 ** e, lambda e: 1.0 / (1 + e)]
    tl_opt, th_opt = _optimizers(torch)
    tl_sched = lr_scheduler.LambdaLR(tl_opt, fns)
    th_sched = torch.optim.lr_scheduler.LambdaLR(th_opt, fns)
    for _ in range(10):
        tl_opt.step()
        th_opt.step()
        tl_sched.step()
        th_sched.step()
        assert tl_sched.get_last_lr() == th_sched.get_last_lr()
    assert tl_sched.state_dict() == th_sched.state_dict()


def test_lambda_lr_saves_callable_objects_state(torch):
    class Warmup:
        def __init__(self, n):
            self.n = n

        def __call__(self, epoch):
            return min(1.0, (epoch + 1) / self.n)

    tl_opt, _ = _optimizers(torch, groups=1)
    sched = lr_scheduler.LambdaLR(tl_opt, Warmup(4))
    state = sched.state_dict()
    assert state["lr_lambdas"] == [{"n": 4}]
    other = lr_scheduler.LambdaLR(optim.SGD([tensorlab.zeros(1, requires_grad=True)], lr=0.1), Warmup(9))
    other.load_state_dict(state)
    assert other.lr_lambdas[0].n == 4


@pytest.mark.parametrize("name,kwargs,opt_kwargs", SCHEDULES[:7])
def test_state_dict_round_trip_mid_schedule(torch, name, kwargs, opt_kwargs):
    tl_opt, tl_sched, th_opt, th_sched = _make(torch, name, kwargs, opt_kwargs)
    for epoch in range(20):
        if epoch == 8:
            saved_opt, saved_sched = copy.deepcopy(tl_opt.state_dict()), copy.deepcopy(tl_sched.state_dict())
            tl_opt, _ = _optimizers(torch, **opt_kwargs)
            tl_sched = getattr(lr_scheduler, name)(tl_opt, **kwargs)
            tl_opt.load_state_dict(saved_opt)
            tl_sched.load_state_dict(saved_sched)
        tl_opt.step()
        th_opt.step()
        tl_sched.step()
        th_sched.step()
        assert tl_sched.get_last_lr() == th_sched.get_last_lr()


@pytest.mark.parametrize("name,kwargs", [("StepLR", dict(step_size=3)), ("MultiStepLR", dict(milestones=[2, 4])),
                                         ("ConstantLR", dict(factor=0.5)), ("LinearLR", dict(total_iters=4)),
                                         ("ExponentialLR", dict(gamma=0.8)), ("CosineAnnealingLR", dict(T_max=6))])
def test_step_with_epoch_uses_closed_form(torch, name, kwargs):
    tl_opt, tl_sched, th_opt, th_sched = _make(torch, name, kwargs, {})
    tl_opt.step()
    th_opt.step()
    for epoch in [3, 5, 1, 8]:
        with pytest.warns(UserWarning, match="epoch parameter"):
            tl_sched.step(epoch)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            th_sched.step(epoch)
        assert tl_sched.get_last_lr() == th_sched.get_last_lr()


def test_cosine_resumed_with_last_epoch(torch):
    tl_opt, th_opt = _optimizers(torch)
    for opt in (tl_opt, th_opt):
        for g in opt.param_groups:
            g["initial_lr"] = g["lr"]
    tl_sched = lr_scheduler.CosineAnnealingLR(tl_opt, T_max=10, last_epoch=4)
    th_sched = torch.optim.lr_scheduler.CosineAnnealingLR(th_opt, T_max=10, last_epoch=4)
    for _ in range(5):
        tl_opt.step()
        th_opt.step()
        tl_sched.step()
        th_sched.step()
        assert tl_sched.get_last_lr() == th_sched.get_last_lr()


def test_resume_without_initial_lr_raises(torch):
    tl_opt, th_opt = _optimizers(torch)
    with pytest.raises(KeyError) as expected:
        torch.optim.lr_scheduler.StepLR(th_opt, 3, last_epoch=2)
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified in param_groups\\[0\\]"):
        lr_scheduler.StepLR(tl_opt, 3, last_epoch=2)
    assert "param 'initial_lr' is not specified" in str(expected.value)


def test_warns_when_scheduler_steps_before_optimizer(torch):
    tl_opt, _ = _optimizers(torch)
    sched = lr_scheduler.StepLR(tl_opt, 3)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        sched.step()
    tl_opt2, _ = _optimizers(torch)
    sched2 = lr_scheduler.StepLR(tl_opt2, 3)
    tl_opt2.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched2.step()


def test_calling_get_lr_directly_warns(torch):
    tl_opt, _ = _optimizers(torch)
    sched = lr_scheduler.ExponentialLR(tl_opt, 0.5)
    with pytest.warns(UserWarning, match="get_last_lr"):
        sched.get_lr()


def test_not_an_optimizer(torch):
    with pytest.raises(TypeError) as expected:
        torch.optim.lr_scheduler.StepLR(object(), 3)
    with pytest.raises(TypeError, match=str(expected.value)):
        lr_scheduler.StepLR(object(), 3)


@pytest.mark.parametrize("kwargs", [
    dict(max_lr=0.1), dict(max_lr=0.1, total_steps=0), dict(max_lr=0.1, total_steps=10, pct_start=1.5),
    dict(max_lr=0.1, total_steps=10, anneal_strategy="exp"), dict(max_lr=[0.1, 0.2, 0.3], total_steps=10),
    dict(max_lr=0.1, epochs=0, steps_per_epoch=3),
])
def test_one_cycle_bad_arguments(torch, kwargs):
    tl_opt, th_opt = _optimizers(torch)
    with pytest.raises(ValueError) as expected:
        torch.optim.lr_scheduler.OneCycleLR(th_opt, **kwargs)
    with pytest.raises(ValueError) as got:
        lr_scheduler.OneCycleLR(tl_opt, **kwargs)
    assert str(got.value) == str(expected.value)


def test_one_cycle_needs_momentum(torch):
    tl = optim.Adagrad([tensorlab.zeros(1, requires_grad=True)])
    th = torch.optim.Adagrad([torch.zeros(1, requires_grad=True)])
    with pytest.raises(ValueError) as expected:
        torch.optim.lr_scheduler.OneCycleLR(th, max_lr=0.1, total_steps=5)
    with pytest.raises(ValueError, match=str(expected.value)):
        lr_scheduler.OneCycleLR(tl, max_lr=0.1, total_steps=5)


PLATEAUS = [
    dict(),
    dict(patience=2),
    dict(mode="max", patience=1, factor=0.5),
    dict(patience=1, threshold=0.05, threshold_mode="abs", cooldown=2),
    dict(mode="max", patience=0, threshold=0.1, threshold_mode="rel", min_lr=0.01),
    dict(patience=0, min_lr=[0.02, 0.001], factor=0.2, eps=1e-3),
]


@pytest.mark.parametrize("kwargs", PLATEAUS)
def test_reduce_lr_on_plateau_matches_torch(torch, kwargs):
    rng = np.random.default_rng(7)
    metrics = np.concatenate([np.linspace(1.0, 0.5, 5), 0.5 + 0.02 * rng.standard_normal(40)])
    tl_opt, th_opt = _optimizers(torch)
    tl_sched = lr_scheduler.ReduceLROnPlateau(tl_opt, **kwargs)
    th_sched = torch.optim.lr_scheduler.ReduceLROnPlateau(th_opt, **kwargs)
    for m in metrics:
        tl_sched.step(float(m))
        th_sched.step(float(m))
        assert tl_sched.get_last_lr() == th_sched.get_last_lr()
    assert tl_sched.state_dict() == th_sched.state_dict()
    restored = lr_scheduler.ReduceLROnPlateau(tl_opt)
    restored.load_state_dict(tl_sched.state_dict())
    assert restored.state_dict() == tl_sched.state_dict()


def test_reduce_lr_on_plateau_accepts_a_tensor_metric():
    opt = optim.SGD([tensorlab.zeros(1, requires_grad=True)], lr=1.0)
    sched = lr_scheduler.ReduceLROnPlateau(opt, patience=0)
    sched.step(tensorlab.tensor(1.0))
    sched.step(tensorlab.tensor(2.0))
    assert sched.get_last_lr() == [0.1]


@pytest.mark.parametrize("kwargs", [dict(factor=1.0), dict(mode="middle"), dict(threshold_mode="pct"),
                                    dict(min_lr=[0.1])])
def test_reduce_lr_on_plateau_bad_arguments(torch, kwargs):
    tl_opt, th_opt = _optimizers(torch)
    with pytest.raises(ValueError) as expected:
        torch.optim.lr_scheduler.ReduceLROnPlateau(th_opt, **kwargs)
    with pytest.raises(ValueError) as got:
        lr_scheduler.ReduceLROnPlateau(tl_opt, **kwargs)
    assert str(got.value) == str(expected.value)


def test_cosine_reaches_eta_min_at_t_max(torch):
    tl_opt, _ = _optimizers(torch, groups=1)
    sched = lr_scheduler.CosineAnnealingLR(tl_opt, T_max=4, eta_min=0.01)
    for _ in range(4):
        tl_opt.step()
        sched.step()
    assert math.isclose(sched.get_last_lr()[0], 0.01, rel_tol=1e-12)


@pytest.mark.parametrize("name,kwargs", [("ConstantLR", dict(factor=1.5)), ("LinearLR", dict(start_factor=0.0)),
                                         ("LinearLR", dict(end_factor=2.0))])
def test_warmup_bad_factors(torch, name, kwargs):
    tl_opt, th_opt = _optimizers(torch)
    with pytest.raises(ValueError) as expected:
        getattr(torch.optim.lr_scheduler, name)(th_opt, **kwargs)
    with pytest.raises(ValueError) as got:
        getattr(lr_scheduler, name)(tl_opt, **kwargs)
    assert str(got.value) == str(expected.value)
