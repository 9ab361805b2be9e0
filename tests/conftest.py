"""Shared fixtures. PyTorch is an optional oracle: tests that need it use the ``torch`` fixture and
skip (with the reason) when it is not installed.

The device the device-independent tests run on: ``pytest --device cuda`` (or the environment variable
``TENSORLAB_TEST_DEVICE=cuda``; ``make test-gpu``). Tests that take the ``device`` fixture create their
tensors there (tests/test_device.py: tensor core, autograd, nn, optim, seeds) and compare with the
same expected values -- on CPU tensorlab, and on PyTorch on the same device where torch can use it.
Without a usable GPU they skip with the reason; the default, ``cpu``, runs them on the CPU."""
import os

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


def pytest_addoption(parser):
    parser.addoption("--device", default=os.environ.get("TENSORLAB_TEST_DEVICE", "cpu"),
                     help="device for the device-independent tests: cpu (default) or cuda "
                          "(also TENSORLAB_TEST_DEVICE)")


@pytest.fixture(scope="session")
def device(request):
    """The tensorlab device the test runs on (``--device``); skips, saying why, if cuda is unusable."""
    name = request.config.getoption("--device")
    if name.startswith("cuda"):
        reason = tensorlab.cuda._why_unavailable()
        if reason:
            pytest.skip(f"--device {name}: {reason}")
    return tensorlab.device(name)


