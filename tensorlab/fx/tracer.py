"""Tracer and symbolic_trace: record a Module's ``forward`` by running it once on Proxies.

``symbolic_trace(model)`` makes one placeholder Proxy per parameter of ``forward``, calls ``forward`` with
them, and writes down every operation the proxies meet (proxy.py). During the call, two lookups are
redirected so that the model's own state becomes nodes too:

* ``Module.__call__`` on a submodule asks ``is_leaf_module``: tensorlab.nn's layers (Linear, ReLU...)
  are leaves, recorded as one ``call_module`` node; your own Modules (and Sequential) are traced
  through, so their insides appear in the graph;
* ``Module.__getattr__`` returning a Parameter gives a ``get_attr`` node instead.

A tensor that is neither a parameter nor a buffer (``self.scale = tensorlab.ones(3)``, or one made in
forward) is recorded by its attribute name, or stored on the module as ``_tensor_constant0``.
See course/26_graph_capture_fx.
"""
import builtins
import contextlib
import functools
import inspect
import warnings

from ..tensor import Tensor
from .graph import Graph
from .node import map_aggregate
from .proxy import Proxy

__all__ = ["Tracer", "symbolic_trace", "wrap"]

_CONSTANTS = (str, int, float, bool, complex, type(None), type(...))


