"""History after an in-place op: rebasing, CopySlices, and views that regenerate their grad_fn.

``y = x * 2; y.add_(1)`` overwrites ``y``. The values ``y`` held before are gone, and so is their
history as ``y``'s history: ``y`` now comes from the ``add`` (its grad_fn becomes AddBackward0, whose
edge leads to the old MulBackward0). That is *rebasing* the history.

An in-place op on a **view** changes its base too. ``y = x.clone(); y[:, 1].mul_(2)`` changes part of
``y``; afterwards ``y``'s history must say "``y`` is the old ``y`` with that slice replaced by
``2 * old slice``". **CopySlices** is that node: its backward takes the gradient of the whole base,
runs the in-place op's backward on the slice, and passes the rest through unchanged. The modified
view itself gets an ``AsStridedBackward0`` that reads its slice out of the base's new history.

Other views of the same base that already existed are now stale too. Each view remembers the version
of the shared counter its grad_fn was made for; when asked for its grad_fn at a later version, it
makes a fresh ``AsStridedBackward0`` from the base's current history (as PyTorch does, lazily).
See course/08_inplace_and_versions.
"""
from . import grad_mode
from .graph import Node, gradient_edge


class CopySlices(Node):
    """The base's history after an in-place op (recorded as ``fn``) on one of its views."""

    def __init__(self, base, view, fn):
        super().__init__()
        self.fn = fn
        base_edge = gradient_edge(base) or (None, 0)
        # input 0 of fn was the view; CopySlices receives the whole base's gradient instead
        self.next_functions = (base_edge,) + tuple(fn.next_functions[1:])
        self._base_geometry = (base._shape, base._stride)
        self._view_geometry = (view._shape, view._stride, view._offset - base._offset)
        self._output_meta = ((base._shape, base._array.dtype, base._device),)

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grad):
        from ..ops.creation import empty_strided
        shape, stride = self._base_geometry
        result = empty_strided(shape, stride, dtype=grad.dtype, device=grad.device)
        result.copy_(grad)
        view_shape, view_stride, view_offset = self._view_geometry
        grad_slice = result.as_strided(view_shape, view_stride, result._offset + view_offset)
        grads = self.fn.apply(grad_slice.clone())
        if grads[0] is None:
            grad_slice.zero_()
        else:
            grad_slice.copy_(grads[0])
        return (result,) + tuple(grads[1:])

    @property
    def _saved(self):
        return self.fn._saved

    def release_variables(self):
        self.fn.release_variables()
        self._released = True


def rebase_history(t, node, output_nr):
    """``t`` was overwritten with output ``output_nr`` of ``node``: it (or its base, for a view) now
    comes from ``node``. A ``retain_grad()`` on ``t`` moves to its new history."""
    old_fn, old_nr = t._grad_fn, t._output_nr
    if t._base is not None:
        _rebase_view(t, node, output_nr)
    else:
        t._grad_fn, t._output_nr, t._requires_grad = node, output_nr, True
    if t._retains_grad:
        _move_retain_grad(t, old_fn, old_nr)


def _rebase_view(view, node, output_nr):
    """The base takes CopySlices as its history; the view reads its part of it (AsStridedBackward0)."""
    base = view._base
    copy_slices = CopySlices(base, view, node)
    base._grad_fn, base._output_nr, base._requires_grad = copy_slices, 0, True
    _as_strided_history(view)


def refresh_view(view):
    """Give ``view`` a fresh grad_fn if its base changed in place since its grad_fn was made."""
    if view._view_version != view._version_counter.value and view._base._requires_grad:
        old_fn, old_nr = view._grad_fn, view._output_nr
        _as_strided_history(view)
        if view._retains_grad:
            _move_retain_grad(view, old_fn, old_nr)


def _as_strided_history(view):
    """Record ``view`` as ``base.as_strided(view's geometry)``: its history is the base's, sliced."""
    base = view._base
    previous = grad_mode._State.enabled
    grad_mode._State.enabled = True
    try:
        fresh = base.as_strided(view._shape, view._stride, view._offset)
    finally:
        grad_mode._State.enabled = previous
    view._grad_fn, view._output_nr, view._requires_grad = fresh._grad_fn, 0, True
    view._view_version = view._version_counter.value


def _move_retain_grad(t, old_fn, old_nr):
    import weakref
    if old_fn is not None and old_fn._retain_grad:
        old_fn._retain_grad.pop(old_nr, None)
    new_fn = t._grad_fn
    if new_fn._retain_grad is None:
        new_fn._retain_grad = {}
    new_fn._retain_grad[t._output_nr] = weakref.ref(t)
