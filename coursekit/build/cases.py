"""The small cases each stage is graded on first: one call of a learner's function, PyTorch's answer.

A case is an input the learner can read ("contiguous_strides((2, 0, 3))") and a way to get the right
answer from PyTorch itself ("torch.empty(2, 0, 3).stride()"). With PyTorch installed the answer is
computed afresh; without it, the answer recorded from PyTorch in ``reference.json`` is used
(``python -m coursekit.build record`` rewrites it; tests/test_build_track.py checks it is current).
Results are compared as plain data: tuples become lists, a tensor becomes its shape and values, an
exception becomes its type and message (the learner's message must contain PyTorch's).

    >>> outcome(lambda: (2, 3))
    {'value': [2, 3]}
    >>> outcome(lambda: 1 / 0)
    {'error': 'ZeroDivisionError', 'message': 'division by zero'}
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..language import tr

REFERENCE = Path(__file__).with_name("reference.json")


def plain(value):
    """JSON-able data for a result: lists for tuples, shape and values for a tensor or array."""
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "shape") and hasattr(value, "tolist") and not isinstance(value, (int, float)):
        return {"shape": [int(n) for n in value.shape], "values": value.tolist()}
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    return value


def outcome(thunk):
    """``{"value": ...}`` or ``{"error": type name, "message": ...}`` for calling ``thunk()``."""
    try:
        return {"value": plain(thunk())}
    except Exception as error:  # noqa: BLE001 - any failure of learner code is an outcome
        return {"error": type(error).__name__, "message": str(error)}


def agrees(got, expected):
    """True when the learner's outcome matches PyTorch's."""
    if "error" in expected:
        return got.get("error") == expected["error"] and expected["message"] in got.get("message", "")
    return got == expected


def describe(result):
    """An outcome in words, for the grading report (in the learner's language; PyTorch's error
    message stays as it is)."""
    if "error" in result:
        return tr("raises {error}: {message}", error=result["error"], message=result["message"])
    value = result["value"]
    if isinstance(value, dict) and "shape" in value:
        return tr("a tensor of shape {shape}: {values}", shape=tuple(value["shape"]), values=value["values"])
    if isinstance(value, dict):   # named results: out, dtype, a.grad, ...
        return "; ".join(f"{said(name)} = {_short(v)}" for name, v in value.items())
    return repr(tuple(value) if isinstance(value, list) else value)


def _short(value):
    if isinstance(value, dict) and "shape" in value:
        return f"{value['values']}" if value["shape"] else tr("{values} (0-dim)", values=value["values"])
    return repr(tuple(value) if isinstance(value, list) else value)


def said(name):
    """The name of a result as the report says it: code (``a.grad``, ``order``) stays code, the few
    names that are words are said in the learner's language."""
    words = {"same node": tr("same node"), "points at x": tr("points at x"), "edges": tr("edges"),
             "name": tr("name"), "order": tr("order"), "after eval()": tr("after eval()"),
             "after train()": tr("after train()"), "eval() returns the model": tr("eval() returns the model"),
             "state_dict keys": tr("state_dict keys"), "p after step 1": tr("p after step 1"),
             "p after step 3": tr("p after step 3"), "p keeps its memory": tr("p keeps its memory")}
    return words.get(name, name)


@dataclass(frozen=True)
class Case:
    stage: int
    function: str
    args: tuple
    pytorch: object          # callable(torch, *args) -> PyTorch's answer
    call: object = None      # callable(function, *args) -> the learner's answer; default function(*args)
    shown: str = ""          # the input in words, when the arguments alone do not say it (in English:
                             # hints find their case by it)
    told: object = None      # callable() -> ``shown`` in the learner's language, when it holds words

    @property
    def id(self):
        return f"{self.function}{self.args!r}"

    def show(self):
        return self.shown or f"{self.function}({', '.join(map(repr, self.args))})"

    def tell(self):
        """The input as the grading report shows it: :meth:`show`, its words in the learner's language."""
        return self.told() if self.told else self.show()

    def run(self, function):
        return outcome(lambda: (self.call or (lambda f, *a: f(*a)))(function, *self.args))

    def expected(self, torch=None):
        """PyTorch's answer: computed with ``torch`` when given, else the recorded one."""
        if torch is not None:
            return outcome(lambda: self.pytorch(torch, *self.args))
        return _recorded()[str(self.stage)][self.id]


_RECORDED = {}


def _recorded():
    if not _RECORDED:
        _RECORDED.update(json.loads(REFERENCE.read_text(encoding="utf-8")))
    return _RECORDED


# -- stage 1: strides and views ---------------------------------------------------------------------


def _strided(torch, shape, strides, offset=0):
    """A PyTorch tensor with this layout over a storage big enough for it."""
    return torch.arange(200.0).as_strided(shape, strides, offset)


def _torch_view_strides(torch, shape, strides, new_shape):
    try:
        return tuple(_strided(torch, shape, strides).view(new_shape).stride())
    except RuntimeError:
        return None


def _torch_storage_span(torch, shape, strides, offset=0):
    """The smallest storage PyTorch's as_strided accepts for this layout."""
    for size in range(0, 200):
        try:
            torch.empty(size).as_strided(shape, strides, offset)
            return size if 0 not in shape else 0
        except RuntimeError:
            continue
    return None


STAGE1 = [Case(1, "contiguous_strides", (shape,), lambda torch, s: tuple(torch.empty(s).stride()))
          for shape in [(4,), (2, 3), (2, 3, 4), (5, 1, 1), (2, 0, 3), (1, 4, 1), ()]]
