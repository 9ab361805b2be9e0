"""Lesson 26's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
import tensorlab.fx as fx
import tensorlab.nn as nn
import tensorlab.nn.functional as F
from coursekit import lesson26 as check
from coursekit.solutions import lesson26 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_replace_relu(solution.replace_relu)
    assert check.check_shape_recorder(solution.ShapeRecorder)
    assert check.check_fx_facts(solution.predictions)
    assert capsys.readouterr().out.count("Correct!") == 3


# -- other correct answers ----------------------------------------------------------------------------------

def replace_relu_with_a_transformer_like_loop(gm, new):
    """Collects first, then rewrites; matches by name."""
    modules = dict(gm.named_modules())
    found = [n for n in gm.graph.nodes
             if (n.op in ("call_function", "call_method") and getattr(n.target, "__name__", n.target) == "relu")
             or (n.op == "call_module" and type(modules[n.target]).__name__ == "ReLU")]
    for node in found:
        with gm.graph.inserting_before(node):
            replacement = gm.graph.call_function(new, args=(node.args[0],))
        node.replace_all_uses_with(replacement)
        gm.graph.erase_node(node)
    gm.recompile()
    return gm


class ShapeRecorderKeepingSizes(fx.Interpreter):
    def __init__(self, module):
        super().__init__(module)
        self.shapes = {}

    def run_node(self, n):
        value = super().run_node(n)
        if isinstance(value, torch.Tensor):
            self.shapes[n.name] = value.shape          # a torch.Size is a tuple
        return value


def test_other_correct_answers_are_accepted(mode):
    assert check.check_replace_relu(replace_relu_with_a_transformer_like_loop)
    assert check.check_shape_recorder(ShapeRecorderKeepingSizes)
    assert check.check_fx_facts(["call_module", "get_attr", "call_method", 7])


# -- stubs ------------------------------------------------------------------------------------------------

def stub_replace_relu(gm, new):
    return ...  # your code here


class StubRecorder(fx.Interpreter):
    def __init__(self, module):
        super().__init__(module)
        self.shapes = {}

    def run_node(self, n):
        return ...  # your code here


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_replace_relu(stub_replace_relu), check.check_replace_relu(...),
                    check.check_shape_recorder(StubRecorder), check.check_shape_recorder(...),
                    check.check_fx_facts(...), check.check_fx_facts(("call_module", ..., "call_method", 7))):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


# -- wrong passes ------------------------------------------------------------------------------------------

def _pass(match, *, erase=True, recompile=True, returns=True, kwargs=False, use=None, rewire_first=True):
    def replace_relu(gm, new):
        modules = dict(gm.named_modules())
        for node in gm.graph.nodes:
            if match(node, modules):
                with gm.graph.inserting_after(node):
                    replacement = gm.graph.call_function(use or new, (node.args[0],), dict(node.kwargs) if kwargs
                                                         else None)
                if not rewire_first:
                    gm.graph.erase_node(node)
                node.replace_all_uses_with(replacement)
                if erase and rewire_first:
                    gm.graph.erase_node(node)
        if recompile:
            gm.recompile()
        return gm if returns else None
    return replace_relu


def _all(node, modules):
    return ((node.op == "call_function" and node.target in (torch.relu, F.relu))
            or (node.op == "call_method" and node.target == "relu")
            or (node.op == "call_module" and isinstance(modules[node.target], nn.ReLU)))


@pytest.mark.parametrize("answer, phrases", [
    (_pass(lambda n, m: n.op == "call_function" and n.target is torch.relu),
     ["nn.Sequential", "An nn.ReLU layer is a call_module node"]),
    (_pass(lambda n, m: _all(n, m) and n.op != "call_method"), ["self.linear(x).relu()", "call_method node"]),
    (_pass(lambda n, m: _all(n, m) and n.target is not F.relu), ["F.relu is another function than torch.relu"]),
    (_pass(_all, erase=False), ["the old relu node is still in the graph, read by nobody"]),
    (_pass(_all, recompile=False), ["call gm.recompile()"]),
    (_pass(_all, returns=False), ["returned None", "end with `return gm`"]),
    (_pass(_all, kwargs=True), ["raised TypeError", "kwargs={'inplace': False}"]),
    (_pass(_all, use=torch.sigmoid), ["new = torch.tanh", "Call the function you are given"]),
    (_pass(_all, rewire_first=False), ["raised RuntimeError", "first node.replace_all_uses_with"]),
])
def test_wrong_passes(mode, answer, phrases):
    assert_rejected(check.check_replace_relu(answer), phrases)


# -- wrong recorders ---------------------------------------------------------------------------------------

def _recorder(record, *, returns=True, key=lambda n: n.name):
    class Recorder(fx.Interpreter):
        def __init__(self, module):
            super().__init__(module)
            self.shapes = {}

        def run_node(self, n):
            value = super().run_node(n)
            if record(value):
                self.shapes[key(n)] = tuple(value.shape)
            return value if returns else None
    return Recorder


class OnlyModules(fx.Interpreter):
    def __init__(self, module):
        super().__init__(module)
        self.shapes = {}

    def call_module(self, target, args, kwargs):
        value = super().call_module(target, args, kwargs)
        self.shapes[target.replace(".", "_")] = tuple(value.shape)
        return value


@pytest.mark.parametrize("answer, phrases", [
    (OnlyModules, ["shapes is {", "override run_node, which every node passes"]),
    (_recorder(lambda v: True), ["raised AttributeError", "isinstance(result, torch.Tensor)"]),
    (_recorder(lambda v: isinstance(v, torch.Tensor), returns=False), ["raised", "run_node must return"]),
    (_recorder(lambda v: isinstance(v, torch.Tensor), key=lambda n: n), ["Use the node's name as the key"]),
    (lambda gm: gm, ["should be a subclass of fx.Interpreter"]),
])
def test_wrong_recorders(mode, answer, phrases):
    assert_rejected(check.check_shape_recorder(answer), phrases)


# -- wrong predictions --------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, phrases", [
    (("call_function", "get_attr", "call_method", 7), ["(1)", "called by its path"]),
    (("call_module", "placeholder", "call_method", 7), ["(2)", "Reading a parameter is not a call"]),
    (("call_module", "get_attr", "call_function", 6), ["2 of 4 predictions are off", "with a dot",
                                                        "the * too"]),
    (("call_module", "get_attr"), ["a tuple of 4 predictions"]),
])
def test_wrong_predictions(mode, answer, phrases):
    assert_rejected(check.check_fx_facts(answer), phrases)
