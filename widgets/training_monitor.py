"""TrainingMonitor: live training curves, a progress line, and a summary figure that outlives the kernel.

Feed it numbers as training runs -- from your own loop, ``monitor.update(step, loss=...)``, or from
``tensorlab.vision.training.fit(..., writer=monitor)``, which logs ``loss/train`` every batch and
``loss/test`` / ``accuracy/test`` every epoch through the same ``add_scalar(tag, value, step)`` call a
TensorBoard ``SummaryWriter`` answers. Each value lands in the panel of the metric it names
(``loss``, ``train_loss``, ``loss/test`` all go to ``loss``).

Drawing is the expensive part, so it is throttled: the live plot (matplotlib, rendered to PNG in the
kernel) is redrawn at most every ``redraw_every`` seconds, and only while the time spent drawing so
far, plus what the next redraw will likely cost (the last one's time), stays under ``max_overhead``
(2%) of the time since training started: with 100 ms redraws, about one every 5 s. ``close()``
replaces it with a summary chart drawn as SVG from the values alone, whatever the clock did, so
nbconvert and an untrusted JupyterLab keep the result. Its numbers are measured (float32 noise
differs between machines), so the stored chart is marked ``measured`` and nbval compares its text:
the summary, the progress line and the chart in words, every number rounded to 3 digits.

    >>> monitor = TrainingMonitor(metrics=("loss", "accuracy"), total=3)
    >>> for step, loss in enumerate([0.9, 0.5, 0.30417]):
    ...     monitor.update(step, loss=loss)
    >>> monitor.update(2, accuracy=0.875)
    >>> monitor.close()
    >>> monitor                            # what a reader sees is rounded: 3 significant digits
    TrainingMonitor(3/3 steps: loss 0.304, accuracy 0.875)
    >>> monitor.series["loss"]             # what was recorded is not
    {'steps': [0, 1, 2], 'values': [0.9, 0.5, 0.30417]}
    >>> monitor.update(3, los=0.2)         # bad input: shown inline, nothing recorded
    >>> monitor.error
    "ValueError: 'los' names none of the metrics ('loss', 'accuracy')"
    >>> TrainingMonitor(metrics=())
    Traceback (most recent call last):
    ValueError: metrics must name at least one panel, e.g. metrics=('loss',)

See course/20_watching_training.
"""
import math
import numbers
import time

from ._base import WidgetModel, error_text
from ._chart import chart_alt, line_chart, rounded
from ._i18n import tr
from ._svg import error_html, escape, svg_img

MAX_TOTAL = 10**12     # steps: a larger ``total`` is a typo (and would overflow the time estimates)


def panel_for(name, metrics):
    """The metric whose panel shows the value ``name``: ``loss`` for ``loss``, ``loss/train``,
    ``train_loss`` or ``loss_ema``; None when it names none of them."""
    for metric in metrics:
        if name == metric or name.startswith((metric + "/", metric + "_")) or name.endswith(("/" + metric,
                                                                                               "_" + metric)):
            return metric
    return None


def curve_label(name, metric):
    """How a curve is called in its panel: ``train`` for ``loss/train`` or ``train_loss``."""
    if name == metric:
        return metric
    for affix in (metric + "/", metric + "_"):
        if name.startswith(affix):
            return name[len(affix):]
    return name[: -len(metric) - 1]


def as_number(value):
    """A plain float from a Python or NumPy number or a one-element tensor (``loss``, not ``loss.item()``)."""
    if hasattr(value, "item") and not isinstance(value, numbers.Number):
        size = value.numel() if hasattr(value, "numel") else getattr(value, "size", 1)
        if size != 1:
            raise ValueError(tr("a metric value must be one number, got a {type} of {n} elements (log one number, "
                                "such as loss.mean())", type=type(value).__name__, n=size))
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(tr("a metric value must be a real number, got {type}", type=type(value).__name__))
    try:
        return float(value)
    except OverflowError:
        raise ValueError(tr("a metric value must fit in a float, got an int of {n} digits", n=len(str(value)))) from None


def check_metrics(metrics):
    """``metrics`` as a tuple of names: one name (``"loss"``) or a sequence of them, at least one."""
    if isinstance(metrics, str):
        metrics = (metrics,)
    try:
        metrics = tuple(metrics)
    except TypeError:
        raise TypeError(tr("metrics must be a name or a tuple of names such as ('loss', 'accuracy'), got {type}",
                           type=type(metrics).__name__)) from None
    if not metrics:
        raise ValueError(tr("metrics must name at least one panel, e.g. metrics=('loss',)"))
    for name in metrics:
        if not isinstance(name, str) or not name:
            raise TypeError(tr("each metric must be a non-empty str such as 'loss', got {name}", name=repr(name)))
    if len(set(metrics)) != len(metrics):
        raise ValueError(tr("metrics must be different names, got {metrics}", metrics=metrics))
    return metrics


