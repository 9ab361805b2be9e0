"""``__torch_function__``: how a Tensor subclass, a Tensor-like object or a mode takes over tensorlab's functions.

When a public callable -- ``tensorlab.add``, ``tensorlab.nn.functional.relu``, ``Tensor.add``, ``a + b`` --
is called with an argument whose type defines ``__torch_function__``, that method runs instead:
``cls.__torch_function__(func, types, args, kwargs)`` where ``func`` is the public callable itself. It may
compute the answer its own way, call ``func`` again on unwrapped arguments, or return ``NotImplemented``
to let the next candidate try. A ``TorchFunctionMode`` (tensorlab/overrides.py) entered with ``with``
sees every public call, tensors or not. tensorlab.fx's Proxy is such a Tensor-like: calling
``tensorlab.relu(proxy)`` records a graph node instead of computing. See course/25_the_dispatcher.

Who goes first is PyTorch's rule:
1. the innermost active mode (it is switched off while its handler runs, so calls it makes go past it);
2. then the arguments' types, a subclass before its superclass, otherwise left to right;
3. if everyone returns NotImplemented: ``TypeError("Multiple dispatch failed for ...")``.

What it costs. PyTorch checks the arguments of every call in C++. Here nothing is checked until
something asks for it -- the first Tensor subclass whose ``__torch_function__`` is not disabled, a mode
entered, or ``tensorlab.fx`` imported. Then ``install()`` replaces each public callable, in place, with a
wrapper that looks at the argument types and otherwise calls the original: a plain op pays nothing
before that moment and one short type check after it. tensorlab's own subclasses (Parameter, Buffer)
opt out, as PyTorch's do, with ``__torch_function__ = _disabled_torch_function_impl``.

Where this differs from PyTorch: Tensor's *properties* (``x.shape``, ``x.grad``) are not handed over (PyTorch
hands over their ``__get__``); ``a / 2`` from the right is seen as ``Tensor.__rtruediv__`` (PyTorch:
``__rdiv__``); and the switches (modes, DisableTorchFunction) are per process, not per thread.
"""
import functools
import inspect
import types as _types

from . import tensor as _tensor  # the module (imported by tensor.py while it is being defined: read at call time)


class _State:
    """What is switched on. Read by every wrapped call, so kept as plain class attributes."""
    installed = False   # have the public callables been wrapped yet?
    enabled = True      # False inside DisableTorchFunction: no modes, no subclasses
    subclasses = True   # False inside DisableTorchFunctionSubclass: modes still run
    modes = []          # the TorchFunctionMode stack, outermost first


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """A class whose ``__torch_function__`` is this takes no part in dispatch (``nn.Parameter``'s is).
    Called directly, it runs ``func`` with subclass dispatch off and converts nothing."""
    with DisableTorchFunctionSubclass():
        return func(*args, **(kwargs or {}))


class DisableTorchFunctionSubclass:
    """``with DisableTorchFunctionSubclass():`` calls inside skip subclasses' ``__torch_function__``
    (modes still run). Tensor's default ``__torch_function__`` runs ``func`` this way, so the calls it
    makes do not come back to it. PyTorch spells it ``torch._C.DisableTorchFunctionSubclass``."""

    def __enter__(self):
        self._before, _State.subclasses = _State.subclasses, False
        return self

    def __exit__(self, *exc):
        _State.subclasses = self._before


class DisableTorchFunction:
    """``with DisableTorchFunction():`` switches off every ``__torch_function__``, modes included
    (``torch._C.DisableTorchFunction``)."""

    def __enter__(self):
        self._before, _State.enabled = _State.enabled, False
        return self

    def __exit__(self, *exc):
        _State.enabled = self._before


def is_torch_function_enabled():
    return _State.enabled


# -- which arguments take part --------------------------------------------------------------------------

_PLAIN = {int, float, bool, complex, str, type(None), slice, type(...)}  # types known to have no override


