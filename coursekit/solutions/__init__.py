"""Reference solutions of the lessons' exercises, one module per lesson (``lesson01.py`` ...).

They are kept here, not in the notebooks, so that a learner meets each exercise unsolved. Each
solution is written exactly as a learner would write it in the lesson (``torch`` is tensorlab); the
checks in ``coursekit/lessonNN.py`` compare a learner's answer with these, on tensorlab and on
PyTorch, and tests/test_lessonNN_exercises.py prove that every check accepts its solution.
"""
