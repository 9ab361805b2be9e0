"""nn.Module and Parameter: registration, traversal, state_dict round trips, modes, conversion, hooks and
printing -- compared with PyTorch where PyTorch defines the answer."""
import copy
from collections import OrderedDict

import numpy as np
import pytest

import tensorlab
import tensorlab.nn as nn


def _state_from_torch(theirs):
    return OrderedDict((k, tensorlab.tensor(v.detach().numpy().copy())) for k, v in theirs.state_dict().items())


def _build(lib):
    """The same architecture in either library (so keys, order and reprs can be compared)."""
    n = lib.nn

    class Net(n.Module):
        def __init__(self):
            super().__init__()
            self.features = n.Sequential(n.Conv2d(1, 4, 3, padding=1), n.BatchNorm2d(4), n.ReLU(),
                                         n.MaxPool2d(2))
            self.blocks = n.ModuleList([n.Linear(16, 16), n.Linear(16, 16)])
            self.heads = n.ModuleDict({"cls": n.Linear(16, 3), "aux": n.Linear(16, 1, bias=False)})
            self.scale = n.Parameter(lib.ones(1))
            self.register_buffer("steps", lib.zeros(1))
            self.register_buffer("cache", lib.zeros(2), persistent=False)

        def forward(self, x):
            x = self.features(x).flatten(1)
            for block in self.blocks:
                x = block(x).relu()
            return self.heads["cls"](x) * self.scale

    return Net()


# -- Parameter ---------------------------------------------------------------------------------------------


def test_parameter_basics(torch):
    data = tensorlab.tensor([1.0, 2.0])
    p = nn.Parameter(data)
    assert isinstance(p, tensorlab.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.grad is None
    assert repr(p) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0])))
    assert repr(nn.Parameter(data, requires_grad=False)) == repr(
        torch.nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False))
    assert repr(nn.Parameter(tensorlab.ones(2, 2, dtype=tensorlab.float64))) == repr(
        torch.nn.Parameter(torch.ones(2, 2, dtype=torch.float64)))
    # shares memory and version counter with the tensor it wraps
    data.add_(1)
    assert p._version == data._version == 1
    np.testing.assert_array_equal(p.detach().numpy(), [2, 3])
    assert nn.Parameter().shape == (0,)


def test_parameter_results_are_plain_tensors():
    p = nn.Parameter(tensorlab.ones(3))
    for t in (p * 2, p.detach(), p.data, p[0], p.clone()):
        assert type(t) is tensorlab.Tensor
    assert type(copy.deepcopy(p)) is nn.Parameter


def test_parameter_of_integers_must_not_require_grad():
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        nn.Parameter(tensorlab.tensor([1, 2]))
    assert not nn.Parameter(tensorlab.tensor([1, 2]), requires_grad=False).requires_grad


# -- registration -------------------------------------------------------------------------------------------


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)
        self.w = nn.Parameter(tensorlab.zeros(3))
        self.plain = [nn.Linear(1, 1)]          # a Python list: not registered
        self.register_buffer("count", tensorlab.zeros(1))

    def forward(self, x):
        hidden = nn.Linear(3, 3)                # made in forward: never registered
        return hidden(self.fc(x)) + self.w


def test_assignment_registers_parameters_buffers_and_modules():
    m = Tiny()
    assert list(m._parameters) == ["w"] and list(m._modules) == ["fc"] and list(m._buffers) == ["count"]
    assert [n for n, _ in m.named_parameters()] == ["w", "fc.weight", "fc.bias"]
    m(tensorlab.randn(4, 2))
    assert len(list(m.parameters())) == 3
    assert [n for n, _ in m.named_buffers()] == ["count"]
    assert m.w is m._parameters["w"]
    assert "fc" in dir(m) and "w" in dir(m)


def test_reassignment_moves_between_registries():
    m = Tiny()
    m.w = None                                   # a registered parameter may become None
    assert m._parameters["w"] is None and m.w is None
    assert "w" not in dict(m.named_parameters())
    m.count = tensorlab.ones(2)                  # a tensor assigned to a buffer name replaces the buffer
    assert m._buffers["count"].shape == (2,)
    m.fc = None
    assert m._modules["fc"] is None and list(m.children()) == []
    del m.count
    assert "count" not in m._buffers
    with pytest.raises(AttributeError, match="'Tiny' object has no attribute 'nothing'"):
        m.nothing


