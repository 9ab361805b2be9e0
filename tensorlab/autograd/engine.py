"""The engine: runs the backward graph once, in dependency order, with no recursion.

1. Walk the graph from the roots and count, for every node, how many edges lead into it.
2. Give the roots their starting gradients. A node is *ready* when every edge into it has delivered
   its gradient (its count reached zero); ready nodes wait in a queue, newest node first.
3. Pop a node, run its ``apply`` on the summed gradients, send each result along its edge (summing
   into the receiver's buffer), free the node's saved tensors unless ``retain_graph``; repeat.

An observer can watch every step (``trace_backward``); that is how the graph widget animates a real
backward pass. With no observer the cost is one ``if`` per step. See course/06_the_backward_graph.
"""
import contextlib
import heapq
import itertools

from .. import tensor as _t
from . import anomaly_mode, grad_mode
from .graph import AccumulateGrad, Node, gradient_edge, tensor_pre_hooks

_observers = []


@contextlib.contextmanager
def trace_backward(callback):
    """Call ``callback(event)`` for every step of every backward pass inside the block.

    Each event is a dict with a ``"kind"``: ``graph`` (dependency counts), ``ready`` (a node joined the
    queue), ``run`` (a node starts, with the gradients it received), ``send`` (a gradient travels
    along an edge), ``accumulate`` (a leaf's ``.grad`` is written), ``hook``, ``release`` (saved
    tensors freed) and ``done``.
    """
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
    """Backpropagate ``grad_roots`` from ``roots``. Returns the gradients of ``inputs`` when
    ``accumulate`` is False (``autograd.grad``); otherwise writes leaf ``.grad`` fields."""
    edges = []
    for i, (t, g) in enumerate(zip(roots, grad_roots)):
        edge = gradient_edge(t)
        if edge is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(edge)
    root = GraphRoot(edges, grad_roots)
    dependencies, order = _count_dependencies(root)

    targets = {}  # node -> [(slot, index into inputs)]
    if inputs is not None:
        for k, t in enumerate(inputs):
            edge = gradient_edge(t)
            if edge is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            targets.setdefault(edge[0], []).append((edge[1], k))
    visit, execute = _plan(order, targets, accumulate)
    captured = [None] * (len(inputs) if inputs is not None else 0)

    observed = bool(_observers)
    if observed:
        _emit("graph", root=root, dependencies=dict(dependencies), order=list(order))
    buffers = {}
    ready = [(0, 0, root)]
    tiebreak = itertools.count(1)
    previous_mode = grad_mode._State.enabled
    grad_mode._State.enabled = create_graph
    try:
        while ready:
            _, _, node = heapq.heappop(ready)
            grads = [None] if node is root else buffers.pop(node, None) or [None] * _n_outputs(node)
            grads = _run_tensor_hooks(node, grads, observed)
            for slot, k in targets.get(node, ()):
                captured[k] = grads[slot]
            if node is root:
                outputs = root.apply()
            elif not execute(node) or all(g is None for g in grads):
                outputs = None
            else:
                outputs = _run_node(node, grads, observed)
                if not retain_graph:
                    node.release_variables()
                    if observed:
                        _emit("release", node=node)
            for (nxt, nr), grad in zip(node.next_functions, outputs or ()):
                if nxt is None:
                    continue
                if grad is not None:
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * _n_outputs(nxt)
                    buf[nr] = grad if buf[nr] is None else buf[nr] + grad
                    if observed:
                        _emit("send", node=node, to=nxt, input_nr=nr, grad=grad)
            for nxt, _ in node.next_functions:
                if nxt is None:
                    continue
                dependencies[nxt] -= 1
                if dependencies[nxt] == 0 and visit(nxt):
                    priority = float("-inf") if isinstance(nxt, AccumulateGrad) else -nxt._sequence_nr
                    heapq.heappush(ready, (priority, next(tiebreak), nxt))
                    if observed:
                        _emit("ready", node=nxt, queue=[n for _, _, n in sorted(ready)])
    finally:
        grad_mode._State.enabled = previous_mode
        if observed:
            _emit("done")
    return captured


def _count_dependencies(root):
    """How many edges lead into each node reachable from ``root``; also a parents-first order."""
    dependencies, seen, order, stack = {}, {root}, [], [root]
    while stack:
        node = stack.pop()
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            dependencies[nxt] = dependencies.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return dependencies, order


