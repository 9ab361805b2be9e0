"""Graph: a program as a list of Nodes -- what ``symbolic_trace`` records and what you rewrite.

The nodes form a doubly linked list in execution order (``for node in graph.nodes``). New nodes go at the
*insert point*, the end of the list unless ``with graph.inserting_after(node):`` says otherwise. A typical
rewrite: find a node, insert a replacement after it, move its users over, erase it, check::

    for node in graph.nodes:
        if node.op == "call_function" and node.target is tensorlab.relu:
            with graph.inserting_after(node):
                new = graph.call_function(tensorlab.sigmoid, node.args)
            node.replace_all_uses_with(new)
            graph.erase_node(node)
    graph.lint()
    graph_module.recompile()

``print(graph)`` shows the nodes in torch.fx's format; ``python_code`` turns them into ``forward``'s source
(_python_code.py). See course/26_graph_capture_fx.
"""
import contextlib
import inspect

from ._python_code import Namespace, python_code, target_to_name
from .node import Node, map_arg

__all__ = ["Graph"]


class _NodeList:
    """The nodes of a graph in order; iterating is safe while the current node is erased."""

    def __init__(self, root, reverse=False):
        self._root, self._reverse = root, reverse

    def __len__(self):
        return sum(1 for _ in self)

    def __iter__(self):
        node = self._root._prev if self._reverse else self._root._next
        while node is not self._root:
            following = node._prev if self._reverse else node._next
            if not node._erased:
                yield node
            node = following

    def __reversed__(self):
        return iter(_NodeList(self._root, not self._reverse))


class Graph:
    """An ordered list of Nodes with named values; see the module docstring."""

    def __init__(self, owning_module=None):
        self._root = Node(self, "", "root", "", (), {})
        self._insert = self._root.prepend      # where create_node puts the next node
        self._namespace = Namespace()
        self.owning_module = owning_module

    @property
    def nodes(self):
        return _NodeList(self._root)

    # -- making nodes ----------------------------------------------------------------------------------------
    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        """A new node at the insert point, named ``name`` or after its target (made unique)."""
        name = self._namespace.create_name(name if name is not None else target_to_name(target))
        node = Node(self, name, op, target, args or (), kwargs or {}, type_expr)
        self._insert(node)
        return node

    def placeholder(self, name, type_expr=None, default_value=inspect.Signature.empty):
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_function", the_function, args, kwargs, type_expr=type_expr)

    def output(self, result, type_expr=None):
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def node_copy(self, node, arg_transform=lambda n: n):
        """A copy of ``node`` (from any graph) here, its input nodes mapped through ``arg_transform``."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        copy = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        copy.meta = dict(node.meta)
        return copy

    # -- where new nodes go -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def inserting_before(self, node=None):
        before, self._insert = self._insert, (node or self._root._next).prepend
        try:
            yield
        finally:
            self._insert = before

    @contextlib.contextmanager
    def inserting_after(self, node=None):
        before, self._insert = self._insert, (node or self._root._prev).append
        try:
            yield
        finally:
            self._insert = before

    # -- removing nodes ---------------------------------------------------------------------------------
    def erase_node(self, to_erase):
        """Remove a node nobody reads any more (``replace_all_uses_with`` first)."""
        if to_erase.users:
            raise RuntimeError(f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                               f"users in the graph: {to_erase.users}!")
        if to_erase.graph is not self:
            raise RuntimeError(f"Attempting to remove {to_erase} from wrong graph!")
        if to_erase._erased:
            raise RuntimeError(f"erase_node({to_erase}) on an already erased node")
        to_erase._remove_from_list()
        to_erase._erased = True
        to_erase._update_args_kwargs((), {})  # it no longer uses its inputs

    def eliminate_dead_code(self):
        """Erase nodes whose value nobody reads (calls are assumed pure); True if any was erased."""
        changed = False
        for node in reversed(self.nodes):
            if node.op not in ("placeholder", "output") and not node.users:
                self.erase_node(node)
                changed = True
        return changed

    # -- checking and printing -------------------------------------------------------------------------
    def lint(self):
        """Check the invariants: each node belongs here, has a unique name, and reads only nodes defined
        before it; call_module/get_attr targets exist in the owning module."""
        seen_nodes, seen_names = set(), set()
        for node in self.nodes:
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            for arg in node.all_input_nodes:
                if arg not in seen_nodes:
                    raise RuntimeError(f"Argument '{arg}' of Node '{node}' was used before it has been defined! "
                                       f"Please check that Nodes in the graph are topologically ordered\n{self}")
            if node.name in seen_names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen_nodes.add(node)
            seen_names.add(node.name)
            if self.owning_module is not None and node.op in ("call_module", "get_attr"):
                self._lint_target(node)

    def _lint_target(self, node):
        obj = self.owning_module
        for i, atom in enumerate(node.target.split(".")):
            if not hasattr(obj, atom):
                seen = ".".join(node.target.split(".")[:i])
                raise RuntimeError(f"Node {node} target {node.target} references nonexistent attribute "
                                   f"{atom} of {seen or 'root'}")
            obj = getattr(obj, atom)
        from ..nn import Module
        if node.op == "call_module" and not isinstance(obj, Module):
            raise RuntimeError(f"Node {node} target {node.target} {atom} of {seen or 'root'} does not "
                               "reference an nn.Module")

    def python_code(self, root_module="self"):
        """The source of ``forward`` for these nodes and the globals it needs (see _python_code.py)."""
        return python_code(self)

    def __str__(self):
        return "\n".join(["graph():"] + ["    " + node.format_node() for node in self.nodes])
