"""Lesson 07's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike; the dependency counts the checks use
are the engine's own."""
import pytest

import tensorlab as torch
from coursekit import lesson07 as check
from coursekit.solutions import lesson07 as solution
from coursekit.testing import assert_rejected
from tensorlab.autograd import trace_backward


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_next_functions(solution.next_functions)
    assert check.check_dependencies(solution.dependencies)
    assert check.check_hidden_gradient(solution.hidden_gradient)
    assert check.check_backward_order(solution.backward_order)
    assert capsys.readouterr().out.count("Correct!") == 4


def test_dependency_counts_are_the_engines():
    x, h, y, loss = check._diamond_graph(torch)
    events = []
    with trace_backward(events.append):
        loss.backward()
    assert events[0]["dependencies"] == check.dependency_counts(loss)


def _retain(x, w):
    h = x * w
    loss = (h.tanh() ** 2).sum()
    h.retain_grad()
    loss.backward()
    return h.grad


def _reversed_postorder(loss):
    """Another correct schedule: depth-first, each node after everything it leads to, reversed."""
    done, seen = [], set()

    def visit(node):
        if node in seen:
            return
        seen.add(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                visit(nxt)
        done.append(node)
    visit(loss.grad_fn)
    return done[::-1]


def test_the_engines_own_order_is_a_schedule():
    """The order in which tensorlab's engine really runs the nodes is one the check accepts, and it
    runs the same nodes as the reference schedule."""
    loss, _ = check._two_leaves(torch)
    ran = []
    with trace_backward(lambda event: ran.append(event["node"]) if event["kind"] == "run" else None):
        loss.backward()
    assert set(ran) == set(solution.backward_order(loss))
    assert check._valid(ran)


def test_other_correct_answers_are_accepted(mode):
    answer = list(solution.next_functions)
    answer[3] = ["MulBackward0"]                       # lists for tuples are fine
    assert check.check_next_functions(tuple(answer))
    assert check.check_dependencies([1, 1, 1, 3, 1, 2])
    assert check.check_hidden_gradient(_retain)
    assert check.check_backward_order(_reversed_postorder)
    assert check.check_backward_order(lambda loss: tuple(solution.backward_order(loss)))


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_next_functions(...), check.check_dependencies(...),
                    check.check_dependencies((1, 1, ..., 3, 1, 2)),
                    check.check_hidden_gradient(lambda x, w: ...), check.check_hidden_gradient(...),
                    check.check_backward_order(lambda loss: ...), check.check_backward_order(...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    # "a constant still gets an edge", "one edge per distinct input"
    ((("AccumulateGrad", "AccumulateGrad"), ("MulBackward0", "AccumulateGrad"), ("AccumulateGrad",),
      ("MulBackward0",), (None, "AccumulateGrad"), None),
     ["2 of 6 predictions are off", "(1) w * x: not ('AccumulateGrad', 'AccumulateGrad')", "has nothing to send a gradient to",
      "(3) w * w", "even when both inputs are the same tensor"]),
    # "edges reach all the way to the leaves", "detach keeps the edge"
    ((("AccumulateGrad", None), ("MulBackward0", "AccumulateGrad"), ("AccumulateGrad", "AccumulateGrad"),
      ("AccumulateGrad", None), ("MulBackward0", "AccumulateGrad"), ("AccumulateGrad", None)),
     ["3 of 6 predictions are off", "lead only one step back", "Does x * 2 require grad?",
      "does w.detach() * 2 still have a grad_fn"]),
    ((None,) * 5, ["the answer should be a tuple of 6 answers"]),
])
def test_wrong_next_functions(mode, answer, phrases):
    verdict = check.check_next_functions(answer)
    assert_rejected(verdict, phrases)