def _overrides(cls):
    """Does ``cls`` take part in dispatch? (Remembered for the plain ones: most calls see only those.)"""
    if cls in _PLAIN:
        return False
    method = getattr(cls, "__torch_function__", None)
    if method is None or method is _disabled_torch_function_impl or _is_pytorchs_own(method):
        _PLAIN.add(cls)
        return False
    return True


def _is_pytorchs_own(method):
    """A real ``torch.Tensor`` passed in (``tensorlab.from_dlpack(t)``) is an array to read, not a
    Tensor-like: its default ``__torch_function__`` would call the tensorlab function straight back.
    (A subclass that writes its own ``__torch_function__`` still takes part.)"""
    return getattr(method, "__module__", "") == "torch._tensor"


def _overloaded_args(args, kwargs=None):
    """The arguments (and items of list/tuple arguments) whose type overrides, one per type, in
    PyTorch's order: a subclass goes before its superclass, otherwise first come first."""
    found = []
    for arg in (*args, *kwargs.values()) if kwargs else args:
        kind = type(arg)
        if kind is _tensor.Tensor:
            continue
        if kind is list or kind is tuple:
            for item in arg:
                if type(item) is not _tensor.Tensor and _overrides(type(item)):
                    _insert(found, item)
        elif _overrides(kind):
            _insert(found, arg)
    return found


def _insert(found, arg):
    kind = type(arg)
    if any(type(other) is kind for other in found):
        return
    for i, other in enumerate(found):
        if issubclass(kind, type(other)):
            found.insert(i, arg)
            return
    found.append(arg)


# -- dispatch ---------------------------------------------------------------------------------------------


def try_handlers(func, overloaded, args, kwargs):
    """Ask the innermost mode, then each overloaded argument, to handle ``func(*args, **kwargs)``; the
    first answer that is not NotImplemented wins (NotImplemented if there is none)."""
    types = tuple(type(arg) for arg in overloaded)
    if _State.enabled and _State.modes:
        mode = _State.modes.pop()  # off while its own handler runs (PyTorch's _pop_mode_temporarily)
        try:
            result = mode.__torch_function__(func, types, args, kwargs)
        finally:
            _State.modes.append(mode)
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        result = arg.__torch_function__(func, types, args, kwargs)
        if result is not NotImplemented:
            return result
    return NotImplemented


def current_mode():
    """The mode that handles next, or None (none entered, or all switched off)."""
    return _State.modes[-1] if _State.enabled and _State.modes else None


def dispatch(func, overloaded, args, kwargs):
    """``func(*args, **kwargs)`` handed to ``__torch_function__``: PyTorch's TypeError if nobody takes it."""
    mode = current_mode()
    result = try_handlers(func, overloaded, args, kwargs)
    if result is not NotImplemented:
        return result
    lines = [f"  - tensor subclass {type(arg)}" for arg in overloaded] + ([f"  - mode object {mode!r}"] if mode else [])
    raise TypeError(f"Multiple dispatch failed for '{_qualified_name(func)}'; all __torch_function__ "
                    "handlers returned NotImplemented:\n\n" + "\n".join(lines) +
                    "\n\nFor more information, try re-running with TORCH_LOGS=not_implemented")


def _qualified_name(func):
    return getattr(func, "_torch_function_name", None) or f"{func.__module__}.{func.__qualname__}"


def overridable(func, name, dispatch_as=None, spell_out=False):
    """``func`` wrapped to hand its call to ``__torch_function__`` when an argument or a mode asks.

    ``functools.wraps`` keeps its name, docstring and signature. ``dispatch_as`` is the callable handlers
    see instead of the wrapper (``a + b`` is seen as ``Tensor.add``, as in PyTorch). ``spell_out``: hand
    the call over as PyTorch's Python-written functions do (``spelled_out``).
    """
    @functools.wraps(func)
    def public(*args, **kwargs):
        if _State.enabled:
            overloaded = _overloaded_args(args, kwargs) if _State.subclasses else ()
            if overloaded or _State.modes:
                if spell_out:
                    args, kwargs = spelled_out(func, args, kwargs)
                return dispatch(dispatch_as or public, overloaded, args, kwargs)
        return func(*args, **kwargs)
    _name_as_called(public, func, name)
    return public


