"""What every widget shares: a model that draws itself, and a view made the first time it is shown.

A widget's model holds the state and the logic, and can be driven and tested from plain Python.
``.widget`` builds the ipywidgets view (importing ipywidgets only then) and ``refresh()`` redraws it
after the model changes. Displayed in a notebook, a widget sends the live view **and** two fallbacks:
a one-line ``text/plain`` summary and its current drawing as ``text/html`` -- so a notebook opened
without a kernel (nbconvert, GitHub, JupyterLab before you trust it) still shows the picture, and
nbval compares deterministic text, never a random widget id. The fallback holds each drawing as an
``<img>`` of SVG (``_svg.svg_img``): inline ``<svg>`` would be stripped from an untrusted notebook.
"""


def error_text(error):
    """An exception as Python's traceback ends: ``ValueError: the message`` (how PyTorch's errors read)."""
    message = str(error.args[0]) if len(error.args) == 1 else str(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def replace_children(box, children=()):
    """Put ``children`` in ``box`` in place of the ones it holds, then close the old ones. In that
    order: closing a child while its box still shows it lets JupyterLab deliver a queued layout message
    to a view it has already disposed of (``Cannot read properties of null``) in the browser."""
    old = box.children
    box.children = tuple(children)
    for child in old:
        child.close()


class WidgetModel:
    """Base of every widget. Subclasses implement ``summary()``, ``to_html()`` and ``_build_view()``,
    and ``_refresh_view()`` where the view has more than the drawing to update."""

    _view = None
    error = None      # the last bad input or failure, as text: shown in the widget until the next success

    def summary(self):
        return type(self).__name__

    def to_html(self):
        raise NotImplementedError

    def _build_view(self):
        raise NotImplementedError

    def _refresh_view(self):
        pass

    @property
    def widget(self):
        """The ipywidgets view (a DOMWidget), made on first use."""
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def refresh(self):
        """Redraw the view, if there is one, from the model's current state."""
        if self._view is not None:
            self._refresh_view()

    def _from_control(self, action, *args):
        """Run what a button or a text box asked for. An exception raised there -- by your own code (a
        hook, a custom Function's backward) or by a bad value typed in -- would otherwise end up in
        JupyterLab's log console, where nobody looks: show it in the widget, as Python prints it, and
        keep the widget working (it changed nothing)."""
        try:
            return action(*args)
        except Exception as error:  # noqa: BLE001 -- whatever it is, the learner must see it
            self.error = error_text(error)
            self.refresh()
            return None

    def __repr__(self):
        return self.summary()

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        bundle = self.widget._repr_mimebundle_()
        bundle["text/plain"] = self.summary()
        bundle["text/html"] = self.to_html()
        return bundle
