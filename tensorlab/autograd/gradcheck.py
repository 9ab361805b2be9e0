"""gradcheck: compare analytical gradients (backward) with numerical ones (finite differences).

For each input element x_i, the numerical derivative is ``(f(x + eps) - f(x - eps)) / (2 eps)``
(central differences, in float64). Backward, run once per output element, gives the analytical
Jacobian. They must agree within ``atol + rtol * |numerical|``.
See course/08_custom_functions.
"""
import numpy as np

from .. import tensor as _t


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _differentiable_outputs(fn, inputs):
    out = _as_tuple(fn(*inputs))
    return [o for o in out if isinstance(o, _t.Tensor) and o.requires_grad]


def numerical_jacobian(fn, inputs, eps=1e-6):
    """One Jacobian block per (input requiring grad, output): shape (input numel, output numel)."""
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, _t.Tensor) and x.requires_grad]
    outputs = [o for o in _as_tuple(fn(*inputs)) if isinstance(o, _t.Tensor)]
    blocks = {}
    for i in wrt:
        x = inputs[i]
        flat_positions = list(np.ndindex(*x.shape)) if x.dim() else [()]
        for k, pos in enumerate(flat_positions):
            # perturb the input's memory directly (no autograd involved), evaluate, restore
            orig = x._array[pos].item()
            x._array[pos] = orig + eps
            plus = [o.detach().numpy().copy() for o in _as_tuple(fn(*inputs)) if isinstance(o, _t.Tensor)]
            x._array[pos] = orig - eps
            minus = [o.detach().numpy().copy() for o in _as_tuple(fn(*inputs)) if isinstance(o, _t.Tensor)]
            x._array[pos] = orig
            for j, (p, m) in enumerate(zip(plus, minus)):
                block = blocks.setdefault((i, j), np.zeros((max(x.numel(), 1), max(outputs[j].numel(), 1))))
                block[k] = ((p.astype(np.float64) - m.astype(np.float64)) / (2 * eps)).reshape(-1)
    return blocks


def analytical_jacobian(fn, inputs):
    from . import grad as autograd_grad
    wrt = [i for i, x in enumerate(inputs) if isinstance(x, _t.Tensor) and x.requires_grad]
    outputs = [o for o in _as_tuple(fn(*inputs)) if isinstance(o, _t.Tensor)]
    blocks = {}
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            for i in wrt:
                blocks[(i, j)] = np.zeros((max(inputs[i].numel(), 1), max(out.numel(), 1)))
            continue
        for k in range(max(out.numel(), 1)):
            grad_out = np.zeros(out.shape, dtype=out.dtype.np)
            grad_out.reshape(-1)[k] = 1
            from ..ops.creation import tensor
            grads = autograd_grad(out, [inputs[i] for i in wrt], tensor(grad_out, dtype=out.dtype),
                                  retain_graph=True, allow_unused=True)
            for i, g in zip(wrt, grads):
                block = blocks.setdefault((i, j), np.zeros((max(inputs[i].numel(), 1), max(out.numel(), 1))))
                if g is not None:
                    block[:, k] = g.detach().numpy().astype(np.float64).reshape(-1)
    return blocks


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              fast_mode=False, masked=None):
    """True if backward matches finite differences for every input that requires grad."""
    inputs = _as_tuple(inputs)
    for x in inputs:
        if isinstance(x, _t.Tensor) and x.requires_grad and x.dtype.name != "float64":
            import warnings
            warnings.warn("Input #0 requires gradient and is not a double precision floating point. "
                          "This check will likely fail if all the inputs are not of double precision "
                          "floating point. ", UserWarning, stacklevel=2)
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
    for key, num in numerical.items():
        ana = analytical.get(key, np.zeros_like(num))
        if not np.allclose(ana, num, rtol=rtol, atol=atol):
            if raise_exception:
                raise GradcheckError(
                    f"Jacobian mismatch for output {key[1]} with respect to input {key[0]},\n"
                    f"numerical:{num}\nanalytical:{ana}\n")
            return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, **kwargs):
    """gradcheck of the gradient itself: checks that backward is differentiable (create_graph=True)."""
    from . import grad as autograd_grad
    from ..ops.creation import tensor
    inputs = _as_tuple(inputs)
    outputs = _differentiable_outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(tensor(rng.standard_normal(o.shape), dtype=o.dtype, requires_grad=True)
                             for o in outputs)
    grad_outputs = _as_tuple(grad_outputs)
    wrt = [x for x in inputs if isinstance(x, _t.Tensor) and x.requires_grad]

    def first_grads(*args):
        ins, gos = args[:len(inputs)], args[len(inputs):]
        outs = _differentiable_outputs(func, ins)
        grads = autograd_grad(outs, [x for x in ins if isinstance(x, _t.Tensor) and x.requires_grad], gos,
                              create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_grads, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
