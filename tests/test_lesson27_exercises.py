"""Lesson 27's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import functools

import pytest

import tensorlab as torch
from coursekit import lesson27 as check
from coursekit.solutions import lesson27 as solution
from coursekit.testing import assert_rejected
from tensorlab.utils.checkpoint import checkpoint


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_half_hooks(solution.pack_half, solution.unpack_half)
    assert check.check_run_in_segments(solution.run_in_segments)
    assert check.check_memory_facts(solution.predictions)
    assert capsys.readouterr().out.count("Correct!") == 3


# -- other correct answers ----------------------------------------------------------------------------------

def pack_as_dict(tensor):
    if tensor.dtype in (torch.float32, torch.float64):
        return {"dtype": tensor.dtype, "half": tensor.half()}
    return {"dtype": None, "as_is": tensor}


def unpack_from_dict(packed):
    if packed["dtype"] is None:
        return packed["as_is"]
    return packed["half"].to(packed["dtype"])


def segments_with_partial(layers, segments, x):
    """checkpoint imported by name, each segment bound with functools.partial."""
    def run(chunk, h):
        for layer in chunk:
            h = layer(h)
        return h
    size = len(layers) // segments
    starts = list(range(0, size * segments, size))[:segments]
    for start in starts[:-1]:
        x = checkpoint(functools.partial(run, layers[start:start + size]), x, use_reentrant=False)
    return run(layers[starts[-1]:], x)


def test_other_correct_answers_are_accepted(mode):
    assert check.check_half_hooks(pack_as_dict, unpack_from_dict)
    assert check.check_run_in_segments(segments_with_partial)
    assert check.check_memory_facts([2, 3, 1, 8000])


# -- stubs ------------------------------------------------------------------------------------------------

def stub_pack(tensor):
    return ...  # your code here


def stub_unpack(packed):
    return ...  # your code here


def stub_segments(layers, segments, x):
    return ...  # your code here


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_half_hooks(stub_pack, stub_unpack), check.check_half_hooks(..., ...),
                    check.check_half_hooks(solution.pack_half, stub_unpack),
                    check.check_run_in_segments(stub_segments), check.check_run_in_segments(...),
                    check.check_memory_facts(...), check.check_memory_facts((2, ..., 1, 8000))):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


# -- wrong hooks ------------------------------------------------------------------------------------------

def keeps_the_tensor(tensor):
    return tensor


def identity(packed):
    return packed


def half_only(tensor):
    return tensor.half()


def keeps_both(tensor):
    return tensor, tensor.half()


def unpack_second_as_float(packed):
    return packed[1].float()


def always_float32(packed):
    return packed.float()


def remembers_dtype_for_all(tensor):
    return tensor.dtype, tensor.to(torch.float16)


def in_place(tensor):
    tensor.mul_(1)
    return tensor.dtype, tensor.to(torch.float16)


@pytest.mark.parametrize("pack, unpack, phrases", [
    (keeps_the_tensor, identity, ["keeps torch.float32, not a float16 copy", "convert the tensor with .to"]),
    (half_only, identity, ["has dtype torch.float16", "convert back with .to(...)"]),
    (keeps_both, unpack_second_as_float, ["keeps the float32 tensor as well", "saves nothing"]),
    (half_only, always_float32, ["a float64 tensor", "Do not assume float32"]),
    (remembers_dtype_for_all, solution.unpack_half, ["arange(3000, 3008)", "tensor.is_floating_point()"]),
    (in_place, solution.unpack_half, ["changed the tensor it was given", "leave its input alone"]),
])
def test_wrong_hooks(mode, pack, unpack, phrases):
    assert_rejected(check.check_half_hooks(pack, unpack), phrases)


def test_hooks_that_are_not_functions(mode):
    assert_rejected(check.check_half_hooks(solution.pack_half, 3), ["`unpack_half` should be a function"])


# -- wrong segments ------------------------------------------------------------------------------------------

def run_layers(layers, x):
    for layer in layers:
        x = layer(x)
    return x


def no_checkpoint(layers, segments, x):
    return run_layers(layers, x)


def last_segment_too(layers, segments, x):
    size = len(layers) // segments
    for k in range(segments):
        end = (k + 1) * size if k < segments - 1 else len(layers)
        x = torch.utils.checkpoint.checkpoint(run_layers, layers[k * size:end], x, use_reentrant=False)
    return x


def late_binding_lambda(layers, segments, x):
    size = len(layers) // segments
    for k in range(segments - 1):
        x = torch.utils.checkpoint.checkpoint(lambda h: run_layers(layers[k * size:(k + 1) * size], h), x,
                                              use_reentrant=False)
    return run_layers(layers[(segments - 1) * size:], x)


def drops_the_remainder(layers, segments, x):
    size = len(layers) // segments
    for k in range(segments - 1):
        x = torch.utils.checkpoint.checkpoint(run_layers, layers[k * size:(k + 1) * size], x, use_reentrant=False)
    return run_layers(layers[(segments - 1) * size:segments * size], x)


def no_use_reentrant(layers, segments, x):
    size = len(layers) // segments
    for k in range(segments - 1):
        x = torch.utils.checkpoint.checkpoint(run_layers, layers[k * size:(k + 1) * size], x)
    return run_layers(layers[(segments - 1) * size:], x)


def every_layer(layers, segments, x):
    for layer in layers[:-2]:
        x = torch.utils.checkpoint.checkpoint(layer, x, use_reentrant=False)
    return run_layers(layers[-2:], x)


@pytest.mark.parametrize("answer, phrases", [
    (no_checkpoint, ["backward ran no layer again", "Nothing was checkpointed"]),
    (last_segment_too, ["Linear layers again", "run it plainly"]),
    (late_binding_lambda, ["a gradient", "sees their last values"]),
    (drops_the_remainder, ["the output", "the last segment also takes the layers left over"]),
    (no_use_reentrant, ["checkpoint warned", "Pass use_reentrant=False"]),
    (every_layer, ["the forward kept", "Cut the layers into `segments` consecutive chunks"]),
])
def test_wrong_segments(mode, answer, phrases):
    assert_rejected(check.check_run_in_segments(answer), phrases)


# -- predictions ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("predictions, phrases", [
    ((1, 3, 1, 8000), ["(1) len(calls) after y = checkpoint", "count what backward has to do"]),
    ((2, 2, 1, 8000), ["(2) len(calls) after loss.backward(retain_graph=True)", "per pass"]),
    ((2, 3, 0, 8000), ["(3)", "is anything saved, or ever recomputed?"]),
    ((2, 3, 1, 4000), ["(4) the bytes counted", "how many bytes is one float32"]),
])
def test_wrong_predictions(mode, predictions, phrases):
    assert_rejected(check.check_memory_facts(predictions), phrases)
