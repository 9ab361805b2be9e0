"""Exercise checks of course/10_higher_order_gradients.ipynb (reference solutions: coursekit/solutions/lesson10.py).

    >>> _ = check_second_derivative(solution.second_derivative)
    Correct! create_graph=True made the first derivative a function of x that autograd can
             differentiate again.
    >>> _ = check_jacobian_rows(solution.jacobian_rows)
    Correct! One backward pass per output element -- which is how
             torch.autograd.functional.jacobian builds it too.
    >>> _ = check_shapes_and_graphs(solution.predictions)
    Correct! A gradient is a tensor like any other: with create_graph=True, it has a graph
             of its own.
"""
from .check import Case, Question, check_function, check_predictions
from .compare import differences, is_tensor
from .language import tr
from .solutions import lesson10 as solution


def _same(a, b):
    return is_tensor(a) and is_tensor(b) and not differences(a, b, grads=False)


# -- exercise 1: the second derivative -----------------------------------------------------------

def _cube(torch):
    return lambda t: t ** 3


def _sin_times(torch):
    return lambda t: torch.sin(t) * t


def _exp2(torch):
    return lambda t: torch.exp(2 * t)


SECOND_CASES = [
    Case(tr("f(x) = x ** 3 at x = 3"), lambda torch: (_cube(torch), torch.tensor(3.0, requires_grad=True))),
    Case(tr("f(x) = sin(x) * x at x = 1"), lambda torch: (_sin_times(torch), torch.tensor(1.0, requires_grad=True))),
    Case(tr("f(x) = exp(2 x) at x = 0.5"), lambda torch: (_exp2(torch), torch.tensor(0.5, requires_grad=True))),
]


def _first_derivative(args, torch):
    f, x = args
    x = x.detach().requires_grad_()
    return torch.autograd.grad(f(x), x)[0]


def _diagnose_second(got, expected, args, torch):
    if isinstance(got, RuntimeError) and "does not require grad" in str(got):
        return tr("The first derivative came back as a plain tensor without history: compute it with "
                  "create_graph=True, so that autograd records the backward pass and can differentiate it again.")
    if isinstance(got, RuntimeError) and "second time" in str(got):
        return tr("The graph was freed after the first pass: create_graph=True (which also keeps the graph) on "
                  "the first derivative.")
    if isinstance(got, Exception):
        return None
    if not is_tensor(got):
        return tr("Return the tensor autograd gives you (not .item(), not the tuple autograd.grad returns).")
    first = _first_derivative(args, torch)
    if _same(got, first):
        return tr("That is f'(x), the first derivative: differentiate it once more.")
    if _same(got, first + expected):
        return tr("That is f'(x) + f''(x): x.grad accumulates, so a second backward() adds f'' to the f' the "
                  "first one left there. Use torch.autograd.grad, which returns gradients without touching .grad.")
    return None


def check_second_derivative(second_derivative):
    """Exercise 1: ``second_derivative(f, x)`` returns f''(x) as a 0-d tensor."""
    return check_function(second_derivative, solution.second_derivative, SECOND_CASES, name="second_derivative",
                          what=tr("a function body that returns f''(x), using torch.autograd.grad twice"),
                          grads=False, diagnoses=[_diagnose_second],
                          note=tr("create_graph=True made the first derivative a function of x that autograd "
                                  "can differentiate again."))


# -- exercise 2: a Jacobian, row by row -------------------------------------------------------------

def _matrix(torch):
    return torch.tensor([[1., 2., 3.], [-1., 0.5, 4.]])


JACOBIAN_CASES = [
    Case(tr("f(v) = A @ v, A of shape (2, 3), v = [1, 2, 3]"),
         lambda torch: ((lambda v, A=_matrix(torch): A @ v), torch.tensor([1., 2., 3.], requires_grad=True))),
    Case("f(v) = (A @ v).sin(), v = [0.1, -0.2, 0.3]",
         lambda torch: ((lambda v, A=_matrix(torch): (A @ v).sin()),
                        torch.tensor([0.1, -0.2, 0.3], requires_grad=True))),
]


