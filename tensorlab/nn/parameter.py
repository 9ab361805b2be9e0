"""Parameter: a tensor that a Module treats as one of its learnable weights.

A Parameter is an ordinary tensor (same storage, same version counter as the tensor it wraps) with
two differences: ``requires_grad`` is True by default, and assigning it to a Module attribute
*registers* it, so ``model.parameters()`` finds it and an optimizer can update it.
Buffers (``register_buffer``) are the other kind of module state: saved in ``state_dict`` but not
learned (BatchNorm's running mean is one).
See course/11_modules_and_parameters.
"""
from .._torch_function import _disabled_torch_function_impl
from ..tensor import Tensor


class Parameter(Tensor):
    """``Parameter(data=None, requires_grad=True)``: wrap ``data`` (shared, not copied) as a weight."""

    __torch_function__ = _disabled_torch_function_impl  # ops on a Parameter give plain Tensors, as in PyTorch

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from ..ops.creation import empty
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter data must be a Tensor, not {type(data).__name__}")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self = object.__new__(cls)
        # share storage *and* version counter: an in-place change to ``data`` is a change to the weight
        self._init(data._storage, data._offset, data._shape, data._stride, data._array,
                   data._version_counter, data._base)
        self._requires_grad = bool(requires_grad)
        return self

    def __init__(self, data=None, requires_grad=True):
        pass  # all the work happens in __new__ (Tensor.__init__ is the legacy constructor)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        from ..ops.creation import tensor
        return (Parameter, (tensor(self.detach().cpu().numpy().copy()), self._requires_grad))


class Buffer(Tensor):
    """``Buffer(data, persistent=True)``: marks a tensor to be registered as a module buffer on assignment.

    ``module.running = Buffer(t)`` is the same as ``module.register_buffer("running", t)``.
    """

    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            from ..ops.creation import empty
            data = empty(0)
        self = object.__new__(cls)
        self._init(data._storage, data._offset, data._shape, data._stride, data._array,
                   data._version_counter, data._base)
        self._requires_grad = data._requires_grad
        self.persistent = persistent
        return self

    def __init__(self, data=None, *, persistent=True):
        pass


# -- parameters whose shape is not known yet (lazy modules, modules/lazy.py) ----------------------------

_SLOTS = {name: Tensor.__dict__[name] for name in ("_array", "_shape", "_stride")}  # where the real fields live


def _using_uninitialized(name):
    """Reading a field of an uninitialized tensor: PyTorch's ValueError, naming the function that tried."""
    def refuse(self):
        raise ValueError(
            f"Attempted to use an uninitialized parameter in {_caller()}. This error happens when you are using a "
            f"`LazyModule` or explicitly manipulating `torch.nn.parameter.{type(self).__name__}` objects. When using "
            "LazyModules Call `forward` with a dummy batch to initialize the parameters before calling torch "
            "functions")

    def store(self, value):  # writing is allowed: that is how materialize() gives it data
        _SLOTS[name].__set__(self, value)
    return property(refuse, store)


def _caller():
    """The tensorlab function the user called that reached for the data (the outermost one)."""
    import sys
    frame, found = sys._getframe(2), "a tensor function"
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("tensorlab.") and frame.f_code.co_name[0] != "<" \
                and frame.f_code.co_name not in _WRAPPERS:
            found = frame.f_code.co_qualname
        elif not frame.f_globals.get("__name__", "").startswith("tensorlab."):
            break
        frame = frame.f_back
    return found


_WRAPPERS = {"with_numpy_names", "with_dtype", "op_with_out", "__call__", "_call_with_hooks"}


class UninitializedTensorMixin:
    """What UninitializedParameter and UninitializedBuffer share: a tensor with a dtype and a device but
    no shape yet. Only those two, ``size()``, conversions (``to``, ``float()``, ``cuda()``...) and
    ``materialize`` may be used; anything that needs the data raises PyTorch's ValueError, and ``shape``
    its RuntimeError. ``materialize(shape)`` gives it data and turns it into ``cls_to_become``."""

    __slots__ = ()
    __torch_function__ = _disabled_torch_function_impl
    cls_to_become = None
    _array = _using_uninitialized("_array")
    _shape = _using_uninitialized("_shape")
    _stride = _using_uninitialized("_stride")

    def materialize(self, shape, device=None, dtype=None):
        """Become a real tensor of ``shape`` (uninitialised values; the layer's reset_parameters fills them)."""
        from ..ops.creation import empty
        self.data = empty(shape, device=device or self.device, dtype=dtype or self.dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes.")

    @property
    def dtype(self):
        from .. import _dtype
        return _dtype._FROM_NUMPY[_SLOTS["_array"].__get__(self).dtype]

    def size(self, dim=None):
        from ..tensor import Size
        shape = _SLOTS["_shape"].__get__(self)
        return Size(shape) if dim is None else shape[dim]

    def to(self, *args, **kwargs):
        """The same kind of uninitialized tensor, with another dtype or device (what ``module.to`` uses)."""
        from ..ops.convert import _parse_to
        from ..ops.creation import empty
        dtype, device = _parse_to(args, kwargs)
        return empty(0, dtype=dtype or self.dtype, device=device or self.device)

    def float(self, memory_format=None):
        return self.to(_float())

    def double(self, memory_format=None):
        return self.to(_double())

    def half(self, memory_format=None):
        return self.to(_half())

    def cpu(self, memory_format=None):
        return self.to("cpu")

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        return self.to("cuda" if device is None else device)

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize "
                           "the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    def __deepcopy__(self, memo):
        copy = type(self)(self.requires_grad, self.device, self.dtype)
        memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol):
        return (type(self), (self.requires_grad,))


def _float():
    from .. import _dtype
    return _dtype.float32


def _double():
    from .. import _dtype
    return _dtype.float64


def _half():
    from .. import _dtype
    return _dtype.float16


def _empty_data(device, dtype):
    from ..ops.creation import empty
    return empty(0, device=device, dtype=dtype)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter whose shape a lazy module learns from its first input (``nn.LazyLinear(10)``'s weight).
    It is registered, listed by ``parameters()`` and can be handed to an optimizer; the first forward turns
    it, in place, into an ordinary Parameter -- the same object, so the optimizer then updates it."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return Parameter.__new__(cls, _empty_data(device, dtype), requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet (``nn.LazyBatchNorm2d``'s running mean and variance)."""

    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        data = _empty_data(device, dtype)
        self = object.__new__(cls)
        self._init(data._storage, data._offset, (0,), (1,), data._array)
        self._requires_grad = requires_grad
        return self

    def __init__(self, requires_grad=False, device=None, dtype=None):
        pass  # (Tensor.__init__ is the legacy constructor)


def is_lazy(param):
    """Whether ``param`` is an UninitializedParameter or UninitializedBuffer."""
    return isinstance(param, UninitializedTensorMixin)
