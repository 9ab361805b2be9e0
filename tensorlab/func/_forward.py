"""jvp, jacfwd, hessian: forward-mode autodiff as functions that return functions (torch.func's).

``jvp(f, primals, tangents)`` runs ``f`` once on dual tensors (tensorlab/autograd/forward_ad.py) and
returns ``(f(*primals), J t)``: the output and how it moves when the inputs move along ``tangents``.
``jacfwd(f)`` builds the whole Jacobian from one jvp per input element (the tangent a basis vector:
column ``k`` of J is ``J e_k``) -- cheaper than ``jacrev`` when inputs are fewer than outputs.
``hessian(f)`` is ``jacfwd(jacrev(f))``: forward mode over the reverse-mode gradient.

Each jvp opens its own dual level, inside any that is already open, so the transforms compose:
``jacfwd(jacfwd(f))`` is a second derivative too. See course/24_function_transforms.
"""
import functools

from ..autograd import forward_ad as fwAD
from ..tensor import Tensor
from ._pytree import tree_flatten, tree_unflatten

_JVP = "jvp(f, primals, tangents)"


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J tangents)`` -- or ``(output, jvp_out, aux)`` with ``has_aux``. ``primals``
    is a tuple of arguments (pytrees of tensors); ``tangents`` has the same structure and shapes."""
    return _jvp(func, primals, tangents, None, strict, has_aux)


def _jvp(func, primals, tangents, argnums, strict, has_aux):
    """``jvp`` differentiating only ``primals[argnums]`` (all of them for None); ``tangents`` then has
    the structure of those alone. Errors read as jvp's, also when jacfwd calls this."""
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call "
                           "f(*primals).")
    picked = primals if argnums is None else _pick(primals, argnums)
    flat_primals, primals_spec = tree_flatten(picked)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(f"{_JVP}: Expected primals and tangents to have the same python structure. For "
                           "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
                           f"with structure {primals_spec} and tangents with structure {tangents_spec}")
    _check_tensors(flat_primals, "primals")
    _check_tensors(flat_tangents, "tangents")
    level = fwAD._enter_level()
    try:
        duals = tree_unflatten([fwAD.make_dual(p, t, level=level) for p, t in zip(flat_primals, flat_tangents)],
                               primals_spec)
        args = duals if argnums is None else _put_back(primals, duals, argnums)
        out = func(*args)
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError(f"{_JVP}: output of function f should be a tuple: (output, aux) if has_aux "
                                   "is True")
            out, aux = out
        flat_out, out_spec = tree_flatten(out)
        _check_outputs(flat_out)
        pairs = [_unpack(o, level, strict) for o in flat_out]
    finally:
        fwAD.exit_dual_level(level=level)
    primals_out = tree_unflatten([p for p, _ in pairs], out_spec)
    tangents_out = tree_unflatten([t for _, t in pairs], out_spec)
    return (primals_out, tangents_out, aux) if has_aux else (primals_out, tangents_out)


def _pick(primals, argnums):
    return primals[argnums] if isinstance(argnums, int) else tuple(primals[n] for n in argnums)


def _put_back(primals, duals, argnums):
    args = list(primals)
    for n, d in zip((argnums,) if isinstance(argnums, int) else argnums,
                    (duals,) if isinstance(argnums, int) else duals):
        args[n] = d
    return tuple(args)


def _check_tensors(flat, what):
    if not flat:
        raise RuntimeError(f"{_JVP}: Expected {what} to contain at least one Tensor.")
    for x in flat:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"{_JVP}: Expected {what} to only contain Tensors, got {type(x)}")


def _check_outputs(flat_out):
    if (len(flat_out) == 1 and flat_out[0] is None) or not flat_out:
        raise RuntimeError(f"{_JVP}: Expected f to be a function that has non-empty output (got output = "
                           f"{flat_out})")
    for o in flat_out:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{_JVP}: expected f(*primals) to return only tensors, got unsupported type "
                               f"{type(o)}")


def _unpack(out, level, strict):
    """(primal, tangent) of one output; an output that does not depend on the inputs has tangent zero."""
    primal, tangent = fwAD.unpack_dual(out, level=level)
    if tangent is None:
        if strict:
            raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of the "
                               "inputs. This is not allowed with strict=True.")
        from ..ops.creation import zeros_like
        tangent = zeros_like(primal)
    return primal, tangent


