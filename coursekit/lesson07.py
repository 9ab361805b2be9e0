"""Exercise checks of course/07_the_backward_graph.ipynb (reference solutions: coursekit/solutions/lesson07.py).

    >>> _ = check_next_functions(solution.next_functions)
    Correct! You can read a graph's edges off the code that built it.

:func:`dependency_counts` is the engine's first step written over the public API only
(``grad_fn.next_functions``), so it gives the same numbers on tensorlab and on PyTorch.
"""
import warnings

from . import guard
from .check import (Case, Question, always_a_verdict, check_function, check_predictions, correct, is_stub,
                    not_answered, raised, works_only_on_tensorlab, wrong)
from .compare import is_tensor, kind
from .language import tr
from .libs import libraries, on
from .solutions import lesson07 as solution


def dependency_counts(output):
    """{node: number of edges into it} for the graph behind ``output``: the root's edge into
    ``output.grad_fn`` counts one, as in the engine (tensorlab/autograd/engine.py,
    ``_count_dependencies``). An iterative walk: graphs can be deeper than Python's recursion limit."""
    root = output.grad_fn
    counts, seen, stack = {root: 1}, {root}, [root]
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            counts[nxt] = counts.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return counts


def edge_names(t):
    """The class names along ``t.grad_fn.next_functions`` (None for a None edge); None without grad_fn."""
    if t.grad_fn is None:
        return None
    return tuple(None if fn is None else type(fn).__name__ for fn, _ in t.grad_fn.next_functions)


# -- exercise 1: predict next_functions -------------------------------------------------------------

def _wbx(torch):
    return (torch.tensor([1., 2.], requires_grad=True), torch.tensor([0.5, 0.5], requires_grad=True),
            torch.tensor([3., 4.]))


def _edges(expression):
    def compute(torch):
        w, b, x = _wbx(torch)
        return edge_names(expression(torch, w, b, x))
    return compute


def _why_none_edge(predicted, truth):
    return (tr("One edge per input, in order. A leaf that requires grad is reached through its AccumulateGrad "
               "node; an input that neither requires grad nor has a history has nothing to send a gradient "
               "to -- what can its edge hold?"))


NEXT_QUESTIONS = [
    Question("w * x", _edges(lambda torch, w, b, x: w * x), _why_none_edge),
    Question("w * x + b", _edges(lambda torch, w, b, x: w * x + b),
             tr("One edge per input of the add, in order: each leads to the node that made that input -- the "
                "op's node for a computed tensor, the AccumulateGrad node for a leaf that requires grad.")),
    Question("w * w", _edges(lambda torch, w, b, x: w * w),
             tr("A multiplication has two inputs, so two edges -- even when both inputs are the same tensor. "
                "Where does an edge to a leaf that requires grad lead?")),
    Question("(w * x).sum()", _edges(lambda torch, w, b, x: (w * x).sum()),
             tr("sum has one input, so one edge, to the node that made that input. The edges of a node lead "
                "only one step back.")),
    Question("x * 2 + b", _edges(lambda torch, w, b, x: x * 2 + b),
             tr("Does x * 2 require grad? A tensor made only from tensors that do not require grad has no "
                "grad_fn, so an edge to it has no node to lead to.")),
    Question("w.detach() * 2", _edges(lambda torch, w, b, x: w.detach() * 2),
             tr("detach() cuts the history: does w.detach() * 2 still have a grad_fn whose edges could be "
                "read? (The table asks for its edges only if it has one.)")),
]


def check_next_functions(answer):
    """Exercise 1: for each line, a tuple of class names (None for a None edge), or None."""
    return check_predictions(answer, NEXT_QUESTIONS,
                             note=tr("You can read a graph's edges off the code that built it."),
                             what=tr("a tuple of 6 answers, one per line of the table: each a tuple of names "
                                     "such as (\"MulBackward0\", None), or None"))


# -- exercise 2: predict the dependency counts ---------------------------------------------------------

def _diamond_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x.exp()
    y = h * h + h
    loss = y.sum()
    return x, h, y, loss


def _count_of(pick):
    def compute(torch):
        x, h, y, loss = _diamond_graph(torch)
        return dependency_counts(loss)[pick(x, h, y, loss)]
    return compute