@pytest.mark.parametrize("answer, phrases", [
    ((1, 1, 2, 2, 1, 1), ["3 of 6 predictions are off", "not the edges going out of it",
                          "is that the only place y's formula uses h?", "runs once, on their sum"]),
    ((1, 1, 1, 3, 3, 2), ["1 of 6 predictions is off", "(5) x's AccumulateGrad: not 3", "Count the uses of x itself"]),
    ((0, 1, 1, 3, 1, 2), ["(1) loss.grad_fn (SumBackward0): not 0", "the engine starts from a node of its own"]),
])
def test_wrong_dependency_counts(mode, answer, phrases):
    verdict = check.check_dependencies(answer)
    assert_rejected(verdict, phrases)


def _non_leaf_grad(x, w):
    h = x * w
    loss = (h.tanh() ** 2).sum()
    loss.backward()
    return h.grad


def _hook_too_late(x, w):
    h = x * w
    loss = (h.tanh() ** 2).sum()
    seen = []
    loss.backward()
    h.register_hook(seen.append)
    return seen[0]


def _leaf_grad(x, w):
    h = x * w
    loss = (h.tanh() ** 2).sum()
    loss.backward()
    return w.grad


def _autograd_grad(x, w):
    h = x * w
    loss = (h.tanh() ** 2).sum()
    return torch.autograd.grad(loss, h)[0]


@pytest.mark.parametrize("answer, phrases", [
    (_non_leaf_grad, ["it returned None", "h is not a leaf", "h.retain_grad()"]),
    (_hook_too_late, ["raised IndexError", "register it *before* loss.backward()"]),
    (_leaf_grad, ["0.363431 instead of 0.726862", "That is w.grad"]),
    (_autograd_grad, ["w.grad is still None", "not from autograd.grad"]),
])
def test_wrong_hidden_gradients(mode, answer, phrases):
    verdict = check.check_hidden_gradient(answer)
    assert_rejected(verdict, phrases)


def _breadth_first(loss):
    seen, order, queue = set(), [], [loss.grad_fn]
    while queue:
        node = queue.pop(0)
        if node not in seen:
            seen.add(node)
            order.append(node)
            queue += [nxt for nxt, _ in node.next_functions if nxt is not None]
    return order


def _once_per_edge(loss):
    order, queue = [], [loss.grad_fn]
    while queue:
        node = queue.pop(0)
        order.append(node)
        queue += [nxt for nxt, _ in node.next_functions if nxt is not None]
    return order


def _every_edge(loss):
    seen, order, queue = set(), [], [loss.grad_fn]
    while queue:
        node = queue.pop()
        if node not in seen:
            seen.add(node)
            order.append(node)
            queue += [nxt for nxt, _ in node.next_functions]   # None too
    return order


def _first_edges_only(loss):
    order, node = [], loss.grad_fn
    while node is not None:
        order.append(node)
        node = node.next_functions[0][0] if node.next_functions else None
    return order


@pytest.mark.parametrize("answer, phrases", [
    (_breadth_first, ["ExpBackward0 (h) comes before MulBackward0 (h * h), which sends it a gradient",
                      "breadth-first or depth-first order is not enough", "count reaches 0"]),
    (_once_per_edge, ["ExpBackward0 (h) appears 3 times", "runs each node once"]),
    (_every_edge, ["raised AttributeError", "A None edge"]),
    (lambda loss: [type(n).__name__ for n in solution.backward_order(loss)], ["the list holds strings", "two MulBackward0"]),
    (lambda loss: solution.backward_order(loss)[::-1], ["AccumulateGrad (x) comes first", "the order reversed"]),
    (lambda loss: [n for n in solution.backward_order(loss) if type(n).__name__ != "AccumulateGrad"],
     ["AccumulateGrad (x) is missing", "AccumulateGrad nodes run too"]),
    (_first_edges_only, ["1 node(s) missing, e.g. MulBackward0 (h * h)", "all of next_functions"]),
    (lambda loss: set(solution.backward_order(loss)), ["it returned a set, not a list"]),
    (lambda loss: [loss] + solution.backward_order(loss), ["the list holds tensors"]),
])
def test_wrong_backward_orders(mode, answer, phrases):
    verdict = check.check_backward_order(answer)
    assert_rejected(verdict, phrases)
