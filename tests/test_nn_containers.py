"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict -- behaviour and printing
compared with PyTorch."""
from collections import OrderedDict

import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn


def test_sequential_runs_layers_in_order():
    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    x = tensorlab.randn(4, 2)
    expected = m[2](m[1](m[0](x)))
    np.testing.assert_allclose(m(x).detach().numpy(), expected.detach().numpy())
    assert [n for n, _ in m.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_sequential_indexing_slicing_and_editing(torch):
    layers = [nn.Linear(1, 1), nn.ReLU(), nn.Tanh(), nn.Sigmoid()]
    m = nn.Sequential(*layers)
    assert len(m) == 4 and m[-1] is layers[3] and m[0] is layers[0]
    assert list(m) == layers
    head = m[1:3]
    assert isinstance(head, nn.Sequential) and list(head._modules) == ["1", "2"]
    with pytest.raises(IndexError, match="index 4 is out of range"):
        m[4]
    m[1] = nn.ELU()
    assert isinstance(m[1], nn.ELU)
    del m[0]
    assert list(m._modules) == ["0", "1", "2"] and isinstance(m[0], nn.ELU)
    m.append(nn.Identity())
    m.insert(0, nn.Linear(2, 2))
    m.extend([nn.ReLU(), nn.ReLU()])
    assert [type(x).__name__ for x in m] == ["Linear", "ELU", "Tanh", "Sigmoid", "Identity", "ReLU", "ReLU"]
    assert list(m._modules) == [str(i) for i in range(7)]
    del m[1:3]
    assert [type(x).__name__ for x in m] == ["Linear", "Sigmoid", "Identity", "ReLU", "ReLU"]
    popped = m.pop(0)
    assert isinstance(popped, nn.Linear) and len(m) == 4
    t = torch.nn.Sequential(torch.nn.Sigmoid(), torch.nn.Identity(), torch.nn.ReLU(), torch.nn.ReLU())
    assert repr(m) == repr(t)


def test_sequential_from_ordered_dict(torch):
    spec = lambda n: OrderedDict([("conv1", n.Conv2d(1, 20, 5)), ("relu1", n.ReLU()),  # noqa: E731
                                  ("conv2", n.Conv2d(20, 64, 5)), ("relu2", n.ReLU())])
    m, t = nn.Sequential(spec(nn)), torch.nn.Sequential(spec(torch.nn))
    assert isinstance(m.conv1, nn.Conv2d) and m[0] is m.conv1
    assert repr(m) == repr(t)
    assert list(m.state_dict()) == list(t.state_dict())
    assert list(m[1:]._modules) == ["relu1", "conv2", "relu2"]


def test_module_list(torch):
    class Stack(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(3)])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    s = Stack()
    assert len(list(s.parameters())) == 6
    assert [n for n, _ in s.named_parameters()][:2] == ["layers.0.weight", "layers.0.bias"]
    s.layers.append(nn.ReLU())
    assert len(s.layers) == 4 and isinstance(s.layers[-1], nn.ReLU)
    s.layers += [nn.Tanh()]
    s.layers.insert(1, nn.Sigmoid())
    assert [type(m).__name__ for m in s.layers] == ["Linear", "Sigmoid", "Linear", "Linear", "ReLU", "Tanh"]
    assert isinstance(s.layers[1:3], nn.ModuleList)
    del s.layers[0]
    assert list(s.layers._modules) == [str(i) for i in range(5)]
    s(tensorlab.randn(2, 3))
    with pytest.raises(TypeError, match="ModuleList.extend should be called with an iterable"):
        s.layers.extend(3)


def test_module_list_repr_collapses_repeats(torch):
    build = lambda n: n.ModuleList([n.Linear(2, 2) for _ in range(4)] + [n.ReLU(), n.ReLU(),  # noqa: E731
                                                                           n.Linear(2, 3)])
    assert repr(build(nn)) == repr(build(torch.nn))
    assert "(0-3): 4 x Linear(in_features=2, out_features=2, bias=True)" in repr(build(nn))


def test_module_dict(torch):
    d = nn.ModuleDict({"relu": nn.ReLU(), "lin": nn.Linear(2, 2)})
    assert list(d.keys()) == ["relu", "lin"] and "lin" in d and len(d) == 2
    d["tanh"] = nn.Tanh()
    d.update([("sig", nn.Sigmoid())])
    assert list(d) == ["relu", "lin", "tanh", "sig"]
    assert isinstance(d.pop("relu"), nn.ReLU) and "relu" not in d
    assert [n for n, _ in d.named_parameters()] == ["lin.weight", "lin.bias"]
    t = torch.nn.ModuleDict({"lin": torch.nn.Linear(2, 2), "tanh": torch.nn.Tanh(), "sig": torch.nn.Sigmoid()})
    assert repr(d) == repr(t)
    x = tensorlab.randn(1, 2)
    assert d["tanh"](x).shape == (1, 2)


def test_parameter_list(torch):
    pl = nn.ParameterList([nn.Parameter(tensorlab.randn(2, 3)), tensorlab.randn(3)])
    assert isinstance(pl[1], nn.Parameter) and pl[1].requires_grad      # plain tensors are wrapped
    pl.append(nn.Parameter(tensorlab.randn(1)))
    assert len(pl) == 3 and [n for n, _ in pl.named_parameters()] == ["0", "1", "2"]
    t = torch.nn.ParameterList([torch.nn.Parameter(torch.randn(2, 3)), torch.randn(3), torch.randn(1)])
    assert repr(pl) == repr(t)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 3)
            self.pl = nn.ParameterList([nn.Parameter(tensorlab.randn(2, 3))])

    class TNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 3)
            self.pl = torch.nn.ParameterList([torch.nn.Parameter(torch.randn(2, 3))])

    TNet.__name__ = "Net"
    assert repr(Net()) == repr(TNet())
    assert list(Net().state_dict()) == list(TNet().state_dict())


def test_parameter_dict(torch):
    pd = nn.ParameterDict({"a": nn.Parameter(tensorlab.randn(2, 3))})
    t = torch.nn.ParameterDict({"a": torch.nn.Parameter(torch.randn(2, 3))})
    assert repr(pd) == repr(t)
    pd["b"] = tensorlab.zeros(4)
    t["b"] = torch.zeros(4)
    assert repr(pd) == repr(t)
    assert list(pd.keys()) == ["a", "b"] and isinstance(pd["b"], nn.Parameter)
    assert [n for n, _ in pd.named_parameters()] == ["a", "b"]
    del pd["a"]
    assert list(pd) == ["b"] and "a" not in dict(pd.named_parameters())


def test_parameterdict_sorts_a_plain_dict_but_keeps_an_ordered_one_as_pytorch():
    """PyTorch's ParameterDict.update adds a plain dict's items sorted by key, and keeps the order of
    an OrderedDict, another ParameterDict or a list of pairs; ModuleDict keeps a plain dict's order."""
    from collections import OrderedDict

    def keys(lib):
        P, ones = lib.nn.Parameter, lib.ones
        plain = lib.nn.ParameterDict({"b": P(ones(1)), "a": P(ones(1))})
        ordered = lib.nn.ParameterDict(OrderedDict([("b", P(ones(1))), ("a", P(ones(1)))]))
        pairs = lib.nn.ParameterDict([("b", P(ones(1))), ("a", P(ones(1)))])
        modules = lib.nn.ModuleDict({"b": lib.nn.ReLU(), "a": lib.nn.ReLU()})
        return [list(plain), list(ordered), list(pairs), list(modules), list(dict(plain.named_parameters()))]

    assert keys(tensorlab) == [["a", "b"], ["b", "a"], ["b", "a"], ["b", "a"], ["a", "b"]]
    torch = pytest.importorskip("torch")
    assert keys(torch) == keys(tensorlab)
