"""Reference solutions of course/10_higher_order_gradients.ipynb's exercises (checks: coursekit/lesson10.py)."""
import tensorlab as torch


# Exercise 1: f''(x) for a scalar x that requires grad -- differentiate the derivative.
def second_derivative(f, x):
    dy, = torch.autograd.grad(f(x), x, create_graph=True)  # dy has a graph of its own
    d2y, = torch.autograd.grad(dy, x)
    return d2y


# Exercise 2: the Jacobian of y = f(x) (x and y vectors), one backward pass per row.
def jacobian_rows(f, x):
    y = f(x)
    rows = [torch.autograd.grad(y[i], x, retain_graph=True)[0] for i in range(y.numel())]
    return torch.stack(rows)


# Exercise 3: the four predictions of the table, in order.
predictions = (False, True, (3, 3), (4, 2, 3))
