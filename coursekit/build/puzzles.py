"""Tensor puzzles: rebuild PyTorch functions from broadcasting, ``arange``, ``where`` and indexing.

See course/build/puzzles.ipynb. Each puzzle is one function to write -- ``outer``, ``triu``,
``cumsum``, ``bincount`` ... -- under strict rules, checked on the source of the answer
(:func:`rule_violations`, on its syntax tree) before it runs:

- no loops of any kind (``for``, ``while``, comprehensions), no ``if``, ``lambda``, ``import`` or
  recursion;
- the only calls are ``torch.arange``, ``torch.where``, the ``.sum`` method, and the learner's own
  earlier puzzles (called by their names);
- the only attribute besides those is ``.shape``;
- everything else is operators (``+ - * / // % ** @``, ``== != < <= > >=``, ``& | ~ ^``, unary ``-``),
  indexing and slicing (``x[None]``, ``x[:, None]``, ``x[idx]``), number literals, ``None`` and
  names the function assigned itself (``name = ...``: plain assignments only, nothing in place).

Then :func:`check_puzzle` runs the answer and the real function on inputs drawn by Hypothesis
(seeded, so the same every run; smallest inputs first) on PyTorch -- or, where PyTorch is not
installed, on tensorlab's own function -- and reports the first input where they differ, with a
hint when the answer looks like a classic mistake.

    >>> import tensorlab as torch
    >>> def outer(a, b):
    ...     return a[:, None] * b[None, :]
    >>> _ = check_puzzle("outer", outer, quiet=True)
    >>> def cumsum(a):
    ...     return torch.cumsum(a, 0)
    >>> print(rule_violations(cumsum)[0])
    line 2: `torch.cumsum` is not on the allowed list
"""
from __future__ import annotations

import ast
import contextlib
import functools
import inspect
import textwrap
import types

import numpy as np

from .. import guard
from ..check import Verdict, _sentence, raised, report
from ..compare import describe, differences
from ..language import tr
from ..libs import TENSORLAB, counterpart, libraries

#: What an answer may use besides operators, indexing, literals and its own names.
ALLOWED_TORCH = ("arange", "where")
ALLOWED_METHODS = ("sum",)
ALLOWED_ATTRIBUTES = ("shape",)
ALLOWED_TEXT = ("`torch.arange`, `torch.where`, `.sum(...)`, `.shape`, operators, indexing and "
                "your earlier puzzles")
#: The hints are written with tr() where they are defined (at import, in English: the keys of the
#: catalog) and translated when shown, in the language of that moment.
_translate = tr
#: How many drawn inputs each puzzle is checked on (plus the example of its statement).
EXAMPLES = 30


# -- the rules, on the answer's syntax tree ------------------------------------------------------------

_BANNED = {ast.For: "a `for` loop", ast.AsyncFor: "a `for` loop", ast.While: "a `while` loop",
           ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
           ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression",
           ast.Import: "`import`", ast.ImportFrom: "`import`", ast.Lambda: "a `lambda`",
           ast.AugAssign: "an in-place update (`+=` ...)", ast.If: "an `if` statement",
           ast.IfExp: "an `... if ... else ...` expression", ast.Try: "a `try` statement",
           ast.With: "a `with` statement", ast.FunctionDef: "a nested `def`", ast.ClassDef: "a `class`",
           ast.Global: "`global`", ast.Nonlocal: "`nonlocal`", ast.BoolOp: "`and`/`or`",
           ast.Delete: "`del`", ast.Raise: "`raise`", ast.Assert: "`assert`", ast.List: "a list literal",
           ast.Dict: "a dict literal", ast.Set: "a set literal", ast.Starred: "`*` unpacking",
           ast.JoinedStr: "an f-string", ast.NamedExpr: "`:=`", ast.Await: "`await`",
           ast.Yield: "`yield`", ast.YieldFrom: "`yield`"}
_COMPARE_BANNED = {ast.Is: "`is`", ast.IsNot: "`is not`", ast.In: "`in`", ast.NotIn: "`not in`"}


def _dotted(node):
    """``torch.cumsum`` for an Attribute chain of names, else ``.cumsum``."""
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else ""
        return f"{inner}.{node.attr}" if inner and not inner.startswith(".") else f".{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


