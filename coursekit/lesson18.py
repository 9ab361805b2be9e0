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
from .language import tr
from .libs import libraries, on
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
        return tr("The short last batch counts too (drop_last is False by default): ceil, not floor.")
    return tr("len(loader) is the number of batches: ceil(len(dataset) / batch_size).")


def _hint_floor(predicted, truth):
    if predicted == truth + 1:
        return tr("drop_last=True throws the short last batch away: floor, not ceil.")
    return tr("With drop_last=True only full batches remain: floor(len(dataset) / batch_size).")


def _hint_last(predicted, truth):
    if tuple(predicted) == (4, 3) if isinstance(predicted, (tuple, list)) else False:
        return tr("The last batch holds what is left after the full batches of 4: it is short.")
    return tr("Batches stack examples of shape (3,) along a new first dimension; how many are left for the last "
              "one?")


def _hint_batch(predicted, truth):
    if isinstance(predicted, (tuple, list)) and tuple(predicted) == (64, 8, 8):
        return tr("Each Digits image has a channel dimension too (look at dataset[0][0].shape); the batch adds "
                  "one in front.")
    return tr("A batch of images is [batch_size, *image.shape].")


def _hint_dtype(predicted, truth):
    return tr("default_collate turns a batch of Python ints into one tensor, of the dtype torch.tensor gives "
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
                             what=tr("a tuple of 7 predictions: ints, shapes as tuples, a dtype"),
                             note=tr("ceil(n / batch_size) batches, floor with drop_last; collation stacks tensors "
                                     "and turns ints into int64."))


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
            return tr("{where}: {what}", where=where, what=what), why
        if length is Ellipsis:
            return "stub", ""
        n = len(expected)
        if length != n:
            if length == n + k:
                why = tr("The last k values have no next value to predict: count the start positions whose "
                         "window still has a value after it.")
            elif length == n + 1:
                why = tr("One too many: the window starting at len(series) - k has no next value after it.")
            elif length == n - 1:
                why = tr("One too few: the last window ends just before the series' last value, which is its "
                         "target.")
            else:
                why = tr("Count the start positions i for which series[i + k] exists.")
            return tr("{where}: len() is {length!r}, expected {n}", where=where, length=length, n=n), why
        for i in (0, n - 1):
            got, error = guard.run(lambda: ds[i])
            if error is not None:
                return raised(error, tr("Item i is a pair: the window of k values starting at i, and the value "
                                        "right after it."), f"{where}[{i}]")
            if got is Ellipsis:
                return "stub", ""
            if not isinstance(got, (tuple, list)) or len(got) != 2:
                return (tr("{item} is {kind}, not a pair", item=f"{where}[{i}]", kind=kind(got)),
                        tr("Return a tuple (window, target), as a dataset of examples and labels does."))
            window, target = expected[i]
            found = differences(got[0], window, where=tr("{item} (the window)", item=f"{where}[{i}][0]"),
                                grads=False)
            if found:
                return found[0], tr("The window is the k values starting at position i.")
            found = differences(got[1], target, where=tr("{item} (the target)", item=f"{where}[{i}][1]"),
                                grads=False)
            if found:
                why = tr("The target is the value right *after* the window.")
                if not differences(got[1], window[-1], grads=False):
                    why = tr("That is the window's own last value; the target is the one after it.")
                return found[0], why
    batches, error = guard.run(lambda: [tuple(x.shape) for x, y in
                                        _data(torch).DataLoader(cls(torch.arange(10.0), 3), batch_size=4)])
    if error is not None:
        return raised(error, tr("A DataLoader calls len() and [i] and stacks the items: each window must be a "
                                "tensor of k values, each target one value."),
                      tr("a DataLoader over {dataset}", dataset="Windows(torch.arange(10.0), 3)"))
    if batches != [(4, 3), (3, 3)]:
        return (tr("a DataLoader over {dataset} gives batches of shapes {batches}",
                   dataset="Windows(torch.arange(10.0), 3)", batches=batches),
                tr("Windows should batch into (4, 3) and (3, 3)."))
    return None


@always_a_verdict
def check_windows(windows_class):
    """Exercise 2: ``Windows(series, k)`` is a Dataset of (series[i:i+k], series[i+k]) pairs."""
    what = tr("the bodies of __len__ and __getitem__")
    if is_stub(windows_class):
        return not_answered(what)
    if not isinstance(windows_class, type):
        return wrong(tr("`Windows` should be a class; it is {kind}.", kind=kind(windows_class)))
    for index, (_, module) in enumerate(libraries()):
        problem = _windows_problem(windows_class, module)
        if problem is None:
            continue
        found, why = problem
        if found == "stub":
            return not_answered(what)
        if index > 0:
            return works_only_on_tensorlab("`Windows`", module, found)
        return wrong(tr("{found}.", found=found), why)
    return correct(tr("__len__ and __getitem__ are all a DataLoader needs: it batches your windows into (B, k) "
                      "inputs and (B,) targets."))


