"""BroadcastExplorer: tables on generated shapes against PyTorch, real gradients, the view headless."""
import functools
import operator
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import tensorlab as torch
from widgets._svg import PALETTE
from widgets.broadcast_explorer import BroadcastExplorer


@pytest.fixture
def pytorch(torch):
    """PyTorch itself (conftest's ``torch`` fixture: skips when it is not installed)."""
    return torch


def svg_text(svg):
    """The words of a drawing, its text elements joined by spaces (a long message is drawn wrapped)."""
    return " ".join(re.findall(r">([^<]*)</text>", svg))


def shapes(max_operands=3):
    """Shapes that often broadcast (sizes 1..4, so 1s are common) and sometimes do not."""
    shape = st.lists(st.integers(1, 4), min_size=0, max_size=4).map(tuple)
    return st.lists(shape, min_size=2, max_size=max_operands)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shapes())
def test_table_agrees_with_pytorch(pytorch, operand_shapes):
    bx = BroadcastExplorer(*operand_shapes)
    theirs_tensors = [pytorch.zeros(s) for s in operand_shapes]
    try:
        expected = tuple(pytorch.broadcast_shapes(*operand_shapes))
    except RuntimeError:
        expected = None
    assert bx.result_shape == expected
    if expected is None:
        # the widget shows the library's own error for the same a + b (+ c) ...
        with pytest.raises(RuntimeError) as ours:
            functools.reduce(operator.add, bx.tensors)
        assert bx.broadcast_error == str(ours.value)
        assert any(row[bx.failing_dim] == "incompatible" for row in bx.marks().values())
        assert bx.expanded_strides() == {}
        # ... which is PyTorch's, word for word
        with pytest.raises(RuntimeError) as theirs:
            functools.reduce(operator.add, theirs_tensors)
        assert bx.broadcast_error == str(theirs.value)
        return
    strides = {n: t.expand(expected).stride() for n, t in zip(bx.names, theirs_tensors)}
    for name in bx.names:
        assert bx.expanded_strides()[name] == strides[name]
    for (name, marks), shape in zip(bx.marks().items(), operand_shapes):
        missing = len(expected) - len(shape)
        assert marks[:missing] == ("missing",) * missing
        for d, kind in enumerate(marks[missing:], start=missing):
            own = shape[d - missing]
            if kind == "stretched":
                assert own == 1 and expected[d] != 1 and strides[name][d] == 0
            else:
                assert kind == "equal" and own == expected[d]


def test_library_names_the_failing_dimension_as_pytorch_does(pytorch):
    bx = BroadcastExplorer((2, 3, 1), (3, 2, 1))
    with pytest.raises(RuntimeError) as theirs:
        pytorch.zeros(2, 3, 1) + pytorch.zeros(3, 2, 1)
    assert bx.broadcast_error == str(theirs.value)      # "... a (3) ... b (2) at non-singleton dimension 1"


def test_library_expands_new_size_1_dims_as_pytorch_does(pytorch):
    bx = BroadcastExplorer((1,), (1, 1))
    assert bx.expanded_strides()["a"] == pytorch.zeros(1).expand(1, 1).stride()    # (1, 1)


def test_marks_sizes_and_strides():
    bx = BroadcastExplorer((3, 1), (4,))
    assert bx.result_shape == (3, 4) and bx.shapes == ((3, 1), (4,))
    assert [tuple(m) for m in bx.table()["b"]] == [(None, "missing"), (4, "equal")]
    assert bx.marks() == {"a": ("equal", "stretched"), "b": ("missing", "equal")}
    assert bx.expanded_strides() == {"a": (1, 0), "b": (0, 1)}
    svg = bx.to_svg()
    assert "(1, 1) \u2192 (1, 0)" in svg and "(1,) \u2192 (0, 1)" in svg
    assert "1\u21924" in svg and "\u00b7\u21923" in svg and "shape (3, 4)" in svg


