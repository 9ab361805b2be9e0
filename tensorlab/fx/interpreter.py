"""Interpreter and Transformer: run a GraphModule's graph one node at a time, in Python.

``Interpreter(gm).run(x)`` walks the nodes in order, keeping each node's value in ``env``; each kind of
node has a method (``placeholder``, ``get_attr``, ``call_function``, ``call_method``, ``call_module``,
``output``) that you can override to watch or change what happens -- e.g. record every intermediate
shape, or swap one function for another while running. ``run_node`` is the one place every node passes.

``Transformer`` is the same walk with Proxies instead of values: what the methods return is recorded into
a new graph, and ``transform()`` returns the new GraphModule. See course/26_graph_capture_fx.
"""
import inspect

from .graph import Graph
from .graph_module import GraphModule
from .node import map_aggregate, map_arg
from .proxy import Proxy
from .tracer import Tracer

__all__ = ["Interpreter", "Transformer"]


class Interpreter:
    """Run ``module.graph`` node by node. ``garbage_collect_values`` drops each value after its last use."""

    def __init__(self, module, garbage_collect_values=True, graph=None):
        self.module = module
        self.graph = graph if graph is not None else module.graph
        self.submodules = dict(module.named_modules())
        self.garbage_collect_values = garbage_collect_values
        self.env = {}
        # after which node each value is read for the last time
        self.user_to_last_uses = {}
        seen = set()
        for node in reversed(self.graph.nodes):
            for value in node.all_input_nodes:
                if value not in seen:
                    seen.add(value)
                    self.user_to_last_uses.setdefault(node, []).append(value)

    def run(self, *args, initial_env=None):
        """The graph's result for these inputs (``initial_env`` may give some nodes' values up front)."""
        self.env = dict(initial_env or {})
        self.args_iter = iter(args)
        for node in self.graph.nodes:
            if node in self.env:
                continue
            self.env[node] = self.run_node(node)
            if self.garbage_collect_values:
                for value in self.user_to_last_uses.get(node, []):
                    del self.env[value]
            if node.op == "output":
                return self.env[node]

    def run_node(self, n):
        """Fetch ``n``'s inputs from ``env`` and call the method named after its op."""
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    # -- one method per kind of node --------------------------------------------------------------------
    def placeholder(self, target, args, kwargs):
        try:
            return next(self.args_iter)
        except StopIteration:
            if args:
                return args[0]
            raise RuntimeError(f"Expected positional argument for parameter {target}, but one was not passed in!")

    def get_attr(self, target, args, kwargs):
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *rest = args
        return getattr(self_obj, target)(*rest, **kwargs)

    def call_module(self, target, args, kwargs):
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args, kwargs):
        return args[0]

    # -- helpers ----------------------------------------------------------------------------------------
    def fetch_attr(self, target):
        """The value at dotted path ``target`` in the module."""
        value = self.module
        atoms = target.split(".")
        for i, atom in enumerate(atoms):
            if not hasattr(value, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(atoms[:i + 1])}")
            value = getattr(value, atom)
        return value

    def fetch_args_kwargs_from_env(self, n):
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n):
        def load(node):
            if node not in self.env:
                raise RuntimeError(f"Node {n} referenced nonexistent value {node}! Run Graph.lint() to diagnose "
                                   "such issues")
            return self.env[node]
        return map_arg(args, load)


class Transformer(Interpreter):
    """Run the graph on Proxies: the methods' results are recorded into a new Graph (``transform()``)."""

    def __init__(self, module):
        super().__init__(module)
        self.new_graph = Graph()
        self.tracer = Tracer()
        self.tracer.graph = self.new_graph
        self.tracer.root = module
        self.tracer._tensor_attrs = Tracer._collect_tensor_attrs(module)
        self.tracer._module_paths = {id(m): name for name, m in module.named_modules()}
        self.tracer._parameter_proxies = {}

    def placeholder(self, target, args, kwargs):
        default = args[0] if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default), self.tracer)

    def get_attr(self, target, args, kwargs):
        return self.tracer.create_proxy("get_attr", target, args, kwargs)

    def call_function(self, target, args, kwargs):
        return self.tracer.create_proxy("call_function", target, args, kwargs)

    def call_method(self, target, args, kwargs):
        return self.tracer.create_proxy("call_method", target, args, kwargs)

    def call_module(self, target, args, kwargs):
        return self.tracer.create_proxy("call_module", target, args, kwargs)

    def transform(self):
        """The new GraphModule: the old graph as rewritten by this Transformer's methods."""
        result = self.run()
        if result is not None:
            self.new_graph.output(self.tracer.create_arg(map_aggregate(result, lambda v: v)))
        return GraphModule(self.module, self.new_graph)
