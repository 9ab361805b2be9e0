"""__torch_function__, TorchFunctionMode and tensorlab.overrides against PyTorch: who is asked, with which
``func``, in which order, what results become, and what happens when everyone declines."""
import inspect
import subprocess
import sys

import numpy as np
import pytest

import tensorlab
import tensorlab.nn.functional as F
from tensorlab import overrides
from tensorlab.overrides import TorchFunctionMode
from tests.oracle import assert_same


def _both():
    torch = pytest.importorskip("torch")
    return [(tensorlab, tensorlab.nn.functional), (torch, torch.nn.functional)]


def _recording_subclass(lib):
    class Recorded(lib.Tensor):
        seen = []

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            cls.seen.append(func.__name__)
            return super().__torch_function__(func, types, args, kwargs)
    return Recorded


def _recording_mode(lib):
    base = tensorlab.overrides.TorchFunctionMode if lib is tensorlab else lib.overrides.TorchFunctionMode

    class Log(base):
        def __init__(self):
            super().__init__()
            self.seen = []

        def __torch_function__(self, func, types, args=(), kwargs=None):
            self.seen.append(func.__name__)
            return func(*args, **(kwargs or {}))
    return Log()


# -- subclasses ----------------------------------------------------------------------------------------------


def test_a_plain_subclass_keeps_its_class_through_ops_as_in_pytorch():
    for lib, _ in _both():
        class Mine(lib.Tensor):
            pass
        s = lib.ones(2, 3).as_subclass(Mine)
        results = [s + 1, 1 + s, lib.add(s, s), s.sum(0), s[0], s.max(0).values, lib.relu(s), s.t()]
        assert all(type(r) is Mine for r in results), lib
        assert type(s.max(0)).__name__ == "max" and type(s.max(0)[1]) is Mine
        assert isinstance(s.dim(), int) and type(s.tolist()) is list


def test_operators_reach_handlers_as_pytorch_names_them():
    def seen_for(lib, operation):
        Recorded = _recording_subclass(lib)
        s = lib.ones(2, dtype=lib.int64).as_subclass(Recorded)
        Recorded.seen.clear()
        operation(s)
        return Recorded.seen
    operations = [lambda s: s + 1, lambda s: 1 + s, lambda s: s - 1, lambda s: 1 - s, lambda s: s * 2,
                  lambda s: 2 * s, lambda s: s / 2, lambda s: s % 2, lambda s: s ** 2, lambda s: 2 ** s,
                  lambda s: s // 2, lambda s: s & 1, lambda s: 1 & s, lambda s: s == 1, lambda s: s != 1,
                  lambda s: s < 1, lambda s: s >= 1, lambda s: -s, lambda s: abs(s), lambda s: s[0],
                  lambda s: len(s), lambda s: s.sum(), lambda s: s.view(-1), lambda s: repr(s)]
    (ours, _), (torch, _) = _both()
    for operation in operations:
        assert seen_for(ours, operation) == seen_for(torch, operation)