STAGE1 += [Case(1, "is_contiguous", layout, lambda torch, s, st: _strided(torch, s, st).is_contiguous())
           for layout in [((2, 3), (3, 1)), ((3, 2), (1, 3)), ((2, 1), (1, 7)), ((2, 3), (6, 2)),
                          ((1, 3), (9, 1)), ((3, 1, 2), (2, 5, 1)), ((4, 4), (1, 1)), ((0, 3), (5, 5))]]
STAGE1 += [Case(1, "memory_position", args,
                lambda torch, i, st, off: int(_strided(torch, tuple(n + 1 for n in i), st, off)[i].item()))
           for args in [((1, 2), (3, 1), 0), ((1, 2), (1, 3), 0), ((1, 2), (3, 1), 4), ((2, 0, 1), (6, 2, 1), 1)]]
STAGE1 += [Case(1, "storage_span", args, _torch_storage_span)
           for args in [((2, 3), (3, 1), 0), ((2, 3), (1, 2), 0), ((2, 3), (3, 1), 4), ((3, 4), (1, 0), 0),
                        ((0, 3), (3, 1), 0)]]
STAGE1 += [Case(1, "view_strides", args, _torch_view_strides)
           for args in [((2, 3), (3, 1), (3, 2)), ((2, 3), (3, 1), (6,)), ((3, 2), (1, 3), (6,)),
                        ((2, 4), (8, 1), (2, 2, 2)), ((2, 4), (8, 1), (8,)), ((2, 1, 3), (3, 7, 1), (6,)),
                        ((2, 3, 4), (12, 1, 3), (2, 12)), ((2, 3, 4), (12, 1, 3), (6, 4)),
                        ((4,), (2,), (2, 2)), ((6,), (1,), (1, 6, 1))]]


# -- stage 2: broadcasting ---------------------------------------------------------------------------


def _torch_expand(torch, shape, strides, new_shape):
    t = _strided(torch, shape, strides).expand(*new_shape)
    return tuple(t.shape), tuple(t.stride())


def _grad(module, grad_shape):
    """The incoming gradient of a case: 0, 1, 2, ... in float64."""
    values = np.arange(float(np.prod(grad_shape))).reshape(grad_shape)
    return module.tensor(values) if module.__name__ == "tensorlab" else module.from_numpy(values)


def _call_unbroadcast(function, grad_shape, shape):
    import tensorlab
    return function(_grad(tensorlab, grad_shape), shape)


def _torch_unbroadcast(torch, grad_shape, shape):
    x = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    x.expand(grad_shape).backward(_grad(torch, grad_shape))
    return x.grad


def _torch_broadcast(torch, *shapes):
    """The shape an elementwise op gives, and its error (what tensorlab's ops say too)."""
    result = torch.zeros(shapes[0])
    for shape in shapes[1:]:
        result = result + torch.zeros(shape)
    return tuple(result.shape)


STAGE2 = [Case(2, "broadcast_shapes", shapes, _torch_broadcast)
          for shapes in [((3, 1), (4,)), ((2, 3), (3,)), ((5, 1), (5,)), ((2, 1, 3), (4, 1)), ((1,), (2, 1, 1)),
                         ((3,), (4,)), ((2, 3), (4, 3)), ((0,), (1,)), ((2, 1), (3,), (4, 1)), ((),)]]
STAGE2 += [Case(2, "expand_strides", args, _torch_expand)
           for args in [((3, 1), (1, 1), (3, 4)), ((3,), (1,), (2, 3)), ((3,), (1,), (2, -1)),
                        ((1, 4), (4, 1), (3, 4)), ((3, 1), (1, 1), (1, 3, 4)), ((3, 4), (4, 1), (2, 5)),
                        ((2, 1), (5, 5), (2, 2, 3))]]
UNBROADCAST = "unbroadcast(grad, {shape}) with grad = arange of shape {grad_shape}"
STAGE2 += [Case(2, "unbroadcast", args, _torch_unbroadcast, _call_unbroadcast,
                UNBROADCAST.format(shape=args[1], grad_shape=args[0]),
                lambda args=args: tr(UNBROADCAST, shape=args[1], grad_shape=args[0]))
           for args in [((2, 3), (2, 3)), ((2, 3), (3,)), ((3, 4), (3, 1)), ((2, 3, 4), (3, 1)),
                        ((2, 3, 4), (1, 1, 4)), ((4, 2), ()), ((2, 3), (1, 3))]]

CASES = {1: STAGE1, 2: STAGE2}


def _later_stages():
    """Stage 3 onwards keep their cases in their own modules (they build on the helpers above)."""
    from .cases_engine import STAGE5
    from .cases_graph import STAGE4
    from .cases_module import STAGE6
    from .cases_conv import STAGE8
    from .cases_ops import STAGE3
    from .cases_optim import STAGE7
    CASES[3], CASES[4], CASES[5], CASES[6], CASES[7], CASES[8] = STAGE3, STAGE4, STAGE5, STAGE6, STAGE7, STAGE8


_later_stages()


def record():
    """Recompute every case's answer with PyTorch and store them in reference.json."""
    import torch

    from . import capstone
    data = {str(stage): {case.id: case.expected(torch) for case in cases} for stage, cases in CASES.items()}
    data["capstone"] = capstone.record(torch)    # the capstone CNN's losses (coursekit/build/capstone.py)
    stages = [f' "{stage}": {{\n' + ",\n".join(f"  {json.dumps(key)}: {json.dumps(value)}"
                                             for key, value in sorted(answers.items())) + "\n }"
              for stage, answers in data.items()]
    REFERENCE.write_text("{\n" + ",\n".join(stages) + "\n}\n", encoding="utf-8")
    _RECORDED.clear()
    return REFERENCE


#: Filled while grading: {pytest node id: the failing case's input and both answers}.
FAILURES = {}
