"""Comparing results across libraries, and saying in words what differs.

Both the cross-check (tensorlab against PyTorch) and the exercise checks (a learner's answer
against the reference) need the same thing: walk two results side by side and list what differs,
in terms a learner can act on -- which shape, dtype, stride, value or gradient.

    >>> import tensorlab as torch
    >>> differences(torch.tensor([1., 2.]), torch.tensor([1., 2.]))
    []
    >>> differences(torch.tensor([1, 2]), torch.tensor([1., 2.]))
    ['the result has dtype torch.int64, expected torch.float32']
    >>> differences(torch.zeros(2, 3).t(), torch.zeros(3, 2), strides=True)
    ['the result has strides (1, 3), expected (2, 1)']
    >>> differences(torch.tensor([1., 5., 3.]), torch.tensor([1., 2., 3.]))
    ['the result differs at 1 of 3 positions, first at [1]: 5.0 instead of 2.0']
"""
from __future__ import annotations

import math
import re

import numpy as np

from .language import tr

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def mask_addresses(text):
    """Object addresses (``<MulBackward0 object at 0x7f...>``) change every run: mask them."""
    return _ADDRESS.sub("0xADDR", text)


def is_tensor(x):
    """True for a tensorlab or a PyTorch tensor."""
    top = type(x).__module__.split(".")[0]
    return top in ("tensorlab", "torch") and hasattr(x, "stride") and hasattr(x, "shape")


def to_numpy(t):
    """A tensor's values as a NumPy array (a copy; works for either library, any requires_grad)."""
    t = t.detach().cpu()
    if getattr(t, "is_conj", lambda: False)():   # PyTorch's conj() is a lazy view: materialise it
        t = t.resolve_conj()
    return np.array(t.numpy(), copy=True)


def plain(x):
    """``x`` with library-specific objects turned into plain Python, so that values from the two
    libraries (or from a learner and a reference) compare with ``==``: dtypes become their names
    ('torch.float32'), devices their strings, sizes tuples. Tensors stay tensors."""
    if is_tensor(x):
        return x
    kind = type(x).__name__
    module = type(x).__module__.split(".")[0]
    if module in ("tensorlab", "torch"):
        if kind == "dtype" or kind == "device":
            return str(x)
        if kind == "Size":
            return tuple(int(n) for n in x)
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, (list, tuple)):
        return type(x)(plain(v) for v in x) if type(x) in (list, tuple) else tuple(plain(v) for v in x)
    return x


def _counterparts(a, b):
    """True when ``a`` and ``b`` are the same kind of object from the two libraries: classes of one
    name, different, one of them tensorlab's (PyTorch's grad_fn classes live in ``builtins``)."""
    ta, tb = type(a), type(b)
    return (ta is not tb and ta.__name__ == tb.__name__
            and "tensorlab" in (ta.__module__.split(".")[0], tb.__module__.split(".")[0]))


def safe_repr(x):
    """``repr(x)``, or a description when that repr raises (a learner's object may do anything)."""
    try:
        return repr(x)
    except Exception as error:  # noqa: BLE001 - a broken repr is described, not raised
        return f"<a {type(x).__name__} whose repr raised {type(error).__name__}>"


def describe(x, limit=80):
    """A short, one-line description of a value for a hint."""
    if x is Ellipsis:
        return "..."
    if is_tensor(x):
        text = " ".join(mask_addresses(safe_repr(x)).split())
        if len(text) <= limit:
            return text
        return tr("a tensor of shape {shape} and dtype {dtype}", shape=tuple(x.shape), dtype=x.dtype)
    if isinstance(x, BaseException):
        return f"{type(x).__name__}: {x}"
    if isinstance(plain(x), str) and plain(x).startswith(("torch.", "cpu", "cuda")):
        return plain(x)  # a dtype or device name reads best as the code that makes it
    text = " ".join(mask_addresses(safe_repr(plain(x))).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def kind(x):
    """What sort of thing ``x`` is, in words: 'a tensor', 'a tuple of 2 items', 'an int'."""
    if is_tensor(x):
        return tr("a tensor")
    if isinstance(x, (list, tuple)):
        return tr("a {type} of {n} items", type=type(x).__name__, n=len(x))
    name = type(plain(x)).__name__
    return tr("an {type}", type=name) if name[0] in "aeiou" else tr("a {type}", type=name)


def _first_mismatch(got, expected, rtol, atol):
    """(count, index, got value, expected value) of the elements that differ, or None."""
    a, b = to_numpy(got), to_numpy(expected)
    if a.dtype == bool or b.dtype == bool:
        bad = a != b
    else:
        wide = np.complex128 if "c" in (a.dtype.kind, b.dtype.kind) else np.float64
        a64, b64 = a.astype(wide), b.astype(wide)
        bad = ~np.isclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True)
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return int(bad.sum()), list(index), str(a[index]), str(b[index])  # str: float32 reads as 0.16666667


