"""Exercise checks of course/18_data_and_transforms.ipynb (reference solutions:
coursekit/solutions/lesson18.py).

    >>> _ = check_batch_predictions(solution.predictions)
    Correct! ceil(n / batch_size) batches, floor with drop_last; collation stacks tensors
             and turns ints into int64.
"""
import importlib

from . import guard
from .check import (Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong,
                    works_only_on_tensorlab)
from .compare import differences, kind
from .libs import libraries
from .solutions import lesson18 as solution


# -- exercise 1: count the batches ------------------------------------------------------------------

def _data(torch):
    return importlib.import_module(torch.__name__ + ".utils.data")


def _ten(torch):
    return _data(torch).TensorDataset(torch.zeros(10, 3), torch.zeros(10))


def _digits(torch):
    """The Digits training set, on either library (PyTorch reads the same arrays as tensors)."""
    from tensorlab.vision import datasets
    ds = datasets.Digits(train=True)
    if torch.__name__ == "tensorlab":
        return ds
    images = torch.from_numpy(ds._scaled)
    return _data(torch).TensorDataset(images, torch.from_numpy(ds._labels))


def _loader(torch, dataset, **kwargs):
    return _data(torch).DataLoader(dataset, **kwargs)


def _hint_ceil(predicted, truth):
    if predicted == truth - 1:
        return "The short last batch counts too (drop_last is False by default): ceil, not floor."
    return "len(loader) is the number of batches: ceil(len(dataset) / batch_size)."


def _hint_floor(predicted, truth):
    if predicted == truth + 1:
        return "drop_last=True throws the short last batch away: floor, not ceil."
    return "With drop_last=True only full batches remain: floor(len(dataset) / batch_size)."


def _hint_last(predicted, truth):
    if tuple(predicted) == (4, 3) if isinstance(predicted, (tuple, list)) else False:
        return "The last batch holds what is left after the full batches of 4: it is short."
    return "Batches stack examples of shape (3,) along a new first dimension; how many are left for the last one?"


def _hint_batch(predicted, truth):
    if isinstance(predicted, (tuple, list)) and tuple(predicted) == (64, 8, 8):
        return ("Each Digits image has a channel dimension too (look at dataset[0][0].shape); the batch adds "
                "one in front.")
    return "A batch of images is [batch_size, *image.shape]."


def _hint_dtype(predicted, truth):
    return ("default_collate turns a batch of Python ints into one tensor, of the dtype torch.tensor gives "
            "Python ints.")


BATCH_QUESTIONS = [
    Question("len(DataLoader(ten, batch_size=4))", lambda torch: len(_loader(torch, _ten(torch), batch_size=4)),
             _hint_ceil),
    Question("len(DataLoader(ten, batch_size=4, drop_last=True))",
             lambda torch: len(_loader(torch, _ten(torch), batch_size=4, drop_last=True)), _hint_floor),
    Question("[x for x, y in DataLoader(ten, batch_size=4)][-1].shape",
             lambda torch: tuple([x for x, y in _loader(torch, _ten(torch), batch_size=4)][-1].shape), _hint_last),
    Question("len(DataLoader(Digits(train=True), batch_size=64))",
             lambda torch: len(_loader(torch, _digits(torch), batch_size=64)), _hint_ceil),
    Question("len(DataLoader(Digits(train=True), batch_size=64, drop_last=True))",
             lambda torch: len(_loader(torch, _digits(torch), batch_size=64, drop_last=True)), _hint_floor),
    Question("next(iter(DataLoader(Digits(train=True), batch_size=64)))[0].shape",
             lambda torch: tuple(next(iter(_loader(torch, _digits(torch), batch_size=64)))[0].shape), _hint_batch),
    Question("default_collate([(torch.zeros(2), 1), (torch.ones(2), 0)])[1].dtype",
             lambda torch: _data(torch).default_collate([(torch.zeros(2), 1), (torch.ones(2), 0)])[1].dtype,
             _hint_dtype),
]


