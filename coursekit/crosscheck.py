"""The PyTorch cross-check: run one snippet on tensorlab and on real PyTorch, and compare.

In a lesson (after ``%load_ext coursekit``) a cell that starts with ``%%crosscheck`` runs its code
twice, once with ``torch`` meaning tensorlab and once meaning PyTorch (when installed), each in a
fresh namespace, and compares what the two runs printed, the value of the last line (shape, dtype,
strides, values, ``requires_grad``, ``grad_fn`` name, a leaf's ``.grad``, its printed form) or the
error they raised (type and PyTorch's key phrase). From plain Python, ``crosscheck(source)`` or
``crosscheck(function_of_torch)`` does the same.

**What the cell shows** -- the design decision (see also course/README.md):

- *They agree, or PyTorch is not installed*: exactly what tensorlab printed and returned, as an
  ordinary cell would show it (an error as one line ``TypeName: message``), and nothing else. So a
  lesson's stored output is the same with or without PyTorch, and nbval can check it either way.
- *They disagree*: below tensorlab's output, a block that says what differs and shows both outputs
  side by side. The output then differs from the stored one, so ``make test`` (run with PyTorch in
  CI) fails: every cross-check cell of the course is also a test of tensorlab against PyTorch.
- *On request* (``%%crosscheck --show``, ``crosscheck(..., show=True)``, or
  ``last_crosscheck()`` after any cross-check): the side-by-side view with a status line that
  honestly says "agree", "differ" or "PyTorch is not installed". Its text depends on whether
  PyTorch is installed, so a lesson that shows it stores that cell with ``# NBVAL_IGNORE_OUTPUT``.

Silent on success, like ``assert``: a verdict line such as "same as PyTorch" could not be printed
truthfully without PyTorch, and a line that differed would make stored outputs depend on it.

So that a learner without PyTorch still knows that nothing was compared, ``%load_ext coursekit``
prints :func:`status` once per kernel, in the lesson's first cell: "cross-checks are on" with the
PyTorch version, or "cross-checks are OFF" with how to install PyTorch. Both versions start with
:data:`STATUS_PREFIX`, and tools/sanitize.cfg maps both to one text, so a lesson stored with
PyTorch validates without it, and the other way round.

``--no-values`` (``values=False``) compares only shapes, dtypes, strides and error types, for
snippets with random numbers: tensorlab draws them from NumPy's generator, so the same seed gives
other numbers than PyTorch's.

    >>> crosscheck("x = torch.arange(6).view(2, 3)\\nx.t().stride()")  # shows the last line's value
    (1, 3)
    >>> last_crosscheck().agree
    True
"""
from __future__ import annotations

import ast
import contextlib
import io
import sys

from .compare import differences, mask_addresses, plain
from .language import tr
from .libs import ORACLE_VERSION, PYTORCH, TENSORLAB, libraries, library_name, namespace, torch_or_none

_NOTHING = object()  # "the snippet's last line is not an expression"
_last = None


class Run:
    """What one library did with a snippet: what it printed, the value of its last line (or
    nothing) and the error it raised (or None)."""

    def __init__(self, library, printed="", value=_NOTHING, error=None):
        self.library, self.printed, self.value, self.error = library, printed, value, error

    @property
    def name(self):
        return library_name(self.library)

    @property
    def has_value(self):
        return self.value is not _NOTHING and self.value is not None

    def text(self):
        """Everything this run showed, as the cell would: printed text, then error or value."""
        parts = [self.printed.rstrip("\n")] if self.printed else []
        if self.error is not None:
            parts.append(error_line(self.error))
        elif self.has_value:
            parts.append(mask_addresses(repr(self.value)))
        return "\n".join(parts)


def error_line(error):
    """An exception as a lesson shows it: ``RuntimeError: message``."""
    return f"{type(error).__name__}: {error}"


def key_phrase(message):
    """The part of an error message that tensorlab promises to repeat: PyTorch's first line, up to
    any parenthesised detail."""
    first = str(message).strip().splitlines()[0] if str(message).strip() else ""
    return first.split(" (")[0].strip()


