"""Lesson 24's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson24 as check
from coursekit.solutions import lesson24 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_per_sample_grad_norms(solution.per_sample_grad_norms)
    assert check.check_pairwise_distances(solution.pairwise_distances)
    assert check.check_vmap_shapes(solution.predictions)
    assert capsys.readouterr().out.count("Correct!") == 3


# -- other correct answers ---------------------------------------------------------------------------

def _norms_with_grad_and_value(model, x, y):
    params = dict(model.named_parameters())

    def loss(params, xi, yi):
        out = torch.func.functional_call(model, params, (xi,))       # a Linear takes one sample as it is
        return ((out - yi) ** 2).mean()

    grads, _ = torch.func.vmap(torch.func.grad_and_value(loss), in_dims=(None, 0, 0))(params, x, y)
    flat = torch.cat([g.reshape(x.shape[0], -1) for g in grads.values()], dim=1)
    return flat.norm(dim=1)


def _norms_by_a_loop(model, x, y):
    norms = []
    for i in range(x.shape[0]):
        model.zero_grad()
        torch.nn.functional.mse_loss(model(x[i:i + 1]), y[i:i + 1]).backward()
        norms.append(torch.cat([p.grad.flatten() for p in model.parameters()]).norm())
    model.zero_grad()
    return torch.stack(norms)


def _distances_other_nesting(a, b):
    def row(u):
        return torch.func.vmap(lambda v: (u - v).pow(2).sum().sqrt())(b)
    return torch.func.vmap(row)(a)


def _distances_by_broadcasting(a, b):
    return ((a.unsqueeze(1) - b.unsqueeze(0)) ** 2).sum(-1).sqrt()


def test_other_correct_answers_are_accepted(mode):
    assert check.check_per_sample_grad_norms(_norms_with_grad_and_value)
    assert check.check_per_sample_grad_norms(_norms_by_a_loop)
    assert check.check_pairwise_distances(_distances_other_nesting)
    assert check.check_pairwise_distances(_distances_by_broadcasting)
    assert check.check_vmap_shapes([[3], [3, 4], torch.Size([2, 2, 3]), (3,)])


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_per_sample_grad_norms(...), check.check_per_sample_grad_norms(lambda m, x, y: ...),
                    check.check_pairwise_distances(...), check.check_pairwise_distances(lambda a, b: ...),
                    check.check_vmap_shapes(...), check.check_vmap_shapes(((3,), ..., (2, 2, 3), (3,)))):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


# -- wrong per-sample gradient norms -------------------------------------------------------------------

def _grads(model, x, y):
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss(params, xi, yi):
        return torch.nn.functional.mse_loss(torch.func.functional_call(model, params, (xi,)), yi)
    return torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(params, x, y)


def _batch_gradient(model, x, y):
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss(params):
        return torch.nn.functional.mse_loss(torch.func.functional_call(model, params, (x,)), y)
    grads = torch.func.grad(loss)(params)
    return torch.cat([g.flatten() for g in grads.values()]).norm()


def _mapped_params(model, x, y):
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss(params, xi, yi):
        return torch.nn.functional.mse_loss(torch.func.functional_call(model, params, (xi,)), yi)
    grads = torch.func.vmap(torch.func.grad(loss))(params, x, y)
    return torch.stack([g.flatten(1).norm(dim=1) for g in grads.values()]).sum(0)


def _squared(model, x, y):
    return sum(g.flatten(1).pow(2).sum(1) for g in _grads(model, x, y).values())


def _sum_of_norms(model, x, y):
    return sum(g.flatten(1).norm(dim=1) for g in _grads(model, x, y).values())


def _first_parameter_only(model, x, y):
    return next(iter(_grads(model, x, y).values())).flatten(1).norm(dim=1)


@pytest.mark.parametrize("answer, phrases", [
    (_batch_gradient, ["has shape ()", "one number for the whole batch", "let vmap map it over the batch"]),
    (_mapped_params, ["raised ValueError", "same size in the mapped dimension", "in_dims None"]),
    (_squared, ["Those are squared norms"]),
    (_sum_of_norms, ["one norm per parameter tensor"]),
    (_first_parameter_only, ["Only the first parameter's gradient"]),
])
def test_wrong_gradient_norms(mode, answer, phrases):
    assert_rejected(check.check_per_sample_grad_norms(answer), phrases)


# -- wrong distances -----------------------------------------------------------------------------------

def _distance(u, v):
    return ((u - v) ** 2).sum().sqrt()


def _swapped_nesting(a, b):
    return torch.func.vmap(torch.func.vmap(_distance, in_dims=(0, None)), in_dims=(None, 0))(a, b)


def _one_vmap(a, b):
    return torch.func.vmap(_distance)(a, b)


def _squared_distances(a, b):
    return solution.pairwise_distances(a, b) ** 2


@pytest.mark.parametrize("answer, phrases", [
    (_swapped_nesting, ["has shape (4, 2), expected (2, 4)", "That is the transpose", "OUTER vmap maps a"]),
    (_one_vmap, ["raised ValueError", "same size in the mapped dimension", "nest two vmaps"]),
    (_squared_distances, ["squared distances"]),
])
def test_wrong_distances(mode, answer, phrases):
    assert_rejected(check.check_pairwise_distances(answer), phrases)


def test_one_vmap_on_equal_sizes_gives_only_the_diagonal(mode):
    verdict = check.check_pairwise_distances(
        lambda a, b: _one_vmap(a, b) if a.shape[0] == b.shape[0] else solution.pairwise_distances(a, b))
    assert_rejected(verdict, ["a of shape (3, 2), b of shape (3, 2)", "Only the pairs (a[i], b[i])"])


# -- wrong predictions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, phrases", [
    (((2,), (3, 4), (2, 2, 3), (3,)), ["1 of 4 predictions is off", "one dot product per column"]),
    (((3,), (4, 3), (2, 3), (3,)), ["2 of 4 predictions are off", "out_dims=1 puts it in dim 1",
                                    "output's shape followed by the input's"]),
    (((3,), (3, 4), (2, 2, 3), (5, 3)), ["f sees one sample"]),
    (((3,), (3, 4)), ["a tuple of 4 predictions"]),
])
def test_wrong_predictions(mode, answer, phrases):
    assert_rejected(check.check_vmap_shapes(answer), phrases)


# -- transforms imported by name, as the lesson's first cell does ---------------------------------------

from tensorlab.func import functional_call, grad, vmap  # noqa: E402 - the names a learner's answer uses


def _norms_with_imported_names(model, x, y):
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss(params, xi, yi):
        return torch.nn.functional.mse_loss(functional_call(model, params, (xi,)), yi)
    grads = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
    return torch.cat([g.flatten(1) for g in grads.values()], dim=1).norm(dim=1)


def _distances_with_imported_names(a, b):
    return vmap(vmap(lambda u, v: (u - v).norm(), in_dims=(None, 0)), in_dims=(0, None))(a, b)


def test_transforms_imported_by_name_run_on_either_library(mode):
    assert check.check_per_sample_grad_norms(_norms_with_imported_names)
    assert check.check_pairwise_distances(_distances_with_imported_names)


def test_pytorchs_own_transforms_imported_by_name_work_too(mode):
    real = pytest.importorskip("torch")
    namespace = {"torch": torch, "vmap": real.func.vmap}
    exec("def pairwise_distances(a, b):\n"
         "    return vmap(vmap(lambda u, v: ((u - v) ** 2).sum().sqrt(), in_dims=(None, 0)), in_dims=(0, None))(a, b)\n",
         namespace)
    assert check.check_pairwise_distances(namespace["pairwise_distances"])
