"""Lesson 03's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson03 as check
from coursekit.solutions import lesson03 as solution
from coursekit.testing import assert_rejected


def _last_dim_only(sum_kind):
    """Reduce only a stretched last dim (what a learner who thinks of one bias column writes)."""
    def unbroadcast(grad, shape):
        if shape[-1] == 1 and grad.shape[-1] != 1:
            return getattr(grad, sum_kind)(dim=-1, keepdim=True)
        return grad
    return unbroadcast


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_views(solution.views)
    assert check.check_shapes(solution.shapes)
    assert check.check_stretch(solution.stretch)
    assert check.check_unbroadcast(solution.unbroadcast)
    assert capsys.readouterr().out.count("Correct!") == 4


def test_other_correct_answers_are_accepted(mode):
    assert check.check_shapes([[3, 4], [2, 3], "error", [5, 3, 4], [2, 2, 3], "error", [2, 3]])
    assert check.check_stretch(lambda col, k: col.expand(col.shape[0], k))
    assert check.check_stretch(lambda col, k: col.expand(-1, k).view(-1, k))
    assert check.check_unbroadcast(lambda grad, shape: grad.sum_to_size(shape))


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_views(...), check.check_shapes(...), check.check_stretch(lambda col, k: ...),
                    check.check_unbroadcast(lambda grad, shape: ...), check.check_stretch(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # "a non-contiguous input always copies", "repeat is like expand"
    ((False, False, False, True, True, False, True, True),
     ["2 of 8 predictions are off", "(2) x.t().reshape(2, 2, 3): not False", "Splitting a dim never needs a copy",
      "(8) x.repeat(2, 1): not True", "new, bigger storage"]),
    # "reshape always copies", "contiguous() always copies"
    ((False, False, False, False, False, False, True, False),
     ["(4) x[:2].reshape(8): not False", "back to back", "(5) x.contiguous(): not False", "returns x itself"]),
    ((True,) * 8, ["(1) x.t().reshape(12): not True", "no single stride", "(3) x[:, :2].reshape(6)",
                   "(6) x.t().contiguous(): not True"]),
    ((True, False), ["the answer should be a tuple of 8 booleans"]),
])
def test_wrong_view_predictions(mode, answer, phrases):
    verdict = check.check_views(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    # lining the shapes up on the left
    (((3, 4), (2, 3), (2, 3), (5, 3, 4), (2, 2, 3), (3, 4), (2, 3)),
     ["2 of 7 predictions are off", "(3) (2, 3) + (2,): not (2, 3)", "on the *right*",
      "(6) (3, 4) + (3,): not (3, 4)", "never lines shapes up on the left", "If one does not, a + b cannot run"]),
    # "size 1 only stretches when the dims agree in number"
    (((3, 4), (2, 3), "error", (5, 3, 4), (2, 2, 3), "error", "error"),
     ["1 of 7 predictions is off", "(7) (1,) + (2, 3): not 'error'", "They do broadcast"]),
    # stretching the wrong side
    (((3, 1), (2, 3), "error", (5, 1, 4), (2, 1, 3), "error", (2, 3)),
     ["(1) (3, 1) + (4,): not (3, 1)", "(4) (5, 1, 4) + (3, 1): not (5, 1, 4)", "then 1 with 3"]),
])
def test_wrong_shape_predictions(mode, answer, phrases):
    verdict = check.check_shapes(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda col, k: col.repeat(1, k), ["has strides (4, 1), expected (1, 0)", "they were written out"]),
    (lambda col, k: col * torch.ones(1, k, dtype=col.dtype), ["has strides (4, 1)", "col * ones"]),
    (lambda col, k: col.expand(k, -1), ["raised RuntimeError: The expanded size of the tensor (4) must match",
                                        "only the size-1 dim can grow"]),
    (lambda col, k: col.view(-1, k), ["shape '[-1, 4]' is invalid for input of size 3", "needs expand"]),
    (lambda col, k: col.t().expand(k, -1), ["has shape (4, 3), expected (3, 4)", "one row per element of col"]),
])
def test_wrong_stretches(mode, answer, phrases):
    verdict = check.check_stretch(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda grad, shape: grad.sum(dim=-1) if shape[-1] == 1 else grad,
     ["grad of shape (3, 4), shape = (3, 1): the result has shape (3,), expected (3, 1)", "keepdim=True"]),
    (_last_dim_only("mean"), ["1.5 instead of 6.0", "sum, not mean"]),
    (lambda grad, shape: grad[..., :1] if shape[-1] == 1 else grad, ["0.0 instead of 6.0", "add them all up"]),
    (_last_dim_only("sum"), ["grad of shape (2, 3, 4), shape = (4,): the result has shape (2, 3, 4)",
                             "extra leading dims"]),
    (lambda grad, shape: grad.sum(dim=tuple(range(grad.dim() - len(shape)))) if grad.dim() > len(shape) else grad,
     ["grad of shape (3, 4), shape = (3, 1): the result has shape (3, 4)", "had size 1"]),
])
def test_wrong_unbroadcasts(mode, answer, phrases):
    verdict = check.check_unbroadcast(answer)
    assert_rejected(verdict, phrases)
