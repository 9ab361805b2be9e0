"""OpLayer: the one hook through which forward-mode AD, vmap and dispatch modes see every op."""
import numpy as np
import pytest

import tensorlab as torch
from tensorlab.autograd.function import OpLayer, _op_layers, op_layer


class Log(OpLayer):
    def __init__(self, name, log):
        self.name, self.log = name, log

    def handle(self, cls, args, kwargs, proceed):
        self.log.append((self.name, cls.__name__))
        return proceed(args, kwargs)


def test_every_op_reaches_the_layer_and_the_result_is_unchanged():
    log = []
    x = torch.tensor(np.arange(4.0), requires_grad=True)
    with op_layer(Log("a", log)):
        y = (x * 2).exp().sum()
    assert [c for _, c in log] == ["Mul", "Exp", "Sum"]
    assert y.grad_fn.name() == "SumBackward0"
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(2 * np.arange(4.0)))
    assert _op_layers == []


def test_innermost_layer_handles_first_and_its_own_ops_skip_it():
    log = []

    class Doubling(Log):
        def handle(self, cls, args, kwargs, proceed):
            self.log.append((self.name, cls.__name__))
            out = proceed(args, kwargs)
            if cls.__name__ == "Neg":
                return out * 2   # its own op: seen by the outer layer only
            return out

    with op_layer(Log("outer", log)), op_layer(Doubling("inner", log)):
        y = -torch.ones(2)
    assert log == [("inner", "Neg"), ("outer", "Neg"), ("outer", "Mul")]
    assert y.tolist() == [-2.0, -2.0]


def test_a_failing_op_leaves_no_layer_switched_off():
    layer = Log("a", [])
    with pytest.raises(RuntimeError):
        with op_layer(layer):
            torch.ones(2) + torch.ones(3)
    assert _op_layers == []