def _diagnose_jacobian(got, expected, args, torch):
    if isinstance(got, RuntimeError) and "second time" in str(got):
        return tr("Every autograd.grad call frees the graph it went through, and the rows share one graph: pass "
                  "retain_graph=True to keep it for the next row.")
    if isinstance(got, RuntimeError) and "grad can be implicitly created only for scalar outputs" in str(got):
        return tr("Differentiate one output element at a time: y[i] is a scalar; y is not.")
    if isinstance(got, Exception) or not is_tensor(got):
        return None
    if tuple(got.shape) == tuple(expected.shape)[::-1] and _same(got, expected.t()):
        return tr("That is the transpose: row i of the Jacobian is the gradient of y[i], so stack the gradients "
                  "as rows (torch.stack(rows) stacks along a new dim 0).")
    if tuple(got.shape) == tuple(expected.shape[1:]) and _same(got, expected.sum(0)):
        return tr("That is the gradient of y.sum(): the sum of the Jacobian's rows. One backward pass per output "
                  "element gives one row each.")
    return None


def check_jacobian_rows(jacobian_rows):
    """Exercise 2: ``jacobian_rows(f, x)`` returns the (m, n) Jacobian of f: R^n -> R^m at x."""
    return check_function(jacobian_rows, solution.jacobian_rows, JACOBIAN_CASES, name="jacobian_rows",
                          what=tr("a function body that returns the Jacobian of f at x, one autograd.grad call per "
                                  "row"),
                          grads=False, diagnoses=[_diagnose_jacobian],
                          note=tr("One backward pass per output element -- which is how "
                                  "torch.autograd.functional.jacobian builds it too."))


# -- exercise 3: predictions -------------------------------------------------------------------------

def _requires(create_graph):
    def compute(torch):
        x = torch.tensor(2.0, requires_grad=True)
        dy, = torch.autograd.grad(x ** 3, x, create_graph=create_graph)
        return dy.requires_grad
    return compute


def _hessian_shape(torch):
    from importlib import import_module
    functional = import_module(torch.__name__ + ".autograd.functional")
    return functional.hessian(lambda v: (v ** 2).sum(), torch.zeros(3)).shape


def _jacobian_shape(torch):
    from importlib import import_module
    functional = import_module(torch.__name__ + ".autograd.functional")
    return functional.jacobian(lambda m: m.flatten()[:4], torch.zeros(2, 3)).shape


def _why_jacobian(got, truth):
    if got == (4, 6):
        return tr("The Jacobian keeps the input's shape: the output's shape followed by the input's, nothing "
                  "flattened.")
    return tr("The Jacobian has the output's shape followed by the input's: one block of the input's shape per "
              "output element.")


SHAPE_QUESTIONS = [
    Question("dy, = torch.autograd.grad(x ** 3, x) -> dy.requires_grad", _requires(False),
             tr("Without create_graph, backward runs in no-grad mode: the gradient is a plain tensor with no "
                "history, and cannot be differentiated again.")),
    Question("dy, = torch.autograd.grad(x ** 3, x, create_graph=True) -> dy.requires_grad", _requires(True),
             tr("create_graph=True records the backward pass's own operations: the gradient has a grad_fn.")),
    Question("hessian(lambda v: (v ** 2).sum(), torch.zeros(3)).shape", _hessian_shape,
             tr("The Hessian has one entry per pair (i, j) of input elements.")),
    Question("jacobian(lambda m: m.flatten()[:4], torch.zeros(2, 3)).shape", _jacobian_shape, _why_jacobian),
]


def check_shapes_and_graphs(answer):
    """Exercise 3: a tuple of the 4 predictions of the table."""
    return check_predictions(answer, SHAPE_QUESTIONS,
                             what=tr("a tuple of 4 predictions, e.g. (True, False, (3,), (2, 3))"),
                             note=tr("A gradient is a tensor like any other: with create_graph=True, it has a "
                                     "graph of its own."))


__all__ = ["check_jacobian_rows", "check_second_derivative", "check_shapes_and_graphs"]
