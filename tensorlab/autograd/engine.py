"""The engine: runs the backward graph once, in dependency order, with no recursion.

1. Walk the graph from the roots and count, for every node, how many edges lead into it.
2. Give the roots their starting gradients. A node is *ready* when every edge into it has delivered
   its gradient (its count reached zero). Ready nodes wait in a queue that hands out the most recently
   recorded node first (``AccumulateGrad`` nodes before all others), as PyTorch's engine does.
3. Pop a node, run its ``apply`` on the gradients summed in its input buffer, send each result along
   its edge (summing into the receiver's buffer), free the node's saved tensors unless
   ``retain_graph``; repeat until the queue is empty.

A node whose gradients are all missing is skipped (a custom Function still runs, on zeros).
With ``inputs`` (``autograd.grad`` and ``backward(inputs=...)``) only nodes on a path to an input run,
and the gradient arriving at each input is *captured* instead of being accumulated into ``.grad``.

Watching the engine: ``trace_backward(callback)``
-------------------------------------------------
Inside ``with trace_backward(callback):`` every backward pass calls ``callback(event)`` for each of
its steps -- the same code path as an unobserved backward (which pays one ``if`` per step). Each event
is a dict with a ``"kind"`` and these fields:

``graph``      the pass starts. ``root``: the GraphRoot node (its ``next_functions`` lead to the
               tensors backward was called on); ``dependencies``: {node: number of edges into it};
               ``nodes``: every reachable node once, the root first, in the order the walk found them.
``ready``      ``node`` joined the ready queue; ``queue``: the queued nodes, next to run first.
``run``        ``node`` is about to run; ``grads``: the gradients it received, one per output of its
               forward op (None where none arrived).
``send``       ``node`` sends ``grad`` along edge ``edge`` (an index into its ``next_functions``) to
               ``to``, as gradient number ``input_nr`` of that node; ``grad`` is None when nothing
               flows along that edge (the edge still counts as delivered). ``left``: how many edges
               into ``to`` have still to deliver (0: ``to`` is ready).
``capture``    ``grad`` arrived for ``inputs[index]`` (``autograd.grad`` returns it).
``accumulate`` an AccumulateGrad ``node`` wrote leaf ``variable``'s ``.grad``: ``grad`` is what it
               received, ``total`` the leaf's ``.grad`` afterwards.
``hook``       a hook ran. ``which``: "tensor" (``Tensor.register_hook``), "retain_grad", "pre"
               (``node.register_prehook``) or "post" (``node.register_hook``); ``node``; ``hook``;
               ``result`` (what it returned).
``release``    ``node`` freed its saved tensors; ``shapes``: the shapes of what it had saved.
``done``       the pass finished (also after an error).

See course/07_the_backward_graph.
"""
import contextlib
import heapq
import itertools
import sys
import warnings

from .. import tensor as _t
from .._torch_function import _State as _tf_state
from . import anomaly_mode, grad_mode
from .function import _op_layers
from . import hooks
from .graph import AccumulateGrad, Node, gradient_edge

_observers = []


@contextlib.contextmanager
def trace_backward(callback):
    """Call ``callback(event)`` for every step of every backward pass inside the block."""
    _observers.append(callback)
    try:
        yield
    finally:
        _observers.remove(callback)


def _emit(kind, **data):
    data["kind"] = kind
    for observer in list(_observers):
        observer(data)


class GraphRoot(Node):
    """The engine's start node: its edges lead to the roots, its 'outputs' are the root gradients."""

    def __init__(self, edges, grads):
        super().__init__()
        self.next_functions = tuple(edges)
        self._grads = tuple(grads)

    def apply(self):
        return self._grads


def run_backward(roots, grad_roots, retain_graph=False, create_graph=False, inputs=None,
                 accumulate=True):
    """Backpropagate ``grad_roots`` from ``roots`` (tensors). Writes leaf ``.grad`` fields when
    ``accumulate``; returns the gradients that arrived at ``inputs`` (None where none did)."""
    edges = []
    for i, t in enumerate(roots):
        edge = gradient_edge(t)
        if edge is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(edge)
    task = _Backward(GraphRoot(edges, grad_roots), inputs, accumulate, retain_graph)
    previous_mode = grad_mode._State.enabled
    grad_mode._State.enabled = create_graph  # with create_graph, backward itself is recorded
    try:
        task.run()
    finally:
        grad_mode._State.enabled = previous_mode
        if task.observed:
            _emit("done")
    return task.captured