class _Rules(ast.NodeVisitor):
    def __init__(self, params, own_name):
        self.known = set(params)
        self.own_name = own_name
        self.found = []

    def refuse(self, node, what):
        self.found.append((getattr(node, "lineno", 1), what))

    def generic_visit(self, node):
        if type(node) in _BANNED:
            self.refuse(node, tr("{what} is not allowed", what=tr(_BANNED[type(node)])))
            return
        super().generic_visit(node)

    def visit_Constant(self, node):
        if not (node.value is None or node.value is Ellipsis or isinstance(node.value, (bool, int, float))):
            self.refuse(node, tr("{what} is not allowed", what=tr("a string or bytes literal")))

    def visit_Compare(self, node):
        for op in node.ops:
            if type(op) in _COMPARE_BANNED:
                self.refuse(node, tr("{what} is not allowed", what=tr(_COMPARE_BANNED[type(op)])))
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            self.refuse(node, tr("{what} is not allowed", what="`not`"))
        self.generic_visit(node)

    def visit_Assign(self, node):
        for target in node.targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            for name in names:
                if not isinstance(name, ast.Name):
                    self.refuse(node, tr("only plain assignments (`name = ...`) are allowed"))
                    return
                self.known.add(name.id)
        self.visit(node.value)

    def visit_Name(self, node):
        allowed = self.known | set(PUZZLES)
        if node.id == self.own_name:
            self.refuse(node, tr("`{name}` calls itself", name=node.id))
        elif node.id == "torch":
            self.refuse(node, tr("`torch` may only be used as `torch.arange` or `torch.where`"))
        elif node.id not in allowed:
            self.refuse(node, tr("`{name}` is not on the allowed list", name=node.id))

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "torch":
            if node.attr not in ALLOWED_TORCH:
                self.refuse(node, tr("`{name}` is not on the allowed list", name=_dotted(node)))
            return
        if node.attr not in ALLOWED_ATTRIBUTES:
            self.refuse(node, tr("`{name}` is not on the allowed list", name=_dotted(node)))
            return
        self.visit(node.value)

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ALLOWED_METHODS and not (
                isinstance(func.value, ast.Name) and func.value.id == "torch"):
            self.visit(func.value)
        elif isinstance(func, ast.Name) and func.id in set(PUZZLES) - {self.own_name}:
            pass
        else:
            self.visit(func)
        for part in node.args + [k.value for k in node.keywords]:
            self.visit(part)


def _source_tree(fn):
    source = textwrap.dedent(inspect.getsource(fn))
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return None


def rule_violations(fn):
    """The puzzle rules ``fn`` breaks, as sentences ``"line N: ..."`` (line 1 is its ``def``);
    empty when it keeps them. Its source must be readable (a ``def`` in a cell or a file)."""
    try:
        node = _source_tree(fn)
    except (OSError, TypeError, SyntaxError, IndentationError):
        node = None
    if node is None:
        return [tr("its source could not be read: write it as a `def` in a cell or a file")]
    if isinstance(node, ast.AsyncFunctionDef):
        return [tr("line {line}: {what}", line=1, what=tr("{what} is not allowed", what="`async def`"))]
    first = node.lineno
    args = node.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    rules = _Rules(params, node.name)
    for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
        rules.visit(default)
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]                                  # the docstring
    for statement in body:
        if isinstance(statement, ast.Return):
            if statement.value is not None:
                rules.visit(statement.value)
        elif isinstance(statement, ast.Assign):
            rules.visit(statement)
        elif isinstance(statement, ast.Pass):
            continue
        elif isinstance(statement, ast.Expr):             # `...`, or a value thrown away: its parts obey the rules
            rules.visit(statement.value)
        elif type(statement) in _BANNED:
            rules.generic_visit(statement)                 # names what it is: a `for` loop, `import` ...
        else:
            rules.refuse(statement, tr("{what} is not allowed", what=tr("a statement other than `=` and `return`")))
    return [tr("line {line}: {what}", line=line - first + 1, what=what) for line, what in sorted(rules.found)]


def _puzzles_called(fn):
    """The names of the other puzzles ``fn`` calls, in order of appearance."""
    node = _source_tree(fn)
    called = [call.func.id for call in ast.walk(node) if isinstance(call, ast.Call)
              and isinstance(call.func, ast.Name) and call.func.id in PUZZLES and call.func.id != node.name]
    return list(dict.fromkeys(called))


def is_unanswered(fn):
    """True for the notebook's stub: a body of only ``...``, ``pass``, a docstring or
    ``raise NotImplementedError``."""
    try:
        node = _source_tree(fn)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return False
    if node is None:
        return False
    for statement in node.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and (
                statement.value.value is Ellipsis or isinstance(statement.value.value, str)):
            continue
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Raise) and "NotImplementedError" in ast.dump(statement):
            continue
        return False
    return True


# -- the puzzles -----------------------------------------------------------------------------------

