"""Lesson 10's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson10 as check
from coursekit.solutions import lesson10 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_second_derivative(solution.second_derivative)
    assert check.check_jacobian_rows(solution.jacobian_rows)
    assert check.check_shapes_and_graphs(solution.predictions)
    assert capsys.readouterr().out.count("Correct!") == 3


def _second_via_backward(f, x):
    y = f(x)
    dy, = torch.autograd.grad(y, x, create_graph=True)
    dy.backward()
    return x.grad


def _jacobian_one_hot(f, x):
    y = f(x)
    rows = []
    for i in range(y.numel()):
        e = torch.zeros_like(y)
        e[i] = 1
        rows.append(torch.autograd.grad(y, x, grad_outputs=e, retain_graph=True)[0])
    return torch.stack(rows)


def _jacobian_functional(f, x):
    return torch.autograd.functional.jacobian(f, x)


def test_other_correct_answers_are_accepted(mode):
    assert check.check_second_derivative(_second_via_backward)
    assert check.check_second_derivative(
        lambda f, x: torch.autograd.grad(torch.autograd.grad(f(x), x, create_graph=True)[0], x,
                                         create_graph=True)[0])
    assert check.check_jacobian_rows(_jacobian_one_hot)
    assert check.check_jacobian_rows(_jacobian_functional)
    assert check.check_shapes_and_graphs((False, True, [3, 3], torch.Size([4, 2, 3])))


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_second_derivative(lambda f, x: ...), check.check_second_derivative(...),
                    check.check_jacobian_rows(lambda f, x: ...), check.check_shapes_and_graphs(...),
                    check.check_shapes_and_graphs((False, ..., (3, 3), (4, 2, 3)))):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


def _no_create_graph(f, x):
    dy, = torch.autograd.grad(f(x), x)
    return torch.autograd.grad(dy, x)[0]


def _first_only(f, x):
    return torch.autograd.grad(f(x), x)[0]


def _backward_twice(f, x):
    f(x).backward(create_graph=True)
    x.grad.backward()
    return x.grad


def _as_number(f, x):
    return solution.second_derivative(f, x).item()


@pytest.mark.parametrize("answer, phrases", [
    (_no_create_graph, ["raised RuntimeError: element 0 of tensors does not require grad",
                        "compute it with create_graph=True"]),
    (_first_only, ["f(x) = x ** 3 at x = 3", "27.0 instead of 18.0", "That is f'(x)"]),
    (_backward_twice, ["45.0 instead of 18.0", "That is f'(x) + f''(x)", "x.grad accumulates"]),
    (_as_number, ["is a float (18.0), expected a tensor", "not .item()"]),
])
def test_wrong_second_derivatives(mode, answer, phrases):
    verdict = check.check_second_derivative(answer)
    assert_rejected(verdict, phrases)


def _no_retain(f, x):
    y = f(x)
    return torch.stack([torch.autograd.grad(y[i], x)[0] for i in range(y.numel())])


def _transposed(f, x):
    y = f(x)
    return torch.stack([torch.autograd.grad(y[i], x, retain_graph=True)[0] for i in range(y.numel())], dim=1)


def _summed(f, x):
    return torch.autograd.grad(f(x).sum(), x)[0]


def _whole_output(f, x):
    y = f(x)
    y.backward()
    return x.grad


@pytest.mark.parametrize("answer, phrases", [
    (_no_retain, ["raised RuntimeError: Trying to backward through the graph a second time", "retain_graph=True"]),
    (_transposed, ["has shape (3, 2), expected (2, 3)", "That is the transpose"]),
    (_summed, ["has shape (3,), expected (2, 3)", "the gradient of y.sum()"]),
    (_whole_output, ["grad can be implicitly created only for scalar outputs", "one output element at a time"]),
])
def test_wrong_jacobians(mode, answer, phrases):
    verdict = check.check_jacobian_rows(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    ((True, True, (3, 3), (4, 2, 3)), ["1 of 4 predictions is off", "no-grad mode"]),
    ((False, True, (3,), (4, 6)), ["2 of 4 predictions are off", "one entry per pair (i, j)", "nothing flattened"]),
    ((False, True, (3, 3), (2, 3, 4)), ["output's shape followed by the input's"]),
    ((False, True), ["a tuple of 4 predictions"]),
])
def test_wrong_predictions(mode, answer, phrases):
    verdict = check.check_shapes_and_graphs(answer)
    assert_rejected(verdict, phrases)
