"""The BroadcastExplorer's controls (ipywidgets): a shape box per operand, the result's cells to click,
and a Gradients button.

As in the StrideExplorer, the click targets are plain Buttons laid out like the result (an
``ipywidgets.HTML`` holding SVG sends no clicks back to the kernel without custom JavaScript).
"""
import ipywidgets as w

from ._base import replace_children
from ._grid import format_value
from ._i18n import tr
from ._svg import PALETTE, error_html, escape
from ._stride_view import BUTTON, LABEL, fill_click_pad
from .broadcast_explorer import MAX_BUTTONS



class BroadcastView(w.VBox):
    """A DOMWidget over a BroadcastExplorer model; ``update()`` redraws from the model's state."""

    def __init__(self, model):
        self.model = model
        self.shape_boxes = [w.Text(value=", ".join(map(str, s)) if len(s) != 1 else f"{s[0]},",
                                   description=f"{name}:", placeholder=tr("e.g. 3, 1"), style=LABEL,
                                   layout=w.Layout(width="170px"))
                            for name, s in zip(model.names, model.shapes)]
        self.shapes_button = w.Button(description=tr("Broadcast"), button_style="primary", layout=w.Layout(width="100px"),
                                      tooltip=tr("use these shapes (each operand becomes arange(n) in that shape)"))
        self.shapes_button.on_click(lambda _: model._from_control(self._set_shapes))
        self.gradients_button = w.ToggleButton(description=tr("Gradients"), tooltip=tr("run (a + b).sum().backward()"),
                                               layout=w.Layout(width="100px"))
        self.gradients_button.observe(lambda _: self.update(), names="value")
        self.error = w.HTML()
        self.hint = w.HTML()
        self.cells = w.GridBox(layout=w.Layout(grid_gap="0px", align_content="flex-start"))
        self.picture = w.HTML(layout=w.Layout(overflow="auto", flex="1 1 560px", min_width="0"))
        self.gradients = w.HTML()
        self._grid_for = None
        self._cell_layout = w.Layout(**BUTTON)     # one layout shared by every cell button
        super().__init__([
            w.HBox(self.shape_boxes + [self.shapes_button, self.gradients_button],
                   layout=w.Layout(flex_flow="row wrap")),
            self.error,
            # the picture moves below the click targets when the two do not fit side by side
            w.HBox([w.VBox([self.hint, self.cells], layout=w.Layout(flex="0 0 auto")), self.picture],
                   layout=w.Layout(align_items="flex-start", flex_flow="row wrap", grid_gap="8px")),
            self.gradients,
        ])
        self.add_class("tensorlab-broadcast-explorer")
        self.update()

    def _set_shapes(self):
        self.model.set_shapes(*(box.value for box in self.shape_boxes))

    def _cell_buttons(self):
        """One button per element of the result; its title names the element, e.g. ``(a + b)[1, 2]``."""
        model = self.model
        if model.result is None:
            self.hint.value = ""
            replace_children(self.cells)
            return
        shape = model.result_shape
        if model.result.numel() > MAX_BUTTONS:
            self.hint.value = ("<small>" + tr("{n} elements: use <code>select(index)</code>", n=model.result.numel())
                               + "</small>")
            replace_children(self.cells)
            return
        self.hint.value = "<small>" + tr("click an element of {expression}:", expression=escape(model.expression())) + "</small>"
        fill_click_pad(self.cells, shape, shape[-1] if shape else 1, f"({model.expression()})",
                       lambda index: model._from_control(model.select, index), self._cell_layout)

    def update(self):
        model = self.model
        key = (model.shapes, model.result_shape)
        if key != self._grid_for:
            self._cell_buttons()
            self._grid_for = key
            for box, shape in zip(self.shape_boxes, model.shapes):
                box.value = ", ".join(map(str, shape)) if len(shape) != 1 else f"{shape[0]},"
        buttons = [b for b in self.cells.children if isinstance(b, w.Button)]
        if buttons:
            values = model.result.reshape(-1).tolist() if model.result.dim() else [model.result.item()]
            for button, value in zip(buttons, values):
                button.description = format_value(value)
                button.style.button_color = PALETTE["selected"] if button.index == model.selected else None
        self.error.value = error_html(model.error) if model.error else ""
        self.picture.value = model.to_svg()
        gradients = model.gradient_view() if self.gradients_button.value else None
        self.gradients.value = ("" if gradients is None else gradients.to_html() if gradients.error else
                                f'<div class="tensorlab-broadcast-gradients">{gradients.to_svg()}</div>')
