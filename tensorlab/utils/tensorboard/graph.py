"""A model's autograd graph as a TensorBoard ``GraphDef``, for ``SummaryWriter.add_graph``.

PyTorch draws the graph it gets from tracing the model with TorchScript. tensorlab shows the graph
you already know: run the model once, then walk ``grad_fn`` / ``next_functions`` back from the
output. Every backward Node becomes a graph node named after its class (``AddmmBackward0``...);
each edge points the way data flowed in the forward pass (from ``next_functions[i]`` to the node).
Leaves appear as well: the model's parameters (their ``AccumulateGrad`` nodes, named after the
parameter) and the inputs. When the model is an ``nn.Module``, each node is placed in the scope of
the innermost sub-module that was running when it was created -- TensorBoard folds scopes into
boxes you can open. See course/07_the_backward_graph.
"""
import contextlib

from ...autograd.graph import AccumulateGrad, Node

IO_OP = "IO Node"


def graph_def(model, inputs, verbose=False):
    """Run ``model(*inputs)`` with grad enabled and return ``(GraphDef, outputs)`` of its autograd graph."""
    from tensorboardX.proto.graph_pb2 import GraphDef
    from tensorboardX.proto.versions_pb2 import VersionDef
    from ... import enable_grad
    leaves = [_as_leaf(x) for x in inputs]
    root_scope = _root_scope(model)
    with enable_grad(), _record_scopes(model, root_scope) as spans:
        outputs = model(*leaves)
    outputs = _tensors_in(outputs)
    if not any(t.grad_fn is not None for t in outputs):
        raise RuntimeError("add_graph: the model's output has no grad_fn, so there is no graph to show. "
                           "Does the model run under no_grad, or use no parameter and no input that requires grad?")
    names = _NodeNames(root_scope, spans, _parameter_names(model), leaves)
    nodes = _all_nodes(t.grad_fn for t in outputs)
    node_defs = [_node_def(node, names) for node in nodes]
    for i, t in enumerate(outputs):
        if t.grad_fn is not None:
            node_defs.append(_make_node(f"output/output.{i}", IO_OP, [names.of(t.grad_fn)], [tuple(t.shape)]))
    if verbose:
        for n in node_defs:
            print(f"{n.name}  ({n.op})  <- {', '.join(n.input) or '-'}")
    return GraphDef(node=node_defs, versions=VersionDef(producer=22)), outputs


def _as_leaf(x):
    """A detached copy of an input that requires grad (if it can), so the input shows up in the graph."""
    from ...tensor import Tensor
    if not isinstance(x, Tensor):
        raise TypeError(f"add_graph: inputs must be tensors, got {type(x).__name__}")
    leaf = x.detach()
    return leaf.requires_grad_() if leaf.is_floating_point() else leaf


def _tensors_in(outputs):
    from ...tensor import Tensor
    if isinstance(outputs, Tensor):
        return [outputs]
    if isinstance(outputs, dict):
        outputs = list(outputs.values())
    if isinstance(outputs, (list, tuple)):
        return [t for t in outputs if isinstance(t, Tensor)]
    raise TypeError(f"add_graph: the model returned {type(outputs).__name__}, not a tensor or tuple of tensors")


def _all_nodes(roots):
    """Every node reachable from ``roots`` through ``next_functions``: leaves first, then the others in
    creation order -- which is forward order, so every node comes after the nodes that feed it."""
    seen, stack = {}, [r for r in roots if r is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
    return sorted(seen.values(), key=lambda n: (not isinstance(n, AccumulateGrad), n._sequence_nr()))


def _node_def(node, names):
    inputs = [names.of(nxt) for nxt, _ in node.next_functions if nxt is not None]
    if isinstance(node, AccumulateGrad):
        op = IO_OP if names.is_input(node.variable) else type(node).__name__
        shapes = [tuple(node.variable.shape)]
    else:
        op = type(node).__name__
        shapes = [tuple(meta[0]) for meta in node._output_meta]
    return _make_node(names.of(node), op, inputs, shapes)


def _make_node(name, op, inputs, shapes):
    """A NodeDef with TensorBoard's ``_output_shapes`` attribute (shown on edges and in the info card)."""
    from tensorboardX.proto.attr_value_pb2 import AttrValue
    from tensorboardX.proto.node_def_pb2 import NodeDef
    from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto
    shape_protos = [TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in shape]) for shape in shapes]
    attr = {"_output_shapes": AttrValue(list=AttrValue.ListValue(shape=shape_protos))}
    return NodeDef(name=name, op=op, input=inputs, attr=attr)


