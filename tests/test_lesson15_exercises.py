"""Lesson 15's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson15 as check
from coursekit.solutions import lesson15 as solution
from coursekit.testing import assert_rejected
from tensorlab import nn


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_norm_predictions(solution.predictions)
    assert check.check_running_stats(solution.update_running_stats)
    assert check.check_batchnorm_eval(solution.batchnorm_eval)
    assert check.check_block(solution.Block)
    assert capsys.readouterr().out.count("Correct!") == 4


def test_the_running_stats_solution_is_what_batchnorm_does():
    """The reference is checked against the layer itself, not only against the formula."""
    for case in check.RUNNING_CASES:
        running_mean, running_var, x, momentum = case.make(torch)
        bn = nn.BatchNorm1d(x.shape[1], momentum=momentum)
        with torch.no_grad():
            bn.running_mean.copy_(running_mean)
            bn.running_var.copy_(running_var)
        bn(x)
        mean, var = solution.update_running_stats(running_mean, running_var, x, momentum)
        assert torch.allclose(mean, bn.running_mean) and torch.allclose(var, bn.running_var)


def test_the_eval_solution_is_what_batchnorm_does():
    for case in check.EVAL_CASES:
        x, bn = case.make(torch)
        assert torch.allclose(solution.batchnorm_eval(x, bn), bn.eval()(x), atol=1e-6)


def test_other_correct_answers_are_accepted(mode):
    assert check.check_norm_predictions(((3,), [5, 5], True, False, True, 1.25, 1.0, 0.05))
    assert check.check_running_stats(
        lambda rm, rv, x, m: (rm + m * (x.mean(0) - rm), rv + m * (x.var(0, unbiased=True) - rv)))
    assert check.check_running_stats(lambda rm, rv, x, m: [torch.lerp(rm, x.mean(0), m), torch.lerp(rv, x.var(0), m)])

    def switched_back(x, bn):
        was = bn.training
        out = bn.eval()(x)
        bn.train(was)
        return out
    assert check.check_batchnorm_eval(switched_back)

    def by_scale_and_shift(x, bn):
        scale = bn.weight / (bn.running_var + bn.eps).sqrt()
        shift = bn.bias - bn.running_mean * scale
        return x * scale.view(1, -1, *[1] * (x.dim() - 2)) + shift.view(1, -1, *[1] * (x.dim() - 2))
    assert check.check_batchnorm_eval(by_scale_and_shift)


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_norm_predictions(...), check.check_running_stats(...),
                    check.check_running_stats(lambda rm, rv, x, m: ...),
                    check.check_batchnorm_eval(lambda x, bn: ...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # per pixel, LayerNorm's scale 1-d, the dims swapped, no scaling in training, dropout in eval, fan_out
    (((8, 3, 5, 5), (5,), False, True, False, 1.0, 1.25, 0.1),
     ["8 of 8", "(1) nn.BatchNorm2d(3).running_mean.shape: not (8, 3, 5, 5)", "one running mean per channel",
      "one scale for every element of them", "dims (0, 2, 3)", "each 5 x 5 plane has mean ~0",
      "so that the expected value stays 1", "does nothing at all", "not the first"]),
    # multiplied by 1 - p, no relu gain
    (((3,), (5, 5), True, False, True, 0.8, 1.0, 0.04), ["2 of 8", "*divided* by (1 - p)", "the gain is sqrt(2)"]),
    (((3,), (5, 5), 1, 0, 1, 1.25, 1.0, 0.05), ["3 of 8", "(3) nn.BatchNorm2d(3)(x).mean"]),
    (((3,), (5, 5), True, False, True, 1.25, 1, 0.05), ["1 of 8", "The number is right; write it as a float"]),
    ((1.25, 1.0), ["the answer should be a tuple of 8 predictions", "yours is a tuple of 2 items"]),
])
def test_wrong_norm_predictions(mode, answer, phrases):
    verdict = check.check_norm_predictions(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda rm, rv, x, m: (m * rm + (1 - m) * x.mean(0), m * rv + (1 - m) * x.var(0)),
     ["result[0] differs", "3.6 instead of 0.4", "the opposite of an optimizer's momentum"]),
    (lambda rm, rv, x, m: ((1 - m) * rm + m * x.mean(0), (1 - m) * rv + m * x.var(0, unbiased=False)),
     ["result[1] differs", "1.4 instead of 1.5666666", "*unbiased* variance"]),
    (lambda rm, rv, x, m: ((1 - m) * rm + m * x.mean(0), (1 - m) * rv + m * x.std(0)),
     ["result[1] differs", "not a standard deviation"]),
    (lambda rm, rv, x, m: (x.mean(0), x.var(0)), ["4.0 instead of 0.4", "keep (1 - momentum) of the old value"]),
    (lambda rm, rv, x, m: ((1 - m) * rm + m * x.mean(1), (1 - m) * rv + m * x.var(1)),
     ["must match the size", "reduce over the batch, dim=0"]),
    (lambda rm, rv, x, m: (1 - m) * rm + m * x.mean(0), ["expected a tuple of 2 items", "Return a pair"]),
])
def test_wrong_running_stats(mode, answer, phrases):
    verdict = check.check_running_stats(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda x, bn: bn(x), ["changed its input in place: `bn.running_mean` has new values",
                           "what training mode does"]),
    (lambda x, bn: bn.eval()(x), ["`bn` was switched to eval mode", "switches it for the caller too"]),
    (lambda x, bn: (x - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps) * bn.weight + bn.bias,
     ["x of shape (2, 2, 3, 4)", "must match the size", "Reshape the statistics and parameters to (1, C, 1, 1)"]),
    (lambda x, bn: (x - bn.running_mean) / torch.sqrt(bn.running_var) * bn.weight + bn.bias,
     ["7.0 instead of 6.99988", "Add eps inside the square root"]),
    (lambda x, bn: (x - bn.running_mean) / (bn.running_var + bn.eps) * bn.weight + bn.bias,
     ["0.24999937 instead of 0.4999994", "not by the variance"]),
    (lambda x, bn: (x - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps),
     ["differs", "scale by weight and shift by bias"]),
    (lambda x, bn: None, ["returned None"]),
])
def test_wrong_batchnorm_evals(mode, answer, phrases):
    verdict = check.check_batchnorm_eval(answer)
    assert_rejected(verdict, phrases)


# -- exercise 4: ResNet's basic block ---------------------------------------------------------------------

def _init(self, inplanes, planes, stride=1, rename=False):
    """The lesson's Block.__init__ (written out: the checks re-create the class on PyTorch)."""
    nn.Module.__init__(self)
    self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
    setattr(self, "norm1" if rename else "bn1", nn.BatchNorm2d(planes))
    self.relu = nn.ReLU()
    self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, padding=1, bias=False)
    self.bn2 = nn.BatchNorm2d(planes)
    self.downsample = None
    if stride != 1 or inplanes != planes:
        self.downsample = nn.Sequential(
            nn.Conv2d(inplanes, planes, kernel_size=1, stride=stride, bias=False), nn.BatchNorm2d(planes))


