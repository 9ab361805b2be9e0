"""Reference solutions of course/16_training_loop.ipynb's exercises (checks: coursekit/lesson16.py)."""
import tensorlab as torch
from tensorlab import nn

# Exercise 1: w.grad after two backwards of 3w; w after a step; None after zero_grad; a step on
# w*w (grad 2.8); and a second w*w backward that adds 2 * 1.12 to the 2.8 still there.
predictions = (6.0, 1.4, None, 1.12, 5.04)


# Exercise 2: what SGD's step and zero_grad do, by hand.
def sgd_step(params, lr):
    with torch.no_grad():          # the update is not part of any model's graph
        for p in params:
            p -= lr * p.grad       # in place: the model holds this very tensor
            p.grad = None          # what optimizer.zero_grad() does by default


# Exercise 3: the two bugs were the missing zero_grad (gradients accumulate) and the hand-written
# `p += 0.1 * p.grad` after the step, which walks back uphill.
def train_step(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
