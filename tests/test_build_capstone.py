"""The build track's stage 8 (convolution as unfold + matmul) and its capstone CNN: the mistaken
versions that tests/test_build_track.py writes into tensorlab's own code to check that each classic
mistake is caught and named, and the checks particular to this stage -- every stage placed at once
and taken out again, the capstone's training against tensorlab's own run and PyTorch's recorded
one, and a failure that names the step and the stage behind it."""
import textwrap

import numpy as np
import pytest

from coursekit.build import capstone, grade, place, skeleton
from coursekit.build.stages import STAGES

MISTAKEN_CONV = {
    "output stride ignored": """
        def windows(xp, a, kernel, stride, dilation, out_size=None):
            spatial = a.shape[2:]
            out = out_size or tuple((s - d * (k - 1) - 1) // st + 1
                                    for s, k, st, d in zip(spatial, kernel, stride, dilation))
            item_strides = a.strides[2:]
            shape = a.shape[:2] + tuple(out) + tuple(kernel)
            strides = a.strides[:2] + tuple(item_strides) + tuple(s * d for s, d in zip(item_strides, dilation))
            return xp.lib.stride_tricks.as_strided(a, shape, strides)
        """,
    "dilation ignored": """
        def windows(xp, a, kernel, stride, dilation, out_size=None):
            spatial = a.shape[2:]
            out = out_size or tuple((s - k) // st + 1 for s, k, st in zip(spatial, kernel, stride))
            item_strides = a.strides[2:]
            shape = a.shape[:2] + tuple(out) + tuple(kernel)
            strides = a.strides[:2] + tuple(s * st for s, st in zip(item_strides, stride)) + tuple(item_strides)
            return xp.lib.stride_tricks.as_strided(a, shape, strides)
        """,
    "kernel flipped": """
        def conv_array(xp, x, w, stride, pads, dilation, groups, keep_columns=None):
            kernel, o, n = w.shape[2:], w.shape[0], x.shape[0]
            cols, out = im2col(xp, pad_array(xp, x, pads), kernel, stride, dilation, groups)
            if keep_columns is not None:
                keep_columns.append(cols)
            flipped = w[(slice(None), slice(None)) + (slice(None, None, -1),) * len(kernel)]
            y = flipped.reshape(groups, o // groups, -1) @ cols
            return y.reshape((n, o) + tuple(out))
        """,
    "padding forgotten": """
        def conv_array(xp, x, w, stride, pads, dilation, groups, keep_columns=None):
            kernel, o, n = w.shape[2:], w.shape[0], x.shape[0]
            cols, out = im2col(xp, x, kernel, stride, dilation, groups)
            if keep_columns is not None:
                keep_columns.append(cols)
            y = w.reshape(groups, o // groups, -1) @ cols
            return y.reshape((n, o) + tuple(out))
        """,
    "overlapping windows overwritten": """
        def col2im(xp, cols, padded_shape, kernel, stride, dilation):
            nd = len(kernel)
            out = cols.shape[2 + nd:]
            result = xp.zeros(padded_shape, dtype=cols.dtype)
            for pos in np.ndindex(*kernel):
                region = tuple(slice(p * d, p * d + st * (o - 1) + 1, st)
                               for p, d, st, o in zip(pos, dilation, stride, out))
                result[(slice(None), slice(None)) + region] = cols[(slice(None), slice(None)) + pos]
            return result
        """,
    "stride ignored when adding back": """
        def col2im(xp, cols, padded_shape, kernel, stride, dilation):
            nd = len(kernel)
            out = cols.shape[2 + nd:]
            result = xp.zeros(padded_shape, dtype=cols.dtype)
            for pos in np.ndindex(*kernel):
                region = tuple(slice(p * d, p * d + o) for p, d, o in zip(pos, dilation, out))
                result[(slice(None), slice(None)) + region] += cols[(slice(None), slice(None)) + pos]
            return result
        """,
}


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    directory = tmp_path_factory.mktemp("solved")
    for stage in STAGES:
        skeleton.write_stage(directory, stage, solution=True)
    return directory


def _with(directory, stage, mistake):
    """tensorlab's own code for every stage, with one function of ``stage`` replaced by a mistaken one."""
    from tests.test_build_track import MISTAKEN
    for number in STAGES:
        skeleton.write_stage(directory, number, solution=True)
    path = directory / STAGES[stage].filename
    path.write_text(path.read_text() + "\n\n" + textwrap.dedent(MISTAKEN[mistake]))
    capstone._RUNS.clear()
    return directory


def test_every_stage_is_placed_at_once_and_taken_out_again(solved):
    functions = {stage: grade.load_learner(stage, solved) for stage in STAGES}
    found = [r for stage in STAGES for r in skeleton.regions(stage)]
    before = {r.qualname: place.in_place(r) for r in found}
    with capstone.placed(functions):
        for region in found:
            assert place.in_place(region) is functions[region.stage][region.name], region.qualname
        # stage 3's file imported unbroadcast from tensorlab: meanwhile it calls the learner's (stage 2's)
        mul_backward = functions[3]["mul_backward"]
        assert mul_backward.__globals__["unbroadcast"] is functions[2]["unbroadcast"]
    assert {r.qualname: place.in_place(r) for r in found} == before
    assert mul_backward.__globals__["unbroadcast"] is place.original(
        next(r for r in skeleton.regions(2) if r.name == "unbroadcast"))


