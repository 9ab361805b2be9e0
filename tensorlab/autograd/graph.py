"""The backward graph: nodes, edges, saved tensors.

Each differentiable op, when it runs, creates one **Node** (the output's ``grad_fn``). A node knows
how to turn the gradient of its outputs into gradients of its inputs (``apply``), and where to send
each of those: ``next_functions``, one ``(node, input_nr)`` edge per input -- ``None`` for an input
that needs no gradient, an ``AccumulateGrad`` node for a leaf that does.
See course/06_the_backward_graph.
"""
import itertools
import weakref

from .. import tensor as _t

_sequence = itertools.count()

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")


class RemovableHandle:
    """Returned by every ``register_*hook``; ``.remove()`` unregisters it."""

    _ids = itertools.count()

    def __init__(self, hooks_dict):
        self.id = next(RemovableHandle._ids)
        self._hooks = weakref.ref(hooks_dict) if _weakrefable(hooks_dict) else (lambda: hooks_dict)

    def remove(self):
        hooks = self._hooks()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _weakrefable(obj):
    try:
        weakref.ref(obj)
        return True
    except TypeError:
        return False


class _HookDict(dict):
    """A dict that can be weakly referenced (handles must not keep hooks alive)."""


def add_hook(hooks, fn):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


class Node:
    """One step of the backward pass. Subclasses implement ``apply(*grad_outputs)``.

    ``grad_outputs`` holds one gradient per output of the forward op; ``apply`` returns one gradient
    per input (per entry of ``next_functions``), or ``None`` where there is none.
    """

    # Defaults live on the class, so creating a node (once per op) sets only what it uses.
    next_functions = ()
    _saved = ()
    _released = False
    _hooks = None              # register_hook: fn(grad_inputs, grad_outputs)
    _pre_hooks = None          # register_prehook: fn(grad_outputs)
    _tensor_pre_hooks = None   # output_nr -> hooks from Tensor.register_hook on that output
    _retain_grad = None        # output_nr -> weakref to the tensor that called retain_grad()
    _output_meta = ()          # (shape, dtype, device) of each output, to make zero grads
    _anomaly_trace = None

    def __init__(self):
        self._sequence_nr = next(_sequence)

    @property
    def metadata(self):
        if "_metadata" not in self.__dict__:
            self._metadata = {}
        return self._metadata

    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def apply(self, *grad_outputs):
        raise NotImplementedError

    def __call__(self, *grad_outputs):
        return self.apply(*grad_outputs)

    def _sequence_number(self):
        return self._sequence_nr

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = _HookDict()
        return add_hook(self._hooks, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = _HookDict()
        return add_hook(self._pre_hooks, fn)

    def _saved_tensors_info(self):
        return self._saved

    def release_variables(self):
        """Drop the tensors saved for backward, so their memory is returned now."""
        self._saved = ()
        self._released = True


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    Unpacking checks the version: if an in-place op changed the tensor since, the gradient would be
    wrong, so backward raises instead. See course/07_inplace_and_versions.
    """

    __slots__ = ("tensor", "version", "grad_fn_name", "output_nr", "is_output", "node")

    def __init__(self, tensor, node=None):
        self.tensor = tensor
        self.version = tensor._version_counter.value
        self.is_output = False
        self.node = None
        self.grad_fn_name = tensor._grad_fn.name() if tensor._grad_fn is not None else None
        self.output_nr = tensor._output_nr

    def mark_output(self, node):
        """The saved tensor is an output of ``node``: keep it without its grad_fn (no reference cycle)."""
        t = self.tensor
        alias = object.__new__(_t.Tensor)
        alias._init(t._storage, t._offset, t._shape, t._stride, t._array, t._version_counter, t._base)
        alias._requires_grad = t._requires_grad
        self.tensor, self.is_output, self.node = alias, True, weakref.ref(node)
        self.grad_fn_name, self.output_nr = node.name(), t._output_nr
        self.version = t._version_counter.value

    def unpack(self):
        t = self.tensor
        if t._version_counter.value != self.version:
            kind = _legacy_name(t)
            name = t._grad_fn.name() if t._grad_fn is not None else self.grad_fn_name
            origin = f", which is output {self.output_nr} of {_op_name(name)}," if name else ""
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [{kind}]{origin} is at version {t._version_counter.value}; expected version "
                f"{self.version} instead. Hint: enable anomaly detection to find the operation that failed "
                "to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
        if self.is_output:
            node = self.node()
            restored = object.__new__(_t.Tensor)
            restored._init(t._storage, t._offset, t._shape, t._stride, t._array, t._version_counter,
                           t._base)
            restored._requires_grad = t._requires_grad
            restored._grad_fn = node
            restored._output_nr = self.output_nr
            return restored
        return t


def _op_name(node_name):
    """``ExpBackward0`` -> ``Exp``: the forward op's name, as PyTorch's version error says it."""
    import re
    return re.sub(r"Backward\d*$", "", node_name)


def _legacy_name(t):
    prefix = "torch.cuda." if t.device.type == "cuda" else "torch."
    return f"{prefix}{t.dtype._legacy} [{', '.join(map(str, t._shape))}]"


class AccumulateGrad(Node):
    """The node behind a leaf that requires grad: it adds the incoming gradient into ``leaf.grad``."""

    def __init__(self, variable):
        super().__init__()
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def __repr__(self):
        return f"<AccumulateGrad object at {hex(id(self))}>"
        self._output_meta = ((variable._shape, variable.dtype, variable.device),)

    def apply(self, grad):
        accumulate_into(self.variable, grad)
        return ()


def accumulate_into(variable, grad):
    """``variable.grad += grad``, PyTorch-style: the first gradient is stored (or copied into the
    variable's layout), later ones are added in place -- or out of place when building a graph."""
    from . import grad_mode
    if variable._grad is None:
        if grad_mode.is_grad_enabled():
            variable._grad = grad
        elif grad._stride == variable._stride and grad._base is None and not grad._requires_grad:
            variable._grad = grad
        else:
            variable._grad = _copy_with_layout(grad, variable)
    elif grad_mode.is_grad_enabled():
        variable._grad = variable._grad + grad
    else:
        variable._grad.add_(grad)


def _copy_with_layout(grad, like):
    """A copy of ``grad`` with ``like``'s strides when ``like`` is dense, else contiguous."""
    from ..ops.creation import empty_strided
    from .. import _layout
    strides = like._stride if _is_dense(like) else _layout.contiguous_strides(like._shape)
    out = empty_strided(like._shape, strides, dtype=grad.dtype, device=grad.device)
    out._array[...] = grad._array
    return out


def _is_dense(t):
    """Non-overlapping and without gaps: some permutation of the dims is contiguous."""
    dims = sorted((s, n) for s, n in zip(t._stride, t._shape) if n != 1)
    expected = 1
    for stride, size in dims:
        if stride != expected:
            return False
        expected *= size
    return True


def gradient_edge(t):
    """Where a gradient for ``t`` must go: its grad_fn (and which output it is), or its AccumulateGrad."""
    if t._grad_fn is not None:
        return (t._grad_fn, t._output_nr)
    if t._requires_grad:
        return (grad_accumulator(t), 0)
    return None


def grad_accumulator(t):
    """The leaf's AccumulateGrad node -- the same one for every graph, while someone holds it."""
    acc = t._grad_accumulator() if t._grad_accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._grad_accumulator = weakref.ref(acc)
    return acc


def tensor_pre_hooks(node, output_nr):
    """Hooks registered with ``Tensor.register_hook`` that watch gradient slot ``output_nr`` of node."""
    if isinstance(node, AccumulateGrad):
        hooks = node.variable._backward_hooks
        return list(hooks.values()) if hooks else []
    hooks = node._tensor_pre_hooks.get(output_nr) if node._tensor_pre_hooks else None
    return list(hooks.values()) if hooks else []
