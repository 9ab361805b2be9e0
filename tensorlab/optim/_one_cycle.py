"""OneCycleLR: warm up to ``max_lr``, then anneal far below the start -- stepped once per *batch*.

The schedule is a list of phases; each phase moves the lr (and, with ``cycle_momentum``, the
momentum -- or Adam's beta1 -- in the opposite direction) from a start value to an end value,
along half a cosine or a straight line::

    two phases (default):  initial_lr -> max_lr -> min_lr
    three_phase=True:      initial_lr -> max_lr -> initial_lr -> min_lr

with ``initial_lr = max_lr / div_factor`` and ``min_lr = initial_lr / final_div_factor``. The start
and end values are stored in each param group ('initial_lr', 'max_lr', 'min_lr', 'max_momentum',
'base_momentum'). See course/17_optimizers_and_schedules.
"""
import math

from .lr_scheduler import LRScheduler, _check_optimizer

__all__ = ["OneCycleLR"]


def _per_group(name, optimizer, value):
    """One value per param group: a list must have the right length, a scalar is repeated."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has "
                             f"{len(value)} values, param_groups has {len(optimizer.param_groups)}.")
        return list(value)
    return [value] * len(optimizer.param_groups)


def _phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
    return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
            "start_momentum": start_momentum, "end_momentum": end_momentum}


class OneCycleLR(LRScheduler):
    """The 1cycle policy (Smith & Topin, 2017, "Super-Convergence")."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3,
                 anneal_strategy="cos", cycle_momentum=True, base_momentum=0.85, max_momentum=0.95,
                 div_factor=25.0, final_div_factor=1e4, three_phase=False, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        self.total_steps = self._count_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = self._phases(pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, group_max in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = group_max / div_factor
                group["max_lr"] = group_max
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self._init_momentum(optimizer, max_momentum, base_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _count_steps(total_steps, epochs, steps_per_epoch):
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            return total_steps
        if epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            return epochs * steps_per_epoch
        raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")

    def _phases(self, pct_start, three_phase):
        warmup_end = float(pct_start * self.total_steps) - 1
        if three_phase:
            return [_phase(warmup_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                    _phase(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr",
                           "base_momentum", "max_momentum"),
                    _phase(self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
        return [_phase(warmup_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]

    def _init_momentum(self, optimizer, max_momentum, base_momentum, last_epoch):
        """Momentum cycles too: SGD's 'momentum', or beta1 of Adam's 'betas'."""
        if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
            raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
        self.use_beta1 = "betas" in optimizer.defaults
        max_momentums = _per_group("max_momentum", optimizer, max_momentum)
        base_momentums = _per_group("base_momentum", optimizer, base_momentum)
        if last_epoch == -1:
            for top, bottom, group in zip(max_momentums, base_momentums, optimizer.param_groups):
                self._set_momentum(group, top)
                group["max_momentum"] = top
                group["base_momentum"] = bottom

    def _set_momentum(self, group, value):
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self):
        self._warn_if_called_directly()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps is "
                             f"{self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            phase, pct = self._locate(step)
            lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
            if self.cycle_momentum:
                self._set_momentum(group, self._anneal(group[phase["start_momentum"]],
                                                       group[phase["end_momentum"]], pct))
        return lrs

    def _locate(self, step):
        """The phase that ``step`` falls in, and how far through it (0..1) the step is."""
        start = 0.0
        for i, phase in enumerate(self._schedule_phases):
            end = phase["end_step"]
            if step <= end or i == len(self._schedule_phases) - 1:
                return phase, (step - start) / (end - start)
            start = end
