"""Lesson 13's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson13 as check
from coursekit.solutions import lesson13 as solution
from coursekit.testing import assert_rejected
from tensorlab.nn import functional as F


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_layer_predictions(solution.predictions)
    assert check.check_linear(solution.linear)
    assert check.check_cross_entropy(solution.cross_entropy)
    assert capsys.readouterr().out.count("Correct!") == 3


def test_other_correct_answers_are_accepted(mode):
    assert check.check_layer_predictions(([2, 3], torch.Size([5, 2]), (4, 7, 2), 2.0, 4.0, [3], 0.25))
    assert check.check_linear(lambda x, w, b: F.linear(x, w, b))
    assert check.check_linear(lambda x, w, b: torch.matmul(x, w.t()) + b)
    assert check.check_linear(lambda x, w, b: torch.einsum("...i,oi->...o", x, w) + b)
    assert check.check_cross_entropy(lambda logits, target: F.nll_loss(F.log_softmax(logits, dim=1), target))
    assert check.check_cross_entropy(
        lambda logits, target: -logits.log_softmax(1).gather(1, target[:, None]).mean())


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_layer_predictions(...), check.check_linear(lambda x, w, b: ...),
                    check.check_cross_entropy(lambda logits, target: ...), check.check_linear(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # [in, out] weights, the class dim kept, ints for floats
    (((3, 2), (5, 2), (4, 7, 2), 2, 2.0, (3, 5), 0.25),
     ["4 of 7", "(1) nn.Linear(3, 2).weight.shape: not (3, 2)", "[out_features, in_features]",
      "The number is right; write it as a float", 'reduction="sum" adds', "one loss per sample"]),
    # Linear flattens the leading dims; softmax of ones is one
    (((2, 3), (5, 2), (28, 2), 2.0, 4.0, (3,), 1.0),
     ["2 of 7", "only looks at the last dimension", "they sum to 1"]),
    (((2, 3), (5, 2)), ["the answer should be a tuple of 7 predictions", "yours is a tuple of 2 items"]),
])
def test_wrong_layer_predictions(mode, answer, phrases):
    verdict = check.check_layer_predictions(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda x, w, b: x @ w + b, ["raised RuntimeError: mat1 and mat2 shapes cannot be multiplied",
                                 "must meet its *transpose*"]),
    (lambda x, w, b: x @ w.T, ["differs at 10 of 10 positions", "without the bias"]),
    (lambda x, w, b: x @ w.T - b, ["differs", "added, not subtracted"]),
    (lambda x, w, b: torch.mm(x, w.t()) + b, ["x of shape (4, 7, 3)", "self must be a matrix",
                                              "torch.mm only takes 2-D matrices"]),
    (lambda x, w, b: (x @ w.T + b).sum(), ["has shape ()"]),
    (lambda x, w, b: None, ["returned None", "forget `return`"]),
])
def test_wrong_linears(mode, answer, phrases):
    verdict = check.check_linear(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda l, t: F.nll_loss(F.softmax(l, dim=1).log(), t), ["large logits", "inf instead of 1000.0",
                                                             "log(0) = -inf"]),
    (lambda l, t: F.nll_loss(F.softmax(l, dim=1), t), ["nll_loss expects *log*-probabilities"]),
    (lambda l, t: F.nll_loss(l, t), ["does not apply a softmax"]),
    (lambda l, t: -F.nll_loss(F.log_softmax(l, dim=1), t), ["-0.31853977 instead of 0.31853977", "*negative*"]),
    (lambda l, t: F.nll_loss(F.log_softmax(l, dim=1), t, reduction="sum"), ["Average over the batch"]),
    (lambda l, t: F.nll_loss(F.log_softmax(l, dim=0), t), ["log_softmax(logits, dim=1), not dim=0"]),
    (lambda l, t: -F.log_softmax(l, dim=1)[torch.arange(len(t)), t], ["has shape (2,), expected ()",
                                                                       "to their mean"]),
    (lambda l, t: torch.tensor(F.cross_entropy(l, t).item()), ["no grad_fn", "no .item()"]),
    (lambda l, t: F.cross_entropy(l, t).item(), ["Return a tensor"]),
    (lambda l, t: (l.exp() / l.exp().sum(1, keepdim=True)).log()[torch.arange(len(t)), t].mean().neg(),
     ["large logits", "overflows"]),
])
def test_wrong_cross_entropies(mode, answer, phrases):
    verdict = check.check_cross_entropy(answer)
    assert_rejected(verdict, phrases)
