"""TrainingMonitor: recording, the throttle (with a fake clock: no sleeping, no timing asserted), the
deterministic summary SVG, the view filled kernel-side, and use with ``fit`` and a plain loop."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tensorlab as torch
from tensorlab import nn, optim
from tensorlab.utils.data import DataLoader, TensorDataset
from tensorlab.vision import training
from widgets import TrainingMonitor
from widgets._chart import nice_ticks, thin

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")
ROOT = Path(__file__).resolve().parents[1]


class FakeClock:
    """Time that moves only when the test says so."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_update_records_each_value_in_its_metrics_panel():
    m = TrainingMonitor(metrics=("loss", "accuracy"))
    m.update(0, loss=1.0)
    m.update(1, loss=torch.tensor(0.5), **{"loss/test": np.float32(0.75)})
    m.update(1, test_accuracy=0.5)
    assert m.series == {"loss": {"steps": [0, 1], "values": [1.0, 0.5]},
                        "loss/test": {"steps": [1], "values": [0.75]},
                        "test_accuracy": {"steps": [1], "values": [0.5]}}
    assert [(metric, [c[0] for c in curves]) for metric, curves in m.panels()] == \
        [("loss", ["loss", "test"]), ("accuracy", ["test"])]
    assert m.summary() == "TrainingMonitor(2 steps: loss 0.5, loss/test 0.75, test_accuracy 0.5)"


@pytest.mark.parametrize("step, values, message", [
    (1, {"los": 0.1}, "ValueError: 'los' names none of the metrics ('loss', 'accuracy')"),
    (1, {"loss": "low"}, "TypeError: a metric value must be a real number, got str"),
    (1.5, {"loss": 0.1}, "TypeError: step must be an int, got float"),
])
def test_bad_update_is_shown_and_records_nothing(step, values, message):
    m = TrainingMonitor()
    m.update(0, loss=1.0)
    view = m.widget
    assert m.update(step, accuracy=0.9, **values) is None
    assert m.error == message
    assert m.series == {"loss": {"steps": [0], "values": [1.0]}}
    assert "tensorlab-error" in m.to_html() and "tensorlab-error" in view.message.value
    m.update(1, loss=0.5)
    assert m.error is None and view.message.value == ""


