"""Lesson 14's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson14 as check
from coursekit.solutions import lesson14 as solution
from coursekit.testing import assert_rejected
from tensorlab.nn import functional as F


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_conv_shapes(solution.shapes)
    assert check.check_conv2d(solution.conv2d)
    assert check.check_max_pool_backward(solution.max_pool_backward)
    assert capsys.readouterr().out.count("Correct!") == 3


def _autograd_pool_backward(x, grad_output):
    x = x.clone().requires_grad_()
    F.max_pool2d(x, 2).backward(grad_output)
    return x.grad


def _out(n, k, stride, padding):
    return (n + 2 * padding - k) // stride + 1


def _conv_by_windows(x, weight, bias, stride=1, padding=0):
    """Another correct answer: F.unfold, then einsum instead of @."""
    n, _, h, w = x.shape
    o, _, k, _ = weight.shape
    cols = F.unfold(x, k, padding=padding, stride=stride)
    out = torch.einsum("ok,nkl->nol", weight.reshape(o, -1), cols) + bias[None, :, None]
    return out.reshape(n, o, _out(h, k, stride, padding), _out(w, k, stride, padding))


def test_other_correct_answers_are_accepted(mode):
    assert check.check_conv_shapes(tuple(list(s) for s in solution.shapes))
    assert check.check_conv_shapes(tuple(torch.Size(s) for s in solution.shapes))
    assert check.check_conv2d(_conv_by_windows)
    assert check.check_conv2d(lambda x, weight, bias, stride=1, padding=0: F.conv2d(x, weight, bias, stride, padding))
    assert check.check_max_pool_backward(_autograd_pool_backward)

    def by_mask(x, grad_output):
        spread = lambda t: t.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)   # noqa: E731
        return (x == spread(F.max_pool2d(x, 2))).float() * spread(grad_output)
    assert check.check_max_pool_backward(by_mask)


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_conv_shapes(...), check.check_conv2d(...),
                    check.check_conv2d(lambda x, weight, bias, stride=1, padding=0: ...),
                    check.check_max_pool_backward(lambda x, grad_output: ...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # padding forgotten or counted once, stride rounded up, dilation ignored, [in, out] weight, unfold transposed
    (((2, 16, 32, 32), (2, 16, 31, 31), (2, 16, 16, 16), (2, 16, 16, 16), (2, 16, 30, 30), (3, 16, 3, 3),
      (2, 900, 27), (2, 16, 8, 8)),
     ["7 of 8", "(1) nn.Conv2d(3, 16, kernel_size=3)(x).shape: not (2, 16, 32, 32)", "size with padding=1",
      "adds 2, not 1", "rounds *down*", "spans more pixels than 3", "Output channels come first",
      "one *column* per window", "the last, odd row is dropped"]),
    # dilation taken for stride, stride forgotten, overlapping pooling, channels in the wrong place
    (((2, 16, 30, 30), (2, 16, 32, 32), (2, 16, 32, 32), (2, 16, 14, 14), (2, 16, 16, 16), (16, 3, 3, 3),
      (2, 27, 900), (2, 16, 14, 14)),
     ["4 of 8", "stride=2 keeps only every second window", "the + 1 in (n - k) // stride + 1",
      "dilation is not stride", "stride=kernel_size"]),
    (((2, 3, 30, 30),) + solution.shapes[1:], ["1 of 8", "the output channels (16)"]),
    (solution.shapes[:3], ["the answer should be a tuple of 8 shapes", "yours is a tuple of 3 items"]),
])
def test_wrong_conv_shapes(mode, answer, phrases):
    verdict = check.check_conv_shapes(answer)
    assert_rejected(verdict, phrases)


def _unfold_then(finish, unfold_kwargs=True):
    def conv2d(x, weight, bias, stride=1, padding=0):
        n, _, h, w = x.shape
        o, _, k, _ = weight.shape
        cols = F.unfold(x, k, padding=padding, stride=stride) if unfold_kwargs else F.unfold(x, k)
        return finish(weight.view(o, -1), cols, bias, n, o, _out(h, k, stride, padding), _out(w, k, stride, padding))
    return conv2d


@pytest.mark.parametrize("answer, phrases", [
    (_unfold_then(lambda w, cols, b, n, o, h, wd: w @ cols + b.view(1, -1, 1)),
     ["has shape (1, 1, 4), expected (1, 1, 2, 2)", "Reshape the (N, out_channels, L) product"]),
    (_unfold_then(lambda w, cols, b, n, o, h, wd: (w @ cols).view(n, o, h, wd)),
     ["differs at 4 of 4 positions", "without the bias"]),
    (_unfold_then(lambda w, cols, b, n, o, h, wd: (w @ cols + b).view(n, o, h, wd)),
     ["x (2, 3, 7, 6), weight (4, 3, 3, 3)", "must match the size", "lines up with the *last* dimension"]),
    (_unfold_then(lambda w, cols, b, n, o, h, wd: (w @ cols + b.view(1, -1, 1)).view(n, o, h, wd), False),
     ["invalid for input of size 160", "F.unfold must get the same stride and padding"]),
    (_unfold_then(lambda w, cols, b, n, o, h, wd: (w @ cols + b.view(1, -1, 1)).view(n, o, wd, h)),
     ["has shape (2, 4, 6, 7), expected (2, 4, 7, 6)", "Height and width are swapped"]),
    (_unfold_then(lambda w, cols, b, n, o, h, wd: cols @ w),
     ["mat1 and mat2 shapes cannot be multiplied", "the weight goes on the left of @"]),
    (lambda x, weight, bias, stride=1, padding=0: F.conv2d(x, weight.flip(2, 3), bias, stride, padding),
     ["differs", "kernel was flipped", "cross-correlation"]),
    (lambda x, weight, bias, stride=1, padding=0: None, ["returned None", "forget `return`"]),
])
def test_wrong_conv2ds(mode, answer, phrases):
    verdict = check.check_conv2d(answer)
    assert_rejected(verdict, phrases)


def _spread(t):
    return t.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)


@pytest.mark.parametrize("answer, phrases", [
    (lambda x, g: _spread(g) / 4, ["0.25 instead of 0.0", "*average* pooling's backward"]),
    (lambda x, g: _spread(g), ["differs at 12 of 16 positions", "the other three get 0"]),
    (lambda x, g: (x == _spread(F.max_pool2d(x, 2))).float(),
     ["x of shape (2, 3, 4, 6)", "The right pixels", "not 1"]),
    (lambda x, g: g, ["has shape (1, 1, 2, 2), expected (1, 1, 4, 4)", "one number per input pixel"]),
    (lambda x, g: None, ["returned None"]),
])
def test_wrong_max_pool_backwards(mode, answer, phrases):
    verdict = check.check_max_pool_backward(answer)
    assert_rejected(verdict, phrases)


def test_the_hostile_pass_answers_get_a_verdict(mode):
    """The answers that crashed the checks: sys.exit(), and results/predictions whose ==/repr raise."""
    import sys
    from coursekit.testing import Hostile
    assert_rejected(check.check_conv2d(lambda x, weight, bias, stride, padding: sys.exit("done")),
                    ["`conv2d` on", "it called sys.exit()"])
    assert_rejected(check.check_max_pool_backward(lambda x, grad_output: Hostile()), ["the result is a Hostile"])
    assert_rejected(check.check_conv_shapes((Hostile(),) * 8), ["8 of 8 predictions are off"])
