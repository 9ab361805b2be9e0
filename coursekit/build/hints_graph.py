"""Stage 4's classic mistakes, each recognised in the outcome of one of the stage's graph cases
(:mod:`coursekit.build.cases_graph`), against PyTorch's recorded answer."""
from __future__ import annotations

from ..language import tr
from .cases import _recorded

ACC = "torch::autograd::AccumulateGrad"


def answer(which):
    return _recorded()[str(which.stage)][which.id]["value"]


def graph_with(old, new):
    """The mistake draws PyTorch's graph with ``old`` (its last occurrence) replaced by ``new``."""
    def seen(which, got):
        right = answer(which)
        at = right.rfind(old)
        return got.get("value") == right[:at] + new + right[at + len(old):]
    return seen


def value_is(wrong):
    return lambda which, got: got == {"value": wrong}


def field_is(name, wrong):
    return lambda which, got: isinstance(got.get("value"), dict) and got["value"].get(name) == wrong


#: (name, function, the case's input as shown, how it shows, hint)
MISTAKES4 = [
    (tr("an edge to an input that needs no gradient"), "_connect_inputs", "x * c, c not requiring grad",
     graph_with("(None, 0)", f"({ACC}, 0)"),
     tr("c does not require grad, yet its edge leads to an AccumulateGrad -- backward would write c.grad. "
        "An input that needs no gradient gets the edge (None, 0): only a tensor that requires grad has "
        "somewhere for its gradient to go.")),
    (tr("every edge's input_nr 0"), "_connect_inputs", "q, r = x.split(2); r * 2", graph_with(", 1)", ", 0)"),
     tr("r is the SECOND output of split, yet its edge says input_nr 0, so its gradient would land on q. "
        "An edge is (the node that made the input, which of its outputs the input was): "
        "(t.grad_fn, t.output_nr) -- read it off the tensor, via gradient_edge.")),
    (tr("an AccumulateGrad for a leaf that needs no gradient"), "gradient_edge", "gradient_edge(t), t: c, a leaf",
     lambda which, got: isinstance(got.get("value"), list) and got["value"][0] == ACC,
     tr("c does not require grad, so no gradient may go to it: gradient_edge gives None. Only a leaf that "
        "requires grad gets its AccumulateGrad.")),
    (tr("a new AccumulateGrad for every use of a leaf"), "grad_accumulator",
     "a, b = grad_accumulator(x), grad_accumulator(x)", field_is("same node", False),
     tr("Each call made a new AccumulateGrad, so two ops on x lead to two different nodes. A leaf has ONE "
        "accumulator while any graph uses it: keep it on the leaf (a weak reference, t._grad_accumulator, so "
        "the leaf does not keep it alive) and hand the same one out again.")),
]