def spelled_out(func, args, kwargs):
    """``(args, kwargs)`` as PyTorch's Python-written functions hand them to ``__torch_function__``: the
    required arguments by position, every optional one by keyword with its value or default --
    ``F.relu(x)`` is seen as ``F.relu(x, inplace=False)``. (A call that does not fit is passed as it is.)"""
    signature = inspect.signature(func)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    bound.apply_defaults()
    positional, keywords = [], {}
    for name, parameter in signature.parameters.items():
        value = bound.arguments[name]
        if parameter.kind is parameter.VAR_POSITIONAL:
            positional.extend(value)
        elif parameter.kind is parameter.VAR_KEYWORD:
            keywords.update(value)
        elif parameter.default is parameter.empty and parameter.kind is not parameter.KEYWORD_ONLY:
            positional.append(value)
        else:
            keywords[name] = value
    return tuple(positional), keywords


def _name_as_called(wrapper, func, name):
    """The wrapper is named as it is called (``Tensor.__rsub__``, ``tensorlab.absolute``), as PyTorch's are."""
    wrapper.__name__ = name.rsplit(".", 1)[1]
    wrapper.__qualname__ = name.split("tensorlab.", 1)[1] if name.startswith("tensorlab.Tensor.") else wrapper.__name__
    wrapper.__module__ = name.rsplit(".", 1)[0] if not name.startswith("tensorlab.Tensor.") else "tensorlab"
    wrapper._torch_function_name = name
    wrapper._torch_function_original = func


def _binary_operator(func, name, dispatch_as=None):
    """``a + b``: when every handler declines, return NotImplemented so Python tries ``b.__radd__``."""
    @functools.wraps(func)
    def operator(self, other):
        try:
            return public(self, other)
        except TypeError as e:
            if str(e).startswith("Multiple dispatch failed"):
                return NotImplemented
            raise
    public = overridable(func, name, dispatch_as or operator)
    _name_as_called(operator, func, name)
    return operator


# -- the default Tensor.__torch_function__ -----------------------------------------------------------------


