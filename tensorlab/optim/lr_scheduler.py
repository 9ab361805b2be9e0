"""Learning-rate schedules: change ``group['lr']`` of an optimizer as training goes.

A scheduler is a small state machine wrapped around an optimizer. Creating it records each group's
starting lr (``group['initial_lr']``, kept as ``base_lrs``) and takes step 0; after that, each
``scheduler.step()`` -- called *after* ``optimizer.step()``, once per epoch (or per batch for
OneCycleLR) -- increments ``last_epoch`` and writes the new lr into every param group.
``get_last_lr()`` reads what was written.

Most schedules here are *recursive*: the next lr is computed from the current ``group['lr']``
(StepLR multiplies by gamma at each boundary), exactly as PyTorch does, so the learning rates --
including their last floating-point bits -- match PyTorch's. ``state_dict()`` is the scheduler's
``__dict__`` without the optimizer. See course/17_optimizers_and_schedules.
"""
from bisect import bisect_right
from collections import Counter
import math
import types
import warnings

from .optimizer import Optimizer

__all__ = ["LRScheduler", "LambdaLR", "StepLR", "MultiStepLR", "ExponentialLR", "ConstantLR", "LinearLR",
           "CosineAnnealingLR",
           "OneCycleLR", "ReduceLROnPlateau"]

_EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if epoch "
    "is different from None, the closed form is used instead of the new chainable form, where "
    "available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose.")


def _group_values(optimizer, key):
    return [group[key] for group in optimizer.param_groups]


def _check_optimizer(optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


class LRScheduler:
    """Base class: subclasses implement ``get_lr()`` -- the lrs for epoch ``self.last_epoch``."""

    def __init__(self, optimizer, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when "
                                   "resuming scheduler with last_epoch >= 0.")
        self.base_lrs = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        self._step_count = 0
        self._is_initial = True          # step 0: most schedules keep the optimizer's lr
        self.step()
        self._is_initial = False

    def get_lr(self):
        """The next learning rate of every param group (use ``get_last_lr()`` to read the current one)."""
        raise NotImplementedError

    def get_last_lr(self):
        """The learning rates the last ``step()`` wrote into the param groups."""
        return self._last_lr

    def step(self, epoch=None):
        """Advance one epoch and write the new learning rates into the optimizer."""
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
                "and later, you should call them in the opposite order: `optimizer.step()` before "
                "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
                "value of the learning rate schedule. See more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                UserWarning, stacklevel=2)
        self._step_count += 1
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                warnings.warn(_EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = _group_values(self.optimizer, "lr")

    def _warn_if_called_directly(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=3)

    def state_dict(self):
        """Everything the scheduler knows except the optimizer (save the optimizer separately)."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)


_LRScheduler = LRScheduler


class LambdaLR(LRScheduler):
    """lr = initial_lr * lr_lambda(epoch): you give the multiplier as a function of the epoch."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                                 f"{len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_directly()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs)]

    def state_dict(self):
        """Plain functions cannot be saved; callable objects save their ``__dict__``."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        lambdas = state.pop("lr_lambdas")
        self.__dict__.update(state)
        for fn, saved in zip(self.lr_lambdas, lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class StepLR(LRScheduler):
    """Multiply the lr by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_directly()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the lr by ``gamma`` at each epoch listed in ``milestones``."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_directly()
        if self.last_epoch not in self.milestones:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch]
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the lr by ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_directly()
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiply the lr by ``factor`` for the first ``total_iters`` epochs, then restore it."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_directly()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """Warm-up: scale the lr linearly from ``start_factor`` to ``end_factor`` over ``total_iters`` epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal "
                             "to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_directly()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _group_values(self.optimizer, "lr")
        # recursive form: the ratio of this epoch's factor to the previous epoch's
        delta = self.end_factor - self.start_factor
        ratio = 1.0 + delta / (self.total_iters * self.start_factor + (self.last_epoch - 1) * delta)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Follow half a cosine from the initial lr down to ``eta_min`` over ``T_max`` epochs (then back up).

    Closed form: ``eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2``. Like PyTorch,
    ``step()`` uses the recursive form -- the ratio of two consecutive closed forms times the current
    lr -- so it also follows any lr changed by hand; ``step(epoch)`` uses the closed form.
    """

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        self._warn_if_called_directly()
        groups, t, T = self.optimizer.param_groups, self.last_epoch, self.T_max
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        if self._step_count == 1 and t > 0:      # resumed at last_epoch > 0: start on the curve
            return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(t * math.pi / T)) / 2
                    for base_lr in self.base_lrs]
        if (t - 1 - T) % (2 * T) == 0:           # at the bottom the ratio is 0/0: step back up
            return [group["lr"] + (base_lr - self.eta_min) * (1 - math.cos(math.pi / T)) / 2
                    for base_lr, group in zip(self.base_lrs, groups)]
        return [(1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
                * (group["lr"] - self.eta_min) + self.eta_min for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


from ._one_cycle import OneCycleLR  # noqa: E402 - defined in its own file, needs LRScheduler
from ._plateau import ReduceLROnPlateau  # noqa: E402

# PyTorch defines these two in lr_scheduler.py itself: ``type(scheduler)`` names that module here too
OneCycleLR.__module__ = ReduceLROnPlateau.__module__ = __name__