# -- exercise 3: random_split by hand --------------------------------------------------------------------

SPLIT_CASES = [(10, [6, 4]), (10, [0.7, 0.3]), (11, [0.5, 0.25, 0.25]), (7, [0.4, 0.4, 0.2])]
SEED = 1234     # not 0: an answer that ignores its generator must not match a freshly seeded global one


def _truth(torch, n, lengths):
    """``[subset.indices ...]`` of the library's own random_split, from a generator seeded SEED."""
    splits = _data(torch).random_split(range(n), lengths, generator=torch.Generator().manual_seed(SEED))
    return [list(s.indices) for s in splits]


def _plain(got):
    """The answer as a list of lists of ints, or None when it is not one (tensors become lists)."""
    if not isinstance(got, (list, tuple)):
        return None
    out = []
    for part in got:
        if hasattr(part, "tolist"):
            part = part.tolist()
        if not isinstance(part, (list, tuple)) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                            for i in part):
            return None
        out.append(list(part))
    return out


def _split_problem(answer, torch, n, lengths):
    label = f"split_indices({n}, {lengths}, generator)"
    got, error = guard.run(on(torch, answer), n, list(lengths), torch.Generator().manual_seed(SEED))
    if error is not None:
        return raised(error, tr("randperm(n, generator=generator).tolist() shuffles the indices once; then cut "
                                "it."), label)
    if got is Ellipsis:
        return "stub", ""
    if got is None:
        return tr("{label} returned None", label=label), tr("Did you forget `return`?")
    expected = _truth(torch, n, lengths)
    parts = _plain(got)
    if parts is None:
        return (tr("{label} returned {kind}", label=label, kind=kind(got)),
                tr("Return a list with one list of ints per split, as [s.indices for s in random_split(...)]."))
    if parts == expected:
        return None
    sizes, right = [len(p) for p in parts], [len(p) for p in expected]
    if sizes != right:
        if all(isinstance(x, float) for x in lengths):
            floors = [int(n * x) for x in lengths]
            if sizes == floors:
                return (tr("{label} gives splits of sizes {sizes}, which add up to {total}, not {n}",
                           label=label, sizes=sizes, total=sum(sizes), n=n),
                        tr("floor(n * fraction) leaves some items over: PyTorch gives them out one each to the "
                           "first splits, in order."))
            return (tr("{label} gives splits of sizes {sizes}", label=label, sizes=sizes),
                    tr("Each split gets floor(n * fraction) items; the leftover ones go one each to the first "
                       "splits, in order."))
        return (tr("{label} gives splits of sizes {sizes}", label=label, sizes=sizes),
                tr("Counts are used as they are: split i has lengths[i] items."))
    flat = [i for p in parts for i in p]
    if sorted(flat) != list(range(n)):
        return (tr("{label} does not use every index 0..{last} exactly once", label=label, last=n - 1),
                tr("Shuffle all n indices once (randperm), then cut the shuffled list into consecutive pieces."))
    if any(p != sorted(p) for p in expected) and all(p == sorted(p) for p in parts):
        return (tr("{label}: each split's indices are sorted", label=label),
                tr("Keep the order randperm gives: do not sort."))
    return (tr("{label} is {parts}, not the split random_split makes with the same generator", label=label,
               parts=parts),
            tr("Draw the permutation from the generator you are given -- randperm(n, generator=generator) -- once, "
               "and cut it in order: the first lengths[0] indices, then the next lengths[1] ..."))


@always_a_verdict
def check_split_indices(split_indices):
    """Exercise 3: ``split_indices(n, lengths, generator)`` is ``[s.indices for s in random_split(range(n),
    lengths, generator)]``: counts or fractions, PyTorch's rule for the leftover items."""
    what = tr("a function body that returns one list of indices per split")
    if is_stub(split_indices):
        return not_answered(what)
    if not callable(split_indices):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="split_indices", what=what,
                        kind=kind(split_indices)))
    for index, (_, module) in enumerate(libraries()):
        for n, lengths in SPLIT_CASES:
            problem = _split_problem(split_indices, module, n, lengths)
            if problem is None:
                continue
            found, why = problem
            if found == "stub":
                return not_answered(what)
            if index > 0:
                return works_only_on_tensorlab("`split_indices`", module, found)
            return wrong(tr("{found}.", found=found), why)
    return correct(tr("random_split is one randperm, cut in order: seed its generator and the split is the same "
                      "on every run."))