class Hint:
    """A classic mistake: ``wrong(torch, *args)`` computes what it gives (or ``when(got, args)``
    recognises it; ``got`` may be the exception the answer raised), and ``text`` says what to look at."""

    def __init__(self, text, wrong=None, when=None):
        self.text, self.wrong, self.when = text, wrong, when

    def matches(self, got, args, torch):
        if self.when is not None:
            return bool(self.when(got, args))
        if isinstance(got, BaseException):
            return False
        value, error = guard.run(self.wrong, torch, *args)
        return error is None and not differences(got, value, grads=False)


class Puzzle:
    """One puzzle: its ``name``, ``signature``, ``statement`` (with an example), the real function
    ``reference(torch, *args)`` (``real`` names it), ``draw(strategies)`` giving a Hypothesis
    strategy of argument tuples (NumPy arrays become tensors), the ``example`` arguments, its
    ``hints`` (:class:`Hint`) and ``dtype_hint``, for a result right but for its dtype."""

    def __init__(self, name, signature, statement, reference, draw, example, hints=(), real=None, dtype_hint=""):
        self.name, self.signature, self.statement = name, signature, statement
        self.reference, self.draw, self.example, self.hints = reference, draw, example, list(hints)
        self.real, self.dtype_hint = real or f"torch.{name}", dtype_hint


PUZZLES = {}


def puzzle(*args, **kwargs):
    made = Puzzle(*args, **kwargs)
    PUZZLES[made.name] = made
    return made


# -- the set (each statement is the docstring the notebook shows; `real` names the function it rebuilds) --

def _vec(st, lo=-9, hi=9, min_size=1, max_size=6, size=None):
    low, high = (size, size) if size is not None else (min_size, max_size)
    return st.lists(st.integers(lo, hi), min_size=low, max_size=high).map(lambda v: np.array(v, dtype=np.int64))


def _mat(st, rows, cols, lo=-9, hi=9):
    return st.lists(st.integers(lo, hi), min_size=rows * cols, max_size=rows * cols).map(
        lambda v: np.array(v, dtype=np.int64).reshape(rows, cols))


def _square(st, lo=-9, hi=9):
    return st.integers(1, 5).flatmap(lambda n: st.tuples(_mat(st, n, n, lo, hi)))


def _halves(st, n):
    return st.lists(st.integers(-4, 4), min_size=n, max_size=n).map(lambda v: (np.array(v) / 2).astype(np.float32))


def _i64(rows):
    return np.array(rows, dtype=np.int64)


def _tensor(got):
    return not isinstance(got, BaseException) and hasattr(got, "shape")


def _index_error(got, args):
    return isinstance(got, IndexError)


def _heaviside(torch, a, b):
    if hasattr(torch, "heaviside"):
        return torch.heaviside(a, b)
    return torch.where(a > 0, torch.ones_like(a), torch.where(a == 0, b, torch.zeros_like(a)))


def _trace(torch, a):
    return torch.trace(a) if hasattr(torch, "trace") else torch.diag(a).sum()


puzzle("outer", "outer(a, b)", "The outer product: `result[i, j] = a[i] * b[j]`.\n\n"
       "    outer([1, 2, 3], [1, 10]) -> [[1, 10], [2, 20], [3, 30]]",
       lambda torch, a, b: torch.outer(a, b), lambda st: st.tuples(_vec(st), _vec(st)),
       (_i64([1, 2, 3]), _i64([1, 10])), hints=[
           Hint(tr("result[i, j] is a[i] * b[j]: `a` must vary down the rows (axis 0) and `b` along the columns "
                   "(axis 1). Check which axis each one got."), wrong=lambda torch, a, b: torch.outer(b, a)),
           Hint(tr("Two vectors without a new axis multiply element by element (or fail to broadcast): give "
                   "each a length-1 axis with `None` so that they broadcast to a matrix."),
                when=lambda got, args: not _tensor(got) or got.dim() < 2)])

puzzle("eye", "eye(n)", "The n-by-n identity matrix: ones where row == column, zeros elsewhere.\n\n"
       "    eye(3) -> [[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]]",
       lambda torch, n: torch.eye(n), lambda st: st.tuples(st.integers(1, 6)), (3,),
       dtype_hint=tr("torch.eye gives float32, like torch.zeros. What dtype does `bool * 1` give -- and "
                     "`bool * 1.0`?"), hints=[
           Hint(tr("Your ones are on the other diagonal: the identity has them where the row index equals the "
                   "column index."), wrong=lambda torch, n: torch.flip(torch.eye(n), [0]))])

