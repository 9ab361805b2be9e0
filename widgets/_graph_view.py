"""The GraphExplorer's controls (ipywidgets): Play/slider, Back/Step/Reset, Run backward, speed.

Animation needs no custom JavaScript: ``ipywidgets.Play`` ticks in the browser and is linked
(``jslink``) to the step slider, whose every change the kernel turns into a redraw of the SVG.
Every control goes through ``model._from_control``: an exception raised by your own code (a hook, a
custom Function's backward) is shown in the panel instead of vanishing into the log console.
"""
import ipywidgets as w

from ._i18n import tr


class GraphView(w.VBox):
    """A DOMWidget over a GraphExplorer model; ``update()`` redraws from the model's state."""

    def __init__(self, model):
        self.model = model
        n = len(model.events)
        self.play = w.Play(value=model.position, min=0, max=n, interval=600, description=tr("Play"))
        self.slider = w.IntSlider(value=model.position, min=0, max=n, description=tr("step"),
                                  continuous_update=True, layout=w.Layout(width="340px"))
        self.speed = w.IntSlider(value=600, min=100, max=2000, step=100, description=tr("ms/step"),
                                 layout=w.Layout(width="260px"))
        w.jslink((self.play, "value"), (self.slider, "value"))
        w.jslink((self.speed, "value"), (self.play, "interval"))
        self.back_button = w.Button(description=tr("Back"), layout=w.Layout(width="70px"))
        self.step_button = w.Button(description=tr("Step"), layout=w.Layout(width="70px"))
        self.reset_button = w.Button(description=tr("Reset"), layout=w.Layout(width="70px"))
        self.backward_button = w.Button(description=tr("Run backward"), button_style="warning",
                                        tooltip=tr("run output.backward() for real, and replay it"),
                                        layout=w.Layout(width="120px", display="" if model.output is not None
                                                        else "none"))
        # the drawing scrolls inside its box when it is larger; the panel wraps below a wide drawing
        self.drawing = w.HTML(layout=w.Layout(overflow="auto", max_height="720px", max_width="100%",
                                              flex="0 1 auto"))
        self.panel = w.HTML(layout=w.Layout(min_width="280px", max_width="420px", flex="1 1 280px"))
        self.panel.add_class("tensorlab-panel")
        self.back_button.on_click(lambda _: model._from_control(model.back))
        self.step_button.on_click(lambda _: model._from_control(model.step))
        self.reset_button.on_click(lambda _: model._from_control(model.reset))
        self.backward_button.on_click(lambda _: model._from_control(model.backward))
        self.slider.observe(self._on_slider, names="value")
        controls = w.HBox([self.play, self.slider, self.back_button, self.step_button, self.reset_button,
                           self.backward_button], layout=w.Layout(flex_flow="row wrap"))
        body = w.HBox([self.drawing, self.panel], layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        super().__init__([controls, body, self.speed])
        self.add_class("tensorlab-graph-explorer")
        self.update()

    def _on_slider(self, change):
        if change["new"] != self.model.position:
            self.model._from_control(self.model.goto, change["new"])

    def update(self):
        model, n = self.model, len(self.model.events)
        self.play.max = self.slider.max = n
        if self.slider.value != model.position:
            self.slider.value = model.position
        self.drawing.value = model.to_svg()
        self.panel.value = model.panel_html()
