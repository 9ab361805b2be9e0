"""Shared fixtures. PyTorch is an optional oracle: tests that need it use the ``torch`` fixture and
skip (with the reason) when it is not installed."""
import numpy as np
import pytest

import tensorlab
from coursekit.testing import LIBRARY_MODES, library_mode


@pytest.fixture
def torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")


@pytest.fixture(autouse=True)
def _isolate_global_state():
    """Tests must not leak a changed default dtype, grad mode or seed into each other."""
    dtype = tensorlab.get_default_dtype()
    grad = tensorlab.is_grad_enabled()
    yield
    tensorlab.set_default_dtype(dtype)
    tensorlab.set_grad_enabled(grad)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture(params=LIBRARY_MODES)
def mode(request):
    """Run an exercise-check test twice: with PyTorch installed (checks also run answers on it) and
    with PyTorch hidden (checks must work on tensorlab alone). Used by tests/test_lessonNN_exercises.py."""
    context = library_mode(request.param)
    if context is None:
        pytest.skip("PyTorch is not installed")
    with context:
        yield request.param
