"""broadcast_shapes, broadcast_tensors, broadcast_to: shapes, strides, grads and errors as PyTorch."""
import numpy as np
import pytest

import tensorlab


@pytest.mark.parametrize("shapes", [((3, 1), (4,)), ((3, 1), (1,), 5), ((2, 1, 3), (4, 1)), ((),), ((0,), (1,)),
                                    ((1,), (2, 1, 1))])
def test_broadcast_shapes_like_pytorch(torch, shapes):
    assert tuple(tensorlab.broadcast_shapes(*shapes)) == tuple(torch.broadcast_shapes(*shapes))
    assert type(tensorlab.broadcast_shapes(*shapes)).__name__ == "Size"


@pytest.mark.parametrize("shapes", [((3,), (4,)), ((2, 3), (4, 3)), ((3,), (2, 4)), ((2, 1), (3,), (4, 1))])
def test_broadcast_shapes_errors_like_pytorch(torch, shapes):
    messages = []
    for m in (tensorlab, torch):
        with pytest.raises(RuntimeError) as error:
            m.broadcast_shapes(*shapes)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_broadcast_tensors_are_views_with_pytorchs_strides_and_grads(torch):
    results = []
    for m in (tensorlab, torch):
        a = m.tensor(np.arange(3.).reshape(3, 1), requires_grad=True)
        b = m.tensor(np.arange(4.), requires_grad=True)
        x, y = m.broadcast_tensors(a, b)
        (x * y).sum().backward()
        results.append((tuple(x.shape), x.stride(), y.stride(), x.data_ptr() == a.data_ptr(),
                        a.grad.tolist(), b.grad.tolist(), type(x.grad_fn).__name__))
        with pytest.raises(RuntimeError, match="must match the size of tensor b"):
            m.broadcast_tensors(m.ones(3), m.ones(4))
    assert results[0] == results[1]


def test_broadcast_to_is_expand(torch):
    for m in (tensorlab, torch):
        t = m.ones(3)
        assert t.broadcast_to((2, 3)).stride() == (0, 1) and m.broadcast_to(t, (2, 3)).shape == (2, 3)
        with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(4\) must match the existing size \(3\)"):
            t.broadcast_to((4,))


@pytest.mark.parametrize("indexing", ["ij", "xy"])
@pytest.mark.parametrize("lengths", [(3,), (3, 2), (2, 3, 4)])
def test_meshgrid_like_pytorch(torch, indexing, lengths):
    results = []
    for m in (tensorlab, torch):
        inputs = [m.tensor(np.arange(n, dtype=np.float64) + 10 * k, requires_grad=True)
                  for k, n in enumerate(lengths)]
        grids = m.meshgrid(*inputs, indexing=indexing)
        sum(g * (k + 1) for k, g in enumerate(grids)).sum().backward()
        results.append(([g.tolist() for g in grids], [g.stride() for g in grids],
                        [t.grad.tolist() for t in inputs]))
    assert results[0] == results[1]


def test_meshgrid_errors_and_warning(torch):
    for m in (tensorlab, torch):
        with pytest.warns(UserWarning, match="it will be required to pass the indexing argument"):
            m.meshgrid(m.arange(3), m.arange(2))
        with pytest.raises(RuntimeError, match='indexing must be one of "xy" or "ij", but received: foo'):
            m.meshgrid(m.ones(2), indexing="foo")
        with pytest.raises(RuntimeError, match="Expected 0D or 1D tensor in the tensor list"):
            m.meshgrid(m.ones(2, 2), indexing="ij")
