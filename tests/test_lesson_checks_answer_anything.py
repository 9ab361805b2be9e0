"""What every lesson's checks promise, whatever a learner's answer does (the promises shared by all
of coursekit/lessonNN.py; each lesson's own wrong answers are in tests/test_lessonNN_exercises.py):

- sys.exit(), a loop that never ends, results or predictions whose ==/repr raise: every check
  answers with a verdict that says so, and never crashes (lesson 19, whose check_resume takes two
  functions, tests this in its own file);
- the reference solution plus an in-place change of an input gets the right values and is still
  refused (lessons whose checks run a function on inputs);
- a hint names the mistake and how to find the answer; it never writes the answer out (lessons with
  prediction tables: 19 and 20 have none).
"""
import importlib

import pytest

from coursekit.testing import assert_hostile_answers_get_a_verdict, assert_input_changes_refused, hints_that_give_the_answer

ALL = [f"{n:02d}" for n in range(1, 23)] + ["23", "24", "25", "26", "27"]
FUNCTION_CHECKS = ["01", "02", "03", "04", "05", "06", "07", "10", "13", "14", "15", "17", "20", "21", "23", "24"]


def lesson(number):
    return importlib.import_module(f"coursekit.lesson{number}")


@pytest.mark.parametrize("number", [n for n in ALL if n != "19"])
def test_hostile_answers_get_a_verdict(mode, capsys, number):
    assert_hostile_answers_get_a_verdict(lesson(number))


@pytest.mark.parametrize("number", FUNCTION_CHECKS)
def test_answers_that_change_their_inputs_are_refused(mode, capsys, number):
    assert_input_changes_refused(lesson(number))


@pytest.mark.parametrize("number", [n for n in ALL if n not in ("19", "20")])
def test_no_hint_gives_the_answer_away(number):
    assert hints_that_give_the_answer(lesson(number)) == []
