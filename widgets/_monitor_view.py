"""The TrainingMonitor's view (ipywidgets): a progress line, and a plot that is live, then final.

The live plot is matplotlib drawing into its own ``Figure`` on the Agg canvas (no pyplot: nothing is
shown by accident when the cell ends), saved as PNG and put into an ``Output`` *kernel-side*
(``out.outputs = ()`` then ``append_display_data``) -- never ``with out:``, which loses output under
nbval and in plain Python. After ``close()`` the same Output holds the summary chart instead, as the
``<img>`` the stored notebook has too (``TrainingMonitor.chart_html``).
"""
import io

import ipywidgets as w
from IPython.display import HTML, Image

from ._chart import COLOURS, thin
from ._svg import error_html, escape


class LivePlot:
    """One matplotlib figure reused for every redraw: only the lines' data change."""

    def __init__(self, metrics, dpi=72):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        # fixed margins: a layout engine would measure every label again at each redraw (slow)
        self.figure = Figure(figsize=(3.6 * len(metrics), 2.5), dpi=dpi)
        self.figure.subplots_adjust(left=0.5 / (3.6 * len(metrics)), right=0.98, bottom=0.18, top=0.88, wspace=0.3)
        FigureCanvasAgg(self.figure)
        axes = self.figure.subplots(1, len(metrics), squeeze=False)[0]
        self.axes = dict(zip(metrics, axes))
        for metric, ax in self.axes.items():
            ax.set_title(metric, fontsize=10)
            ax.set_xlabel("step", fontsize=8)
            ax.tick_params(labelsize=8)
            ax.grid(alpha=0.3)
        self.lines = {}

    def png(self, panels):
        """Redraw from ``panels`` (as ``TrainingMonitor.panels()`` gives them); PNG bytes, no metadata."""
        for metric, curves in panels:
            ax = self.axes[metric]
            for i, (label, steps, values) in enumerate(curves):
                line = self.lines.get((metric, label))
                if line is None:
                    line, = ax.plot([], [], color=COLOURS[i % len(COLOURS)], lw=1.3, label=label,
                                    marker="o" if len(steps) <= 30 else None, ms=3)
                    self.lines[(metric, label)] = line
                    if len(curves) > 1:
                        ax.legend(fontsize=7)
                line.set_data(*thin(steps, values))
            ax.relim()
            ax.autoscale_view()
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", metadata={"Software": None})
        return buffer.getvalue()


class MonitorView(w.VBox):
    """A DOMWidget over a TrainingMonitor: ``show_progress()``, ``show_live()`` and ``update()``."""

    def __init__(self, model):
        self.model = model
        self.progress = w.HTML()
        self.message = w.HTML()
        self.plot = w.Output(layout=w.Layout(min_height="40px"))
        self.live = LivePlot(model.metrics)
        super().__init__([self.progress, self.message, self.plot])
        self.add_class("tensorlab-training-monitor")
        self.update()

    def show_progress(self):
        model = self.model
        line = model.progress_text(now=model.clock() if not model.closed else None)
        self.progress.value = f"<pre style='margin:0;font-size:12px'>{escape(line)}</pre>"
        self.message.value = error_html(model.error) if model.error else ""

    def show_live(self):
        """The live plot: matplotlib, PNG (nbval never compares PNG, so its bytes may vary)."""
        png = self.live.png(self.model.panels())
        self.plot.outputs = ()
        self.plot.append_display_data(Image(png, format="png"))

    def show_final(self):
        """The summary chart: SVG drawn from the values only, in an ``<img>`` (shown untrusted too)."""
        self.plot.outputs = ()
        self.plot.append_display_data(HTML(self.model.chart_html()))

    def update(self):
        self.show_progress()
        if self.model.closed:
            self.show_final()
        elif self.model.series:
            self.show_live()
        else:
            self.plot.outputs = ()
