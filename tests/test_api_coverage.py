"""Which of PyTorch's public names tensorlab has: the missing ones are listed in docs/api_coverage.md,
and this test keeps that list exact -- so it can only shrink.

A name PyTorch has and tensorlab lacks must be in the list (a new gap is a visible decision); a listed
name that tensorlab now has must leave the list (so the list never overstates what is missing).
After adding names, rewrite the list with ``python tests/test_api_coverage.py --write``.
"""
import os
import re
import sys

import pytest

DOC = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "api_coverage.md")
_SECTIONS = {"torch": "torch.", "Tensor": "torch.Tensor."}


def _public(obj):
    """Public names of ``obj``. A lazily imported submodule of torch (``torch.onnx``) shows in
    ``dir(torch)`` only once something imported it: counted always, so the list does not depend on
    what other tests imported first."""
    names = set(dir(obj)) | set(getattr(obj, "_lazy_modules", ()))
    return sorted(n for n in names if not n.startswith("_"))


def _has(obj, name):
    try:
        return hasattr(obj, name)
    except Exception:  # noqa: BLE001 - a lazy attribute that fails to load is not there
        return False


def missing_names(torch):
    """{"torch": [...], "Tensor": [...]}: PyTorch's public names that tensorlab does not have."""
    import tensorlab
    return {"torch": [n for n in _public(torch) if not _has(tensorlab, n)],
            "Tensor": [n for n in _public(torch.Tensor) if not _has(tensorlab.Tensor, n)]}


def listed_names():
    """The names docs/api_coverage.md lists as missing, by section."""
    listed = {key: [] for key in _SECTIONS}
    with open(DOC, encoding="utf-8") as f:
        for line in f:
            match = re.match(r"- `(torch\.Tensor\.|torch\.)(\w+)`", line)
            if match:
                listed["Tensor" if match.group(1) == "torch.Tensor." else "torch"].append(match.group(2))
    return listed


def render(torch, missing):
    import tensorlab
    counts = {"torch": (len(_public(torch)), len(missing["torch"])),
              "Tensor": (len(_public(torch.Tensor)), len(missing["Tensor"]))}
    lines = ["# API coverage: PyTorch's public names that tensorlab does not have yet", "",
             f"Compared with PyTorch {torch.__version__.split('+')[0]}: tensorlab has "
             f"{counts['torch'][0] - counts['torch'][1]} of the {counts['torch'][0]} public `torch.*` names and "
             f"{counts['Tensor'][0] - counts['Tensor'][1]} of the {counts['Tensor'][0]} public `torch.Tensor.*` names.",
             "", "This list is checked by `tests/test_api_coverage.py`: it must name exactly what is missing, so "
             "it only shrinks.", "After adding a name, regenerate it with `python tests/test_api_coverage.py --write` "
             "(needs PyTorch installed).", ""]
    for key, prefix in _SECTIONS.items():
        lines += [f"## `{prefix}*` ({counts[key][1]} missing)", ""]
        lines += [f"- `{prefix}{name}`" for name in missing[key]]
        lines.append("")
    return "\n".join(lines)


def test_the_missing_list_is_exact(torch):
    missing, listed = missing_names(torch), listed_names()
    for key, prefix in _SECTIONS.items():
        new_gaps = sorted(set(missing[key]) - set(listed[key]))
        now_present = sorted(set(listed[key]) - set(missing[key]))
        assert not new_gaps, f"{prefix}{new_gaps} are missing from tensorlab but not listed in docs/api_coverage.md"
        assert not now_present, (f"{prefix}{now_present} exist now: take them off docs/api_coverage.md "
                                 "(python tests/test_api_coverage.py --write)")


def test_the_basics_of_every_tutorial_are_covered(torch):
    """Names every beginner tutorial uses must never appear on the missing list."""
    listed = listed_names()
    for name in ["tensor", "zeros", "ones", "randn", "arange", "cat", "stack", "matmul", "no_grad", "manual_seed",
                 "save", "load", "from_numpy", "float32", "device", "multinomial", "nn", "optim", "utils",
                 "accelerator", "backends", "distributions", "FloatTensor", "LongTensor", "histogram", "diag",
                 "searchsorted", "cosine_similarity", "set_float32_matmul_precision"]:
        assert name not in listed["torch"], name
    for name in ["backward", "view", "reshape", "to", "item", "numpy", "add_", "zero_", "uniform_", "multinomial",
                 "diag", "histogram", "type", "scatter_", "new_ones"]:
        assert name not in listed["Tensor"], name


if __name__ == "__main__" and "--write" in sys.argv:
    import torch as _torch
    with open(DOC, "w", encoding="utf-8") as _f:
        _f.write(render(_torch, missing_names(_torch)))
    print(f"wrote {os.path.normpath(DOC)}")
elif __name__ == "__main__":
    pytest.main([__file__, "-q"])
