"""The widgets' text-box parser: whitelisted tensor methods with literal arguments, never eval."""
import pytest

import tensorlab as torch
from widgets._parse import METHODS, ParseError, Step, parse_shape, parse_steps


@pytest.mark.parametrize("text, code", [
    ("transpose(0, 1)", [".transpose(0, 1)"]),
    (".transpose(0, 1)", [".transpose(0, 1)"]),
    ("x.transpose(0, 1)", [".transpose(0, 1)"]),
    ("  t()  ", [".t()"]),
    ("view(-1)", [".view(-1)"]),
    ("view((3, 2))", [".view((3, 2))"]),
    ("permute([1, 0])", [".permute([1, 0])"]),
    ("narrow(1, start=1, length=2)", [".narrow(1, start=1, length=2)"]),
    ("as_strided((2, 2), (1, 2), 1)", [".as_strided((2, 2), (1, 2), 1)"]),
    ("unfold(0, 2, 1)", [".unfold(0, 2, 1)"]),
    ("[:, ::2]", ["[:, ::2]"]),
    ("[1]", ["[1]"]),
    ("x[-1, 1:3]", ["[-1, 1:3]"]),
    ("[..., None]", ["[..., None]"]),
    ("[[0, 1]]", ["[[0, 1]]"]),
    ("t().reshape(6)", [".t()", ".reshape(6)"]),
    ("x.t().reshape(6)", [".t()", ".reshape(6)"]),
    ("y[0].unsqueeze(0)", ["[0]", ".unsqueeze(0)"]),
])
def test_accepted_operations_round_trip_to_code(text, code):
    steps = parse_steps(text)
    assert [s.code for s in steps] == code
    # the code of a step parses back to the same step
    assert parse_steps("".join(code)) == steps


@pytest.mark.parametrize("text, phrase", [
    ("__import__('os')", "'__import__' is not an operation"),
    ("os.system('ls')", "'system' is not an operation"),
    ("exec('1')", "'exec' is not an operation"),
    ("x.__class__", "attributes are not accepted"),
    ("a.b.c", "attributes are not accepted"),
    ("t", "attributes are not accepted"),
    ("transpose(0, 1).T", "attributes are not accepted"),
    ("transpose(0, len(x))", "calls inside arguments"),
    ("reshape(int('6'))", "calls inside arguments"),
    ("transpose(dim, 1)", "names are not accepted"),
    ("[i]", "names are not accepted"),
    ("reshape(2 * 3)", "literal numbers"),
    ("view('a')", "literal numbers"),
    ("reshape(*s)", "*args"),
    ("view(**d)", "**kwargs"),
    ("[0](1)", "only methods of the tensor"),
    ("t() + 1", "not an operation on the tensor"),
    ("lambda: 0", "not valid Python"),
    ("t(); import os", "not valid Python"),
    ("[True]", "an index must be"),
    ("[1.5]", "an index must be"),
    ("[0:1.5]", "slice bounds"),
    ("expand(10000000, 3)", "too large"),
    ("", "type an operation"),
    ("t()" * 80, "characters"),
    (".t()" * 9, "at most 8 operations"),
    ("clone(memory_format=torch.contiguous_format)", "literal numbers"),
])
def test_refused_with_a_reason(text, phrase):
    with pytest.raises(ParseError, match=None) as info:
        parse_steps(text)
    assert phrase in str(info.value)


def test_refusal_runs_nothing(monkeypatch):
    """A refused text never reaches the tensor: no attribute is even looked up."""
    touched = []

    class Spy:
        def __getattr__(self, name):
            touched.append(name)
            raise AttributeError(name)

    for text in ("__import__('os')", "transpose(0, len(x))", "t().__class__"):
        with pytest.raises(ParseError):
            for step in parse_steps(text):
                step.apply(Spy())
    assert touched == []


def test_methods_can_be_narrowed():
    assert parse_steps("t()", methods=("t",)) == [Step("t")]
    with pytest.raises(ParseError, match="'clone' is not an operation"):
        parse_steps("clone()", methods=("t",))


def test_every_whitelisted_method_exists_on_tensors():
    x = torch.zeros(2, 3)
    for name in METHODS:
        assert callable(getattr(x, name)), name


def test_a_step_applies_the_real_method():
    x = torch.arange(6.).view(2, 3)
    (step,) = parse_steps("[:, ::2]")
    y = step.apply(x)
    assert y.shape == (2, 2) and y.stride() == (3, 2)
    assert y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


@pytest.mark.parametrize("text, shape", [
    ("3, 1", (3, 1)), ("(3, 1)", (3, 1)), ("[3, 1]", (3, 1)), ("4", (4,)), ("4,", (4,)), ("(4,)", (4,)),
    ("", ()), ("()", ()), (" 2 , 0 ", (2, 0)),
])
def test_parse_shape(text, shape):
    assert parse_shape(text) == shape


@pytest.mark.parametrize("text, phrase", [
    ("-1, 3", "non-negative"), ("3, x", "names are not accepted"), ("2.5", "non-negative integers"),
    ("True", "non-negative integers"), ("3,, 1", "not a shape"), ("len(s)", "calls inside arguments"),
    ("(3, (1, 2))", "non-negative integers"),
])
def test_parse_shape_refuses(text, phrase):
    with pytest.raises(ParseError) as info:
        parse_shape(text)
    assert phrase in str(info.value)
