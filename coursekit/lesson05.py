"""Exercise checks of course/05_indexing_and_gather.ipynb (reference solutions:
coursekit/solutions/lesson05.py).

    >>> _ = check_views(solution.views)
    Correct! Slices and integers give views; index tensors, masks and flip copy.
"""
from .check import Case, Question, check_function, check_predictions
from .compare import is_tensor, shares_memory
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
             "An integer index selects: the row starts at offset 4 and keeps stride 1 -- a view."),
    Question("x[:, 1]", _shares(lambda torch, x: x[:, 1]),
             "A column is every 4th element from offset 1: one stride describes it, so it is a view."),
    Question("x[::2, 1:]", _shares(lambda torch, x: x[::2, 1:]),
             "Slices, even with a step, only change offset, shape and strides: always a view."),
    Question("x[[0, 2]]", _shares(lambda torch, x: x[[0, 2]]), _ADVANCED),
    Question("x[x > 5]", _shares(lambda torch, x: x[x > 5]),
             "A mask picks a data-dependent set of elements into a new 1-d tensor: a copy."),
    Question("x.flip(0)", _shares(lambda torch, x: x.flip(0)),
             "Reversing would need a negative stride, which PyTorch does not have: flip copies."),
    Question("x[1, 2]", _shares(lambda torch, x: x[1, 2]),
             "Indexing every dimension with an integer gives a 0-d tensor that still points into x's "
             "storage (offset 6): a view. .item() is what copies the number out."),
    Question("x[..., None]", _shares(lambda torch, x: x[..., None]),
             "None adds a dimension of size 1 (like unsqueeze): only the shape and strides change."),
]


def check_views(answer):
    """Exercise 1: 8 booleans, True where the result shares x's memory."""
    return check_predictions(answer, VIEW_QUESTIONS,
                             what="a tuple of 8 booleans (True: a view that shares x's memory), one per "
                                  "line of the table",
                             note="Slices and integers give views; index tensors, masks and flip copy.")


# -- exercise 2: gather ------------------------------------------------------------------------------

PICK_CASES = [
    Case("logits of shape (3, 4), labels = [1, 2, 3]",
         lambda torch: (torch.tensor([[0.1, 0.7, 0.1, 0.1], [0.5, 0.3, 0.1, 0.1], [0.2, 0.2, 0.2, 0.4]]),
                        torch.tensor([1, 2, 3]))),
    Case("logits of shape (2, 3), labels = [0, 0]",
         lambda torch: (torch.tensor([[1., 2., 3.], [4., 5., 6.]]), torch.tensor([0, 0]))),
]


def _diagnose_pick(got, expected, args, torch):
    logits, labels = args
    if isinstance(got, RuntimeError) and "same number of dimensions" in str(got):
        return ("gather's index must have as many dims as the input: labels has shape (N,), logits "
                "(N, C). labels.unsqueeze(1) makes it (N, 1) -- one column to pick per row.")
    if isinstance(got, Exception) and "out of bounds for dimension 0" in str(got):
        return ("Along dim 0, gather picks a *row* for each column, so the labels were used as row numbers. "
                "A label chooses a column within each row: gather along dim 1, with index labels.unsqueeze(1).")
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    n = len(labels)
    if tuple(got.shape) == (n, n):
        return ("logits[:, labels] takes *every* label's column for *every* row: (N, N). To pair row i "
                "with labels[i], index rows too -- logits[torch.arange(N), labels] -- or use gather.")
    if tuple(got.shape) == (n, 1):
        return "Right values, one dim too many: gather's output has the index's shape (N, 1); squeeze(1)."
    if tuple(got.shape) == (1, n):
        return ("gather along dim 0 picks a *row* for each column. The label chooses a column within each "
                "row: gather along dim 1, with index labels.unsqueeze(1).")
    return None


def check_pick(pick):
    """Exercise 2: ``pick(logits, labels)`` returns logits[i, labels[i]] for every row i."""
    return check_function(pick, solution.pick, PICK_CASES, name="pick",
                          what="a function body that returns each row's logit at its label, shape (N,)",
                          diagnoses=[_diagnose_pick],
                          note="out[i][j] = logits[i][index[i][j]]: gather along dim 1 picks within each row.")


# -- exercise 3: counting with scatter_add_ -----------------------------------------------------------

COUNT_CASES = [
    Case("labels = [1, 3, 3, 3, 0], num_classes = 5", lambda torch: (torch.tensor([1, 3, 3, 3, 0]), 5)),
    Case("labels = [2, 2], num_classes = 3", lambda torch: (torch.tensor([2, 2]), 3)),
]


def _diagnose_count(got, expected, args, torch):
    labels, num_classes = args
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    if tuple(got.shape) != (num_classes,) and got.dim() == 1 and len(got) < num_classes:
        return ("The last classes never occur here, so the counts stop early: ask for all "
                "num_classes of them (bincount's minlength=, or start from zeros(num_classes)).")
    if tuple(got.shape) != (num_classes,):
        return None
    if got.dtype != torch.int64:
        return "Counts are integers: start from torch.zeros(num_classes, dtype=torch.int64), like bincount."
    once = torch.zeros(num_classes, dtype=torch.int64)
    once[labels] = 1
    if bool((got == once).all()):
        return ("Each class was counted at most once: `counts[labels] += 1` reads counts[labels], adds 1 and "
                "writes back, so a repeated label writes the same value twice instead of adding twice. "
                "scatter_add_ and index_add_ accumulate every occurrence.")
    return None


def check_count_labels(count_labels):
    """Exercise 3: ``count_labels(labels, num_classes)``: int64 counts of each class."""
    return check_function(count_labels, solution.count_labels, COUNT_CASES, name="count_labels",
                          what="a function body that returns the int64 count of each class, shape (num_classes,)",
                          diagnoses=[_diagnose_count],
                          note="scatter_add_ (like index_add_ and bincount) adds once per occurrence, "
                               "repeated indices included.")


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
        return ("values[indices] (or gather) applies the permutation a second time. indices[k] says where "
                "values[k] came *from*: put it back there -- scatter_(0, indices, values) -- or index with "
                "the inverse permutation, indices.argsort().")
    if bool((got == values).all()):
        return "That is still the sorted order: each values[k] must go back to position indices[k]."
    return None


def check_unsort(unsort):
    """Exercise 4: ``unsort(values, indices)`` rebuilds the tensor that was sorted."""
    return check_function(unsort, solution.unsort, UNSORT_CASES, name="unsort",
                          what="a function body that returns the original tensor, rebuilt from values and indices",
                          diagnoses=[_diagnose_unsort],
                          note="gather reads from positions (out[k] = src[index[k]]); scatter writes to them "
                               "(out[index[k]] = src[k]) -- each undoes the other.")
