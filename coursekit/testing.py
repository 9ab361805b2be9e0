"""Helpers for the tests of lesson checks (tests/test_lessonNN_exercises.py).

A check must give the same verdict whether PyTorch is installed or not; :func:`torch_hidden` runs
code as if it were not, and :data:`LIBRARY_MODES` with :func:`library_mode` parametrise a test over
both ways (the "installed" way is skipped when PyTorch is missing).

    >>> from coursekit.libs import libraries
    >>> with torch_hidden():
    ...     [name for name, _ in libraries()]
    ['tensorlab']
"""
import contextlib

from . import libs

#: Parametrise a test with these, and enter ``library_mode(mode)`` in it.
LIBRARY_MODES = ("torch hidden", "torch installed")


@contextlib.contextmanager
def torch_hidden():
    """Run the block as if PyTorch were not installed (coursekit's own view only)."""
    saved = libs._import_torch
    libs._import_torch = lambda: None
    try:
        yield
    finally:
        libs._import_torch = saved


def library_mode(mode):
    """A context for one of :data:`LIBRARY_MODES`; None when that mode cannot run here."""
    if mode == "torch hidden":
        return torch_hidden()
    if libs.torch_or_none() is None:
        return None
    return contextlib.nullcontext()


def assert_rejected(verdict, phrases):
    """A check refused an answer, and its message names each of ``phrases`` (what is off and why)."""
    assert not verdict, f"the check accepted it: {verdict.message}"
    for phrase in phrases:
        assert phrase in verdict.message, f"{phrase!r} not in the hint: {verdict.message}"
