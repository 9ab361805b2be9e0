"""``tensorlab.backends``: the switches tutorials set and the questions they ask before picking a device
(``torch.backends.mps.is_available()``, ``torch.backends.cudnn.benchmark = True``). Compared with a
CPU build of PyTorch, whose answers are tensorlab's: no MPS, no cuDNN."""
import importlib
import warnings

import pytest

import tensorlab

QUESTIONS = ["mps.is_available()", "mps.is_built()", "cudnn.is_available()", "cudnn.version()",
             "cudnn.enabled", "cudnn.benchmark", "cudnn.deterministic", "cudnn.allow_tf32",
             "cuda.matmul.allow_tf32", "cuda.matmul.allow_fp16_reduced_precision_reduction",
             "mkldnn.enabled", "cuda.flash_sdp_enabled()", "cuda.math_sdp_enabled()"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_answers_match_a_cpu_build_of_pytorch(torch, question):
    import torch.backends  # noqa: F401
    assert eval("lib.backends." + question, {"lib": tensorlab}) == eval("lib.backends." + question,
                                                                       {"lib": torch})


def test_tutorial_device_choice_picks_the_cpu():
    torch = tensorlab
    device = ("cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu")
    assert device in ("cuda", "cpu")


@pytest.mark.parametrize("name", ["cudnn", "mps", "cuda", "mkldnn", "mkl", "openmp", "cpu"])
def test_submodules_import_as_modules(name):
    """``import torch.backends.cudnn as cudnn`` is how many training scripts begin."""
    module = importlib.import_module(f"tensorlab.backends.{name}")
    assert getattr(tensorlab.backends, name) is module


def test_flags_keep_what_is_set_and_flags_context_restores():
    cudnn = tensorlab.backends.cudnn
    cudnn.benchmark = True
    try:
        assert tensorlab.backends.cudnn.benchmark is True
        with cudnn.flags(enabled=False, deterministic=True):
            assert cudnn.enabled is False and cudnn.deterministic is True and cudnn.benchmark is False
        assert cudnn.enabled is True and cudnn.deterministic is False and cudnn.benchmark is True
    finally:
        cudnn.benchmark = False


def test_unknown_matmul_switch_is_pytorchs_attribute_error(torch):
    import torch.backends.cuda  # noqa: F401
    for lib in (tensorlab, torch):
        with pytest.raises(AttributeError, match="Unknown attribute allow_tf64"):
            lib.backends.cuda.matmul.allow_tf64
        with pytest.raises(AttributeError, match="Unknown attribute allow_tf64"):
            lib.backends.cuda.matmul.allow_tf64 = True


@pytest.mark.parametrize("steps", [["high"], ["medium"], ["high", "highest"], ["nonsense"], ["tf32"]])
def test_float32_matmul_precision_as_pytorch(torch, steps):
    results = []
    for lib in (tensorlab, torch):
        before = lib.get_float32_matmul_precision()
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                for step in steps:
                    lib.set_float32_matmul_precision(step)
            results.append((lib.get_float32_matmul_precision(), lib.backends.cuda.matmul.allow_tf32,
                            [str(w.message).split(" (Triggered")[0] for w in caught]))
        finally:
            lib.set_float32_matmul_precision(before)
    assert results[0] == results[1]