def test_the_capstone_passes_with_tensorlabs_own_code(solved):
    capstone._RUNS.clear()
    result = capstone.run(solved)
    assert len(result["yours"]["losses"]) == capstone.STEPS
    assert result["yours"]["losses"] == result["reference"]["losses"]
    assert result["yours"]["accuracy"] >= capstone.ACCURACY
    assert capstone.not_written(result) is None
    assert capstone.loss_verdict(result, "tensorlab") is None
    assert capstone.loss_verdict(result, "pytorch") is None
    assert capstone.accuracy_verdict(result) is None
    assert "suspects" not in result     # the search for a guilty stage runs only when the run differs


def test_tensorlabs_own_run_follows_pytorchs_recorded_losses():
    run = capstone.train(__import__("tensorlab"))
    recorded = capstone.recorded()
    assert recorded["setup"] == capstone.SETUP, "rerecord: python -m coursekit.build record"
    assert capstone.first_difference(run["losses"], recorded["losses"]) is None
    assert run["accuracy"] >= capstone.ACCURACY and recorded["accuracy"] >= capstone.ACCURACY


def test_the_recorded_losses_are_pytorchs(torch):
    run = capstone.train(torch)
    recorded = capstone.recorded()
    assert capstone.first_difference(run["losses"], recorded["losses"]) is None
    assert run["accuracy"] == pytest.approx(recorded["accuracy"], abs=0.01)


def test_stubs_left_in_any_stage_are_named_and_nothing_trains(tmp_path):
    for stage in STAGES:
        skeleton.write_stage(tmp_path, stage, solution=stage != 5)
    (tmp_path / STAGES[7].filename).unlink()
    capstone._RUNS.clear()
    result = capstone.run(tmp_path)
    assert sorted(result["stubs"]) == [5, 7] and "yours" not in result
    why = capstone.not_written(result)
    assert "stage 5: backward_process" in why and "_count_dependencies" in why
    assert "stage 7: sgd_update, adam_update" in why


def test_a_raising_mistake_names_the_step_the_file_and_the_stage(tmp_path):
    result = capstone.run(_with(tmp_path, 3, "wrong transpose in A's gradient"))
    assert result["suspects"] == [3]
    verdict = capstone.loss_verdict(result)
    assert verdict.startswith("Training stopped at step 1: RuntimeError") and "ops.py, mat1_grad" in verdict
    assert "stage 3 (ops as Functions" in verdict and "%grade 3" in verdict
    assert capstone.accuracy_verdict(result) == verdict


def test_a_module_that_does_not_register_its_layers_stops_training_and_is_traced_to_stage_6(tmp_path):
    result = capstone.run(_with(tmp_path, 6, "a Parameter not registered by assignment"))
    assert result["suspects"] == [6]
    verdict = capstone.loss_verdict(result)
    assert verdict.startswith("Training stopped at step 1: RuntimeError: Error(s) in loading state_dict")
    assert "%grade 6" in verdict and ". ." not in verdict


@pytest.mark.parametrize("stage, mistake, step", [(8, "kernel flipped", 1), (8, "overlapping windows overwritten", 2),
                                                  (5, "incoming gradients not added up", 2)])
def test_a_silent_mistake_names_the_first_step_that_differs_and_the_stage(tmp_path, stage, mistake, step):
    """(The skip connection sends two gradients to one tensor: an engine that does not add them up
    changes the second step.)"""
    result = capstone.run(_with(tmp_path, stage, mistake))
    assert result["suspects"] == [stage]
    for against in ("tensorlab", "pytorch"):
        verdict = capstone.loss_verdict(result, against)
        assert verdict.startswith(f"Step {step} of {capstone.STEPS}: the loss is ") and "differ by" in verdict
        assert f"%grade {stage}" in verdict


def test_a_mistake_the_network_never_meets_passes_the_capstone(tmp_path):
    """mean's backward is not on the CNN's path (cross_entropy has its own): the capstone cannot see it,
    and stage 3's own grading does."""
    result = capstone.run(_with(tmp_path, 3, "mean without the divide"))
    assert capstone.loss_verdict(result) is None and "suspects" not in result


def test_windows_and_col2im_serve_pooling_too():
    """The stage's functions are the ones max- and average-pooling read and fold with (nn_pool imports
    them by name), so placing them reaches every caller."""
    from tensorlab.ops import nn_conv, nn_pool
    assert nn_pool.windows is nn_conv.windows and nn_pool.col2im is nn_conv.col2im


def test_the_capstone_reads_the_learners_folder_from_the_functions_in_place(solved):
    from coursekit.build import capstone_tests
    region = next(r for r in skeleton.regions(8) if r.name == "windows")
    learner = grade.load_learner(8, solved)
    with place.only(skeleton.regions(8), "windows", learner["windows"]):
        assert capstone_tests._directory() == solved
    assert place.in_place(region) is place.original(region)
    assert np.array_equal(learner["windows"](np, np.arange(4.0).reshape(1, 1, 4), (2,), (1,), (1,)),
                          [[[[0.0, 1.0], [1.0, 2.0], [2.0, 3.0]]]])
