"""StrideExplorer: the model against the real tensors (and PyTorch), and the view driven headless."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tensorlab as torch
from widgets._grid import storage_positions
from widgets._parse import parse_steps
from widgets._svg import PALETTE
from widgets.stride_explorer import StrideExplorer, contiguity_reasons, position_formula

ROOT = Path(__file__).resolve().parents[1]


def explorer():
    return StrideExplorer(torch.arange(12.).view(3, 4))


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


# -- history: view or copy, from the real data_ptr -------------------------------------------------

@pytest.mark.parametrize("ops, verdicts", [
    (["t()"], ["view"]),
    (["transpose(0, 1)", "contiguous()"], ["view", "copy"]),
    (["contiguous()"], ["view"]),                      # already contiguous: returns itself
    (["t()", "reshape(12)"], ["view", "copy"]),        # a transposed tensor cannot be flattened in place
    (["reshape(2, 6)"], ["view"]),
    (["view(4, 3)", "permute(1, 0)", "flatten()"], ["view", "view", "copy"]),
    (["[:, ::2]", "unsqueeze(0)", "squeeze()"], ["view", "view", "view"]),
    (["narrow(1, 1, 2)", "select(0, 2)"], ["view", "view"]),
    (["unfold(1, 2, 2)", "expand(3, 2, 2)"], ["view", "view"]),
    (["as_strided((2, 2), (1, 4), 1)"], ["view"]),
    (["[[0, 2]]"], ["copy"]),                          # advanced indexing copies
    (["clone()"], ["copy"]),
    (["[0].unsqueeze(0).expand(2, 4)"], ["view", "view", "view"]),
])
def test_verdicts_come_from_data_ptr(ops, verdicts):
    ex = explorer()
    for op in ops:
        assert ex.apply(op) is not None, ex.error
    assert [e.verdict for e in ex.history] == ["base"] + verdicts
    for before, after in zip(ex.history, ex.history[1:]):
        assert (after.verdict == "view") == same_storage(before.tensor, after.tensor)


def test_contiguous_of_a_contiguous_tensor_returns_itself():
    ex = explorer()
    entry = ex.apply("contiguous()")
    assert entry.returned_self and entry.tensor is ex.history[0].tensor
    assert "returned the very same tensor" in ex.to_svg()


OPS_3D = ["t()", "transpose(0, 2)", "permute(2, 0, 1)", "[:, ::2]", "[1]", "[..., 1:3]", "narrow(2, 1, 2)",
          "select(1, 0)", "unsqueeze(1)", "squeeze()", "flatten()", "reshape(-1)", "reshape(4, 6)", "view(6, 4)",
          "contiguous()", "clone()", "unfold(-1, 2, 1)", "expand(2, 2, 3, 4)", "[:, 1:, ::3]", "flatten(0, 1)"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(OPS_3D), min_size=1, max_size=4))
def test_history_agrees_with_pytorch(pytorch, ops):
    """The same ops on PyTorch tensors: same shapes, strides, offsets, and the same view/copy verdicts."""
    ex = StrideExplorer(torch.arange(24.).view(2, 3, 4))
    theirs = [pytorch.arange(24.).view(2, 3, 4)]
    for op in ops:
        (step,) = parse_steps(op)
        try:
            expected = step.apply(theirs[-1])        # the same parsed step, run by PyTorch
        except (RuntimeError, IndexError) as error:
            # the widget shows the library's own error (its words are tensorlab's job, tested elsewhere)
            with pytest.raises(type(error)) as ours:
                step.apply(ex.current)
            assert ex.apply(op) is None
            assert ex.error == f"{type(error).__name__}: {ours.value}"
            continue
        entry = ex.apply(op)
        assert entry is not None, ex.error
        mine = entry.tensor
        assert tuple(mine.shape) == tuple(expected.shape)
        assert mine.stride() == expected.stride() and mine.storage_offset() == expected.storage_offset()
        their_verdict = "view" if same_storage(expected, theirs[-1]) else "copy"
        assert entry.verdict == their_verdict, op
        theirs.append(expected)


@pytest.fixture
def pytorch(torch):
    """PyTorch itself (conftest's ``torch`` fixture: skips when it is not installed)."""
    return torch


def test_expression_history_and_back():
    ex = explorer()
    ex.apply("t()")
    ex.apply("reshape(12)")
    assert ex.expression == "x.t().reshape(12)"
    assert [e.expression for e in ex.history] == ["x", "x.t()", "x.t().reshape(12)"]
    assert ex.back().expression == "x.t()"
    assert ex.expression == "x.t()" and len(ex.history) == 2
    ex.back()
    assert ex.back() is None and "nothing to go back to" in ex.error
    assert ex.expression == "x"


def test_a_chain_is_applied_step_by_step_and_a_failing_chain_changes_nothing():
    ex = explorer()
    ex.apply("t().reshape(12)")
    assert [e.code for e in ex.history] == ["x", ".t()", ".reshape(12)"]
    assert ex.apply("unsqueeze(0).view(5)") is None      # the first step works, the second fails
    assert ex.error == "RuntimeError: shape '[5]' is invalid for input of size 12"
    assert [e.code for e in ex.history] == ["x", ".t()", ".reshape(12)"]


def test_the_name_starts_the_expression():
    ex = StrideExplorer(torch.zeros(2, 2), name="w")
    ex.apply("t()")
    assert ex.expression == "w.t()" and "w.t()" in ex.to_svg()


# -- select: the position formula ---------------------------------------------------------------------

def test_select_fills_in_the_formula_and_agrees_with_the_library():
    ex = explorer()
    ex.apply("[:, 1::2]")
    pick = ex.select((2, 1))
    assert pick.formula == "offset + i*stride[0] + j*stride[1] = 1 + 2*4 + 1*2 = 11"
    assert pick.position == ex.current[2, 1].storage_offset() == 11 and pick.value == 11.0
    assert ex.select((-1, -1)).index == (2, 1)
    svg = ex.to_svg()
    assert "x[:, 1::2][2, 1] is storage[11]:" in svg and pick.formula in svg


@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (2, 3, 2), (2, 2, 2, 2), (2, 1, 2, 1, 2)])
def test_formula_for_every_rank(shape):
    t = torch.arange(float(max(1, torch.zeros(shape).numel()))).view(shape)
    for index in [tuple(n - 1 for n in shape), tuple(0 for _ in shape)]:
        formula = position_formula(t, index)
        assert formula.endswith(f"= {t[index].storage_offset()}")
        assert formula.count("stride[") == len(shape)


