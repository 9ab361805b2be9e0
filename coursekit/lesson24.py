"""Exercise checks of course/24_function_transforms.ipynb (reference solutions: coursekit/solutions/lesson24.py).

    >>> _ = check_per_sample_grad_norms(solution.per_sample_grad_norms)
    Correct! One call of grad, mapped over the samples by vmap: the per-sample gradients
             that the gradient of a batch's loss averages away.
    >>> _ = check_pairwise_distances(solution.pairwise_distances)
    Correct! A function of one pair, batched twice by in_dims: no loop, no broadcasting by
             hand.
    >>> _ = check_vmap_shapes(solution.predictions)
    Correct! Inside vmap a function sees one sample; the batch dim comes back where out_dims
             puts it.
"""
import importlib
import types

from .check import Case, Question, check_function, check_predictions
from .compare import differences, is_tensor
from .language import tr
from .solutions import lesson24 as solution


# -- answers that name the transforms (``from torch.func import vmap``) ----------------------------
# coursekit.libs.on re-creates an answer for PyTorch by mapping the *modules* it names (torch.func.vmap
# works as it is); a transform imported by name is a function of one library. ``_portable`` maps those
# too: each becomes a stand-in that picks the library of the tensors or modules it is called with.

_TRANSFORMS = ("vmap", "grad", "grad_and_value", "jacrev", "jacfwd", "hessian")   # return functions
_DIRECT = ("vjp", "jvp", "functional_call", "stack_module_state")                  # return results


def _library_of(values):
    """tensorlab or torch: the library of the first tensor or Module found in ``values`` (pytrees)."""
    stack = list(values)
    while stack:
        v = stack.pop(0)
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif is_tensor(v) or hasattr(v, "named_parameters"):
            return importlib.import_module(type(v).__module__.split(".")[0])
    return importlib.import_module("tensorlab")


def _stand_in(name):
    if name in _DIRECT:
        def direct(*args, **kwargs):
            return getattr(_library_of(args).func, name)(*args, **kwargs)
        return direct

    def transform(*targs, **tkwargs):
        def transformed(*args, **kwargs):
            return getattr(_library_of(args).func, name)(*targs, **tkwargs)(*args, **kwargs)
        return transformed
    return transform


def _is_transform(value, name):
    for top in ("tensorlab", "torch"):
        try:
            if value is getattr(importlib.import_module(f"{top}.func"), name):
                return True
        except (ImportError, AttributeError):
            continue
    return False


def _portable(answer):
    """``answer`` with every transform it names through a global (``vmap``, ``grad``...) replaced by a
    stand-in that works on either library; anything else unchanged."""
    if not isinstance(answer, types.FunctionType):
        return answer
    names = dict(answer.__globals__)
    for key, value in answer.__globals__.items():
        for name in _TRANSFORMS + _DIRECT:
            if callable(value) and _is_transform(value, name):
                names[key] = _stand_in(name)
    copy = types.FunctionType(answer.__code__, names, answer.__name__, answer.__defaults__, answer.__closure__)
    copy.__kwdefaults__ = answer.__kwdefaults__
    return copy


def _func(torch):
    return importlib.import_module(torch.__name__ + ".func")


def _same(a, b):
    return is_tensor(a) and is_tensor(b) and tuple(a.shape) == tuple(b.shape) and not differences(a, b, grads=False)


# -- exercise 1: per-sample gradient norms ----------------------------------------------------------

def _model(torch, hidden=4):
    """A small MLP with the same weights on either library (their random generators differ)."""
    nn = torch.nn
    model = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(), nn.Linear(hidden, 1))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) / 3)
    return model


NORM_CASES = [
    Case(tr("a Linear(3, 4)-Tanh-Linear(4, 1) model, x of shape (5, 3), y of shape (5, 1)"),
         lambda torch: (_model(torch), torch.linspace(-2, 2, 15).reshape(5, 3), torch.linspace(0, 1, 5).reshape(5, 1))),
    Case(tr("the same model with 6 hidden units, x of shape (2, 3), y of shape (2, 1)"),
         lambda torch: (_model(torch, 6), torch.tensor([[0.5, -1., 2.], [1., 1., -0.5]]), torch.tensor([[1.], [-1.]]))),
]


