"""Exercise checks of course/05_indexing_and_gather.ipynb (reference solutions:
coursekit/solutions/lesson05.py).

    >>> _ = check_views(solution.views)
    Correct! Slices and integers give views; index tensors, masks and flip copy.
"""
from .check import Case, Question, check_function, check_predictions
from .compare import is_tensor, shares_memory
from .language import tr
from .solutions import lesson05 as solution


def _shares(expression):
    def compute(torch):
        x = torch.arange(12).view(3, 4)
        return shares_memory(x, expression(torch, x))
    return compute


# -- exercise 1: view or copy? ----------------------------------------------------------------------

_ADVANCED = ("A list or tensor of indices is *advanced* indexing: the picked elements may repeat or "
             "come in any order, which no (offset, strides) can describe -- so they are copied.")

VIEW_QUESTIONS = [
    Question("x[1]", _shares(lambda torch, x: x[1]),
             tr("An integer index selects: the row starts at offset 4 and keeps stride 1 -- a view.")),
    Question("x[:, 1]", _shares(lambda torch, x: x[:, 1]),
             tr("A column is every 4th element from offset 1: one stride describes it, so it is a view.")),
    Question("x[::2, 1:]", _shares(lambda torch, x: x[::2, 1:]),
             tr("Slices, even with a step, only change offset, shape and strides: always a view.")),
    Question("x[[0, 2]]", _shares(lambda torch, x: x[[0, 2]]), tr(_ADVANCED)),
    Question("x[x > 5]", _shares(lambda torch, x: x[x > 5]),
             tr("A mask picks a data-dependent set of elements into a new 1-d tensor: a copy.")),
    Question("x.flip(0)", _shares(lambda torch, x: x.flip(0)),
             tr("Reversing would need a negative stride, which PyTorch does not have: flip copies.")),
    Question("x[1, 2]", _shares(lambda torch, x: x[1, 2]),
             tr("Indexing every dimension with an integer gives a 0-d tensor that still points into x's "
                "storage (offset 6): a view. .item() is what copies the number out.")),
    Question("x[..., None]", _shares(lambda torch, x: x[..., None]),
             tr("None adds a dimension of size 1 (like unsqueeze): only the shape and strides change.")),
]


def check_views(answer):
    """Exercise 1: 8 booleans, True where the result shares x's memory."""
    return check_predictions(answer, VIEW_QUESTIONS,
                             what=tr("a tuple of 8 booleans (True: a view that shares x's memory), one per "
                                     "line of the table"),
                             note=tr("Slices and integers give views; index tensors, masks and flip copy."))


# -- exercise 2: gather ------------------------------------------------------------------------------

PICK_CASES = [
    Case(tr("logits of shape {shape}, {labels}", shape=(3, 4), labels="labels = [1, 2, 3]"),
         lambda torch: (torch.tensor([[0.1, 0.7, 0.1, 0.1], [0.5, 0.3, 0.1, 0.1], [0.2, 0.2, 0.2, 0.4]]),
                        torch.tensor([1, 2, 3]))),
    Case(tr("logits of shape {shape}, {labels}", shape=(2, 3), labels="labels = [0, 0]"),
         lambda torch: (torch.tensor([[1., 2., 3.], [4., 5., 6.]]), torch.tensor([0, 0]))),
]


def _diagnose_pick(got, expected, args, torch):
    logits, labels = args
    if isinstance(got, RuntimeError) and "same number of dimensions" in str(got):
        return (tr("gather's index must have as many dims as the input: labels has shape (N,), logits "
                   "(N, C). labels.unsqueeze(1) makes it (N, 1) -- one column to pick per row."))
    if isinstance(got, Exception) and "out of bounds for dimension 0" in str(got):
        return (tr("Along dim 0, gather picks a *row* for each column, so the labels were used as row numbers. "
                   "A label chooses a column within each row: gather along dim 1, which picks within each row."))
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    n = len(labels)
    if tuple(got.shape) == (n, n):
        return (tr("logits[:, labels] takes *every* label's column for *every* row: (N, N). To pair row i "
                   "with labels[i], index the rows too, with a tensor of row numbers -- or use gather."))
    if tuple(got.shape) == (n, 1):
        return tr("Right values, one dim too many: gather's output has the index's shape (N, 1); squeeze(1).")
    if tuple(got.shape) == (1, n):
        return (tr("gather along dim 0 picks a *row* for each column. The label chooses a column within each "
                   "row: gather along dim 1, which picks within each row."))
    return None