def default_torch_function(cls, func, types, args=(), kwargs=None):
    """``Tensor.__torch_function__``: run ``func`` with subclass dispatch off, then give tensor results
    the caller's class -- so ``MyTensor + 1`` is a MyTensor (PyTorch's ``_convert``)."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, kind) for kind in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        return _convert(func(*args, **kwargs), cls)


def _convert(result, cls):
    if cls is _tensor.Tensor:
        return result
    if isinstance(result, _tensor.Tensor) and not isinstance(result, cls):
        return result.as_subclass(cls)
    if isinstance(result, (tuple, list)):
        items = [_convert(item, cls) for item in result]
        return result._make(items) if hasattr(result, "_make") else type(result)(items)
    return result


# -- installing the wrappers ---------------------------------------------------------------------------------

# ``a + b`` reaches handlers as ``Tensor.add``, ``-a`` as ``Tensor.neg``...: the method PyTorch names
OPERATOR_METHODS = {
    "__add__": "add", "__radd__": "add", "__sub__": "sub", "__mul__": "mul", "__rmul__": "mul",
    "__truediv__": "div", "__mod__": "remainder", "__pow__": "pow", "__matmul__": "matmul",
    "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rxor__": "bitwise_xor",
    "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge",
    "__neg__": "neg", "__pos__": "positive", "__abs__": "abs",
    "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_", "__itruediv__": "div_",
    "__ifloordiv__": "floor_divide_", "__imod__": "remainder_", "__ipow__": "pow_",
}
BINARY_OPERATORS = {"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
                    "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
                    "__rpow__", "__matmul__", "__rmatmul__", "__and__", "__rand__", "__or__", "__ror__",
                    "__xor__", "__rxor__", "__lshift__", "__rlshift__", "__rshift__", "__rrshift__",
                    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"}
# Python's own machinery, or not dispatched by PyTorch either (``__iter__`` calls unbind, which is)
NOT_DISPATCHED = {"__init__", "__new__", "__init_subclass__", "__getattribute__", "__getattr__", "__setattr__",
                  "__delattr__", "__dir__", "__class_getitem__", "__subclasshook__", "__torch_function__",
                  "__hash__", "__iter__", "__reversed__", "__sizeof__"}


# PyTorch writes most of torch.nn.functional in Python (they hand calls over ``spelled_out``); these are C++
FUNCTIONAL_BUILT_IN_IN_PYTORCH = {
    "adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "bilinear", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "cosine_similarity", "gelu", "linear",
    "logsigmoid", "one_hot", "pairwise_distance", "relu_", "scaled_dot_product_attention", "softplus"}


# Tensor methods PyTorch writes in Python (torch/_tensor.py) that hand their optional arguments over by keyword:
# ``x.backward()`` is seen as ``Tensor.backward(x, gradient=None, retain_graph=None, create_graph=False, inputs=None)``
TENSOR_METHODS_SPELLED_OUT = {"backward", "norm", "split", "unique", "unique_consecutive"}


def subclass_defined(cls):
    """Called by ``Tensor.__init_subclass__``: a subclass that takes part in dispatch needs the wrappers."""
    if not _State.installed and _overrides(cls):
        install()


def install():
    """Wrap the public callables of tensorlab, tensorlab.nn.functional and Tensor, once."""
    if _State.installed:
        return
    _State.installed = True
    import tensorlab
    from tensorlab import ops
    from tensorlab.nn import functional
    wrapped = {}  # one wrapper per original, so ``tensorlab.add is tensorlab.ops.add`` stays true
    for namespace, prefix, names in ((ops, "tensorlab", ops.__all__), (tensorlab, "tensorlab", ops.__all__),
                                     (functional, "tensorlab.nn.functional", functional.__all__)):
        for name in names:
            func = vars(namespace).get(name)
            if isinstance(func, _types.FunctionType) and not hasattr(func, "_torch_function_original"):
                if id(func) not in wrapped:
                    spell_out = namespace is functional and name not in FUNCTIONAL_BUILT_IN_IN_PYTORCH
                    wrapped[id(func)] = overridable(func, f"{prefix}.{name}", spell_out=spell_out)
                setattr(namespace, name, wrapped[id(func)])
    _wrap_tensor_methods(_tensor.Tensor)


def tensor_methods(cls):
    """(name, function) for the public methods and operators of Tensor, found along its MRO."""
    seen = {}
    for klass in reversed(cls.__mro__[:-1]):  # object's own slots are not Tensor's
        for name, value in vars(klass).items():
            if isinstance(value, _types.FunctionType) and name not in NOT_DISPATCHED and (
                    not name.startswith("_") or (name.startswith("__") and name.endswith("__"))):
                seen[name] = value
    return seen


def _wrap_tensor_methods(cls):
    methods = tensor_methods(cls)
    for name, func in methods.items():
        if name not in OPERATOR_METHODS and name not in BINARY_OPERATORS:
            setattr(cls, name, overridable(func, f"tensorlab.Tensor.{name}",
                                           spell_out=name in TENSOR_METHODS_SPELLED_OUT))
    for name, func in methods.items():  # the operators, now that the methods they are seen as exist
        target = OPERATOR_METHODS.get(name)
        dispatch_as = vars(cls).get(target) if target else None
        make = _binary_operator if name in BINARY_OPERATORS else overridable
        if target or name in BINARY_OPERATORS:
            setattr(cls, name, make(func, f"tensorlab.Tensor.{name}", dispatch_as))


def is_wrapped(func):
    return hasattr(func, "_torch_function_original")