def test_operands_may_be_real_tensors_of_any_layout():
    x = torch.arange(6.).view(2, 3).t()            # (3, 2), strides (1, 3)
    bx = BroadcastExplorer(x, torch.ones(2), names=("x", "bias"))
    assert bx.expanded_strides() == {"x": (1, 3), "bias": (0, 1)}
    assert bx.result.tolist() == (x + 1).tolist()
    assert bx.expression() == "x + bias"


def test_ghost_cells_are_the_stretched_copies():
    bx = BroadcastExplorer((3, 1), (4,))
    svg = bx.to_svg()
    ghosts = svg.count('stroke="#888" stroke-dasharray="3,2"')
    # a: 3 stored elements, 3*4 - 3 copies; b: 4 stored, 12 - 4 copies
    assert ghosts == (12 - 3) + (12 - 4)


def test_incompatible_shapes_show_pytorchs_error_with_the_dimension_highlighted():
    bx = BroadcastExplorer((2, 3), (4,))
    assert bx.result is None
    assert bx.broadcast_error == ("The size of tensor a (3) must match the size of tensor b (4) at "
                                  "non-singleton dimension 1")
    assert bx.failing_dim == 1 and bx.marks()["a"] == ("equal", "incompatible")
    svg = bx.to_svg()
    assert f"RuntimeError: {bx.broadcast_error}" in svg_text(svg)          # wrapped: never cut off
    assert f'fill="{PALETTE["incompatible"]}"' in svg and "highlighted: dim 1 of the table" in svg
    assert bx.summary() == "BroadcastExplorer(a(2, 3), b(4,) -> error)"


def test_the_failing_dimension_of_a_later_addition_is_lined_up_with_the_table():
    bx = BroadcastExplorer((2,), (2,), (1, 3))       # a + b works; adding c fails at dim 0 of that sum
    assert bx.broadcast_error.endswith("at non-singleton dimension 1")   # (a + b) is (2,), c is (1, 3)
    assert bx.failing_step == 2 and bx.failing_dim == 1
    assert bx.marks()["c"] == ("equal", "incompatible")
    assert "adding c to a + b (that sum is tensor a): RuntimeError" in bx.to_svg()


def test_select_names_the_stored_elements_it_reads():
    bx = BroadcastExplorer((3, 1), (4,))
    pick = bx.select((1, 2))
    assert pick.reads == {"a": (1, 0), "b": (2,)}
    assert pick.formula == "(a + b)[1, 2] = a[1, 0] + b[2] = 1. + 2. = 3."
    svg = bx.to_svg()
    assert pick.formula in svg
    # the result cell, a's whole row 1 (one stored element read 4 times), b's whole column 2 (3 times)
    assert svg.count(f'fill="{PALETTE["selected"]}"') == 1 + 4 + 3
    assert bx.select((3, 0)) is None and bx.error.startswith("IndexError: index 3 is out of bounds")
    assert bx.selected == (1, 2)


def test_gradient_view_comes_from_a_real_backward():
    a = torch.ones(2, 1, 3, requires_grad=True)
    bx = BroadcastExplorer(a, (4, 1), (3,))
    g = bx.gradient_view()
    assert a.grad is None                                   # the learner's tensors are left alone
    assert g.grads["a"].tolist() == [[[4.] * 3]] * 2        # each element of a was read 4 times
    assert g.grads["b"].tolist() == [[6.]] * 4              # 2 * 3
    assert g.grads["c"].tolist() == [8.] * 3                # 2 * 4
    assert g.reductions == {"a": ((), (1,)), "b": ((0,), (1,)), "c": ((0, 1), ())}
    assert all(ok for _, ok in g.checks.values())
    assert g.checks["b"][0] == "ones(2, 4, 3).sum(dim=0).sum(dim=1, keepdim=True)"
    svg = g.to_svg()
    assert "(a + b + c).sum() = 84., then .backward()" in svg
    assert "c.grad == ones(2, 4, 3).sum(dim=(0, 1)): True" in svg
    assert "<svg" not in g.to_html() and 'src="data:image/svg+xml;base64,' in g.to_html()
    bundle = g._repr_mimebundle_()
    assert bundle["text/plain"].startswith("a.grad = ones(2, 4, 3).sum(dim=1, keepdim=True) (ok)")


