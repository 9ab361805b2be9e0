"""The StrideExplorer's controls (ipywidgets): buttons for common ops, a text box, Back, a grid of
cells to click, and Write.

Why a grid of Buttons beside the SVG, and not clicks on the SVG itself: an ``ipywidgets.HTML`` shows
the SVG but sends no events back to the kernel, so catching a click inside the picture would need
custom JavaScript (an anywidget). A Button is a plain widget whose click reaches the kernel wherever
widgets work -- JupyterLab, Voila, and ``button.click()`` in a test -- so the buttons are the click
targets (one per element, laid out like the logical grid) and the SVG is the picture they drive.
"""
import ipywidgets as w

from ._base import replace_children
from ._grid import format_value, index_text, indices
from ._i18n import tr
from ._svg import PALETTE, error_html, escape, status_html
from .stride_explorer import COMMON_OPS

BUTTON = dict(width="46px", height="28px", padding="0px", margin="1px")
LABEL = {"description_width": "initial"}    # a text box's label as wide as its text, no wider



def fill_click_pad(grid, shape, cols, expression, select, cell_layout):
    """Fill the GridBox ``grid`` with one Button per element of ``shape`` (``cols`` to a row, each row
    led by its index, e.g. ``[1, 0, :]``): clicking one calls ``select(index)``. Buttons, because a
    click inside an SVG could only reach the kernel through custom JavaScript."""
    children = []
    for k, index in enumerate(indices(shape)):
        if k % cols == 0:       # each row starts with its index (1-D: where it starts)
            row = index_text(index[:-1] + (":",)) if len(shape) > 1 else f"[{k}:]" if len(shape) else ""
            children.append(w.HTML(f"<small style='color:{PALETTE['muted']};white-space:nowrap'>"
                                   f"{escape(row)}</small>"))
        button = w.Button(tooltip=f"{expression}{index_text(index)}", layout=cell_layout)
        button.add_class("tensorlab-cell")
        button.on_click(lambda _, index=index: select(index))
        button.index = index
        children.append(button)
    grid.layout.grid_template_columns = f"auto repeat({cols}, 48px)"
    replace_children(grid, children)


class StrideView(w.VBox):
    """A DOMWidget over a StrideExplorer model; ``update()`` redraws from the model's state."""

    def __init__(self, model):
        self.model = model
        self.op_buttons = [w.Button(description=op, tooltip=tr("apply {op}", op=f".{op}" if op[0] != "[" else op),
                                    layout=w.Layout(width="auto")) for op in COMMON_OPS]
        for button in self.op_buttons:
            button.on_click(lambda b: model._from_control(model.apply, b.description))
        self.back_button = w.Button(description=tr("Back"), tooltip=tr("undo the last step"), layout=w.Layout(width="70px"))
        self.back_button.on_click(lambda _: model._from_control(model.back))
        self.text = w.Text(placeholder="transpose(0, 1)   [:, ::2]   t().reshape(6)", description="op:",
                           style=LABEL, layout=w.Layout(width="340px"))
        self.apply_button = w.Button(description=tr("Apply"), button_style="primary", layout=w.Layout(width="70px"))
        self.apply_button.on_click(lambda _: model._from_control(self._apply_text))
        self.value = w.FloatText(value=100.0, description=tr("value:"), style=LABEL, layout=w.Layout(width="170px"))
        self.write_button = w.Button(description=tr("Write into selected cell"), layout=w.Layout(width="190px"))
        self.write_button.on_click(lambda _: model._from_control(self._write))
        self.error = w.HTML()
        self.hint = w.HTML()
        self.cells = w.GridBox(layout=w.Layout(grid_gap="0px", align_content="flex-start"))
        self.picture = w.HTML(layout=w.Layout(overflow="auto", flex="1 1 560px", min_width="0"))
        self.expression = w.HTML()
        self._grid_for = None   # (expression, shape) the buttons were made for
        self._cell_layout = w.Layout(**BUTTON)     # one layout shared by every cell button
        super().__init__([
            w.HBox(self.op_buttons + [self.back_button], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.text, self.apply_button, self.value, self.write_button],
                   layout=w.Layout(flex_flow="row wrap")),
            self.error,
            # the picture moves below the click targets when the two do not fit side by side
            w.HBox([w.VBox([self.hint, self.cells], layout=w.Layout(flex="0 0 auto")), self.picture],
                   layout=w.Layout(align_items="flex-start", flex_flow="row wrap", grid_gap="8px")),
            self.expression,
        ])
        self.add_class("tensorlab-stride-explorer")
        self.update()

    def _apply_text(self):
        if self.model.apply(self.text.value) is not None:
            self.text.value = ""

    def _write(self):
        if self.model.selected is None:
            self.model._fail(tr("select a cell first (click it), then Write"))
        else:
            self.model.write(self.model.selected, self.value.value)

    def _cell_buttons(self):
        """One button per element, labelled with its value; the title says which element it is."""
        model, t = self.model, self.model.current
        if t.numel() > 64:
            self.hint.value = "<small>" + tr("{n} elements: too many to click; use <code>select(index)</code>",
                                             n=t.numel()) + "</small>"
            replace_children(self.cells)
            return
        self.hint.value = "<small>" + tr("click a cell:") + "</small>"
        shape = tuple(t.shape)
        cols = min(shape[-1], 8) if len(shape) == 1 else shape[-1] if shape else 1   # 1-D wraps every 8
        fill_click_pad(self.cells, shape, cols, model.expression,
                       lambda index: model._from_control(model.select, index), self._cell_layout)

    def update(self):
        model, t = self.model, self.model.current
        key = (model.expression, tuple(t.shape))
        if key != self._grid_for:
            self._cell_buttons()
            self._grid_for = key
        buttons = [b for b in self.cells.children if isinstance(b, w.Button)]
        if buttons:
            element_values = t.detach().reshape(-1).tolist() if t.dim() else [t.item()]
            written = model.written is not None and model.written[0] == t.untyped_storage().data_ptr()
            for button, value in zip(buttons, element_values):
                button.description = format_value(value)
                hit = written and t[button.index].storage_offset() == model.written[1]
                button.style.button_color = (PALETTE["written"] if hit else PALETTE["selected"]
                                             if button.index == model.selected else None)
        self.error.value = (error_html(model.error) if model.error else
                            status_html(model.status) if model.status else "")
        self.picture.value = model.to_svg()
        self.expression.value = (f"<span style='color:{PALETTE['muted']}'>{tr('expression so far:')}</span> "
                                 f"<code>{escape(model.expression)}</code>")
