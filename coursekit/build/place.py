"""Putting a function in place inside tensorlab, and taking it out again.

A marked region is either a module-level function (``expand_back``) or a method of a class
(``Mul.backward``). :func:`put` makes tensorlab call a new function there: for a method, the class
attribute (re-wrapped as a staticmethod or classmethod if tensorlab's was one); for a function, the
attribute of its module and of every tensorlab module that imported it by name. The first time a
region is replaced, tensorlab's own function is remembered (:func:`original`), so that a case can
test one of the learner's functions with everything else of its stage tensorlab's (:func:`only`).
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import sys

_ORIGINALS = {}    # (module, qualname) -> tensorlab's own function


def _key(region):
    return region.module, region.qualname


def in_place(region):
    """The function tensorlab calls for this region now (a plain function, also for a staticmethod)."""
    module = importlib.import_module(region.module)
    if region.owner:
        found = inspect.getattr_static(getattr(module, region.owner), region.attr)
        return found.__func__ if isinstance(found, (staticmethod, classmethod)) else found
    return getattr(module, region.attr)


def original(region):
    """tensorlab's own function for this region (the one in place, if nothing was ever replaced)."""
    return _ORIGINALS.get(_key(region)) or in_place(region)


def put(region, new):
    """Make tensorlab call ``new`` for this region; returns how many references changed."""
    _ORIGINALS.setdefault(_key(region), in_place(region))
    module = importlib.import_module(region.module)
    if region.owner:
        owner = getattr(module, region.owner)
        old = inspect.getattr_static(owner, region.attr)
        wrapper = type(old) if isinstance(old, (staticmethod, classmethod)) else None
        setattr(owner, region.attr, wrapper(new) if wrapper else new)
        return 1
    old, changed = getattr(module, region.attr), 0
    for other in list(sys.modules.values()):
        name = getattr(other, "__name__", "") or ""
        if name.split(".")[0] not in ("tensorlab", "coursekit", "widgets"):
            continue
        for key, value in list(vars(other).items()):
            if value is old:
                setattr(other, key, new)
                changed += 1
    return changed


@contextlib.contextmanager
def only(found, name, function):
    """Inside the block, ``function`` stands in the region called ``name`` and tensorlab's own
    functions in the other regions of ``found``; afterwards each region gets back what it had."""
    before = {_key(r): in_place(r) for r in found}
    try:
        for region in found:
            put(region, function if region.name == name else original(region))
        yield
    finally:
        for region in found:
            put(region, before[_key(region)])