def test_registration_errors_match_torch(torch):
    m = nn.Linear(2, 2)
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter 'weight' "
                                        r"\(torch.nn.Parameter or None expected\)"):
        m.weight = tensorlab.zeros(2, 2)
    with pytest.raises(KeyError, match="attribute 'weight' already exists"):
        m.register_buffer("weight", tensorlab.zeros(1))
    with pytest.raises(KeyError, match="parameter name can"):
        m.register_parameter("a.b", None)
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' object to parameter 'x'"):
        m.register_parameter("x", tensorlab.zeros(1))
    with pytest.raises(ValueError, match="Cannot assign non-leaf Tensor to parameter 'y'"):
        m.register_parameter("y", _non_leaf_parameter())
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        m.add_module("z", 3)
    with pytest.raises(TypeError, match=r"cannot assign 'int' object to buffer 'b'"):
        m.register_buffer("b", 3)

    class Forgot(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(tensorlab.zeros(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__\(\) call"):
        Forgot()

    class ForgotModule(nn.Module):
        def __init__(self):
            self.l = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match=r"cannot assign module before Module.__init__\(\) call"):
        ForgotModule()
    with pytest.raises(NotImplementedError, match='Module \\[Module\\] is missing the required "forward" function'):
        nn.Module()(1)


def _non_leaf_parameter():
    p = nn.Parameter(tensorlab.zeros(1))
    q = nn.Parameter(tensorlab.zeros(1))
    q._grad_fn = (p * 2).grad_fn          # a Parameter that records history (e.g. made by an op)
    return q


def test_shared_parameters_listed_once():
    shared = nn.Linear(2, 2)
    m = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(m.parameters())) == 2
    assert [n for n, _ in m.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(m.named_parameters(remove_duplicate=False))) == 4
    assert len(list(m.modules())) == 3


def test_traversal_names_and_order_match_torch(torch):
    ours, theirs = _build(tensorlab), _build(torch)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]
    assert [n for n, _ in ours.named_parameters(prefix="net", recurse=False)] == \
        [n for n, _ in theirs.named_parameters(prefix="net", recurse=False)]
    assert [p.shape for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]


def test_get_submodule_and_parameter():
    m = _build(tensorlab)
    assert m.get_submodule("features.1") is m.features[1]
    assert m.get_parameter("heads.cls.bias") is m.heads["cls"].bias
    assert m.get_buffer("features.1.running_mean") is m.features[1].running_mean
    with pytest.raises(AttributeError, match="Linear has no attribute `x`"):
        m.get_submodule("blocks.0.x")
    with pytest.raises(AttributeError, match="`weight` is not an nn.Module"):
        m.get_submodule("blocks.0.weight")
    with pytest.raises(AttributeError, match="Linear has no attribute `x`"):
        m.get_parameter("blocks.0.x")


# -- state_dict ----------------------------------------------------------------------------------------------


def test_state_dict_keys_and_order_match_torch(torch):
    ours, theirs = _build(tensorlab), _build(torch)
    sd = ours.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == list(theirs.state_dict())
    assert "cache" not in sd                      # non-persistent buffers stay out
    assert all(not v.requires_grad and v.grad_fn is None for v in sd.values())
    assert all(v.requires_grad for k, v in ours.state_dict(keep_vars=True).items() if "weight" in k)
    assert list(ours.state_dict(prefix="model."))[0] == "model.scale"
    assert sd._metadata["features.1"] == {"version": 2}


def test_state_dict_values_share_memory():
    m = nn.Linear(2, 2)
    sd = m.state_dict()
    sd["weight"].fill_(3.0)
    np.testing.assert_array_equal(m.weight.detach().numpy(), 3.0)


