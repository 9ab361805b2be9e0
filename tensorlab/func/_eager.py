"""grad, grad_and_value, vjp, jacrev: reverse-mode autodiff as *functions that return functions*.

``grad(f)`` is a new function that computes the gradient of ``f`` -- a value you can call, pass to ``vmap``,
or differentiate again (``grad(grad(f))``). Each call runs ``f`` on fresh copies of the inputs that
autograd watches (so the function's graph is its own: ``.grad`` of the inputs is never touched, and the
inputs need not require grad), then asks ``autograd.grad`` for the gradient. Inside ``vmap`` the fresh
inputs carry every batch level, so the one backward pass gives one gradient per sample.

The gradient keeps a history (``create_graph``) only when something outside could differentiate it: an
enclosing ``grad``/``vjp``, or inputs that require grad. See course/24_function_transforms.
"""
import functools

from .. import autograd
from ..autograd import grad_mode
from ..tensor import Tensor
from . import _batched
from ._pytree import tree_flatten, tree_unflatten

_depth = [0]    # how many grad/vjp transforms are running now (an inner one must keep its graph)


# -- argnums and inputs ------------------------------------------------------------------------------------------
def _check_argnums(argnums, n_args):
    if isinstance(argnums, int) and not isinstance(argnums, bool):
        numbers = (argnums,)
    elif isinstance(argnums, tuple) and all(isinstance(a, int) and not isinstance(a, bool) for a in argnums):
        numbers = argnums
        if not numbers:
            raise RuntimeError("argnums must be non-empty")
        if len(set(numbers)) != len(numbers):
            raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    else:
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    for a in numbers:
        if not -n_args <= a < n_args:
            raise RuntimeError(f"Got argnum={a}, but only {n_args} positional inputs")
    return tuple(a % n_args for a in numbers)


def _fresh(x):
    """A new tensor autograd can differentiate with respect to, equal to ``x``, batched at every vmap
    level now running (a tensor not mapped over at a level is repeated along it, as a view: each sample
    then has its own gradient). Connected to ``x``'s history if ``x`` requires grad."""
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    from ._vmap import active
    levels, value = _lift_bottom(x, [(layer.level, layer.batch_size) for layer in active])
    value = value.view_as(value) if value.requires_grad else value.detach().requires_grad_(True)
    return _wrap_levels(value, levels)


def _lift_bottom(x, wanted):
    """(levels, bottom tensor) of ``x`` batched at every ``(level, batch size)`` in ``wanted`` too: a
    missing level's batch dim is inserted where it belongs (the bottom's batch dims go outermost first)."""
    levels = sorted(_batched.levels_of(x))
    value = _batched.bottom(x)
    for level, size in wanted:
        if level in levels:
            continue
        pos = sum(1 for lv in levels if lv < level)
        value = value.unsqueeze(pos)
        value = value.expand(*value.shape[:pos], size, *value.shape[pos + 1:])
        levels = sorted(levels + [level])
    return levels, value


def _wrap_levels(value, levels):
    for level in sorted(levels):  # the outermost level wraps the bottom tensor first
        value = _batched.wrap(value, level)
    return value


def _needs_graph(originals):
    return grad_mode.is_grad_enabled() and (_depth[0] > 0 or any(
        isinstance(x, Tensor) and x.requires_grad for x in originals))


