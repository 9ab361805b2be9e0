"""How a tensor turns into other things: NumPy arrays (sharing memory), Python numbers and lists,
DLPack capsules, its printed form, and copies (``copy.deepcopy``, pickling).

``Tensor`` inherits these from ``Conversions``, so tensor.py can stay about what a tensor *is*.
See course/01_tensors.
"""
from .autograd import grad_mode
from .backend import for_device


class Conversions:
    """The conversion methods of Tensor (a mixin: it adds no fields)."""

    __slots__ = ()

    def numpy(self, *, force=False):
        """A NumPy array sharing this tensor's memory (CPU only, no grad)."""
        if self._requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        if self.device.type != "cpu":
            if not force:
                raise TypeError(
                    f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to copy "
                    "the tensor to host memory first.")
            return for_device(self.device).to_numpy(self._array)
        return self._array

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def __dlpack__(self, stream=None, **kwargs):
        if self._requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        return self._array.__dlpack__(**({} if stream is None else {"stream": stream}), **kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()

    def tolist(self):
        return for_device(self.device).to_numpy(self._array).tolist()

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return for_device(self.device).to_numpy(self._array).reshape(()).item()

    def __float__(self):
        return float(self._scalar_value())

    def __int__(self):
        return int(self._scalar_value())

    def __bool__(self):
        if self.numel() != 1:
            amount = "no values" if self.numel() == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        return bool(self.item())

    def __index__(self):
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __complex__(self):
        return complex(self._scalar_value())

    def _scalar_value(self):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self):
        return id(self)

    def __repr__(self, *, tensor_contents=None):
        from ._printing import tensor_repr
        return tensor_repr(self, tensor_contents)

    def __format__(self, spec):
        """``f"{t}"``: a 0-d tensor formats like its number (``f"{loss:.3f}"``); any other tensor like
        ``str(t)``, and a format spec for it is an error -- as in PyTorch. Subclasses (Parameter) always
        format as their ``str``."""
        if self._shape == () and type(self) is _t.Tensor:
            return self.detach().item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        from .ops.creation import _rebuild
        return (_rebuild, (self.detach().cpu().numpy().copy(), self._requires_grad))

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the "
                               "deepcopy protocol at the moment.  If you were attempting to deepcopy a "
                               "module, this may be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        with grad_mode.no_grad():
            new = self.clone()
        if type(self) is not _t.Tensor:
            new = type(self)(new, requires_grad=self._requires_grad)
        else:
            new._requires_grad = self._requires_grad
        if self._grad is not None:
            new._grad = self._grad.clone()
        new.__dict__.update({k: v for k, v in self.__dict__.items()})
        memo[id(self)] = new
        return new


from . import tensor as _t  # noqa: E402 - Tensor itself, for __deepcopy__ (it imports us)
