"""In-place ops (``add_``, ``mul_``, ``x[0] = ...``): write a result into the tensor's own memory.

Every in-place op is its out-of-place op plus a write-back:
1. refuse leaves that require grad (their ``.grad`` would silently be wrong);
2. compute the out-of-place result -- if recording, this creates the node (e.g. MulBackward0);
3. copy the result into ``self``'s memory and bump the shared version counter, so any node that
   saved the old values will refuse to run backward with the new ones;
4. if recording, ``self`` (or its base, for a view) takes the new node as its history.
See course/08_inplace_and_versions.
"""
from .. import _dtype
from ..autograd import grad_mode
from .. import tensor as _t

_LEGACY = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
           "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


def check_inplace(t):
    """Raise PyTorch's error when an in-place change to ``t`` would make gradients silently wrong:
    ``t`` is a leaf that requires grad (or a view of one), a view made in no_grad mode of a tensor
    that requires grad, or one of several views returned together (``unbind``, ``split``)."""
    if not grad_mode._State.enabled:
        return
    base = t._base
    if t._requires_grad and t._grad_fn is None and base is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if base is None:
        return
    if base._requires_grad and base._grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    if base._requires_grad and not t._requires_grad and t._view_version is None:
        raise RuntimeError(_NO_GRAD_VIEW)
    node = t._grad_fn
    if node is not None and len(node._output_meta) > 1:
        from ..autograd.graph import _forward_name
        raise RuntimeError(f"Output {t._output_nr} of {_forward_name(node)} is a view and is being modified "
                           "inplace. This view is the output of a function that returns multiple views. "
                           "Such functions do not allow the output views to be modified inplace. You "
                           "should replace the inplace operation by an out-of-place one.")


_NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given "
    "that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
    "moving both the view and the inplace either both inside the no_grad block (if you don't want the "
    "inplace to be tracked) or both outside (if you want the inplace to be tracked).")


def can_cast(src, dst):
    """In-place results may not lose their category (no float into an int tensor, no int into bool)."""
    return src._category <= dst._category


def apply_inplace(self, op, *args, **kwargs):
    """Run ``op(self, *args)`` and store the result in ``self``; returns ``self``."""
    check_inplace(self)
    recording = grad_mode._State.enabled and (
        self._requires_grad or any(isinstance(a, _t.Tensor) and a._requires_grad for a in args))
    # (when not recording, no input requires grad -- or grad mode is off -- so op records nothing)
    result = op(self, *args, **kwargs)
    if result._shape != self._shape:
        raise RuntimeError(f"output with shape [{', '.join(map(str, self._shape))}] doesn't match the "
                           f"broadcast shape [{', '.join(map(str, result._shape))}]")
    if not can_cast(result.dtype, self.dtype):
        raise RuntimeError(f"result type {_LEGACY[result.dtype.name]} can't be cast to the desired output "
                           f"type {_LEGACY[self.dtype.name]}")
    node = result._grad_fn if recording else None
    if node is not None:
        _protect_saved_values(node, self)
    write_into(self, result._array)
    if node is not None:
        rebase_history(self, node, result._output_nr)
    return self


def write_into(self, values):
    """Copy array ``values`` into ``self``'s memory (broadcasting, casting) and bump its version."""
    xp_values = values
    if hasattr(values, "dtype") and values.dtype != self._array.dtype:
        xp_values = values.astype(self._array.dtype)
    self._array[...] = xp_values
    self._version_counter.value += 1


def _protect_saved_values(node, target):
    """The new node may have saved ``target`` (or a view of it) as an input; keep its old values."""
    for saved in node._saved:
        if saved is None or saved.is_output or saved.tensor._storage is not target._storage:
            continue
        old = saved.tensor
        copy = _t.Tensor._from_array(old._array.copy(), old.device)
        copy._requires_grad, copy._grad_fn, copy._output_nr = old._requires_grad, old._grad_fn, old._output_nr
        saved.tensor, saved.version = copy, 0


def rebase_history(self, node, output_nr):
    """``self`` was overwritten by ``node``'s result: it (or its base, for a view) now comes from
    ``node`` -- see tensorlab/autograd/inplace.py."""
    from ..autograd.inplace import rebase_history as rebase
    rebase(self, node, output_nr)