def test_select_errors_are_shown_inline():
    ex = explorer()
    assert ex.select((3, 0)) is None
    assert ex.error == "IndexError: index 3 is out of bounds for dimension 0 with size 3"
    assert ex.select(1) is None and "give 2 indices" in ex.error
    assert ex.selected is None
    assert "tensorlab-error" in ex.to_html()


# -- write through a view ---------------------------------------------------------------------------

def test_write_goes_through_the_view_into_the_base():
    base = torch.arange(12.).view(3, 4)
    ex = StrideExplorer(base)
    ex.apply("t()")
    ex.apply("[1:]")
    ex.apply("contiguous()")                 # a copy: does not see writes made through the views
    ex.back()
    written = ex.write((0, 1), 100.)
    assert written.position == 5 and written.value == 100.0
    assert base[1, 1].item() == 100.0                      # the learner's own tensor changed
    assert written.seen_by == ("x", "x.t()", "x.t()[1:]")
    ex.apply("clone()")
    assert ex.current[0, 1].item() == 100.0
    assert ex.write((0, 0), -1.).seen_by == ("x.t()[1:].clone()",)
    assert base[0, 1].item() == 1.0


def test_written_cell_is_marked_in_every_sharing_view():
    ex = explorer()
    ex.apply("t()")
    ex.apply("[::2]")
    before = ex.to_svg().count(PALETTE["written"])
    ex.write((1, 0), 7.)                  # x.t()[::2][1, 0] is x[0, 2]: storage position 2
    svg = ex.to_svg()
    # storage strip + current grid + one thumbnail for each of the three history entries
    assert before == 0 and svg.count(f'fill="{PALETTE["written"]}"') == 5
    assert ex.history[0].tensor[0, 2].item() == 7.


