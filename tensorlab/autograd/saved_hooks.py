"""Saved-tensor hooks: choose how the tensors that backward needs are kept until then.

An op that records a node saves some tensors for its backward (``ctx.save_for_backward``; ``exp`` keeps
its output). Inside ``with saved_tensors_hooks(pack_hook, unpack_hook):``, each tensor saved is handed
to ``pack_hook(tensor)`` at once, and the node keeps *whatever it returns* instead of the tensor; when
backward needs the tensor, it calls ``unpack_hook(packed)``, which must give back a tensor with the same
values. So the pack hook can move a saved tensor elsewhere (``save_on_cpu``), compress it, or keep
nothing at all and recompute it later (activation checkpointing, tensorlab/utils/checkpoint.py).

    >>> import tensorlab as torch
    >>> from tensorlab.autograd.graph import saved_tensors_hooks
    >>> x = torch.ones(3, requires_grad=True)
    >>> log = []
    >>> def pack(t):
    ...     log.append(("pack", tuple(t.shape)))
    ...     return t.detach().numpy().copy()         # keep a NumPy copy instead of the tensor
    >>> def unpack(array):
    ...     log.append(("unpack", array.shape))
    ...     return torch.from_numpy(array)
    >>> with saved_tensors_hooks(pack, unpack):
    ...     y = x.exp().sum()                        # ExpBackward0 saves its result: packed now
    >>> y.backward()                                 # ... and unpacked when the node runs
    >>> log
    [('pack', (3,)), ('unpack', (3,))]

As in PyTorch: the innermost block's hooks are the ones used; the pack hook runs with grad mode off
and must not modify its input in place; a tensor saved through hooks is not version-checked (the hooks
decide what is kept, so autograd cannot tell whether it changed); ``disable_saved_tensors_hooks(msg)``
makes both entering a hooks block and saving under one raise ``msg``. With no block active, saving a
tensor pays one ``if`` (graph.SavedTensor). See course/27_memory_in_autograd.
"""
import weakref

from .. import tensor as _t
from . import grad_mode

_stack = []       # (pack_hook, unpack_hook) of the active blocks, innermost last
_disabled = []    # the messages of the active disable_saved_tensors_hooks blocks, innermost last

PACK_MODIFIED_INPUT = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook cannot "
    "be modified by in-place operations as this can lead to unexpected side-effects. Please open an issue if "
    "you need to perform in-place operations on the input to a pack hook.")


class saved_tensors_hooks:
    """Context manager: inside it, tensors saved for backward go through ``pack_hook`` / ``unpack_hook``."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if _disabled:
            raise RuntimeError(_disabled[-1])
        _stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        _stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors in CPU memory and bring each back to its device when backward needs it -- GPU
    memory traded for copies. ``pin_memory=True`` packs into page-locked memory (when CUDA is there), so
    the copy back can be asynchronous."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            if not pin_memory:
                return tensor.device, tensor.cpu()
            from .. import cuda
            from ..ops.creation import empty
            packed = empty(tensor.size(), dtype=tensor.dtype, pin_memory=cuda.is_available())
            packed.copy_(tensor)
            return tensor.device, packed

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Context manager: inside it, entering ``saved_tensors_hooks`` -- or saving a tensor while hooks are
    active -- raises ``RuntimeError(error_message)``. For code whose hooks would be wrong there."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        _disabled.append(self.error_message)
        return self

    def __exit__(self, *exc):
        _disabled.pop()


class Packed:
    """What a SavedTensor keeps when it was saved through hooks: the pack hook's result, the unpack hook,
    and what is needed to give the unpacked tensor the saved one's place in the graph."""

    __slots__ = ("value", "unpack_hook", "grad_fn", "requires_grad", "accumulator", "storage", "shape")


def pack(saved, tensor, is_output_of):
    """Fill ``saved`` (a graph.SavedTensor) from the innermost pack hook instead of keeping ``tensor``."""
    if _disabled:
        raise RuntimeError(_disabled[-1])
    pack_hook, unpack_hook = _stack[-1]
    version = tensor._version_counter.value
    with grad_mode.no_grad():
        value = pack_hook(tensor)
    if tensor._version_counter.value != version:
        raise RuntimeError(PACK_MODIFIED_INPUT)
    p = Packed()
    p.value, p.unpack_hook, p.shape = value, unpack_hook, tensor._shape
    p.grad_fn = None if is_output_of is not None else tensor._grad_fn
    p.requires_grad = tensor._requires_grad
    p.accumulator = None
    if tensor._requires_grad and tensor._grad_fn is None:   # a leaf: gradients go to its AccumulateGrad
        from .graph import grad_accumulator
        p.accumulator = grad_accumulator(tensor)
    p.storage = weakref.ref(tensor._storage)
    saved.tensor, saved.version, saved.output_nr = None, version, tensor._output_nr
    saved.node = weakref.ref(is_output_of) if is_output_of is not None else None
    saved.packed = p


def unpack(saved):
    """``unpack_hook(packed)``, put back in the saved tensor's place in the graph (its grad_fn)."""
    from .graph import _alias_without_history
    p = saved.packed
    t = p.unpack_hook(p.value)
    if not isinstance(t, _t.Tensor):
        raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                        f"{type(t).__name__}")
    restored = _alias_without_history(t)
    restored._grad_fn = saved.node() if saved.node is not None else p.grad_fn
    restored._output_nr, restored._requires_grad = saved.output_nr, p.requires_grad
    if p.accumulator is not None:
        restored._grad_accumulator = weakref.ref(p.accumulator)
    return restored


def repack_before_write(saved, target):
    """An in-place op is about to overwrite ``target``, which this saved input may share memory with:
    pack a copy of its current values (the pack hook may have kept the tensor itself)."""
    p = saved.packed
    if p.storage() is not target._storage:
        return
    old = unpack(saved)
    copy = _t.Tensor._from_array(old._array.copy(), old.device)
    copy._requires_grad, copy._grad_fn, copy._output_nr = old._requires_grad, p.grad_fn, saved.output_nr
    pack(saved, copy, None)
    saved.packed.accumulator = p.accumulator   # the copy stands for the same input in the graph