puzzle("diag", "diag(a)", "The diagonal of a square matrix, as a vector: `result[i] = a[i, i]`.\n\n"
       "    diag([[1, 2], [3, 4]]) -> [1, 4]",
       lambda torch, a: torch.diag(a), _square, (_i64([[1, 2], [3, 4]]),), hints=[
           Hint(tr("torch.diag of a matrix returns a vector of length n; yours is still a matrix. Keeping a[i, i] "
                   "in place is not picking it out: index both axes with the same index tensor."),
                when=lambda got, args: _tensor(got) and got.dim() == 2)])

puzzle("trace", "trace(a)", "The sum of the diagonal of a square matrix, as a 0-dim tensor.\n\n"
       "    trace([[1, 2], [3, 4]]) -> 5",
       _trace, _square, (_i64([[1, 2], [3, 4]]),), hints=[
           Hint(tr("That is the sum of every element: the trace adds only the diagonal, a[i, i]."),
                wrong=lambda torch, a: a.sum()),
           Hint(tr("The trace is one number, a 0-dim tensor: sum everything you picked, not along one axis."),
                when=lambda got, args: _tensor(got) and got.dim() >= 1)])

puzzle("triu", "triu(a, k)", "The upper triangle of `a` from diagonal `k` on (0: the main diagonal, 1: above "
       "it, -1: below it); everything else becomes 0.\n\n"
       "    triu([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 0) -> [[1, 2, 3], [0, 5, 6], [0, 0, 9]]",
       lambda torch, a, k: torch.triu(a, k),
       lambda st: st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
           lambda rc: st.tuples(_mat(st, *rc), st.integers(-2, 2))),
       (_i64([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), 0), hints=[
           Hint(tr("Off by one diagonal: you dropped diagonal k itself. With k = 0 the main diagonal (column == "
                   "row) stays; check your comparison where column - row is exactly k."),
                wrong=lambda torch, a, k: torch.triu(a, k + 1)),
           Hint(tr("Off by one diagonal: you kept one diagonal too many below diagonal k. Check your comparison "
                   "where column - row is exactly k - 1."), wrong=lambda torch, a, k: torch.triu(a, k - 1)),
           Hint(tr("You kept the lower triangle (torch.tril): the upper triangle is where the column index is at "
                   "least the row index plus k -- and the row index must vary down axis 0."),
                wrong=lambda torch, a, k: torch.tril(a, k))])

puzzle("cumsum", "cumsum(a)", "Running totals: `result[i] = a[0] + a[1] + ... + a[i]`.\n\n"
       "    cumsum([1, 2, 3, 4]) -> [1, 3, 6, 10]",
       lambda torch, a: torch.cumsum(a, 0), lambda st: st.tuples(_vec(st, max_size=7)), (_i64([1, 2, 3, 4]),),
       real="torch.cumsum", dtype_hint=tr("torch.cumsum keeps the integer dtype of its input."), hints=[
           Hint(tr("Each total must include a[i] itself: result[i] = a[0] + ... + a[i]. Check `<` against `<=` "
                   "in your mask."), wrong=lambda torch, a: torch.cumsum(a, 0) - a),
           Hint(tr("You added from the far end (a[i] + ... + a[n-1]): your mask selects j >= i where it should "
                   "select j <= i -- or you summed over the other axis."),
                wrong=lambda torch, a: torch.flip(torch.cumsum(torch.flip(a, [0]), 0), [0]))])

puzzle("flip", "flip(a)", "A vector in reverse order.\n\n    flip([1, 2, 3]) -> [3, 2, 1]",
       lambda torch, a: torch.flip(a, [0]), lambda st: st.tuples(_vec(st)), (_i64([1, 2, 3]),), hints=[
           Hint(tr("An index is out of range: the indices run from 0 to n - 1, so the mirror of position i is "
                   "not n - i."), when=_index_error),
           Hint(tr("Off by one: the first element of the result must be the last one of `a`, a[n - 1]."),
                wrong=lambda torch, a: torch.roll(torch.flip(a, [0]), 1))])

puzzle("roll", "roll(a, s)", "Shift a vector by `s` places to the right; what falls off the end comes back "
       "at the front (`s` may be negative or larger than the length).\n\n"
       "    roll([1, 2, 3, 4, 5], 2) -> [4, 5, 1, 2, 3]",
       lambda torch, a, s: torch.roll(a, s), lambda st: st.tuples(_vec(st), st.integers(-7, 7)),
       (_i64([1, 2, 3, 4, 5]), 2), hints=[
           Hint(tr("Rolled the wrong way: with s = 1 the last element moves to the front, so result[i] comes "
                   "from position i - s."), wrong=lambda torch, a, s: torch.roll(a, -s)),
           Hint(tr("An index is out of range: every position must wrap around into 0 ... n - 1, also for a "
                   "shift larger than the length."), when=_index_error)])