def _loop_grads(model, x, y, torch):
    """Each sample's gradient by a Python loop of backward passes: (N, number of parameters)."""
    rows = []
    for i in range(x.shape[0]):
        model.zero_grad()
        torch.nn.functional.mse_loss(model(x[i:i + 1]), y[i:i + 1]).backward()
        rows.append(torch.cat([p.grad.flatten() for p in model.parameters()]))
    model.zero_grad()
    return torch.stack(rows)


def _diagnose_norms(got, expected, args, torch):
    if isinstance(got, Exception):
        text = str(got)
        if "same size in the mapped dimension" in text or "in_dim" in text:
            return tr("Every sample shares the parameters: map over x and y (in_dims 0) but not over the "
                      "parameters (in_dims None).")
        if "scalar" in text:
            return tr("grad needs a function returning one number: the loss of one sample, reduced to a scalar "
                      "(mse_loss does that).")
        return None
    if not is_tensor(got):
        return None
    model, x, y = args
    rows = _loop_grads(model, x, y, torch)
    if got.dim() == 0 or tuple(got.shape) != tuple(expected.shape):
        return tr("That is one number for the whole batch: the gradient of the batch's loss mixes the samples. "
                  "Write the loss of ONE sample and let vmap map it over the batch: one norm per sample.")
    if _same(got, expected ** 2):
        return tr("Those are squared norms: take the square root of the sum of squares.")
    n_params = [p.numel() for p in model.parameters()]
    pieces = rows.split(n_params, dim=1)
    if _same(got, sum(piece.norm(dim=1) for piece in pieces)):
        return tr("That adds up one norm per parameter tensor; the norm of the whole gradient is the square root "
                  "of the sum of ALL squares (square the per-parameter norms, add, then take the root).")
    if _same(got, pieces[0].norm(dim=1)):
        return tr("Only the first parameter's gradient counts there: the norm covers every parameter of the "
                  "model.")
    return None


def check_per_sample_grad_norms(per_sample_grad_norms):
    """Exercise 1: ``per_sample_grad_norms(model, x, y)`` -- one gradient norm per sample, by vmap and grad."""
    return check_function(_portable(per_sample_grad_norms), solution.per_sample_grad_norms, NORM_CASES,
                          name="per_sample_grad_norms",
                          what=tr("a function body that returns one gradient norm per sample, with vmap, grad and "
                                  "functional_call"),
                          grads=False, diagnoses=[_diagnose_norms],
                          note=tr("One call of grad, mapped over the samples by vmap: the per-sample gradients that "
                                  "the gradient of a batch's loss averages away."))


# -- exercise 2: pairwise distances with in_dims ----------------------------------------------------

DISTANCE_CASES = [
    Case(tr("a of shape {a}, b of shape {b}", a=(2, 3), b=(4, 3)),
         lambda torch: (torch.tensor([[0., 0., 0.], [1., 2., 2.]]), torch.linspace(-1, 1, 12).reshape(4, 3))),
    Case(tr("a of shape {a}, b of shape {b}", a=(3, 2), b=(3, 2)),
         lambda torch: (torch.tensor([[3., 4.], [0., 1.], [-1., 0.]]), torch.tensor([[0., 0.], [1., 1.], [2., -2.]]))),
]


