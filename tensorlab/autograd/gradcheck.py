"""gradcheck: compare analytical gradients (backward) with numerical ones (finite differences).

For each input element ``x_k``, the numerical derivative of every output is the central difference
``(f(x + eps e_k) - f(x - eps e_k)) / (2 eps)``: one column of the Jacobian per input element. Backward,
run once per output element with a one-hot gradient, gives the analytical Jacobian one row at a time.
Both are laid out as PyTorch prints them: ``(input numel, output numel)``. They must agree within
``atol + rtol * |numerical|``; use float64 inputs, or rounding alone will break that.

``fast_mode`` compares a single number instead: ``v^T J u`` for random ``u`` and ``v`` (one directional
derivative, one backward) -- and recomputes the full matrices only to report a failure.
See course/09_custom_functions.
"""
import warnings

import numpy as np

from .. import tensor as _t


class GradcheckError(RuntimeError):
    """Raised by gradcheck/gradgradcheck when the check fails (and raise_exception is True)."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _host(t):
    """A float64 NumPy copy of a tensor's values (from any device)."""
    return np.array(t.detach().cpu().numpy(), dtype=np.float64)  # a copy: t may alias an input


def _float_outputs(fn, inputs):
    return [o for o in _as_tuple(fn(*inputs)) if isinstance(o, _t.Tensor) and o.dtype.is_floating_point]


def _wrt(inputs):
    return [i for i, x in enumerate(inputs) if isinstance(x, _t.Tensor) and x.requires_grad]


# -- the two Jacobians ---------------------------------------------------------------------------------
def get_numerical_jacobian(fn, inputs, eps=1e-6):
    """{(input index, output index): (input numel, output numel) array} by central differences.

    Each input element is perturbed in the input's own memory (no autograd involved) and restored."""
    blocks = {}
    for i in _wrt(inputs):
        x = inputs[i]
        for k, pos in enumerate(np.ndindex(*x.shape)):
            original = x._array[pos].item()
            x._array[pos] = original + eps
            plus = [_host(o) for o in _float_outputs(fn, inputs)]
            x._array[pos] = original - eps
            minus = [_host(o) for o in _float_outputs(fn, inputs)]
            x._array[pos] = original
            for j, (p, m) in enumerate(zip(plus, minus)):
                block = blocks.setdefault((i, j), np.zeros((x.numel(), p.size)))
                block[k] = ((p - m) / (2 * eps)).reshape(-1)
    return blocks


def get_analytical_jacobian(fn, inputs):
    """{(input index, output index): (input numel, output numel) array}, one backward per output element."""
    wrt = _wrt(inputs)
    outputs = _float_outputs(fn, inputs)
    blocks = {(i, j): np.zeros((inputs[i].numel(), out.numel())) for i in wrt for j, out in enumerate(outputs)}
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for k in range(out.numel()):
            for i, g in zip(wrt, _vjp(out, [inputs[i] for i in wrt], _one_hot(out, k))):
                if g is not None:
                    blocks[(i, j)][:, k] = _host(g).reshape(-1)
    return blocks


def _one_hot(out, k):
    """A gradient for ``out`` that is 1 at (row-major) element ``k`` and 0 elsewhere."""
    from ..ops.creation import tensor
    values = np.zeros(out.numel())
    values[k] = 1
    return tensor(values.reshape(out.shape), dtype=out.dtype, device=out.device)


def _vjp(out, inputs, grad_output):
    from . import grad
    return grad(out, inputs, grad_output, retain_graph=True, allow_unused=True)


