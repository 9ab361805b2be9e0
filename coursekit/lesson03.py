"""Exercise checks of course/03_views_and_broadcasting.ipynb (reference solutions:
coursekit/solutions/lesson03.py).

    >>> _ = check_shapes(solution.shapes)
    Correct! Line the shapes up on the right; each pair must be equal or contain a 1.
"""
from .check import Case, Question, check_function, check_predictions
from .compare import is_tensor, shares_memory
from .language import tr
from .solutions import lesson03 as solution


# -- exercise 1: view or copy? ----------------------------------------------------------------------

def _shares(expression):
    def compute(torch):
        x = torch.arange(12).view(3, 4)
        return shares_memory(x, expression(x))
    return compute


VIEW_QUESTIONS = [
    Question("x.t().reshape(12)", _shares(lambda x: x.t().reshape(12)),
             tr("Read row by row, x.t() visits storage positions 0, 4, 8, 1, 5, ... -- no single stride walks "
                "that, so reshape has to copy (view would raise).")),
    Question("x.t().reshape(2, 2, 3)", _shares(lambda x: x.t().reshape(2, 2, 3)),
             tr("Only dim 0 of x.t() (size 4, stride 1) is split, into (2, 2) with strides (2, 1); dim 1 keeps "
                "stride 4. Splitting a dim never needs a copy -- reshape copies only when no strides can work.")),
    Question("x[:, :2].reshape(6)", _shares(lambda x: x[:, :2].reshape(6)),
             tr("x[:, :2] reads 0, 1, then jumps to 4, 5, then 8, 9: the gaps between rows mean that flattening "
                "cannot be one stride -- a copy.")),
    Question("x[:2].reshape(8)", _shares(lambda x: x[:2].reshape(8)),
             tr("The first two rows are positions 0..7, back to back: that part of x is contiguous, so the "
                "reshape is a view.")),
    Question("x.contiguous()", _shares(lambda x: x.contiguous()),
             tr("x is already contiguous, and contiguous() then returns x itself.")),
    Question("x.t().contiguous()", _shares(lambda x: x.t().contiguous()),
             tr("x.t() is not contiguous, so contiguous() copies it into a new row-major storage.")),
    Question("x.unsqueeze(0).expand(2, 3, 4)", _shares(lambda x: x.unsqueeze(0).expand(2, 3, 4)),
             tr("expand never copies: the new dim gets stride 0, so both 'copies' read the same storage.")),
    Question("x.repeat(2, 1)", _shares(lambda x: x.repeat(2, 1)),
             tr("repeat really writes the elements again into a new, bigger storage; expand is the one that does "
                "not copy.")),
]


def check_views(answer):
    """Exercise 1: 8 booleans, True where the result shares x's storage."""
    return check_predictions(answer, VIEW_QUESTIONS,
                             what=tr("a tuple of 8 booleans (True: shares x's storage), one per line of the table"),
                             note=tr("reshape is a view whenever some strides can describe the result, and "
                                     "copies only when none can."))


# -- exercise 2: broadcast shapes -----------------------------------------------------------------------

def _broadcast(a, b):
    def compute(torch):
        try:
            return tuple((torch.zeros(a) + torch.zeros(b)).shape)
        except RuntimeError:
            return "error"
    return compute


_RULE = ("Line the shapes up on the right, a missing dim counting as 1: in each pair the sizes must be equal "
         "or one of them 1, and the result takes the larger.")


def _why_shape(hint):
    def why(predicted, truth):
        if truth == "error":
            return hint + " " + tr("Does every pair pass that test? If one does not, a + b cannot run.")
        if predicted == "error":
            return hint + " " + tr("They do broadcast: check each pair again.")
        return hint
    return why


SHAPE_QUESTIONS = [
    Question("(3, 1) + (4,)", _broadcast((3, 1), (4,)),
             _why_shape(tr(_RULE) + " " + tr("Here a size 1 meets a larger size, and one shape is shorter."))),
    Question("(2, 3) + (3,)", _broadcast((2, 3), (3,)),
             _why_shape(tr(_RULE) + " " + tr("The shorter shape is reused for every row of the longer one."))),
    Question("(2, 3) + (2,)", _broadcast((2, 3), (2,)),
             _why_shape(tr("Shapes line up on the *right*: which size of (2, 3) does the 2 meet?") + " " + tr(_RULE))),
    Question("(5, 1, 4) + (3, 1)", _broadcast((5, 1, 4), (3, 1)),
             _why_shape(tr(_RULE) + " " + tr("Compare 4 with 1, then 1 with 3, then 5 with the dim (3, 1) does not "
                                             "have."))),
    Question("(2, 1, 3) + (2, 3)", _broadcast((2, 1, 3), (2, 3)),
             _why_shape(tr(_RULE) + " " + tr("Compare from the right: the last sizes, then the 1 with the 2, then the "
                                             "leading 2 with a missing dim."))),
    Question("(3, 4) + (3,)", _broadcast((3, 4), (3,)),
             _why_shape(tr("Broadcasting never lines shapes up on the left: which size of (3, 4) does the (3,) "
                           "meet? (To add a value per row, give it shape (3, 1).)"))),
    Question("(1,) + (2, 3)", _broadcast((1,), (2, 3)),
             _why_shape(tr(_RULE) + " " + tr("A size-1 dim stretches to anything."))),
]


