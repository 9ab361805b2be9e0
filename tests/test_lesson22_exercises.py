"""Lesson 22's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike. They run on machines with and
without a GPU; the wrong answers are rejected on both (with other messages)."""
import io

import pytest

import tensorlab as torch
from coursekit import lesson22 as check
from coursekit.solutions import lesson22 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_devices(solution.predictions)
    assert check.check_load_on_cpu(solution.load_on_cpu)
    assert capsys.readouterr().out.count("Correct!") == 2


def test_other_correct_answers_are_accepted(mode):
    assert check.check_devices([False, 0, True, "cuda:1"])
    for location in (torch.device("cpu"), {"cuda:0": "cpu"}, lambda storage, where: storage):
        assert check.check_load_on_cpu(lambda path, location=location: torch.load(path, map_location=location))


def test_the_gpu_checkpoint_records_cuda_and_loads_on_the_cpu():
    import zipfile
    data = check.gpu_checkpoint({"w": torch.ones(2)})
    pickled = zipfile.ZipFile(io.BytesIO(data)).read("archive/data.pkl")
    assert b"cuda:0" in pickled and b"cpu" not in pickled
    assert torch.load(io.BytesIO(data), map_location="cpu")["w"].device.type == "cpu"


def test_pytorch_reads_the_gpu_checkpoint_as_one_saved_on_a_gpu(torch_oracle):
    data = check.gpu_checkpoint({"w": torch.ones(2)})
    loaded = torch_oracle.load(io.BytesIO(data), map_location="cpu")
    assert loaded["w"].tolist() == [1.0, 1.0]
    if not torch_oracle.cuda.is_available():
        with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
            torch_oracle.load(io.BytesIO(data))


@pytest.fixture
def torch_oracle():
    return pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_devices(...), check.check_devices((False, ..., True, "cuda:1")),
                    check.check_load_on_cpu(...), check.check_load_on_cpu(lambda path: ...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    ((True, "0", False, "cuda"), ["4 of 4", "Compare their .index", "an int", "returns the tensor itself",
                                  "'type:index'"]),
    ((True, 0, True, "cuda:1"), ["1 of 4", "torch.device('cuda') means 'the current GPU'"]),
])
def test_wrong_device_predictions(mode, answer, phrases):
    verdict = check.check_devices(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU machine these loads succeed (on the GPU)")
@pytest.mark.parametrize("answer, phrases", [
    (lambda path: torch.load(path), ["raised RuntimeError", "Attempting to deserialize object on a CUDA device",
                                     "map_location"]),
    (lambda path: {k: v.cpu() if hasattr(v, "cpu") else v for k, v in torch.load(path).items()},
     ["Moving them after loading is too late"]),
])
def test_loads_without_map_location_fail_here(mode, answer, phrases):
    verdict = check.check_load_on_cpu(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    (lambda path: torch.load(path, map_location="cpu")["weight"], ["returned a tensor", "expected the saved dict"]),
    (lambda path: open(path, "rb").read(), ["returned a bytes"]),
    (lambda path: dict(torch.load(path, map_location="cpu"), step=0), ["the loaded step is not 3"]),
])
def test_other_wrong_loads(mode, answer, phrases):
    verdict = check.check_load_on_cpu(answer)
    assert_rejected(verdict, phrases)
