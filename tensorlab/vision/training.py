"""The training loop, written once: ``train_epoch``, ``evaluate`` and ``fit``, with progress bars.

Every lesson that trains a model runs the same five lines per batch -- forward, loss,
``zero_grad``, ``backward``, ``step`` -- which is all ``train_epoch`` does; read it once, then let
``fit`` run it for several epochs while a progress bar shows the loss and the test accuracy.
Pass a ``SummaryWriter`` to also log the curves for TensorBoard. See course/20_watching_training.
"""
from ..utils.progress import progress


def _bar(iterable, enabled, **kwargs):
    # disable=None lets tqdm decide: shown in JupyterLab and terminals, hidden when output is a file
    return progress(iterable, disable=None if enabled else True, **kwargs)


def train_epoch(model, loader, loss_fn, optimizer, *, progress_bar=True, desc="train", writer=None,
                global_step=0):
    """One pass over ``loader``; returns the mean training loss (each example counted once).

    With a ``writer``, the loss of every batch is logged as ``loss/train`` at steps ``global_step``,
    ``global_step + 1``, ...
    """
    model.train()
    total, count = 0.0, 0
    bar = _bar(loader, progress_bar, desc=desc, leave=False)
    for step, (inputs, targets) in enumerate(bar, start=global_step):
        loss = loss_fn(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        value = loss.item()
        total, count = total + value * len(targets), count + len(targets)
        bar.set_postfix(loss=f"{value:.4f}", refresh=False)
        if writer is not None:
            writer.add_scalar("loss/train", value, step)
    bar.close()
    return total / max(count, 1)


def evaluate(model, loader, loss_fn=None, *, progress_bar=False, desc="eval"):
    """``{"accuracy": fraction of correct argmax predictions, "loss": mean loss or None}``, without grad."""
    from ..autograd import no_grad
    model.eval()
    correct, total_loss, count = 0, 0.0, 0
    with no_grad():
        for inputs, targets in _bar(loader, progress_bar, desc=desc, leave=False):
            outputs = model(inputs)
            correct += (outputs.argmax(dim=1) == targets).sum().item()
            if loss_fn is not None:
                total_loss += loss_fn(outputs, targets).item() * len(targets)
            count += len(targets)
    if count == 0:
        raise ValueError("evaluate: the loader gave no examples")
    return {"accuracy": correct / count, "loss": total_loss / count if loss_fn is not None else None}


def fit(model, train_loader, loss_fn, optimizer, epochs=1, *, test_loader=None, scheduler=None, writer=None,
        progress_bar=True):
    """Train for ``epochs``; returns the history ``{"train_loss": [...], "test_accuracy": [...], "test_loss": [...]}``.

    After each epoch: ``scheduler.step()`` if given, evaluation on ``test_loader`` if given, and (with
    a ``writer``) ``loss/test`` and ``accuracy/test`` logged at the epoch's last step.
    """
    history = {"train_loss": [], "test_accuracy": [], "test_loss": []}
    step = 0
    epochs_bar = _bar(range(epochs), progress_bar, desc="epochs", unit="epoch")
    for epoch in epochs_bar:
        history["train_loss"].append(train_epoch(model, train_loader, loss_fn, optimizer, progress_bar=progress_bar,
                                                 desc=f"epoch {epoch + 1}", writer=writer, global_step=step))
        step += len(train_loader)
        if scheduler is not None:
            scheduler.step()
        postfix = {"train_loss": f"{history['train_loss'][-1]:.4f}"}
        if test_loader is not None:
            result = evaluate(model, test_loader, loss_fn)
            history["test_accuracy"].append(result["accuracy"])
            history["test_loss"].append(result["loss"])
            postfix["test_acc"] = f"{result['accuracy']:.3f}"
            if writer is not None:
                writer.add_scalar("loss/test", result["loss"], step - 1)
                writer.add_scalar("accuracy/test", result["accuracy"], step - 1)
        epochs_bar.set_postfix(postfix)
    epochs_bar.close()
    return history