def _block(forward):
    """The lesson's Block with ``forward`` as its forward."""
    return type("Block", (nn.Module,), {"__init__": _init, "forward": forward})


def _in_place_add(self, x):                 # torchvision's own spelling: in-place add and ReLU
    out = self.relu(self.bn1(self.conv1(x)))
    out = self.bn2(self.conv2(out))
    out += x if self.downsample is None else self.downsample(x)
    return torch.relu_(out)


def _no_final_relu(self, x):
    out = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
    return out + (x if self.downsample is None else self.downsample(x))


def _relu_before_add(self, x):
    out = self.relu(self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x))))))
    return out + (x if self.downsample is None else self.downsample(x))


def _no_shortcut(self, x):
    return self.relu(self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x))))))


def _no_middle_relu(self, x):
    out = self.bn2(self.conv2(self.bn1(self.conv1(x))))
    return self.relu(out + (x if self.downsample is None else self.downsample(x)))


def _add_before_bn2(self, x):
    out = self.conv2(self.relu(self.bn1(self.conv1(x))))
    return self.relu(self.bn2(out + (x if self.downsample is None else self.downsample(x))))


def _always_x(self, x):
    return self.relu(self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x))))) + x)


def _bn1_twice(self, x):
    self.bn1(self.conv1(x))
    return _in_place_add(self, x)


class _Renamed(nn.Module):
    def __init__(self, inplanes, planes, stride=1):
        _init(self, inplanes, planes, stride, rename=True)

    def forward(self, x):
        return ...


def test_other_correct_blocks_are_accepted(mode):
    assert check.check_block(_block(_in_place_add))


def test_the_lessons_block_stub_is_not_answered_yet(mode):
    verdict = check.check_block(_block(lambda self, x: ...))
    assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("forward, phrases", [
    (_no_final_relu, ["Block(4, 4, stride=1) in train()", "ReLU *after* the addition"]),
    (_relu_before_add, ["not before it"]),
    (_no_shortcut, ["Add the shortcut"]),
    (_no_middle_relu, ["between the two convolutions"]),
    (_add_before_bn2, ["after bn2, not before it"]),
    (_always_x, ["Block(4, 6, stride=2) in train() raised RuntimeError", "self.downsample(x), not x"]),
    (_bn1_twice, ["bn1.running_mean", "exactly once per forward"]),
])
def test_wrong_blocks(mode, forward, phrases):
    assert_rejected(check.check_block(_block(forward)), phrases)


def test_a_block_with_renamed_layers_is_told_to_keep_init(mode):
    assert_rejected(check.check_block(_Renamed), ["load_state_dict", "Keep __init__ as the lesson gives it"])


def test_the_blocks_reference_is_tensorlabs_basic_block():
    """The state_dict a check loads fits tensorlab.vision.models.BasicBlock, which computes the same."""
    from tensorlab.vision.models import BasicBlock
    for inplanes, planes, stride in check.BLOCK_SHAPES:
        mine = solution.Block(inplanes, planes, stride)
        library = BasicBlock(inplanes, planes, stride, mine.downsample and nn.Sequential(
            nn.Conv2d(inplanes, planes, 1, stride=stride, bias=False), nn.BatchNorm2d(planes)))
        for model in (mine, library):
            model.load_state_dict(check.block_state(torch, inplanes, planes, stride))
        x = check._block_input(torch, inplanes)
        assert torch.allclose(mine(x), library(x), atol=1e-6)