# -- gradcheck -------------------------------------------------------------------------------------------
def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True if backward matches finite differences for every input that requires grad.

    On a mismatch it raises GradcheckError ("Jacobian mismatch for output 0 with respect to input 0")
    with both matrices, or returns False when ``raise_exception=False``."""
    inputs = _as_tuple(inputs)
    func, inputs = _as_real_problem(func, inputs)
    _check_inputs(inputs)
    try:
        if fast_mode:
            _fast_check(func, inputs, eps, atol, rtol)
        else:
            _slow_check(func, inputs, eps, atol, rtol)
        _check_reentrant(func, inputs, nondet_tol)
        _check_zero_grad_output(func, inputs)
        if check_undefined_grad:
            _check_undefined_grad(func, inputs)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def _as_real_problem(func, inputs):
    """A complex number is two real ones: check ``func`` with each complex input given as its
    ``view_as_real`` pairs and each complex output read the same way, so both the real and the
    imaginary parts are perturbed and compared (as PyTorch's gradcheck does). Real problems pass as they are.
    The gradients this checks are PyTorch's convention for complex numbers (tensorlab/ops/complex.py)."""
    complex_at = [i for i, x in enumerate(inputs) if isinstance(x, _t.Tensor) and x.dtype.is_complex]
    with_complex_output = any(isinstance(o, _t.Tensor) and o.dtype.is_complex for o in _as_tuple(func(*inputs)))
    if not complex_at and not with_complex_output:
        return func, inputs
    from ..ops.complex import view_as_complex, view_as_real
    real_inputs = tuple(view_as_real(x.detach()).clone().requires_grad_(x.requires_grad) if i in complex_at else x
                        for i, x in enumerate(inputs))

    def real_func(*args):
        args = [view_as_complex(a) if i in complex_at else a for i, a in enumerate(args)]
        return tuple(view_as_real(o) if isinstance(o, _t.Tensor) and o.dtype.is_complex else o
                     for o in _as_tuple(func(*args)))
    return real_func, real_inputs


def _check_inputs(inputs):
    wrt = _wrt(inputs)
    if not wrt:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them "
                         "have requires_grad=True.")
    for i in wrt:
        x = inputs[i]
        if x.dtype.name != "float64":
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or "
                          "complex. This check will likely fail if all the inputs are not of double precision "
                          "floating point or complex. ", UserWarning, stacklevel=3)
        if any(s == 0 and n > 1 for s, n in zip(x.stride(), x.shape)):
            raise RuntimeError(f"The {i}th input has a dimension with stride 0. gradcheck only supports inputs "
                               "that are non-overlapping to be able to compute the numerical gradients "
                               "correctly. You should call .contiguous on the input before passing it to "
                               "gradcheck.")


def _slow_check(func, inputs, eps, atol, rtol):
    numerical = get_numerical_jacobian(func, inputs, eps)
    analytical = get_analytical_jacobian(func, inputs)
    for (i, j), num in sorted(numerical.items()):
        ana = analytical.get((i, j), np.zeros_like(num))
        if not np.allclose(ana, num, rtol=rtol, atol=atol):
            raise GradcheckError(f"Jacobian mismatch for output {j} with respect to input {i},\n"
                                 f"numerical:{_show(num)}\nanalytical:{_show(ana)}\n")


def _show(matrix):
    from ..ops.creation import tensor
    return repr(tensor(matrix))


def _fast_check(func, inputs, eps, atol, rtol):
    """Compare ``v^T J u`` both ways, for each (input, output) pair: one number each."""
    rng = np.random.default_rng(0)
    outputs = _float_outputs(func, inputs)
    for i in _wrt(inputs):
        x = inputs[i]
        u = rng.standard_normal(x.shape)
        original = x._array.copy()
        x._array[...] = original + eps * u
        plus = [_host(o) for o in _float_outputs(func, inputs)]
        x._array[...] = original - eps * u
        minus = [_host(o) for o in _float_outputs(func, inputs)]
        x._array[...] = original
        for j, out in enumerate(outputs):
            v = rng.standard_normal(out.shape)
            numerical = float(np.sum((plus[j] - minus[j]) / (2 * eps) * v))
            analytical = 0.0
            if out.requires_grad:
                from ..ops.creation import tensor
                g = _vjp(out, [x], tensor(v, dtype=out.dtype, device=out.device))[0]
                analytical = float(np.sum(_host(g) * u)) if g is not None else 0.0
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                num = get_numerical_jacobian(func, inputs, eps)[(i, j)]
                ana = get_analytical_jacobian(func, inputs)[(i, j)]
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\nnumerical:{numerical}\n"
                    f"analytical:{analytical}\n\nThe above quantities relating the numerical and analytical "
                    "jacobians are computed \nin fast mode. Below, we recompute numerical and analytical "
                    f"jacobians in slow mode:\n\nNumerical:\n {_show(num)}\nAnalytical:\n{_show(ana)}\n\n"
                    f"The max per-element difference (slow mode) is: {np.max(np.abs(num - ana))}.\n")