def _plan(order, targets, accumulate):
    """Which nodes to visit and which to run. Without targets: all of them. With targets
    (``autograd.grad`` or ``backward(inputs=...)``): only nodes on a path to a target."""
    if not targets:
        return (lambda n: True), (lambda n: True)
    # a node is needed if it is a target or leads to one; children are finished before parents
    needed = {}
    for node in _children_first(order):
        needed[node] = node in targets or any(needed.get(n, False) for n, _ in node.next_functions
                                               if n is not None)
    leads_on = {n for n in needed if any(needed.get(c, False) for c, _ in n.next_functions if c is not None)}

    def execute(node):
        if isinstance(node, AccumulateGrad):
            return accumulate and node in targets
        return node in leads_on
    return (lambda n: needed.get(n, False)), execute


def _children_first(order):
    """Reverse topological order (every node after all nodes it points to)."""
    post, state = [], {}
    for start in order:
        if start in state:
            continue
        stack = [(start, iter(start.next_functions))]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            for child, _ in children:
                if child is not None and child not in state:
                    state[child] = 1
                    stack.append((child, iter(child.next_functions)))
                    break
            else:
                stack.pop()
                post.append(node)
    return post


def _n_outputs(node):
    return max(len(node._output_meta), 1)


def _run_tensor_hooks(node, grads, observed):
    """Hooks registered on tensors (``t.register_hook``) and ``retain_grad`` see each gradient first."""
    if not node._tensor_pre_hooks and not node._retain_grad and not isinstance(node, AccumulateGrad):
        return grads
    grads = list(grads)
    for slot, grad in enumerate(grads):
        if grad is None:
            continue
        for hook in tensor_pre_hooks(node, slot):
            result = hook(grad)
            if observed:
                _emit("hook", node=node, slot=slot, hook=hook, grad=grad, result=result)
            if result is not None:
                grad = result
        ref = node._retain_grad.get(slot) if node._retain_grad else None
        tensor = ref() if ref is not None else None
        if tensor is not None and tensor._grad_fn is node:
            tensor._grad = grad.clone() if tensor._grad is None else tensor._grad + grad
        grads[slot] = grad
    return grads


def _run_node(node, grads, observed):
    for hook in list(node._pre_hooks.values()) if node._pre_hooks else ():
        result = hook(tuple(grads))
        if result is not None:
            grads = list(result)
    if observed:
        _emit("run", node=node, grads=tuple(grads))
    if node.materialize_grads if hasattr(node, "materialize_grads") else True:
        grads = _materialize(node, grads)
    try:
        outputs = node.apply(*grads)
    except Exception as error:
        if anomaly_mode._enabled and node._anomaly_trace:
            raise type(error)(f"{error}\n\nError detected in {node.name()}. Traceback of forward call that "
                              f"caused the error:\n{node._anomaly_trace}") from error
        raise
    outputs = _validate(node, outputs)
    for hook in list(node._hooks.values()) if node._hooks else ():
        result = hook(outputs, tuple(grads))
        if result is not None:
            outputs = tuple(result)
    if observed and isinstance(node, AccumulateGrad):
        _emit("accumulate", node=node, variable=node.variable, grad=grads[0])
    return outputs


def _materialize(node, grads):
    if all(g is not None for g in grads):
        return grads
    from ..ops.creation import zeros
    return [zeros(meta[0], dtype=meta[1], device=meta[2]) if g is None and meta is not None else g
            for g, meta in zip(grads, node._output_meta or [None] * len(grads))]


def _validate(node, outputs):
    """Check each returned gradient against its input: same shape (or summable to it), same dtype."""
    if isinstance(node, AccumulateGrad):
        return ()
    outputs = tuple(outputs)
    if len(outputs) != len(node.next_functions):
        raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients (expected "
                           f"{len(node.next_functions)}, got {len(outputs)})")
    meta = getattr(node, "_input_meta", ())
    if not meta:
        return outputs
    fixed = []
    for i, (grad, m) in enumerate(zip(outputs, meta)):
        if m is None:  # an edge for a Python scalar: it never receives a gradient
            fixed.append(None)
            continue
        shape, np_dtype = m
        if grad is not None and not isinstance(grad, _t.Tensor):
            raise TypeError(f"expected Tensor or None as the gradient at index {i} of {node.name()}, got "
                            f"{type(grad).__name__}")
        if grad is not None and grad._shape != shape:
            try:
                grad = grad.sum_to_size(shape)
            except RuntimeError:
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"[{', '.join(map(str, grad._shape))}] but expected shape compatible with "
                    f"[{', '.join(map(str, shape))}]") from None
        if grad is not None and grad._array.dtype != np_dtype:
            from .. import _dtype
            grad = grad.to(_dtype.from_numpy_dtype(np_dtype))
        fixed.append(grad)
    return tuple(fixed)
