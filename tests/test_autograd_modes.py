"""Grad modes (no_grad, enable_grad, set_grad_enabled, inference_mode) and ways out of the graph
(detach, detach_, requires_grad_, .data), compared with PyTorch."""
import pytest

import tensorlab


def _records(m):
    return (m.ones(2, requires_grad=True) * 2).requires_grad


def _inference(m):
    """``torch.is_inference_mode_enabled()``; tensorlab has it in autograd (tensorlab/__init__.py does
    not re-export it yet)."""
    return (m.is_inference_mode_enabled if m is not tensorlab else m.autograd.is_inference_mode_enabled)()


def test_no_grad_and_enable_grad_as_context_managers(torch):
    for m in (tensorlab, torch):
        with m.no_grad():
            assert not m.is_grad_enabled() and not _records(m)
            with m.enable_grad():
                assert m.is_grad_enabled() and _records(m)
            assert not m.is_grad_enabled()
        assert m.is_grad_enabled() and _records(m)


def test_modes_restore_the_flag_after_an_exception(torch):
    for m in (tensorlab, torch):
        with pytest.raises(ValueError):
            with m.no_grad():
                raise ValueError("inside")
        assert m.is_grad_enabled()


def test_modes_as_decorators_with_and_without_parentheses(torch):
    for m in (tensorlab, torch):
        @m.no_grad()
        def f():
            return _records(m)

        @m.no_grad
        def g():
            return _records(m)

        @m.enable_grad()
        def h():
            return _records(m)

        @m.set_grad_enabled(False)
        def k():
            return _records(m)

        @m.inference_mode()
        def i():
            return _records(m), _inference(m)

        assert m.is_grad_enabled()  # decorating changed nothing outside
        assert not f() and not g() and not k() and i() == (False, True)
        with m.no_grad():
            assert h()
        assert f.__name__ == "f"


def test_decorated_generators_hold_the_mode_only_while_running(torch):
    for m in (tensorlab, torch):
        @m.no_grad()
        def gen():
            for _ in range(2):
                received = yield m.is_grad_enabled()
                assert received == "ping"
            return "done"

        g = gen()
        assert next(g) is False
        assert m.is_grad_enabled()  # the caller's mode between steps
        assert g.send("ping") is False
        with pytest.raises(StopIteration) as stop:
            g.send("ping")
        assert stop.value.value == "done"


def test_set_grad_enabled_as_function_and_context_manager(torch):
    for m in (tensorlab, torch):
        m.set_grad_enabled(False)
        assert not m.is_grad_enabled()
        m.set_grad_enabled(True)
        with m.set_grad_enabled(False):
            assert not _records(m)
            with m.set_grad_enabled(True):
                assert _records(m)
            assert not m.is_grad_enabled()
        assert m.is_grad_enabled()


def test_inference_mode(torch):
    for m in (tensorlab, torch):
        assert not _inference(m)
        with m.inference_mode():
            assert _inference(m) and not m.is_grad_enabled() and not _records(m)
            with m.inference_mode(False):
                assert not _inference(m) and m.is_grad_enabled()
        assert not _inference(m) and m.is_grad_enabled()


def test_detach_shares_storage_and_version_counter(torch):
    for m in (tensorlab, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        d = y.detach()
        assert not d.requires_grad and d.grad_fn is None and d.is_leaf
        assert d.data_ptr() == y.data_ptr()
        d.add_(1)
        assert y.tolist() == [3.0, 5.0]
        assert d._version == y._version == 1


def test_in_place_through_detach_is_caught_by_the_version_check(torch):
    for m in (tensorlab, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()  # ExpBackward0 saves y
        y.detach().zero_()
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()


def test_data_is_untracked_with_its_own_version_counter(torch):
    for m in (tensorlab, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        d = y.data
        assert not d.requires_grad and d.grad_fn is None and d._base is None
        d.mul_(1.0)
        assert d._version == 1 and y._version == 0
        y.sum().backward()  # not caught: .data escapes the version check
        x.data = m.tensor([5.0, 6.0])
        assert x.tolist() == [5.0, 6.0] and x.requires_grad and x.is_leaf


def test_detach_in_place(torch):
    for m in (tensorlab, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.detach_()
        assert not y.requires_grad and y.grad_fn is None and y.is_leaf
        z = (x * 2)[0]
        with pytest.raises(RuntimeError, match="Can't detach views in-place. Use detach\\(\\) instead."):
            z.detach_()


def test_requires_grad_starts_recording_on_a_leaf(torch):
    for m in (tensorlab, torch):
        x = m.tensor([1.0, 2.0])
        assert x.requires_grad_() is x
        (x * x).sum().backward()
        assert x.grad.tolist() == [2.0, 4.0]
        x.requires_grad = False
        assert not (x * 2).requires_grad


def test_no_grad_results_do_not_record_even_from_requiring_inputs(torch):
    for m in (tensorlab, torch):
        w = m.ones(2, requires_grad=True)
        with m.no_grad():
            w.mul_(2)  # in-place on a leaf is allowed without recording
            y = w * 3
        assert w.is_leaf and w.grad_fn is None and w.tolist() == [2.0, 2.0]
        assert not y.requires_grad and w._version == 1