def _check_reentrant(func, inputs, nondet_tol):
    """Backward twice with the same gradient must give the same result (up to ``nondet_tol``)."""
    wrt = [inputs[i] for i in _wrt(inputs)]
    for out in _float_outputs(func, inputs):
        if not out.requires_grad or out.numel() == 0:
            continue
        first = _vjp(out, wrt, _one_hot(out, 0))
        second = _vjp(out, wrt, _one_hot(out, 0))
        for a, b in zip(first, second):
            if a is not None and b is not None and np.max(np.abs(_host(a) - _host(b)), initial=0) > nondet_tol:
                raise GradcheckError(
                    "Backward is not reentrant, i.e., running backward with same input and grad_output "
                    "multiple times gives different values, although analytical gradient matches numerical "
                    f"gradient.The tolerance for nondeterminism was {nondet_tol}.")
        return


def _check_zero_grad_output(func, inputs):
    """Backward is linear in the gradient it receives: zeros in must give zeros out."""
    from ..ops.creation import zeros_like
    wrt = [inputs[i] for i in _wrt(inputs)]
    outputs = [o for o in _float_outputs(func, inputs) if o.requires_grad]
    if not outputs:
        return
    from . import grad
    grads = grad(outputs, wrt, [zeros_like(o) for o in outputs], allow_unused=True)
    for g, x in zip(grads, wrt):
        if g is None:
            continue
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")
        if np.any(_host(g) != 0):
            raise GradcheckError("backward not multiplied by grad_output")


def _check_undefined_grad(func, inputs):
    """Backward must cope with outputs that received no gradient at all (None, not zeros)."""
    from .engine import run_backward
    wrt = [inputs[i] for i in _wrt(inputs)]
    outputs = [o for o in _float_outputs(func, inputs) if o.requires_grad]
    if not outputs:
        return
    try:
        grads = run_backward(outputs, [None] * len(outputs), retain_graph=True, inputs=wrt, accumulate=False)
    except Exception as error:
        raise GradcheckError('Expected backward function to handle undefined output grads. Please look at '
                             '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
                             ) from error
    for g in grads:
        if g is not None and np.any(_host(g) != 0):
            raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are "
                                 "undefined or zero.")


# -- gradgradcheck -----------------------------------------------------------------------------------------
def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """gradcheck of the gradient itself: checks that backward is differentiable (``create_graph=True``).

    The function checked maps (inputs, grad_outputs) to the gradients of ``func``'s outputs w.r.t. its
    inputs; random ``grad_outputs`` (requiring grad) are made when none are given."""
    from . import grad as autograd_grad
    from ..ops.creation import tensor
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(tensor(rng.standard_normal(o.shape), dtype=o.dtype, device=o.device,
                                    requires_grad=True)
                             for o in _float_outputs(func, inputs) if o.requires_grad)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)

    def first_derivatives(*args):
        ins, gos = args[:n], args[n:]
        outs = [o for o in _float_outputs(func, ins) if o.requires_grad]
        wrt = [x for x in ins if isinstance(x, _t.Tensor) and x.requires_grad]
        grads = autograd_grad(outs, wrt, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, fast_mode=fast_mode)