def test_writing_into_an_expanded_view_changes_every_copy():
    ex = StrideExplorer(torch.zeros(3))
    ex.apply("expand(2, 3)")
    written = ex.write((1, 2), 5.)
    assert written.position == 2
    assert ex.current.tolist() == [[0., 0., 5.], [0., 0., 5.]]


def test_write_errors_are_pytorchs_and_change_nothing():
    leaf = torch.zeros(2, 2, requires_grad=True)
    ex = StrideExplorer(leaf)
    ex.apply("t()")
    assert ex.write((0, 1), 1.) is None
    assert ex.error == ("RuntimeError: a view of a leaf Variable that requires grad is being used in an "
                        "in-place operation.")
    assert leaf.tolist() == [[0., 0.], [0., 0.]]


# -- errors: PyTorch's words, previous state kept -------------------------------------------------------

def test_bad_operations_show_pytorchs_error_and_keep_the_state(pytorch):
    ex = explorer()
    ex.apply("t()")
    svg = ex.to_svg()
    assert ex.apply("view(12)") is None
    with pytest.raises(RuntimeError) as theirs:
        pytorch.arange(12.).view(3, 4).t().view(12)
    assert ex.error == f"RuntimeError: {theirs.value}"
    assert ex.expression == "x.t()" and ex.to_svg() == svg    # the drawing did not change
    assert ex.apply("transpose(0, 2)") is None
    assert ex.error == "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)"
    assert ex.apply("__import__('os')") is None and ex.error.startswith("not accepted: '__import__'")
    assert ex.apply("t()") is not None and ex.error is None        # the next good step clears the error


def test_results_too_big_to_draw_are_refused():
    ex = explorer()
    assert ex.apply("expand(100, 3, 4)") is None
    assert "up to 256 elements" in ex.error and ex.expression == "x"
    with pytest.raises(ValueError, match="up to 256"):
        StrideExplorer(torch.zeros(300))
    with pytest.raises(TypeError):
        StrideExplorer([1, 2, 3])


# -- the drawing --------------------------------------------------------------------------------------

def test_unreached_storage_cells_are_grey():
    ex = explorer()
    ex.apply("narrow(1, 1, 2)")
    ex.apply("[::2]")
    svg = ex.to_svg()
    reached = set(storage_positions(ex.current))
    assert reached == {1, 2, 9, 10}
    assert svg.count(f'fill="{PALETTE["unreached"]}"') == 12 - 4
    assert "12 elements, 8 not reached" in svg


@given(st.lists(st.integers(1, 3), min_size=1, max_size=4), st.data())
@settings(max_examples=60, deadline=None)
def test_contiguity_reasons_agree_with_is_contiguous(shape, data):
    strides = tuple(data.draw(st.integers(0, 6)) for _ in shape)
    t = torch.zeros(60).as_strided(tuple(shape), strides)
    reasons = contiguity_reasons(t)
    assert all(ok for ok, _ in reasons) == t.is_contiguous()
    assert len(reasons) == len(shape)


def test_contiguity_reasons_text():
    assert contiguity_reasons(torch.zeros(2, 3, 4)) == [
        (True, "dim 0: stride 12 == 12 = shape[1]*4"), (True, "dim 1: stride 4 == 4 = shape[2]*1"),
        (True, "dim 2: stride 1 == 1 (last dim)")]
    assert contiguity_reasons(torch.zeros(2, 3)[:, ::2])[1] == (False, "dim 1: stride 2 != 1 (last dim)")
    assert contiguity_reasons(torch.zeros(3).unsqueeze(1))[1] == (True, "dim 1: size 1, its stride (1) is never used")
    assert contiguity_reasons(torch.zeros(0, 3)) == [(True, "a size is 0: an empty tensor is contiguous")]


@pytest.mark.parametrize("shape, labels", [
    ((), []), ((4,), []), ((20,), []), ((2, 3), []), ((2, 2, 3), ["[0]", "[1]"]),
    ((2, 2, 1, 3), ["[0, 0]", "[1, 1]"]), ((2, 1, 2, 1, 2), ["[0, 0, 0]", "[1, 0, 1]"]),
])
def test_every_rank_draws(shape, labels):
    n = torch.zeros(shape).numel()
    ex = StrideExplorer(torch.arange(float(n)).view(shape))
    svg = ex.to_svg()
    assert svg.count(">@") == n                      # every element shows its storage position
    for label in labels:
        assert label in svg
    ex.select(tuple(s - 1 for s in shape))
    assert f"storage[{n - 1}]" in ex.to_svg()


