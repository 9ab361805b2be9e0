"""autograd.Function: how every differentiable operation -- built-in or yours -- joins the graph.

A Function has two static methods: ``forward(ctx, *inputs)`` computes the result (with recording
switched off), ``backward(ctx, *grad_outputs)`` returns one gradient per input. ``Function.apply``
runs forward and, if any input requires grad, records a node that will call backward. The node *is*
the ``ctx``: what forward saves on it, backward finds there.

    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return 2 * x * grad

    y = Square.apply(x)        # y.grad_fn is a SquareBackward node

tensorlab's own ops (``mul``, ``exp``, ``view``...) are written exactly this way -- see
tensorlab/ops/elementwise.py: ``(a * b).grad_fn`` is a ``MulBackward0``, a BackwardFunction just like
``SquareBackward``. See course/09_custom_functions.
"""
import contextlib
import functools
import traceback

from .. import tensor as _t
from . import anomaly_mode, grad_mode
from .graph import SECOND_BACKWARD, Node, SavedTensor, _sequence, gradient_edge


_GradState = grad_mode._State   # read once per op: kept as a module global for speed
_forward_observers = []         # callbacks of trace_forward: the graph being built
_op_layers = []                 # OpLayers that see every op (outermost first); empty, an op pays one ``if``


@contextlib.contextmanager
def trace_forward(callback):
    """Call ``callback(event)`` each time a node joins the graph inside the block -- watch a dynamic
    graph grow op by op (``trace_backward`` in engine.py watches it run backwards). Each event is a
    dict: ``kind`` "record"; ``node``, the new node; ``inputs``, the arguments of the op; ``outputs``,
    a tuple of its results (an in-place op on a view gives its output a ``CopySlices`` grad_fn: read
    ``outputs[i].grad_fn`` for the node the output now points to). An unobserved op pays one ``if``.

        >>> import tensorlab as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> events = []
        >>> with trace_forward(events.append):
        ...     y = (x * 2).exp().sum()
        >>> [e["node"].name() for e in events]
        ['MulBackward0', 'ExpBackward0', 'SumBackward0']

    See course/07_the_backward_graph.
    """
    _forward_observers.append(callback)
    try:
        yield
    finally:
        _forward_observers.remove(callback)


class BackwardFunction(Node):
    """The node (and ctx) of one call of a Function: named ``<Function>Backward``."""

    _forward_cls = None
    # True for tensorlab's own ops, which act like PyTorch's C++ nodes: their repr has no module path,
    # and the engine skips them when no gradient at all arrives (a custom Function still runs).
    _builtin = False
    _args = ()                    # the arguments of an unrecorded call (for needs_input_grad only)
    _needs_input_grad = None      # made by needs_input_grad when first asked
    _recorded = False             # True once Function.apply has decided to record this call
    _to_save = ()
    _dirty = ()
    _non_differentiable = ()
    _tensor_positions = ()        # which forward arguments have an edge in next_functions
    _n_args = 0
    _in_jvp = False               # True while forward-mode AD runs the Function's jvp
    _saved_for_forward = ()

    def __repr__(self):
        if self._builtin:
            return super().__repr__()
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    @property
    def needs_input_grad(self):
        """One bool per forward argument: does it require grad? (As in PyTorch, also inside
        ``no_grad()``, where nothing is recorded.) Worked out once, the first time forward or backward
        asks: a recorded call reads it off its edges, an unrecorded one off its arguments."""
        needs = self._needs_input_grad
        if needs is None:
            if self._recorded:
                flags = [False] * self._n_args
                for position, (fn, _) in zip(self._tensor_positions, self.next_functions):
                    flags[position] = fn is not None  # an input that requires grad always has a node
            else:
                flags = [isinstance(a, _t.Tensor) and a._requires_grad for a in self._args]
            needs = self._needs_input_grad = tuple(flags)
        return needs

    @property
    def input_shapes(self):
        """Shapes of the inputs this node was recorded with, in order (``()`` for a Python scalar).

        Recorded by ``Function.apply`` only when a graph is built, so forward need not compute them.
        """
        return tuple(m[0] if m is not None else () for m in self._input_meta)

    # -- the ctx API used inside forward ----------------------------------------------------
    def save_for_backward(self, *tensors):
        """Keep these tensors (inputs or outputs) for backward; they are version-checked on use."""
        self._to_save = tensors

    @property
    def saved_tensors(self):
        """The tensors given to ``save_for_backward``, checked against in-place changes since.
        (Inside ``jvp``: the tensors given to ``save_for_forward``.)"""
        if self._in_jvp:
            return self._saved_for_forward
        if self._released:
            raise RuntimeError(SECOND_BACKWARD)
        return tuple([s.unpack() if s is not None else None for s in self._saved])

    def save_for_forward(self, *tensors):
        """Keep these tensors for ``jvp`` (forward-mode AD), where ``saved_tensors`` returns them."""
        self._saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        """Declare inputs that forward modified in place (their version is bumped, history rebased)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        """Declare outputs that have no gradient (like indices): they will not require grad."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """When False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = bool(value)

    # -- the Node API used by the engine ---------------------------------------------------
    def apply(self, *grad_outputs):
        """Call the Function's backward; keep the gradients of the arguments that have an edge."""
        grads = self._forward_cls.backward(self, *grad_outputs)
        if type(grads) is not tuple:
            grads = (grads,)
        n_args = self._n_args
        if len(grads) != n_args:
            if len(grads) > n_args and all(g is None for g in grads[n_args:]):
                grads = grads[:n_args]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                                   f"(expected {n_args}, got {len(grads)})")
        positions = self._tensor_positions
        if len(positions) == n_args:
            return grads
        if not self._builtin:
            self._check_no_gradient_for_non_tensors(grads)
        return [grads[i] for i in positions]

    def _check_no_gradient_for_non_tensors(self, grads):
        positions = self._tensor_positions
        for i, g in enumerate(grads):
            if g is not None and i not in positions:
                raise RuntimeError(f"function {self.name()} returned a gradient different than None at "
                                   f"position {i + 1}, but the corresponding forward input was not a "
                                   "Variable")