puzzle("one_hot", "one_hot(a, n)", "One row per element of `a` (values in 0 ... n - 1), with a 1 in column "
       "`a[i]` and 0 elsewhere; the result is int64.\n\n"
       "    one_hot([0, 2, 1], 3) -> [[1, 0, 0], [0, 0, 1], [0, 1, 0]]",
       lambda torch, a, n: torch.nn.functional.one_hot(a, n),
       lambda st: st.integers(1, 6).flatmap(lambda n: st.tuples(_vec(st, 0, n - 1, 0, 6), st.just(n))),
       (_i64([0, 2, 1]), 3), real="torch.nn.functional.one_hot",
       dtype_hint=tr("one_hot gives int64 -- a comparison gives bool. Which operation turns bool into int64 "
                     "(and not float32)?"), hints=[
           Hint(tr("Rows and columns are swapped: the result has one row per element of `a` and n columns."),
                wrong=lambda torch, a, n: torch.nn.functional.one_hot(a, n).t())])

puzzle("bincount", "bincount(a, n)", "How many times each value 0 ... n - 1 occurs in `a` (int64).\n\n"
       "    bincount([1, 1, 3, 0], 5) -> [1, 2, 0, 1, 0]",
       lambda torch, a, n: torch.bincount(a, minlength=n),
       lambda st: st.integers(1, 6).flatmap(lambda n: st.tuples(_vec(st, 0, n - 1, 0, 6), st.just(n))),
       (_i64([1, 1, 3, 0]), 5), dtype_hint=tr("torch.bincount counts in int64: what dtype does your sum have, "
                                            "and where did a float come in?"), hints=[
           Hint(tr("You summed over the wrong axis: there is one count per value 0 ... n - 1, so sum over the "
                   "axis that runs along the elements of `a`."),
                wrong=lambda torch, a, n: (a[:, None] == torch.arange(n)).sum(1))])

puzzle("sequence_mask", "sequence_mask(values, lengths)", "Keep the first `lengths[b]` entries of row `b` of "
       "`values` and set the rest to 0 (padding a batch of sequences).\n\n"
       "    sequence_mask([[1, 2, 3], [4, 5, 6]], [2, 0]) -> [[1, 2, 0], [0, 0, 0]]",
       lambda torch, v, lengths: v.masked_fill(torch.arange(v.shape[1])[None, :] >= lengths[:, None], 0),
       lambda st: st.tuples(st.integers(1, 4), st.integers(1, 5)).flatmap(
           lambda bt: st.tuples(_mat(st, bt[0], bt[1], 1, 9), _vec(st, 0, bt[1], size=bt[0]))),
       (_i64([[1, 2, 3], [4, 5, 6]]), _i64([2, 0])), real="Tensor.masked_fill", hints=[
           Hint(tr("Off by one: a row of length L keeps positions 0 ... L - 1, so position L is already 0."),
                wrong=lambda torch, v, lengths: v.masked_fill(torch.arange(v.shape[1])[None, :] > lengths[:, None], 0)),
           Hint(tr("The lengths belong to the rows: `lengths` must vary down axis 0 and the positions along "
                   "axis 1."), when=lambda got, args: not _tensor(got))])

puzzle("pad_to", "pad_to(a, j)", "A vector made exactly `j` long: cut at `j`, or padded with zeros at the "
       "end.\n\n    pad_to([1, 2, 3], 5) -> [1, 2, 3, 0, 0]      pad_to([1, 2, 3], 2) -> [1, 2]",
       lambda torch, a, j: torch.nn.functional.pad(a, (0, j - a.shape[0])),
       lambda st: st.tuples(_vec(st), st.integers(1, 8)), (_i64([1, 2, 3]), 5),
       real="torch.nn.functional.pad", hints=[
           Hint(tr("The result must always have length j: when j is smaller than len(a), keep only the first j."),
                when=lambda got, args: _tensor(got) and tuple(got.shape) != (args[1],)),
           Hint(tr("The new places must hold 0, not copies of `a`'s elements."),
                wrong=lambda torch, a, j: a[torch.arange(j) % a.shape[0]])])

