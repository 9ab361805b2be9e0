"""Jupyter widgets that show what tensorlab does inside, drawn from the real objects.

    >>> import widgets
    >>> sorted(widgets.__all__)
    ['BroadcastExplorer', 'DispatchLog', 'GraphExplorer', 'ModuleExplorer', 'StrideExplorer', 'TrainingMonitor']

Each widget is a **model** -- plain Python state and logic you can drive from code and test without a
browser -- with a **view** (ipywidgets 8 controls) made the first time it is displayed. The pictures
are SVG text generated in Python (``widgets/_svg.py``): crisp at any zoom, and byte-identical from one
run to the next, so a lesson's stored output can be compared by nbval. The live view shows them inline;
a stored notebook keeps each one as an ``<img>`` of that SVG, which JupyterLab shows even before you
trust the notebook (``_svg.svg_img``).

``import widgets`` is cheap: a widget's module (and ipywidgets, matplotlib, networkx) is imported only
when you first use that widget's name. tensorlab itself never imports this package.
"""
import importlib

_MODULES = {
    "StrideExplorer": "stride_explorer",
    "BroadcastExplorer": "broadcast_explorer",
    "GraphExplorer": "graph_explorer",
    "ModuleExplorer": "module_explorer",
    "TrainingMonitor": "training_monitor",
    "DispatchLog": "dispatch_log",
}

__all__ = list(_MODULES)


def __getattr__(name):
    """Import a widget's module on first use (PEP 562), not when ``widgets`` is imported."""
    if name not in _MODULES:
        raise AttributeError(f"module 'widgets' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + __all__)