class Function:
    """Subclass with static ``forward`` and ``backward``; call with ``MyFunction.apply(...)``."""

    node_name = None  # built-ins set PyTorch's name, e.g. "MulBackward0"
    # Positions of arguments that get an edge even when given a Python number. PyTorch turns the
    # scalar in ``x * 2`` into a tensor, so MulBackward0 shows ``(None, 0)`` for it; so do we.
    scalar_edges = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        builtin = cls.__module__.startswith("tensorlab.")
        cls._backward_cls = type(name, (BackwardFunction,), {
            "_forward_cls": cls, "_builtin": builtin, "__module__": cls.__module__})
        # new-style Functions define forward(*args) plus setup_context(ctx, inputs, output)
        cls._uses_setup_context = any("setup_context" in k.__dict__ for k in cls.__mro__
                                      if k is not Function and k is not object)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. "
                           "Please use new-style autograd function with static forward method. "
                           "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *tangents):
        """Forward-mode AD: one tangent per forward argument in, one per output out (``J t``).
        See tensorlab/autograd/forward_ad.py."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` with recording off; if an input requires grad, record the node."""
        if _op_layers:
            return _apply_through_layers(cls, args, kwargs, tuple(_op_layers))
        _Tensor = _t.Tensor
        node = object.__new__(cls._backward_cls)  # the ctx; it gets a sequence number only if recorded
        state = _GradState
        previous = state.enabled
        needs = False
        if previous:
            for a in args:
                if isinstance(a, _Tensor) and a._requires_grad:
                    needs = True
                    break
        if not needs and not cls._uses_setup_context:
            # Nothing will be recorded: no input requires grad, so no op inside forward can record
            # either, and grad mode need not be switched. (The common case in evaluation and updates.)
            node._args = args
            outputs = cls.forward(node, *args, **kwargs)
            if node._dirty:
                _mark_dirty_outputs(node, outputs)
            return outputs
        if needs:
            _connect_inputs(node, args)  # before forward, so forward can read ctx.needs_input_grad
            if anomaly_mode._enabled:
                node._anomaly_trace = "".join(traceback.format_stack()[:-1])
        else:
            node._args = args
        state.enabled = False
        try:
            if cls._uses_setup_context:
                outputs = cls.forward(*args, **kwargs)
                cls.setup_context(node, args, outputs)
            else:
                outputs = cls.forward(node, *args, **kwargs)
        finally:
            state.enabled = previous
        if node._dirty:
            _mark_dirty_outputs(node, outputs)
        if needs:
            outputs = _connect_outputs(node, args, outputs)
            if _forward_observers:
                event = {"kind": "record", "node": node, "inputs": args,
                         "outputs": outputs if isinstance(outputs, tuple) else (outputs,)}
                for observer in list(_forward_observers):
                    observer(event)
        return outputs