# -- grad and grad_and_value -------------------------------------------------------------------------------------
def grad_and_value(func, argnums=0, has_aux=False):
    """``grad_and_value(f)(*args)`` is ``(gradient, f(*args))`` -- or ``((gradient, (f(*args), aux))`` with
    ``has_aux``. The gradient has the structure of ``args[argnums]`` (a tuple of them for tuple argnums)."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        numbers = _check_argnums(argnums, len(args))
        leaves, specs, new_args = _prepare(args, numbers)
        create_graph = _needs_graph([x for group in leaves for x in group])
        _depth[0] += 1
        try:
            with grad_mode.enable_grad():
                out = func(*new_args, **kwargs)
            out, aux = _split_aux(out, has_aux, "grad_and_value(f)(*args)")
            _check_scalar(out)
            fresh = [x for n in numbers for x in tree_flatten(new_args[n])[0]]
            grads = _backward([out], fresh, [None], create_graph)
        finally:
            _depth[0] -= 1
        grads = _group(grads, specs)
        grads = grads[0] if isinstance(argnums, int) else tuple(grads)
        if not create_graph:
            out, aux = out.detach(), _detach_tree(aux)
        return (grads, (out, aux)) if has_aux else (grads, out)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of a function with a scalar output, as a function: ``grad(f)(x)`` is df/dx.

    ``argnums`` picks the inputs to differentiate (an int, or a tuple: then a tuple of gradients);
    ``has_aux``: ``f`` returns ``(output, aux)`` and the result is ``(gradient, aux)``.
    """
    g = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = g(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


def _prepare(args, numbers):
    """Replace the differentiated arguments by fresh inputs: (their original leaves, specs, new args)."""
    new_args, leaves, specs = list(args), [], []
    for n in numbers:
        flat, spec = tree_flatten(args[n])
        leaves.append(flat)
        specs.append(spec)
        new_args[n] = tree_unflatten([_fresh(x) for x in flat], spec)
    return leaves, specs, new_args


def _split_aux(out, has_aux, where):
    if not has_aux:
        return out, None
    if not isinstance(out, tuple) or len(out) != 2:
        raise RuntimeError(f"{where}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return out


def _check_scalar(out):
    if not isinstance(out, Tensor):
        raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(out)}")
    if out.dim() != 0:
        raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                           f"with {out.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")


def _backward(outputs, inputs, cotangents, create_graph, retain_graph=None):
    """Gradients of ``outputs`` (weighted by ``cotangents``; None: ones) w.r.t. ``inputs``, on the tensors
    at the bottom of the vmap levels: every sample's gradient at once. Unused inputs get zeros."""
    from ..ops.creation import ones_like, zeros_like
    outs, grads_in = [], []
    for out, ct in zip(outputs, cotangents):
        bottom_out = _batched.bottom(out)
        if not bottom_out.requires_grad:
            continue
        ct = ones_like(bottom_out) if ct is None else _bottom_like(ct, out)
        outs.append(bottom_out)
        grads_in.append(ct)
    bottoms = [_batched.bottom(x) for x in inputs]
    if outs:
        found = autograd.grad(outs, bottoms, grads_in, retain_graph=retain_graph, create_graph=create_graph,
                              allow_unused=True)
    else:
        found = [None] * len(bottoms)
    result = []
    for x, b, g in zip(inputs, bottoms, found):
        g = zeros_like(b) if g is None else g
        result.append(_batched.rewrap_like(x, g if create_graph else g.detach()))
    return result


def _bottom_like(ct, out):
    """A cotangent as a tensor shaped like ``out``'s bottom: batched where ``out`` is (repeated along the
    levels ``ct`` is not batched at)."""
    from ._vmap import active
    extra = set(_batched.levels_of(ct)) - set(_batched.levels_of(out))
    if extra:
        raise RuntimeError("vjp: a cotangent batched by vmap for an output that is not batched there is not "
                           "supported by tensorlab's vjp: call vjp inside the vmap instead.")
    sizes = {layer.level: layer.batch_size for layer in active}
    return _lift_bottom(ct, [(lv, sizes[lv]) for lv in _batched.levels_of(out)])[1]


def _group(flat, specs):
    groups, start = [], 0
    for spec in specs:
        n = spec.num_leaves
        groups.append(tree_unflatten(flat[start:start + n], spec))
        start += n
    return groups