# -- jacfwd and hessian ------------------------------------------------------------------------------
def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode: ``jacfwd(f)(x)[i, j]`` is d out_i / d x_j, of shape
    ``out.shape + x.shape``, one jvp per element of ``x``. Tuple ``argnums`` gives a tuple per output;
    pytree outputs a pytree of Jacobians. (PyTorch runs the jvps under vmap -- ``randomness`` is its
    vmap setting; here they run one after another, so random ops draw anew in each.)"""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
                           f"{randomness}")

    @functools.wraps(func)
    def wrapper(*args):
        from ._eager import _check_argnums
        _check_argnums(argnums, len(args))
        picked = _pick(args, argnums)
        flat_primals, primals_spec = tree_flatten(picked)
        columns, aux, out_spec = None, None, None
        for i, x in enumerate(flat_primals):
            for k in range(x.numel()):
                basis = [_one_hot(p, k if j == i else None) for j, p in enumerate(flat_primals)]
                result = _jvp(func, args, tree_unflatten(basis, primals_spec), argnums, False, has_aux)
                flat_out, out_spec = tree_flatten(result[1])
                if columns is None:
                    columns = [[[] for _ in flat_primals] for _ in flat_out]
                    aux = result[2] if has_aux else None
                for o, t in enumerate(flat_out):
                    columns[o][i].append(t)
        if columns is None:     # no input element at all: one jvp tells the outputs' shapes
            result = _jvp(func, args, tree_unflatten([_one_hot(p, None) for p in flat_primals], primals_spec),
                          argnums, False, has_aux)
            flat_out, out_spec = tree_flatten(result[1])
            columns, aux = [[[] for _ in flat_primals] for _ in flat_out], result[2] if has_aux else None
        shapes = [o.shape for o in tree_flatten(result[0])[0]]
        jacobians = []
        for o, shape in enumerate(shapes):
            blocks = [_block(columns[o][i], shape, x) for i, x in enumerate(flat_primals)]
            jacobians.append(tree_unflatten(blocks, primals_spec))
        jac = tree_unflatten(jacobians, out_spec)
        return (jac, aux) if has_aux else jac
    return wrapper


def _one_hot(x, k):
    """A tangent shaped like ``x``: zeros, with a 1 at flat position ``k`` (None: all zeros)."""
    from ..ops.creation import zeros_like
    t = zeros_like(x)
    if k is not None:
        t.view(-1)[k] = 1
    return t


def _block(columns, out_shape, x):
    """d out / d x from its columns (one per element of x): shape ``out.shape + x.shape``. Laid out as
    PyTorch's (whose jvps are batched by vmap, the batch moved to the end): the columns one after
    another in memory, a view with the output's dims first."""
    import tensorlab
    out_shape, in_shape = tuple(out_shape), tuple(x.shape)
    if not columns:
        return tensorlab.zeros(out_shape + in_shape, dtype=x.dtype, device=x.device)
    stacked = tensorlab.stack(columns).reshape(in_shape + out_shape)
    n_in, n_out = len(in_shape), len(out_shape)
    return stacked.permute(*range(n_in, n_in + n_out), *range(n_in))


def hessian(func, argnums=0):
    """The matrix of second derivatives, forward over reverse: ``jacfwd(jacrev(func, argnums), argnums)``."""
    from ._eager import jacrev
    gradient = jacrev(func, argnums)

    def dual_gradient(*args):
        # the dual inputs require grad, so jacrev differentiates views of them that keep their tangents
        from ._eager import _depth
        numbers = (argnums,) if isinstance(argnums, int) else argnums
        outside = _depth[0] > 0 or any(isinstance(x, Tensor) and x.requires_grad for x in tree_flatten(args)[0])
        args = tuple(_requiring_grad(a) if n in numbers else a for n, a in enumerate(args))
        result = gradient(*args)
        if outside:   # something outside may differentiate the Hessian: keep its history
            return result
        from ..autograd._forward_fallback import _detach
        levels = [lvl.idx for lvl in fwAD._levels]
        flat, spec = tree_flatten(result)
        return tree_unflatten([_detach(g, levels) for g in flat], spec)

    return jacfwd(dual_gradient, argnums)


def _requiring_grad(tree):
    flat, spec = tree_flatten(tree)
    return tree_unflatten([x.requires_grad_(True) if isinstance(x, Tensor) and not x.requires_grad else x
                           for x in flat], spec)


__all__ = ["jvp", "jacfwd", "hessian"]
