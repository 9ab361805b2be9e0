"""What every widget shares: a model that draws itself, and a view made the first time it is shown.

A widget's model holds the state and the logic, and can be driven and tested from plain Python.
``.widget`` builds the ipywidgets view (importing ipywidgets only then) and ``refresh()`` redraws it
after the model changes. Displayed in a notebook, a widget sends the live view **and** two fallbacks:
a one-line ``text/plain`` summary and its current drawing as ``text/html`` -- so a notebook opened
without a kernel (nbconvert, GitHub) still shows the picture, and nbval compares deterministic text,
never a random widget id.
"""


class WidgetModel:
    """Base of every widget. Subclasses implement ``summary()``, ``to_html()`` and ``_build_view()``,
    and ``_refresh_view()`` where the view has more than the drawing to update."""

    _view = None

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

    def __repr__(self):
        return self.summary()

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        bundle = self.widget._repr_mimebundle_()
        bundle["text/plain"] = self.summary()
        bundle["text/html"] = self.to_html()
        return bundle
