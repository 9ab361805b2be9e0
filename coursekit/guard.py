"""Running a learner's answer safely: whatever it does, the check still gives a verdict.

An exercise check calls code it has never seen. Three things must not take the check down with it:

- **An answer that never returns** (``while True:`` ...): :func:`run` stops it after
  :data:`TIME_LIMIT` seconds. On the main thread -- where a Jupyter kernel, pytest and plain
  ``python`` run cells -- a ``SIGALRM`` timer raises :class:`TimeLimitExceeded` inside the answer;
  elsewhere (a thread, Windows) a trace function counts the time between the lines of Python it
  runs. ``TimeLimitExceeded`` derives from ``BaseException``, so an answer's ``except Exception:``
  cannot swallow it; the timer repeats, so a bare ``except:`` cannot swallow it for good.
- **An answer that stops the program** (``sys.exit()``, ``exit()``): ``SystemExit`` is caught and
  reported like any error. ``KeyboardInterrupt`` (Ctrl-C, the notebook's "interrupt" button) is
  *not* caught: stopping a check is the learner's right, not a wrong answer.
- **An answer that changes its inputs** (``scores /= ...`` on the argument): :func:`snapshot`
  freezes the inputs before the call and :func:`changes` lists what differs after it -- values,
  shape, strides, ``requires_grad`` and the version counter of tensors (lesson 08: every in-place
  write bumps it), NumPy arrays, lists, dicts, and a Module's parameters, buffers and train/eval
  mode. ``.grad`` is not compared: several exercises are about filling it.

    >>> import sys
    >>> value, error = run(lambda: sys.exit(3))
    >>> failure(error)[0]
    'it called sys.exit(), which stops the program instead of returning a result'
    >>> import tensorlab as torch
    >>> x = torch.ones(3)
    >>> before = snapshot(x)
    >>> _ = x.mul_(2)
    >>> changes(before, x, "x")
    ['`x` has new values (at 3 of 3 positions) and its version counter went from 0 to 1']
"""
from __future__ import annotations

import signal
import sys
import threading
import time

import numpy as np

from .compare import is_tensor, safe_repr, to_numpy
from .language import tr

#: Seconds one call of a learner's code may take -- generous: every answer that is on the right
#: track takes milliseconds, but a slow machine or a first import can be slow.
TIME_LIMIT = 10.0


class TimeLimitExceeded(BaseException):
    """Raised inside an answer that ran longer than its time limit (a BaseException, so that the
    answer's own ``except Exception:`` does not catch it)."""

    def __init__(self, limit):
        super().__init__(f"it was stopped after {limit:g} seconds")
        self.limit = limit


def run(function, *args, limit=None):
    """``(value, None)`` when ``function(*args)`` returns, ``(None, error)`` when it raises an
    Exception, calls ``sys.exit`` or runs past ``limit`` seconds (default :data:`TIME_LIMIT`).
    ``KeyboardInterrupt`` propagates."""
    limit = TIME_LIMIT if limit is None else limit
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        return _run_with_alarm(function, args, limit)
    return _run_with_trace(function, args, limit)


def _call(function, args):
    try:
        return function(*args), None
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the learner's error is what we report
        return None, error


def _run_with_alarm(function, args, limit):
    armed = [True]

    def alarm(signum, frame):
        if armed[0]:
            raise TimeLimitExceeded(limit)

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, alarm)
    outer_delay, outer_interval = signal.setitimer(signal.ITIMER_REAL, limit, 0.25)
    try:
        try:
            return _call(function, args)
        finally:
            armed[0] = False
    except TimeLimitExceeded as error:
        armed[0] = False
        return None, error
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_delay:  # someone else's timer (pytest-timeout, say) was running: give it back
            remaining = max(outer_delay - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, remaining, outer_interval)


def _run_with_trace(function, args, limit):
    """The fallback off the main thread: look at the clock on every line of Python the answer runs
    (it cannot stop a single long call into C, such as ``time.sleep``)."""
    deadline = time.monotonic() + limit

    def tracer(frame, event, arg):
        if time.monotonic() > deadline:
            raise TimeLimitExceeded(limit)
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        return _call(function, args)
    except TimeLimitExceeded as error:
        return None, error
    finally:
        sys.settrace(previous)


def failure(error, subject=None):
    """``(what happened, hint)`` for the failures that are not ordinary errors -- the time limit and
    ``sys.exit`` -- else None. ``subject`` is who failed ("it", "backward" ...)."""
    subject = tr("it") if subject is None else subject
    if isinstance(error, TimeLimitExceeded):
        return (tr("{subject} did not finish within {limit:g} seconds, so the check stopped it",
                   subject=subject, limit=error.limit),
                tr("Is there a loop that never ends (a `while` whose condition never becomes false), or a "
                   "function that calls itself forever? Run it yourself on a small input and interrupt it "
                   "(the stop button) to see the line it is stuck on."))
    if isinstance(error, SystemExit):
        return (tr("{subject} called sys.exit(), which stops the program instead of returning a result",
                   subject=subject),
                tr("A function answers with `return`: sys.exit() and exit() end the whole program, "
                   "and are never what an exercise wants."))
    return None


# -- inputs changed in place ---------------------------------------------------------------------------

def _is_module(x):
    return type(x).__module__.split(".")[0] in ("tensorlab", "torch") and hasattr(x, "named_parameters")


