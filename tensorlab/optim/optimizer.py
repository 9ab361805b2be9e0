"""Optimizer: the base class of SGD, Adam & co. -- parameter groups, per-parameter state, checkpoints.

An optimizer holds

* ``param_groups``: a list of dicts. Each has ``'params'`` (the tensors it updates) and every
  hyper-parameter (``'lr'``, ``'momentum'``...). Options missing from a group come from
  ``defaults`` -- that is how one optimizer can train a backbone with a small lr and a head with a
  large one.
* ``state``: a dict keyed by the parameter tensor itself, holding what the algorithm remembers
  between steps (a momentum buffer, Adam's running averages, a step counter...).

``step()`` reads each ``p.grad`` and changes ``p`` *in place* under ``no_grad``: the parameter keeps
its identity and storage, so a model that holds it sees the new values. ``zero_grad()`` forgets the
gradients before the next backward (by default it sets them to ``None``).

``state_dict()`` replaces tensors by integer ids (0, 1, 2... in group order), so the state can be
saved and loaded into a fresh optimizer built over the same parameters.
See course/16_training_loop and course/17_optimizers_and_schedules.
"""
from collections import OrderedDict, defaultdict
from copy import deepcopy
import functools
import warnings

import numpy as np

from ..tensor import Tensor
from .._torch_function import _State as _tf_state, _disabled_torch_function_impl
from ..autograd.function import _op_layers
from ..autograd.graph import add_hook, reset_grad
from ..backend import for_device

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """A default that a param group must give itself (e.g. ``lr`` of ``SGD`` in old PyTorch)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


_LEGACY_TENSOR_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char",
                        "int16": "Short", "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


def _typename(obj):
    """``torch.typename``: 'torch.FloatTensor' for a tensor, 'module.Class' for anything else."""
    if isinstance(obj, Tensor):
        return f"torch.{_LEGACY_TENSOR_NAMES.get(obj.dtype.name, '')}Tensor"
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", None) else f"{module}.{name}"


def _hooked_step(step):
    """Wrap a subclass's ``step`` so step pre/post hooks run around it and the call is counted."""
    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        for hook in list(self._optimizer_step_pre_hooks.values()):
            result = hook(self, args, kwargs)
            if result is not None:
                args, kwargs = result
        out = step(self, *args, **kwargs)
        self._opt_called = True     # lets an lr scheduler warn if it is stepped first
        for hook in list(self._optimizer_step_post_hooks.values()):
            hook(self, args, kwargs)
        return out
    wrapper._hooked = True
    return wrapper