def test_gradient_view_of_shapes_that_do_not_broadcast():
    g = BroadcastExplorer((2,), (3,)).gradient_view()
    assert g.grads == {} and "forward already fails" in g.to_html()


def test_set_shapes_and_bad_input():
    bx = BroadcastExplorer((3, 1), (4,))
    bx.set_shapes("2, 1, 4", (3, 1))
    assert bx.result_shape == (2, 3, 4) and bx.error is None
    for bad, phrase in [(("3, x", "4"), "names are not accepted"), (("3",), "give 2 shapes"),
                        (("-1", "4"), "non-negative"), (((-1,), (4,)), "cannot be negative"),
                        (("2000, 1", "1, 1000"), "up to 1,000,000")]:
        bx.set_shapes(*bad)
        assert phrase in bx.error
        assert bx.result_shape == (2, 3, 4)                  # unchanged
    with pytest.raises(ValueError, match="up to 1,000,000"):
        BroadcastExplorer((2000, 1000), (1,))
    with pytest.raises(ValueError):
        BroadcastExplorer()


def test_big_results_draw_the_table_only():
    bx = BroadcastExplorer((20, 1), (1, 20))
    svg = bx.to_svg()
    assert "the grids of elements are left out: the result has 400 elements" in svg and "shape (20, 20)" in svg


def test_drawing_is_deterministic():
    one, two = BroadcastExplorer((2, 1, 3), (4, 1)), BroadcastExplorer((2, 1, 3), (4, 1))
    one.select((1, 2, 0))
    two.select((1, 2, 0))
    assert one.to_html() == two.to_html() and "0x" not in one.to_html()


# -- the view, driven headless ----------------------------------------------------------------------

def test_view_shape_boxes_and_errors():
    bx = BroadcastExplorer((3, 1), (4,))
    view = bx.widget
    assert [b.value for b in view.shape_boxes] == ["3, 1", "4,"]
    view.shape_boxes[1].value = "2, 5"
    view.shapes_button.click()
    # shapes that do not broadcast are a state to look at, not a typo: the picture shows the error
    assert view.error.value == "" and view.cells.children == ()
    assert ("RuntimeError: The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
            "dimension 0") in svg_text(view.picture.value)
    view.shape_boxes[1].value = "(2, 1, 1)"
    view.shapes_button.click()
    assert bx.result_shape == (2, 3, 1) and len([c for c in view.cells.children if hasattr(c, "index")]) == 6
    view.shape_boxes[0].value = "3,,"
    view.shapes_button.click()
    assert "not accepted: not a shape" in view.error.value and bx.result_shape == (2, 3, 1)


def test_view_click_a_result_cell_and_show_gradients():
    bx = BroadcastExplorer((3, 1), (4,))
    view = bx.widget
    cells = [c for c in view.cells.children if hasattr(c, "index")]
    assert len(cells) == 12 and cells[6].tooltip == "(a + b)[1, 2]" and cells[6].description == "3."
    before = view.picture.value
    cells[6].click()
    assert bx.selected == (1, 2) and cells[6].style.button_color == PALETTE["selected"]
    assert view.picture.value != before and "(a + b)[1, 2] = a[1, 0] + b[2]" in view.picture.value
    assert view.gradients.value == ""
    view.gradients_button.value = True
    assert "a.grad == ones(3, 4).sum(dim=1, keepdim=True): True" in view.gradients.value
    view.gradients_button.value = False
    assert view.gradients.value == ""