class _Backward:
    """One backward pass: the dependency counts, input buffers and ready queue (PyTorch's GraphTask)."""

    def __init__(self, root, inputs, accumulate, retain_graph):
        self.root, self.retain_graph = root, retain_graph
        self.dependencies, nodes = _count_dependencies(root)
        self.targets = _capture_targets(inputs)
        self.visit = _nodes_to_visit(nodes, self.targets, accumulate) if self.targets else None
        self.captured = [None] * (len(inputs) if inputs else 0)
        self.buffers = {}                  # node -> gradients received so far, one per output
        self.ready = [(0, 0, root)]        # a heap of (priority, tie-break, node)
        self.tiebreak = itertools.count(1)
        self.observed = bool(_observers)
        if self.observed:
            _emit("graph", root=root, dependencies=dict(self.dependencies), nodes=list(nodes))

    def run(self):
        while self.ready:
            node = heapq.heappop(self.ready)[2]
            # (the outputs go straight to deliver: no variable keeps them alive while the next node
            # runs, so an AccumulateGrad can see that it alone holds its gradient)
            self.deliver(node, self.root.apply() if node is self.root else self.process(node))

    # build: stage 5
    def process(self, node):
        """The gradients that arrived at ``node`` go through its tensor hooks, are captured if it is a
        target, and -- if the node is needed -- through the node itself. Returns what it sends on.

        The node's input buffer, ``self.buffers[node]``, holds one gradient per output of its forward
        op (None where none arrived); it is taken out, not left behind. The node runs with
        ``_evaluate(node, grads, self.observed)`` (its pre- and post-hooks, ``apply``, checks); then,
        unless ``self.retain_graph``, it frees its saved tensors: ``_release(node, self.observed)``.
        Tensor hooks (``hooks.run_tensor_hooks``) and captures (``_capture``, for ``inputs=``) come
        first; ``self.visit``, when not None, says which nodes need to run at all."""
        grads = self.buffers.pop(node, None) or [None] * max(len(node._output_meta), 1)
        if hooks.has_tensor_hooks(node):
            grads = hooks.run_tensor_hooks(node, grads, _emit if self.observed else None)
        if node in self.targets:
            _capture(node, grads, self.targets[node], self.captured, self.observed)
        if self.visit is not None and not self.visit[node]:
            return ()
        outputs = _evaluate(node, grads, self.observed)
        if not self.retain_graph:
            _release(node, self.observed)
        return outputs

    def deliver(self, node, outputs):
        """Send each gradient along its edge, summing into the receiver's buffer; a receiver whose
        every incoming edge has now delivered is ready.

        Edge ``i`` of ``node.next_functions`` is ``(receiver, input_nr)``: ``outputs[i]`` goes into slot
        ``input_nr`` of the receiver's buffer (a list with one place per output of the receiver's op,
        ``max(len(receiver._output_meta), 1)``), added to what is there (``_add_gradients``). Every edge
        counts down ``self.dependencies[receiver]``, even one that carries None; at 0 the receiver
        is pushed, if ``self.visit`` (when not None) includes it. One tensor sent along two edges
        (``a + b`` passes its gradient to both) reaches the second as an alias (``_make_view``), so
        that no two leaves' ``.grad`` share memory. (With ``self.observed``, each send is reported:
        ``_emit("send", ...)``.)"""
        buffers, dependencies, visit = self.buffers, self.dependencies, self.visit
        n_outputs = len(outputs)
        sent = set()  # ids of the gradients sent so far
        for edge, (nxt, nr) in enumerate(node.next_functions):
            if nxt is None:
                continue
            grad = outputs[edge] if edge < n_outputs else None
            if grad is not None:
                if id(grad) in sent and not grad._requires_grad:
                    # one tensor for two edges (``a + b`` passes its gradient to both): the second
                    # receiver gets an alias, so an AccumulateGrad never keeps memory another owns
                    grad = grad._same_view()
                sent.add(id(grad))
                buf = buffers.get(nxt)
                if buf is None:
                    buf = buffers[nxt] = [None] * max(len(nxt._output_meta), 1)
                buf[nr] = grad if buf[nr] is None else _add_gradients(buf[nr], grad)
            left = dependencies[nxt] - 1
            dependencies[nxt] = left
            if self.observed:
                _emit("send", node=node, edge=edge, to=nxt, input_nr=nr, grad=grad, left=left)
            if left == 0 and (visit is None or nxt in visit):
                self.push(nxt)

    def push(self, node):
        """Queue a ready node: AccumulateGrad first (it finishes a leaf), then the newest node.

        ``self.ready`` is a heap of ``(priority, tie-break, node)`` -- the smallest comes out first, so
        the newest node (the highest ``_seq_nr``) gets the smallest priority; ``self.tiebreak``
        numbers the pushes. (With ``self.observed``: ``_emit("ready", node=..., queue=...)``.)"""
        priority = _FIRST if type(node) is AccumulateGrad else -node._seq_nr
        heapq.heappush(self.ready, (priority, next(self.tiebreak), node))
        if self.observed:
            _emit("ready", node=node, queue=[n for _, _, n in sorted(self.ready)])
    # build: end


