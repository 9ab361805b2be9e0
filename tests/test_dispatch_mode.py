"""TorchDispatchMode: the ops a forward and a backward really run, named and ordered as PyTorch's mode
logs them for the same code (tensorlab/utils/_python_dispatch.py, tensorlab/_aten.py)."""
import doctest

import numpy as np
import pytest

import tensorlab
from tensorlab._aten import aten
from tensorlab.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode


def logging_mode(base):
    class Log(base):
        def __init__(self):
            super().__init__()
            self.names = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.names.append(str(func))
            return func(*args, **(kwargs or {}))
    return Log


LogMode = logging_mode(TorchDispatchMode)

RNG = np.random.default_rng(0)
ARRAYS = {"x": RNG.standard_normal((3, 4)), "w": RNG.standard_normal((5, 4)), "b": RNG.standard_normal(5),
          "t": RNG.standard_normal((3, 4)), "x3": RNG.standard_normal((2, 3, 4)), "v": RNG.standard_normal(4),
          "w2": RNG.standard_normal((2, 5))}


def log_of(lib, mode_cls, code):
    """Run ``code`` on fresh leaves of ``lib`` (tensorlab or torch) inside a logging mode."""
    d = {k: lib.tensor(v, requires_grad=True) for k, v in ARRAYS.items()}
    d["target"] = d["t"].detach()
    d["labels"] = lib.tensor([0, 2, 1])
    d["F"], d["lib"] = lib.nn.functional, lib
    with mode_cls() as mode:
        code(d)
    return mode.names


CASES = {
    "linear_forward": lambda d: d["F"].linear(d["x"], d["w"], d["b"]),
    "linear": lambda d: d["F"].linear(d["x"], d["w"], d["b"]).sum().backward(),
    "linear_no_bias": lambda d: d["F"].linear(d["x"], d["w"]).sum().backward(),
    "linear_3d": lambda d: d["F"].linear(d["x3"], d["w"], d["b"]).sum().backward(),
    "mlp_forward": lambda d: d["F"].linear(d["F"].linear(d["x"], d["w"], d["b"]).relu(), d["w2"]),
    "mlp_mse": lambda d: d["F"].mse_loss(d["F"].linear(d["F"].linear(d["x"], d["w"], d["b"]).relu(), d["w2"]),
                                         d["target"][:, :2]).backward(),
    "relu": lambda d: d["lib"].relu(d["x"]).sum().backward(),
    "mse_loss": lambda d: d["F"].mse_loss(d["x"], d["target"]).backward(),
    "cross_entropy": lambda d: d["F"].cross_entropy(d["x"], d["labels"]).backward(),
    "sum": lambda d: d["x"].sum().backward(),
    "sum_dim": lambda d: d["x"].sum(1).sum().backward(),
    "mean": lambda d: d["x"].mean().backward(),
    "mean_dim": lambda d: d["x"].mean(0).sum().backward(),
    "matmul": lambda d: (d["x"] @ d["w"].t()).sum().backward(),
    "matmul_3d": lambda d: (d["x3"] @ d["w"].t()).sum().backward(),
    "matmul_vector": lambda d: (d["w"] @ d["v"]).sum().backward(),
    "view_reshape_transpose": lambda d: d["x"].view(12).reshape(4, 3).transpose(0, 1).sum().backward(),
    "reshape_copies": lambda d: d["x"].t().reshape(12).sum().backward(),
    "mul": lambda d: (d["x"] * d["t"] * 2).sum().backward(),
    "add_scalar": lambda d: (d["x"] + 1).sum().backward(),
    "softmax": lambda d: d["x"].softmax(1).sum().backward(),
    "log_softmax": lambda d: d["F"].log_softmax(d["x"], 1).sum().backward(),
}

# The explicit expected differences (see the docstring of tensorlab/utils/_python_dispatch.py).
# 1. PyTorch's mode also sees its autograd engine's bookkeeping, which tensorlab's engine does on arrays:
#    the implicit ones of loss.backward(), the detach of a saved output or of a leaf's new .grad, and the
#    copy of an expanded gradient into the leaf's layout.
ENGINE_BOOKKEEPING = {"aten.ones_like.default", "aten.detach.default", "aten.new_empty_strided.default",
                      "aten.copy_.default"}
# 2. Fused backward kernels that tensorlab writes as a few ops, and PyTorch's C++ formulas' division by a
#    number (div.Scalar), which tensorlab's one Div records as Python's ``x / n`` does (div.Tensor).
DECOMPOSED = {
    "aten.mse_loss_backward.default": ["aten.sub.Tensor", "aten.mul.Tensor", "aten.div.Tensor",
                                       "aten.mul.Tensor"],
    "aten.nll_loss_backward.default": ["aten.mul.Tensor"],
    "aten.slice_backward.default": ["aten.slice_scatter.default"],
    "aten.div.Scalar": ["aten.div.Tensor"],
}


