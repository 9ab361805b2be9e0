"""Forward-mode automatic differentiation: push a tangent forward alongside each value.

Reverse mode (the rest of ``autograd``) answers "how does one output depend on every input?" with one
backward pass. Forward mode answers the transposed question -- "how does every output move when the
input moves along ``t``?" -- in the forward pass itself: each op computes its result *and* the
Jacobian-vector product ``J t`` of its inputs' tangents. A tensor carrying a tangent is a *dual tensor*.

    >>> import tensorlab as torch
    >>> import tensorlab.autograd.forward_ad as fwAD
    >>> x = torch.tensor([1.0, 2.0])
    >>> with fwAD.dual_level():
    ...     y = (fwAD.make_dual(x, torch.ones(2)) ** 2).sum()
    ...     fwAD.unpack_dual(y).tangent           # d/ds sum((x + s)^2) at s = 0
    tensor(6.)
    >>> with fwAD.dual_level():
    ...     fwAD.make_dual(x, torch.tensor([1.0, 0.0]))   # a dual tensor prints its tangent
    tensor([1., 2.], tangent=tensor([1., 0.]))

One pass gives ``J t``, a column of the Jacobian when ``t`` is a basis vector; reverse mode gives a row
``u^T J`` per backward pass. So forward mode wins for few inputs and many outputs.

How it works: entering a dual level pushes one ``OpLayer`` (see function.py); it sees every op. An
op none of whose inputs has a tangent goes straight through. Otherwise the result is computed as
usual and its tangent by the op's forward rule (``_forward_rules.py``) or, for an op without one, by
the double-backward trick through the op's own backward (``_forward_fallback.py``). Outside a dual
level there is no layer, so ops pay nothing. Tangents live on the tensor, per level; leaving the
level forgets them. See course/23_forward_mode_ad.
"""
import functools
import weakref
from typing import NamedTuple, Optional

from ..tensor import Tensor
from . import function as _function

_levels = []   # the active levels (PyTorch supports one at a time)


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: the ``primal`` value (a view without the tangent) and its
    ``tangent`` (None when it has none)."""

    primal: Tensor
    tangent: Optional[Tensor]


class _Level:
    """One dual level: its index, the OpLayer that propagates tangents, and the tensors that carry a
    tangent at this level (weakly held, so exiting can forget every tangent)."""

    def __init__(self, idx):
        self.idx = idx
        self.duals = {}
        from ._forward_fallback import ForwardADLayer
        self.layer = ForwardADLayer(self)


def _current_level():
    return _levels[-1].idx if _levels else -1


def enter_dual_level():
    """Enter a new level for dual tensors and return its index (0). Levels do not nest."""
    if _levels:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    return _enter_level()


def _enter_level():
    """A new level, inside the current one if any: ``func.jvp`` nests them (``jacfwd(jacfwd(f))``).
    The inner level's layer handles an op first; the ops of its rules reach the outer layer, which so
    finds the outer tangents of the inner tangents."""
    level = _Level(len(_levels))
    _levels.append(level)
    _function.push_op_layer(level.layer)
    return level.idx


def exit_dual_level(*, level=None):
    """Leave the current level: every tangent made at it is forgotten."""
    if level is None:
        level = _current_level()
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _current_level():
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    lvl = _levels.pop()
    _function.pop_op_layer(lvl.layer)
    for ref in list(lvl.duals.values()):
        t = ref()
        if t is not None:
            t.__dict__.get("_fw_grads", {}).pop(lvl.idx, None)
    lvl.duals.clear()


class dual_level:
    """``with dual_level():`` -- dual tensors made inside the block carry tangents; they are dropped
    when it ends. Also a decorator."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)
        return wrapper


def _level_object(level, what):
    for lvl in _levels:
        if lvl.idx == level:
            return lvl
    raise RuntimeError(f"Invalid level given to {what}")