def _detach_tree(tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([x.detach() if isinstance(x, Tensor) else x for x in leaves], spec)


# -- vjp ----------------------------------------------------------------------------------------------------------
def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` is the vector-Jacobian product, one entry per
    primal -- the gradient of ``sum(cotangents * output)``. ``vjp_fn`` may be called many times."""
    run = _Run(func, primals, has_aux, "vjp(f, *primals)")

    def vjp_fn(cotangents, *, retain_graph=True, create_graph=None):
        ct_leaves, ct_spec = tree_flatten(cotangents)
        if ct_spec != run.out_spec:
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {ct_spec}, primal output: {run.out_spec}")
        for i, (ct, o) in enumerate(zip(ct_leaves, run.out_leaves)):
            if not isinstance(ct, Tensor) or ct.shape != o.shape:
                shape = ct.shape if isinstance(ct, Tensor) else type(ct)
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {shape} and output[{i}] "
                                   f"has a shape of {o.shape}.")
        if create_graph is None:
            create_graph = run.create_graph or _depth[0] > 0 or any(ct.requires_grad for ct in ct_leaves)
        return run.backward(run.out_leaves, ct_leaves, create_graph)

    out, aux = run.results()
    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


class _Run:
    """One call of ``func`` on fresh inputs, kept for the backward passes that follow (vjp, jacrev)."""

    def __init__(self, func, primals, has_aux, where):
        leaves, self.specs, new_args = _prepare(primals, range(len(primals)))
        self.create_graph = _needs_graph([x for group in leaves for x in group])
        _depth[0] += 1
        try:
            with grad_mode.enable_grad():
                out = func(*new_args)
        finally:
            _depth[0] -= 1
        self.out, self.aux = _split_aux(out, has_aux, where)
        self.out_leaves, self.out_spec = tree_flatten(self.out)
        for leaf in self.out_leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"{where}: Expected f to be a function that has non-empty output, and whose "
                                   f"outputs are all Tensors, got {type(leaf)}")
        self.fresh = [x for a in new_args for x in tree_flatten(a)[0]]

    def backward(self, outputs, cotangents, create_graph):
        """One entry per primal (its pytree of gradients)."""
        grads = _backward(outputs, self.fresh, cotangents, create_graph, retain_graph=True)
        return tuple(_group(grads, self.specs))

    def results(self):
        if self.create_graph:
            return self.out, self.aux
        return tree_unflatten([x.detach() for x in self.out_leaves], self.out_spec), _detach_tree(self.aux)


# -- jacrev --------------------------------------------------------------------------------------------------------
def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian by reverse mode: one vjp per output element, stacked. ``jacrev(f)(x)[i, j]`` is
    d out_i / d x_j, of shape ``out.shape + x.shape``; pytree outputs give a pytree of Jacobians, tuple
    ``argnums`` a tuple per output. (``chunk_size`` is accepted for PyTorch's signature; the rows are
    computed one backward pass each.)"""
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        numbers = _check_argnums(argnums, len(args))

        def restricted(*picked):
            full = list(args)
            for n, value in zip(numbers, picked):
                full[n] = value
            return func(*full, **kwargs)

        run = _Run(restricted, [args[n] for n in numbers], has_aux, "jacrev(f, ...)(*args)")
        jacobians = []
        for out in run.out_leaves:
            per_arg = _jacobian_of(run, out)
            jacobians.append(per_arg[0] if isinstance(argnums, int) else tuple(per_arg))
        jac = tree_unflatten(jacobians, run.out_spec)
        return (jac, run.results()[1]) if has_aux else jac
    return wrapper


def _jacobian_of(run, out):
    """The Jacobian of one output w.r.t. each primal: a vjp per element of ``out`` (a one-hot cotangent)."""
    import tensorlab
    n = out.numel()
    basis = tensorlab.eye(n, dtype=out.dtype, device=out.device)
    create_graph = run.create_graph or _depth[0] > 0
    rows = [_flat(run.backward([out], [basis[i].reshape(out.shape)], create_graph)) for i in range(n)]
    columns = []
    for j, x in enumerate(run.fresh):
        if rows:
            column = tensorlab.stack([r[j] for r in rows])
        else:
            column = tensorlab.zeros((0,) + tuple(x.shape), dtype=x.dtype, device=x.device)
        columns.append(column.reshape(tuple(out.shape) + tuple(x.shape)))
    return _group(columns, run.specs)


def _flat(grads_per_primal):
    return [g for tree in grads_per_primal for g in tree_flatten(tree)[0]]
