"""The build track: the learner writes pieces of tensorlab's core and is graded by tensorlab's own tests.

    python -m coursekit.build new DIR          # write the learner's files (stubs cut from tensorlab)
    python -m coursekit.build grade STAGE [DIR] # grade one stage (or all); last line: N/M tests pass
    python -m coursekit.build solve STAGE DIR  # fill in tensorlab's own code (instructors, tests)

In a notebook: ``%load_ext coursekit.build``, then ``%grade 1``. The learner's files live in
``course/build/mytensorlab/`` unless a directory is given (or ``TENSORLAB_BUILD_DIR`` is set);
they are written once and never overwritten by ``new``.

Modules: :mod:`~coursekit.build.stages` (what each stage builds and which tests grade it),
:mod:`~coursekit.build.skeleton` (learner files cut from tensorlab's marked regions),
:mod:`~coursekit.build.cases` (small cases with PyTorch's answers), :mod:`~coursekit.build.grade`
(the learner's functions put in place inside tensorlab, the tests run, the report),
:mod:`~coursekit.build.hints` (classic mistakes recognised and named). See course/build/README.md.
"""


def load_ipython_extension(ipython):
    """``%load_ext coursekit.build``: registers ``%grade STAGE [DIR]``."""
    from .magic import grade_magic
    ipython.register_magic_function(grade_magic, magic_kind="line", magic_name="grade")


def my_file(stage, directory=None):
    """See :func:`coursekit.build.magic.my_file`."""
    from .magic import my_file as write
    return write(stage, directory)
