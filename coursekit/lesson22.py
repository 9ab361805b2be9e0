"""Exercise checks of course/22_gpus.ipynb (reference solutions: coursekit/solutions/lesson22.py).

    >>> _ = check_devices(solution.predictions)
    Correct! A device is a name -- type and index -- that any machine can make; only putting
             data there needs the GPU.
    >>> _ = check_load_on_cpu(solution.load_on_cpu)
    Correct! map_location decides where the loaded tensors go, whatever device they were
             saved from.

Exercise 2 needs a checkpoint saved from a GPU; :func:`gpu_checkpoint` makes one on any machine by
writing a tensorlab checkpoint whose manifest records ``cuda:0`` (tensorlab's format, so this
exercise runs on tensorlab only).
"""
import io
import os
import tempfile

from . import guard
from .check import Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong
from .compare import describe, differences, kind
from .language import tr
from .solutions import lesson22 as solution

# -- exercise 1: devices ------------------------------------------------------------------------------


def _same_hint(got, truth):
    return tr("torch.device('cuda') means 'the current GPU' and has no index; 'cuda:0' names GPU 0. Compare "
              "their .index: devices are equal when type and index are. (A tensor's device is always concrete.)")


def _index_hint(got, truth):
    return tr("The number after the colon is the index -- an int, not a string.")


def _to_hint(got, truth):
    return tr("When the tensor is already on that device (and has that dtype), .to returns the tensor itself -- "
              "no copy. (And when it moves, it returns a new tensor and leaves the old one where it was.)")


def _str_hint(got, truth):
    if got == "cuda":
        return tr("With an index, str() writes 'type:index'.")
    return tr("str(device) writes 'type:index', as you pass it to .to(...).")


DEVICE_QUESTIONS = [
    Question('torch.device("cuda") == torch.device("cuda:0")',
             lambda torch: torch.device("cuda") == torch.device("cuda:0"), _same_hint),
    Question('torch.device("cuda:0").index', lambda torch: torch.device("cuda:0").index, _index_hint),
    Question('t = torch.zeros(2); t.to("cpu") is t', lambda torch: _to_is_same(torch), _to_hint),
    Question('str(torch.device("cuda", 1))', lambda torch: str(torch.device("cuda", 1)), _str_hint),
]


def _to_is_same(torch):
    t = torch.zeros(2)
    return t.to("cpu") is t


def check_devices(answer):
    """Exercise 1: four predictions about devices that hold on any machine."""
    return check_predictions(answer, DEVICE_QUESTIONS,
                             what=tr("a tuple of 4 predictions: True/False, a number, True/False, a string"),
                             note=tr("A device is a name -- type and index -- that any machine can make; only "
                                     "putting data there needs the GPU."))


# -- exercise 2: a checkpoint from a GPU machine --------------------------------------------------------


def gpu_checkpoint(obj):
    """The bytes ``tensorlab.save(obj)`` writes on a GPU machine for CPU tensors moved to ``cuda:0``: the
    same file, except that data.pkl records each storage's location as ``cuda:0`` (the fourth field of
    its persistent id, as in PyTorch's format -- tensorlab/_pickle_format.py)."""
    from tensorlab import _pickle_format, serialization
    from tensorlab._zip_archive import write_archive

    class SavedOnAGpu(_pickle_format.CheckpointPickler):
        def _string(self, text):
            return super()._string("cuda:0" if text == "cpu" else text)

    data_pkl = io.BytesIO()
    pickler = SavedOnAGpu(data_pkl, 2)
    pickler.dump(obj)
    storages = [(key, array) for key, _, array in pickler.storages.values()]
    archive = io.BytesIO()
    write_archive(archive, "archive", serialization._records(data_pkl.getvalue(), storages))
    return archive.getvalue()


def _saved(torch):
    return {"weight": torch.arange(6.0).reshape(2, 3), "step": 3}


def _load_hint(error):
    text = str(error)
    if "map_location" in text or "CUDA" in text or "cuda" in text or isinstance(error, (AssertionError,
                                                                                       ModuleNotFoundError)):
        return tr("The file says its tensors live on cuda:0, and loading puts them back there -- which needs a "
                  "GPU. torch.load(path, map_location=...) says where they should go instead. Moving them after "
                  "loading is too late: the load itself fails.")
    return tr("torch.load(path, map_location=...) loads and moves in one go.")


@always_a_verdict
def check_load_on_cpu(load_on_cpu):
    """Exercise 2: ``load_on_cpu(path)`` loads a checkpoint saved on a GPU machine, with every tensor on the CPU."""
    import tensorlab

    what = tr("a function body that loads `path` with its tensors on the CPU")
    if is_stub(load_on_cpu):
        return not_answered(what)
    if not callable(load_on_cpu):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="load_on_cpu", what=what,
                        kind=kind(load_on_cpu)))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "trained_on_a_gpu.pth")
        with open(path, "wb") as f:
            f.write(gpu_checkpoint(_saved(tensorlab)))
        got, error = guard.run(load_on_cpu, path)
        if error is not None:
            found, why = raised(error, _load_hint(error), "`load_on_cpu`")
            return wrong(found, why)
    if got is Ellipsis:
        return not_answered(what)
    if not isinstance(got, dict):
        return wrong(tr("`load_on_cpu` returned {kind} ({value}); expected the saved dict.", kind=kind(got),
                        value=describe(got)),
                     tr("Return what torch.load returns."))
    weight = got.get("weight")
    if weight is not None and hasattr(weight, "device") and weight.device.type != "cpu":
        return wrong(tr("the loaded weight is on {device}, not on the CPU.", device=weight.device),
                     tr("This machine has a GPU, so the load worked -- but the exercise asks for CPU tensors: "
                        "tell torch.load where the tensors should go."))
    found = differences(got.get("weight"), _saved(tensorlab)["weight"], where=tr("the loaded weight"), grads=False)
    if found or got.get("step") != 3:
        return wrong(tr("{found}.", found=(found or [tr("the loaded step is not 3")])[0]),
                     tr("Return the loaded checkpoint unchanged."))
    return correct(tr("map_location decides where the loaded tensors go, whatever device they were saved from."))
