"""What the training benchmarks share: one optimisation step, and the same starting weights in
PyTorch. (Not a ``bench_*`` module: it has no cases of its own.)"""


def train_on(model, loss_fn, optimizer, x, y):
    """One forward, loss, backward and optimizer step on the batch (x, y); returns the loss (the
    value before the step)."""
    loss = loss_fn(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


def training_step(model, loss_fn, optimizer, x, y):
    """A zero-argument callable: ``train_on`` the fixed batch (x, y)."""
    return lambda: train_on(model, loss_fn, optimizer, x, y)


def copy_weights(ours, theirs, torch):
    """Give the PyTorch model ``theirs`` the parameters of the tensorlab model ``ours`` (in order)."""
    with torch.no_grad():
        for p_ours, p_theirs in zip(ours.parameters(), theirs.parameters()):
            p_theirs.copy_(torch.from_numpy(p_ours.detach().cpu().numpy().copy()))
