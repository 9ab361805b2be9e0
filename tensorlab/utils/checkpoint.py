"""Activation checkpointing: keep less for backward, recompute it when backward needs it.

Backward needs tensors from the forward pass (an MLP's activations, mostly), so a deep network's memory
is dominated by what autograd keeps. ``checkpoint(function, *args, use_reentrant=False)`` runs
``function`` keeping *none* of its saved tensors: each one is packed as a small placeholder by a
saved-tensor hook (tensorlab/autograd/saved_hooks.py). When backward first unpacks one, ``function``
runs again on the same inputs -- with grad mode on, under hooks that catch what it saves, and with the
random state it had the first time (so dropout draws the same mask) -- and the placeholders are
filled from that second run. Memory traded for compute: about one extra forward.

    >>> import tensorlab as torch
    >>> from tensorlab.utils.checkpoint import checkpoint
    >>> x = torch.ones(4, requires_grad=True)
    >>> y = checkpoint(lambda t: (t.sin() * 2).exp(), x, use_reentrant=False)
    >>> y.sum().backward()                 # sin, mul and exp run again here, then their backward
    >>> bool(torch.allclose(x.grad, (2 * x.sin()).exp() * 2 * x.cos()))
    True

``use_reentrant=True`` (what PyTorch does when ``use_reentrant`` is not passed, with a warning) is the
older form: one autograd Function whose forward runs ``function`` under ``no_grad`` and whose backward
runs it again and calls ``backward`` inside backward. ``checkpoint_sequential`` cuts a Sequential into
segments and checkpoints each but the last. See course/27_memory_in_autograd.
"""
import contextlib
import sys
import warnings
import weakref

from .. import autograd
from ..autograd import grad_mode, graph
from ..autograd.engine import _Backward
from ..autograd.function import Function
from ..autograd.saved_hooks import saved_tensors_hooks
from ..ops.creation import get_rng_state, set_rng_state
from ..tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "set_checkpoint_early_stop"]

_BACKWARD_RUN = _Backward.run.__code__

_DEBUG_TIP = ("\nTip: To see a more detailed error message, either pass `debug=True` to\n"
              "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
              "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
              "enable checkpoint-debug mode globally.\n")


class CheckpointError(RuntimeError):
    """Raised when the recomputation does not save what the first forward saved."""


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn, determinism_check="default",
               debug=False, early_stop=True, **kwargs):
    """``function(*args, **kwargs)``, keeping none of its intermediate tensors for backward.

    As PyTorch 2.13: ``use_reentrant`` should be passed (leaving it out warns and means True);
    ``preserve_rng_state=True`` (a keyword) replays the random state for the recomputation;
    ``context_fn`` gives two context managers, one for the forward and one for the recomputation;
    ``determinism_check="default"`` compares shape, dtype and device of what the recomputation saves
    ("none" turns it off); ``early_stop`` stops the recomputation once everything is made again.
    ``debug`` is accepted (tensorlab records no operator logs, so it changes no message)."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in "
            "PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. use_reentrant=False "
            "is recommended, but if you need to preserve the current default behavior, you can pass "
            "use_reentrant=True. Refer to docs for more details on the differences between the two variants.",
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if determinism_check not in _METADATA:
        raise ValueError(f"determinism_check should be one of {list(_METADATA)}, but got {determinism_check}")
    if not grad_mode.is_grad_enabled():
        return function(*args, **kwargs)   # nothing is saved under no_grad: nothing to checkpoint
    if _early_stop_override is not None:
        early_stop = _early_stop_override
    return _checkpoint_without_reentrant(function, preserve, context_fn, _METADATA[determinism_check],
                                         early_stop, args, kwargs)


_early_stop_override = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Inside this block, checkpoints made with ``use_reentrant=False`` stop (or not) their
    recomputation as soon as every saved tensor has been made again, whatever their ``early_stop``."""
    global _early_stop_override
    previous, _early_stop_override = _early_stop_override, enable
    try:
        yield
    finally:
        _early_stop_override = previous


def _shape_dtype_device(tensor):
    return {"shape": tensor.shape, "dtype": tensor.dtype, "device": tensor.device}


_METADATA = {"default": _shape_dtype_device, "none": lambda tensor: None}


# -- use_reentrant=False: saved-tensor hooks --------------------------------------------------------
class _Placeholder:
    """What the first forward keeps instead of a saved tensor: its place in the order of saving, and
    the backward passes that have already unpacked it."""

    __slots__ = ("index", "unpacked_by", "__weakref__")

    def __init__(self, index):
        self.index = index
        self.unpacked_by = weakref.WeakSet()


class _StopRecomputation(Exception):
    """Raised inside the recomputation once every saved tensor has been made again (early stop)."""


class _OutsideBackward:
    """Stands for "no backward pass" when a saved tensor is unpacked directly (``grad_fn._saved_*``):
    each such unpack recomputes, as PyTorch does."""