class OpLayer:
    """Something that sees every op as it is called: forward-mode AD, a vmap level, a dispatch mode.

    Push one with ``push_op_layer`` (or ``with op_layer(layer):``). Each op call then goes through
    ``layer.handle(cls, args, kwargs, proceed)``, where ``cls`` is the op's Function class (``Mul``...)
    and ``proceed(args, kwargs)`` runs the op through the layers below and finally the plain
    ``Function.apply`` (which records the graph as usual). While a layer's ``handle`` runs, that layer
    and the ones above it are switched off, so the ops it calls itself reach only the layers below --
    as a PyTorch dispatch mode's own ops do not come back to it. The op's plain ``forward`` runs with
    no layer active.
    """

    def handle(self, cls, args, kwargs, proceed):
        return proceed(args, kwargs)

    def handle_inplace(self, target, result):
        """An in-place op has written ``result`` (its out-of-place result) into ``target``."""


def notify_inplace(target, result):
    """ops/inplace.py calls this, when a layer is active, after each in-place write."""
    for layer in _op_layers[::-1]:
        layer.handle_inplace(target, result)


def push_op_layer(layer):
    _op_layers.append(layer)


def pop_op_layer(layer):
    """Remove ``layer`` (the innermost one, normally)."""
    for i in range(len(_op_layers) - 1, -1, -1):
        if _op_layers[i] is layer:
            del _op_layers[i]
            return
    raise RuntimeError("pop_op_layer: this layer is not active")


@contextlib.contextmanager
def op_layer(layer):
    """``with op_layer(layer): ...`` -- ``layer`` sees every op called inside the block."""
    push_op_layer(layer)
    try:
        yield layer
    finally:
        pop_op_layer(layer)


def _apply_through_layers(cls, args, kwargs, layers):
    """The innermost active layer handles the op; its ``proceed`` goes on to the layers below it."""
    saved = _op_layers[:]
    if not layers:  # below the last layer: the plain op, with no layer active
        _op_layers.clear()
        try:
            return Function.apply.__func__(cls, *args, **kwargs)
        finally:
            _op_layers[:] = saved
    top, below = layers[-1], layers[:-1]
    _op_layers[:] = below
    try:
        return top.handle(cls, args, kwargs, lambda a, k: _apply_through_layers(cls, a, k, below))
    finally:
        _op_layers[:] = saved


def _mark_dirty_outputs(node, outputs):
    """Inputs modified in place must be returned; their version goes up (saved copies are now stale)."""
    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    for t in node._dirty:
        if not any(t is o for o in outs):
            raise RuntimeError("Some elements marked as dirty during the forward method were not returned "
                               "as output. The inputs that are modified inplace must all be outputs of the "
                               "Function.")
        t._bump_version()


_NO_EDGE = (None, 0)  # the edge of an input that needs no gradient


# build: stage 4
def _connect_inputs(node, args):
    """Give ``node`` a sequence number and one edge per input: where that input's gradient will go.

    Runs once per recorded op, before its forward (as PyTorch does), as one pass over the inputs.
    A tensor argument that requires grad gets its ``gradient_edge`` -- ``(its grad_fn, its output_nr)``,
    or ``(AccumulateGrad, 0)`` for a leaf --; a tensor that does not, ``(None, 0)``; so does a Python
    number at one of the op's ``scalar_edges`` (PyTorch wraps it in a tensor); any other argument gets
    no edge. The node keeps ``next_functions`` (the edges), ``_tensor_positions`` (the argument
    positions that have an edge), ``_input_meta`` (shape, array dtype and device of each tensor, None
    for a number), ``_n_args``, ``_seq_nr`` (the next number of ``_sequence``) and ``_recorded = True``."""
    Tensor = _t.Tensor
    scalar_edges = node._forward_cls.scalar_edges
    positions, edges, input_meta = [], [], []
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            if a._requires_grad:  # only an input that requires grad has somewhere for its gradient to go
                fn = a._grad_fn
                # the usual edge, (grad_fn, output_nr), written out; gradient_edge handles leaves and views
                edges.append((fn, a._output_nr) if fn is not None and a._view_version is None
                             else gradient_edge(a))
            else:
                edges.append(_NO_EDGE)
            input_meta.append((a._shape, a._array.dtype, a._device))
        elif i in scalar_edges and a is not None:
            edges.append(_NO_EDGE)  # a Python number PyTorch would wrap in a tensor
            input_meta.append(None)
        else:
            continue
        positions.append(i)
    node._seq_nr = next(_sequence)
    node._recorded = True
    node.next_functions = tuple(edges)
    node._tensor_positions = tuple(positions)
    node._input_meta = tuple(input_meta)
    node._n_args = len(args)
# build: end