def test_load_state_dict_from_torch_reproduces_outputs(torch):
    ours, theirs = _build(tensorlab), _build(torch)
    result = ours.load_state_dict(_state_from_torch(theirs))
    assert repr(result) == "<All keys matched successfully>"
    assert result.missing_keys == [] and result.unexpected_keys == []
    ours.eval(), theirs.eval()
    x = np.random.default_rng(0).standard_normal((2, 1, 4, 4)).astype(np.float32)
    np.testing.assert_allclose(ours(tensorlab.tensor(x)).detach().numpy(),
                               theirs(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_load_state_dict_keeps_parameter_objects_and_bumps_versions():
    m = nn.Linear(2, 2)
    weight = m.weight
    v = weight._version
    m.load_state_dict({"weight": tensorlab.ones(2, 2), "bias": tensorlab.zeros(2)})
    assert m.weight is weight and weight._version > v
    np.testing.assert_array_equal(weight.detach().numpy(), 1)
    # a float64 checkpoint is cast into the float32 parameter
    m.load_state_dict({"weight": tensorlab.ones(2, 2, dtype=tensorlab.float64) * 2, "bias": tensorlab.zeros(2)})
    assert m.weight.dtype == tensorlab.float32 and m.weight[0, 0].item() == 2


def test_load_state_dict_errors_match_torch_and_change_nothing(torch):
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 3)
            self.bn = nn.BatchNorm1d(3)

    class TNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(2, 3)
            self.bn = torch.nn.BatchNorm1d(3)

    TNet.__name__ = "Net"
    ours, theirs = Net(), TNet()
    bad = _state_from_torch(theirs)
    del bad["fc.bias"]
    bad["extra"] = tensorlab.zeros(1)
    bad["fc.weight"] = tensorlab.zeros(3, 3)
    bad["bn.weight"] = tensorlab.full((3,), 7.0)          # valid: must still not be copied
    bad_t = {k: torch.tensor(v.numpy()) for k, v in bad.items()}
    with pytest.raises(RuntimeError) as theirs_error:
        theirs.load_state_dict(bad_t)
    before = {k: v.clone() for k, v in ours.state_dict().items()}
    with pytest.raises(RuntimeError) as ours_error:
        ours.load_state_dict(bad)
    assert str(ours_error.value) == str(theirs_error.value)
    for k, v in ours.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), before[k].numpy(), err_msg=k)
    # strict=False still refuses a shape mismatch, with torch's message
    with pytest.raises(RuntimeError) as theirs_error:
        theirs.load_state_dict(bad_t, strict=False)
    with pytest.raises(RuntimeError) as ours_error:
        ours.load_state_dict(bad, strict=False)
    assert str(ours_error.value) == str(theirs_error.value)
    assert "size mismatch for fc.weight: copying a param with shape torch.Size([3, 3]) from checkpoint, the " \
           "shape in current model is torch.Size([3, 2])." in str(ours_error.value)


def test_load_state_dict_non_strict_returns_named_tuple(torch):
    m = nn.Linear(2, 3)
    result = m.load_state_dict({"weight": tensorlab.ones(3, 2), "junk": tensorlab.ones(1)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["junk"]
    missing, unexpected = result
    assert missing == ["bias"]
    assert repr(result) == "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=['junk'])"
    with pytest.raises(RuntimeError, match='expected torch.Tensor or Tensor-like object from checkpoint but '
                                           "received <class 'list'>"):
        m.load_state_dict({"weight": [1], "bias": tensorlab.zeros(3)})


def test_load_state_dict_keeps_optimizer_references_working():
    m = nn.Linear(2, 1)
    params = list(m.parameters())
    m.load_state_dict({"weight": tensorlab.zeros(1, 2), "bias": tensorlab.zeros(1)})
    assert all(a is b for a, b in zip(params, m.parameters()))


def test_load_state_dict_assign():
    m = nn.Linear(2, 2)
    new = tensorlab.ones(2, 2)
    m.load_state_dict({"weight": new, "bias": tensorlab.zeros(2)}, assign=True)
    assert isinstance(m.weight, nn.Parameter) and m.weight.requires_grad
    new.fill_(5)
    assert m.weight[0, 0].item() == 5


# -- modes, gradients, conversion ---------------------------------------------------------------------------


def test_train_eval_propagate():
    m = _build(tensorlab)
    assert all(mod.training for mod in m.modules())
    assert m.eval() is m
    assert not any(mod.training for mod in m.modules())
    m.train()
    assert all(mod.training for mod in m.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        m.train("yes")


def test_zero_grad_and_requires_grad_():
    m = nn.Linear(2, 2)
    m(tensorlab.randn(3, 2)).sum().backward()
    m.zero_grad(set_to_none=False)
    assert all(p.grad is not None and p.grad.abs().sum().item() == 0 for p in m.parameters())
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())


def test_apply_visits_children_first():
    seen = []
    m = nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU()))
    m.apply(lambda mod: seen.append(type(mod).__name__))
    assert seen == ["Linear", "ReLU", "Sequential", "Sequential"]

    def init_weights(mod):
        if isinstance(mod, nn.Linear):
            nn.init.constant_(mod.weight, 0.5)
    m.apply(init_weights)
    assert m[0].weight.item() == 0.5


