"""Lesson 11's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson11 as check
from coursekit.solutions import lesson11 as solution
from coursekit.testing import assert_rejected
from tensorlab import nn


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_counts(solution.counts)
    assert check.check_names(solution.names)
    assert check.check_freeze(solution.freeze_all_but_last)
    assert check.check_standardize(solution.Standardize)
    assert capsys.readouterr().out.count("Correct!") == 4


def test_other_correct_answers_are_accepted(mode):
    assert check.check_counts([55, 50, 224, 16, 23, 0])
    assert check.check_names((["scale", "fc.weight", "fc.bias"], ["mean", "scratch"],
                              ["scale", "mean", "fc.weight", "fc.bias"], 1))

    def with_requires_grad_(model):
        model.requires_grad_(False)
        model[-1].requires_grad_(True)

    def by_index(model):
        for layer in list(model)[:-1]:
            for p in layer.parameters():
                p.requires_grad = False

    assert check.check_freeze(with_requires_grad_)
    assert check.check_freeze(by_index)
    assert check.check_standardize(_OtherSpelling)


class _OtherSpelling(nn.Module):
    """Another correct Standardize: register_parameter, a copy of mean, the old super() spelling."""

    def __init__(self, mean):
        super(_OtherSpelling, self).__init__()
        self.register_buffer("mean", mean.clone())
        self.register_parameter("gain", nn.Parameter(torch.ones(mean.shape)))

    def forward(self, x):
        return self.gain * (x - self.mean)


class _Stub(nn.Module):
    def __init__(self, mean):
        super().__init__()
        ...  # your code here

    def forward(self, x):
        return ...  # your code here


def test_stubs_get_a_fixed_message(mode):
    def stub(model):
        return ...

    for verdict in (check.check_counts(...), check.check_names(...), check.check_names((..., ..., ..., 1)),
                    check.check_freeze(stub), check.check_freeze(...),
                    check.check_standardize(_Stub), check.check_standardize(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # buffers counted as parameters, in_channels forgotten, bias=False ignored
    ((55, 55, 80, 32, 23, 0), ["3 of 6 predictions are off", "(2) nn.Linear(10, 5, bias=False): not 55",
                               "registers no bias", "[out_channels, in_channels, 3, 3]", "are *buffers*"]),
    # "a Sequential only counts its own parameters", "pooling has a weight"
    ((55, 50, 224, 16, 0, 4), ["2 of 6", "recurses into every registered submodule", "anything in that to learn"]),
    ((55, 50, 224, 0, 23, 0), ["(4) nn.BatchNorm2d(8): not 0", "a scale (weight) and a shift (bias)"]),
    ((55, 50, 224), ["the answer should be a tuple of 6 numbers", "yours is a tuple of 3 items"]),
])
def test_wrong_counts(mode, answer, phrases):
    verdict = check.check_counts(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    # children first, the non-persistent buffer forgotten / saved, the list counted as children
    ((["fc.weight", "fc.bias", "scale"], ["mean"], ["scale", "mean", "scratch", "fc.weight", "fc.bias"], 3),
     ["4 of 4", "in another order", "own* entries first", "persistent=False keeps a buffer out of state_dict(), "
      "not out of buffers()", "exactly what keeps a buffer out of state_dict", "not registered, so they are not children"]),
    # the plain tensor with requires_grad=True taken for a parameter, the list registered
    ((["scale", "offset", "fc.weight", "fc.bias"], ["mean", "scratch"],
      ["scale", "mean", "fc.weight", "fc.bias", "heads.0.weight", "heads.0.bias"], 1),
     ["2 of 4", "offset is a plain tensor", "heads is a Python list"]),
    # buffers not saved
    ((["scale", "fc.weight", "fc.bias"], ["mean", "scratch"], ["scale", "fc.weight", "fc.bias"], 0),
     ["saves the parameters *and* the persistent buffers", "children() yields"]),
])
def test_wrong_names(mode, answer, phrases):
    verdict = check.check_names(answer)
    assert_rejected(verdict, phrases)


def _eval_only(model):
    model.eval()


def _module_attribute(model):
    for layer in list(model)[:-1]:
        layer.requires_grad = False


def _weights_only(model):
    for name, p in model.named_parameters():
        if name.endswith("weight"):
            p.requires_grad_(False)
    model[-1].requires_grad_(True)


def _linear_only(model):
    for layer in list(model)[:-1]:
        if type(layer).__name__ == "Linear":
            layer.requires_grad_(False)


def _on_copies(model):
    for p in model.parameters():
        p.detach().requires_grad_(False)


@pytest.mark.parametrize("answer, phrases", [
    (_eval_only, ["still has requires_grad=True (the model was switched to eval mode)", "eval() changes how Dropout"]),
    (_module_attribute, ["set as an attribute of a layer", "requires_grad_(False)` (with the underscore)"]),
    (_weights_only, ["0.bias, 2.bias are still trainable", "biases too"]),
    (_linear_only, ["nn.BatchNorm1d(4)", "1.weight, 1.bias are still trainable", "BatchNorm's weight and bias"]),
    (_on_copies, ["nothing was frozen", "not a copy such as p.detach()"]),
    (lambda model: model.requires_grad_(False), ["every parameter is frozen, the last layer's too"]),
    (lambda model: model[-1].requires_grad_(False), ["the other way round"]),
    (lambda model: model.layers, ["raised AttributeError", "model[-1] is the last layer"]),
    (42, ["should be a function", "it is an int"]),
])
def test_wrong_freezing(mode, answer, phrases):
    verdict = check.check_freeze(answer)
    assert_rejected(verdict, phrases)


def _standardize(init, forward):
    """A Standardize class with the given __init__ body and forward, for the wrong answers below."""
    class Standardize(nn.Module):
        def __init__(self, mean):
            super().__init__()
            init(self, mean)
    Standardize.forward = forward
    return Standardize


def _buffer(self, mean):
    self.register_buffer("mean", mean)


def _right(self, x):
    return (x - self.mean) * self.gain


def _parameter(self, mean):
    self.gain = nn.Parameter(torch.ones_like(mean))


class _NoSuper(nn.Module):
    def __init__(self, mean):
        self.register_buffer("mean", mean)
        self.gain = nn.Parameter(torch.ones_like(mean))

    def forward(self, x):
        return (x - self.mean) * self.gain


@pytest.mark.parametrize("answer, phrases", [
    (_standardize(lambda self, mean: (setattr(self, "mean", mean), _parameter(self, mean)), _right),
     ["mean is not in buffers(): it is a plain tensor attribute", "register_buffer(name, tensor)"]),
    (_standardize(lambda self, mean: (setattr(self, "mean", nn.Parameter(mean)), _parameter(self, mean)), _right),
     ["mean is a parameter", "is a *buffer*"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), setattr(self, "gain", torch.ones_like(mean).requires_grad_())),
                  _right),
     ["gain is not in parameters(): it is a plain tensor attribute", "requires_grad=True does not register"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), self.register_buffer("gain", torch.ones_like(mean))), _right),
     ["gain is a buffer, not a parameter", "Wrap it in nn.Parameter"]),
    (_NoSuper, ["raised AttributeError: cannot assign buffer before Module.__init__() call",
                "Call super().__init__() first"]),
    (_standardize(lambda self, mean: (self.register_buffer("mean", mean, persistent=False), _parameter(self, mean)),
                  _right),
     ["state_dict() has the keys ['gain']", "persistent=False keeps a buffer out of state_dict()"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), setattr(self, "gain", nn.Parameter(torch.zeros_like(mean)))),
                  _right),
     ["gain does not start at ones"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), setattr(self, "gain", nn.Parameter(torch.ones(1)))), _right),
     ["gain has shape (1,), not the shape of mean, (3,)", "One gain per feature"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), _parameter(self, mean), _buffer(self, mean.clone()),
                                      self.register_buffer("std", torch.ones_like(mean))), _right),
     ["it also registers std"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), _parameter(self, mean)), lambda self, x: x - self.mean),
     ["(when gain is not all ones)", "forward must use self.gain -- the registered Parameter"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), _parameter(self, mean)),
                  lambda self, x: x * self.gain - self.mean),
     ["(when gain is not all ones)", "Subtract the mean first, then scale"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), _parameter(self, mean)),
                  lambda self, x: (x - self.mean) * self.gain.data),
     ["the output does not require grad", "not self.gain.data"]),
    (_standardize(lambda self, mean: (_buffer(self, mean), _parameter(self, mean)),
                  lambda self, x: (x - self.mean) * self.gain.t()[:2]),
     ["forward raised", "broadcasting lines the (n,) tensors up"]),
    ("Standardize", ["should be a class", "it is a str"]),
])
def test_wrong_standardize(mode, answer, phrases):
    verdict = check.check_standardize(answer)
    assert_rejected(verdict, phrases)
