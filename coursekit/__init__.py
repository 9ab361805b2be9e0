"""coursekit: what the lessons in course/ share -- the PyTorch cross-check and the exercise checks.

A lesson's first cell::

    import tensorlab as torch
    %load_ext coursekit

    _ = torch.manual_seed(0)

Then ``%%crosscheck`` at the top of a cell runs that cell on tensorlab and on real PyTorch (when it
is installed) and compares them; exercise cells end with ``check_xxx(answer)`` from
``coursekit.lessonNN``, which prints "Correct!" or what is off and why.

Modules:

- :mod:`coursekit.crosscheck` -- ``crosscheck()``, ``%%crosscheck``, ``last_crosscheck()``.
  **Design decision**: a cross-check is silent when the libraries agree *and* when PyTorch is
  missing (the cell shows tensorlab's output only, as an ordinary cell would), and shows both
  outputs side by side with what differs when they disagree; ``--show`` / ``last_crosscheck()``
  shows the side-by-side view on request. So that silence is never mistaken for agreement,
  ``%load_ext coursekit`` prints one status line, "cross-checks are on" or "... OFF" with how to
  install PyTorch (tools/sanitize.cfg maps both to one text). Stored outputs therefore never depend
  on PyTorch being installed, and with PyTorch installed (CI) every cross-check cell is also a test.
  See the module's docstring and course/README.md.
- :mod:`coursekit.check` -- the generic checks (``check_predictions``, ``check_function``) that
  every ``coursekit/lessonNN.py`` is built from; reference solutions are in
  ``coursekit/solutions/lessonNN.py`` (tests/test_lessonNN_exercises.py prove the checks with them).
- :mod:`coursekit.guard` -- running a learner's answer safely: a time limit, ``sys.exit()`` caught,
  inputs changed in place detected.
- :mod:`coursekit.compare` -- ``differences(got, expected)``: what differs, in words.
- :mod:`coursekit.libs` -- tensorlab and (optional) PyTorch; running one function on either.

Importing coursekit imports neither PyTorch nor IPython; it works from any directory, in a plain
``python``, under nbval and in JupyterLab.

    >>> from coursekit import crosscheck
    >>> crosscheck("torch.zeros(2, 3).t().is_contiguous()")
    False
"""
from .check import Case, Question, Verdict, check_function, check_predictions
from .compare import describe, differences, shares_memory
from .crosscheck import crosscheck, last_crosscheck
from .libs import libraries, on

__all__ = ["Case", "Question", "Verdict", "check_function", "check_predictions", "crosscheck",
           "describe", "differences", "last_crosscheck", "libraries", "on", "shares_memory",
           "load_ipython_extension"]


def load_ipython_extension(ipython):
    """``%load_ext coursekit``: registers the ``%%crosscheck`` cell magic and says, once per kernel,
    whether PyTorch is there to compare with (:func:`coursekit.crosscheck.status`)."""
    import sys

    from .crosscheck import crosscheck_magic, status
    ipython.register_magic_function(crosscheck_magic, magic_kind="cell", magic_name="crosscheck")
    sys.stdout.write(status() + "\n")
