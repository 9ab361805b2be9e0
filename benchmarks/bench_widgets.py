"""Widgets: what drawing costs, next to the training it watches.

* TrainingMonitor: one ``update`` (recording; no redraw due), one live redraw (matplotlib PNG of
  three panels), the summary SVG drawn on ``close()``, and a LeNet5-on-Digits epoch run by ``fit``
  with and without a monitor (live view built, real clock) as its writer. The monitor throttles
  itself (a redraw at most every second, and never more than 2% of the time): the two epoch cases
  should differ by less than the noise.
* ModuleExplorer: the static HTML of LeNet5, and one checkbox click in the live view (the model
  changes, then the whole view is redrawn from it).
* GraphExplorer: recording a large training step (forward + backward of a 121-layer MLP, ~430
  nodes), and one replay step redrawn in the live view, for the neighbourhood view and the whole
  graph (the widget's targets: < 1 s to build, < 100 ms a step).

Only tensorlab implementations: neither PyTorch nor NumPy has these widgets. The share of an epoch
spent plotting is printed by ``python -m benchmarks.bench_widgets``, which trains 2 x 30 epochs
alternately with and without the monitor and reports the monitor's own account of its drawing time.
"""
import math
import time

import tensorlab
from tensorlab import nn, optim
from tensorlab.utils.data import DataLoader
from tensorlab.vision import datasets, models, training
from tensorlab.vision import transforms as T
from widgets import GraphExplorer, ModuleExplorer, TrainingMonitor

BATCH = 32
_normalize = T.Normalize(datasets.Digits.mean, datasets.Digits.std)


def _lenet_run(monitor=None):
    """One epoch of LeNet5 on the Digits through ``fit`` (``monitor`` as its writer, if any)."""
    tensorlab.manual_seed(0)
    model = models.LeNet5(input_size=8)
    optimizer = optim.Adam(model.parameters(), lr=3e-3)
    loader = DataLoader(datasets.Digits(train=True, transform=_normalize), batch_size=BATCH, shuffle=True)
    loss_fn = nn.CrossEntropyLoss()

    def run():
        training.fit(model, loader, loss_fn, optimizer, epochs=1, writer=monitor, progress_bar=False)
    return run, len(loader)


def _filled_monitor(steps=450):
    """A monitor with a live view and ``steps`` steps of loss, test accuracy and learning rate."""
    monitor = TrainingMonitor(total=steps, lr=True, redraw_every=math.inf)
    monitor.widget
    for step in range(steps):
        monitor.update(step, **{"loss/train": math.exp(-step / 100), "lr": 3e-3 * 0.99 ** step})
        if step % 45 == 44:
            monitor.update(step, **{"accuracy/test": 1 - math.exp(-step / 80), "loss/test": math.exp(-step / 90)})
    return monitor


def _monitor_cases():
    monitor = _filled_monitor()
    step = iter(range(10**9))
    quiet = TrainingMonitor(total=10**9, redraw_every=math.inf)
    quiet.widget

    plain_epoch, _ = _lenet_run()
    watched = TrainingMonitor(total=None)
    watched.widget
    watched_epoch, _ = _lenet_run(watched)
    return [
        ("TrainingMonitor.update (live view, no redraw due)",
         {"tensorlab": lambda: quiet.update(next(step), loss=0.5, accuracy=0.9)}),
        ("TrainingMonitor live redraw (matplotlib PNG, 3 panels, 450 steps)",
         {"tensorlab": monitor._view.show_live}),
        ("TrainingMonitor summary SVG (close(), 450 steps)", {"tensorlab": monitor.to_svg}),
        ("LeNet5 Digits epoch via fit, no monitor", {"tensorlab": plain_epoch}),
        ("LeNet5 Digits epoch via fit, TrainingMonitor as writer (live view)", {"tensorlab": watched_epoch}),
    ]


def _module_cases():
    tensorlab.manual_seed(0)
    model = models.LeNet5(input_size=8)
    explorer = ModuleExplorer(model)
    box = explorer.widget.param_boxes["features.0.weight"]

    def click():
        box.value = not box.value
    return [("ModuleExplorer LeNet5 to_html", {"tensorlab": explorer.to_html}),
            ("ModuleExplorer LeNet5 checkbox click (freeze + redraw the view)", {"tensorlab": click})]


def _deep_mlp_step(explorer_max_nodes=60):
    """Record one training step of a 121-layer MLP (about 430 graph nodes, 1,350 engine events)."""
    tensorlab.manual_seed(0)
    layers = []
    for _ in range(60):
        layers += [nn.Linear(16, 16), nn.ReLU()]
    model = nn.Sequential(*layers, nn.Linear(16, 10))
    x, y = tensorlab.randn(8, 16), tensorlab.randint(0, 10, (8,))

    def record():
        model.zero_grad()
        with GraphExplorer.record(params=model, max_nodes=explorer_max_nodes) as explorer:
            nn.functional.cross_entropy(model(x), y).backward()
        return explorer
    return record


def _graph_cases():
    """GraphExplorer on a large graph: recording a step (forward + backward), and one step of the
    replay redrawn (state folded from the events, SVG and side panel), both as the neighbourhood
    view (max_nodes=60, the default) and as the whole ~430-node graph."""
    record = _deep_mlp_step()
    around, whole = record(), _deep_mlp_step(explorer_max_nodes=1000)()
    for explorer in (around, whole):
        explorer.widget
        explorer.goto(len(explorer.events) // 2)

    def redraw(explorer):
        def step():
            explorer.goto(len(explorer.events) // 2 + (explorer.position + 1) % 40)
        return step
    return [("GraphExplorer record an MLP training step (~430 nodes)", {"tensorlab": record}),
            ("GraphExplorer step redraw, neighbourhood of ~430 nodes", {"tensorlab": redraw(around)}),
            ("GraphExplorer step redraw, whole ~430-node graph", {"tensorlab": redraw(whole)})]


CASES = _monitor_cases() + _module_cases() + _graph_cases()


def plotting_overhead(epochs=30):
    """Train alternately without and with a monitor; returns seconds per epoch of each, and the
    monitor's own drawing time (live redraws) per epoch."""
    times = {"plain": 0.0, "watched": 0.0}

    def watched_clock():        # the monitor's clock stops while the plain epochs run, as if they never did
        return time.perf_counter() - times["plain"]

    plain, batches = _lenet_run()
    monitor = TrainingMonitor(total=epochs * batches, clock=watched_clock)
    monitor.widget
    watched, _ = _lenet_run(monitor)
    plain(), watched()                          # warm up (imports, first figure)
    monitor.draw_seconds, monitor.redraws = 0.0, 0
    for _ in range(epochs):
        for name, run in (("plain", plain), ("watched", watched)):
            start = time.perf_counter()
            run()
            times[name] += time.perf_counter() - start
    return times["plain"] / epochs, times["watched"] / epochs, monitor.draw_seconds / epochs, monitor.redraws


if __name__ == "__main__":
    import os
    plain, watched, drawing, redraws = plotting_overhead()
    print(f"LeNet5 on Digits, one epoch: {plain * 1000:.0f} ms without a monitor, {watched * 1000:.0f} ms with one "
          f"({(watched - plain) / plain:+.1%}); live plotting {drawing * 1000:.1f} ms per epoch = "
          f"{drawing / plain:.1%} of an epoch ({redraws} redraws in all; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f})")