class Tracer:
    """Turns a Module (or a function) into a Graph. Override ``is_leaf_module`` to choose what stays
    one ``call_module`` node, or ``create_proxy``/``create_arg`` to record more or differently."""

    def __init__(self):
        self.graph = None
        self.root = None

    # -- the entry point ---------------------------------------------------------------------------------
    def trace(self, root, concrete_args=None):
        """The Graph of ``root.forward`` (or of the function ``root``)."""
        from ..nn import Module
        if isinstance(root, Module):
            self.root, fn = root, type(root).forward
        else:
            self.root, fn = Module(), root
        self.graph = Graph()
        self._tensor_attrs = self._collect_tensor_attrs(self.root)
        self._module_paths = {id(m): name for name, m in self.root.named_modules()}
        self._parameter_proxies = {}
        args = self._placeholders(fn, isinstance(root, Module), concrete_args or {})
        with self._patched_module_lookups(), self._patched_wrapped_functions():
            result = fn(*args)
        self.create_node("output", "output", (self.create_arg(result),), {})
        return self.graph

    def _placeholders(self, fn, is_method, concrete_args):
        parameters = list(inspect.signature(fn).parameters.values())
        args = [self.root] if is_method else []
        for parameter in parameters[1:] if is_method else parameters:
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                raise NotImplementedError("tensorlab.fx traces forward(self, x, ...) with named parameters only "
                                          f"(not *{parameter.name})")
            if parameter.name in concrete_args:
                args.append(self._specialized(parameter, concrete_args[parameter.name]))
                continue
            default = () if parameter.default is parameter.empty else (parameter.default,)
            args.append(self.create_proxy("placeholder", parameter.name, default, {}))
        return args

    def _specialized(self, parameter, value):
        """A ``concrete_args`` value: forward is traced with the value itself, and the graph still takes the
        input (as ``flag_1``) and asserts it is the value the trace was specialized for -- as torch.fx does."""
        import tensorlab
        count = 0
        default = () if parameter.default is parameter.empty else (parameter.default,)

        def guard(leaf):
            nonlocal count
            count += 1
            placeholder = self.create_proxy("placeholder", f"{parameter.name}_{count}", default, {})
            if leaf is None:
                message = f"{parameter.name} has been specialized to have value None but got another value"
                self.create_proxy("call_function", _assert_is_none, (placeholder, message), {})
            elif isinstance(leaf, _CONSTANTS):
                tensorlab._assert(placeholder == leaf, f"{parameter.name} has been specialized to have value "
                                                       f"{leaf} but got another value")
            else:
                warnings.warn(f"Was not able to add assertion to guarantee correct input {parameter.name} to "
                              "specialized function. It is up to the user to make sure that your inputs match the "
                              "inputs you specialized the function with.")
            return leaf
        return map_aggregate(value, guard)

    def _patched_module_lookups(self):
        """While tracing, submodule calls and parameter reads go through this tracer."""
        from ..nn import Module
        tracer = self
        original_call, original_getattr = Module.__call__, Module.__getattr__

        def module_call(module, *args, **kwargs):
            return tracer.call_module(module, functools.partial(original_call, module), args, kwargs)

        def module_getattr(module, name):
            return tracer.getattr(name, original_getattr(module, name))
        return _Patch(Module, {"__call__": module_call, "__getattr__": module_getattr})

    def _patched_wrapped_functions(self):
        """While tracing, the functions named by ``wrap()`` record a call_function node when given a Proxy."""
        patches = []
        for (_, name), module_globals in _WRAPPED.items():
            original = module_globals.get(name, getattr(builtins, name, None))
            patches.append(_GlobalPatch(module_globals, name, self._recording(original)))
        return contextlib.ExitStack() if not patches else _Patches(patches)

    def _recording(self, original):
        @functools.wraps(original)
        def recorded(*args, **kwargs):
            found = []
            map_aggregate((args, kwargs), lambda v: found.append(v) if isinstance(v, Proxy) else None)
            if found:
                proxy = self.create_proxy("call_function", original, args, kwargs)
                proxy.node.meta["is_wrapped"] = True  # the generated code wraps it again (for retracing)
                return proxy
            return original(*args, **kwargs)
        return recorded

    # -- what becomes a node -----------------------------------------------------------------------------
    def is_leaf_module(self, m, module_qualified_name):
        """tensorlab.nn's own layers are recorded whole; everything else is traced through."""
        from ..nn import Sequential
        return type(m).__module__.startswith("tensorlab.nn") and not isinstance(m, Sequential)

    def call_module(self, m, forward, args, kwargs):
        """``m(*args)`` met during tracing: one call_module node for a leaf, else trace its forward."""
        path = self.path_of_module(m)
        if not self.is_leaf_module(m, path):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", path, args, kwargs)

    def getattr(self, attr, attr_val):
        """A Parameter read during tracing becomes (once per parameter) a get_attr proxy."""
        from ..nn import Parameter
        if isinstance(attr_val, Parameter):
            for name, p in self.root.named_parameters():
                if p is attr_val:
                    if name not in self._parameter_proxies:
                        self._parameter_proxies[name] = self.create_proxy("get_attr", name, (), {})
                    return self._parameter_proxies[name]
        return attr_val

    def path_of_module(self, mod):
        path = self._module_paths.get(id(mod))
        if path is None:
            raise NameError("module is not installed as a submodule")
        return path

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None):
        """A node for this operation (its arguments turned into nodes and constants) and its Proxy."""
        node = self.create_node(kind, target, self.create_arg(tuple(args)), self.create_arg(dict(kwargs)),
                                name, type_expr)
        return self.proxy(node)

    def proxy(self, node):
        return Proxy(node, self)

    def create_arg(self, a):
        """An argument as the graph stores it: proxies become their nodes, the module's tensors become
        get_attr nodes, containers are converted item by item, plain constants stay as they are."""
        from ..nn import Parameter
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, tuple):
            items = tuple(self.create_arg(v) for v in a)
            return type(a)(*items) if hasattr(a, "_fields") else items
        if isinstance(a, list):
            return [self.create_arg(v) for v in a]
        if isinstance(a, dict):
            return {k: self.create_arg(v) for k, v in a.items()}
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, Parameter):
            for name, p in self.root.named_parameters():
                if p is a:
                    return self.create_node("get_attr", name, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, Tensor):
            return self._tensor_node(a)
        from .. import _device, _dtype
        if isinstance(a, _CONSTANTS + (_dtype.dtype, _device.device, range)):
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def _tensor_node(self, a):
        for name, b in self.root.named_buffers():
            if b is a:
                return self.create_node("get_attr", name, (), {})
        name = self._tensor_attrs.get(id(a))
        if name is None:  # a tensor the module does not hold: keep it there under a fresh name
            i = 0
            while hasattr(self.root, f"_tensor_constant{i}"):
                i += 1
            name = f"_tensor_constant{i}"
            setattr(self.root, name, a)
            self._tensor_attrs[id(a)] = name
        return self.create_node("get_attr", name, (), {})

    @staticmethod
    def _collect_tensor_attrs(root):
        found = {}
        for prefix, module in root.named_modules():
            for name, value in vars(module).items():
                if isinstance(value, Tensor):
                    found[id(value)] = f"{prefix}.{name}" if prefix else name
        return found


