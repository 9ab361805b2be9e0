"""benchmarks/bench_peers.py checks each library's answer against PyTorch's before timing it: here
those checks must all pass (a library that computed something else would be timed on other work),
and a library whose answer differs must be reported, not timed. No timing is asserted. A peer that
is not installed (pip install -e ".[bench]") skips its test."""
import numpy as np
import pytest

pytest.importorskip("torch")
from benchmarks import bench_peers  # noqa: E402 - after the skip: it builds its cases with torch


def _checked(lib):
    return {name: problem for (name, checked_lib), problem in bench_peers.GUARDS.items() if checked_lib == lib}


@pytest.mark.parametrize("lib", ["tensorlab", "numpy", "autograd", "mygrad", "micrograd"])
def test_every_row_gives_pytorchs_answer_in_each_library(lib):
    if lib not in ("tensorlab", "numpy"):
        pytest.importorskip(lib)
    checked = _checked(lib)
    assert checked, f"no row runs {lib}"
    assert {name: why for name, why in checked.items() if why is not None} == {}


def test_the_rows_each_library_runs():
    rows = {name: {lib for lib, fn in impls.items() if fn is not None} for name, impls in bench_peers.PEER_CASES}
    assert all({"tensorlab", "torch"} <= libs for libs in rows.values())
    if bench_peers.micrograd is not None:  # scalars only: the one a + b that records a node
        assert [name for name, libs in rows.items() if "micrograd" in libs and "import" not in name] == \
               ["a + b, 32x32 float32, a.requires_grad (micrograd: two scalars)"]
    if bench_peers.mygrad is not None:
        assert all("mygrad" in libs for libs in rows.values())


def test_a_library_that_differs_is_reported_and_not_timed():
    name, runs = bench_peers._guarded("a row of this test", {
        "torch": lambda: np.float32(1.0),
        "tensorlab": lambda: np.float32(1.0 + 1e-7),  # float32 rounding: agrees
        "mygrad": lambda: (np.float32(1.0), np.ones(2)),  # one value too many
        "autograd": lambda: np.float32(1.5),
        "micrograd": lambda: 1 / 0,
    })
    assert bench_peers.GUARDS[name, "tensorlab"] is None
    assert runs["tensorlab"]() == np.float32(1.0 + 1e-7)
    assert "gave 2 values" in bench_peers.GUARDS[name, "mygrad"]
    assert "differs from PyTorch's by up to 0.5" in bench_peers.GUARDS[name, "autograd"]
    assert bench_peers.GUARDS[name, "micrograd"].startswith("ZeroDivisionError")
    for lib in ("mygrad", "autograd", "micrograd"):
        with pytest.raises(AssertionError, match="not timed"):
            runs[lib]()


def test_momentum_sgd_matches_torch_optim_sgd():
    import torch
    rng = np.random.default_rng(0)
    start = rng.standard_normal(5).astype(np.float32)
    grads = [rng.standard_normal(5).astype(np.float32) for _ in range(3)]
    ours = start.copy()
    sgd = bench_peers.MomentumSGD([ours], lr=0.1, momentum=0.9)
    theirs = torch.tensor(start.copy(), requires_grad=True)
    reference = torch.optim.SGD([theirs], lr=0.1, momentum=0.9)
    for g in grads:
        sgd.step([g])
        theirs.grad = torch.from_numpy(g.copy())
        reference.step()
        np.testing.assert_allclose(ours, theirs.detach().numpy(), rtol=1e-6)
