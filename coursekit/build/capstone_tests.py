"""The capstone as the last tests of stage 8 (see :mod:`coursekit.build.capstone`): the small CNN
trained on Digits with every stage of the learner's in place, against tensorlab's own run in this
process and PyTorch's recorded one, and its test accuracy. The learner's folder is the one their
stage 8 functions, put in place by grading, were loaded from; the training runs once and the
tests share it."""
import inspect
from pathlib import Path

import pytest

from coursekit.build import capstone, place
from coursekit.build.skeleton import regions
from coursekit.language import tr


def _directory():
    """The learner's folder: where the stage 8 functions in place come from (None when their file
    did not load, and grading put functions that say so in their place)."""
    for region in regions(8):
        function = place.in_place(region)
        if getattr(function, "__module__", "").startswith("_learner_stage"):
            return Path(inspect.getsourcefile(function)).parent
    return None


@pytest.fixture(scope="module")
def result():
    directory = _directory()
    if directory is None:
        pytest.fail(tr("The capstone needs your stage 8 file, and it did not load: see the first failing "
                       "test."), pytrace=False)
    return capstone.run(directory)


def _written(result):
    why = capstone.not_written(result)
    if why:
        pytest.fail(why, pytrace=False)


def test_every_stage_is_written(result):
    _written(result)


def test_losses_equal_tensorlabs_own_run_step_by_step(result):
    _written(result)
    verdict = capstone.loss_verdict(result, "tensorlab")
    if verdict:
        pytest.fail(verdict, pytrace=False)


def test_losses_equal_pytorchs_recorded_run(result):
    _written(result)
    verdict = capstone.loss_verdict(result, "pytorch")
    if verdict:
        pytest.fail(verdict, pytrace=False)


def test_test_accuracy_is_at_least_95_percent(result):
    _written(result)
    verdict = capstone.accuracy_verdict(result)
    if verdict:
        pytest.fail(verdict, pytrace=False)
