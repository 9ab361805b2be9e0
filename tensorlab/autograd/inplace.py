"""In-place ops on views: PyTorch's CopySlices.

``y = x.clone(); y[:, 1].mul_(2)`` changes part of ``y``. Afterwards ``y``'s history must say
"``y`` is the old ``y`` with the slice replaced by ``2 * old slice``". CopySlices is that node: its
backward takes the gradient of the whole base, runs the in-place op's backward on the slice, and
passes the rest of the gradient through unchanged.
See course/07_inplace_and_versions.
"""
from .graph import Node, gradient_edge


class CopySlices(Node):
    """The base's history after an in-place op on one of its views."""

    def __init__(self, base, view, fn):
        super().__init__()
        self.fn = fn
        base_edge = gradient_edge(base) or (None, 0)
        self.next_functions = (base_edge,) + tuple(fn.next_functions[1:])
        self._base_geometry = (base._shape, base._stride, base._offset)
        self._view_geometry = (view._shape, view._stride, view._offset - base._offset)
        self._output_meta = ((base._shape, base.dtype, base.device),)

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grad):
        from ..ops.creation import empty_strided
        shape, stride, _ = self._base_geometry
        result = empty_strided(shape, stride, dtype=grad.dtype, device=grad.device)
        result.copy_(grad)
        view_shape, view_stride, view_offset = self._view_geometry
        grad_slice = result.as_strided(view_shape, view_stride, result._offset + view_offset)
        res = self.fn.apply(grad_slice.clone())
        if res[0] is None:
            grad_slice.zero_()
        else:
            grad_slice.copy_(res[0])
        return (result,) + tuple(res[1:])

    def release_variables(self):
        self.fn.release_variables()
        super().release_variables()


def rebase_view(view, node, output_nr):
    """After an in-place op recorded as ``node`` on ``view``: the base gets CopySlices, the view an
    AsStridedBackward0 that reads its slice out of the base's new history."""
    base = view._base
    copy_slices = CopySlices(base, view, node)
    base._grad_fn, base._output_nr, base._requires_grad = copy_slices, 0, True
    from ..ops.shape import AsStrided
    fresh = AsStrided._backward_cls()
    fresh.next_functions = ((copy_slices, 0),)
    fresh.size, fresh.stride, fresh.offset = view._shape, view._stride, view._offset
    fresh.base_geometry = (base._shape, base._stride, base._offset)
    fresh._input_meta = ((base._shape, base._array.dtype),)
    fresh._tensor_positions, fresh._n_args = (0,), 4
    fresh._output_meta = ((view._shape, view.dtype, view.device),)
    view._grad_fn, view._output_nr, view._requires_grad = fresh, 0, True