_FIRST = float("-inf")  # the priority of an AccumulateGrad: before every other node


# build: stage 5
def _count_dependencies(root):
    """How many edges lead into each node reachable from ``root``; and those nodes (an iterative walk:
    a graph may be far deeper than Python's recursion limit)."""
    dependencies, seen, nodes, stack = {}, {root}, [], [root]
    while stack:
        node = stack.pop()
        nodes.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            dependencies[nxt] = dependencies.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return dependencies, nodes
# build: end


def _capture_targets(inputs):
    """{node: [(output slot, index into inputs)]}: where the gradient of each of ``inputs`` arrives."""
    targets = {}
    for k, t in enumerate(inputs or ()):
        edge = gradient_edge(t)
        if edge is None:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        targets.setdefault(edge[0], []).append((edge[1], k))
    return targets


def _capture(node, grads, slots, captured, observed):
    for slot, k in slots:
        captured[k] = grads[slot]
        if observed:
            _emit("capture", node=node, index=k, grad=grads[slot])


def _nodes_to_visit(nodes, targets, accumulate):
    """When only ``targets`` matter: {node: whether it runs} for the nodes worth visiting.

    A node runs if one of its edges leads to a target (directly or further down); a target is
    visited to capture its gradient, but runs only if it leads on to another target -- or if it
    is the AccumulateGrad of ``backward(inputs=...)``, which writes ``.grad``. Other nodes are
    never visited (their hooks do not fire)."""
    runs = {}
    for node in _children_first(nodes):
        runs[node] = any(nxt in targets or runs.get(nxt, False) for nxt, _ in node.next_functions
                         if nxt is not None)
    visit = {node: True for node, r in runs.items() if r}
    for node in targets:
        visit[node] = runs.get(node, False) or (accumulate and type(node) is AccumulateGrad)
    return visit


def _children_first(nodes):
    """The nodes ordered so that each comes after every node its edges lead to (iterative DFS)."""
    order, state = [], set()
    for start in nodes:
        if start in state:
            continue
        state.add(start)
        stack = [(start, iter(start.next_functions))]
        while stack:
            node, edges = stack[-1]
            for child, _ in edges:
                if child is not None and child not in state:
                    state.add(child)
                    stack.append((child, iter(child.next_functions)))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


def _evaluate(node, grads, observed):
    """Run one node: pre-hooks, ``apply`` (on zeros where a gradient is missing), checks, post-hooks."""
    emit = _emit if observed else None
    if node._pre_hooks:
        grads = hooks.run_pre_hooks(node, grads, emit)
    if observed:
        _emit("run", node=node, grads=tuple(grads))
    if isinstance(node, AccumulateGrad):
        grad = grads[0]
        if grad is None:
            return ()
        unshared = _only_the_engine_holds(grad)
        node.apply(grad, unshared)
        if observed:
            _emit("accumulate", node=node, variable=node.variable, grad=grads[0], total=node.variable._grad)
        return hooks.run_post_hooks(node, (), grads, emit) if node._hooks else ()
    missing = 0
    for g in grads:
        if g is None:
            missing += 1
    if missing == len(grads) and getattr(node, "_builtin", True):
        return ()  # nothing arrived: a built-in node has nothing to send
    if missing and node.materialize_grads:
        grads = _materialize(node, grads)
    try:
        outputs = node.apply(*grads)
    except Exception as error:
        _explain_anomaly(node, error)
        raise
    outputs = _validate(node, outputs)
    if anomaly_mode._enabled and anomaly_mode._check_nan:
        _check_nan(node, outputs)
    if node._hooks:
        outputs = hooks.run_post_hooks(node, outputs, grads, emit)
    return outputs


def _only_the_engine_holds(grad):
    """May an AccumulateGrad take ``grad`` over as ``.grad``, without a copy? PyTorch's test is the
    gradient's reference count (``use_count() <= 1``); this is the same test with Python's. Three
    references are the engine's own -- the node's input buffer, ``_evaluate``'s variable and this
    function's argument --; any more means a hook, an observer or a Function's ctx kept it. A view is
    taken over only if it covers all of its storage and its base is held by it alone (two gradients
    sent along two edges, ``a + b``, are one tensor and a view of it: the first leaf to come copies)."""
    if _references(grad) != 3:
        return False
    base = grad._base
    if base is None:
        return True
    return _references(base) == 2 and grad._array.size == grad._storage._flat.size  # view._base, ``base``


def _references(obj):
    """How many references to ``obj`` its caller sees, its own variable included."""
    return sys.getrefcount(obj) - _OWN_REFERENCES


def _own_references():
    """The references a call ``_references(x)`` adds itself: its argument and, through Python 3.13,
    ``sys.getrefcount``'s (measured once: a local variable is the one holder of ``probe``)."""
    probe = object()
    return _references(probe) - 1


