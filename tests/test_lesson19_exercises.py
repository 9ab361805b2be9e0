"""Lesson 19's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import io
import pickle
import pickletools
import zipfile

import pytest

import tensorlab as torch
from coursekit import lesson19 as check
from coursekit.solutions import lesson19 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_sharing(solution.predictions)
    assert check.check_resume(solution.make_checkpoint, solution.restore)
    assert check.check_globals(solution.globals_in)
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
    assert check.check_globals(_globals_with_namelist)
    assert check.check_globals(lambda data: {name.replace(" ", ".") for name in _global_args(data)})


def _data_pkl(data):
    archive = zipfile.ZipFile(io.BytesIO(data))
    return archive.read([n for n in archive.namelist() if n.split("/", 1)[1] == "data.pkl"][0])


def _global_args(data):
    return [arg for op, arg, _ in pickletools.genops(_data_pkl(data)) if op.name == "GLOBAL"]


def _globals_with_namelist(data):
    names = set()
    for op, arg, _ in pickletools.genops(_data_pkl(data)):
        if op.code == "c":
            module, name = arg.split()
            names.add(module + "." + name)
    return names


def test_stubs_get_a_fixed_message(mode):
    def stub(*args):
        return ...

    for verdict in (check.check_sharing(...), check.check_sharing((True, ..., 4.0, 3)),
                    check.check_resume(..., solution.restore), check.check_resume(stub, stub),
                    check.check_globals(...), check.check_globals(stub)):
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
    (_objects, solution.restore, ["torch.load of the checkpoint raised UnpicklingError: Weights only load failed",
                                  "not the model or optimizer objects"]),
    (solution.make_checkpoint, _restore_no_return, ["restore returned None", "Return the step"]),
    (solution.make_checkpoint, _restore_into_a_new_model, ["weights are not the ones saved",
                                                           "into the model passed to restore"]),
    (lambda model, optimizer, step: None, solution.restore, ["make_checkpoint returned None", "`return`"]),
])
def test_wrong_resumes(mode, make, restore, phrases):
    verdict = check.check_resume(make, restore)
    assert_rejected(verdict, phrases)


def _fixed_folder(data):
    return set(n.replace(" ", ".") for n in _args_in(zipfile.ZipFile(io.BytesIO(data)).read("archive/data.pkl")))


def _args_in(pkl):
    return [arg for op, arg, _ in pickletools.genops(pkl) if op.name == "GLOBAL"]


def _unpickled(data):
    return set(pickle.loads(_data_pkl(data)))


def _torch_load(data):
    torch.load(io.BytesIO(data), weights_only=False)
    return set()


def _with_spaces(data):
    return set(_global_args(data))


def _first_only(data):
    return set(_global_args(data)[:1] and [_global_args(data)[0].replace(" ", ".")])


def _as_list(data):
    return [name.replace(" ", ".") for name in _global_args(data)]


def _with_strings(data):
    return {str(arg).replace(" ", ".") for op, arg, _ in pickletools.genops(_data_pkl(data))
            if op.name in ("GLOBAL", "BINUNICODE")}


def _whole_file(data):
    return {arg for op, arg, _ in pickletools.genops(data) if op.name == "GLOBAL"}


@pytest.mark.parametrize("answer, phrases", [
    (_fixed_folder, ["raised KeyError", "on a whole model saved to net.pth", "named after the file"]),
    (_unpickled, ["raised UnpicklingError", "Don't unpickle it"]),
    (_torch_load, ["ran the checkpoint's pickle", "Don't unpickle it"]),
    (_with_spaces, ["'module name', with a space", "'module.name'"]),
    (_first_only, ["returned a set without", "Every GLOBAL instruction"]),
    (_as_list, ["returned a list", "Return a set"]),
    (_with_strings, ["which the pickle does not name", "strings pushed by BINUNICODE are data"]),
    (_whole_file, ["`globals_in` raised", "give it the record data.pkl"]),
    ("data.pkl", ["should be a function"]),
])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")     # pickletools on a zip's bytes, in a wrong answer
def test_wrong_globals_readers(mode, answer, phrases):
    verdict = check.check_globals(answer)
    assert_rejected(verdict, phrases)


def test_the_pytorch_checkpoint_is_what_pytorch_writes(torch_module):
    torch_module.manual_seed(0)
    buffer = io.BytesIO()
    torch_module.save(torch_module.nn.Linear(3, 2).state_dict(), buffer)
    assert buffer.getvalue() == check.pytorch_checkpoint()


def test_the_checkpoint_from_a_gpu_says_cuda_and_loads_on_the_cpu():
    data = check.checkpoint_from_a_gpu({"w": torch.ones(2)})
    assert b"X\x06\x00\x00\x00cuda:0" in _data_pkl(data)
    seen = []
    out = torch.load(io.BytesIO(data), map_location=lambda storage, location: seen.append(location) or storage)
    assert seen == ["cuda:0"] and out["w"].tolist() == [1.0, 1.0]
    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
            torch.load(io.BytesIO(data))


@pytest.fixture
def torch_module():
    return pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")


def test_hostile_answers_get_a_verdict(mode, capsys, monkeypatch):
    """sys.exit(), a loop that never ends, results or predictions whose ==/repr raise: every check of
    the lesson answers with a verdict that says so, and never crashes. (check_resume takes two
    functions, so the shared helper of coursekit.testing, which passes one, is applied by hand.)"""
    from coursekit import guard
    from coursekit.testing import Hostile, _exit, _forever, _hostile_result
    monkeypatch.setattr(guard, "TIME_LIMIT", 0.2)
    predictions, whole = check.check_sharing((Hostile(),) * 4), check.check_sharing(Hostile())
    assert not predictions and not whole and "raised ValueError" in predictions.message
    for what, answer in (("called sys.exit()", _exit), ("did not finish within", _forever)):
        for verdict in (check.check_globals(answer), check.check_resume(answer, solution.restore),
                        check.check_resume(solution.make_checkpoint, answer)):
            assert not verdict and what in verdict.message, verdict.message
    for verdict in (check.check_globals(_hostile_result), check.check_resume(_hostile_result, solution.restore),
                    check.check_resume(solution.make_checkpoint, _hostile_result)):
        assert not verdict
