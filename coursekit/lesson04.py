"""Exercise checks of course/04_ops_and_reductions.ipynb (reference solutions:
coursekit/solutions/lesson04.py).

    >>> _ = check_shapes(solution.shapes)
    Correct! Reductions remove the dims they reduce (unless keepdim=True); scans keep the
             shape.
"""
from .check import Case, Question, check_function, check_predictions
from .compare import is_tensor
from .language import tr
from .solutions import lesson04 as solution


def _x(torch):
    return torch.zeros(2, 3, 4)


def _w(torch):
    return torch.zeros(4, 5)


# -- exercise 1: predict the shape ------------------------------------------------------------------

SHAPE_QUESTIONS = [
    Question("x.sum(dim=1)", lambda torch: _x(torch).sum(dim=1).shape,
             tr("A reduction removes the dimension it reduces over (unless keepdim=True): which size of x is "
                "dim 1?")),
    Question("x.sum(dim=1, keepdim=True)", lambda torch: _x(torch).sum(dim=1, keepdim=True).shape,
             tr("keepdim=True keeps the reduced dimension, with size 1 -- so the result still lines up "
                "with x for broadcasting.")),
    Question("x.mean(dim=(0, 2))", lambda torch: _x(torch).mean(dim=(0, 2)).shape,
             tr("A tuple of dims reduces all of them at once; only the dimensions not listed remain.")),
    Question("x.cumsum(dim=2)", lambda torch: _x(torch).cumsum(dim=2).shape,
             tr("cumsum is a scan, not a reduction: every position gets its running total. How many positions "
                "does the result have, then?")),
    Question("x.max(dim=0).indices", lambda torch: _x(torch).max(dim=0).indices.shape,
             tr("max(dim=...) reduces like sum: its values and indices both lose that dimension.")),
    Question("x @ w", lambda torch: (_x(torch) @ _w(torch)).shape,
             tr("matmul multiplies the last two dims as matrices and treats the leading dims as a batch, over "
                "which the 2-d w is broadcast: what shape has a product of those two matrices?")),
    Question("torch.einsum('bij,jk->bk', x, w)",
             lambda torch: torch.einsum("bij,jk->bk", _x(torch), _w(torch)).shape,
             tr("The output has exactly the letters after '->', in that order, each with its size; a letter "
                "missing there is summed over.")),
    Question("torch.cat([x, x], dim=-1)", lambda torch: torch.cat([_x(torch), _x(torch)], dim=-1).shape,
             lambda got, truth: tr("cat joins along an existing dimension; stack is the one that adds a new "
                                   "dimension.") if len(got) == 4 else
             tr("dim=-1 is the last dimension: cat adds up the sizes along it and leaves the others alone.")),
]


def check_shapes(answer):
    """Exercise 1: a tuple of the 8 shapes of the table, as tuples, in order."""
    return check_predictions(answer, SHAPE_QUESTIONS,
                             what=tr("a tuple of 8 shapes such as ((5, 6), ...), one per line "
                                     "of the table"),
                             note=tr("Reductions remove the dims they reduce (unless keepdim=True); "
                                     "scans keep the shape."))


# -- exercise 2: normalise rows -----------------------------------------------------------------------

ROW_CASES = [
    Case(tr("scores of shape {shape}", shape=(3, 3)),
         lambda torch: (torch.tensor([[1., 1., 2.], [3., 0., 1.], [2., 2., 4.]]),)),
    Case(tr("scores of shape {shape}", shape=(2, 4)),
         lambda torch: (torch.tensor([[1., 2., 3., 4.], [2., 2., 0., 4.]]),)),
]


def _close(a, b):
    return is_tensor(a) and is_tensor(b) and tuple(a.shape) == tuple(b.shape) and bool((a - b).abs().max() < 1e-5)


def _diagnose_rows(got, expected, args, torch):
    scores = args[0]
    if isinstance(got, RuntimeError) and "must match the size" in str(got):
        return (tr("scores.sum(dim=1) has shape (rows,), and broadcasting lines shapes up from the "
                   "right, so it meets the columns. Keep the summed dim with keepdim=True: shape (rows, 1)."))
    if isinstance(got, Exception):
        return None
    if _close(got, scores / scores.sum(dim=1)):
        return (tr("This divides column j by the sum of *row j*: scores.sum(dim=1) has shape (rows,), "
                   "which broadcasting lines up with the last dim -- the columns. It only runs because the "
                   "matrix is square. keepdim=True gives shape (rows, 1), one sum per row."))
    if _close(got, scores / scores.sum()):
        return tr("You divided by the total of all entries; each row needs its own sum (reduce along dim=1 only).")
    if _close(got, scores / scores.sum(dim=0, keepdim=True)):
        return (tr("Your columns sum to 1: dim=0 runs down the rows, so sum(dim=0) adds up each column. "
                   "Rows need dim=1."))
    if _close(got, scores.softmax(dim=1)):
        return tr("softmax exponentiates first; here, divide the scores themselves by their row sums.")
    return None


