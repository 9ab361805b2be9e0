"""The lessons' own hints in Chinese: one module per lesson (``lessonNN.py``, for coursekit/lessonNN.py),
each a dict ``ZH`` keyed by the English text its checks pass to ``tr()``; coursekit/zh.py merges them."""
import importlib
import pkgutil

LESSONS = {}
for _module in sorted(info.name for info in pkgutil.iter_modules(__path__) if info.name.startswith("lesson")):
    LESSONS.update(importlib.import_module(f".{_module}", __name__).ZH)
