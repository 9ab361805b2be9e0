"""Parameter: a tensor that a Module treats as one of its learnable weights.

A Parameter is an ordinary tensor (same storage, same version counter as the tensor it wraps) with
two differences: ``requires_grad`` is True by default, and assigning it to a Module attribute
*registers* it, so ``model.parameters()`` finds it and an optimizer can update it.
Buffers (``register_buffer``) are the other kind of module state: saved in ``state_dict`` but not
learned (BatchNorm's running mean is one).
See course/11_modules_and_parameters.
"""
from ..tensor import Tensor


class Parameter(Tensor):
    """``Parameter(data=None, requires_grad=True)``: wrap ``data`` (shared, not copied) as a weight."""

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


def is_lazy(param):
    return False
