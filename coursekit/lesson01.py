"""Exercise checks of course/01_tensors.ipynb (reference solutions: coursekit/solutions/lesson01.py).

    >>> _ = check_dtypes(solution.dtypes)
    Correct! You can now read a result's dtype off its inputs.
"""
import numpy as np

from .check import Case, Question, check_function, check_predictions
from .compare import is_tensor
from .language import tr
from .solutions import lesson01 as solution

# -- exercise 1: predict the dtype ----------------------------------------------------------------

DTYPE_QUESTIONS = [
    Question("torch.tensor([1, 2, 3])", lambda torch: torch.tensor([1, 2, 3]).dtype,
             tr("Python ints make an integer tensor of PyTorch's *default integer* dtype: how wide must it be "
                "so that the Python ints people write fit? (torch.tensor([1]).dtype shows it.)")),
    Question("torch.tensor([1, 2.5])", lambda torch: torch.tensor([1, 2.5]).dtype,
             tr("One float in the data is enough: the whole tensor gets the default float dtype "
                "(torch.get_default_dtype()).")),
    Question("torch.arange(0, 1, 0.25)", lambda torch: torch.arange(0, 1, 0.25).dtype,
             tr("arange looks at start, end and step: if any of them is a float, the result has the "
                "default float dtype.")),
    Question("torch.zeros(3, dtype=torch.int32) + 1.5",
             lambda torch: (torch.zeros(3, dtype=torch.int32) + 1.5).dtype,
             lambda got, truth: tr("A Python float lifts an int tensor to floating point -- to the *default* "
                                   "float dtype, although a Python float has 64 bits.") if got == "torch.float64" else
             tr("A Python float is a higher category (float > int > bool) than the tensor: the result "
                "must be able to hold 0.5.")),
    Question("torch.zeros(3, dtype=torch.int32) + torch.tensor(7)",
             lambda torch: (torch.zeros(3, dtype=torch.int32) + torch.tensor(7)).dtype,
             tr("torch.tensor(7) is int64 but 0-dimensional, and in promotion a 0-d tensor counts like a "
                "Python number: does adding a Python int change the tensor's dtype?")),
    Question("torch.zeros(3, dtype=torch.int32) + torch.tensor([7])",
             lambda torch: (torch.zeros(3, dtype=torch.int32) + torch.tensor([7])).dtype,
             tr("torch.tensor([7]) has one dimension, so it takes full part in promotion like any tensor: "
                "which dtype can hold every value of both integer dtypes?")),
    Question("torch.tensor([1, 2]) / 2", lambda torch: (torch.tensor([1, 2]) / 2).dtype,
             tr("True division `/` always gives floating point, even when the ints divide exactly "
                "(`//` is the one that keeps integers).")),
    Question("torch.tensor([True, False, True]).sum()",
             lambda torch: torch.tensor([True, False, True]).sum().dtype,
             tr("Summing bools counts the Trues: sum() of a bool (or any integer) tensor gives the "
                "default integer dtype, so that the count cannot overflow.")),
]


def check_dtypes(answer):
    """Exercise 1: a tuple of the 8 dtypes of the table, in order."""
    return check_predictions(answer, DTYPE_QUESTIONS, note=tr("You can now read a result's dtype off its inputs."),
                             what=tr("a tuple of 8 dtypes such as (torch.float64, ...), one per "
                                     "line of the table"))


# -- exercise 2: the mean of integer counts ---------------------------------------------------------

MEAN_CASES = [
    Case("counts = torch.tensor([3, 1, 2, 2])", lambda torch: (torch.tensor([3, 1, 2, 2]),)),
    Case("counts = torch.tensor([1, 2])", lambda torch: (torch.tensor([1, 2]),)),
]


def _diagnose_mean(got, expected, args, torch):
    if isinstance(got, RuntimeError) and "mean()" in str(got):
        return (tr("mean() refuses integer tensors (what would the mean of int64s be?): convert the "
                   "counts to floating point first, or pass dtype=torch.float32."))
    if isinstance(got, Exception):
        return None
    if not is_tensor(got):
        return (tr("Keep the answer a tensor: .item() or float() turn it into a Python number, which "
                   "cannot take part in further tensor computations (or autograd)."))
    if got.dtype == torch.int64:
        return (tr("Integer division `//` (or an integer tensor's sum) keeps integers and drops the "
                   "fraction: convert to floating point before dividing."))
    if got.dtype == torch.float64:
        return tr(".double() gives 64-bit floats; PyTorch's default float dtype is 32-bit: .float().")
    if got.dim() != 0:
        return tr("The mean of all the counts is one number: a 0-dimensional tensor.")
    return None


def check_mean(mean_of):
    """Exercise 2: ``mean_of(counts)`` returns the mean of an int64 tensor as a float32 0-d tensor."""
    return check_function(mean_of, solution.mean_of, MEAN_CASES, name="mean_of",
                          what=tr("a function body that returns the mean of `counts` as a float32 0-d tensor"),
                          diagnoses=[_diagnose_mean],
                          note=tr("Convert first, then reduce: counts.float().mean() (or "
                                  "counts.mean(dtype=torch.float32))."))


# -- exercise 3: share NumPy's memory, or copy it --------------------------------------------------

PAIR_CASES = [Case("a = np.array([1, 2, 3], dtype=np.int32)",
                   lambda torch: (np.array([1, 2, 3], dtype=np.int32),))]


def _sharing(got, args, torch):
    """Once the values match: change ``a`` and see which tensor follows."""
    a = args[0]
    shared, copied = got
    a[0] = 100
    follows = [int(t[0]) == 100 for t in (shared, copied)]
    if not follows[0]:
        return (tr("the first tensor did not change when `a[0] = 100` changed the array: it is a copy"),
                tr("torch.tensor(data) always copies its data; torch.from_numpy(a) wraps the array's own "
                   "memory (same dtype, no copy)."))
    if follows[1]:
        return (tr("the second tensor changed too when `a[0] = 100` changed the array: it shares a's memory"),
                tr("torch.from_numpy (and torch.as_tensor) share; torch.tensor(a), or .clone() of a shared "
                   "tensor, copies."))
    return None


def _diagnose_pair(got, expected, args, torch):
    if isinstance(got, Exception):
        return None
    if not isinstance(got, tuple) or len(got) != 2:
        return tr("Return two tensors: `return shared, copied`.")
    if any(is_tensor(t) and t.dtype == torch.float32 for t in got):
        return tr("torch.Tensor(a) (capital T, the legacy constructor) always makes float32; "
                  "torch.tensor(a) and torch.from_numpy(a) keep the array's dtype.")
    return None


def check_two_tensors(two_tensors):
    """Exercise 3: ``two_tensors(a)`` returns (a tensor sharing a's memory, a copy), both int32."""
    return check_function(two_tensors, solution.two_tensors, PAIR_CASES, name="two_tensors",
                          what=tr("a function body that returns (shared, copied)"),
                          diagnoses=[_diagnose_pair], extra=_sharing,
                          note=tr("from_numpy shares the array's memory; tensor() copies it."))
