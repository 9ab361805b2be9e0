"""Reference solutions of course/24_function_transforms.ipynb's exercises (checks: coursekit/lesson24.py).

The transforms are spelled ``torch.func.vmap`` here; a learner's answer may import them by name too
(the checks make either spelling run on both libraries)."""
import tensorlab as torch


# Exercise 1: the norm of each sample's gradient (all parameters together), for the loss
# mse_loss(model(x_i), y_i) of one sample: vmap over the samples of grad over the parameters.
def per_sample_grad_norms(model, x, y):
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss(params, xi, yi):                  # one sample
        out = torch.func.functional_call(model, params, (xi.unsqueeze(0),))
        return torch.nn.functional.mse_loss(out, yi.unsqueeze(0))

    grads = torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(params, x, y)  # (N, *shape) each
    squares = [g.flatten(1).pow(2).sum(1) for g in grads.values()]  # (N,) per parameter
    return torch.stack(squares).sum(0).sqrt()


# Exercise 2: all pairwise distances, written for one pair and batched twice with in_dims.
def pairwise_distances(a, b):
    def distance(u, v):                        # one pair of vectors
        return ((u - v) ** 2).sum().sqrt()

    one_row = torch.func.vmap(distance, in_dims=(None, 0))    # u against every row of b
    return torch.func.vmap(one_row, in_dims=(0, None))(a, b)  # every row of a


# Exercise 3: the four predictions of the table, in order.
predictions = ((3,), (3, 4), (2, 2, 3), (3,))
