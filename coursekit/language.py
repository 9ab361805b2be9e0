"""The language the checks and the widgets speak: English, or Chinese in the Chinese edition.

A lesson of the Chinese edition lives in course/zh/ (a build notebook in course/zh/build/) and its
kernel runs there, so that is how the language is chosen -- the code cells of both editions are the
same, character for character (tools/translate.py). ``TENSORLAB_LANG=zh`` (or ``en``) overrides it, e.g. for a script.

Every message a learner reads is written in English and passed through :func:`tr`, which looks it
up in a catalog of translations (``coursekit/zh.py`` for the checks, ``widgets/_zh.py`` for the
widgets) and fills in its ``{fields}``::

    tr("Not yet: {what}", what=found)

The English text is the key, so a message changed in English without its translation is simply
untranslated; tests/test_translations.py finds every ``tr("...")`` in the code and fails on one with
no translation -- the same rule as for the lessons' Markdown.

PyTorch's own error messages are never translated: they are what a search engine and PyTorch's
forums know. A Chinese explanation goes beside them.
"""
import os
from pathlib import Path

LANGUAGES = ("en", "zh")


def language():
    """``"zh"`` in a kernel started in course/zh/ or course/zh/build/ (or with TENSORLAB_LANG=zh),
    else ``"en"``."""
    chosen = os.environ.get("TENSORLAB_LANG", "").lower()
    if chosen:
        return "zh" if chosen.startswith("zh") else "en"
    here = Path.cwd()
    return "zh" if here.name == "zh" or (here.name, here.parent.name) == ("build", "zh") else "en"


def translator(load_catalog):
    """A ``tr(english, **fields)`` function over the catalog ``load_catalog()`` returns (imported on
    first use in Chinese, never in English).

    >>> tr = translator(lambda: {"{n} nodes": "{n} 个节点"})
    >>> tr("{n} nodes", n=3)
    '3 nodes'
    """
    catalogs = {}

    def tr(english, **fields):
        text = english
        if language() == "zh":
            if "zh" not in catalogs:
                catalogs["zh"] = load_catalog()
            text = catalogs["zh"].get(english, english)
        return text.format(**fields) if fields else text

    return tr


def _coursekit_catalog():
    from .zh import ZH
    return ZH


tr = translator(_coursekit_catalog)
