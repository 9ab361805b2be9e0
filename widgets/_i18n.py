"""The widgets speak the lesson's language: English, or Chinese in the Chinese edition (course/zh/).

``tr("{n} elements", n=6)`` looks the English text up in ``widgets/_zh.py`` when the lesson is
Chinese (coursekit/language.py decides: a kernel started in course/zh/, or TENSORLAB_LANG=zh).
PyTorch's error messages are shown as PyTorch prints them, in either language.
"""
from coursekit.language import language, translator  # noqa: F401 - language is part of this module's API


def _catalog():
    from ._zh import ZH
    return ZH


tr = translator(_catalog)


def text_width(text, size):
    """About how wide ``text`` is in a monospace font of ``size`` px: a Latin character is 0.6 of
    the size, a Chinese one (full width) a whole size."""
    import unicodedata
    return sum(size if unicodedata.east_asian_width(c) in "WF" else 0.6 * size for c in str(text))