_OWN_REFERENCES = 0
_OWN_REFERENCES = _own_references()


def arrays_suffice(grad):
    """May a backward formula compute on ``grad``'s array, skipping the tensor ops it is written in?
    Yes when no one could see those ops: no graph of the backward pass is being built
    (``create_graph``), no op layer (dispatch mode, forward AD, vmap) or ``TorchFunctionMode`` is
    active, and ``grad`` is a plain Tensor. A formula's fast path makes the same array calls as its
    tensor ops would, so the values are the same to the last bit (ops/linalg.py, ops/nn_loss.py)."""
    return (not grad_mode._State.enabled and not _op_layers and type(grad) is _t.Tensor
            and not (_tf_state.modes and _tf_state.enabled))


def _add_gradients(a, b):
    """Two gradients for the same place are summed. Outside ``create_graph`` nothing needs recording,
    so equal-shaped arrays are added directly (the op machinery would only add overhead)."""
    if (not grad_mode._State.enabled and a._shape == b._shape and a._array.dtype is b._array.dtype
            and a._device is b._device
            and not (a.__dict__.get("_fw_grads") or b.__dict__.get("_fw_grads"))):  # tangents: add as ops
        return _t.Tensor._from_array(a._array + b._array, a._device)
    return a + b


def _release(node, observed):
    if observed:
        shapes = node.saved_tensor_shapes
        node.release_variables()
        _emit("release", node=node, shapes=shapes)
    else:
        node.release_variables()


def _materialize(node, grads):
    """Zeros in place of missing gradients, shaped like the outputs they belong to."""
    from ..ops.creation import zeros
    from .. import _dtype
    meta = node._output_meta or (None,) * len(grads)
    return [zeros(m[0], dtype=_dtype.from_numpy_dtype(m[1]), device=m[2]) if g is None and m is not None
            else g for g, m in zip(grads, meta)]


def _validate(node, outputs):
    """One gradient per edge, each a Tensor (or None) shaped like its input -- a gradient of a
    broadcast shape is summed down to it, as PyTorch does -- of the input's dtype, and on its device
    (a 0-dim CPU input used with a cuda tensor gets its gradient back on the CPU)."""
    if len(outputs) != len(node.next_functions):
        raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients (expected "
                           f"{len(node.next_functions)}, got {len(outputs)})")
    meta = node._input_meta
    if not meta:
        return outputs
    fixed = None
    for i, grad in enumerate(outputs):
        if grad is None:
            continue
        m = meta[i]
        if (m is None or type(grad) is not _t.Tensor or grad._shape != m[0] or grad._array.dtype != m[1]
                or grad._device is not m[2]):
            if fixed is None:
                fixed = list(outputs)
            fixed[i] = _fix_gradient(node, i, grad, m)
    return outputs if fixed is None else fixed


def _fix_gradient(node, i, grad, meta):
    if meta is None:  # the edge of a Python scalar: it never receives a gradient
        return None
    if not isinstance(grad, _t.Tensor):
        raise RuntimeError(f"expected Variable or None (got {type(grad).__name__})")
    shape, np_dtype, device = meta
    if grad._shape != shape:
        grad = _reduce_to_shape(node, i, grad, shape)
    if grad._array.dtype != np_dtype:
        from .. import _dtype
        if grad._array.dtype.kind == "c" and np_dtype.kind != "c":
            grad = grad.real  # a real input of a complex op: the real part is its gradient (course/06)
        grad = grad.to(_dtype.from_numpy_dtype(np_dtype))
    if grad._device != device:
        if grad._shape != ():  # only a 0-dim gradient is moved, as in PyTorch's engine
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i} - "
                               f"expected device {device} but got {grad._device}")
        grad = grad.to(device)
    return grad


def _reduce_to_shape(node, i, grad, shape):
    try:
        return grad.sum_to_size(shape)
    except RuntimeError:
        raise RuntimeError(
            f"Function {node.name()} returned an invalid gradient at index {i} - got "
            f"[{', '.join(map(str, grad._shape))}] but expected shape compatible with "
            f"[{', '.join(map(str, shape))}]") from None


def _explain_anomaly(node, error):
    """In anomaly mode, say which forward call made the node whose backward failed (PyTorch warns
    with the forward traceback, then re-raises the error unchanged)."""
    if not anomaly_mode._enabled or not node._anomaly_trace:
        return
    text = (f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
            f"{node._anomaly_trace}")
    warnings.warn(text, UserWarning, stacklevel=2)
    error.add_note(text)


def _check_nan(node, outputs):
    for i, g in enumerate(outputs):
        if g is not None and g.dtype.is_floating_point and bool(g.isnan().any()):
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
