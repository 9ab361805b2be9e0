"""benchmarks/profile_hot_path.py splits a path into pieces measured as nested calls; each table row
is a difference of pieces, and the rows must add up to the whole path, whatever was measured. No
timing is asserted."""
import random

import pytest

from benchmarks import profile_hot_path as prof


@pytest.mark.parametrize("rows, whole", [(prof.ADD_ROWS, "a + b"), (prof.ADD_GRAD_ROWS, "a + b")])
def test_the_rows_of_a_path_add_up_to_the_whole(rows, whole):
    rng = random.Random(0)
    values = {k: rng.uniform(1, 100) for _, _, plus, minus in rows for k in plus + minus}
    total = sum(prof._combine(values, plus, minus) for _, _, plus, minus in rows)
    assert total == pytest.approx(values[whole])


def test_the_mlp_phases_add_up_to_the_step():
    rng = random.Random(0)
    keys = {k.format(lib) for _, _, plus, minus in prof.MLP_ROWS for k in plus + minus
            for lib in ("tensorlab", "PyTorch")}
    values = {k: rng.uniform(1, 100) for k in keys}
    *phases, (_, _, whole, _) = prof.MLP_ROWS
    for lib in ("tensorlab", "PyTorch"):
        total = sum(prof._combine(values, [k.format(lib) for k in plus], [k.format(lib) for k in minus])
                    for _, _, plus, minus in phases)
        assert total == pytest.approx(values[whole[0].format(lib)])


@pytest.mark.parametrize("grad", [False, True])
def test_every_piece_of_a_plus_b_runs_and_gives_a_plus_b_where_it_should(grad):
    pieces = prof.add_pieces(grad)
    for name, piece in pieces.items():
        if piece is not None:
            piece()
    whole = pieces["a + b"]()
    assert whole.requires_grad is grad
    rows = prof.ADD_GRAD_ROWS if grad else prof.ADD_ROWS
    assert {k for _, _, plus, minus in rows for k in plus + minus} <= set(pieces)


def test_a_piece_missing_from_the_code_shows_as_not_measured():
    assert prof._combine({"a": 1.0}, ["a"], ["gone"]) is None
    table = prof.rows_table([("x", "y", ["a"], ["gone"])], {"a": 1e-6}, {}, "")
    assert "| n/a |" in table
