"""Reference solutions of course/07_the_backward_graph.ipynb's exercises (checks: coursekit/lesson07.py)."""
import tensorlab as torch  # noqa: F401 - the solutions are written as in the lesson

# Exercise 1: the class names in each result's grad_fn.next_functions (None for a None edge), or None
# when the result has no grad_fn at all.
next_functions = (
    ("AccumulateGrad", None),            # w * x
    ("MulBackward0", "AccumulateGrad"),  # w * x + b
    ("AccumulateGrad", "AccumulateGrad"),  # w * w: the same node, twice
    ("MulBackward0",),                   # (w * x).sum()
    (None, "AccumulateGrad"),            # x * 2 + b
    None,                                # w.detach() * 2
)

# Exercise 2: how many edges lead into each node (what the engine counts before it starts).
dependencies = (1, 1, 1, 3, 1, 2)


# Exercise 3: the gradient of the loss w.r.t. the non-leaf h, from the same backward that fills w.grad.
def hidden_gradient(x, w):
    h = x * w
    loss = (h.tanh() ** 2).sum()
    seen = []
    h.register_hook(seen.append)  # or: h.retain_grad() before backward, then return h.grad
    loss.backward()
    return seen[0]


# Exercise 4: the nodes in an order the engine could run them. Count the edges into every node, then
# take nodes that are ready (count 0) one by one, counting down the nodes they send gradients to.
def backward_order(loss):
    from coursekit.lesson07 import dependency_counts
    counts = dependency_counts(loss)    # the root's edge into loss.grad_fn counts one
    counts[loss.grad_fn] -= 1           # ... and the root sends its gradient first
    ready, order = [loss.grad_fn], []
    while ready:
        node = ready.pop()
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:             # an input that needs no gradient
                continue
            counts[nxt] -= 1
            if counts[nxt] == 0:        # every gradient it waits for has been sent
                ready.append(nxt)
    return order