def _diagnose_distances(got, expected, args, torch):
    if isinstance(got, Exception):
        if "same size in the mapped dimension" in str(got):
            return tr("One vmap over both a and b pairs a[i] with b[i] only. For every pair, nest two vmaps: each "
                      "maps one argument, with in_dims None for the other.")
        return None
    if not is_tensor(got):
        return None
    if tuple(got.shape) == tuple(expected.shape)[::-1] and _same(got, expected.t()):
        return tr("That is the transpose: rows should follow a -- the OUTER vmap maps a (in_dims (0, None)), the "
                  "inner one maps b.")
    if _same(got, expected ** 2):
        return tr("Those are squared distances: take the square root of the sum of squares.")
    if got.dim() == 1 and expected.shape[0] == expected.shape[1] and _same(got, expected.diagonal()):
        return tr("Only the pairs (a[i], b[i]): one vmap over both. For every pair, nest two vmaps, each mapping "
                  "one argument (in_dims None for the other).")
    return None


def check_pairwise_distances(pairwise_distances):
    """Exercise 2: ``pairwise_distances(a, b)``, the (N, M) matrix of Euclidean distances, by nested vmaps."""
    return check_function(_portable(pairwise_distances), solution.pairwise_distances, DISTANCE_CASES,
                          name="pairwise_distances",
                          what=tr("a function body that returns the (N, M) distances, from a function of one pair "
                                  "and two vmaps"),
                          grads=False, diagnoses=[_diagnose_distances],
                          note=tr("A function of one pair, batched twice by in_dims: no loop, no broadcasting by "
                                  "hand."))


# -- exercise 3: predictions -----------------------------------------------------------------------

def _dot_columns(torch):
    return tuple(_func(torch).vmap(torch.dot, in_dims=(1, None))(torch.ones(2, 3), torch.ones(2)).shape)


def _out_dims(torch):
    return tuple(_func(torch).vmap(lambda x: x.sum(0), out_dims=1)(torch.ones(4, 2, 3)).shape)


def _jacrev_shape(torch):
    return tuple(_func(torch).jacrev(lambda x: x.sum(1))(torch.ones(2, 3)).shape)


def _seen_shape(torch):
    seen = []
    _func(torch).vmap(lambda x: seen.append(tuple(x.shape)) or x)(torch.ones(5, 3))
    return seen[0]


def _why_dot(got, truth):
    if got == (2,):
        return tr("in_dims=1 maps over dim 1 of the first argument: one dot product per column, not per row.")
    return tr("Each sample is one column of the first argument (in_dims=1), dotted with the whole second one.")


def _why_out_dims(got, truth):
    if got == (4, 3):
        return tr("That is where out_dims=0 would put the batch; out_dims=1 puts it in dim 1 of each result.")
    return tr("Each sample gives x.sum(0) of one (2, 3) sample; out_dims says where the batch dim goes.")


def _why_jacrev(got, truth):
    if got == (2, 3):
        return tr("That is the input's shape alone; a Jacobian has the output's shape followed by the input's.")
    return tr("A Jacobian has the output's shape followed by the input's (lesson 10).")


VMAP_QUESTIONS = [
    Question("vmap(torch.dot, in_dims=(1, None))(torch.ones(2, 3), torch.ones(2)).shape", _dot_columns, _why_dot),
    Question("vmap(lambda x: x.sum(0), out_dims=1)(torch.ones(4, 2, 3)).shape", _out_dims, _why_out_dims),
    Question("jacrev(lambda x: x.sum(1))(torch.ones(2, 3)).shape", _jacrev_shape, _why_jacrev),
    Question(tr("x.shape inside f, in vmap(f)(torch.ones(5, 3))"), _seen_shape,
             tr("Inside vmap, f sees one sample: the shape without the mapped dim.")),
]


def check_vmap_shapes(answer):
    """Exercise 3: a tuple of the 4 predictions of the table."""
    return check_predictions(answer, VMAP_QUESTIONS,
                             what=tr("a tuple of 4 predictions, e.g. ((1,), (1, 1), (1,), (1, 1))"),
                             note=tr("Inside vmap a function sees one sample; the batch dim comes back where out_dims "
                                     "puts it."))


__all__ = ["check_pairwise_distances", "check_per_sample_grad_norms", "check_vmap_shapes"]
