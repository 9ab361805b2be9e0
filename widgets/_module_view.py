"""The ModuleExplorer's controls (ipywidgets): a collapsible tree with a requires_grad checkbox per
parameter, a tri-state box per module, a name box with Freeze / Unfreeze, and the state_dict keys.

No custom JavaScript: a module is a VBox whose body is hidden or shown by its ▾/▸ button, and every
checkbox calls the model (``set_requires_grad``), which then redraws the whole view from the real
parameters -- so what the boxes show is always what the model holds. A module's box is a small
Button showing ✓ (all its parameters train), – (some do: partly frozen) or nothing (all frozen), as a
tri-state checkbox would (an ipywidgets Checkbox has only two states); clicking it freezes a fully
trainable module and unfreezes any other.
"""
import ipywidgets as w
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from .module_explorer import (buffer_html, deeper_text, header_html, hook_html, member_html, partial_mark,
                              state_dict_html)
from ._base import replace_children
from ._i18n import tr
from ._svg import PALETTE, error_html, escape


# The blank state of a module's box: a Button keeps its old text when told to show "" (ipywidgets 8
# only rewrites a button's text when the new one is not empty), so "nothing" is a no-break space.
BLANK = "\u00a0"


class ModuleView(w.VBox):
    """A DOMWidget over a ModuleExplorer; ``update()`` redraws it from the model."""

    def __init__(self, model):
        self.model = model
        self._updating = False          # True while update() sets checkboxes: not the learner's clicks
        # One Layout and one style shared by the many rows: each is a widget model of its own, and every
        # model is sent to the browser and stored in the notebook.
        self._plain = w.Layout()
        self._box_layout, self._toggle_layout = w.Layout(width="22px"), w.Layout(width="28px", padding="0")
        self._tri_layout = w.Layout(width="28px", padding="0", margin="0 4px 0 0", border="1px solid #767676")
        self._box_style, self._html_style, self._button_style = CheckboxStyle(), HTMLStyle(), w.ButtonStyle()
        self.heading = w.HTML()
        self.message = w.HTML()
        self.name_box = w.Text(placeholder=tr("a module or parameter, e.g. features.0 or classifier.1.weight"),
                               layout=w.Layout(width="360px"))
        self.freeze_button = w.Button(description=tr("Freeze"), layout=w.Layout(width="80px"))
        self.unfreeze_button = w.Button(description=tr("Unfreeze"), layout=w.Layout(width="90px"))
        self.refresh_button = w.Button(description=tr("Refresh"), tooltip=tr("read the model again (new hooks, grads)"),
                                       layout=w.Layout(width="80px"))
        self.freeze_button.on_click(lambda _: model._from_control(model.freeze, self.name_box.value.strip()))
        self.unfreeze_button.on_click(lambda _: model._from_control(model.unfreeze, self.name_box.value.strip()))
        self.refresh_button.on_click(lambda _: model._from_control(model.refresh))
        self.nodes = {}                 # module name -> its header checkbox, body, toggle
        self.param_boxes = {}           # parameter name -> its checkbox
        self.tree_box = w.VBox()
        self.keys_html = w.HTML()
        controls = w.HBox([self.name_box, self.freeze_button, self.unfreeze_button, self.refresh_button])
        super().__init__([self.heading, controls, self.message, self.tree_box, self.keys_html])
        self.add_class("tensorlab-module-explorer")
        self.update()

    # -- building the tree ---------------------------------------------------------------------------
    def _checkbox(self, name):
        box = w.Checkbox(value=True, indent=False, description="",
                         tooltip=tr("requires_grad of {name}", name=name or tr("the model")),
                         layout=self._box_layout, style=self._box_style)
        box.observe(lambda change: self._on_toggle(name, change["new"]), names="value")
        return box

    def _module_box(self, name):
        """A module's tri-state box (see the module docstring)."""
        box = w.Button(description=BLANK, tooltip=tr("requires_grad of {name}", name=name or tr("the model")),
                       layout=self._tri_layout, style=self._button_style)
        box.add_class("tensorlab-tristate")
        box.on_click(lambda _: self.model._from_control(self._on_module_box, name, box))
        return box

    def _on_module_box(self, name, box):
        self.model.set_requires_grad(name, box.description != "✓")   # all train: freeze; else: unfreeze

    def _build_node(self, node, depth):
        name = node["name"]
        # a module with nothing inside (ReLU) has nothing to open: its button stays blank
        empty = not (node["parameters"] or node["buffers"] or node["children"])
        opened = empty or depth < self.model.expand_depth
        toggle = w.Button(description="" if empty else "▾" if opened else "▸", disabled=empty,
                          layout=self._toggle_layout, style=self._button_style,
                          tooltip="" if empty else tr("open or close {name}", name=name or tr("the model")))
        box = self._module_box(name)
        header = self._html()
        rows = []
        for p in node["parameters"]:
            self.param_boxes[p["name"]] = self._checkbox(p["name"])
            rows.append(w.HBox([self.param_boxes[p["name"]], self._html()], layout=self._plain))
        rows += [self._html(buffer_html(b)) for b in node["buffers"]]
        hooks = w.VBox(layout=self._plain)
        rows.append(hooks)
        rows += [self._build_node(child, depth + 1) for child in node["children"]]
        if node["deeper"]:
            rows.append(self._html(f"<span style='font-family:monospace;font-size:12px;color:{PALETTE['muted']}'>"
                                   f"{escape(deeper_text(node))}</span>"))
        body = w.VBox(rows, layout=w.Layout(margin="0 0 0 30px", display="" if opened else "none"))
        toggle.on_click(lambda _: self._toggle(name))
        self.nodes[name] = {"toggle": toggle, "box": box, "header": header, "body": body, "hooks": hooks,
                            "rows": rows}
        return w.VBox([w.HBox([toggle, box, header], layout=self._plain), body], layout=self._plain)

    def _html(self, value=""):
        return w.HTML(value, layout=self._plain, style=self._html_style)

    def _toggle(self, name):
        """Open or close one module's body (pure view state: the model does not change)."""
        node = self.nodes[name]
        closed = node["body"].layout.display == "none"
        node["body"].layout.display = "" if closed else "none"
        node["toggle"].description = "▾" if closed else "▸"

    def _on_toggle(self, name, flag):
        if not self._updating:
            self.model._from_control(self.model.set_requires_grad, name, flag)

    def _shape(self, node):
        """The tree's shape (module and parameter names): rebuilt only when the model's structure changed."""
        names = [(node["name"], tuple(p["name"] for p in node["parameters"]), len(node["buffers"]))]
        for child in node["children"]:
            names += self._shape(child)
        return names

    # -- redrawing -----------------------------------------------------------------------------------
    def update(self):
        model, tree = self.model, self.model.tree()
        if getattr(self, "_built_shape", None) != self._shape(tree):
            self.nodes, self.param_boxes = {}, {}
            self.tree_box.children = [self._build_node(tree, 0)]
            self._built_shape = self._shape(tree)
        self._updating = True
        try:
            self._fill(tree)
        finally:
            self._updating = False
        self.heading.value = f"<b style='font-family:monospace'>{escape(model.summary())}</b>"
        if model.error:
            self.message.value = error_html(model.error)
        elif model.status:
            self.message.value = f"<div style='color:{PALETTE['ok']};font-family:monospace'>{escape(model.status)}</div>"
        else:
            self.message.value = ""
        self.keys_html.value = f"<div style='font-family:monospace;font-size:12px'>{state_dict_html(model.state_dict_keys())}</div>"

    def _fill(self, node):
        view = self.nodes[node["name"]]
        view["header"].value = f"<span style='font-family:monospace;font-size:12px'>{header_html(node)}</span>"
        view["box"].description = partial_mark(node) or BLANK
        view["box"].disabled = node["total"] == 0
        for p, row in zip(node["parameters"], view["rows"]):
            self.param_boxes[p["name"]].value = p["requires_grad"]
            row.children[1].value = f"<span style='font-family:monospace;font-size:12px'>{member_html(p)}</span>"
        hooks = [f"<span style='font-family:monospace;font-size:12px'>{hook_html(h)}</span>" for h in node["hooks"]]
        if [row.value for row in view["hooks"].children] != hooks:   # new rows only when the hooks changed
            replace_children(view["hooks"], [self._html(text) for text in hooks])
        for child in node["children"]:
            self._fill(child)
