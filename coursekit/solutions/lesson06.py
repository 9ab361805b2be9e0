"""Reference solutions of course/06_autograd_basics.ipynb's exercises (checks: coursekit/lesson06.py)."""
import tensorlab as torch

# Exercise 1: requires_grad / is_leaf / .grad, one prediction per line of the table.
predictions = (False, True, False, False, True, True, False, True)


# Exercise 2: the gradient of each batch on its own (the buggy version forgot to reset w.grad).
def batch_gradients(w, batches):
    grads = []
    for x in batches:
        w.grad = None                  # forget the previous batch (what optimizer.zero_grad() does)
        loss = ((w * x).sum() - 1) ** 2
        loss.backward()
        grads.append(w.grad)           # a fresh tensor each time, because .grad was None
    return grads


# Exercise 3: v . dy/dx for a non-scalar y, leaving x.grad alone.
def weighted_gradient(x, v):
    y = x.exp() * x
    (grad,) = torch.autograd.grad(y, x, grad_outputs=v)
    return grad