class Optimizer:
    """Base class: subclasses pass their hyper-parameters as ``defaults`` and implement ``step``."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_hooked", False):
            cls.step = _hooked_step(step)

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors "
                            f"or dicts, but got {_typename(params)}")
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    # -- groups ------------------------------------------------------------------------------------
    def add_param_group(self, param_group):
        """Add a group of parameters with its own options (missing options come from ``defaults``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        group = dict(param_group)
        group["params"] = self._param_list(group["params"])
        self._split_names(group)
        for param in group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"parameter group didn't specify a value of required optimization "
                                 f"parameter {name}")
            group.setdefault(name, default)
        self._check_no_duplicates(group)
        param_group.clear()             # PyTorch fills in the caller's dict too
        param_group.update(group)
        self.param_groups.append(param_group)

    @staticmethod
    def _param_list(params):
        if isinstance(params, Tensor):
            return [params]
        if isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the "
                            "ordering of tensors in sets will change between runs. Please use a list "
                            "instead.")
        return list(params)

    @staticmethod
    def _split_names(group):
        """``named_parameters()`` gives (name, tensor) pairs: keep names in ``'param_names'``."""
        names = [p[0] for p in group["params"] if isinstance(p, tuple)]
        if not names:
            return
        if len(names) != len(group["params"]):
            raise ValueError("all optimizer params should be with/without names. Some param names are "
                             "missing")
        group["param_names"] = names
        group["params"] = [p[1] for p in group["params"]]

    def _check_no_duplicates(self, group):
        ids = [id(p) for p in group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, "
                          "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
                          "more information", stacklevel=4)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        for other in self.param_groups:
            if ("param_names" in group) != ("param_names" in other):
                kind = "with names" if "param_names" in group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {kind} to the optimizer")
        if seen & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")

    # -- the training-loop API ---------------------------------------------------------------------
    def zero_grad(self, set_to_none=True):
        """Forget the gradients: ``p.grad = None`` (default), or fill them with zeros."""
        for group in self.param_groups:
            for p in group["params"]:
                reset_grad(p, set_to_none)

    def step(self, closure=None):
        """Update every parameter that has a ``.grad`` (returns ``closure()``'s loss if given).

        The loop is the same for every algorithm; the algorithm itself is ``_update(p, group)``,
        which SGD, Adam, ... implement. (A subclass may also override ``step`` entirely.)
        """
        from ..autograd.grad_mode import no_grad
        loss = self._call_closure(closure)
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None and not self._update_arrays(p, group):
                        self._update(p, group)
        return loss

    def _update(self, p, group):
        """One parameter's update: the algorithm (not defined by the base class, as in PyTorch)."""
        raise NotImplementedError

    def _update_arrays(self, p, group):
        """The fast path of ``_update``: the same arithmetic done on the arrays, with no tensor op
        dispatched. Returns False, having done nothing, where it does not apply -- then ``step``
        calls ``_update``. The base class has none; SGD has one (see ``arrays_writable``)."""
        return False

    def _call_closure(self, closure):
        """Re-evaluate the loss (with grad enabled even inside ``step``'s ``no_grad``)."""
        if closure is None:
            return None
        from ..autograd.grad_mode import enable_grad
        with enable_grad():
            return closure()

    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` runs before each ``step``."""
        return add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` runs after each ``step``."""
        return add_hook(self._optimizer_step_post_hooks, hook)

    # -- checkpoints -------------------------------------------------------------------------------
    def state_dict(self):
        """``{'state': {id: {...}}, 'param_groups': [{..., 'params': [ids]}]}``; ids count from 0."""
        ids = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                ids.setdefault(id(p), len(ids))
            packed["params"] = [ids[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {(ids[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restore ``state`` and the groups' options; ids are matched to parameters by position."""
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(self.param_groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size "
                             "of optimizer's group")
        id_to_param = {}
        for group, saved in zip(self.param_groups, saved_groups):
            id_to_param.update(zip(saved["params"], group["params"]))
        state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_to_param:
                param = id_to_param[key]
                state[param] = _cast_like(param, value)
            else:
                state[key] = value
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        """Subclasses extend this to fill in options that older checkpoints lack."""
        self.__dict__.update(state)
        self.__dict__.setdefault("_optimizer_step_pre_hooks", OrderedDict())
        self.__dict__.setdefault("_optimizer_step_post_hooks", OrderedDict())
        self.defaults.setdefault("differentiable", False)

    def __repr__(self):
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            if i:
                lines.append("")   # PyTorch puts a blank line between groups
            lines.append(f"Parameter Group {i}")
            lines.extend(f"    {key}: {group[key]}" for key in sorted(group) if key != "params")
        return "\n".join(lines) + "\n)"


_FAST_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))  # (float16: PyTorch computes it in float32)


def _plain(t):
    """A Tensor, or a subclass that takes no part in ``__torch_function__`` (Parameter, Buffer)."""
    return type(t) is Tensor or type(t).__torch_function__ is _disabled_torch_function_impl


def arrays_writable(p, *others):
    """May an optimizer write the arrays of ``p`` and ``others`` directly, instead of calling in-place
    tensor ops? Only when nobody could tell the difference:

    * nothing watches the ops: no dispatch mode, forward-mode AD or vmap (``_op_layers``), no
      ``TorchFunctionMode``, and every tensor is a plain Tensor or Parameter (a subclass may define
      ``__torch_function__``);
    * nothing about the write needs an in-place op's checks or casts: all have ``p``'s shape, its
      float32 or float64 dtype and its device, none has a stride 0 (an expanded tensor: the in-place
      op raises), and ``p`` is writable.

    What such a write must still do by hand is what the in-place op would: bump the version counter."""
    if _op_layers or (_tf_state.modes and _tf_state.enabled):
        return False
    array = p._array
    if array.dtype not in _FAST_DTYPES or not _plain(p) or 0 in p._stride:
        return False
    for t in others:
        if (not _plain(t) or t._shape != p._shape or t._array.dtype is not array.dtype
                or 0 in t._stride or t._device != p._device):
            return False
    return for_device(p._device).is_writable(array)


def _cast_like(param, value, key=None):
    """Copy a loaded state value onto ``param``'s device (and dtype, for float tensors but 'step')."""
    if isinstance(value, Tensor):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast_like(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_like(param, v) for v in value)
    return value


Optimizer.step = _hooked_step(Optimizer.step)  # hooks run around the shared loop too