def _accumulate_of(x, output):
    """x's AccumulateGrad node, found through the graph of ``output`` (a leaf has one)."""
    for node in dependency_counts(output):
        if type(node).__name__ == "AccumulateGrad" and node.variable is x:
            return node
    raise LookupError("x is not in the graph")


def _square_count(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    z = (x * x).sum()
    return dependency_counts(z)[_accumulate_of(x, z)]


DEPENDENCY_QUESTIONS = [
    Question("loss.grad_fn (SumBackward0)", _count_of(lambda x, h, y, loss: loss.grad_fn),
             tr("Nothing uses loss -- but the engine starts from a node of its own, with one edge into the node "
                "of the tensor backward() was called on. Count the edges coming *in*.")),
    Question("y.grad_fn (AddBackward0)", _count_of(lambda x, h, y, loss: y.grad_fn),
             tr("Count the uses of y: each operation that takes y as an input is one edge into y's node.")),
    Question(tr("the MulBackward0 of h * h"),
             _count_of(lambda x, h, y, loss: y.grad_fn.next_functions[0][0]),
             tr("Count the edges coming *in* (the uses of the product), not the edges going out of it to h's "
                "node.")),
    Question("h.grad_fn (ExpBackward0)", _count_of(lambda x, h, y, loss: h.grad_fn),
             lambda got, truth: tr("h * h uses h twice (two edges) -- is that the only place y's formula uses h?")
             if got == 2 else tr("Count every use of h as an edge into ExpBackward0: an operation that uses h "
                                 "twice counts twice.")),
    Question(tr("x's AccumulateGrad"), _count_of(lambda x, h, y, loss: _accumulate_of(x, loss)),
             tr("Count the uses of x itself; how often h is used does not matter to x's node.")),
    Question(tr("x's AccumulateGrad in (x * x).sum()"), _square_count,
             tr("x * x is a multiplication with two inputs, and both are x: how many edges lead to x's "
                "AccumulateGrad? (It waits for a gradient along each, and runs once, on their sum.)")),
]


def check_dependencies(answer):
    """Exercise 2: six dependency counts, one per line of the table."""
    return check_predictions(answer, DEPENDENCY_QUESTIONS,
                             note=tr("That is the number each node's badge starts from in the GraphExplorer."),
                             what=tr("a tuple of 6 ints, one per line of the table"))


# -- exercise 3: the gradient of a non-leaf --------------------------------------------------------------

HIDDEN_CASES = [
    Case("x = torch.tensor([0.5, -1., 2.]), w = torch.tensor([1., 0.5, -0.25], requires_grad=True)",
         lambda torch: (torch.tensor([0.5, -1., 2.]), torch.tensor([1., 0.5, -0.25], requires_grad=True))),
]


def _diagnose_hidden(got, expected, args, torch):
    x, w = args
    if isinstance(got, IndexError):
        return (tr("The hook never ran, so nothing was collected: register it *before* loss.backward() -- a "
                   "hook watches future backward passes."))
    if isinstance(got, Exception):
        if "does not require grad" in str(got) or "doesn't require gradient" in str(got):
            return tr("Register the hook on h (which requires grad because w does), not on x.")
        return None
    if is_tensor(got) and w.grad is not None and got is w.grad or (
            is_tensor(got) and w.grad is not None and got.shape == w.grad.shape
            and bool(torch.allclose(got.detach(), w.grad)) and not bool(torch.allclose(expected, w.grad))):
        return (tr("That is w.grad, the gradient of the leaf w. The gradient of h is what arrives at h's node "
                   "before MulBackward0 multiplies it by x."))
    return None


def _w_grad_filled(got, args, torch):
    x, w = args
    if w.grad is None:
        return (tr("w.grad is still None"),
                tr("Get h's gradient from the same loss.backward() that fills w.grad (a hook, or retain_grad), "
                   "not from autograd.grad, which leaves .grad alone."))
    return None


def _where(name, case):
    """The start of a verdict about ``name`` on ``case``, worded as check_function words it."""
    return tr("`{name}` on {case}", name=name, case=case)


def _first_run(function):
    """``(value, error)`` of ``function`` on tensorlab's first case. check_function answers a None
    with a generic "forgot return?"; here None is the classic result of reading a non-leaf's .grad,
    which deserves its own hint."""
    import tensorlab
    return guard.run(on(tensorlab, function), *HIDDEN_CASES[0].make(tensorlab))


@always_a_verdict
def check_hidden_gradient(hidden_gradient):
    """Exercise 3: ``hidden_gradient(x, w)`` returns d loss / d h, and w.grad is filled as usual."""
    with warnings.catch_warnings():      # reading h.grad warns; the check judges the value
        warnings.simplefilter("ignore")
        if callable(hidden_gradient):
            value, error = _first_run(hidden_gradient)
            if error is None and value is None:
                return wrong(f"{_where('hidden_gradient', HIDDEN_CASES[0].label)}: {tr('it returned None')}.",
                             tr("h is not a leaf, so h.grad stays None after backward: call h.retain_grad() "
                                "before backward, or collect the gradient with h.register_hook(...). (Or did "
                                "you forget `return`?)"))
            if guard.failure(error) is not None:      # stopped, or sys.exit(): no need to wait twice
                return wrong(f"{_where('hidden_gradient', HIDDEN_CASES[0].label)}: {guard.failure(error)[0]}.",
                             guard.failure(error)[1])
        return check_function(hidden_gradient, solution.hidden_gradient, HIDDEN_CASES,
                              name="hidden_gradient", grads=False,
                              what=tr("a function body that returns the gradient of the loss with respect to h"),
                              diagnoses=[_diagnose_hidden], extra=_w_grad_filled,
                              note=tr("A tensor hook sees the gradient of a non-leaf as it passes by."))


# -- exercise 4: write the engine's schedule ---------------------------------------------------------------

def _used_twice(torch):
    """y = h + h * h: the engine must wait for both of h's uses; breadth-first order reaches h's node
    before the product that still has to send it a gradient."""
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x.exp()
    hh = h * h
    y = h + hh
    return y.sum(), {"x": x, "h": h, "h * h": hh, "y": y}


def _with_a_constant(torch):
    w = torch.tensor([0.5, -1.], requires_grad=True)
    c = torch.tensor([2., 3.])
    wc = w * c
    t = wc.tanh()
    return (t * t).mean(), {"w": w, "w * c": wc, "t": t}


def _two_leaves(torch):
    a = torch.tensor([1., -0.5], requires_grad=True)
    b = torch.tensor([0.25, 2.], requires_grad=True)
    s = a * b
    e = s.exp()
    ea = e * a
    z = s + ea
    return z.sum(), {"a": a, "b": b, "s = a * b": s, "s.exp()": e, "s.exp() * a": ea, "z": z}


ORDER_CASES = [
    (tr("{loss} with {inner}", loss="loss = (h + h * h).sum()", inner="h = x.exp()"), _used_twice),
    (tr("{loss} with {inner}, c a constant", loss="loss = (t * t).mean()", inner="t = (w * c).tanh()"),
     _with_a_constant),
    (tr("{loss} with {inner}", loss="loss = (s + s.exp() * a).sum()", inner="s = a * b"), _two_leaves),
]


def _labeller(loss, tensors):
    """A function naming a node for messages: its class, and the tensor it made (or the leaf it feeds)."""
    made = {}
    for name, t in tensors.items():
        if t.grad_fn is not None:
            made[t.grad_fn] = name
    made.setdefault(loss.grad_fn, "loss")

    def label(node):
        name = type(node).__name__
        if name == "AccumulateGrad":
            for leaf, t in tensors.items():
                if getattr(node, "variable", None) is t:
                    return f"AccumulateGrad ({leaf})"
        return f"{name} ({made[node]})" if node in made else name
    return label


def _order_problem(order, loss, tensors, torch):
    """(what is off, why) about ``order`` as a schedule of ``loss``'s graph, or None when it is one."""
    counts = dependency_counts(loss)
    label = _labeller(loss, tensors)
    if not isinstance(order, (list, tuple)):
        return (tr("it returned {kind}, not a list", kind=kind(order)),
                tr("Collect the nodes in a list, in the order they would run, and return it."))
    if any(isinstance(n, str) for n in order):
        return (tr("the list holds strings"),
                tr("Return the nodes themselves (the grad_fn objects and AccumulateGrad nodes), not their names: "
                   "a graph can have two nodes of one name, such as two MulBackward0."))
    if any(n is None for n in order):
        return (tr("the list holds None"),
                tr("A None edge leads nowhere (an input that needs no gradient): skip it, it is not a node."))
    if any(is_tensor(n) for n in order):
        return (tr("the list holds tensors"),
                tr("Return the graph's nodes: loss.grad_fn, then what you find along next_functions -- not "
                   "tensors."))
    strangers = [n for n in order if n not in counts]
    if strangers:
        return (tr("{kind} ({node!r}) is not a node of this loss's graph", kind=kind(strangers[0]), node=strangers[0]),
                tr("Start from loss.grad_fn and follow next_functions; every node you return must be reached that "
                   "way."))
    seen = {}
    for n in order:
        seen[n] = seen.get(n, 0) + 1
    twice = [n for n in seen if seen[n] > 1]
    if twice:
        return (tr("{node} appears {n} times", node=label(twice[0]), n=seen[twice[0]]),
                tr("The engine runs each node once, when all its gradients have arrived. Did you add a node each "
                   "time an edge reaches it? Count its edges down instead, and add it when the count reaches 0."))
    missing = [n for n in counts if n not in seen]
    if missing:
        if all(type(n).__name__ == "AccumulateGrad" for n in missing):
            return (tr("{node} is missing", node=label(missing[0])),
                    tr("AccumulateGrad nodes run too -- they are what puts the gradient into a leaf's .grad. "
                       "Include every node you reach, the leaves' nodes as well."))
        return (tr("{n} node(s) missing, e.g. {node}", n=len(missing), node=label(missing[0])),
                tr("Follow every edge of a node (all of next_functions, not only the first), and visit each node "
                   "that becomes ready."))
    if _valid(order[::-1]):
        return (tr("{node} comes first", node=label(order[0])),
                tr("That is the order reversed: backward starts at loss.grad_fn, where the gradient 1 enters, and "
                   "ends at the leaves' AccumulateGrad nodes."))
    position = {n: i for i, n in enumerate(order)}
    late = [(node, nxt) for node in order for nxt, _ in node.next_functions
            if nxt is not None and position[nxt] < position[node]]
    if late:
        node, nxt = late[0]
        return (tr("{node} comes before {sender}, which sends it a gradient", node=label(nxt), sender=label(node)),
                tr("A node is ready only when every node with an edge into it has run: a node used twice must "
                   "wait for both uses. Visiting in breadth-first or depth-first order is not enough -- count "
                   "each node's incoming edges (dependency_counts), count them down as gradients are sent, and "
                   "take a node only when its count reaches 0."))
    return None


def _valid(order):
    """True when every node comes after all the nodes with an edge into it."""
    position = {n: i for i, n in enumerate(order)}
    return all(position.get(nxt, -1) > position[node] for node in order for nxt, _ in node.next_functions
               if nxt is not None)


@always_a_verdict
def check_backward_order(backward_order):
    """Exercise 4: ``backward_order(loss)`` lists the nodes of loss's graph in an order the engine
    could run them -- any order in which each node comes once, after every node that sends it a gradient."""
    what = tr("a function body that returns the list of nodes in an order the engine could run them")
    if is_stub(backward_order):
        return not_answered(what)
    if not callable(backward_order):
        return wrong(tr("`{name}` should be a function ({what}); it is {kind}.", name="backward_order", what=what,
                        kind=kind(backward_order)))
    for index, (_, library) in enumerate(libraries()):
        function = on(library, backward_order)
        for label, make in ORDER_CASES:
            loss, tensors = make(library)
            order, error = guard.run(function, loss)
            if index == 0 and error is None and order is Ellipsis:
                return not_answered(what)
            if error is not None:
                found, why = raised(error, tr("Start from loss.grad_fn; node.next_functions is a tuple of "
                                              "(node, input_nr) pairs whose node may be None -- skip those."))
                if isinstance(error, AttributeError) and "NoneType" in str(error):
                    why = tr("A None edge (an input that needs no gradient) has no node behind it: skip it.")
            else:
                problem = _order_problem(order, loss, tensors, library)
                if problem is None:
                    continue
                found, why = problem
            if index > 0:
                return works_only_on_tensorlab(_where("backward_order", label), library, found)
            return wrong(f"{_where('backward_order', label)}: {found}.", why)
    return correct(tr("That is the engine's schedule: count the edges in, then run what is ready."))