def check_shapes(answer):
    """Exercise 2: 7 result shapes (tuples) or "error"."""
    return check_predictions(answer, SHAPE_QUESTIONS,
                             what=tr('a tuple of 7 answers, each a shape such as (2, 3) or the string "error", one '
                                     "per line of the table"),
                             note=tr("Line the shapes up on the right; each pair must be equal or contain a 1."))


# -- exercise 3: a view that reads one column k times --------------------------------------------------

STRETCH_CASES = [
    Case("col = torch.tensor([[1.], [2.], [3.]]), k = 4", lambda torch: (torch.tensor([[1.], [2.], [3.]]), 4)),
    Case("col = torch.tensor([[5], [6]]), k = 3", lambda torch: (torch.tensor([[5], [6]]), 3)),
]


def _diagnose_stretch(got, expected, args, torch):
    col, k = args
    if isinstance(got, RuntimeError) and "expanded size" in str(got):
        return (tr("expand takes the *result's* sizes, one per dim (-1 keeps a size): dim 0 keeps its size, and "
                   "only the size-1 dim can grow."))
    if isinstance(got, RuntimeError) and "invalid for input of size" in str(got):
        return tr("view/reshape keep the number of elements; reading elements again needs expand.")
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    if tuple(got.shape) == (k, col.shape[0]):
        return tr("That is (k, n): the result should have one row per element of col, (n, k).")
    if tuple(got.shape) == tuple(expected.shape) and 0 not in got.stride():
        return (tr("The values are right, but they were written out: repeat (or arithmetic such as col * ones) "
                   "makes a new storage. expand reads the one column again with stride 0."))
    return None


def _is_view_of_col(got, args, torch):
    if not shares_memory(got, args[0]):
        return (tr("the result has a storage of its own: it is a copy"),
                tr("expand gives the stretched dim stride 0, so every column reads the same stored elements."))
    return None


def check_stretch(stretch):
    """Exercise 3: ``stretch(col, k)`` returns col (n, 1) as an (n, k) view with stride 0 along dim 1."""
    return check_function(stretch, solution.stretch, STRETCH_CASES, name="stretch",
                          what=tr("a function body that returns an (n, k) view of col, without copying"),
                          strides=True, diagnoses=[_diagnose_stretch], extra=_is_view_of_col,
                          note=tr("expand: the same storage, stride 0 along the stretched dim."))


# -- exercise 4: the gradient of a broadcast operand ------------------------------------------------------

def _grad(shape):
    def make(torch):
        n = 1
        for s in shape:
            n *= s
        return torch.arange(float(n)).view(shape)
    return make


UNBROADCAST_CASES = [
    Case(tr("grad of shape {grad}, shape = {shape}", grad=(3, 4), shape=(3, 1)),
         lambda torch: (_grad((3, 4))(torch), (3, 1))),
    Case(tr("grad of shape {grad}, shape = {shape}", grad=(2, 3, 4), shape=(4,)),
         lambda torch: (_grad((2, 3, 4))(torch), (4,))),
    Case(tr("grad of shape {grad}, shape = {shape}", grad=(2, 3, 4), shape=(3, 1)),
         lambda torch: (_grad((2, 3, 4))(torch), (3, 1))),
    Case(tr("grad of shape {grad}, shape = {shape}", grad=(2, 3), shape=(2, 3)),
         lambda torch: (_grad((2, 3))(torch), (2, 3))),
]


def _diagnose_unbroadcast(got, expected, args, torch):
    grad, shape = args
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    got_shape, want = tuple(got.shape), tuple(shape)
    if got_shape != want:
        if got.numel() == expected.numel():
            return (tr("Right numbers, wrong shape: a dim where the operand had size 1 must stay, with size 1 "
                       "(sum with keepdim=True), and only the dims it did not have at all disappear."))
        if got.dim() > len(want):
            return (tr("The operand had fewer dims than the result: the extra leading dims were added by "
                       "broadcasting, and the gradient must be summed over them too."))
        return (tr("Every dim where the operand had size 1 (and the result more) was stretched: sum over it, "
                   "keeping it as size 1 (keepdim=True)."))
    if bool(torch.allclose(got * (grad.numel() // max(expected.numel(), 1)), expected)):
        return (tr("Each element of the operand was read n times and receives n gradients: they add up -- sum, "
                   "not mean."))
    return (tr("Every copy that broadcasting made contributes its own gradient: add them all up (taking one "
               "copy, grad[..., :1], keeps only one of them)."))


def check_unbroadcast(unbroadcast):
    """Exercise 4: ``unbroadcast(grad, shape)`` sums ``grad`` back to an operand's ``shape``."""
    return check_function(unbroadcast, solution.unbroadcast, UNBROADCAST_CASES, name="unbroadcast",
                          what=tr("a function body that returns grad summed back to `shape`"),
                          diagnoses=[_diagnose_unbroadcast],
                          note=tr("Sum away the dims the operand did not have, and sum with keepdim=True where "
                                  "it had size 1 -- what autograd does for every broadcast operand "
                                  "(grad.sum_to_size(shape))."))