def check_batch_predictions(answer):
    """Exercise 1: a tuple of 7 predictions (ints, shapes as tuples, a dtype)."""
    return check_predictions(answer, BATCH_QUESTIONS,
                             what="a tuple of 7 predictions: ints, shapes as tuples, a dtype",
                             note="ceil(n / batch_size) batches, floor with drop_last; collation stacks tensors "
                                  "and turns ints into int64.")


# -- exercise 2: a Dataset of windows -----------------------------------------------------------------

SERIES = [("torch.arange(10.0), k=3", lambda torch: torch.arange(10.0), 3),
          ("torch.linspace(0, 1, 6) ** 2, k=1", lambda torch: torch.linspace(0, 1, 6) ** 2, 1)]


def _windows_problem(cls, torch):
    from .lesson12 import class_on   # re-creates a class written with tensorlab for PyTorch
    cls = class_on(torch, cls)
    reference = class_on(torch, solution.Windows)
    for label, make, k in SERIES:
        where = f"Windows({label})"
        expected = reference(make(torch), k)
        ds, error = guard.run(cls, make(torch), k)
        if error is None:
            length, error = guard.run(lambda: ds.__len__())  # not len(): a stub returns ...
        if error is not None:
            what, why = raised(error)
            return f"{where}: {what}", why
        if length is Ellipsis:
            return "stub", ""
        n = len(expected)
        if length != n:
            if length == n + k:
                why = ("The last k values have no next value to predict: count the start positions whose "
                       "window still has a value after it.")
            elif length == n + 1:
                why = "One too many: the window starting at len(series) - k has no next value after it."
            elif length == n - 1:
                why = "One too few: the last window ends just before the series' last value, which is its target."
            else:
                why = "Count the start positions i for which series[i + k] exists."
            return f"{where}: len() is {length!r}, expected {n}", why
        for i in (0, n - 1):
            got, error = guard.run(lambda: ds[i])
            if error is not None:
                return raised(error, "Item i is a pair: the window of k values starting at i, and the value "
                                     "right after it.", f"{where}[{i}]")
            if got is Ellipsis:
                return "stub", ""
            if not isinstance(got, (tuple, list)) or len(got) != 2:
                return (f"{where}[{i}] is {kind(got)}, not a pair",
                        "Return a tuple (window, target), as a dataset of examples and labels does.")
            window, target = expected[i]
            found = differences(got[0], window, where=f"{where}[{i}][0] (the window)", grads=False)
            if found:
                return found[0], "The window is the k values starting at position i."
            found = differences(got[1], target, where=f"{where}[{i}][1] (the target)", grads=False)
            if found:
                why = "The target is the value right *after* the window."
                if not differences(got[1], window[-1], grads=False):
                    why = "That is the window's own last value; the target is the one after it."
                return found[0], why
    batches, error = guard.run(lambda: [tuple(x.shape) for x, y in
                                        _data(torch).DataLoader(cls(torch.arange(10.0), 3), batch_size=4)])
    if error is not None:
        return raised(error, "A DataLoader calls len() and [i] and stacks the items: each window must be a "
                             "tensor of k values, each target one value.",
                      "a DataLoader over Windows(torch.arange(10.0), 3)")
    if batches != [(4, 3), (3, 3)]:
        return (f"a DataLoader over Windows(torch.arange(10.0), 3) gives batches of shapes {batches}",
                "Windows should batch into (4, 3) and (3, 3).")
    return None


@always_a_verdict
def check_windows(windows_class):
    """Exercise 2: ``Windows(series, k)`` is a Dataset of (series[i:i+k], series[i+k]) pairs."""
    what = "the bodies of __len__ and __getitem__"
    if is_stub(windows_class):
        return not_answered(what)
    if not isinstance(windows_class, type):
        return wrong(f"`Windows` should be a class; it is {kind(windows_class)}.")
    for index, (_, module) in enumerate(libraries()):
        problem = _windows_problem(windows_class, module)
        if problem is None:
            continue
        found, why = problem
        if found == "stub":
            return not_answered(what)
        if index > 0:
            return works_only_on_tensorlab("`Windows`", module, found)
        return wrong(found + ".", why)
    return correct("__len__ and __getitem__ are all a DataLoader needs: it batches your windows into (B, k) "
                   "inputs and (B,) targets.")
