"""Node: one operation in a tensorlab.fx Graph.

A node has an ``op`` (what kind of step it is), a ``target`` (what it calls or reads), ``args``/``kwargs``
(which may contain other nodes: its inputs) and a ``name`` (the variable it becomes in the generated code).
The six kinds, as in torch.fx:

    placeholder     an input of forward           target: the parameter's name ("x")
    get_attr        read a parameter or buffer    target: its dotted path ("linear.weight")
    call_function   call a free function          target: the function (tensorlab.relu, operator.add)
    call_method     call a method of args[0]      target: the method's name ("view")
    call_module     call a submodule              target: its dotted path ("layers.0")
    output          what forward returns          args[0]: the returned value

Nodes keep the graph's edges in both directions: ``all_input_nodes`` (read from args/kwargs) and
``users`` (the nodes that read this one), updated whenever args change. See course/26_graph_capture_fx.
"""
import builtins
import operator

__all__ = ["Node", "map_arg", "map_aggregate"]


def map_aggregate(value, fn):
    """Apply ``fn`` to every leaf of nested tuples/lists/dicts/slices, keeping their structure."""
    if isinstance(value, tuple):
        mapped = tuple(map_aggregate(v, fn) for v in value)
        return type(value)(*mapped) if hasattr(value, "_fields") else mapped
    if isinstance(value, list):
        return [map_aggregate(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: map_aggregate(v, fn) for k, v in value.items()}
    if isinstance(value, slice):
        return slice(map_aggregate(value.start, fn), map_aggregate(value.stop, fn), map_aggregate(value.step, fn))
    return fn(value)


def map_arg(value, fn):
    """Apply ``fn`` to every Node inside ``value`` (an args/kwargs structure)."""
    return map_aggregate(value, lambda v: fn(v) if isinstance(v, Node) else v)


class Node:
    """One step of a Graph; see the module docstring for ``op``/``target``."""

    def __init__(self, graph, name, op, target, args, kwargs, type=None):
        if op not in ("placeholder", "get_attr", "call_function", "call_method", "call_module", "output", "root"):
            raise ValueError(f"Unknown node op {op!r}")
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self.type = type
        self.users = {}           # the nodes that read this one (a dict used as an ordered set)
        self._input_nodes = {}
        self._args, self._kwargs = (), {}
        self._prev = self._next = self  # place in the graph's doubly linked list
        self._erased = False
        self.meta = {}
        self._update_args_kwargs(tuple(args), dict(kwargs))

    # -- inputs and users -------------------------------------------------------------------------
    @property
    def args(self):
        return self._args

    @args.setter
    def args(self, value):
        self._update_args_kwargs(tuple(value), self._kwargs)

    @property
    def kwargs(self):
        return self._kwargs

    @kwargs.setter
    def kwargs(self, value):
        self._update_args_kwargs(self._args, dict(value))

    @property
    def all_input_nodes(self):
        """The nodes this one reads, in order of first appearance in args then kwargs."""
        return list(self._input_nodes)

    def _update_args_kwargs(self, args, kwargs):
        for old in self._input_nodes:
            old.users.pop(self, None)
        self._input_nodes = {}
        map_arg((args, kwargs), lambda n: self._input_nodes.setdefault(n, None))
        self._args, self._kwargs = args, kwargs
        for new in self._input_nodes:
            new.users.setdefault(self, None)

    def update_arg(self, index, value):
        args = list(self._args)
        args[index] = value
        self.args = args

    def update_kwarg(self, key, value):
        self.kwargs = {**self._kwargs, key: value}

    def replace_all_uses_with(self, replace_with):
        """Make every user of this node read ``replace_with`` instead; returns those users."""
        users = list(self.users)
        for user in users:
            user.replace_input_with(self, replace_with)
        return users

    def replace_input_with(self, old, new):
        """In this node's args/kwargs, read ``new`` wherever ``old`` was read."""
        swap = lambda n: new if n is old else n  # noqa: E731
        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    # -- place in the graph ---------------------------------------------------------------------------
    @property
    def next(self):
        return self._next

    @property
    def prev(self):
        return self._prev

    def prepend(self, x):
        """Move (or put) node ``x`` just before this one."""
        if x is self:
            raise AssertionError("Cannot prepend self")
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x):
        """Move (or put) node ``x`` just after this one."""
        self._next.prepend(x)

    def _remove_from_list(self):
        p, n = self._prev, self._next
        p._next, n._prev = n, p
        self._prev = self._next = self

    # -- printing ---------------------------------------------------------------------------------------
    def __repr__(self):
        return self.name

    def format_node(self):
        """This node as one line of ``print(graph)``, in torch.fx's format."""
        users = f"[num_users={len(self.users)}]"
        if self.op == "placeholder":
            default = f"(default={self.args[0]})" if self.args else ""
            return f"%{self.name} : {users} = placeholder[target={self.target}]{default}"
        if self.op == "get_attr":
            return f"%{self.name} : {users} = get_attr[target={self.target}]"
        if self.op == "output":
            return f"return {self.args[0]}"
        return (f"%{self.name} : {users} = {self.op}[target={pretty_target(self.target)}]"
                f"(args = {format_arg(self.args)}, kwargs = {format_arg(self.kwargs)})")


def format_arg(arg):
    """How print(graph) writes an argument: nodes as ``%name``, containers item by item."""
    if isinstance(arg, list):
        return "[" + ", ".join(format_arg(a) for a in arg) + "]"
    if isinstance(arg, tuple):
        return "(" + ", ".join(format_arg(a) for a in arg) + ("," if len(arg) == 1 else "") + ")"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + arg.name
    return str(arg)


def pretty_target(target):
    """``tensorlab.relu``, ``operator.add``, ``builtins.getattr`` or a method/module name."""
    if isinstance(target, str):
        return target
    module = getattr(target, "__module__", None)
    if module == "builtins" and getattr(target, "__name__", None):
        return f"builtins.{target.__name__}"
    if module == "_operator":
        return f"operator.{target.__name__}"
    return qualified_name(target)


def qualified_name(func):
    """``module.name`` under which ``func`` can be reached (``getattr``, a builtin, is just its name)."""
    name = func.__name__
    if getattr(builtins, name, None) is func:
        return name
    if getattr(operator, name, None) is func:
        return f"operator.{name}"
    return f"{func.__module__}.{name}"
