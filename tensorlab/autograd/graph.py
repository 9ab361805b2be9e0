"""The backward graph: nodes, edges, saved tensors.

Each differentiable op, when it runs with recording on, creates one **Node** and stores it as its
output's ``grad_fn``. A node knows how to turn the gradient of its outputs into gradients of its inputs
(``apply``), and where to send each of those: ``next_functions``, one ``(node, input_nr)`` edge per
input -- ``(None, 0)`` for an input that needs no gradient, an ``AccumulateGrad`` node for a leaf that
does. ``input_nr`` says which output of that next node the input was. The graph points backwards: from
the result towards the leaves, which is the direction gradients flow.

    >>> import tensorlab as torch
    >>> x = torch.ones(3, requires_grad=True)
    >>> y = (x * 2).sum()
    >>> y.grad_fn
    <SumBackward0 object at 0x...>
    >>> y.grad_fn.next_functions                       # doctest: +ELLIPSIS
    ((<MulBackward0 object at 0x...>, 0),)
    >>> y.grad_fn.next_functions[0][0].next_functions  # x, and the Python number 2
    ((<AccumulateGrad object at 0x...>, 0), (None, 0))

See course/07_the_backward_graph.
"""
import itertools
import weakref

from .. import tensor as _t
from . import grad_mode
from . import saved_hooks as _saved_hooks
from .saved_hooks import _stack as _hook_stack, disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks  # noqa: F401

_sequence = itertools.count()  # every recorded node gets the next number: later nodes run first

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")


# -- hooks ------------------------------------------------------------------------------------------
class RemovableHandle:
    """Returned by every ``register_*hook``; ``.remove()`` unregisters the hook (also usable in ``with``)."""

    _ids = itertools.count()

    def __init__(self, hooks_dict):
        self.id = next(RemovableHandle._ids)
        self._hooks = weakref.ref(hooks_dict)  # a handle must not keep its hooks (or tensor) alive

    def remove(self):
        hooks = self._hooks()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class HookDict(dict):
    """Hooks in registration order, keyed by handle id (a dict that can be weakly referenced)."""


def add_hook(hooks, fn):
    """Register ``fn`` in ``hooks`` (a HookDict); returns its RemovableHandle."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


# -- nodes -------------------------------------------------------------------------------------------
class _SavedByName:
    """``node._saved_self`` (``_saved_other``, ``_saved_result``): what ``_saved_by_name`` finds, or
    AttributeError for a node that saved no such tensor. A descriptor on the class rather than a
    ``__getattr__``: a class with ``__getattr__`` makes every attribute read on its objects slower
    (CPython cannot specialise them), and the engine reads node attributes all the time. It defines
    no ``__set__``, so a Function's ctx may still set an attribute of that name itself."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, node, owner=None):
        return self if node is None else node._saved_by_name(self.name)