def _run_source(source, library):
    tree = ast.parse(source, filename="<crosscheck>", mode="exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    names = namespace(library)
    exec(compile(tree, "<crosscheck>", "exec"), names)  # noqa: S102 - the lesson's own code
    if last is not None:
        return eval(compile(last, "<crosscheck>", "eval"), names)  # noqa: S307
    return _NOTHING


def run(snippet, library):
    """Run ``snippet`` (source text, or a function taking the library module) on ``library``;
    never raises: the error is recorded in the returned :class:`Run`."""
    out = io.StringIO()
    result = Run(library)
    with contextlib.redirect_stdout(out):
        try:
            result.value = snippet(library) if callable(snippet) else _run_source(snippet, library)
        except Exception as error:  # noqa: BLE001 - the error is the result being compared
            result.error = error
    result.printed = out.getvalue()
    return result


def _skeleton(x):
    """``x`` without the values: what --no-values compares."""
    from .compare import is_tensor
    if is_tensor(x):
        return ("tensor", tuple(x.shape), str(x.dtype), tuple(x.stride()), bool(x.requires_grad))
    x = plain(x)
    if isinstance(x, (list, tuple)):
        return tuple(_skeleton(v) for v in x)
    if isinstance(x, (int, float, complex)) and not isinstance(x, bool):
        return type(x).__name__
    return x


def compare(ours, theirs, values=True):
    """Sentences saying how tensorlab's run ``ours`` differs from PyTorch's run ``theirs``."""
    other = tr("PyTorch has")
    if ours.error is not None or theirs.error is not None:
        if ours.error is None:
            return [tr("PyTorch raised {error}; tensorlab did not", error=error_line(theirs.error))]
        if theirs.error is None:
            return [tr("tensorlab raised {error}; PyTorch did not", error=error_line(ours.error))]
        if type(ours.error).__name__ != type(theirs.error).__name__:
            return [tr("tensorlab raised {ours}, PyTorch {theirs}", ours=type(ours.error).__name__,
                       theirs=type(theirs.error).__name__)]
        phrase = key_phrase(theirs.error)
        if phrase not in str(ours.error):
            return [tr("tensorlab's error message lacks PyTorch's phrase {phrase}", phrase=repr(phrase))]
        return []
    found = []
    if values and mask_addresses(ours.printed) != mask_addresses(theirs.printed):
        found.append(tr("they printed different text"))
    if ours.has_value != theirs.has_value:
        found.append(tr("only one of them has a value on the last line"))
    elif ours.has_value:
        if values:
            found += differences(ours.value, theirs.value, where=tr("the value"), strides=True,
                                 expected_word=other)
            if not found and mask_addresses(repr(ours.value)) != mask_addresses(repr(theirs.value)):
                found.append(tr("the value prints differently"))
        elif _skeleton(ours.value) != _skeleton(theirs.value):
            found.append(tr("the value's shape/dtype/strides differ: {ours} vs {theirs}",
                            ours=_skeleton(ours.value), theirs=_skeleton(theirs.value)))
    return found


class Report:
    """The outcome of one cross-check: the runs (tensorlab's first) and what differs."""

    def __init__(self, runs, found):
        self.runs, self.differences = runs, found

    @property
    def compared(self):
        """True when PyTorch was there to compare with."""
        return len(self.runs) > 1

    @property
    def agree(self):
        """True when nothing differs (also when PyTorch was not there to differ)."""
        return not self.differences

    def status(self):
        if not self.compared:
            return tr("PyTorch is not installed: this ran on tensorlab only.")
        theirs = self.runs[1].name
        if self.agree:
            return tr("tensorlab and {theirs} agree.", theirs=theirs)
        return tr("tensorlab and {theirs} differ:", theirs=theirs)

    def side_by_side(self, width=44):
        """The two outputs in two columns, under the status line and the differences."""
        lines = [tr("PyTorch cross-check -- {status}", status=self.status())]
        lines += [f"  - {d}" for d in self.differences]
        columns = [r.text().splitlines() or [tr("(no output)")] for r in self.runs]
        if len(columns) == 1:
            columns.append([tr("(not installed)")])
        heads = [TENSORLAB, self.runs[1].name if self.compared else PYTORCH]
        left = max([width] + [len(s) for s in columns[0]])
        lines.append(f"{heads[0]:<{left}} | {heads[1]}")
        lines.append(f"{'-' * left}-+-{'-' * max(len(heads[1]), 8)}")
        for i in range(max(len(c) for c in columns)):
            a = columns[0][i] if i < len(columns[0]) else ""
            b = columns[1][i] if i < len(columns[1]) else ""
            lines.append(f"{a:<{left}} | {b}".rstrip())
        return "\n".join(lines)

    def __repr__(self):
        return self.side_by_side()


#: How the status line starts, with or without PyTorch (tools/sanitize.cfg relies on it, and on the
#: Chinese one starting "coursekit：对照功能已"; the lines after the first are indented by two spaces).
STATUS_PREFIX = "coursekit: cross-checks are "


def status():
    """One line (continued, indented, when long) saying whether there is a PyTorch to compare with.

    >>> status().startswith(STATUS_PREFIX)
    True
    """
    torch = torch_or_none()
    if torch is not None:
        return tr("coursekit: cross-checks are on -- {library} is installed: %%crosscheck cells\n"
                  "  compare tensorlab with it, and the exercise checks run your answers on both.",
                  library=library_name(torch))
    return tr("coursekit: cross-checks are OFF -- PyTorch is not installed: %%crosscheck cells\n"
              "  compare nothing, and the exercise checks run on tensorlab only. To turn them on:\n"
              "  pip install torch=={version}  (README.md, \"PyTorch, the test oracle\")",
              version=ORACLE_VERSION)


def last_crosscheck():
    """The :class:`Report` of the most recent cross-check (its repr is the side-by-side view)."""
    return _last


def crosscheck(snippet, *, show=False, values=True):
    """Run ``snippet`` on tensorlab and, when installed, on PyTorch; show tensorlab's output, plus
    the side-by-side view when they differ (or ``show=True``). Returns tensorlab's value of the
    last line (None when there is none) so that a notebook displays it as a cell would."""
    global _last
    runs = [run(snippet, module) for _, module in libraries()]
    ours = runs[0]
    found = compare(ours, runs[1], values=values) if len(runs) > 1 else []
    _last = Report(runs, found)
    shown = ours.printed  # written in one go, so that a kernel never splits it into two outputs
    if ours.error is not None:
        shown += error_line(ours.error) + "\n"
    if found or show:
        shown += _last.side_by_side() + "\n"
    if shown:
        sys.stdout.write(shown)
    return ours.value if ours.has_value else None


def _parse_options(line):
    words = line.split()
    unknown = [w for w in words if w not in ("--show", "--no-values")]
    if unknown:
        raise ValueError(f"%%crosscheck: unknown option(s) {unknown}; use --show and/or --no-values")
    return {"show": "--show" in words, "values": "--no-values" not in words}


def crosscheck_magic(line, cell):
    """``%%crosscheck [--show] [--no-values]``: cross-check the cell's code (see the module doc)."""
    return crosscheck(cell, **_parse_options(line))