def snapshot(x):
    """What a call could change in place in ``x``, frozen (copies, not references)."""
    if is_tensor(x):
        return ("tensor", tuple(x.shape), tuple(x.stride()), x.storage_offset(), bool(x.requires_grad),
                getattr(x, "_version", None), to_numpy(x))
    if isinstance(x, np.ndarray):
        return ("array", x.shape, x.dtype.str, x.copy())
    if _is_module(x):
        tensors = dict(x.named_parameters())
        tensors.update(x.named_buffers())
        return ("module", tuple(m.training for m in x.modules()),
                {name: snapshot(t) for name, t in tensors.items()})
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, len(x), [snapshot(v) for v in x])
    if isinstance(x, dict):
        return ("dict", list(x), [snapshot(v) for v in x.values()])
    if isinstance(x, (int, float, complex, str, bytes, bool, type(None))):
        return ("value", x)
    return ("other",)   # functions, classes, other objects: not looked into


def _same_values(a, b):
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))


def _tensor_changes(before, t, name):
    _, shape, strides, offset, requires_grad, version, values = before
    if tuple(t.shape) != shape:
        return [f"`{name}` changed shape from {shape} to {tuple(t.shape)}"]
    found = []
    now = to_numpy(t)
    if not _same_values(now, values):
        count = int(np.sum(~((now == values) | ((now != now) & (values != values)))))
        found.append(f"has new values (at {count} of {values.size} positions)")
    if (tuple(t.stride()), t.storage_offset()) != (strides, offset):
        found.append(f"has other strides now ({tuple(t.stride())} instead of {strides})")
    if bool(t.requires_grad) != requires_grad:
        found.append(f"has requires_grad={t.requires_grad} now")
    now_version = getattr(t, "_version", None)
    if version is not None and now_version != version:
        found.append(f"its version counter went from {version} to {now_version}")
    if not found:
        return []
    if found == [found[-1]] and found[0].startswith("its version"):
        found = [f"was written in place (its values ended up the same, but {found[0]})"]
    return [f"`{name}` " + " and ".join(found)]


def changes(before, x, name):
    """Sentences saying how ``x`` (called ``name`` in messages) differs from its :func:`snapshot`
    ``before``; empty when nothing changed."""
    kind = before[0]
    if kind == "tensor":
        return _tensor_changes(before, x, name)
    if kind == "array":
        if x.shape != before[1] or not _same_values(x, before[3]):
            return [f"`{name}` has new values"]
        return []
    if kind == "module":
        flags = tuple(m.training for m in x.modules())
        if flags != before[1]:
            return [f"`{name}` was switched to {'training' if x.training else 'eval'} mode "
                    f"(its .training changed from {before[1][0]} to {x.training})"]
        tensors = dict(x.named_parameters())
        tensors.update(x.named_buffers())
        if set(tensors) != set(before[2]):
            return [f"`{name}` now holds other parameters or buffers"]
        return [c for key, frozen in before[2].items() for c in changes(frozen, tensors[key], f"{name}.{key}")]
    if kind in ("list", "tuple"):
        if len(x) != before[1]:
            return [f"`{name}` changed length from {before[1]} to {len(x)}"]
        return [c for i, (frozen, v) in enumerate(zip(before[2], x)) for c in changes(frozen, v, f"{name}[{i}]")]
    if kind == "dict":
        if list(x) != before[1]:
            return [f"`{name}` has other keys now"]
        return [c for key, frozen, v in zip(before[1], before[2], x.values())
                for c in changes(frozen, v, f"{name}[{key!r}]")]
    if kind == "value":
        old = before[1]
        same = type(x) is type(old) and (x == old or (x != x and old != old))
        return [] if same else [f"`{name}` is now {safe_repr(x)} instead of {safe_repr(old)}"]
    return []


IN_PLACE = ("Your function changed its input in place, so the caller's data is now different -- and "
            "every later line that reads it (autograd too) sees the changed values. Leave the inputs as "
            "they are and build the result as a new tensor: an operation without a trailing _ "
            "(`x = x / s`, not `x /= s` or `x.div_(s)`), or work on a `.clone()`.")
MODE = ("Calling .eval() or .train() on a module you were given switches it for the caller too: their "
        "model stays in that mode (and a BatchNorm in training mode updates its running statistics). "
        "Compute the result from the module's tensors without switching it -- or switch it back before "
        "returning.")
CONTAINER = ("Your function changed the list or dict it was given (append, pop, sort, `del`, "
             "`values[i] = ...` change it for the caller too): build a new one for the result and leave "
             "the input as it was.")


def why_changed(change):
    """The hint for one of the sentences of :func:`changes`."""
    if " mode (" in change:
        return tr(MODE)
    if any(words in change for words in (" changed length ", " is now ", " has other keys ")):
        return tr(CONTAINER)
    return tr(IN_PLACE)


def input_changes(before, args, names):
    """What a call changed in its arguments ``args`` (frozen as ``before``, a list of snapshots);
    ``names`` are the parameter names of the learner's function, for the messages."""
    found = []
    for i, (frozen, arg) in enumerate(zip(before, args)):
        name = names[i] if i < len(names) else f"argument {i + 1}"
        found += changes(frozen, arg, name)
    return found
