"""Lesson 17's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson17 as check
from coursekit.solutions import lesson17 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_state_predictions(solution.predictions)
    assert check.check_adam_first_step(solution.adam_first_step)
    assert check.check_momentum_step(solution.momentum_step)
    assert capsys.readouterr().out.count("Correct!") == 3


def _adam_itself(p, grad, lr):
    p = p.clone().requires_grad_()
    optimizer = torch.optim.Adam([p], lr=lr)
    p.grad = grad.clone()
    optimizer.step()
    return p.detach()


def _adam_formula(p, grad, lr):
    m = 0.1 * grad / (1 - 0.9)
    v = 0.001 * grad * grad / (1 - 0.999)
    return p - lr * m / (v.sqrt() + 1e-8)


def test_other_correct_answers_are_accepted(mode):
    assert check.check_state_predictions([0, ("momentum_buffer",), ["exp_avg", "exp_avg_sq", "step"], 3.0,
                                          0.010000000000000002])
    assert check.check_adam_first_step(_adam_itself)
    assert check.check_adam_first_step(_adam_formula)


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_state_predictions(...), check.check_adam_first_step(lambda p, grad, lr: ...),
                    check.check_adam_first_step(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    ((1, "momentum_buffer", ["exp_avg", "exp_avg_sq", "step"], 3, 0.001),
     ["4 of 5", "nothing to remember", "sorted list of strings", "float32 tensor", "how many such boundaries do 4 steps pass?"]),
    ((0, ["momentum_buffer"], ["exp_avg", "step"], 3.0, 0.1), ["2 of 5", "two running averages",
                                                               "the lr has changed"]),
    ((0, ["momentum_buffer"]), ["the answer should be a tuple of 5 predictions"]),
])
def test_wrong_state_predictions(mode, answer, phrases):
    verdict = check.check_state_predictions(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda p, g, lr: p - lr * g, ["differs", "That is SGD's step"]),
    (lambda p, g, lr: p - lr * torch.sign(g), ["1e-08", "eps=1e-8 is added"]),
    (lambda p, g, lr: p - lr * (0.1 * g) / ((0.001 * g * g).sqrt() + 1e-8), ["Without the bias corrections"]),
    (lambda p, g, lr: p + lr * g / (g.abs() + 1e-8), ["*against* the gradient"]),
    (lambda p, g, lr: p - lr * g / (g * g + 1e-8), ["*root* of v_hat"]),
    (lambda p, g, lr: None, ["returned None"]),
])
def test_wrong_adam_first_steps(mode, answer, phrases):
    verdict = check.check_adam_first_step(answer)
    assert_rejected(verdict, phrases)


# -- exercise 3: SGD with momentum and weight decay ----------------------------------------------------------

@pytest.mark.parametrize("momentum, weight_decay", [(0.9, 0.0), (0.5, 0.1)])
def test_the_momentum_solution_is_what_sgd_does(mode, momentum, weight_decay):
    """Three steps of the reference against optim.SGD itself, on every library."""
    from coursekit.libs import libraries, on
    for _, library in libraries():
        p = library.tensor([1.0, -2.0, 0.5], requires_grad=True)
        optimizer = library.optim.SGD([p], lr=0.1, momentum=momentum, weight_decay=weight_decay)
        mine, buf = p.detach().clone(), None
        for step in range(3):
            optimizer.zero_grad()
            (p ** 2 * library.tensor([1.0, 3.0, -1.0])).sum().backward()
            mine, buf = on(library, solution.momentum_step)(mine, p.grad.clone(), buf, 0.1, momentum, weight_decay)
            optimizer.step()
            assert library.allclose(p.detach(), mine) and library.allclose(optimizer.state[p]["momentum_buffer"], buf)


def _momentum_with_torch_itself(p, grad, buf, lr, momentum, weight_decay):
    p = p.clone().requires_grad_()
    optimizer = torch.optim.SGD([p], lr=lr, momentum=momentum, weight_decay=weight_decay)
    if buf is not None:
        optimizer.state[p]["momentum_buffer"] = buf.clone()
    p.grad = grad.clone()
    optimizer.step()
    return p.detach(), optimizer.state[p]["momentum_buffer"]


def _ema(p, grad, buf, lr, momentum, weight_decay):
    d_p = grad + weight_decay * p
    buf = (1 - momentum) * d_p if buf is None else momentum * buf + (1 - momentum) * d_p
    return p - lr * buf, buf


def _first_times_momentum(p, grad, buf, lr, momentum, weight_decay):
    d_p = grad + weight_decay * p
    buf = momentum * d_p if buf is None else momentum * buf + d_p
    return p - lr * buf, buf


def _decay_after(p, grad, buf, lr, momentum, weight_decay):
    buf = grad.clone() if buf is None else momentum * buf + grad
    return p - lr * (buf + weight_decay * p), buf


def _step_with_grad(p, grad, buf, lr, momentum, weight_decay):
    d_p = grad + weight_decay * p
    buf = d_p.clone() if buf is None else momentum * buf + d_p
    return p - lr * d_p, buf


def _old_buffer(p, grad, buf, lr, momentum, weight_decay):
    d_p = grad + weight_decay * p
    new = d_p.clone() if buf is None else momentum * buf + d_p
    return p - lr * (new if buf is None else buf), new


def _uphill(p, grad, buf, lr, momentum, weight_decay):
    d_p = grad + weight_decay * p
    buf = d_p.clone() if buf is None else momentum * buf + d_p
    return p + lr * buf, buf


def _no_first_step(p, grad, buf, lr, momentum, weight_decay):
    buf = momentum * buf + grad + weight_decay * p
    return p - lr * buf, buf


def _only_p(p, grad, buf, lr, momentum, weight_decay):
    return solution.momentum_step(p, grad, buf, lr, momentum, weight_decay)[0]


def _in_place(p, grad, buf, lr, momentum, weight_decay):
    d_p = grad + weight_decay * p
    if buf is None:
        buf = d_p.clone()
    else:
        buf.mul_(momentum).add_(d_p)          # the bug under test: changes the caller's buffer
    return p - lr * buf, buf


def test_another_correct_momentum_step_is_accepted(mode):
    assert check.check_momentum_step(_momentum_with_torch_itself)


@pytest.mark.parametrize("answer, phrases", [
    (_ema, ["the first step", "adds the whole gradient", "Adam's averages"]),
    (_first_times_momentum, ["the buffer is the gradient itself"]),
    (_decay_after, ["weight_decay=0.1", "Weight decay comes first"]),
    (_step_with_grad, ["a later step", "Step with the buffer"]),
    (_old_buffer, ["a later step", "the *new* buffer"]),
    (_uphill, ["*against* the buffer"]),
    (_no_first_step, ["raised TypeError", "buf is None"]),
    (_only_p, ["Return both"]),
    (_in_place, ["changed its input in place", "`buf`"]),
])
def test_wrong_momentum_steps(mode, answer, phrases):
    assert_rejected(check.check_momentum_step(answer), phrases)