# -- where tangents live ----------------------------------------------------------------------------
def get_tangent(t, level):
    """The tangent of ``t`` at ``level``, or None. A view made without one (before its base became
    dual) reads the matching window of its base's tangent, as PyTorch's views do."""
    d = t.__dict__
    grads = d.get("_fw_grads")
    if grads:
        tangent = grads.get(level)
        if tangent is not None:
            return tangent
    base = t._base
    if base is None or d.get("_fw_no_tangent"):
        return None
    base_tangent = get_tangent(base, level)
    if base_tangent is None:
        return None
    if not _same_layout(base_tangent, base):
        base_tangent = _with_layout_of(base, base_tangent)
        set_tangent(base, level, base_tangent)
    view = base_tangent.as_strided(t._shape, t._stride, t._offset)
    set_tangent(t, level, view)
    return view


def set_tangent(t, level, tangent):
    """Make ``tangent`` the tangent of ``t`` at ``level`` (None removes it)."""
    grads = t.__dict__.setdefault("_fw_grads", {})
    lvl = _level_object(level, "_make_dual")
    if tangent is None:
        grads.pop(level, None)
        lvl.duals.pop(id(t), None)
        return
    grads[level] = tangent
    lvl.duals[id(t)] = weakref.ref(t, lambda _, key=id(t), duals=lvl.duals: duals.pop(key, None))


def _same_layout(a, b):
    return (a._stride == b._stride and a._offset == b._offset
            and a._storage._flat.size == b._storage._flat.size)


def _with_layout_of(primal, tangent):
    """A copy of ``tangent`` laid out in memory exactly as ``primal`` (same strides, same offset in a
    storage of the same size), so a view of the primal can find its window in the tangent."""
    from ..ops.creation import zeros
    flat = zeros(primal._storage._flat.size, dtype=tangent.dtype, device=tangent.device)
    out = flat.as_strided(primal._shape, primal._stride, primal._offset)
    out.copy_(tangent)
    return out


def check_tangent_size(t, tangent):
    if tangent._shape != t._shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the "
                           "original Tensor, this is not supported. Tensor is of size "
                           f"[{', '.join(map(str, t._shape))}] while the given forward gradient is of size "
                           f"[{', '.join(map(str, tangent._shape))}].")


# -- the user's API ---------------------------------------------------------------------------------
def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` carrying ``tangent``: the direction in which forward mode differentiates.

    The tangent must have the tensor's shape; both must be floating point. A tangent laid out
    differently in memory from the tensor is copied into the tensor's layout."""
    if level is None:
        level = _current_level()
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure "
                           "to enter_dual_level() first.")
    if not (tensor.dtype.is_floating_point or tensor.dtype.is_complex):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.dtype.is_floating_point or tangent.dtype.is_complex):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    _level_object(level, "_make_dual")
    if get_tangent(tensor, level) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward gradient at "
                           f"the same level {level} is not supported.")
    check_tangent_size(tensor, tangent)
    dual = tensor.view(tensor.shape)               # a view (ViewBackward0 when tensor requires grad)
    if not _same_layout(tangent, dual):
        tangent = _with_layout_of(dual, tangent)
    set_tangent(dual, level, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of a dual tensor: the primal is a view of it without the tangent; the
    tangent is None for a tensor that has none. (Outside any dual level: the tensor itself, None.)"""
    if level is None:
        level = _current_level()
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    tangent = get_tangent(tensor, level)
    primal = _Primal.apply(tensor)
    set_tangent(primal, level, None)
    primal.__dict__["_fw_no_tangent"] = True   # not even its base's: it is the bare primal
    return UnpackedDualTensor(primal, tangent)


class _Primal(_function.Function):
    """The primal of a dual tensor: an alias of its memory; the gradient passes through unchanged."""

    node_name = "Identity"

    @staticmethod
    def forward(ctx, x):
        return x._same_view()

    @staticmethod
    def backward(ctx, grad):
        return grad


_Primal._backward_cls.name = lambda self: "torch::autograd::Identity"   # a C++ node in PyTorch


__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual"]