class _NodeNames:
    """Gives every node one unique, readable name: ``<scope>/<ClassName>[_k]``, parameters by name."""

    def __init__(self, root_scope, spans, parameter_names, inputs):
        self.root_scope, self.spans, self.parameter_names = root_scope, spans, parameter_names
        self.inputs = {id(t): i for i, t in enumerate(inputs)}
        self.names, self.used = {}, set()

    def is_input(self, tensor):
        return id(tensor) in self.inputs

    def of(self, node):
        if id(node) not in self.names:
            self.names[id(node)] = self._unique(self._base_name(node))
        return self.names[id(node)]

    def _base_name(self, node):
        if isinstance(node, AccumulateGrad):
            var = node.variable
            if id(var) in self.inputs:
                return f"input/input.{self.inputs[id(var)]}"
            if id(var) in self.parameter_names:
                return self.parameter_names[id(var)]
            return f"{self.root_scope}/leaf"
        return f"{self._scope_of(node)}/{type(node).__name__}"

    def _scope_of(self, node):
        """The innermost module running when the node was made: the narrowest span holding its number."""
        holding = [(end - start, scope) for start, end, scope in self.spans
                   if start < node._sequence_nr() < end]
        return min(holding)[1] if holding else self.root_scope

    def _unique(self, name):
        candidate, k = name, 0
        while candidate in self.used:
            k += 1
            candidate = f"{name}_{k}"
        self.used.add(candidate)
        return candidate


def _root_scope(model):
    return type(model).__name__ if hasattr(model, "named_modules") else getattr(model, "__name__", "model")


def _module_scopes(model, root_scope):
    """``{module path: scope}``: ``"layer1.0"`` -> ``"Net/Sequential[layer1]/BasicBlock[0]"``."""
    scopes = {"": root_scope}
    for path, module in model.named_modules():
        if path:
            parent = path.rpartition(".")[0]
            scopes[path] = f"{scopes[parent]}/{type(module).__name__}[{path.rpartition('.')[2]}]"
    return scopes


def _parameter_names(model):
    """``{id(parameter): "Net/Linear[fc]/weight"}`` for a Module; empty for a plain function."""
    if not hasattr(model, "named_parameters"):
        return {}
    scopes = _module_scopes(model, _root_scope(model))
    names = {}
    for full_name, param in model.named_parameters():
        path, _, attr = full_name.rpartition(".")
        names[id(param)] = f"{scopes[path]}/{attr}"
    return names


def _clock():
    """A number between those of the nodes made before and after this call: each Node takes the next."""
    return Node()._sequence_nr()


@contextlib.contextmanager
def _record_scopes(model, root_scope):
    """While the model runs, note each sub-module's span of node numbers: ``[(start, end, scope)]``."""
    spans = []
    if not hasattr(model, "named_modules"):
        yield spans
        return
    scopes = _module_scopes(model, root_scope)
    handles = []
    for path, module in model.named_modules():
        starts = []
        handles.append(module.register_forward_pre_hook(lambda m, args, starts=starts: starts.append(_clock())))
        handles.append(module.register_forward_hook(
            lambda m, args, out, starts=starts, scope=scopes[path]: spans.append((starts.pop(), _clock(), scope))))
    try:
        yield spans
    finally:
        for handle in handles:
            handle.remove()