class Node:
    """One step of the backward pass. Subclasses implement ``apply(*grad_outputs)``.

    ``grad_outputs`` holds one gradient per output of the forward op; ``apply`` returns one gradient
    per input (per entry of ``next_functions``), ``None`` where there is none.
    """

    # Defaults live on the class, so creating a node (once per op) sets only what it uses.
    next_functions = ()
    _seq_nr = 0
    _saved = ()                # SavedTensor objects, dropped by release_variables()
    _released = False
    _hooks = None              # register_hook: fn(grad_inputs, grad_outputs)
    _pre_hooks = None          # register_prehook: fn(grad_outputs)
    _tensor_pre_hooks = None   # output_nr -> HookDict of Tensor.register_hook hooks on that output
    _retain_grad = None        # output_nr -> weakref of the tensor that called retain_grad()
    _output_meta = ()          # (shape, numpy dtype, device) of each output: to make zero gradients
    _input_meta = ()           # (shape, numpy dtype, device) of each input edge: to check returned gradients
    _anomaly_trace = None      # the forward stack, recorded in anomaly mode
    materialize_grads = True   # turn a missing output gradient into zeros before apply()
    _saved_self = _SavedByName()      # what backward saved, by PyTorch's names (``_saved_by_name``)
    _saved_other = _SavedByName()
    _saved_result = _SavedByName()

    def __init__(self):
        self._seq_nr = next(_sequence)

    # build: stage 4
    def name(self):
        """The node's name, as PyTorch prints it: its class's name. A Function's node class is made
        when the Function is defined, named after the op (``MulBackward0``) or the Function
        (``SquareBackward``), so ``(a * b).grad_fn.name()`` is ``'MulBackward0'``."""
        return type(self).__name__
    # build: end

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def apply(self, *grad_outputs):
        raise NotImplementedError

    def __call__(self, *grad_outputs):
        return self.apply(*grad_outputs)

    def _sequence_nr(self):
        """When the node was recorded: the engine runs ready nodes newest first."""
        return self._seq_nr

    @property
    def metadata(self):
        """A dict for your own notes about this node (PyTorch's ``node.metadata``)."""
        if "_metadata" not in self.__dict__:
            self._metadata = {}
        return self._metadata

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = HookDict()
        return add_hook(self._hooks, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = HookDict()
        return add_hook(self._pre_hooks, fn)

    @property
    def saved_tensor_shapes(self):
        """Shapes of what this node keeps for backward (empty once released)."""
        return [None if s is None else s.tensor._shape if s.tensor is not None else s.packed.shape
                for s in self._saved]

    def release_variables(self):
        """Drop the tensors saved for backward, so their memory is returned now. What stood in each
        place is remembered (``_saved_kinds``), for the error a later ``_saved_self`` access raises."""
        if self._saved:
            self._saved_kinds = _kinds_of(self._saved)
            self._saved = ()
        self._released = True

    def _saved_by_name(self, name):
        """``grad_fn._saved_self`` / ``_saved_other`` / ``_saved_result``: a saved tensor, or PyTorch's
        error once backward has freed it."""
        kinds = self.__dict__.get("_saved_kinds", ()) if self._released else _kinds_of(self._saved)
        place = _names_of_saved(kinds).get(name)
        if place is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        if self._released:
            raise RuntimeError(SECOND_BACKWARD)
        return self._saved[place].unpack()


def _kinds_of(saved):
    """For each place of a node's saved tensors: None (nothing saved there), "result" (the op's output)
    or "input"."""
    kinds = []
    for s in saved:
        kinds.append(None if s is None else "result" if s.node is not None else "input")
    return tuple(kinds)


def _names_of_saved(kinds):
    """PyTorch's names for what a node saved, {name: place}: the op's output is ``_saved_result``;
    inputs saved in the first two places (``None`` holds the place of one not needed) are
    ``_saved_self`` and ``_saved_other`` -- the names of PyTorch's one- and two-input ops."""
    names = {}
    for place, kind in enumerate(kinds):
        if kind == "result":
            names.setdefault("_saved_result", place)
        elif kind == "input" and place < 2:
            names[("_saved_self", "_saved_other")[place]] = place
    return names


class AccumulateGrad(Node):
    """The node behind a leaf that requires grad: it adds the incoming gradient into ``leaf.grad``.

    A leaf has one AccumulateGrad for as long as any graph uses it (the leaf keeps only a weak
    reference), so every graph built from ``w`` ends in the very same node.
    """

    def __init__(self, variable):
        self._seq_nr = next(_sequence)  # Node.__init__, written out: a leaf makes one per graph that uses it
        self.variable = variable

    # build: stage 4
    def name(self):
        """PyTorch's name for this node, which its C++ code gives with its namespace."""
        return "torch::autograd::AccumulateGrad"
    # build: end

    def apply(self, grad, unshared=False):
        """``variable.grad += grad``, then the variable's post-accumulate hooks. ``unshared``: the
        engine says nothing but itself holds ``grad``, so a first gradient may become ``.grad``
        without a copy."""
        variable = self.variable
        accumulate_into(variable, grad, unshared)
        hooks = variable._post_accumulate_hooks
        for hook in list(hooks.values()) if hooks else ():
            hook(variable)
        return ()


def accumulate_into(variable, grad, unshared=False):
    """``variable.grad += grad``, PyTorch-style.

    The first gradient is taken over as it is when nobody else can see it (``unshared``: the engine
    checked) and it has the variable's layout -- a view is detached first, as PyTorch's
    ``new_grad.detach()``, so ``.grad`` is no view --, otherwise copied into that layout. Later ones
    are added in place -- or, when building a graph of the backward pass (``create_graph=True``), out
    of place, so that ``.grad`` has a history.
    """
    old = variable._grad
    if old is None:
        if (unshared and not grad_mode._State.enabled and not grad._requires_grad
                and (grad._stride == variable._stride or grad._stride == _layout_for(variable))):
            # (a gradient that covers its whole storage has dense strides: equal ones obey the layout)
            variable._grad = grad if grad._base is None else _detached(grad)
        else:
            variable._grad = _copy_with_layout(grad, variable)
    elif grad_mode._State.enabled:
        variable._grad = old + grad
    else:
        old._array += grad._array
        old._bump_version()


def _detached(t):
    """``t.detach()``: the same memory and version counter, no ``_base``, no history."""
    alias = t._same_view()
    alias._base = None
    return alias


def reset_grad(variable, set_to_none=True):
    """Forget ``variable.grad`` before the next backward: drop it (default), or zero it in place
    (detached first, so the zeros have no history). Used by ``Module.zero_grad`` and
    ``Optimizer.zero_grad``."""
    grad = variable._grad
    if grad is None:
        return
    if set_to_none:
        variable._grad = None
        return
    if grad.grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    grad.zero_()


def _layout_for(like):
    """The strides a gradient of ``like`` should have: ``like``'s own if it is dense, else contiguous."""
    contiguous = _t._contiguous_strides(like._shape)
    return like._stride if like._stride != contiguous and _is_dense(like) else contiguous


def _copy_with_layout(grad, like):
    """A copy of ``grad`` with ``like``'s layout (recorded as CopyBackwards when grad mode is on)."""
    from ..ops.creation import empty_strided
    strides = _layout_for(like)
    recording = grad_mode._State.enabled and grad._requires_grad
    if not recording and strides == _t._contiguous_strides(like._shape):
        return _t.Tensor._from_array(grad._array.copy(order="C"), grad.device)  # the common case
    out = empty_strided(like._shape, strides, dtype=grad.dtype, device=grad.device)
    if recording:
        return out.copy_(grad)
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


# -- edges -------------------------------------------------------------------------------------------
# build: stage 4
def gradient_edge(t):
    """Where a gradient for ``t`` must go: ``(grad_fn, output_nr)``, or ``(AccumulateGrad, 0)`` for a
    leaf that requires grad, or None when ``t`` needs no gradient. (A view whose base was modified in
    place since its history was recorded first gets a fresh one: ``refresh_view``, course/08.)"""
    if t._view_version is not None and t._view_version != t._version_counter.value:
        from .inplace import refresh_view
        refresh_view(t)  # a view whose base was modified in place since its history was made
    if t._grad_fn is not None:
        return (t._grad_fn, t._output_nr)
    if t._requires_grad:
        return (grad_accumulator(t), 0)
    return None


def grad_accumulator(t):
    """The leaf's AccumulateGrad node -- the same one for every graph, while someone holds it. The leaf
    keeps only a weak reference to it (``t._grad_accumulator``), so that it does not keep it alive."""
    acc = t._grad_accumulator() if t._grad_accumulator is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._grad_accumulator = weakref.ref(acc)
    return acc
# build: end


# -- saved tensors ----------------------------------------------------------------------------------
class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    Unpacking checks the version: if an in-place op changed the tensor since, the gradient would be
    wrong, so backward raises instead. A node's saved *output* is kept without its ``grad_fn`` (that
    would be the node itself: a reference cycle) and gets it back when unpacked.
    See course/08_inplace_and_versions.
    """

    # Inside ``saved_tensors_hooks`` (autograd/saved_hooks.py) the pack hook's result is kept in ``packed``
    # and ``tensor`` is None: there is no tensor to version-check, as in PyTorch.
    __slots__ = ("tensor", "version", "output_nr", "node", "packed")

    def __init__(self, tensor, is_output_of=None):
        if _hook_stack:   # a saved_tensors_hooks block is active (with none, saving pays this one ``if``)
            _saved_hooks.pack(self, tensor, is_output_of)
            return
        self.output_nr = tensor._output_nr
        self.node = None
        if is_output_of is not None:
            tensor = _alias_without_history(tensor)
            self.node = weakref.ref(is_output_of)
        self.tensor = tensor
        self.version = tensor._version_counter.value

    @property
    def is_output(self):
        return self.node is not None

    def unpack(self):
        t = self.tensor
        if t is None:
            return _saved_hooks.unpack(self)
        if t._version_counter.value != self.version:
            raise RuntimeError(self._modified_message())
        if self.node is None:
            return t
        restored = _alias_without_history(t)
        restored._grad_fn, restored._output_nr = self.node(), self.output_nr
        tangents = t.__dict__.get("_fw_grads")
        if tangents:  # forward-mode AD (forward_ad.py): the output keeps its tangents
            restored.__dict__["_fw_grads"] = tangents
        return restored

    def _modified_message(self):
        t = self.tensor
        if self.node is not None:
            producer, output_nr = self.node(), self.output_nr
        else:  # an input: name whatever made it, as it is now
            producer, output_nr = t._grad_fn, t._output_nr
        origin = f", which is output {output_nr} of {_forward_name(producer)}," if producer is not None else ""
        return ("one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [{_legacy_name(t)}]{origin} is at version {t._version_counter.value}; "
                f"expected version {self.version} instead. Hint: enable anomaly detection to find the "
                "operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")


def _alias_without_history(t):
    """Same memory, same version counter, same requires_grad -- but no grad_fn."""
    alias = t._alias()
    if t._requires_grad:
        alias._requires_grad = True
    return alias


def _forward_name(node):
    """``ExpBackward0`` -> ``Exp``: the forward op's name, as PyTorch's version error says it."""
    name = node.name()
    for suffix in ("Backward0", "Backward1", "Backward2", "Backward"):
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return name


def _legacy_name(t):
    prefix = "torch.cuda." if t.device.type == "cuda" else "torch."
    return f"{prefix}{t.dtype._legacy} [{', '.join(map(str, t._shape))}]"
