"""Proxy: the stand-in value that flows through ``forward`` while it is being traced.

A Proxy holds a Node. Whatever the traced code does to it becomes a new node, and the answer is a new
Proxy for that node -- so running ``forward`` once with proxies writes down its graph:

* ``proxy + 1``, ``proxy[0]``, ``-proxy``      Python operators      -> call_function operator.add / getitem / neg
* ``tensorlab.relu(proxy)``, ``F.relu(proxy)``  __torch_function__   -> call_function tensorlab.relu
* ``proxy.view(-1)``                         attribute, then call  -> call_method view
* ``proxy.shape``                            attribute, not called -> call_function getattr

The second line is the ``__torch_function__`` protocol (tensorlab/_torch_function.py): a Proxy is a
"Tensor-like", so tensorlab's public functions hand it their call instead of computing.

What a proxy cannot do is be *looked at*: ``if proxy:``, ``len(proxy)``, ``for v in proxy`` need a value
that only exists when the graph runs. Those raise, with torch.fx's messages. See course/26_graph_capture_fx.
"""
import dis
import inspect
import operator

from .. import overrides
from .node import map_aggregate

__all__ = ["Attribute", "Proxy", "TraceError"]


class TraceError(ValueError):
    """Tracing met something it cannot record, such as control flow that depends on a traced value."""


class Proxy:
    """A traced value: ``node`` in the graph ``tracer`` is building."""

    def __init__(self, node, tracer=None):
        self.node = node
        self.tracer = tracer

    def __repr__(self):
        return f"Proxy({self.node.name})"

    def __getattr__(self, name):
        return Attribute(self, name)

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", "__call__", (self, *args), kwargs)

    # -- what needs a real value ---------------------------------------------------------------------
    def __bool__(self):
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def __len__(self):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this call to be "
                           "recorded, please call torch.fx.wrap('len') at module scope")  # (tensorlab.fx.wrap here)

    def __iter__(self):
        """Only unpacking works (``a, b = proxy``): the caller's bytecode says how many values it takes."""
        frame = inspect.currentframe().f_back
        for inst in dis.get_instructions(frame.f_code):
            if inst.offset == frame.f_lasti and inst.opname == "UNPACK_SEQUENCE":
                return iter([self[k] for k in range(inst.argval)])
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the Proxy is used in a loop "
                         "or as a *args or **kwargs function argument. See the torch.fx docs on pytorch.org for a "
                         "more detailed explanation of what types of control flow can be traced, and check out "
                         "the Proxy docstring for help troubleshooting Proxy iteration errors")

    def keys(self):
        return self.tracer.create_proxy("call_method", "keys", (self,), {})

    # -- tensorlab functions called on a proxy ------------------------------------------------------------
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """``tensorlab.relu(proxy)`` and friends: record the call instead of making it."""
        kwargs = kwargs or {}
        tracers = []
        map_aggregate((args, kwargs), lambda a: tracers.append(a.tracer) if isinstance(a, Proxy) else None)
        tracer = tracers[0]
        if any(t is not tracer for t in tracers):
            raise RuntimeError(f"Found multiple different tracers {list(dict.fromkeys(tracers))} while trying "
                               f"to trace operations {func}")
        if overrides.is_tensor_method_or_property(func):
            return tracer.create_proxy("call_method", func.__name__, args, kwargs)
        return tracer.create_proxy("call_function", func, args, kwargs)


class Attribute(Proxy):
    """``proxy.name``: a method call if it is called, else (on first use) a ``getattr`` node."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        if self._node is None:  # made only when the attribute is used as a value
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", self.attr, (self.root, *args), kwargs)


# -- Python's operators on a proxy: call_function nodes with operator.* targets ------------------------

_BINARY = ["add", "sub", "mul", "floordiv", "truediv", "mod", "pow", "lshift", "rshift", "and_", "or_", "xor",
           "matmul"]
_COMPARISONS = ["eq", "ne", "lt", "gt", "le", "ge"]
_UNARY = ["neg", "pos", "invert"]


def _dunder(name):
    return f"__{name.rstrip('_')}__"


def _forward_operator(target):
    def method(self, *rest):
        return self.tracer.create_proxy("call_function", target, (self, *rest), {})
    return method


def _reflected_operator(target):
    def method(self, other):
        return self.tracer.create_proxy("call_function", target, (other, self), {})
    return method


for _name in _BINARY + _COMPARISONS + _UNARY + ["getitem"]:
    setattr(Proxy, _dunder(_name), _forward_operator(getattr(operator, _name)))
for _name in _BINARY:
    setattr(Proxy, f"__r{_name.rstrip('_')}__", _reflected_operator(getattr(operator, _name)))