class _GlobalPatch:
    """Set one module global for the length of a ``with`` block (deleting it again if it was not there)."""

    def __init__(self, module_globals, name, value):
        self.module_globals, self.name, self.value = module_globals, name, value

    def __enter__(self):
        self.had, self.before = self.name in self.module_globals, self.module_globals.get(self.name)
        self.module_globals[self.name] = self.value

    def __exit__(self, *exc):
        if self.had:
            self.module_globals[self.name] = self.before
        else:
            del self.module_globals[self.name]


class _Patches(contextlib.ExitStack):
    def __init__(self, patches):
        super().__init__()
        self.patches = patches

    def __enter__(self):
        super().__enter__()
        for patch in self.patches:
            self.enter_context(patch)
        return self


_WRAPPED = {}  # (id of a module's globals, name) -> those globals: the functions wrap() was asked for


def wrap(fn_or_name):
    """Call at the top level of a module: calls of this free function there (``wrap("len")``, or a function
    of yours) become one call_function node when traced, instead of being run on proxies."""
    frame = inspect.currentframe().f_back
    if frame.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    name = fn_or_name if isinstance(fn_or_name, str) else getattr(fn_or_name, "__name__", None)
    if not isinstance(name, str):
        raise RuntimeError("Unsupported type for global function! Must be either a callable or string name")
    _WRAPPED[(id(frame.f_globals), name)] = frame.f_globals
    return fn_or_name


def _assert_is_none(value, message):
    assert value is None, message


class _Patch:
    """Set some class attributes for the length of a ``with`` block, then put the old ones back."""

    def __init__(self, cls, attributes):
        self.cls, self.attributes = cls, attributes

    def __enter__(self):
        self.saved = {name: vars(self.cls).get(name) for name in self.attributes}
        for name, value in self.attributes.items():
            setattr(self.cls, name, value)

    def __exit__(self, *exc):
        for name, value in self.saved.items():
            if value is None:
                delattr(self.cls, name)
            else:
                setattr(self.cls, name, value)


def symbolic_trace(root, concrete_args=None):
    """Trace a Module or function into a GraphModule that computes the same thing.

        >>> import tensorlab as torch
        >>> from tensorlab.fx import symbolic_trace
        >>> gm = symbolic_trace(lambda x, y: torch.relu(x) + y.sum())
        >>> print(gm.graph)        # the nodes
        graph():
            %x : [num_users=1] = placeholder[target=x]
            %y : [num_users=1] = placeholder[target=y]
            %relu : [num_users=1] = call_function[target=tensorlab.relu](args = (%x,), kwargs = {})
            %sum_1 : [num_users=1] = call_method[target=sum](args = (%y,), kwargs = {})
            %add : [num_users=1] = call_function[target=operator.add](args = (%relu, %sum_1), kwargs = {})
            return add
        >>> gm(torch.tensor([-1.0, 2.0]), torch.ones(3))    # the generated forward (gm.code) runs
        tensor([3., 5.])
    """
    from ..nn import Module
    from .graph_module import GraphModule
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = type(root).__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