def test_drawing_is_byte_identical_across_processes():
    script = ("import tensorlab as torch; from widgets.stride_explorer import StrideExplorer\n"
              "ex = StrideExplorer(torch.arange(12.).view(3, 4)); ex.apply('t()[::2]'); ex.write((1, 2), 9.)\n"
              "print(ex.to_html())")
    outputs = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        outputs.add(subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True,
                                   text=True, check=True).stdout)
    assert len(outputs) == 1
    assert not re.search(r"0x[0-9a-f]{6,}", outputs.pop())


def test_mimebundle_has_text_and_the_static_drawing():
    ex = explorer()
    ex.apply("t()")
    bundle = ex._repr_mimebundle_()
    assert bundle["text/plain"] == "StrideExplorer(x.t(): view (same storage), shape (4, 3), stride (1, 4), offset 0)"
    assert bundle["text/html"].startswith('<div class="tensorlab-stride-explorer"><img src="data:image/svg+xml;')
    assert "application/vnd.jupyter.widget-view+json" in bundle


# -- the view, driven headless ----------------------------------------------------------------------------

def test_view_buttons_text_box_and_back():
    ex = explorer()
    view = ex.widget
    assert ex.widget is view and "tensorlab-stride-explorer" in view._dom_classes
    by_name = {b.description: b for b in view.op_buttons}
    by_name["t()"].click()
    assert ex.expression == "x.t()" and "x.t()" in view.picture.value
    assert "<code>x.t()</code>" in view.expression.value
    view.text.value = "reshape(12)"
    view.apply_button.click()
    assert ex.expression == "x.t().reshape(12)" and view.text.value == ""
    assert "copy: a new storage" in view.picture.value
    view.back_button.click()
    assert ex.expression == "x.t()"


def test_view_shows_errors_inline_and_keeps_working():
    ex = explorer()
    view = ex.widget
    picture = view.picture.value
    view.text.value = "view(5)"
    view.apply_button.click()
    assert "RuntimeError: shape &#x27;[5]&#x27; is invalid for input of size 12" in view.error.value
    assert view.picture.value == picture and view.text.value == "view(5)"   # kept, to fix the typo
    view.text.value = "len(x)"
    view.apply_button.click()
    assert "not accepted" in view.error.value
    {b.description: b for b in view.op_buttons}["[:, ::2]"].click()
    assert view.error.value == "" and ex.expression == "x[:, ::2]"


def test_view_cell_buttons_select_and_write():
    ex = explorer()
    view = ex.widget
    {b.description: b for b in view.op_buttons}["t()"].click()
    buttons = [b for b in view.cells.children if hasattr(b, "index")]
    assert len(buttons) == 12 and buttons[0].tooltip == "x.t()[0, 0]"
    assert [b.description for b in buttons[:3]] == ["0.", "4.", "8."]
    target = next(b for b in buttons if b.index == (2, 1))
    target.click()
    assert ex.selected == (2, 1) and target.style.button_color == PALETTE["selected"]
    assert "offset + i*stride[0] + j*stride[1] = 0 + 2*1 + 1*4 = 6" in view.picture.value
    view.value.value = 42.0
    view.write_button.click()
    assert ex.history[0].tensor[1, 2].item() == 42.0
    assert target.description == "42." and target.style.button_color == PALETTE["written"]
    # a write says what it did, in words
    assert "wrote 42. into x.t()[2, 1]: storage[6], seen by x and x.t()" in view.error.value
    assert "tensorlab-status" in view.error.value and "wrote 42." in ex.to_html()


def test_view_write_without_a_selection_says_what_to_do():
    view = explorer().widget
    view.write_button.click()
    assert "select a cell first" in view.error.value


def test_big_tensors_get_no_buttons():
    ex = StrideExplorer(torch.zeros(10, 10))
    view = ex.widget
    assert view.cells.children == () and "too many to click" in view.hint.value
    ex.apply("[:4, :4]")
    assert len([b for b in view.cells.children if hasattr(b, "index")]) == 16
