"""autograd.Function: how every differentiable operation -- built-in or yours -- joins the graph.

A Function has two static methods: ``forward(ctx, *inputs)`` computes the result (with recording
switched off), ``backward(ctx, *grad_outputs)`` returns one gradient per input. ``Function.apply``
runs forward and, if any input requires grad, records a node that will call backward. The node *is*
the ``ctx``: what forward saves on it, backward finds there. tensorlab's own ops (``mul``, ``exp``,
``view``...) are written exactly this way -- see tensorlab/ops/elementwise.py.
See course/08_custom_functions.
"""
import functools
import traceback

from .. import tensor as _t
from . import grad_mode
from .graph import SECOND_BACKWARD, Node, SavedTensor, _sequence, gradient_edge
from . import anomaly_mode


class _NoGrads(tuple):
    """``needs_input_grad`` when nothing is recorded: False for every argument."""

    def __getitem__(self, i):
        return False


_NO_GRADS = _NoGrads()


class BackwardFunction(Node):
    """The node (and ctx) of one call of a Function: named ``<Function>Backward``."""

    _forward_cls = None
    needs_input_grad = _NO_GRADS
    materialize_grads = True
    _to_save = ()
    _dirty = ()
    _non_differentiable = ()
    _tensor_positions = ()
    _input_meta = ()
    _n_args = 0

    @property
    def input_shapes(self):
        """Shapes of the inputs this node was recorded with (``()`` for a Python scalar)."""
        return tuple(m[0] if m is not None else () for m in self._input_meta)

    # -- the ctx API used inside forward ----------------------------------------------------
    def save_for_backward(self, *tensors):
        """Keep these tensors (inputs or outputs) for backward; they are version-checked on use."""
        self._to_save = tensors

    @property
    def saved_tensors(self):
        if self._released:
            raise RuntimeError(SECOND_BACKWARD)
        return tuple(s.unpack() if s is not None else None for s in self._saved)

    def mark_dirty(self, *tensors):
        """Declare inputs that forward modified in place (their version is bumped, history rebased)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """When False, backward may receive None for outputs that got no gradient."""
        self.materialize_grads = bool(value)

    # -- the Node API used by the engine ---------------------------------------------------
    def apply(self, *grad_outputs):
        grads = self._forward_cls.backward(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        if len(grads) != self._n_args:
            if len(grads) > self._n_args and all(g is None for g in grads[self._n_args:]):
                grads = grads[:self._n_args]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                                   f"(expected {self._n_args}, got {len(grads)})")
        return tuple(grads[i] for i in self._tensor_positions)


class Function:
    """Subclass with static ``forward`` and ``backward``; call with ``MyFunction.apply(...)``."""

    node_name = None  # built-ins set PyTorch's name, e.g. "MulBackward0"
    # Positions of arguments that get an edge even when given a Python number. PyTorch turns the
    # scalar in ``x * 2`` into a tensor, so MulBackward0 shows ``(None, 0)`` for it; so do we.
    scalar_edges = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        cls._backward_cls = type(name, (BackwardFunction,), {"_forward_cls": cls,
                                                              "__module__": cls.__module__})
        # new-style Functions define forward(*args) plus setup_context(ctx, inputs, output)
        cls._uses_setup_context = any("setup_context" in k.__dict__ for k in cls.__mro__
                                      if k is not Function and k is not object)

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` with recording off; if an input requires grad, record the node."""
        Tensor = _t.Tensor
        node = object.__new__(cls._backward_cls)  # the ctx; it gets a sequence number only if recorded
        previous = grad_mode._State.enabled
        needs = False
        if previous:
            for a in args:
                if isinstance(a, Tensor) and a._requires_grad:
                    needs = True
                    break
        if needs:
            node._sequence_nr = next(_sequence)
            node.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
            if anomaly_mode._enabled:
                node._anomaly_trace = "".join(traceback.format_stack()[:-1])
        grad_mode._State.enabled = False
        try:
            if cls._uses_setup_context:
                outputs = cls.forward(*args, **kwargs)
                cls.setup_context(node, args, outputs)
            else:
                outputs = cls.forward(node, *args, **kwargs)
        finally:
            grad_mode._State.enabled = previous
        for t in node._dirty:
            t._bump_version()
        if needs:
            positions = tuple(i for i, a in enumerate(args)
                              if isinstance(a, Tensor) or (i in cls.scalar_edges and a is not None))
            outputs = _record(node, args, positions, outputs)
        return outputs


def _record(node, args, positions, outputs):
    """Connect ``node`` into the graph: edges to the inputs, grad_fn on the outputs, saved tensors."""
    Tensor = _t.Tensor
    node.next_functions = tuple((isinstance(args[i], Tensor) and gradient_edge(args[i])) or (None, 0)
                                for i in positions)
    node._tensor_positions = positions
    node._n_args = len(args)
    node._input_meta = tuple((args[i]._shape, args[i]._array.dtype) if isinstance(args[i], Tensor) else None
                             for i in positions)
    single = not isinstance(outputs, tuple)
    outs = (outputs,) if single else outputs
    dirty = node._dirty
    new_outs = []
    for nr, out in enumerate(outs):
        if isinstance(out, Tensor):
            if any(out is a for a in args) and not any(out is d for d in dirty):
                out = out._make_view(out._offset, out._shape, out._stride)  # returned input: alias it
            if any(out is d for d in dirty):
                _check_inplace(out)
            if out._array.dtype.kind == "f" and not any(out is n for n in node._non_differentiable):
                _rebase_history(out, node, nr) if any(out is d for d in dirty) else _set_history(out, node, nr)
        new_outs.append(out)
    node._output_meta = tuple((o._shape, o.dtype, o.device) if isinstance(o, Tensor) else None
                              for o in new_outs)
    saved = []
    for t in node._to_save:
        if t is None:
            saved.append(None)
            continue
        s = SavedTensor(t)
        if any(t is o for o in new_outs) or any(t is o for o in outs):
            s.mark_output(node)
        saved.append(s)
    node._saved = tuple(saved)
    node._to_save = ()
    return new_outs[0] if single else tuple(new_outs)


def _set_history(out, node, nr):
    out._grad_fn, out._output_nr, out._requires_grad = node, nr, True


def _rebase_history(out, node, nr):
    """An input modified in place now carries the new node as its history."""
    if out._base is not None and (out._base._requires_grad or out._base._grad_fn is not None):
        from .inplace import rebase_view
        rebase_view(out, node, nr)
    else:
        _set_history(out, node, nr)


def _check_inplace(t):
    """PyTorch refuses in-place changes to leaves that require grad (their .grad would be wrong)."""
    if not grad_mode._State.enabled:
        return
    if t._grad_fn is None and t._requires_grad:
        if t._base is not None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                               "operation.")
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def once_differentiable(backward):
    """Mark a backward as not differentiable itself: it runs without recording."""
    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            return backward(ctx, *grads)
    return wrapper