def test_optimizer_learning_rate_recorded_with_every_update():
    w = nn.Parameter(torch.zeros(1))
    opt = optim.SGD([w], lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    m = TrainingMonitor(metrics=("loss",), optimizer=opt)
    assert m.metrics == ("loss", "lr")
    for step in range(3):
        m.update(step, loss=1.0)
        opt.step()
        scheduler.step()
    assert m.series["lr"] == {"steps": [0, 1, 2], "values": [0.1, 0.05, 0.025]}


def test_no_view_no_drawing():
    m = TrainingMonitor(clock=FakeClock())
    for step in range(100):
        m.update(step, loss=1.0)
    assert m.redraws == 0 and m._view is None


def test_throttle_redraws_at_most_every_redraw_every_seconds():
    clock = FakeClock()
    m = TrainingMonitor(redraw_every=1.0, progress_every=0.1, clock=clock)
    view = m.widget
    shown = []
    view.show_progress = lambda: shown.append(clock.now)
    for step in range(50):                       # 50 updates, 1/16 s apart: about 3 s of training
        clock.now = step / 16
        m.update(step, loss=1.0 / (step + 1))
    assert m.redraws == 3                        # at 1, 2 and 3 s; the first update only starts the clock
    assert len(shown) == 25                      # the progress line: at most every 0.1 s (every 2nd update)
    assert all(b - a >= 0.1 - 1e-9 for a, b in zip(shown, shown[1:]))


def test_throttle_backs_off_when_drawing_is_slow():
    clock = FakeClock()
    m = TrainingMonitor(redraw_every=1.0, max_overhead=0.02, clock=clock)
    view = m.widget
    real_show_live = view.show_live

    def slow_draw():                               # pretend one redraw costs 0.1 s
        real_show_live()
        clock.now += 0.1

    view.show_live = slow_draw
    budget_checks = []
    for step in range(400):                        # about 20 s of training
        clock.now += 0.05
        redraws = m.redraws
        m.update(step, loss=1.0)
        if m.redraws > redraws:                    # a redraw happened: it fitted the 2% budget
            budget_checks.append((m.draw_seconds, 0.02 * (clock.now - 0.1 - m.started)))
    # the first at 1 s (no cost known yet), then each when 2% of the time covers the drawing so far
    # plus one more: 0.2 s of drawing needs 10 s, 0.3 s needs 15 s, 0.4 s needs 20 s
    assert m.redraws == 4
    assert all(spent <= allowed + 1e-9 for spent, allowed in budget_checks[1:])
    assert m.draw_seconds == pytest.approx(0.4)
    assert m.draw_seconds / (clock.now - m.started) <= 0.02 + 1e-9


def test_progress_line_like_tqdm():
    clock = FakeClock()
    m = TrainingMonitor(metrics=("loss",), total=40, clock=clock)
    for step in range(10):
        clock.now = step * 0.5
        m.update(step, loss=0.25)
    assert m.progress_text() == " 25%|██▌       | 10/40 loss=0.25"
    assert m.progress_text(now=5.0) == " 25%|██▌       | 10/40 [00:05<00:15, 2.0 it/s] loss=0.25"


def test_live_plot_is_a_png_in_the_output_filled_kernel_side():
    clock = FakeClock()
    m = TrainingMonitor(clock=clock)
    view = m.widget
    for step in range(30):
        clock.now = step * 0.1
        m.update(step, loss=1.0 / (step + 1))
    assert m.redraws == 2
    (output,) = view.plot.outputs
    assert output["output_type"] == "display_data"
    png = output["data"]["image/png"]
    assert isinstance(png, str) and len(png) > 1000               # base64 of a real image
    m.close()
    (final,) = view.plot.outputs
    assert final["data"]["text/html"] == m.chart_html() and "<svg" not in m.chart_html()
    assert "[" not in view.progress.value                         # no times once closed


def run_a_training(clock):
    m = TrainingMonitor(metrics=("loss", "accuracy"), total=20, lr=True, clock=clock)
    m.widget
    for step in range(20):
        clock.now += 0.37 if clock.now < 3 else 0.011              # the clock differs between runs
        m.update(step, loss=float(np.exp(-step / 5)), lr=0.1 * 0.9 ** step)
        if step % 5 == 4:
            m.update(step, test_accuracy=0.5 + step / 40, test_loss=float(np.exp(-step / 6)))
    m.close()
    return m


def test_summary_svg_depends_on_the_values_only():
    first, second = run_a_training(FakeClock()), run_a_training(FakeClock())
    clock = FakeClock()
    clock.now = 1000.0
    third = run_a_training(clock)
    assert first.to_svg() == second.to_svg() == third.to_svg()
    assert first.to_html() == third.to_html()
    assert first.widget.plot.outputs[0]["data"]["text/html"] == first.chart_html()
    svg = first.to_svg()
    assert svg.startswith("<svg") and svg.count("<path") == 4   # loss, test loss, test accuracy, lr
    assert "test 0.975" in svg and "lr 0.0135" in svg          # rounded: 3 significant digits


def test_summary_svg_is_identical_in_another_process():
    code = ("import numpy as np; from widgets import TrainingMonitor\n"
            "m = TrainingMonitor(total=50)\n"
            "for s in range(50): m.update(s, loss=float(np.exp(-s / 9)) + 0.01 * np.sin(s))\n"
            "m.update(49, accuracy=0.93); m.close(); print(m.to_html())")
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs[0] == runs[1] and '<img data-measured="true" src="data:image/svg+xml;base64,' in runs[0]


def test_nan_breaks_the_curve_and_ticks_are_round():
    m = TrainingMonitor(metrics=("loss",))
    for step, value in enumerate([1.0, 0.5, float("nan"), 0.25, 0.2]):
        m.update(step, loss=value)
    path = next(line for line in m.to_svg().splitlines() if line.startswith("<path"))
    assert path.count("M") == 2                       # a gap where the NaN is
    assert nice_ticks(0.013, 0.98) == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert nice_ticks(3.0, 3.0) == [2.6, 2.8, 3.0, 3.2, 3.4]
    steps, values = thin(list(range(1000)), list(range(1000)), limit=100)
    assert len(steps) == 101 and steps[-1] == 999


def _digits_like(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = torch.tensor(rng.normal(size=(n, 1, 8, 8)).astype(np.float32))
    y = torch.tensor(rng.integers(0, 10, size=n))
    return DataLoader(TensorDataset(x, y), batch_size=16)


def test_works_as_fit_writer_with_learning_rate_from_the_optimizer():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 10))
    opt = optim.SGD(model.parameters(), lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    loader = _digits_like()
    m = TrainingMonitor(total=3 * len(loader), optimizer=opt, clock=FakeClock())
    history = training.fit(model, loader, nn.CrossEntropyLoss(), opt, epochs=3, test_loader=loader,
                           scheduler=scheduler, writer=m, progress_bar=False)
    m.close()
    assert m.series["accuracy/test"]["values"] == history["test_accuracy"]
    assert m.series["loss/test"] == {"steps": [3, 7, 11], "values": history["test_loss"]}
    assert len(m.series["loss/train"]["steps"]) == 12
    # one learning rate per step: the one that step trained with (the scheduler steps after each epoch)
    assert m.series["lr"] == {"steps": list(range(12)), "values": [0.1] * 4 + [0.05] * 4 + [0.025] * 4}
    assert m.summary().startswith("TrainingMonitor(12/12 steps: loss/train ")
    assert [metric for metric, _ in m.panels()] == ["loss", "accuracy", "lr"]


def test_works_in_a_plain_loop():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 3), torch.randn(32, 1)
    m = TrainingMonitor(metrics=("loss",), total=20)
    for step in range(20):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        m.update(step, loss=loss)                  # a tensor is fine: its .item() is recorded
    m.close()
    values = m.series["loss"]["values"]
    assert len(values) == 20 and values[-1] < values[0]
    assert m.closed and "20/20" in m.summary()