def test_to_dtype_keeps_parameter_objects():
    m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    params = list(m.parameters())
    m(tensorlab.randn(3, 2)).sum().backward()
    assert m.double() is m
    assert all(a is b for a, b in zip(params, m.parameters()))
    assert all(p.dtype == tensorlab.float64 and p.grad.dtype == tensorlab.float64 for p in m.parameters())
    assert m[1].running_mean.dtype == tensorlab.float64
    assert m[1].num_batches_tracked.dtype == tensorlab.int64        # integer buffers keep their dtype
    m.to(tensorlab.float32)
    assert m[0].weight.dtype == tensorlab.float32
    m.half().float()
    assert m[0].weight.dtype == tensorlab.float32
    m.to("cpu").cpu()
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point or complex dtypes, but got "
                                        "desired dtype=torch.int64"):
        m.to(tensorlab.int64)
    x = tensorlab.randn(2, 2, dtype=tensorlab.float64)
    assert m.to(x)[0].weight.dtype == tensorlab.float64


def test_deepcopy_makes_independent_module():
    m = nn.Linear(2, 2)
    clone = copy.deepcopy(m)
    assert isinstance(clone.weight, nn.Parameter) and clone.weight is not m.weight
    clone.weight.data.fill_(1.0)
    assert m.weight[0, 0].item() != 1.0 or m.weight.abs().sum().item() != 4.0


# -- printing ---------------------------------------------------------------------------------------------


def test_repr_of_a_model_tree_matches_torch(torch):
    assert repr(_build(tensorlab)) == repr(_build(torch))
    nested = lambda n: n.Sequential(n.Conv2d(1, 4, 3), n.ReLU(), n.Sequential(  # noqa: E731
        n.Linear(2, 3), n.ModuleList([n.Linear(1, 1), n.Tanh()])), n.ModuleDict({"a": n.ReLU()}))
    assert repr(nested(nn)) == repr(nested(torch.nn))
    assert repr(nn.Sequential()) == repr(torch.nn.Sequential())
    assert repr(nn.ModuleList()) == repr(torch.nn.ModuleList())


def test_extra_repr_multiline_and_custom(torch):
    class Custom(nn.Module):
        def extra_repr(self):
            return "a=1\nb=2"

    class TCustom(torch.nn.Module):
        def extra_repr(self):
            return "a=1\nb=2"

    TCustom.__name__ = "Custom"
    assert repr(Custom()) == repr(TCustom())
    c, tc = Custom(), TCustom()
    c.inner, tc.inner = nn.ReLU(), torch.nn.ReLU()
    assert repr(c) == repr(tc)


def test_batchnorm_checkpoints_without_num_batches_tracked_load_like_torch(torch):
    ours, theirs = nn.BatchNorm1d(3), torch.nn.BatchNorm1d(3)
    plain = {k: v for k, v in _state_from_torch(theirs).items() if k != "num_batches_tracked"}
    assert repr(ours.load_state_dict(plain)) == repr(theirs.load_state_dict(
        {k: torch.tensor(v.numpy()) for k, v in plain.items()}))
    versioned = ours.state_dict()                         # carries _metadata: version 2
    del versioned["num_batches_tracked"]
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "num_batches_tracked"'):
        ours.load_state_dict(versioned)


def test_repr_of_a_deep_model_is_torchs(torch):
    """300 nested Sequentials print as PyTorch prints them (one Python frame per level, as there)."""
    def deep(nn, depth):
        model = nn.Linear(1, 1)
        for _ in range(depth):
            model = nn.Sequential(model)
        return model
    assert repr(deep(tensorlab.nn, 300)) == repr(deep(torch.nn, 300))