def check_normalize_rows(normalize_rows):
    """Exercise 2: ``normalize_rows(scores)`` divides each row by its sum."""
    return check_function(normalize_rows, solution.normalize_rows, ROW_CASES, name="normalize_rows",
                          what=tr("a function body that returns scores with every row divided by its sum"),
                          diagnoses=[_diagnose_rows],
                          note=tr("keepdim=True keeps the sums as a (rows, 1) column that broadcasts across "
                                  "each row."))


# -- exercise 3: row-wise dot products ------------------------------------------------------------------

DOT_CASES = [
    Case(tr("a, b of shape {shape}", shape=(3, 2)), lambda torch: (torch.tensor([[1., 2.], [3., 4.], [5., 6.]]),
                                                                   torch.tensor([[1., 0.], [0., 1.], [1., 1.]]))),
    Case(tr("a, b of shape {shape}", shape=(2, 2)), lambda torch: (torch.tensor([[1., 2.], [3., 4.]]),
                                                                   torch.tensor([[2., 1.], [1., 3.]]))),
]


def _diagnose_dots(got, expected, args, torch):
    a, b = args
    if isinstance(got, Exception):
        if "einsum" in str(got) or "subscript" in str(got) or "operand" in str(got):
            return (tr("Each operand needs one letter per dimension: 'nd' for a matrix of shape (n, d); the "
                       "output, after '->', lists the letters to keep."))
        return None
    if not is_tensor(got):
        return None
    if got.dim() == 0:
        return (tr("You got one number: a letter missing from the output is summed over, so '->' with "
                   "nothing (or .sum() without dim) sums over n too. Keep n in the output."))
    if got.dim() == 2:
        return (tr("That is every row of a with every row of b (n x n dot products, a @ b.T); you want only "
                   "row i with row i -- the diagonal. In einsum, use the same letter n for both rows."))
    if _close(got, (a * b).sum(dim=0)):
        return tr("You summed over the rows (n) and kept d; the dot product sums over d, the features.")
    return None


def check_rowwise_dots(rowwise_dots):
    """Exercise 3: ``rowwise_dots(a, b)`` returns the n dot products a[i] . b[i]."""
    return check_function(rowwise_dots, solution.rowwise_dots, DOT_CASES, name="rowwise_dots",
                          what=tr("a function body that returns the tensor of the n dot products a[i] . b[i]"),
                          diagnoses=[_diagnose_dots],
                          note=tr("n appears in both inputs and the output (kept, paired up); d appears only "
                                  "in the inputs (multiplied, then summed)."))


# -- exercise 4: running mean ---------------------------------------------------------------------------

RUN_CASES = [
    Case("x = torch.tensor([2., 4., 6., 8.])", lambda torch: (torch.tensor([2., 4., 6., 8.]),)),
    Case("x = torch.tensor([1., -1., 3.])", lambda torch: (torch.tensor([1., -1., 3.]),)),
]


def _diagnose_running(got, expected, args, torch):
    x = args[0]
    if isinstance(got, RuntimeError) and "must match the size" in str(got):
        return tr("arange(start, end) stops before end: to count 1, ..., n, end must be n + 1.")
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    if got.dim() == 0:
        return tr("That is one mean of everything; the running mean has one value per position (a scan).")
    if got.numel() and not bool(torch.isfinite(got[0])):
        return (tr("Position 0 divides by 0: arange(n) starts at 0, but the k-th prefix has k + 1 "
                   "elements."))
    if _close(got, x.cumsum(dim=0) / len(x)):
        return tr("You divided every prefix sum by n; the prefix ending at position k has only k + 1 elements.")
    return None


def check_running_mean(running_mean):
    """Exercise 4: ``running_mean(x)``: element k is the mean of x[0..k]."""
    return check_function(running_mean, solution.running_mean, RUN_CASES, name="running_mean",
                          what=tr("a function body that returns the running mean of x"),
                          diagnoses=[_diagnose_running],
                          note=tr("cumsum gives the prefix sums; dividing by 1, 2, ..., n (broadcast, "
                                  "element by element) turns them into means."))
