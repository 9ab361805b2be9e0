"""Lesson 19's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import json
import struct

import pytest

import tensorlab as torch
from coursekit import lesson19 as check
from coursekit.solutions import lesson19 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_sharing(solution.predictions)
    assert check.check_resume(solution.make_checkpoint, solution.restore)
    assert check.check_manifest(solution.read_manifest)
    assert capsys.readouterr().out.count("Correct!") == 3


def _checkpoint_with_names(model, optimizer, step):
    return {"weights": model.state_dict(), "adam": optimizer.state_dict(), "epoch_step": step,
            "generator": torch.get_rng_state()}


def _restore_with_names(checkpoint, model, optimizer):
    torch.set_rng_state(checkpoint["generator"])
    optimizer.load_state_dict(checkpoint["adam"])
    model.load_state_dict(checkpoint["weights"])
    return checkpoint["epoch_step"]


def test_other_correct_answers_are_accepted(mode):
    assert check.check_sharing([True, 100, 4, 3])
    assert check.check_resume(_checkpoint_with_names, _restore_with_names)
    assert check.check_manifest(lambda data: json.loads(data[42:42 + int.from_bytes(data[18:26], "little")]))


def test_stubs_get_a_fixed_message(mode):
    def stub(*args):
        return ...

    for verdict in (check.check_sharing(...), check.check_sharing((True, ..., 4.0, 3)),
                    check.check_resume(..., solution.restore), check.check_resume(stub, stub),
                    check.check_manifest(...), check.check_manifest(stub)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    ((False, 4.0, 4.0, 0), ["3 of 4", "written once and loads as one object", "two views of one new storage",
                            "still a view, 3 elements into"]),
    ((True, 100.0, 100.0, 3), ["1 of 4", "clone() copies into a storage of its own"]),
])
def test_wrong_sharing_predictions(mode, answer, phrases):
    verdict = check.check_sharing(answer)
    assert_rejected(verdict, phrases)


def _model_only(model, optimizer, step):
    return {"model": model.state_dict(), "step": step, "rng": torch.get_rng_state()}


def _restore_model_only(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    torch.set_rng_state(checkpoint["rng"])
    return checkpoint["step"]


def _no_rng(model, optimizer, step):
    return {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}


def _restore_no_rng(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return checkpoint["step"]


def _objects(model, optimizer, step):
    return {"model": model, "optimizer": optimizer, "step": step}


def _restore_no_return(checkpoint, model, optimizer):
    solution.restore(checkpoint, model, optimizer)


def _restore_into_a_new_model(checkpoint, model, optimizer):
    model = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    torch.set_rng_state(checkpoint["rng"])
    return checkpoint["step"]


@pytest.mark.parametrize("make, restore, phrases", [
    (_model_only, _restore_model_only, ["optimizer has not got its running averages back",
                                        "optimizer.state_dict()"]),
    (_no_rng, _restore_no_rng, ["random generator is not where it was", "torch.get_rng_state()"]),
    (_objects, solution.restore, ["torch.save(make_checkpoint(...)) raised", "not the model or optimizer objects"]),
    (solution.make_checkpoint, _restore_no_return, ["restore returned None", "Return the step"]),
    (solution.make_checkpoint, _restore_into_a_new_model, ["weights are not the ones saved",
                                                           "into the model passed to restore"]),
    (lambda model, optimizer, step: None, solution.restore, ["make_checkpoint returned None", "`return`"]),
])
def test_wrong_resumes(mode, make, restore, phrases):
    verdict = check.check_resume(make, restore)
    assert_rejected(verdict, phrases)


def _after_magic(data):
    return json.loads(data[34:34 + struct.unpack("<Q", data[18:26])[0]])


def _big_endian(data):
    length = struct.unpack(">Q", data[18:26])[0]
    return json.loads(data[42:42 + length])


def _data_length(data):
    length = struct.unpack("<Q", data[26:34])[0]
    return json.loads(data[42:42 + length])


@pytest.mark.parametrize("answer, phrases", [
    (_after_magic, ["raised UnicodeDecodeError", "does not start where the JSON does"]),
    (_big_endian, ["went past the manifest into the tensor data", "little-endian"]),
    (_data_length, ["The JSON is cut short", "the second one is the tensor data's length"]),
    (lambda data: data[42:42 + struct.unpack("<Q", data[18:26])[0]], ["returned a bytes, not a dict", "json.loads"]),
    (lambda data: struct.unpack("<IQQ", data[14:30]), ["raised error", "'<IQQ' reads 4 + 8 + 8 = 20 bytes"]),
    ("manifest", ["should be a function"]),
])
def test_wrong_manifest_readers(mode, answer, phrases):
    verdict = check.check_manifest(answer)
    assert_rejected(verdict, phrases)