def check_total(total):
    """``total``: None (no bar) or the number of steps expected, a positive int."""
    if total is None:
        return None
    if isinstance(total, bool) or not isinstance(total, numbers.Integral):
        raise TypeError(tr("total must be an int (the number of steps expected) or None, got {type}",
                           type=type(total).__name__))
    if not 1 <= total <= MAX_TOTAL:
        shown = total if abs(total) < 10**15 else tr("an int of {n} digits", n=len(str(abs(total))))
        raise ValueError(tr("total must be a number of steps from 1 to {limit:.0e}, got {value}", limit=MAX_TOTAL,
                            value=shown))
    return int(total)


def check_optimizer(optimizer):
    """An optimizer whose learning rate can be read: ``optimizer.param_groups[0]["lr"]``."""
    groups = getattr(optimizer, "param_groups", None)
    if not (isinstance(groups, (list, tuple)) and groups and isinstance(groups[0], dict) and "lr" in groups[0]):
        raise TypeError(tr("optimizer must be an optimizer such as optim.SGD(...), whose param_groups[0]['lr'] "
                           "is the learning rate; got {type}", type=type(optimizer).__name__))
    return optimizer


def duration(seconds):
    """``01:05`` as tqdm writes elapsed and remaining times."""
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes:02d}:{seconds:02d}" if minutes < 60 else f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}"