puzzle("repeat_interleave", "repeat_interleave(a, r)", "Each element of `a` repeated `r` times in place.\n\n"
       "    repeat_interleave([1, 2, 3], 2) -> [1, 1, 2, 2, 3, 3]",
       lambda torch, a, r: torch.repeat_interleave(a, r),
       lambda st: st.tuples(_vec(st, max_size=5), st.integers(1, 4)), (_i64([1, 2, 3]), 2), hints=[
           Hint(tr("That repeats the whole vector r times (like `a.repeat(r)`); here each element repeats in "
                   "place. Which element does output position p copy?"),
                wrong=lambda torch, a, r: a.repeat(r))])

puzzle("linspace", "linspace(start, stop, n)", "`n` evenly spaced numbers from `start` to `stop`, both "
       "included (float32; n >= 2).\n\n    linspace(0.0, 1.0, 5) -> [0.00, 0.25, 0.50, 0.75, 1.00]",
       lambda torch, start, stop, n: torch.linspace(start, stop, n),
       lambda st: st.tuples(st.integers(-8, 8).map(lambda v: v / 2), st.integers(-8, 8).map(lambda v: v / 2),
                            st.integers(2, 8)),
       (0.0, 1.0, 5), dtype_hint=tr("torch.linspace gives float32."), hints=[
           Hint(tr("n points make n - 1 gaps, and the last point must be exactly `stop`: check what you "
                   "divide by."), wrong=lambda torch, s, e, n: s + (e - s) * torch.arange(n) / n)])

puzzle("vstack", "vstack(a, b)", "Two vectors of the same length as the two rows of a matrix.\n\n"
       "    vstack([1, 2, 3], [4, 5, 6]) -> [[1, 2, 3], [4, 5, 6]]",
       lambda torch, a, b: torch.vstack([a, b]),
       lambda st: st.integers(1, 6).flatmap(lambda n: st.tuples(_vec(st, size=n), _vec(st, size=n))),
       (_i64([1, 2, 3]), _i64([4, 5, 6])), hints=[
           Hint(tr("`a` and `b` ended up as columns: vstack makes them the two rows, shape (2, n)."),
                wrong=lambda torch, a, b: torch.vstack([a, b]).t()),
           Hint(tr("The rows are in the wrong order: `a` comes first."),
                wrong=lambda torch, a, b: torch.vstack([b, a]))])

puzzle("heaviside", "heaviside(a, b)", "The step function: 1 where `a > 0`, 0 where `a < 0`, and `b` where "
       "`a == 0` (float inputs, float result).\n\n"
       "    heaviside([-1.5, 0.0, 2.0], [0.5, 0.5, 0.5]) -> [0.0, 0.5, 1.0]",
       _heaviside, lambda st: st.integers(1, 6).flatmap(lambda n: st.tuples(_halves(st, n), _halves(st, n))),
       (np.array([-1.5, 0.0, 2.0], dtype=np.float32), np.array([0.5, 0.5, 0.5], dtype=np.float32)),
       dtype_hint=tr("torch.heaviside keeps the float dtype of its inputs."), hints=[
           Hint(tr("At exactly a == 0 the result is b there, not 0 or 1."), wrong=lambda torch, a, b: (a > 0) * 1.0),
           Hint(tr("At exactly a == 0 the result is b there, not 0 or 1."), wrong=lambda torch, a, b: (a >= 0) * 1.0)])

puzzle("compress", "compress(g, v, i)", "The values of `v` where `g` is True, moved to the front in order, "
       "then zeros up to length `i` (`i` >= len(v)).\n\n"
       "    compress([True, False, True], [1, 2, 3], 4) -> [1, 3, 0, 0]",
       lambda torch, g, v, i: torch.nn.functional.pad(torch.masked_select(v, g), (0, i - int(g.sum()))),
       lambda st: st.integers(1, 6).flatmap(lambda n: st.tuples(
           st.lists(st.booleans(), min_size=n, max_size=n).map(lambda v: np.array(v, dtype=bool)),
           _vec(st, 1, 9, size=n), st.integers(n, n + 2))),
       (np.array([True, False, True]), _i64([1, 2, 3]), 4), real="torch.masked_select", hints=[
           Hint(tr("The kept values must move to the front: the k-th True goes to position k. Count the Trues "
                   "before each element (an earlier puzzle counts)."),
                wrong=lambda torch, g, v, i: torch.nn.functional.pad(torch.where(g, v, 0), (0, i - v.shape[0])))])

