"""Exercise checks of course/26_graph_capture_fx.ipynb (reference solutions: coursekit/solutions/lesson26.py).

Exercise 1's answer is a *graph pass*: it changes the GraphModule it is given, in place, as torch.fx
passes do -- so it is checked on freshly traced models, each library's own (``torch.fx`` on PyTorch),
by the graph it leaves (the kind and target of every node), by what the GraphModule then computes, and
by the value it returns. Exercise 2's answer is an ``Interpreter`` subclass, re-created for each library
by :func:`coursekit.libs.class_on`.

    >>> _ = check_replace_relu(solution.replace_relu)
    Correct! A pass is a loop over graph.nodes: find, insert, rewire, erase -- then lint and
             recompile.
    >>> _ = check_shape_recorder(solution.ShapeRecorder)
    Correct! run_node sees every node -- the shape propagation torch.fx ships (ShapeProp)
             works this way.
    >>> _ = check_fx_facts(solution.predictions)
    Correct! You can read a graph's nodes off the code that made them.
"""
import numpy as np

from . import guard
from .check import Question, always_a_verdict, check_predictions, correct, is_stub, not_answered, raised, wrong
from .check import works_only_on_tensorlab
from .compare import describe, differences, kind
from .language import tr
from .libs import class_on, libraries, on
from .solutions import lesson26 as solution


def _fill(torch, model):
    """Give a model's parameters fixed values (the two libraries' random generators differ)."""
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.tensor(np.linspace(-1, 1, p.numel()).reshape(tuple(p.shape)) * (i + 1) / 2,
                                 dtype=p.dtype))
    return model


def _sequential(torch):
    nn = torch.nn
    return _fill(torch, nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)))


def _functions(torch):
    def f(x):
        return torch.relu(x) + torch.nn.functional.relu(-x) * 2
    return f


def _methods(torch):
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.linear(x).relu() + x.relu().sum(1, keepdim=True)
    return _fill(torch, Net())


