"""In-place view ops: ``t_``, ``transpose_`` (``swapaxes_``, ``swapdims_``), ``squeeze_``, ``unsqueeze_``,
``as_strided_`` -- and ``addmm_``, an ordinary in-place op with no other home.

``x.t_()`` changes no element: it gives ``x`` *itself* new (shape, strides), as if ``x`` were replaced by
the view ``x.t()``. The rules are PyTorch's:
- it counts as an in-place op: the version counter goes up (so a node that saved ``x`` refuses to run
  backward), and a leaf that requires grad (or a view of one) is refused while grad mode is on;
- on a tensor with history, ``x`` takes the view op's node as its new grad_fn, under the name of the
  in-place variant (``TBackward1``, ``TransposeBackward1``, ``SqueezeBackward3/4/5``,
  ``UnsqueezeBackward1``, ``AsStridedBackward1``), whose edge leads to ``x``'s old history;
- a view stays a view of the same base; other views of ``x`` keep their own geometry.
See course/08_inplace_and_versions.
"""
from ..autograd.inplace import _move_retain_grad
from .inplace import apply_inplace, check_inplace
from .linalg import addmm
from .shape import AsStrided, as_strided
from .shape_reorder import Squeeze, T, Transpose, Unsqueeze
from ._util import method, tensor_arg
from ..autograd.grad_mode import no_grad


class TransposeInplace(Transpose):
    node_name = "TransposeBackward1"


class TInplace(T):
    node_name = "TBackward1"


class SqueezeInplace(Squeeze):
    node_name = "SqueezeBackward3"


class SqueezeDimInplace(Squeeze):
    node_name = "SqueezeBackward4"


class SqueezeDimsInplace(Squeeze):
    node_name = "SqueezeBackward5"


class UnsqueezeInplace(Unsqueeze):
    node_name = "UnsqueezeBackward1"


class AsStridedInplace(AsStrided):
    node_name = "AsStridedBackward1"


def _restride(self, function, *args):
    """Give ``self`` the geometry of the view ``function.apply(self, *args)`` (and, when it records a
    node, that node as its history). Returns ``self``."""
    check_inplace(self)
    view = function.apply(self, *args)  # checks the arguments; records the node when grad is needed
    self._shape, self._stride, self._offset, self._array = view._shape, view._stride, view._offset, view._array
    self._version_counter.value += 1
    if view._grad_fn is not None:
        old_fn, old_nr = self._grad_fn, self._output_nr
        self._grad_fn, self._output_nr = view._grad_fn, 0
        if self._base is not None:
            self._view_version = self._version_counter.value  # its history is already current
        if self._retains_grad:
            _move_retain_grad(self, old_fn, old_nr)
    return self


@method()
def t_(self):
    """``t()`` in place: ``self`` becomes its own transpose (a matrix of <= 2 dims)."""
    if self.dim() > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
    return _restride(self, TInplace)


@method("transpose_", "swapaxes_", "swapdims_")
def transpose_(self, dim0, dim1):
    """``transpose(dim0, dim1)`` in place: swap two dims' sizes and strides of ``self`` itself."""
    return _restride(self, TransposeInplace, dim0, dim1)


@method()
def squeeze_(self, dim=None):
    """``squeeze`` in place: drop size-1 dims (all, or those in ``dim``) from ``self``."""
    if dim is None:
        return _restride(self, SqueezeInplace, None)
    if isinstance(dim, (tuple, list)):
        return _restride(self, SqueezeDimsInplace, tuple(dim))
    return _restride(self, SqueezeDimInplace, (dim,))


@method()
def unsqueeze_(self, dim):
    """``unsqueeze`` in place: insert a size-1 dim into ``self``."""
    return _restride(self, UnsqueezeInplace, dim)


@method()
def as_strided_(self, size, stride, storage_offset=None):
    """``as_strided`` in place: ``self`` reads its storage with the given geometry."""
    with no_grad():
        checked = as_strided(self, size, stride, storage_offset)  # PyTorch's checks on the geometry
    return _restride(self, AsStridedInplace, checked._shape, checked._stride, checked._offset)


@method()
def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    """``self = beta * self + alpha * (mat1 @ mat2)``, written into ``self``."""
    for arg, value in (("mat1", mat1), ("mat2", mat2)):
        tensor_arg("addmm_", arg, 1 if arg == "mat1" else 2, value)
    if mat1.dim() == 2 and mat2.dim() == 2 and mat1._shape[1] == mat2._shape[0]:
        out_shape = (mat1._shape[0], mat2._shape[1])
        if self._shape != out_shape:
            raise RuntimeError(f"Bad in-place call: input tensor size [{', '.join(map(str, self._shape))}] and "
                               f"output tensor size [{', '.join(map(str, out_shape))}] should match")
    return apply_inplace(self, lambda s, m1, m2: addmm(s, m1, m2, beta=beta, alpha=alpha), mat1, mat2)


__all__ = []