puzzle("scatter_add", "scatter_add(values, index, n)", "A vector of `n` zeros to which each `values[k]` is "
       "added at position `index[k]` (positions may repeat).\n\n"
       "    scatter_add([5, 1, 2], [0, 2, 0], 3) -> [7, 0, 1]",
       lambda torch, v, index, n: torch.zeros(n, dtype=v.dtype).scatter_add(0, index, v),
       lambda st: st.integers(1, 5).flatmap(lambda n: st.integers(0, 6).flatmap(lambda m: st.tuples(
           _vec(st, size=m), _vec(st, 0, n - 1, size=m), st.just(n)))),
       (_i64([5, 1, 2]), _i64([0, 2, 0]), 3), real="Tensor.scatter_add",
       dtype_hint=tr("scatter_add keeps the dtype of `values`."), hints=[
           Hint(tr("You summed over the wrong axis: the result has one entry per target position 0 ... n - 1."),
                wrong=lambda torch, v, index, n: torch.where(index[:, None] == torch.arange(n), v[:, None], 0).sum(1))])


# -- inputs ----------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def inputs(name):
    """The argument tuples ``name`` is checked on: its example, then :data:`EXAMPLES` drawn by
    Hypothesis (derandomized: the same on every run and machine), smallest first."""
    from hypothesis import HealthCheck, given, settings, strategies
    found = []

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, print_blob=False,
              suppress_health_check=list(HealthCheck))
    @given(PUZZLES[name].draw(strategies))
    def collect(args):
        found.append(args)

    with _without_local_constants():
        collect()
    unique = {}
    for args in found:
        unique.setdefault(repr(args), args)
    drawn = sorted(unique.values(), key=lambda a: (_size(a), repr(a)))
    return [PUZZLES[name].example] + drawn


@contextlib.contextmanager
def _without_local_constants():
    """Hypothesis mixes literals from the source files loaded at the time (the learner's, pytest's)
    into what it draws, and caches them in a ``.hypothesis`` folder: the drawn inputs would differ
    between a notebook and a test run. Draw without them, where this version of Hypothesis has them."""
    try:
        from hypothesis.internal.conjecture import providers
        saved, empty = providers._get_local_constants, providers._local_constants.__class__(
            **{field: type(getattr(providers._local_constants, field))() for field in ("integers", "bytes", "strings")},
            floats=type(providers._local_constants.floats)(key=providers.float_to_int))
    except (ImportError, AttributeError, TypeError):
        yield
        return
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = saved


def _size(args):
    return sum(a.size if isinstance(a, np.ndarray) else abs(int(a)) for a in args)


def _to(torch, args):
    return tuple(torch.tensor(a) if isinstance(a, np.ndarray) else a for a in args)


def _on(library, fn):
    """``fn`` with ``torch`` meaning ``library`` -- and so do the earlier puzzles it calls."""
    names = dict(fn.__globals__)
    for key, value in fn.__globals__.items():
        if isinstance(value, types.ModuleType):
            other = counterpart(value, library)
            names[key] = other if other is not None else value
    for key, value in list(names.items()):
        if key in PUZZLES and isinstance(value, types.FunctionType) and value.__globals__ is fn.__globals__:
            names[key] = types.FunctionType(value.__code__, names, value.__name__, value.__defaults__, value.__closure__)
    return types.FunctionType(fn.__code__, names, fn.__name__, fn.__defaults__, fn.__closure__)


# -- the check -------------------------------------------------------------------------------------

def _library():
    """PyTorch when installed (the reference), else tensorlab."""
    return libraries()[-1]


def _hint(spec, got, expected, args, torch):
    for hint in spec.hints:
        try:
            if hint.matches(got, args, torch):
                return _translate(hint.text)
        except Exception:  # noqa: BLE001 - a hint that trips over an odd answer does not apply
            continue
    if (not isinstance(got, BaseException) and spec.dtype_hint and hasattr(got, "dtype")
            and got.dtype != expected.dtype and tuple(got.shape) == tuple(expected.shape)):
        return _translate(spec.dtype_hint)
    return ""


def _call_text(spec, args):
    names = spec.signature[spec.signature.index("(") + 1:-1].split(", ")
    return f"{spec.name}(" + ", ".join(f"{n}={describe(a)}" for n, a in zip(names, args)) + ")"


def _has(torch, real):
    """Whether ``torch`` has the function ``real`` ("torch.nn.functional.pad", "Tensor.scatter_add")."""
    owner = torch.Tensor if real.startswith("Tensor.") else torch
    for part in real.split(".")[1:]:
        if not hasattr(owner, part):
            return False
        owner = getattr(owner, part)
    return True