class _Frame:
    """One checkpointed call: its inputs (version-checked, as any saved tensor), the metadata of what
    its forward saved, and -- per backward pass -- the recomputed values not yet unpacked."""

    def __init__(self, function, args, kwargs, rng_state, recompute_context, metadata, early_stop):
        self.function, self.kwargs = function, kwargs
        self.args = [graph.SavedTensor(a) if isinstance(a, Tensor) else a for a in args]
        self.rng_state, self.recompute_context, self.early_stop = rng_state, recompute_context, early_stop
        self.metadata, self.saved_metadata = metadata, []
        self.recomputed = weakref.WeakKeyDictionary()   # backward pass -> {index: tensor}

    @property
    def n_saved(self):
        return len(self.saved_metadata)

    def pack(self, tensor):
        self.saved_metadata.append(self.metadata(tensor))
        return _Placeholder(self.n_saved - 1)

    def unpack(self, placeholder):
        task = _current_backward() or _OutsideBackward()
        if task in placeholder.unpacked_by:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already unpacked "
                "once. If you are calling ctx.saved_tensors in backward, make sure to do so only once. "
                "Otherwise please open an issue with details on your use case.")
        if task not in self.recomputed:
            self.recomputed[task] = self.recompute()   # once per backward pass (each retain_graph one)
        placeholder.unpacked_by.add(task)
        return self.recomputed[task].pop(placeholder.index)

    def recompute(self):
        """Run the function again, with grad mode on and its first random state, catching what it saves."""
        values, stopped_in = {}, []

        def pack_again(tensor):
            if len(values) >= self.n_saved:
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during "
                                      f"recomputation than during the original forward pass.\n{_DEBUG_TIP}")
            if self.early_stop and len(values) + 1 == self.n_saved:
                stopped_in.append(tensor.grad_fn)
            tensor = tensor.detach() if tensor.requires_grad else tensor   # no cycle through grad_fn
            values[len(values)] = tensor
            if stopped_in:
                raise _StopRecomputation
            return tensor

        args = [a.unpack() if isinstance(a, graph.SavedTensor) else a for a in self.args]
        outer_state = get_rng_state() if self.rng_state is not None else None
        try:
            if self.rng_state is not None:
                set_rng_state(self.rng_state)
            with grad_mode.enable_grad(), self.recompute_context, saved_tensors_hooks(pack_again, _unused):
                self.function(*args, **self.kwargs)
        except _StopRecomputation:
            _forget_unsaved(stopped_in[0])
        finally:
            if outer_state is not None:
                set_rng_state(outer_state)   # the recomputation does not move the caller's random state
        self.check_recomputed(values)
        return values

    def check_recomputed(self, values):
        if len(values) != self.n_saved:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward "
                f"and recomputation.\nNumber of tensors saved during forward: {self.n_saved}\n"
                f"Number of tensors saved during recomputation: {len(values)}.\n{_DEBUG_TIP}")
        different = [(i, saved, self.metadata(values[i])) for i, saved in enumerate(self.saved_metadata)
                     if saved != self.metadata(values[i])]
        if different:
            listing = "".join(f"tensor at position {i}:\nsaved metadata: {saved}\nrecomputed metadata: {now}\n"
                              for i, saved, now in different)
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following tensors have "
                                  f"different metadata than during the forward pass.\n{listing}.\n{_DEBUG_TIP}")


def _forget_unsaved(node):
    """The op whose save stopped the recomputation never finished saving: drop the list of what it was
    to save (it holds the op's output, whose grad_fn is the node -- a cycle only the garbage collector
    would free, keeping a recomputed activation alive until then)."""
    if node is not None:
        node._to_save = ()


def _unused(tensor):
    return tensor   # what the recomputation saves is never unpacked: only its values are taken


def _checkpoint_without_reentrant(function, preserve, context_fn, metadata, early_stop, args, kwargs):
    forward_context, recompute_context = context_fn()
    frame = _Frame(function, args, kwargs, get_rng_state() if preserve else None, recompute_context,
                   metadata, early_stop)
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


def _current_backward():
    """The backward pass (the engine's ``_Backward``) now running a node, or None outside backward.

    PyTorch asks its engine for the current graph task; tensorlab's engine keeps its running pass as
    ``self`` of ``_Backward.run``, so we look for that frame on the call stack."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is _BACKWARD_RUN:
            return frame.f_locals["self"]
        frame = frame.f_back
    return None


# -- use_reentrant=True: one Function that runs backward inside backward -----------------------------
class CheckpointFunction(Function):
    """Forward runs ``run_function`` with recording off and saves only its inputs; backward runs it again
    with recording on and backpropagates through that second graph."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        _check_backward_validity(args)
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        ctx.rng_state = get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        return run_function(*args)   # Function.apply runs forward with recording off

    @staticmethod
    def backward(ctx, *grads):
        task = _current_backward()
        if task is not None and task.targets:
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing an "
                "`inputs` parameter to .backward(). To resolve this error, you can either set "
                "use_reentrant=False, or call .backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        outer_state = get_rng_state() if ctx.preserve_rng_state else None
        try:
            if ctx.preserve_rng_state:
                set_rng_state(ctx.rng_state)
            detached = [_detach_keeping_requires_grad(a) for a in inputs]
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)
        finally:
            if outer_state is not None:
                set_rng_state(outer_state)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(a.grad if isinstance(a, Tensor) else None for a in detached)


def _detach_keeping_requires_grad(a):
    if not isinstance(a, Tensor):
        return a
    x = a.detach()
    x.requires_grad = a.requires_grad
    return x


def _check_backward_validity(inputs):
    if not any(a.requires_grad for a in inputs if isinstance(a, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=4)


# -- checkpoint_sequential ---------------------------------------------------------------------------
def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (a Sequential or a list of modules) on ``input`` in ``segments`` chunks,
    checkpointing every chunk but the last (whose activations backward needs first anyway)."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
            "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
            "use_reentrant=False is recommended, but if you need to preserve the current default behavior, "
            "you can pass use_reentrant=True. Refer to docs for more details on the differences between the "
            "two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    from ..nn import Sequential
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run_function(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1)(input)
