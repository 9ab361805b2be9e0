"""Progress bars for loops that take more than a couple of seconds.

``progress(iterable)`` is tqdm's ``tqdm.auto``: a widget bar in JupyterLab, a text bar in a terminal.
Show the loss as you go with ``bar.set_postfix(loss=...)``::

    for epoch in progress(range(10), desc="epochs"):
        bar = progress(loader, desc=f"epoch {epoch}", leave=False)
        for x, y in bar:
            ...
            bar.set_postfix(loss=f"{loss.item():.3f}")

tqdm is optional: without it you get a plain iterator with the same methods, which do nothing.
"""

__all__ = ["progress", "trange", "has_tqdm"]


def has_tqdm():
    """Whether tqdm is installed (``pip install tqdm``, or ``pip install tensorlab[vision]``)."""
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


def progress(iterable=None, desc=None, total=None, disable=None, leave=True, unit="it", **kwargs):
    """Wrap ``iterable`` in a progress bar (``tqdm.auto.tqdm``); any other tqdm keyword passes through.

    ``total`` is taken from ``len(iterable)`` when it has one. ``disable=True`` turns the bar off;
    ``None`` (tqdm's rule) turns it off when output is not a terminal or notebook. ``leave=False``
    erases the bar when the loop ends (good for inner loops).
    """
    if not has_tqdm():
        return PlainProgress(iterable, desc=desc, total=total)
    from tqdm.auto import tqdm
    return tqdm(iterable, desc=desc, total=total, disable=disable, leave=leave, unit=unit, **kwargs)


def trange(n, *args, **kwargs):
    """``progress(range(n), ...)``: a counted loop with a bar."""
    return progress(range(n, *args), **kwargs)


class PlainProgress:
    """What ``progress`` returns without tqdm: iterates like the iterable; bar updates are kept, not drawn."""

    def __init__(self, iterable=None, desc=None, total=None):
        self.iterable, self.desc, self.n = iterable, desc, 0
        self.total = total if total is not None or not hasattr(iterable, "__len__") else len(iterable)
        self.postfix = {}

    def __iter__(self):
        for item in self.iterable:
            yield item
            self.n += 1

    def __len__(self):
        if self.total is None:
            raise TypeError("this progress bar has no total: its iterable has no len()")
        return self.total

    def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
        self.postfix = {**(ordered_dict or {}), **kwargs}

    def set_description(self, desc=None, refresh=True):
        self.desc = desc

    def update(self, n=1):
        self.n += n

    def refresh(self):
        pass

    def close(self):
        pass

    def write(self, text):
        print(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
