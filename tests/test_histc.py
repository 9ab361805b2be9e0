"""``histc`` against PyTorch: bins over [min, max], min == max meaning the data's range, edge elements,
elements outside the range and NaNs ignored, dtypes, no grad_fn, and PyTorch's errors."""
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

import tensorlab
from tests.math_oracle import same

DATA = np.array([1., 2, 1, 3, 4, 2.5, -1, 7])


@pytest.mark.parametrize("args", [(), (4,), (4, 0, 3), (3, 1, 1), (4, 0.5, 2.5), (10, 0, 1), (1,), (5, -10, 10),
                                  (7, 2, 4)], ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_histc_matches_torch(torch, args, dtype):
    x = DATA.astype(dtype)
    same(torch, lambda lib, t: lib.histc(t, *args), x)
    same(torch, lambda lib, t: t.histc(*args), x)
    same(torch, lambda lib, t: t.reshape(2, 4).t().histc(*args), x)


@pytest.mark.parametrize("values", [[2., 2, 2], [], [0., 1 / 3, 2 / 3, 1.], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
                                    [1., float("nan"), 2.]], ids=str)
def test_histc_edge_data(torch, values):
    x = np.array(values, dtype=np.float32)
    for args in [(4,), (10, 0, 1), (3, 1, 2)]:
        same(torch, lambda lib, t: lib.histc(t, *args), x)


def test_histc_keyword_arguments_and_random_data(torch, rng):
    x = rng.standard_normal(1000).astype(np.float32)
    same(torch, lambda lib, t: lib.histc(t, bins=20, min=-2, max=2), x)
    same(torch, lambda lib, t: t.histc(bins=13), x)


def test_histc_is_not_differentiable():
    x = tensorlab.tensor(DATA, requires_grad=True)
    out = tensorlab.histc(x, 4)
    assert out.grad_fn is None and not out.requires_grad


@pytest.mark.parametrize("call", [
    lambda lib, t: lib.histc(t, 0),
    lambda lib, t: lib.histc(t, -1),
    lambda lib, t: lib.histc(t, 4, 3, 1),
    lambda lib, t: lib.histc(t, 4, 0, float("inf")),
    lambda lib, t: lib.histc(t, 2.5),
    lambda lib, t: lib.histc(t.long(), 4),
    lambda lib, t: lib.histc(t.bool(), 4),
    lambda lib, t: lib.histc(t * float("inf"), 4),
    lambda lib, t: lib.histc([1., 2.], 4),
], ids=lambda c: "")
def test_histc_errors_match_torch(torch, call):
    same(torch, call, DATA)


def test_histc_of_nan_range_is_not_finite():
    with pytest.raises(RuntimeError, match="is not finite"):
        tensorlab.histc(tensorlab.tensor([1., float("nan")]), 4)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-3, 3, width=32), max_size=12), st.integers(1, 5), st.booleans(), st.booleans(),
       st.sampled_from([None, (-1.0, 1.0), (0.0, 2.5)]))
@example([0.7007200121879578], 2, False, False, None)   # on the middle edge, as PyTorch's linspace rounds it
def test_histogram_matches_pytorch(data, bins, weighted, density, value_range):
    """``histogram``: counts (weighted, or as a density) and the bin edges, from ``bins`` and ``range``."""
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (tensorlab, torch):
        x = lib.tensor(data, dtype=lib.float32)
        weight = lib.linspace(0.5, 2.0, len(data)) if weighted else None
        hist, edges = lib.histogram(x, bins, range=value_range, weight=weight, density=density)
        outcomes.append((hist.numpy(), edges.numpy()))
    np.testing.assert_allclose(outcomes[0][1], outcomes[1][1], rtol=1e-6)
    np.testing.assert_allclose(outcomes[0][0], outcomes[1][0], rtol=1e-5, atol=1e-6)


def test_histogram_with_edges_and_errors_match_pytorch(torch):
    for lib in (tensorlab, torch):
        result = lib.tensor([-1.0, 0.5, 2.0]).histogram(lib.tensor([0.0, 1.0, 2.0]))
        assert repr(result).startswith("torch.return_types.histogram(") and result.hist.tolist() == [1.0, 1.0]
        with pytest.raises(RuntimeError, match="bins must be > 0, but got 0"):
            lib.histogram(lib.tensor([1.0]), 0)
        with pytest.raises(NotImplementedError, match='"histogramdd" not implemented for \'Long\''):
            lib.histogram(lib.tensor([1, 2]), 2)
