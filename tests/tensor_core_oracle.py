"""Helpers for the tensor-core tests (layout, views, indexing, attributes, creation): build the same
data in tensorlab and PyTorch from one NumPy array, then compare everything a learner can observe."""
import numpy as np

import tensorlab


def pair(torch, array, requires_grad=False):
    """The same values as a tensorlab tensor and a torch tensor (separate memory)."""
    array = np.ascontiguousarray(array)
    ours = tensorlab.tensor(array.copy(), requires_grad=requires_grad)
    theirs = torch.tensor(array.copy(), requires_grad=requires_grad)
    return ours, theirs


def name(t):
    """``t.grad_fn.name()`` or None."""
    return None if t.grad_fn is None else t.grad_fn.name()


def chain(t):
    """grad_fn names from ``t`` back to the first leaf, following each node's first edge."""
    names, node = [], t.grad_fn
    while node is not None and "AccumulateGrad" not in node.name():
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


def values(t):
    return np.asarray(t.detach().tolist())


def same_layout(ours, theirs):
    """Shape, strides, storage offset and dtype all equal."""
    assert tuple(ours.shape) == tuple(theirs.shape), (ours.shape, theirs.shape)
    assert ours.stride() == theirs.stride(), (ours.stride(), theirs.stride())
    assert ours.storage_offset() == theirs.storage_offset(), (ours.storage_offset(), theirs.storage_offset())
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)


def same(ours, theirs, layout=True, grad_fn=True):
    """Everything observable about a result: layout, values and grad_fn name."""
    if layout:
        same_layout(ours, theirs)
    else:
        assert tuple(ours.shape) == tuple(theirs.shape), (ours.shape, theirs.shape)
        assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    np.testing.assert_array_equal(values(ours), values(theirs))
    if grad_fn:
        assert name(ours) == name(theirs), (name(ours), name(theirs))


def raises_like(torch_fn, ours_fn):
    """Both calls fail with the same exception type and the same first line of message."""
    try:
        torch_fn()
    except Exception as err:  # noqa: BLE001 - we compare whatever torch raises
        expected = err
    else:
        raise AssertionError("torch did not raise")
    try:
        ours_fn()
    except Exception as err:  # noqa: BLE001
        got = err
    else:
        raise AssertionError(f"tensorlab did not raise; torch raised {expected!r}")
    assert type(got) is type(expected), (type(got), type(expected), got)
    first = str(expected).splitlines()[0]
    assert first in str(got), (str(got), first)
