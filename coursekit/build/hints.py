"""Classic mistakes, recognised by what they give, and named in a hint.

Each mistake is a probe: one call of the learner's function whose wrong answer is the fingerprint of
that mistake (``contiguous_strides((2, 3, 4))`` giving ``(1, 2, 6)`` is column-major order). A probe
matches only the wrong answer it names, so a hint never accuses correct code; grading shows the
hints of every mistake that matches. tests/test_build_track.py writes each mistake into the reference
solution and checks that grading names it.

A mistake's name and hint are written with tr() where they are defined: at import, in the language of
the grading process (:func:`coursekit.build.grade.grade` passes the learner's on to it); imported in
English, they are the keys of the Chinese catalog (coursekit/_zh_lessons/lesson_build.py) and the
report translates them when it shows them.

    >>> [m.name for m in MISTAKES[1]][:2]
    ['column-major strides', 'size-0 dims']
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import tr
from .cases import _call_unbroadcast, outcome, plain


@dataclass(frozen=True)
class Mistake:
    name: str
    function: str
    args: tuple
    wrong: object            # what the mistaken code returns (plain data), or a test of the outcome
    hint: str
    call: object = None      # how to call the function, as in a Case

    def seen_in(self, functions):
        """True when the learner's function gives this mistake's answer."""
        function = functions.get(self.function)
        if function is None:
            return False
        got = outcome(lambda: (self.call or (lambda f, *a: f(*a)))(function, *self.args))
        if callable(self.wrong):
            return bool(self.wrong(got))
        return got == {"value": plain(self.wrong)}


def _unbroadcast_gives(shape, values):
    return {"shape": list(shape), "values": values}


MISTAKES = {
    1: [
        Mistake(tr("column-major strides"), "contiguous_strides", ((2, 3, 4),), (1, 2, 6),
                tr("The strides come out in column-major (Fortran) order. In PyTorch the LAST dim moves "
                   "fastest: its stride is 1, and each stride to its left is the product of the sizes to "
                   "its right -- walk the shape from the right.")),
        Mistake(tr("size-0 dims"), "contiguous_strides", ((2, 0, 3),), (0, 3, 1),
                tr("A size-0 dim made the strides to its left 0. PyTorch counts a size-0 dim as size 1 "
                   "when it multiplies the strides (max(size, 1)), so (2, 0, 3) has strides (3, 3, 1).")),
        Mistake(tr("strides of size-1 dims"), "is_contiguous", ((2, 1), (1, 7)), False,
                tr("A dim of size 1 is never stepped along, so its stride can be anything: PyTorch skips "
                   "size-1 dims when it checks contiguity ((2, 1) with strides (1, 7) is contiguous).")),
        Mistake(tr("offset forgotten"), "memory_position", ((1, 2), (3, 1), 4), 5,
                tr("The storage offset is missing: a view that starts at position 4 puts element (1, 2) at "
                   "4 + 1*3 + 2*1 = 9.")),
        Mistake(tr("span one short"), "storage_span", ((2, 3), (3, 1), 0), 5,
                tr("The span is one short: the last element sits at offset + sum((n - 1) * stride), and "
                   "the storage must hold it, so the span is that position + 1.")),
        Mistake(tr("view only of contiguous tensors"), "view_strides", ((2, 4), (8, 1), (2, 2, 2)), None,
                tr("view() refused a tensor that is not contiguous as a whole but is contiguous inside each "
                   "row (strides (8, 1)): PyTorch cuts the old dims into chunks of mutually contiguous dims "
                   "and only needs each new dim group to fall inside one chunk.")),
        Mistake(tr("view ignores strides"), "view_strides", ((3, 2), (1, 3), (6,)), (1,),
                tr("A transposed matrix was flattened as a view: its rows are not evenly spaced in memory, "
                   "so no single stride can walk them in order -- PyTorch says a view is impossible (None "
                   "here; reshape then copies).")),
    ],
    2: [
        Mistake(tr("aligned from the left"), "broadcast_shapes", ((5, 1), (5,)), (5, 1),
                tr("The shapes were lined up from the left. Broadcasting aligns them on the RIGHT: (5,) "
                   "meets the last dim of (5, 1), so the result is (5, 5).")),
        Mistake(tr("sizes not checked"), "broadcast_shapes", ((3,), (4,)), (4,),
                tr("Sizes 3 and 4 were combined by taking the larger one. Two sizes broadcast only when "
                   "they are equal or one of them is 1; otherwise PyTorch raises RuntimeError ('The size "
                   "of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0').")),
        Mistake(tr("stretched dim keeps its stride"), "expand_strides", ((3, 1), (1, 1), (3, 4)),
                ((3, 4), (1, 1)),
                tr("A stretched size-1 dim kept its old stride, so the view walks off into other memory. "
                   "expand() repeats the one element by giving that dim stride 0.")),
        Mistake(tr("new leading dims not stride 0"), "expand_strides", ((3,), (1,), (2, 3)), ((2, 3), (3, 1)),
                tr("The new leading dim got a contiguous stride, as if the tensor were copied. A new dim "
                   "that expand() adds reads the same memory again: stride 0.")),
        Mistake(tr("broadcast dims not summed"), "unbroadcast", ((3, 4), (3, 1)),
                _unbroadcast_gives((3, 4), [[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]),
                tr("The gradient still has the broadcast shape (3, 4). An input of shape (3, 1) was used "
                   "4 times along dim 1, so its gradient is the SUM over that dim, kept as size 1: "
                   "grad.sum(1, keepdim=True)."), _call_unbroadcast),
        Mistake(tr("leading dims not summed"), "unbroadcast", ((2, 3), (3,)),
                _unbroadcast_gives((2, 3), [[0., 1., 2.], [3., 4., 5.]]),
                tr("The gradient kept the leading dim that broadcasting added. A (3,) input added to a "
                   "(2, 3) one is used once per row: sum the gradient over the new leading dims."),
                _call_unbroadcast),
        Mistake(tr("mean instead of sum"), "unbroadcast", ((2, 3), (3,)), _unbroadcast_gives((3,), [1.5, 2.5, 3.5]),
                tr("The gradient was averaged over the broadcast dims. Each use of a broadcast input adds "
                   "its own contribution, so the gradients add up: sum, not mean."), _call_unbroadcast),
    ],
}


def _from_case(stage, name, function, shown, seen, hint):
    """A mistake recognised in the outcome of one of the stage's cases (see hints_ops.py)."""
    from .cases import CASES
    which = next(c for c in CASES[stage] if c.function == function and c.show().startswith(shown))
    return Mistake(name, function, which.args, lambda got: seen(which, got), hint, which.call)


def _later_stages():
    from .hints_conv import MISTAKES8
    from .hints_engine import MISTAKES5
    from .hints_graph import MISTAKES4
    from .hints_module import MISTAKES6
    from .hints_optim import MISTAKES7
    from .hints_ops import MISTAKES3
    MISTAKES[3] = [_from_case(3, *entry) for entry in MISTAKES3]
    MISTAKES[4] = [_from_case(4, *entry) for entry in MISTAKES4]
    MISTAKES[5] = [_from_case(5, *entry) for entry in MISTAKES5]
    MISTAKES[6] = [_from_case(6, *entry) for entry in MISTAKES6]
    MISTAKES[7] = [_from_case(7, *entry) for entry in MISTAKES7]
    MISTAKES[8] = [_from_case(8, *entry) for entry in MISTAKES8]


_later_stages()


def mistakes_seen(stage, functions):
    """The mistakes of ``stage`` that the learner's ``functions`` ({name: function}) show."""
    return [m for m in MISTAKES.get(stage, []) if m.seen_in(functions)]
