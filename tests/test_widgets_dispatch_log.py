"""DispatchLog: the nested log of public calls, autograd nodes and ATen ops, on tensorlab and on PyTorch
(widgets/dispatch_log.py), and its HTML view (plain pytest, no kernel)."""
import numpy as np
import pytest

import tensorlab
from widgets.dispatch_log import DispatchLog
from widgets.dispatch_log import Row

# PyTorch's engine does these on tensors (tensorlab's on arrays): see tensorlab/utils/_python_dispatch.py
BOOKKEEPING = ("aten.detach.default", "aten.ones_like.default")


def _linear_relu(lib, backward=True):
    F = lib.nn.functional
    x = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    w = lib.tensor(np.linspace(-1, 1, 12).reshape(4, 3), requires_grad=True)
    b = lib.tensor(np.zeros(4), requires_grad=True)
    with DispatchLog.record(lib) as log:
        loss = F.linear(x, w, b).relu().sum()
        if backward:
            loss.backward()
    return log, (x, w, b)


def test_calls_nest_their_ops_and_backward_nests_nodes():
    log, _ = _linear_relu(tensorlab)
    assert str(log).splitlines()[:8] == [
        "F.linear", "    aten.t.default", "    aten.addmm.default", "Tensor.relu", "    aten.relu.default",
        "Tensor.sum", "    aten.sum.default", "Tensor.backward"]
    assert Row(1, "node", "ReluBackward0") in log.rows
    i = log.rows.index(Row(1, "node", "ReluBackward0"))
    assert log.rows[i + 1] == Row(2, "op", "aten.threshold_backward.default")
    assert [r.name for r in log.rows if r.kind == "node"].count("AccumulateGrad") == 3
    assert log.ops()[:2] == ["aten.t.default", "aten.addmm.default"]


def test_recording_changes_no_result_and_leaves_no_hook_or_mode():
    log, (x, w, b) = _linear_relu(tensorlab)
    plain = [t.detach().requires_grad_() for t in (x, w, b)]
    tensorlab.nn.functional.linear(*plain).relu().sum().backward()
    for recorded, fresh in zip((x, w, b), plain):
        np.testing.assert_allclose(recorded.grad.numpy(), fresh.grad.numpy())
    from tensorlab.overrides import _get_current_function_mode
    from tensorlab.utils._python_dispatch import _get_current_dispatch_mode
    assert _get_current_function_mode() is None and _get_current_dispatch_mode() is None
    again, _ = _linear_relu(tensorlab)          # a node's hooks were removed: no rows from the first log
    assert len(again) == len(log)


def test_a_failing_block_leaves_no_mode_active():
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        with DispatchLog.record():
            tensorlab.ones(2, 3) @ tensorlab.ones(2, 3)
    from tensorlab.utils._python_dispatch import _get_current_dispatch_mode
    assert _get_current_dispatch_mode() is None


def test_same_log_as_pytorch_but_its_engines_bookkeeping():
    torch = pytest.importorskip("torch")
    ours, _ = _linear_relu(tensorlab)
    theirs, _ = _linear_relu(torch)
    assert str(ours.without(*BOOKKEEPING)) == str(theirs.without(*BOOKKEEPING))
    assert str(ours) == str(ours.without(*BOOKKEEPING))     # tensorlab's mode never sees them
    assert "aten.ones_like.default" in theirs.ops()


def test_forward_only_log_is_pytorchs():
    torch = pytest.importorskip("torch")
    ours, theirs = _linear_relu(tensorlab, backward=False)[0], _linear_relu(torch, backward=False)[0]
    assert str(ours) == str(theirs.without("aten.detach.default"))


def test_the_table_is_plain_html_indented_by_depth():
    log = DispatchLog([(0, "call", "F.linear"), (1, "op", "aten.addmm.default"), (1, "node", "<x>")])
    page = log._repr_html_()
    assert "<svg" not in page and "<script" not in page and "<style" not in page
    assert "padding:1px 8px 1px 28px" in page and "&lt;x&gt;" in page
    assert "public call (__torch_function__)" in page
    assert repr(DispatchLog()) == "DispatchLog(nothing recorded)"
    assert "nothing recorded" in DispatchLog()._repr_html_()


def test_the_legend_speaks_chinese(monkeypatch):
    monkeypatch.setenv("TENSORLAB_LANG", "zh")
    assert "公开调用" in DispatchLog()._repr_html_()