def expected_from_torch(names):
    out = []
    for name in names:
        if name not in ENGINE_BOOKKEEPING:
            out.extend(DECOMPOSED.get(name, [name]))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_logged_ops_are_pytorchs(case):
    torch = pytest.importorskip("torch")
    from torch.utils._python_dispatch import TorchDispatchMode as TorchMode
    theirs = log_of(torch, logging_mode(TorchMode), CASES[case])
    ours = log_of(tensorlab, LogMode, CASES[case])
    assert ours == expected_from_torch(theirs)


def test_linear_forward_and_backward_by_name():
    """The lesson's example, written out: what F.linear and its backward run (no torch needed)."""
    names = log_of(tensorlab, LogMode, CASES["linear"])
    assert names == ["aten.t.default", "aten.addmm.default", "aten.sum.default", "aten.expand.default",
                     "aten.t.default", "aten.mm.default",                      # d input = grad @ w
                     "aten.t.default", "aten.mm.default", "aten.t.default",    # d w.t(), in its layout
                     "aten.sum.dim_IntList", "aten.view.default",              # d bias
                     "aten.t.default"]                                         # TBackward0


def test_a_mode_changes_nothing_it_passes_through():
    x = tensorlab.tensor(ARRAYS["x"], requires_grad=True)
    with LogMode():
        y = (x.exp() * 2).sum()
        y.backward()
    assert y.grad_fn.name() == "SumBackward0"
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(ARRAYS["x"]))


def test_overloads_print_as_pytorchs():
    torch = pytest.importorskip("torch")
    for ours, theirs in [(aten.add.Tensor, torch.ops.aten.add.Tensor), (aten.mm.default, torch.ops.aten.mm.default),
                         (aten.sum.dim_IntList, torch.ops.aten.sum.dim_IntList)]:
        assert (str(ours), repr(ours), ours.name(), ours.__name__, ours._overloadname, ours.namespace) == (
            str(theirs), repr(theirs), theirs.name(), theirs.__name__, theirs._overloadname, theirs.namespace)
        assert (str(ours.overloadpacket), repr(ours.overloadpacket)) == (
            str(theirs.overloadpacket), repr(theirs.overloadpacket))
    assert aten.mm.default is aten.mm.default


def test_scalar_and_tensor_overloads_as_pytorch_logs_them():
    torch = pytest.importorskip("torch")
    from torch.utils._python_dispatch import TorchDispatchMode as TorchMode

    def code(d):
        x = d["x"]
        return [1 - x, x - 1, 2 * x, x / 2, x ** 2, 2 ** x, x ** x, x.sum(0), x.mean(0),
                x.permute(1, 0), x.unsqueeze(0), x.clone(), x.sin(), x[0], x[:, 1:]]
    assert log_of(tensorlab, LogMode, code) == expected_from_torch(log_of(torch, logging_mode(TorchMode), code))


def test_modes_nest_innermost_first_and_a_modes_own_ops_skip_it():
    seen = []

    class Outer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(("outer", str(func)))
            return func(*args, **(kwargs or {}))

    class Doubling(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(("inner", str(func)))
            out = func(*args, **(kwargs or {}))
            return out * 2 if func is aten.neg.default else out   # its own mul reaches only Outer

    with Outer(), Doubling() as inner:
        assert _get_current_dispatch_mode() is inner
        y = -tensorlab.ones(2)
    assert seen == [("inner", "aten.neg.default"), ("outer", "aten.neg.default"), ("outer", "aten.mul.Tensor")]
    assert y.tolist() == [-2.0, -2.0]
    assert _get_current_dispatch_mode() is None


def test_calling_an_overload_directly_runs_the_op():
    a, b = tensorlab.ones(2, 3), tensorlab.ones(3, 4)
    assert aten.mm.default(a, b).tolist() == [[3.0] * 4] * 2
    assert aten.mm(a, b).shape == (2, 4)


def test_an_op_without_an_aten_counterpart_says_so():
    class Square(tensorlab.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, grad):
            return grad

    with LogMode() as mode:
        Square.apply(tensorlab.ones(2))
    assert mode.names == ["tensorlab.Square.default"]


def test_a_failing_op_leaves_no_mode_active():
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        with LogMode():
            tensorlab.ones(2, 3).mm(tensorlab.ones(2, 3))
    assert _get_current_dispatch_mode() is None


def test_the_docstring_examples_run():
    from tensorlab import _aten
    from tensorlab.utils import _python_dispatch
    for module in (_aten, _python_dispatch):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("path", ["utils._python_dispatch.TorchDispatchMode", "utils.checkpoint.checkpoint",
                                  "overrides.TorchFunctionMode", "autograd.forward_ad.make_dual",
                                  "autograd.graph.saved_tensors_hooks", "fx.symbolic_trace", "func.vmap"])
def test_pytorch2_apis_are_reached_by_attribute_after_a_plain_import(path):
    """As with PyTorch, ``torch.utils._python_dispatch.TorchDispatchMode`` works after ``import torch`` alone
    (a fresh interpreter, so nothing imported by another test helps)."""
    import subprocess
    import sys
    code = f"import tensorlab as torch; torch.{path}"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0, code
