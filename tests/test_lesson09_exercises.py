"""Lesson 09's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson09 as check
from coursekit.solutions import lesson09 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_sigmoid(solution.Sigmoid)
    assert check.check_hypot(solution.Hypot)
    assert check.check_function_facts(solution.predictions)
    assert capsys.readouterr().out.count("Correct!") == 3


def test_function_on_recreates_a_class_for_the_library():
    line = check.function_on(torch, solution.line)
    assert line.__name__ == "line" and issubclass(line, torch.autograd.Function)
    out = line.apply(torch.tensor([2.], requires_grad=True), torch.tensor([3.]), torch.tensor([1.]))
    assert out.grad_fn.name() == "lineBackward" and out.item() == 7.0


# -- other correct answers ---------------------------------------------------------------------------

class SigmoidFromInput(torch.autograd.Function):  # saves x and recomputes y in backward
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        y = torch.sigmoid(x)
        return grad * y * (1 - y)


class SigmoidOnCtx(torch.autograd.Function):  # needs_input_grad, and a one-tuple
    @staticmethod
    def forward(ctx, x):
        y = (-x).exp().add(1).reciprocal()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        if not ctx.needs_input_grad[0]:
            return (None,)
        y, = ctx.saved_tensors
        return (grad * (y - y * y),)


class HypotFromOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        r = torch.sqrt(x ** 2 + y ** 2)
        ctx.save_for_backward(x, y, r)
        return r

    @staticmethod
    def backward(ctx, grad):
        x, y, r = ctx.saved_tensors
        scale = grad / r
        return scale * x, scale * y


def test_other_correct_answers_are_accepted(mode):
    assert check.check_sigmoid(SigmoidFromInput)
    assert check.check_sigmoid(SigmoidOnCtx)
    assert check.check_hypot(HypotFromOutput)
    assert check.check_function_facts(["lineBackward", [True, False, False], 2, False])


# -- stubs -------------------------------------------------------------------------------------------

class StubSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return ...  # your code here

    @staticmethod
    def backward(ctx, grad):
        return ...  # your code here


class HalfStubSigmoid(StubSigmoid):
    @staticmethod
    def forward(ctx, x):
        y = torch.sigmoid(x)
        ctx.save_for_backward(y)
        return y


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_sigmoid(StubSigmoid), check.check_sigmoid(HalfStubSigmoid),
                    check.check_sigmoid(...), check.check_hypot(...), check.check_function_facts(...),
                    check.check_function_facts(("lineBackward", ..., 2, False))):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


# -- wrong sigmoids ----------------------------------------------------------------------------------

def _sigmoid(backward, save="y"):
    """A Sigmoid Function whose backward(grad, saved) is given; forward saves y (or x)."""
    class Sigmoid(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = 1 / (1 + torch.exp(-x))
            ctx.save_for_backward(y if save == "y" else x)
            return y

        @staticmethod
        def backward(ctx, grad):
            saved, = ctx.saved_tensors
            return backward(grad, saved)
    return Sigmoid


class WrongForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = 1 / (1 + torch.exp(x))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * y * (1 - y)


class ForgotToSave(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * y * (1 - y)


class TwoGradients(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.sigmoid(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * y * (1 - y), grad


@pytest.mark.parametrize("answer, phrases", [
    (_sigmoid(lambda g, y: y * (1 - y)), ["x.grad differs at", "Multiply by grad", "the chain rule"]),
    (_sigmoid(lambda g, x: g * x * (1 - x), save="x"), ["x.grad differs", "with x where y belongs"]),
    (_sigmoid(lambda g, y: g * y), ["x.grad differs", "y alone is the rule for exp"]),
    (_sigmoid(lambda g, y: -g * y * (1 - y)), ["Mind the sign"]),
    (WrongForward, ["the result of forward differs", "the same formula"]),
    (ForgotToSave, ["backward raised ValueError", "unpack as many as you saved"]),
    (TwoGradients, ["incorrect number of gradients (expected 1, got 2)", "one gradient per input of forward"]),
    (lambda x: torch.sigmoid(x), ["`Sigmoid` should be a subclass of torch.autograd.Function", "two @staticmethods"]),
])
def test_wrong_sigmoids(mode, answer, phrases):
    verdict = check.check_sigmoid(answer)
    assert_rejected(verdict, phrases)


# -- wrong Hypot repairs --------------------------------------------------------------------------------

def _hypot(backward):
    class Hypot(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            r = (x * x + y * y).sqrt()
            ctx.save_for_backward(x, y, r)
            return r

        @staticmethod
        def backward(ctx, grad):
            x, y, r = ctx.saved_tensors
            return backward(grad, x, y, r)
    return Hypot


@pytest.mark.parametrize("answer, phrases", [
    # the lesson's buggy class, unchanged
    (_hypot(lambda g, x, y, r: (g * x / r, g * y / (2 * r))), ["y.grad differs", "Still half the right size"]),
    # "fixed" the wrong input
    (_hypot(lambda g, x, y, r: (g * x / (2 * r), g * y / (2 * r))), ["x.grad differs", "Still half"]),
    (_hypot(lambda g, x, y, r: (x / r, y / r)), ["x.grad differs", "Multiply by grad"]),
    (_hypot(lambda g, x, y, r: (g * x / r, g * x / r)), ["y.grad differs", "the other input's formula"]),
    (_hypot(lambda g, x, y, r: (g * x / r,)), ["incorrect number of gradients (expected 2, got 1)", "(x, y)"]),
])
def test_wrong_hypots(mode, answer, phrases):
    verdict = check.check_hypot(answer)
    assert_rejected(verdict, phrases)


# -- wrong predictions ----------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, phrases", [
    (("lineBackward0", (True, False, False), 2, False), ["(1)", "No number for a custom Function"]),
    (("LineBackward", (True, False, False), 2, False), ["Letter case counts"]),
    (("lineBackward", (True, True, False), 3, False), ["2 of 4 predictions are off", "One bool per argument",
                                                        "one edge per *tensor* argument"]),
    (("lineBackward", (True, False, False), 1, True), ["(3)", "(4)", "apply records nothing"]),
    (("lineBackward", (True, False, False)), ["a tuple of 4 predictions"]),
])
def test_wrong_predictions(mode, answer, phrases):
    verdict = check.check_function_facts(answer)
    assert_rejected(verdict, phrases)
