"""Lesson 25's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
import tensorlab.nn.functional as F
from coursekit import lesson25 as check
from coursekit.solutions import lesson25 as solution
from coursekit.testing import assert_rejected
from tensorlab.overrides import TorchFunctionMode
from tensorlab.utils._python_dispatch import TorchDispatchMode


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_op_counter(solution.OpCounter)
    assert check.check_leaky_relus(solution.LeakyRelus)
    assert check.check_dispatch_facts(solution.predictions)
    assert capsys.readouterr().out.count("Correct!") == 3


# -- other correct answers ----------------------------------------------------------------------------

class CounterWithSetdefault(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.counts = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        key = str(func)
        self.counts.setdefault(key, 0)
        self.counts[key] += 1
        return out


class LeakyByName(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func.__name__ == "relu":
            return F.leaky_relu(args[0], negative_slope=0.1)
        return func(*args, **(kwargs or {}))


def test_other_correct_answers_are_accepted(mode):
    assert check.check_op_counter(CounterWithSetdefault)
    assert check.check_leaky_relus(LeakyByName)
    assert check.check_dispatch_facts(["aten.add.Tensor", "aten.sum.dim_IntList",
                                       ["aten.t.default", "aten.mm.default"], "mode"])


# -- stubs -------------------------------------------------------------------------------------------------

class StubCounter(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.counts = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return ...  # your code here


class StubLeaky(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return ...  # your code here


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_op_counter(StubCounter), check.check_op_counter(...),
                    check.check_leaky_relus(StubLeaky), check.check_leaky_relus(...),
                    check.check_dispatch_facts(...), check.check_dispatch_facts(("aten.add.Tensor", ..., (), "mode"))):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


# -- wrong counters ------------------------------------------------------------------------------------------

def _counter(key, *, add=lambda counts, k: counts.get(k, 0) + 1, returns=True, shared=False):
    """An OpCounter whose key for func is ``key(func)`` and new count ``add(counts, key)``."""
    class Counter(TorchDispatchMode):
        counts = {}

        def __init__(self):
            super().__init__()
            if not shared:
                self.counts = {}

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            k = key(func)
            self.counts[k] = add(self.counts, k)
            out = func(*args, **(kwargs or {}))
            return out if returns else None
    return Counter


class CountsTwiceAsMuch(TorchDispatchMode):   # runs the op twice
    def __init__(self):
        super().__init__()
        self.counts = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.counts[str(func)] = self.counts.get(str(func), 0) + 1
        func(*args, **(kwargs or {}))
        return func(*args, **(kwargs or {})) * 1 if False else func(*args, **(kwargs or {}))


class NoCountsAttribute(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("answer, phrases", [
    (_counter(lambda f: f.__name__), ["counts is {", "func.__name__ leaves out the namespace"]),
    (_counter(lambda f: str(f.overloadpacket)), ["Count each overload, not each operator"]),
    (_counter(lambda f: f), ["Use str(func) as the key"]),
    (_counter(str, add=lambda counts, k: 1), ["Each name is counted once only"]),
    (_counter(str, shared=True), ["with the ops of the programs checked before it", "shares one dict"]),
    (_counter(str, returns=False), ["raised", "must return what the op returns"]),
    (NoCountsAttribute, ["the mode has no attribute `counts`"]),
    (lambda: torch.ones(2), ["should be a subclass of TorchDispatchMode"]),
    (TorchFunctionMode, ["should be a subclass of TorchDispatchMode"]),
])
def test_wrong_counters(mode, answer, phrases):
    assert_rejected(check.check_op_counter(answer), phrases)


# -- wrong relu swaps ---------------------------------------------------------------------------------------

def _leaky(test, slope=0.1, other=lambda func, args, kwargs: func(*args, **(kwargs or {}))):
    class Leaky(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            if test(func):
                return F.leaky_relu(args[0], slope)
            return other(func, args, kwargs)
    return Leaky


class PassesKwargsOn(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func.__name__ == "relu":
            return torch.nn.functional.leaky_relu(*args, 0.1, **{"negative_slope": 0.1, **kwargs})
        return func(*args, **kwargs)


@pytest.mark.parametrize("answer, phrases", [
    (_leaky(lambda f: f is torch.relu), ["F.relu(x).sum(0)", "calls it as F.relu", "three different callables"]),
    (_leaky(lambda f: f in (torch.relu, F.relu)), ["(x - 1).relu()", "calls it as Tensor.relu"]),
    (_leaky(lambda f: f.__name__ == "relu", slope=0.01), ["leaky_relu's default slope, 0.01"]),
    (_leaky(lambda f: f.__name__ == "relu", slope=-0.1), ["wrong sign"]),
    (_leaky(lambda f: f.__name__ == "relu", other=lambda func, args, kwargs: None),
     ["raised", "for *every* call, relu or not"]),
    (_leaky(lambda f: f.__name__ == "relu", other=lambda func, args, kwargs: NotImplemented),
     ["Multiple dispatch failed", "Returning NotImplemented means 'not mine'"]),
    (_leaky(lambda f: f.__name__ == "relu", other=lambda func, args, kwargs: func(*args)),
     ["torch.sigmoid(x).exp().sum(dim=0, keepdim=True)", "Only relu changes"]),
    (PassesKwargsOn, ["raised TypeError"]),
    (solution.OpCounter, ["should be a subclass of TorchFunctionMode"]),
])
def test_wrong_leaky_relus(mode, answer, phrases):
    assert_rejected(check.check_leaky_relus(answer), phrases)


# -- wrong predictions ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, phrases", [
    (("aten.add.Scalar", "aten.sum.dim_IntList", ("aten.t.default", "aten.mm.default"), "mode"),
     ["(1)", "The operator is right, not the overload"]),
    (("aten.add.Tensor", "aten.sum.default", ("aten.t.default", "aten.mm.default"), "mode"),
     ["(2)", "sums everything into a 0-d tensor"]),
    (("aten.add.Tensor", "aten.sum.dim_IntList", ("aten.t.default", "aten.addmm.default"), "mode"),
     ["(3)", "without a bias there is nothing to add"]),
    (("aten.add.Tensor", "aten.sum.dim_IntList", ("aten.mm.default",), "subclass"),
     ["2 of 4 predictions are off", "the transpose is an op of its own", "precedence rule"]),
    (("aten.add.Tensor", "aten.sum.dim_IntList"), ["a tuple of 4 predictions"]),
])
def test_wrong_predictions(mode, answer, phrases):
    assert_rejected(check.check_dispatch_facts(answer), phrases)
