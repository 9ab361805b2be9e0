"""GraphModule: a Module whose ``forward`` is Python code generated from a Graph.

It holds the graph and copies of the submodules, parameters and buffers its nodes refer to (at the same
dotted paths as in the traced model). ``recompile()`` turns the graph into source (``gm.code``), executes
it and installs the result as ``forward`` -- so after rewriting ``gm.graph``, call ``gm.recompile()`` and
the module computes the new program. Each GraphModule gets a class of its own, so that its ``forward``
is not shared with other GraphModules. See course/26_graph_capture_fx.
"""
import linecache

from ..nn import Module
from .graph import Graph

__all__ = ["GraphModule"]

_compiled = [0]  # a counter naming each generated source for tracebacks ("<eval_with_key>.3")


class GraphModule(Module):
    """``GraphModule(root, graph, class_name="GraphModule")``: ``root`` is the Module (or a dict of
    name -> value) that the graph's get_attr and call_module targets are taken from."""

    def __new__(cls, *args, **kwargs):
        base = next(c for c in cls.__mro__ if c.__dict__.get("_per_instance") is not True)

        class GraphModuleImpl(base):
            _per_instance = True
        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name="GraphModule"):
        super().__init__()
        type(self).__name__ = type(self).__qualname__ = class_name
        targets = {node.target for node in graph.nodes if node.op in ("get_attr", "call_module")}
        for target in sorted(targets):
            value = root[target] if isinstance(root, dict) else _fetch(root, target)
            _assign(self, target, value)
        self.graph = graph

    @property
    def graph(self):
        return self._graph

    @graph.setter
    def graph(self, graph):
        if not isinstance(graph, Graph):
            raise TypeError(f"expected a tensorlab.fx.Graph, got {type(graph).__name__}")
        self.__dict__["_graph"] = graph
        graph.owning_module = self
        self.recompile()

    @property
    def code(self):
        """The Python source of ``forward``, as generated from the graph by the last ``recompile()``."""
        return self._code

    def recompile(self):
        """Generate ``forward`` from the graph again (after rewriting it)."""
        source, globals_ = self._graph.python_code(root_module="self")
        self.__dict__["_code"] = source
        _compiled[0] += 1
        key = f"<eval_with_key>.{_compiled[0]}"
        linecache.cache[key] = (len(source), None, source.splitlines(True), key)  # tracebacks show the line
        exec(compile(source, key, "exec"), globals_)
        type(self).forward = globals_["forward"]
        return source

    def __str__(self):
        return "\n".join([super().__str__(), self._code,
                          "# To see more debug info, please use `graph_module.print_readable()`"])


def _fetch(module, target):
    for atom in target.split("."):
        if not hasattr(module, atom):
            raise AttributeError(f"{type(module).__name__} has no attribute `{atom}`")
        module = getattr(module, atom)
    return module


def _assign(module, target, value):
    """Put ``value`` at dotted path ``target``, making empty Modules for the missing levels; a plain
    tensor is registered as a buffer (so it moves with ``.to()`` and is saved)."""
    from ..tensor import Tensor
    from ..nn import Parameter
    *path, field = target.split(".")
    for atom in path:
        if atom not in module._modules:
            module.add_module(atom, Module())
        module = module._modules[atom]
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        module.register_buffer(field, value)
    else:
        setattr(module, field, value)
