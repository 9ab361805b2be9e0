"""Lesson 23's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
import tensorlab.autograd.forward_ad as fwAD
from coursekit import lesson23 as check
from coursekit.solutions import lesson23 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_softplus(solution.Softplus)
    assert check.check_jacobian_columns(solution.jacobian_columns)
    assert check.check_mode_facts(solution.predictions)
    assert capsys.readouterr().out.count("Correct!") == 3


# -- other correct answers ---------------------------------------------------------------------------

class SoftplusOnCtx(torch.autograd.Function):     # keeps x as an attribute of ctx, for both methods
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return torch.nn.functional.softplus(x)

    @staticmethod
    def backward(ctx, grad):
        return grad / (1 + torch.exp(-ctx.x))

    @staticmethod
    def jvp(ctx, t):
        return t * torch.sigmoid(ctx.x)


class SoftplusFromOutput(torch.autograd.Function):  # sigmoid(x) = 1 - exp(-y)
    @staticmethod
    def forward(ctx, x):
        y = torch.log(1 + torch.exp(x))
        ctx.save_for_backward(y)
        ctx.save_for_forward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        y, = ctx.saved_tensors
        return grad * (1 - torch.exp(-y))

    @staticmethod
    def jvp(ctx, t):
        y, = ctx.saved_tensors
        return t * (1 - torch.exp(-y))


def _columns_one_level_each(f, x):
    columns = []
    for j in range(x.numel()):
        with fwAD.dual_level():
            tangent = torch.zeros(x.numel())
            tangent[j] = 1
            columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, tangent))).tangent)
    return torch.stack(columns).t()


def _columns_from_eye(f, x):
    eye = torch.eye(x.numel())
    with fwAD.dual_level():
        return torch.stack([fwAD.unpack_dual(f(fwAD.make_dual(x, e))).tangent for e in eye], dim=-1)


def test_other_correct_answers_are_accepted(mode):
    assert check.check_softplus(SoftplusOnCtx)
    assert check.check_softplus(SoftplusFromOutput)
    assert check.check_jacobian_columns(_columns_one_level_each)
    assert check.check_jacobian_columns(_columns_from_eye)
    assert check.check_mode_facts([None, 100, 2, 24.0])


# -- stubs -------------------------------------------------------------------------------------------

class StubSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return ...  # your code here

    @staticmethod
    def backward(ctx, grad):
        return ...  # your code here

    @staticmethod
    def jvp(ctx, x_tangent):
        return ...  # your code here


class JvpStubSoftplus(SoftplusOnCtx):
    @staticmethod
    def jvp(ctx, x_tangent):
        return ...  # your code here


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_softplus(StubSoftplus), check.check_softplus(JvpStubSoftplus),
                    check.check_softplus(...), check.check_jacobian_columns(...),
                    check.check_jacobian_columns(lambda f, x: ...), check.check_mode_facts(...),
                    check.check_mode_facts((None, ..., 2, 24.0))):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


# -- wrong softplus Functions --------------------------------------------------------------------------

def _softplus(jvp=None, backward=None, save_for_forward=True):
    """A Softplus whose jvp(t, x) and backward(grad, x) are given (the solution's where None)."""
    class Softplus(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            if save_for_forward:
                ctx.save_for_forward(x)
            return torch.log1p(torch.exp(x))

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return (backward or (lambda g, x: g * torch.sigmoid(x)))(grad, x)

    if jvp is not None:
        def jvp_method(ctx, t):
            x, = ctx.saved_tensors
            return jvp(t, x)
        Softplus.jvp = staticmethod(jvp_method)
    return Softplus


@pytest.mark.parametrize("answer, phrases", [
    (_softplus(), ["raised NotImplementedError: You must implement the jvp function", "Add a third @staticmethod"]),
    (_softplus(jvp=lambda t, x: t * torch.sigmoid(x), save_for_forward=False),
     ["raised ValueError", "ctx.save_for_forward"]),
    (_softplus(jvp=lambda t, x: torch.sigmoid(x)), ["the output's tangent", "Multiply by the tangent"]),
    (_softplus(jvp=lambda t, x: t * torch.exp(x)), ["the output's tangent", "exp(x) is the derivative of exp"]),
    (_softplus(jvp=lambda t, x: t * torch.sigmoid(-x)), ["Mind the sign"]),
    (_softplus(jvp=lambda t, x: t), ["the input's tangent unchanged"]),
    (_softplus(jvp=lambda t, x: (t * torch.sigmoid(x)).sum()), ["different size", "nothing summed"]),
    (_softplus(jvp=lambda t, x: t * torch.sigmoid(x), backward=lambda g, x: torch.sigmoid(x)),
     ["x.grad", "Multiply by grad"]),
])
def test_wrong_softplus(mode, answer, phrases):
    assert_rejected(check.check_softplus(answer), phrases)


def test_a_softplus_that_is_not_a_function_class_is_refused(mode):
    assert_rejected(check.check_softplus(lambda x: x), ["should be a subclass of torch.autograd.Function"])


# -- wrong Jacobians -----------------------------------------------------------------------------------

def _transposed(f, x):
    return solution.jacobian_columns(f, x).t()


def _ones_tangent(f, x):
    with fwAD.dual_level():
        column = fwAD.unpack_dual(f(fwAD.make_dual(x, torch.ones_like(x)))).tangent
    return torch.stack([column] * x.numel(), dim=1)


def _primals(f, x):
    columns = []
    with fwAD.dual_level():
        for j in range(x.numel()):
            e = torch.zeros_like(x)
            e[j] = 1
            columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, e))).primal)
    return torch.stack(columns, dim=1)


def _no_level(f, x):
    e = torch.zeros_like(x)
    e[0] = 1
    return fwAD.unpack_dual(f(fwAD.make_dual(x, e))).tangent


def _read_after_the_level(f, x):
    outputs = []
    with fwAD.dual_level():
        for j in range(x.numel()):
            e = torch.zeros_like(x)
            e[j] = 1
            outputs.append(f(fwAD.make_dual(x, e)))
    return torch.stack([fwAD.unpack_dual(y).tangent for y in outputs], dim=1)


def _reverse_mode(f, x):
    return torch.autograd.functional.jacobian(f, x)


@pytest.mark.parametrize("answer, phrases", [
    (_transposed, ["has shape (3, 2), expected (2, 3)", "That is the transpose"]),
    (_ones_tangent, ["J times a vector of ones"]),
    (_primals, ["Those columns are f(x)", "the column is the tangent"]),
    (_no_level, ["raised RuntimeError", "no level exists", "open the level first"]),
    (_read_after_the_level, ["raised TypeError", "leaving the dual level forgets every tangent"]),
    (_reverse_mode, ["Cube has no backward", "only be differentiated in forward mode"]),
])
def test_wrong_jacobians(mode, answer, phrases):
    assert_rejected(check.check_jacobian_columns(answer), phrases)


# -- wrong predictions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, phrases", [
    ((0.0, 100, 2, 24.0), ["1 of 4 predictions is off", "what is left of them once it ends"]),
    ((None, 2, 100, 24.0), ["2 of 4 predictions are off", "That counts the outputs", "That is forward mode's price"]),
    ((None, 100, 2, 12.0), ["doubled, then summed"]),
    ((None, 100), ["a tuple of 4 predictions"]),
])
def test_wrong_predictions(mode, answer, phrases):
    assert_rejected(check.check_mode_facts(answer), phrases)