def _connect_outputs(node, args, outputs):
    """Make ``node`` the grad_fn of the outputs and save what forward asked to keep for backward."""
    Tensor = _t.Tensor
    if (type(outputs) is Tensor and outputs._base is None and not node._dirty and not node._non_differentiable
            and not _is_one_of(outputs, args)):
        # The common case, written out: one fresh float result of an ordinary op (not a view, not an
        # input handed back, nothing modified in place or marked non-differentiable). It is what
        # ``_connect_output`` below does for such a result: the node becomes its history.
        meta = (outputs._shape, outputs._array.dtype, outputs._device)
        node._output_meta = (meta,)
        if meta[1].kind in "fc":
            outputs._grad_fn, outputs._output_nr, outputs._requires_grad = node, 0, True
        if node._to_save:  # (``_save`` for one output: the output itself is saved as an output, inputs as inputs)
            node._saved = tuple([SavedTensor(t, node if t is outputs else None) if t is not None else None
                                 for t in node._to_save])
            node._to_save = ()
        return outputs
    if isinstance(outputs, tuple):  # several outputs (a return_types tuple too)
        outs = outputs
        new_outs = tuple([_connect_output(node, nr, out, args) for nr, out in enumerate(outs)])
        # what the engine needs to make a zero gradient for an output that receives none
        node._output_meta = tuple([(o._shape, o._array.dtype, o._device) if isinstance(o, Tensor)
                                   else None for o in new_outs])
    else:  # one output: the same, without the loops
        outs = (outputs,)
        out = _connect_output(node, 0, outputs, args)
        new_outs = (out,)
        node._output_meta = ((out._shape, out._array.dtype, out._device) if isinstance(out, Tensor)
                             else None,)
    if node._to_save:
        node._saved = tuple([_save(node, t, outs, new_outs) for t in node._to_save])
        node._to_save = ()
    return new_outs if outs is outputs else new_outs[0]


def _connect_output(node, nr, out, args):
    """Make ``out`` the ``nr``-th output of ``node``: set its history (or rebase it, if modified in
    place). An input returned unchanged becomes a new view of it, so the input keeps its own history."""
    if not isinstance(out, _t.Tensor):
        return out
    dirty = node._dirty and _is_one_of(out, node._dirty)
    if not dirty and _is_one_of(out, args):
        out = out._same_view()
    if out._array.dtype.kind not in "fc" or (node._non_differentiable and _is_one_of(out, node._non_differentiable)):
        return out
    if dirty:
        _check_dirty_leaf(out)
        from .inplace import rebase_history
        rebase_history(out, node, nr)
        return out
    out._grad_fn, out._output_nr, out._requires_grad = node, nr, True
    if out._base is not None:  # a view: its history is valid for the base's current version
        out._view_version = out._version_counter.value
    return out


def _is_one_of(t, items):
    for item in items:
        if item is t:
            return True
    return False


def _save(node, t, outs, new_outs):
    if t is None:
        return None
    is_output = _is_one_of(t, new_outs) or _is_one_of(t, outs)
    return SavedTensor(t, is_output_of=node if is_output else None)


def _check_dirty_leaf(t):
    """A Function may not modify a leaf that requires grad: its ``.grad`` would silently be wrong."""
    if t._grad_fn is None and t._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")


# -- once_differentiable -----------------------------------------------------------------------------
class _DelayedError(Function):
    """Stands in the graph of a once-differentiable backward's results; differentiating it raises."""

    node_name = "Error"

    @staticmethod
    def forward(ctx, message, *grads):
        ctx.message = message
        return tuple(g.detach() if g is not None else None for g in grads)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(ctx.message)


def _error_node_name(self):
    return "torch::autograd::Error"  # a C++ node in PyTorch: its name carries the namespace


_DelayedError._backward_cls.name = _error_node_name


def once_differentiable(backward):
    """Mark a backward as not differentiable itself: it runs without recording, and trying to
    differentiate its result (``create_graph=True`` then a second backward) raises."""
    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = backward(ctx, *grads)
        if not grad_mode.is_grad_enabled() or not any(isinstance(g, _t.Tensor) and g._requires_grad
                                                       for g in grads):
            return outputs
        single = not isinstance(outputs, tuple)
        stand_ins = tuple(o.detach().requires_grad_() if isinstance(o, _t.Tensor) else o
                          for o in ((outputs,) if single else outputs))
        wrapped = _DelayedError.apply("trying to differentiate twice a function that was marked with "
                                      "@once_differentiable", *stand_ins)
        return wrapped[0] if single else wrapped
    return wrapper