def _sizes(torch):
    class Flatten(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(4, 2)

        def forward(self, x):
            h = self.linear(x.view(x.shape[0], -1))
            return torch.tanh(h) * x.size(1)
    return _fill(torch, Flatten())


def _no_relu(torch):
    def g(x):
        return x.exp().sum(1)
    return g


def _input(torch):
    return torch.tensor(np.linspace(-2, 2, 12).reshape(3, 4), dtype=torch.float32)


# -- exercise 1: a graph pass -----------------------------------------------------------------------------

# (label, model, the function that replaces relu, the forms of relu the model has)
PASS_CASES = [
    ("nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)), new = torch.sigmoid", _sequential, "sigmoid",
     ["call_module"]),
    ("x -> torch.relu(x) + F.relu(-x) * 2, new = torch.tanh", _functions, "tanh", ["torch.relu", "F.relu"]),
    (tr("a Module whose forward calls self.linear(x).relu() and x.relu(), new = torch.sigmoid"), _methods,
     "sigmoid", ["call_method"]),
    (tr("x -> x.exp().sum(1) (no relu at all), new = torch.tanh"), _no_relu, "tanh", []),
]

FORM_HINTS = {
    "call_module": ("An nn.ReLU layer is a call_module node: its target is the submodule's path (a string such as "
                    "'1'); look the module up in dict(gm.named_modules()) and test isinstance(..., nn.ReLU)."),
    "call_method": "x.relu() is a call_method node: its target is the method's name, the string 'relu'.",
    "torch.relu": "torch.relu(x) is a call_function node whose target is the function torch.relu itself.",
    "F.relu": ("F.relu is another function than torch.relu: a call_function node whose target is "
               "F.relu needs its own test."),
}


def _target_name(target):
    return target if isinstance(target, str) else getattr(target, "__name__", str(target))


def _structure(gm):
    """(op, what it calls) for every node: the module's class for call_module."""
    modules = dict(gm.named_modules())
    rows = []
    for node in gm.graph.nodes:
        what = _target_name(node.target)
        if node.op == "call_module":
            what = type(modules.get(node.target)).__name__
        rows.append((node.op, what))
    return rows


def _relu_form(node, modules, torch):
    """Which form of relu ``node`` is, or None."""
    if node.op == "call_function" and node.target is torch.relu:
        return "torch.relu"
    if node.op == "call_function" and node.target is torch.nn.functional.relu:
        return "F.relu"
    if node.op == "call_method" and node.target == "relu":
        return "call_method"
    if node.op == "call_module" and isinstance(modules.get(node.target), torch.nn.ReLU):
        return "call_module"
    return None


def _diagnose_graph(gm, new_name, torch):
    """Why the graph the pass left is not the reference's ('' when nothing is recognised)."""
    modules = dict(gm.named_modules())
    for node in gm.graph.nodes:
        form = _relu_form(node, modules, torch)
        if form is None:
            continue
        if not node.users:
            return tr("The new node is in, but the old relu node is still in the graph, read by nobody: remove it "
                      "with gm.graph.erase_node(node) once its users read the new node.")
        return tr("A relu is left unchanged. {how}", how=tr(FORM_HINTS[form]))
    names = [_target_name(n.target) for n in gm.graph.nodes if n.op == "call_function"]
    if new_name not in names:
        return tr("Call the function you are given, `new` (here torch.{name}): gm.graph.call_function(new, ...).",
                  name=new_name)
    return tr("The new node must take the relu's input, node.args[0], and only that (F.relu's node also has "
              "kwargs={'inplace': False}, which the new function does not take).")


def _pass_error_hint(error):
    text = str(error)
    if "inplace" in text:
        return tr("F.relu's node has kwargs={'inplace': False}: give the new node the input alone, "
                  "(node.args[0],), not the old node's kwargs.")
    if "still had" in text and "users" in text:
        return tr("A node can be erased only when nobody reads it: first node.replace_all_uses_with(new_node), "
                  "then gm.graph.erase_node(node).")
    if "used before it has been defined" in text:
        return tr("Insert the new node after the old one: `with gm.graph.inserting_after(node):`.")
    return ""


def _check_pass_case(answer, library, label, make, new_name, forms):
    """(what, why) for one model on one library, "stub", or None when all agree."""
    new = getattr(library, new_name)
    gm, reference = library.fx.symbolic_trace(make(library)), library.fx.symbolic_trace(make(library))
    on(library, solution.replace_relu)(reference, new)
    result, error = guard.run(on(library, answer), gm, new)
    if error is not None:
        return raised(error, _pass_error_hint(error), tr("replace_relu on {label}", label=label))
    if result is Ellipsis:
        return "stub"
    if _structure(gm) != _structure(reference):
        return (tr("on {label}, the graph's nodes are {nodes}", label=label,
                   nodes=describe(_structure(gm), limit=160)),
                _diagnose_graph(gm, new_name, library))
    x = _input(library)
    got, error = guard.run(gm, x)
    if error is not None:
        return raised(error, _pass_error_hint(error) or tr("Call gm.recompile() after changing the graph: it "
                                                           "writes forward again from it."),
                      tr("the rewritten GraphModule on {label}", label=label))
    found = differences(got, reference(x), where=tr("what the rewritten GraphModule computes"))
    if found:
        return (tr("on {label}, {found}", label=label, found=found[0]),
                tr("The graph is right, but forward was not written again from it: call gm.recompile() after the "
                   "last change."))
    if result is not gm:
        returned = "None" if result is None else kind(result)
        return (tr("replace_relu returned {returned}, not the GraphModule it was given", returned=returned),
                tr("A pass changes gm in place and returns it, so that passes can be chained: end with "
                   "`return gm`."))
    return None


@always_a_verdict
def check_replace_relu(replace_relu):
    """Exercise 1: ``replace_relu(gm, new)`` makes every relu of ``gm`` a call of ``new`` and returns ``gm``."""
    what = tr("the body of replace_relu (every relu node becomes a call of new; recompile; return gm)")
    if is_stub(replace_relu):
        return not_answered(what)
    if not callable(replace_relu):
        return wrong(tr("`replace_relu` should be a function (gm, new) -> gm; it is {kind}.",
                        kind=kind(replace_relu)))
    for index, (_, library) in enumerate(libraries()):
        for label, make, new_name, forms in PASS_CASES:
            problem = _check_pass_case(replace_relu, library, label, make, new_name, forms)
            if problem is None:
                continue
            if problem == "stub":
                return not_answered(what)
            found, why = problem
            if index > 0:
                return works_only_on_tensorlab("`replace_relu`", library, found)
            return wrong(tr("`{name}` {found}.", name="replace_relu", found=found), why)
    return correct(tr("A pass is a loop over graph.nodes: find, insert, rewire, erase -- then lint and "
                      "recompile."))


# -- exercise 2: an Interpreter that records shapes --------------------------------------------------------

SHAPE_CASES = [("nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))", _sequential),
               (tr("a Module with .relu() and .sum(1, keepdim=True)"), _methods),
               (tr("a Module that reads x.shape[0] and x.size(1)"), _sizes)]


def _plain_shapes(shapes):
    return {(k.name if hasattr(k, "op") else k): tuple(v) if isinstance(v, tuple) or hasattr(v, "numel") else v
            for k, v in shapes.items()}


def _diagnose_shapes(got, expected, gm):
    ops = {n.name: n.op for n in gm.graph.nodes}
    if got and all(hasattr(k, "op") for k in got):
        return tr("Use the node's name as the key: self.shapes[n.name] (a Node prints as its name, but is not a "
                  "string).")
    got_names = {k.name if hasattr(k, "op") else k for k in got}
    missing = [name for name in expected if name not in got_names]
    extra = [name for name in got_names if name not in expected]
    extra = [name for name in extra if name in ops]      # nodes whose value is not a tensor
    if extra:
        return tr("Only tensor values have a shape to record: the value of {name} is not a tensor (test "
                  "isinstance(result, torch.Tensor)).", name=extra[0])
    if missing:
        kinds = sorted({ops.get(name, "?") for name in missing})
        return tr("The shapes of some nodes are missing ({names}: {kinds}): override run_node, which every node "
                  "passes through, rather than one kind's method.", names=", ".join(missing[:3]),
                  kinds=", ".join(kinds))
    return tr("Record tuple(result.shape) of the value run_node computed for that node.")


def _check_shape_case(answer, library, label, make):
    gm = library.fx.symbolic_trace(make(library))
    cls = class_on(library, answer)
    recorder, error = guard.run(cls, gm) if callable(cls) else (None, TypeError(tr("{kind} cannot be called",
                                                                                            kind=kind(answer))))
    if error is not None:
        return raised(error, tr("Make it as the lesson does: `ShapeRecorder(gm)`, calling super().__init__(module) "
                                "first."), tr("making the recorder"))
    if not isinstance(recorder, library.fx.Interpreter):
        return (tr("the answer should be a subclass of {base}; calling it gave {kind}", base="fx.Interpreter",
                   kind=kind(recorder)),
                tr("Write `class ShapeRecorder(fx.Interpreter):` and override run_node."))
    x = _input(library)
    out, error = guard.run(recorder.run, x)
    if error is not None:
        why = ""
        if "has no attribute 'shape'" in str(error):
            why = tr("Not every node's value is a tensor (x.shape gives a torch.Size, x.size(1) an int): record a "
                     "shape only when isinstance(result, torch.Tensor).")
        elif "NoneType" in str(error) or "None" in str(error):
            why = tr("run_node must return the node's value: the nodes after it read it from there.")
        return raised(error, why or tr("Call super().run_node(n) to compute the value, record, then return it."),
                      tr("ShapeRecorder(gm).run(x) on {label}", label=label))
    if out is Ellipsis:
        return "stub"
    found = differences(out, gm(x), where=tr("what run(x) returned"))
    if found:
        return (tr("on {label}, {found}", label=label, found=found[0]),
                tr("run_node must return the value super().run_node(n) computed, unchanged."))
    reference = class_on(library, solution.ShapeRecorder)(gm)
    reference.run(x)
    shapes = getattr(recorder, "shapes", None)
    if not isinstance(shapes, dict):
        return (tr("the recorder's `shapes` is {kind}, not a dict", kind=kind(shapes)),
                tr("Make `self.shapes = {}` in __init__ and fill it in run_node."))
    got = _plain_shapes(shapes)
    if got != reference.shapes or any(hasattr(k, "op") for k in shapes):
        return (tr("on {label}, shapes is {shapes}", label=label, shapes=describe(got, limit=160)),
                _diagnose_shapes(shapes, reference.shapes, gm))
    return None


@always_a_verdict
def check_shape_recorder(ShapeRecorder):
    """Exercise 2: ``ShapeRecorder(gm).run(x)`` returns gm(x) and leaves {node name: shape} in ``.shapes``."""
    what = tr("the body of run_node (compute the node's value, record its shape if it is a tensor, return it)")
    if is_stub(ShapeRecorder):
        return not_answered(what)
    for index, (_, library) in enumerate(libraries()):
        for label, make in SHAPE_CASES:
            problem = _check_shape_case(ShapeRecorder, library, label, make)
            if problem is None:
                continue
            if problem == "stub":
                return not_answered(what)
            found, why = problem
            if index > 0:
                return works_only_on_tensorlab("`ShapeRecorder`", library, found)
            return wrong(tr("`{name}`: {found}.", name="ShapeRecorder", found=found), why)
    return correct(tr("run_node sees every node -- the shape propagation torch.fx ships (ShapeProp) works this "
                      "way."))


# -- exercise 3: predictions ------------------------------------------------------------------------------

def _net_graph(torch):
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(4, 4)
            self.scale = torch.nn.Parameter(torch.ones(4))

        def forward(self, x):
            h = self.linear(x)
            h = torch.relu(h) * self.scale
            return h.view(-1)
    return torch.fx.symbolic_trace(Net()).graph


def _op_of(name):
    return lambda torch: next(n.op for n in _net_graph(torch).nodes if n.name == name)


_KINDS = "placeholder, get_attr, call_function, call_method, call_module, output"

FX_QUESTIONS = [
    Question(tr("the op of the node recorded for {code}", code="self.linear(x)"), _op_of("linear"),
             tr("A submodule that tracing keeps whole (tensorlab.nn's layers are leaves) is called by its path. The "
                "six kinds: {kinds}.", kinds=_KINDS)),
    Question(tr("the op of the node recorded for {code}", code="self.scale"), _op_of("scale"),
             tr("Reading a parameter is not a call: which kind of node fetches an attribute of the module?")),
    Question(tr("the op of the node recorded for {code}", code="h.view(-1)"), _op_of("view"),
             tr("A function called through its first argument, with a dot: which kind names it by a string?")),
    Question("len(gm.graph.nodes)", lambda torch: len(list(_net_graph(torch).nodes)),
             tr("Count one node per input, per attribute read, per call (the * too), and the output -- "
                "print(gm.graph) to check.")),
]


def check_fx_facts(answer):
    """Exercise 3: a tuple of the 4 predictions of the table."""
    return check_predictions(answer, FX_QUESTIONS,
                             what=tr("a tuple of 4 predictions, e.g. ('placeholder', 'output', 'call_function', "
                                     "3)"),
                             note=tr("You can read a graph's nodes off the code that made them."))


__all__ = ["check_fx_facts", "check_replace_relu", "check_shape_recorder"]