class TrainingMonitor(WidgetModel):
    """Collect training metrics and show them live: curves, a tqdm-style progress line, a summary.

    ``metrics``: the panels, in order. ``total``: the number of steps expected (for the bar).
    ``optimizer``: record ``param_groups[0]["lr"]`` at every update (adds an ``lr`` panel, so a
    scheduler's work shows); ``lr=True`` adds the panel for values you pass as ``lr=``.
    ``redraw_every``, ``progress_every``: the shortest time in seconds between two redraws of the
    plot and of the progress line; ``max_overhead``: the largest share of time plotting may take.
    ``clock``: where time comes from (tests pass a fake one; the default is ``time.monotonic``).
    """

    def __init__(self, metrics=("loss", "accuracy"), total=None, optimizer=None, lr=False, redraw_every=1.0,
                 progress_every=0.1, max_overhead=0.02, clock=time.monotonic):
        metrics = check_metrics(metrics)
        if optimizer is not None:
            check_optimizer(optimizer)
        self.metrics = metrics + (("lr",) if (lr or optimizer is not None) and "lr" not in metrics else ())
        self.total, self.optimizer = check_total(total), optimizer
        self.redraw_every, self.progress_every, self.max_overhead = redraw_every, progress_every, max_overhead
        self.clock = clock
        self.series = {}                 # value name -> {"steps": [...], "values": [...]}, first seen first
        self.steps_seen = set()
        self.last_step = None
        self.error = None
        self.closed = False
        self.started = None              # clock() at the first update
        self.redraws = 0                 # live plots drawn, and the clock time they took
        self.draw_seconds = 0.0
        self._last_draw = self._last_progress = None
        self._draw_estimate = 0.0        # what the next redraw will cost: the last one's time

    # -- recording -------------------------------------------------------------------------------
    def update(self, step, **values):
        """Record ``values`` (e.g. ``loss=0.31``) at ``step``; redraw if enough time has passed.
        Bad input (an unknown metric, a value that is not a number) is shown and nothing is recorded."""
        try:
            if isinstance(step, bool) or not isinstance(step, numbers.Integral):
                raise TypeError(tr("step must be an int, got {type}", type=type(step).__name__))
            clean = {}
            for name, value in values.items():
                if panel_for(name, self.metrics) is None:
                    raise ValueError(tr("{name} names none of the metrics {metrics}", name=repr(name), metrics=self.metrics))
                clean[name] = as_number(value)
        except (TypeError, ValueError, RuntimeError) as error:
            self.error = error_text(error)
            self.refresh()
            return None
        step = int(step)
        lr_steps = self.series.get("lr", {}).get("steps", [None])
        if self.optimizer is not None and "lr" not in clean and lr_steps[-1:] != [step]:
            clean["lr"] = float(self.optimizer.param_groups[0]["lr"])   # the rate this step trained with
        for name, value in clean.items():
            curve = self.series.setdefault(name, {"steps": [], "values": []})
            curve["steps"].append(step)
            curve["values"].append(value)
        self.steps_seen.add(step)
        self.last_step, self.error, self.closed = step, None, False
        self._tick()

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None):
        """The one method of TensorBoard's ``SummaryWriter`` that ``fit`` calls: pass
        ``writer=monitor`` to ``tensorlab.vision.training.fit`` and every logged value arrives here."""
        if not isinstance(tag, str):
            self.error = "TypeError: " + tr("tag must be a str such as 'loss/train', got {type}", type=type(tag).__name__)
            self.refresh()
            return None
        step = global_step if global_step is not None else (self.last_step or 0)
        self.update(step, **{tag: scalar_value})

    def close(self):
        """Training is over: replace the live plot by the summary chart (SVG, from the values only)."""
        self.closed = True
        self.refresh()

    # -- throttling ---------------------------------------------------------------------------------
    def _tick(self):
        """After an update: redraw the progress line and the plot, each only if its time has come."""
        now = self.clock()
        if self.started is None:
            self.started = self._last_draw = now          # the first plot waits for some data
        if self._view is None:
            return
        if self._last_progress is None or now - self._last_progress >= self.progress_every:
            self._last_progress = now
            self._view.show_progress()
        within_budget = self.draw_seconds + self._draw_estimate <= self.max_overhead * (now - self.started)
        if now - self._last_draw >= self.redraw_every and within_budget:
            self.redraw_live()

    def redraw_live(self):
        """Draw the live plot now, and time it (what the throttle counts against its budget)."""
        start = self.clock()
        self._view.show_live()
        spent = self.clock() - start
        self.redraws += 1
        self.draw_seconds += spent
        self._draw_estimate = spent
        self._last_draw = self.clock()

    # -- what is shown ----------------------------------------------------------------------------
    def panels(self):
        """The curves by panel: ``[(metric, [(label, steps, values), ...]), ...]``."""
        found = {metric: [] for metric in self.metrics}
        for name, curve in self.series.items():
            metric = panel_for(name, self.metrics)
            found[metric].append((curve_label(name, metric), curve["steps"], curve["values"]))
        return list(found.items())

    def last_values(self):
        return {name: curve["values"][-1] for name, curve in self.series.items()}

    def progress_text(self, now=None):
        """The tqdm-style line: ``67%|██████▋   | 30/45 [00:02<00:01, 14.2 it/s] loss=0.312``.
        Without ``now`` it leaves out the times, so the text depends on the values only."""
        done = len(self.steps_seen)
        bar = ""
        if self.total:
            fraction = min(done / self.total, 1.0)
            cells = fraction * 10
            partial = " ▏▎▍▌▋▊▉"[int((cells % 1) * 8)] if cells < 10 else ""
            bar = f"{fraction:4.0%}|{'█' * int(cells)}{partial}{' ' * (10 - int(cells) - len(partial))}| "
        count = f"{done}/{self.total}" if self.total else f"{done}"
        times = ""
        if now is not None and self.started is not None:
            elapsed = now - self.started
            rate = done / elapsed if elapsed > 0 else 0.0
            left = f"<{duration((self.total - done) / rate)}" if self.total and rate > 0 else ""
            times = f" [{duration(elapsed)}{left}, {rate:.1f} it/s]"
        values = " ".join(f"{name}={rounded(value)}" for name, value in self.last_values().items())
        return f"{bar}{count}{times} {values}".rstrip()

    def to_svg(self):
        """The summary chart: one panel per metric, each curve's last value under it."""
        return line_chart(self.panels())

    def chart_html(self):
        """The summary chart as it is stored: an ``<img>`` marked as measured, with the chart in words."""
        return svg_img(self.to_svg(), chart_alt(self.panels()), measured=True)

    def summary(self):
        steps = f"{len(self.steps_seen)}/{self.total}" if self.total else f"{len(self.steps_seen)}"
        if not self.series:
            return "TrainingMonitor(" + tr("{metrics}: no values yet", metrics=", ".join(self.metrics)) + ")"
        values = ", ".join(f"{name} {rounded(value)}" for name, value in self.last_values().items())
        return "TrainingMonitor(" + tr("{steps} steps: {values}", steps=steps, values=values) + ")"

    def to_html(self):
        parts = ["<div class='tensorlab-training-monitor'>",
                 f"<div style='font-family:monospace;white-space:pre'>{escape(self.progress_text())}</div>"]
        if self.error:
            parts.append(error_html(self.error))
        parts.append(self.chart_html() if self.series else
                     "<div style='font-family:monospace;color:#888'>waiting for the first update()</div>")
        return "".join(parts) + "</div>"

    # -- the view -----------------------------------------------------------------------------------
    def _build_view(self):
        """The view, and a first (empty) rendering of the live plot, timed: the estimate of what a
        redraw costs, so that even the first one during training keeps within ``max_overhead``."""
        from ._monitor_view import MonitorView
        view = MonitorView(self)
        start = self.clock()
        view.live.png([])
        self._draw_estimate = self.clock() - start
        return view

    def _refresh_view(self):
        self._view.update()


__all__ = ["TrainingMonitor", "panel_for", "curve_label", "as_number"]
