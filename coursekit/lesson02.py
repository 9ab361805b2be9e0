"""Exercise checks of course/02_storage_and_strides.ipynb (reference solutions:
coursekit/solutions/lesson02.py).

    >>> _ = check_layouts(solution.layouts)
    Correct! Strides describe memory; views only rearrange them, copies start afresh.
"""
from .check import Case, Question, check_function, check_predictions
from .compare import is_tensor
from .language import tr
from .solutions import lesson02 as solution


def _t(torch):
    return torch.zeros(2, 3, 4)


def _row_major(shape):
    """The strides a fresh tensor of ``shape`` gets (what a learner may compute by mistake)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


# -- exercise 1: predict strides and offsets ---------------------------------------------------------

def _why_row_major(predicted, truth):
    if predicted == (1, 2, 6):
        return (tr("That is column-major (Fortran) order. PyTorch is row-major: the *last* index moves "
                   "through neighbouring elements, so its stride is 1; each stride is the product of the sizes to "
                   "its right."))
    return tr("Row-major: the last dim has stride 1, and each stride is the product of the sizes to its right.")


def _why_permute(predicted, truth):
    if predicted == (12, 4, 1) or predicted == _row_major((4, 2, 3)):
        return (tr("permute moves no data, so the strides cannot be those of a fresh (4, 2, 3) tensor: new dim k takes "
                   "old dim dims[k] *with its stride* -- reorder t.stride() the way the dims are reordered."))
    return tr("permute reorders the (size, stride) pairs: new dim k is old dim dims[k], stride and all.")


LAYOUT_QUESTIONS = [
    Question("t.stride()", lambda torch: _t(torch).stride(), _why_row_major),
    Question("t.stride(1)", lambda torch: _t(torch).stride(1),
             tr("stride(dim) is one entry of stride(): how far to move in storage for one step along dim 1.")),
    Question("t.permute(2, 0, 1).stride()", lambda torch: _t(torch).permute(2, 0, 1).stride(), _why_permute),
    Question("t.transpose(0, 1).stride()", lambda torch: _t(torch).transpose(0, 1).stride(),
             tr("transpose swaps two (size, stride) pairs and leaves the rest alone; nothing moves in memory.")),
    Question("t[:, 1].stride()", lambda torch: _t(torch)[:, 1].stride(),
             tr("An integer index removes its dim (it only adds 1*stride[1] to the offset); the dims that stay "
                "keep their strides -- so this (2, 4) tensor has a gap between its rows.")),
    Question("t[..., ::2].stride()", lambda torch: _t(torch)[..., ::2].stride(),
             tr("A slice with step k multiplies that dim's stride by k (every k-th element); the other dims are "
                "untouched.")),
    Question("t[1, 2:].storage_offset()", lambda torch: _t(torch)[1, 2:].storage_offset(),
             tr("The view starts at element [1, 2, 0] of t: its offset is the sum of index * stride over t's dims.")),
    Question("t.permute(2, 0, 1).contiguous().stride()",
             lambda torch: _t(torch).permute(2, 0, 1).contiguous().stride(),
             tr("contiguous() of a non-contiguous tensor copies it into a fresh row-major layout of its *current* "
                "shape, (4, 2, 3).")),
]


def check_layouts(answer):
    """Exercise 1: the 8 strides (tuples), stride (int) and offset (int) of the table, in order."""
    return check_predictions(answer, LAYOUT_QUESTIONS,
                             what=tr("a tuple of 8 answers -- a tuple of strides, or an int for lines 2 and 7 -- "
                                     "one per line of the table"),
                             note=tr("Strides describe memory; views only rearrange them, copies start afresh."))


# -- exercise 2: the position formula --------------------------------------------------------------

POSITION_CASES = [
    Case(tr("{t}, index {index}", t="t = torch.zeros(2, 3, 4)", index=(1, 2, 3)),
         lambda torch: (torch.zeros(2, 3, 4), (1, 2, 3))),
    Case(tr("{t}, index {index}", t="t = torch.zeros(3, 4).t()", index=(3, 1)),
         lambda torch: (torch.zeros(3, 4).t(), (3, 1))),
    Case(tr("{t}, index {index}", t="t = torch.zeros(2, 3, 4)[:, 1:, ::2]", index=(1, 0, 1)),
         lambda torch: (torch.zeros(2, 3, 4)[:, 1:, ::2], (1, 0, 1))),
    Case(tr("{t}, index {index}", t="t = torch.zeros(10)[3:]", index=(2,)),
         lambda torch: (torch.zeros(10)[3:], (2,))),
]


def _diagnose_position(got, expected, args, torch):
    t, index = args
    if isinstance(got, Exception):
        return None
    if is_tensor(got):
        return (tr("That is a tensor (the element, or a piece of t): the answer is a plain int, the number of "
                   "elements from the start of the storage."))
    if not isinstance(got, int):
        return None
    if got == expected - t.storage_offset():
        return (tr("You left out storage_offset(): a view that does not start at the first element of the "
                   "storage begins further along it."))
    strides = _row_major(tuple(t.shape))
    if got == t.storage_offset() + sum(i * s for i, s in zip(index, strides)) or \
            got == sum(i * s for i, s in zip(index, strides)):
        return (tr("Those are the strides a fresh tensor of this shape would have. A view keeps the strides of "
                   "the memory it reads: take them from t.stride()."))
    return None


def check_position(position):
    """Exercise 2: ``position(t, index)`` -- the storage position of element ``index`` of ``t``."""
    return check_function(position, solution.position, POSITION_CASES, name="position",
                          what=tr("a function body that returns the storage position of t[index], an int"),
                          diagnoses=[_diagnose_position],
                          note=tr("offset + sum of index*stride; t[index].storage_offset() is the library's "
                                  "own answer, and agrees."))


# -- exercise 3: the contiguity rule ------------------------------------------------------------------

CONTIGUITY_CASES = [
    Case("t = torch.zeros(2, 3)", lambda torch: (torch.zeros(2, 3),)),
    Case("t = torch.zeros(2, 3).t()", lambda torch: (torch.zeros(2, 3).t(),)),
    Case("t = torch.zeros(2, 3, 4)[:, 1]", lambda torch: (torch.zeros(2, 3, 4)[:, 1],)),
    Case("t = torch.zeros(6)[::2]", lambda torch: (torch.zeros(6)[::2],)),
    Case("t = torch.zeros(3, 1).t()", lambda torch: (torch.zeros(3, 1).t(),)),
    Case("t = torch.zeros(3).expand(2, 3)", lambda torch: (torch.zeros(3).expand(2, 3),)),
    Case("t = torch.zeros(2, 1, 3)", lambda torch: (torch.zeros(2, 1, 3),)),
]


def _diagnose_contiguity(got, expected, args, torch):
    (t,) = args
    if isinstance(got, Exception):
        return None
    if is_tensor(got):
        return tr("Return a Python bool (True/False); a comparison of tensors gives a tensor -- use bool(...) or "
                  ".all().")
    if not isinstance(got, bool) or got == expected:
        return None
    shape, strides = tuple(t.shape), t.stride()
    if expected and 1 in shape:
        return tr("Here shape is {shape} and strides {strides}: a dim of size 1 is never stepped along, so its "
                  "stride does not matter. PyTorch skips size-1 dims when it checks the rule.",
                  shape=shape, strides=strides)
    if got and len(shape) == 1:
        return (tr("The rule between neighbours, stride[i] == stride[i+1] * shape[i+1], says nothing about the last "
                   "dim: its stride must also be 1, so that its elements sit side by side."))
    if got and strides[-1] == 1:
        return tr("The last stride is 1, but strides {strides} for shape {shape} leave gaps between rows: "
                  "check every dim, stride[i] == stride[i+1] * shape[i+1].", strides=strides, shape=shape)
    if got and 0 in strides:
        return tr("Strides {strides}: a stride of 0 reads one element many times (expand). Check stride[i] == "
                  "stride[i+1] * shape[i+1] for every dim.", strides=strides)
    return None


def check_contiguity(is_contiguous):
    """Exercise 3: ``is_contiguous(t)`` from ``t.shape`` and ``t.stride()``, as PyTorch decides it."""
    return check_function(is_contiguous, solution.is_contiguous, CONTIGUITY_CASES, name="is_contiguous",
                          what=tr("a function body that returns True or False from t.shape and t.stride()"),
                          diagnoses=[_diagnose_contiguity],
                          note=tr("The last stride is 1, each other stride is the next size times the next "
                                  "stride, and size-1 dims do not count."))
