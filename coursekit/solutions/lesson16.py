"""Reference solutions of course/16_training_loop.ipynb's exercises (checks: coursekit/lesson16.py)."""
import tensorlab as torch
from tensorlab import nn

# Exercise 1: w.grad after two backwards of 3w; w after a step; None after zero_grad; a step on
# w*w (grad 2.8); and a second w*w backward that adds 2 * 1.12 to the 2.8 still there.
predictions = (6.0, 1.4, None, 1.12, 5.04)


# Exercise 2: gradient accumulation -- the gradient of a mean is the mean of the pieces' gradients.
def accumulated_step(model, optimizer, x, y, parts):
    optimizer.zero_grad()                       # once, before the first piece
    total = 0.0
    for part_x, part_y in zip(x.chunk(parts), y.chunk(parts)):
        loss = nn.MSELoss()(model(part_x), part_y) / parts   # each piece's share of the whole batch's mean
        loss.backward()                         # adds into .grad
        total += loss.item()
    optimizer.step()                            # once, with the gradient of the whole batch
    return total


# Exercise 3: the two bugs were the missing zero_grad (gradients accumulate) and the hand-written
# `p += 0.1 * p.grad` after the step, which walks back uphill.
def train_step(model, optimizer, x, y):
    loss = nn.MSELoss()(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