def _tensor_differences(got, expected, where, strides, grads, rtol, atol, expected_word=None):
    exp = tr("expected") if expected_word is None else expected_word
    if tuple(got.shape) != tuple(expected.shape):
        return [tr("{where} has shape {got}, {exp} {expected}", where=where, got=tuple(got.shape), exp=exp,
                   expected=tuple(expected.shape))]
    found = []
    if str(got.dtype) != str(expected.dtype):
        found.append(tr("{where} has dtype {got}, {exp} {expected}", where=where, got=got.dtype, exp=exp,
                        expected=expected.dtype))
    mismatch = _first_mismatch(got, expected, rtol, atol)
    if mismatch is not None:
        count, index, a, b = mismatch
        found.append(tr("{where} differs at {count} of {n} positions, first at {index}: {got} instead of {expected}",
                        where=where, count=count, n=got.numel(), index=index, got=a, expected=b))
    if strides and tuple(got.stride()) != tuple(expected.stride()):
        found.append(tr("{where} has strides {got}, {exp} {expected}", where=where, got=tuple(got.stride()),
                        exp=exp, expected=tuple(expected.stride())))
    if grads:
        if bool(got.requires_grad) != bool(expected.requires_grad):
            found.append(tr("{where} has requires_grad={got}, {exp} {expected}", where=where,
                            got=got.requires_grad, exp=exp, expected=expected.requires_grad))
        names = [type(t.grad_fn).__name__ if t.grad_fn is not None else None for t in (got, expected)]
        if names[0] != names[1]:
            found.append(tr("{where} has grad_fn {got}, {exp} {expected}", where=where, got=names[0], exp=exp,
                            expected=names[1]))
        g1, g2 = _leaf_grad(got), _leaf_grad(expected)
        if (g1 is None) != (g2 is None):
            found.append(tr("{where}.grad is {got}, {exp} {expected}", where=where, got=describe(g1), exp=exp,
                            expected=describe(g2)))
        elif g1 is not None:
            found += _tensor_differences(g1, g2, f"{where}.grad", False, False, rtol, atol, exp)
    return found


def _is_kind(where, got, exp, expected):
    return tr("{where} is {got_kind} ({got}), {exp} {expected_kind} ({expected})", where=where, got_kind=kind(got),
              got=describe(got), exp=exp, expected_kind=kind(expected), expected=describe(expected))


def _leaf_grad(t):
    return t.grad if t.is_leaf else None


def differences(got, expected, *, where=None, strides=False, grads=True,
                rtol=1e-5, atol=1e-6, expected_word=None):
    """What differs between ``got`` and ``expected``, as a list of sentences (empty: the same).

    Tensors are compared by shape, then dtype, values (``rtol``/``atol``, NaN equal to NaN),
    strides (only with ``strides=True``) and autograd state (``requires_grad``, ``grad_fn``'s name,
    a leaf's ``.grad``; off with ``grads=False``). Lists and tuples item by item; dtypes, devices and
    sizes by name; floats approximately; other objects of the two libraries (a Module, a grad_fn) by
    what they print; anything else with ``==``. ``expected_word`` is how the
    sentences introduce the expected side ("expected", "PyTorch has")."""
    where = tr("the result") if where is None else where
    exp = tr("expected") if expected_word is None else expected_word
    if is_tensor(got) and is_tensor(expected):
        return _tensor_differences(got, expected, where, strides, grads, rtol, atol, exp)
    got_p, exp_p = plain(got), plain(expected)
    if is_tensor(got_p) != is_tensor(exp_p) or (
            isinstance(got_p, (list, tuple)) != isinstance(exp_p, (list, tuple))):
        return [_is_kind(where, got, exp, expected)]
    if isinstance(got_p, (list, tuple)):
        if len(got_p) != len(exp_p):
            return [tr("{where} has {got} items, {exp} {expected}", where=where, got=len(got_p), exp=exp,
                       expected=len(exp_p))]
        found = []
        for i, (a, b) in enumerate(zip(got_p, exp_p)):
            found += differences(a, b, where=f"{where}[{i}]", strides=strides, grads=grads,
                                 rtol=rtol, atol=atol, expected_word=exp)
        return found
    if isinstance(got_p, float) or isinstance(exp_p, float):
        try:
            same = math.isclose(float(got_p), float(exp_p), rel_tol=rtol, abs_tol=atol) or (
                math.isnan(float(got_p)) and math.isnan(float(exp_p)))
        except (TypeError, ValueError):
            same = False
        if same and type(got_p) is type(exp_p):
            return []
        if same:
            return [_is_kind(where, got_p, exp, exp_p)]
        return [tr("{where} is {got}, {exp} {expected}", where=where, got=describe(got_p), exp=exp, expected=describe(exp_p))]
    if _counterparts(got_p, exp_p):
        # a Module, a grad_fn node...: objects of the two libraries never compare equal with ==;
        # they agree when they print the same (addresses aside)
        if mask_addresses(repr(got_p)) == mask_addresses(repr(exp_p)):
            return []
        return [tr("{where} prints as {got}, {exp} {expected}", where=where, got=describe(got_p), exp=exp,
                   expected=describe(exp_p))]
    try:
        equal = bool(got_p == exp_p)
    except Exception:  # noqa: BLE001 - objects whose == fails are simply different
        equal = False
    if equal and type(got_p) is type(exp_p):
        return []
    if equal:
        return [_is_kind(where, got_p, exp, exp_p)]
    return [tr("{where} is {got}, {exp} {expected}", where=where, got=describe(got_p), exp=exp, expected=describe(exp_p))]


def shares_memory(a, b):
    """True when tensors ``a`` and ``b`` (same library) share one storage -- one is a view of the
    other, or both views of a third."""
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