def test_tensorlab_functions_methods_and_operators_hand_over_the_public_callable():
    funcs = []

    class Mine(tensorlab.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            funcs.append(func)
            return super().__torch_function__(func, types, args, kwargs)
    s = tensorlab.ones(2).as_subclass(Mine)
    tensorlab.add(s, 1), s.add(1), s + 1, F.relu(s), s - 1
    assert funcs == [tensorlab.add, tensorlab.Tensor.add, tensorlab.Tensor.add, F.relu, tensorlab.Tensor.sub]


def test_subclass_goes_before_superclass_otherwise_left_to_right():
    for lib, _ in _both():
        order = []

        class A(lib.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                order.append(cls.__name__)
                return NotImplemented if cls.__name__ != "A" else super().__torch_function__(func, types, args, kwargs)

        class B(A):
            pass

        class C(lib.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                order.append("C")
                return NotImplemented
        a, b, c = (lib.ones(1).as_subclass(k) for k in (A, B, C))
        order.clear()
        with pytest.raises(TypeError):
            lib.add(a, b)  # B first (subclass of A): declines; then A: its super() sees B in types
        first = list(order)
        order.clear()
        with pytest.raises(TypeError):
            lib.add(c, a)
        if lib is tensorlab:
            ours = (first, list(order))
        else:
            assert ours == (first, list(order))


def test_all_not_implemented_raises_pytorch_type_error():
    class Declines:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented
    with pytest.raises(TypeError, match="Multiple dispatch failed for 'tensorlab.add'; all __torch_function__ "
                                        "handlers returned NotImplemented"):
        tensorlab.add(Declines(), 1)

    class Refuses(tensorlab.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented
    r = tensorlab.ones(1).as_subclass(Refuses)
    with pytest.raises(TypeError, match="Multiple dispatch failed for 'tensorlab.Tensor.add'"):
        r.add(1)
    with pytest.raises(TypeError, match="unsupported operand type"):  # an operator declines: Python's error
        r + 1


def test_a_tensor_like_that_is_not_a_tensor():
    """PyTorch's documented example: a class with HANDLED_FUNCTIONS answers the functions it knows."""
    for lib, _ in _both():
        handled = {}

        class ScalarTensor:
            def __init__(self, n, value):
                self._n, self._value = n, value

            def tensor(self):
                return self._value * lib.eye(self._n)

            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                if func not in handled or not all(issubclass(t, (lib.Tensor, ScalarTensor)) for t in types):
                    return NotImplemented
                return handled[func](*args, **(kwargs or {}))
        handled[lib.mean] = lambda s: float(s._value) / s._n
        handled[lib.add] = lambda s, other: ScalarTensor(s._n, s._value + other) if isinstance(s, ScalarTensor) \
            else ScalarTensor(other._n, other._value + s)
        d = ScalarTensor(5, 2)
        assert lib.mean(d) == 0.4
        assert lib.add(d, 1)._value == 3 and overrides.is_tensor_like(d)
        with pytest.raises(TypeError):
            lib.exp(d)


def test_disable_torch_function_subclass_and_disable_torch_function():
    for lib, _ in _both():
        class Mine(lib.Tensor):
            pass
        s = lib.ones(2).as_subclass(Mine)
        mode = _recording_mode(lib)
        with mode:
            with lib._C.DisableTorchFunctionSubclass():
                assert type(s + 1) is lib.Tensor  # no subclass dispatch, but the mode still sees it
            with lib._C.DisableTorchFunction():
                lib.relu(s)
                assert lib._C._is_torch_function_enabled() is False
        assert mode.seen == ["add"] and lib._C._is_torch_function_enabled() is True


# -- modes ---------------------------------------------------------------------------------------------------


def test_mode_sees_every_public_call_as_pytorch():
    results = []
    for lib, fn in _both():
        mode = _recording_mode(lib)
        a, b = lib.ones(2, 2), lib.ones(2, 2)
        with mode:
            a + b, lib.relu(a), a.relu(), fn.relu(a), lib.zeros(2), a[0], len(a), lib.cat([a, b]), 2 + a
            fn.linear(a, b)
        results.append(mode.seen)
    assert results[0] == results[1]


def test_mode_handler_calls_go_past_it_and_modes_nest():
    for lib, _ in _both():
        outer, inner = _recording_mode(lib), _recording_mode(lib)
        with outer, inner:
            lib.ones(2).exp()
        assert inner.seen == ["ones", "exp"] and outer.seen == ["ones", "exp"]


def test_mode_can_change_results_and_leaves_cleanly_on_error():
    class Double(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            return out * 2 if func is tensorlab.relu else out
    with Double():
        assert tensorlab.relu(tensorlab.tensor([1.0])).tolist() == [2.0]
    with pytest.raises(ZeroDivisionError), Double():
        1 / 0
    assert overrides._get_current_function_mode_stack() == []
    assert tensorlab.relu(tensorlab.tensor([1.0])).tolist() == [1.0]


def test_mode_declining_raises_with_the_mode_named():
    class Declines(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return NotImplemented
    x = tensorlab.ones(1)
    with pytest.raises(TypeError, match="(?s)Multiple dispatch failed for 'tensorlab.relu'.*mode object"), Declines():
        tensorlab.relu(x)


# -- tensorlab.overrides --------------------------------------------------------------------------------------


def test_has_and_handle_torch_function_make_your_own_function_overridable():
    def double(x):
        if overrides.has_torch_function_unary(x):
            return overrides.handle_torch_function(double, (x,), x)
        return x * 2

    class Mine(tensorlab.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "handled" if func is double else NotImplemented
    assert double(tensorlab.ones(1)).tolist() == [2.0]
    assert double(tensorlab.ones(1).as_subclass(Mine)) == "handled"
    assert not overrides.has_torch_function((tensorlab.ones(1), 2))

    class Declines:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented
    with pytest.raises(TypeError, match="no implementation found for '.*double' on types that implement "
                                        "__torch_function__"):
        overrides.handle_torch_function(double, (Declines(),), Declines())


def test_overridable_and_ignored_functions():
    found = overrides.get_overridable_functions()
    assert tensorlab.add in found[tensorlab] and F.relu in found[tensorlab.nn.functional]
    assert tensorlab.Tensor.add in found[tensorlab.Tensor]
    ignored = overrides.get_ignored_functions()
    assert tensorlab.is_tensor in ignored and tensorlab.add not in ignored
    assert overrides.is_tensor_method_or_property(tensorlab.Tensor.add)
    assert not overrides.is_tensor_method_or_property(tensorlab.add)
    assert overrides.is_tensor_like(tensorlab.ones(1)) and not overrides.is_tensor_like(1)


def test_wrapped_functions_keep_names_signatures_and_numpy_aliases():
    overrides.get_overridable_functions()  # the wrappers are in place from here on
    assert tensorlab.add.__name__ == "add" and tensorlab.Tensor.__rsub__.__name__ == "__rsub__"
    assert "alpha" in inspect.signature(tensorlab.add).parameters
    assert list(inspect.signature(F.relu).parameters) == ["input", "inplace"]
    x = tensorlab.tensor(np.arange(6.0).reshape(2, 3))
    assert tensorlab.sum(x, axis=1).tolist() == [3.0, 12.0]  # ops/numpy_names.py still works
    out = tensorlab.empty(2, 3)
    assert tensorlab.add(x, 1, out=out) is out  # and ops/out.py


def test_parameters_opt_out_as_in_pytorch():
    for lib, _ in _both():
        p = lib.nn.Parameter(lib.ones(2))
        assert type(p + 1) is lib.Tensor and type(lib.relu(p)) is lib.Tensor


def test_as_subclass_shares_memory_and_history():
    class Mine(tensorlab.Tensor):
        pass
    torch = pytest.importorskip("torch")
    x = tensorlab.tensor([1.0, 2.0], requires_grad=True)
    tx = torch.tensor([1.0, 2.0], requires_grad=True)
    s, ts = (x * 3).as_subclass(Mine), (tx * 3).as_subclass(torch.Tensor)
    assert s.grad_fn.name() == (tx * 3).as_subclass(type("M", (torch.Tensor,), {})).grad_fn.name()
    (s * s).sum().backward()
    (ts * ts).sum().backward()
    assert_same(x.grad, tx.grad)
    with pytest.raises(TypeError, match="Creating a Tensor subclass from a class that does not inherit from Tensor"):
        x.as_subclass(int)


def test_gradcheck_through_a_subclass():
    class Mine(tensorlab.Tensor):
        pass

    def f(x):
        return (x.as_subclass(Mine).exp() * 2 + 1).sum(0)
    x = tensorlab.tensor(np.random.default_rng(0).standard_normal((3, 2)), dtype=tensorlab.float64,
                         requires_grad=True)
    assert tensorlab.autograd.gradcheck(f, (x,))


def test_nothing_is_wrapped_until_something_asks():
    """The cost rule: importing tensorlab and nn, and training, leaves every op unwrapped."""
    code = ("import tensorlab, tensorlab.nn as nn\n"
            "m = nn.Linear(3, 2); m(tensorlab.ones(4, 3)).sum().backward()\n"
            "from tensorlab import _torch_function as tf\n"
            "assert not tf._State.installed and not hasattr(tensorlab.add, '_torch_function_original')\n"
            "assert not hasattr(tensorlab.Tensor.__add__, '_torch_function_original')\n"
            "class Mine(tensorlab.Tensor): pass\n"
            "assert tf._State.installed and hasattr(tensorlab.Tensor.__add__, '_torch_function_original')\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_methods_pytorch_writes_in_python_hand_over_their_options_by_keyword():
    """``x.backward()`` reaches a mode as ``Tensor.backward(x, gradient=None, ...)`` in both libraries."""
    def seen(lib):
        calls = []

        class Log(lib.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                calls.append((func.__name__, len(args), dict(kwargs or {})))
                return func(*args, **(kwargs or {}))
        x = lib.arange(6.0).reshape(2, 3).requires_grad_()
        with Log():
            x.norm(), x.split(1), x.split(1, 1), x.unique(), x.unique_consecutive(), x.unflatten(1, (3, 1))
            x.sum().backward()
        return [call for call in calls if call[0] != "sum"]
    (ours, _), (torch, _) = _both()
    assert seen(ours) == seen(torch)