def verdict(name, fn, rules=True):
    """``(ok, message)`` about ``fn`` as the answer to puzzle ``name`` -- what :func:`check_puzzle`
    prints. ``rules=False`` skips the rules (only for testing the runtime guard)."""
    if name not in PUZZLES:
        return False, tr("Not yet: {what}", what=tr("there is no puzzle named `{name}`; the puzzles are: {names}.",
                                                   name=name, names=", ".join(PUZZLES)))
    spec = PUZZLES[name]
    what = tr("a function `{signature}`", signature=spec.signature)
    if fn is Ellipsis or (callable(fn) and is_unanswered(fn)):
        return False, tr("Not answered yet: replace the ... with {what}.", what=what)
    if not isinstance(fn, types.FunctionType):
        return False, tr("Not yet: {what}", what=tr("`{name}` should be a function ({what}).", name=name, what=what))
    broken = rule_violations(fn) if rules else []
    if broken:
        lines = [tr("Not yet: {what}", what=tr("`{name}` breaks the puzzle rules:", name=name))]
        lines += ["  - " + _sentence(line) for line in broken]
        lines.append("  " + tr("Hint: {why}", why=tr("Only these are allowed: {allowed}. No loops: let broadcasting "
                                                     "do the repeating.", allowed=tr(ALLOWED_TEXT))))
        return False, "\n".join(lines)
    for earlier in _puzzles_called(fn) if rules else ():
        if not callable(fn.__globals__.get(earlier)) or is_unanswered(fn.__globals__[earlier]):
            return False, tr("Not yet: {what}", what=tr("`{name}` calls `{earlier}`, which is not answered yet.",
                                                       name=name, earlier=earlier)) + "\n  " + tr(
                "Hint: {why}", why=tr("Solve `{earlier}` first (run its cell), or write this one without it.",
                                      earlier=earlier))
    lib_name, torch = _library()
    answer = _on(torch, fn)
    cases = inputs(name)
    for raw in cases:
        args, expected = _to(torch, raw), spec.reference(torch, *_to(torch, raw))
        got, error = guard.run(answer, *args)
        if error is None and got is Ellipsis:
            return False, tr("Not answered yet: replace the ... with {what}.", what=what)
        if error is not None:
            off, why = raised(error)
            why = why or _hint(spec, error, expected, args, torch)
        elif got is None:
            off, why = tr("it returned None"), tr("Did you forget `return`?")
        else:
            found, trouble = guard.run(lambda: differences(got, expected, grads=False))
            found = found if trouble is None else [tr("it returned {got}, not a tensor", got=describe(type(got)))]
            if not found:
                continue
            off, why = found[0], _hint(spec, got, expected, args, torch)
        where = tr("`{call}`: {off}.", call=_call_text(spec, _to(torch, raw)), off=off.rstrip("."))
        message = tr("Not yet: {what}", what=where)
        return False, message + ("\n  " + tr("Hint: {why}", why=why) if why else "")
    if lib_name != TENSORLAB:
        source = tr("compared with PyTorch's `{real}`", real=spec.real)
    elif _has(torch, spec.real):
        source = tr("compared with tensorlab's own `{real}` -- PyTorch is not installed", real=spec.real)
    else:
        source = tr("compared with what `{real}` gives, computed with tensorlab (which has no `{real}`) -- "
                    "PyTorch is not installed", real=spec.real)
    return True, tr("Correct! ({n} inputs, {source})", n=len(cases), source=source)


def check_puzzle(name, fn, quiet=False, rules=True):
    """Check ``fn`` as the answer to puzzle ``name``: its rules, then its results against the real
    function. Prints the verdict (unless ``quiet``) and returns it; never raises."""
    try:
        ok, message = verdict(name, fn, rules=rules)
    except (Exception, SystemExit, guard.TimeLimitExceeded) as error:  # noqa: BLE001 - always a verdict
        what, _ = raised(error)
        ok, message = False, tr("Not yet: {what}", what=tr("the check could not examine your answer: {what}.", what=what))
    return Verdict(ok, message) if quiet else report(ok, message)


def check_all(namespace):
    """Check every puzzle defined in ``namespace`` (a notebook's ``globals()``): print one line each
    and the total, and return the :class:`~coursekit.check.Verdict` (ok when all are solved)."""
    solved, lines = 0, []
    for name in PUZZLES:
        result = check_puzzle(name, namespace.get(name, Ellipsis), quiet=True)
        solved += result.ok
        status = (tr("solved") if result.ok else tr("not answered yet") if result.message.startswith(
            tr("Not answered yet: replace the ... with {what}.", what="")[:10]) else
            tr("not yet: its check cell says what is off"))
        lines.append(f"{name:<18} {status}")
    lines.append(tr("{k}/{n} puzzles solved", k=solved, n=len(PUZZLES)))
    return report(solved == len(PUZZLES), "\n".join(lines))