def check_pick(pick):
    """Exercise 2: ``pick(logits, labels)`` returns logits[i, labels[i]] for every row i."""
    return check_function(pick, solution.pick, PICK_CASES, name="pick",
                          what=tr("a function body that returns each row's logit at its label, shape (N,)"),
                          diagnoses=[_diagnose_pick],
                          note=tr("out[i][j] = logits[i][index[i][j]]: gather along dim 1 picks within each row."))


# -- exercise 3: adding into positions -------------------------------------------------------------

SUM_CASES = [
    Case("values = [1., 2., 3., 4., 5.], labels = [1, 3, 3, 3, 0], num_classes = 5",
         lambda torch: (torch.tensor([1., 2., 3., 4., 5.]), torch.tensor([1, 3, 3, 3, 0]), 5)),
    Case("values = [0.5, 0.25], labels = [2, 2], num_classes = 4",
         lambda torch: (torch.tensor([0.5, 0.25]), torch.tensor([2, 2]), 4)),
]


def _diagnose_sum(got, expected, args, torch):
    values, labels, num_classes = args
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    if got.dim() == 1 and len(got) < num_classes:
        return (tr("The last classes have no values here, so the result stops early: make room for all "
                   "num_classes (start from zeros(num_classes), or bincount's minlength=)."))
    if tuple(got.shape) != (num_classes,):
        return None
    if got.dtype == torch.int64 and bool((got == torch.bincount(labels, minlength=num_classes)).all()):
        return (tr("Those are counts: bincount counts occurrences. To add the values, pass them as "
                   "weights=values -- or add them in with index_add_ / scatter_add_."))
    if got.dtype != values.dtype:
        return tr("The sums should keep the values' dtype ({dtype}).", dtype=values.dtype)
    repeated = torch.bincount(labels, minlength=num_classes) > 1
    if bool(repeated.any()) and bool((got[~repeated] == expected[~repeated]).all()):
        return (tr("Only the classes that occur more than once are off: `out[labels] += values` (and "
                   "scatter_) *write* once per position, so one value of a repeated class wins instead of "
                   "all being added. index_add_ and scatter_add_ accumulate every occurrence."))
    return None


def check_sum_by_class(sum_by_class):
    """Exercise 3: ``sum_by_class(values, labels, num_classes)``: per-class sums of values."""
    return check_function(sum_by_class, solution.sum_by_class, SUM_CASES, name="sum_by_class",
                          what=tr("a function body that returns the sum of the values of each class, "
                                  "shape (num_classes,)"),
                          diagnoses=[_diagnose_sum],
                          note=tr("index_add_ and scatter_add_ add once per occurrence, repeated indices "
                                  "included (bincount(labels, weights=values) too)."))


# -- exercise 4: undo a sort --------------------------------------------------------------------------

def _sorted_case(data):
    def make(torch):
        values, indices = torch.sort(torch.tensor(data))
        return values, indices
    return make


UNSORT_CASES = [
    Case("values, indices = torch.sort(torch.tensor([3., 1., 2.]))", _sorted_case([3., 1., 2.])),
    Case("values, indices = torch.sort(torch.tensor([0.5, 4., -1., 2., 3.]))", _sorted_case([0.5, 4., -1., 2., 3.])),
]


def _diagnose_unsort(got, expected, args, torch):
    values, indices = args
    if isinstance(got, Exception) or not is_tensor(got) or got.shape != values.shape:
        return None
    if bool((got == values[indices]).all()):
        return (tr("values[indices] (or gather) applies the permutation a second time. indices[k] says where "
                   "values[k] came *from*: put it back there (scatter writes to positions), or index with "
                   "the inverse permutation (argsort of a permutation gives it)."))
    if bool((got == values).all()):
        return tr("That is still the sorted order: each values[k] must go back to position indices[k].")
    return None


def check_unsort(unsort):
    """Exercise 4: ``unsort(values, indices)`` rebuilds the tensor that was sorted."""
    return check_function(unsort, solution.unsort, UNSORT_CASES, name="unsort",
                          what=tr("a function body that returns the original tensor, rebuilt from values and indices"),
                          diagnoses=[_diagnose_unsort],
                          note=tr("gather reads from positions (out[k] = src[index[k]]); scatter writes to them "
                                  "(out[index[k]] = src[k]) -- each undoes the other."))
