"""Reference solutions of course/17_optimizers_and_schedules.ipynb's exercises (checks: coursekit/lesson17.py)."""

# Exercise 1: plain SGD keeps no state; momentum one buffer; Adam three entries; Adam counts its
# steps in a float tensor; StepLR(2, 0.1) after 4 epochs: 1.0 -> 0.1 -> 0.01.
predictions = (0, ["momentum_buffer"], ["exp_avg", "exp_avg_sq", "step"], 3.0, 0.01)


# Exercise 2: at step 1, m_hat = g and v_hat = g * g (the bias corrections undo the (1 - beta)
# factors), so the step is lr * g / (|g| + eps): about lr * sign(g), less where |g| is near eps.
def adam_first_step(p, grad, lr):
    eps = 1e-8
    return p - lr * grad / (grad.abs() + eps)


# Exercise 3: PyTorch's SGD -- weight decay added to the gradient, then the momentum buffer (started
# as the gradient itself, dampening 0), then the step with the new buffer.
def momentum_step(p, grad, buf, lr, momentum, weight_decay):
    d_p = grad + weight_decay * p
    buf = d_p.clone() if buf is None else momentum * buf + d_p
    return p - lr * buf, buf
