"""In-place ops (``add_``, ``mul_``, ``x[0] = ...``): write a result into the tensor's own memory.

Every in-place op is its out-of-place op plus a write-back:
1. refuse leaves that require grad (their ``.grad`` would silently be wrong);
2. compute the out-of-place result -- if recording, this creates the node (e.g. MulBackward0);
3. copy the result into ``self``'s memory and bump the shared version counter, so any node that
   saved the old values will refuse to run backward with the new ones;
4. if recording, ``self`` (or its base, for a view) takes the new node as its history.
Before any of that, ``check_writable`` refuses memory that cannot take the write: an expanded tensor
(many elements, one memory cell) or a read-only NumPy array. Nothing is written, nothing is recorded.
See course/08_inplace_and_versions.
"""
import warnings

from .. import _dtype
from ..backend import for_device
from ..autograd import grad_mode
from ..autograd.function import _op_layers, notify_inplace
from ..autograd.saved_hooks import repack_before_write
from .. import tensor as _t

_LEGACY = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
           "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool", "complex64": "ComplexFloat",
           "complex128": "ComplexDouble"}


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


OVERLAP_ERROR = ("unsupported operation: more than one element of the written-to tensor refers to a single "
                 "memory location. Please clone() the tensor before performing the operation.")


def has_internal_overlap(t):
    """True when two elements of ``t`` are one memory cell: a stride 0 along a dim of size > 1, as
    ``expand`` makes. (PyTorch's test too: other overlaps, e.g. ``as_strided`` tricks, it does not look for.)"""
    return 0 in t._stride and any(s == 0 and n > 1 for n, s in zip(t._shape, t._stride))


def check_writable(t, overlap_ok=False):
    """Refuse an in-place write whose result could not be stored faithfully.

    ``zeros(1).expand(3).add_(arange(3.))`` would write 0, 1 and 2 into one memory cell: only the last
    would stay, and every element would read 2 -- a silently wrong result, so PyTorch refuses (unless
    the op writes one value everywhere it writes, ``overlap_ok``: ``fill_``, ``masked_fill_``...).
    A tensor over a read-only NumPy array (``from_numpy`` warned about it) cannot be written at all.
    """
    if not overlap_ok and has_internal_overlap(t):
        raise RuntimeError(OVERLAP_ERROR)
    if not for_device(t._device).is_writable(t._array):
        raise RuntimeError("cannot write in place into a tensor whose memory is a read-only NumPy array "
                           "(from_numpy of a non-writable array): make the array writable, or clone() the "
                           "tensor and write into the copy.")


def can_cast(src, dst):
    """In-place results may not lose their category (no float into an int tensor, no int into bool)."""
    return src._category <= dst._category


# Set while a vmap runs: in-place ops on batched tensors go to vmap (tensorlab/func/_vmap.py), which
# returns None when no batched tensor takes part.
vmap_inplace = None


def apply_inplace(self, op, *args, **kwargs):
    """Run ``op(self, *args)`` and store the result in ``self``; returns ``self``."""
    if vmap_inplace is not None and vmap_inplace(self, op, args, kwargs) is not None:
        return self  # vmap wrote into the batched tensor (tensorlab/func/_vmap.py)
    check_writable(self)
    return _compute_and_store(self, op, args, kwargs, only_changed=False)


def apply_fill_inplace(self, name, op, *args):
    """``apply_inplace`` for the ops that write one value into chosen elements (``fill_``,
    ``masked_fill_``, ``index_fill_``). PyTorch lets these write into an expanded tensor -- every alias
    of a memory cell gets the same value -- and warns (except for ``fill_``) that it will stop to."""
    if vmap_inplace is not None and vmap_inplace(self, op, args, {}) is not None:
        return self
    overlap = has_internal_overlap(self)
    check_writable(self, overlap_ok=True)
    if overlap and name != "fill_":
        warn_expanded(name, "tensor[mask] = scalar")
    return _compute_and_store(self, op, args, {}, only_changed=overlap)


def warn_expanded(name, example):
    warnings.warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor before "
                  f"performing this operation. This also applies to advanced indexing e.g. {example}",
                  UserWarning, stacklevel=4)


def _compute_and_store(self, op, args, kwargs, only_changed):
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
        if self._base is not None and self._base._array.dtype != self._array.dtype:
            raise RuntimeError("tensorlab cannot record an in-place op on a view that reads its base as another "
                               "dtype (.real, .imag, view_as_real, view_as_complex) while autograd records: use "
                               "the out-of-place op (PyTorch can)")
    write_into(self, result._array, only_changed)
    if node is not None:
        rebase_history(self, node, result._output_nr)
    if _op_layers:  # forward-mode AD: self takes the result's tangent (autograd/forward_ad.py)
        notify_inplace(self, result)
    return self


def write_into(self, values, only_changed=False):
    """Copy array ``values`` into ``self``'s memory (broadcasting, casting) and bump its version.
    ``only_changed``: write just the elements whose value changes (for an expanded ``self``, where
    writing the unchanged aliases of a cell would undo the change)."""
    xp_values = values
    if hasattr(values, "dtype") and values.dtype != self._array.dtype:
        xp_values = values.astype(self._array.dtype)
    if only_changed:
        changed = xp_values != self._array
        self._array[changed] = xp_values[changed]
    else:
        self._array[...] = xp_values
    self._version_counter.value += 1


def _protect_saved_values(node, target):
    """The new node may have saved ``target`` (or a view of it) as an input; keep its old values."""
    for saved in node._saved:
        if saved is not None and saved.tensor is None:  # saved through a pack hook (autograd/saved_hooks.py)
            if not saved.is_output:
                repack_before_write(saved, target)
            continue
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
