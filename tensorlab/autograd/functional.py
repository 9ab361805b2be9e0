"""Jacobians, Hessians and vector products -- all built from ``autograd.grad``.

Reverse mode gives one row of the Jacobian per backward pass: ``grad(y_i, x)`` is row ``i``. So

- ``vjp(f, x, v)``  is ``v^T J``: one backward pass with ``v`` as the output gradient;
- ``jacobian(f, x)`` stacks one ``vjp`` per output element;
- ``jvp(f, x, v)``  is ``J v``. Reverse mode cannot do that directly, but the *double-backward trick*
  can: ``g(u) = u^T J`` is linear in a dummy ``u``, so differentiating ``g(u)`` w.r.t. ``u`` in the
  direction ``v`` gives ``J v``;
- ``hessian(f, x)`` is the Jacobian of the gradient (built with ``create_graph=True``);
- ``vhp``/``hvp`` are ``v^T H`` and ``H v``: two backward passes, never the whole Hessian.

Inputs and outputs are a Tensor or a tuple of Tensors; results keep that structure. With
``strict=True`` an output that does not depend on an input is an error instead of zeros.
See course/10_higher_order_gradients.
"""
from . import grad_mode
from ..tensor import Tensor


# -- plumbing ----------------------------------------------------------------------------------------
def _as_tuple(value, what, fn_name):
    """(was it a tuple?, the tensors as a tuple). Anything but a Tensor or tuple of them is a TypeError."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {what}"
            raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                            f"but {where} has type {type(item)}.")
    return is_tuple, items


def _untuple(values, was_tuple):
    return values if was_tuple else values[0]


def _fresh_inputs(inputs, create_graph, need_graph):
    """Inputs to differentiate with respect to. Without ``create_graph`` they are cut off from any
    history they had; with it, an input that requires grad stays connected (through a view)."""
    fresh = []
    for x in inputs:
        if create_graph and x.requires_grad:
            fresh.append(x.view_as(x))
        else:
            fresh.append(x.detach().requires_grad_(need_graph))
    return tuple(fresh)


def _finish(tensors, create_graph):
    """Results are detached unless the caller wants to differentiate them again."""
    if create_graph:
        return tensors
    return tuple(t.detach() if isinstance(t, Tensor) else t for t in tensors)


def _check_v(v, like, like_is_tuple):
    if len(v) != len(like):
        if like_is_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, like)):
        if a.shape != b.shape:
            where = f"Entry {i} in " if like_is_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {b.shape} but got {a.shape}.")


def _check_outputs_require_grad(outputs, strict):
    if not strict:
        return
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The "
                               "outputs must be computed in a differentiable manner from the input when "
                               "running in strict mode.")


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` that ignores outputs which need no gradient (None for every input if none
    do) and gives None for inputs that were not used."""
    from . import grad
    grad_outputs = grad_outputs if grad_outputs is not None else (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return grad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=retain_graph,
                create_graph=create_graph, allow_unused=True)


_INDEPENDENT = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed "
            "in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode gradients. "
                  "This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not "
                   "allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using "
                         "the double backward trick to replace forward mode AD.",
}


def _zeros_where_missing(grads, like, strict, create_graph, stage):
    """None means "does not depend on it": zeros -- or, in strict mode, an error."""
    from ..ops.creation import zeros_like
    result = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i=i))
            g = zeros_like(like[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. "
                               "This is not allowed in strict mode when create_graph=True.")
        result.append(g)
    return tuple(result)


def _call(func, inputs, fn_name):
    outputs = func(*inputs)
    return _as_tuple(outputs, "outputs of the user-provided function", fn_name)


# -- vector products ---------------------------------------------------------------------------------
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the vector-Jacobian product, one backward pass."""
    with grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _fresh_inputs(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "vjp")
        _check_outputs_require_grad(outputs, strict)
        v = _vector_for_outputs(v, outputs, outputs_tuple, create_graph, "vjp")
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        result = _zeros_where_missing(grads, inputs, strict, create_graph, "back")
    return (_untuple(_finish(outputs, create_graph), outputs_tuple),
            _untuple(_finish(result, create_graph), inputs_tuple))


def _vector_for_outputs(v, outputs, outputs_tuple, create_graph, fn_name):
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single "
                               "Tensor with a single element.")
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _fresh_inputs(v, create_graph, need_graph=False)
    _check_v(v, outputs, outputs_tuple)
    return v


def _vector_for_inputs(v, inputs, inputs_tuple, fn_name):
    if v is None:
        if len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided function is a "
                               "single Tensor with a single element.")
        from ..ops.creation import ones_like
        return (ones_like(inputs[0]),)
    _, v = _as_tuple(v, "v", fn_name)
    _check_v(v, inputs, inputs_tuple)
    return v


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-backward trick."""
    from ..ops.creation import zeros_like
    with grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _fresh_inputs(inputs, create_graph, need_graph=True)
        v = _fresh_inputs(_vector_for_inputs(v, inputs, inputs_tuple, "jvp"), create_graph, False)
        outputs_tuple, outputs = _call(func, inputs, "jvp")
        _check_outputs_require_grad(outputs, strict)
        # u^T J, with a dummy u that requires grad: linear in u, so its derivative along v is J v
        dummies = tuple(zeros_like(o).requires_grad_(True) for o in outputs)
        u_J = _grad(outputs, inputs, dummies, create_graph=True)
        _check_outputs_require_grad_trick(u_J, strict)
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        grads = _grad(u_J, dummies, v, create_graph=create_graph)
        result = _zeros_where_missing(grads, outputs, strict, create_graph, "back_trick")
    return (_untuple(_finish(outputs, create_graph), outputs_tuple),
            _untuple(_finish(result, create_graph), outputs_tuple))


def _check_outputs_require_grad_trick(grads, strict):
    if not strict:
        return
    for i, g in enumerate(grads):
        if g is None:
            raise RuntimeError(_INDEPENDENT["back"].format(i=i))
        if not g.requires_grad:
            raise RuntimeError(f"The gradient with respect to input {i} is independent of the inputs of the "
                               "user-provided function. This is not allowed in strict mode.")


# -- whole matrices ----------------------------------------------------------------------------------
def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: for output shape ``O`` and input shape ``I``, a tensor
    of shape ``O + I`` (a tuple over inputs and/or outputs when either is a tuple).

    Row by row: one backward pass per output element. ``vectorize`` is accepted and computes the
    same rows (tensorlab has no vmap)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If '
                             'your function has more outputs than inputs, "forward-mode" tends to be more '
                             'performant. Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        return _jacobian_forward(func, inputs, create_graph, strict, vectorize)
    if strict and vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                           "supported together. Please either set `strict=False` or `vectorize=False`.")
    with grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh_inputs(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "jacobian")
        _check_outputs_require_grad(outputs, strict)
        blocks = [_jacobian_rows(out, inputs, create_graph, strict) for out in outputs]
    blocks = [_finish(b, create_graph) for b in blocks]
    if outputs_tuple:
        return tuple(_untuple(b, inputs_tuple) for b in blocks)
    return _untuple(blocks[0], inputs_tuple)


def _jacobian_rows(out, inputs, create_graph, strict):
    """d out / d input for each input: one ``grad`` call per element of ``out``, rows stacked."""
    from ..ops import stack
    from ..ops.creation import zeros_like
    flat = out.reshape(-1)
    rows = [[] for _ in inputs]
    for j in range(flat.numel()):
        grads = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for i, (g, x) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {j} of the user-provided function is independent of input "
                                       f"{i}. This is not allowed in strict mode.")
                g = zeros_like(x)
            rows[i].append(g)
    result = []
    for x, r in zip(inputs, rows):
        block = stack(r) if r else zeros_like(x).reshape((0,) + tuple(x.shape))
        result.append(block.reshape(tuple(out.shape) + tuple(x.shape)))
    return tuple(result)


def _jacobian_forward(func, inputs, create_graph, strict, vectorize):
    """``strategy="forward-mode"``: one column of the Jacobian per forward pass, with the tangent
    a basis vector (forward_ad.py) -- fewer passes than reverse mode when inputs are fewer than
    outputs. ``vectorize`` is required, as in PyTorch; the columns are computed one after another."""
    if create_graph:
        raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` and "
                                  '`strategy="forward-mode"` are not supported together (yet). Please either '
                                  'set `create_graph=False` or `strategy="reverse-mode"`.')
    if strict:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `strategy=\"forward-mode\"` "
                           "are not supported together (yet). Please either set `strict=False` or "
                           "`strategy=\"reverse-mode\"`.")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    from ..ops import stack
    from ..ops.creation import zeros_like
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    passes = [(i, k) for i, x in enumerate(inputs) for k in range(x.numel())] or [(None, None)]
    columns, outputs, outputs_tuple = None, None, False
    for i, k in passes:
        outputs_tuple, outputs, tangents = _forward_pass(func, inputs, i, k)
        if columns is None:
            columns = [[[] for _ in inputs] for _ in outputs]
        if i is not None:
            for o, t in enumerate(tangents):
                columns[o][i].append(t)
    blocks = []
    for o, out in enumerate(outputs):
        row = []
        for i, x in enumerate(inputs):
            shape = tuple(out.shape) + tuple(x.shape)
            row.append(_columns_as_block(stack(columns[o][i]), out, x) if columns[o][i]
                       else zeros_like(out).reshape(tuple(out.shape) + (1,)).expand(*out.shape, 0).reshape(shape))
        blocks.append(tuple(row))
    if outputs_tuple:
        return tuple(_untuple(b, inputs_tuple) for b in blocks)
    return _untuple(blocks[0], inputs_tuple)


def _columns_as_block(stacked, out, x):
    """The columns (stacked along dim 0) as the block d out / d x, shape ``out.shape + x.shape``, laid out
    as PyTorch's (its vmap moves the batch of tangents to the end): a view, the output's dims first."""
    n_in, n_out = x.dim(), out.dim()
    block = stacked.reshape(tuple(x.shape) + tuple(out.shape))
    return block.permute(*range(n_in, n_in + n_out), *range(n_in))


def _forward_pass(func, inputs, i, k):
    """Run ``func`` on dual inputs whose tangents are zero but for element ``k`` of input ``i``:
    the output tangents are column ``k`` of the Jacobian's block for input ``i``."""
    from . import forward_ad as fwAD
    from ..ops.creation import zeros_like
    with fwAD.dual_level():
        duals = []
        for j, x in enumerate(inputs):
            t = zeros_like(x)
            if j == i:
                t.view(-1)[k] = 1
            duals.append(fwAD.make_dual(x.detach(), t))
        outputs_tuple, outs = _call(func, duals, "jacobian")
        tangents = []
        for out in outs:
            primal, tangent = fwAD.unpack_dual(out)
            tangents.append((tangent if tangent is not None else zeros_like(primal)).detach())
        outs = tuple(o.detach() for o in outs)
    return outputs_tuple, outs, tangents


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The matrix of second derivatives of a scalar function: the Jacobian of its gradient.
    For a tuple of inputs, a tuple of tuples: ``result[i][j]`` is d^2 f / d x_i d x_j."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def gradient(*xs):
        if outer_jacobian_strategy == "forward-mode":   # forward-over-reverse: the duals need a graph
            xs = tuple(x.requires_grad_(True) for x in xs)
        out = _single_scalar_output(func(*xs), "hessian")
        _check_outputs_require_grad((out,), strict)
        grads = _grad((out,), xs, create_graph=True)
        if strict:
            return _strict_jacobian(grads)
        return _zeros_where_missing(grads, xs, False, True, "double_back")

    result = jacobian(gradient, inputs if inputs_tuple else inputs[0], create_graph=create_graph,
                      strict=strict, vectorize=vectorize, strategy=outer_jacobian_strategy)
    return result if inputs_tuple else result[0]


def _strict_jacobian(grads):
    for i, g in enumerate(grads):
        if g is None:
            raise RuntimeError(_INDEPENDENT["back"].format(i=i))
        if not g.requires_grad:
            raise RuntimeError(f"While computing the hessian, found that the jacobian of the user-provided "
                               f"function with respect to input {i} is independent of the input. This is not "
                               "allowed in strict mode. You should ensure that your function is twice "
                               "differentiable and that the jacobian depends on the inputs (this would be "
                               "violated by a linear function for example).")
    return grads


def _single_scalar_output(out, fn_name):
    is_tuple, outs = _as_tuple(out, "outputs of the user-provided function", fn_name)
    if is_tuple and len(outs) != 1:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single "
                           "element")
    return outs[0].squeeze()


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)`` for a scalar ``func``: backward twice, never the whole Hessian."""
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)`` for a scalar ``func``, by the double-backward trick (equal to vhp for a
    twice continuously differentiable function, whose Hessian is symmetric)."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def _hessian_product(func, inputs, v, create_graph, strict, fn_name):
    from ..ops.creation import zeros_like
    with grad_mode.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
        inputs = _fresh_inputs(inputs, create_graph, need_graph=True)
        v = _fresh_inputs(_vector_for_inputs(v, inputs, inputs_tuple, fn_name), create_graph, False)
        outputs_tuple, outputs = _call(func, inputs, fn_name)
        if outputs_tuple and len(outputs) != 1:
            raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
        if outputs[0].numel() != 1:
            raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a "
                               "single element")
        _check_outputs_require_grad(outputs, strict)
        jac = _grad(outputs, inputs, create_graph=True)
        jac = _zeros_where_missing(jac, inputs, strict, create_graph, "double_back")
        if fn_name == "hvp":  # d/du (u^T H) along v = H v, with a dummy u
            dummies = tuple(zeros_like(x).requires_grad_(True) for x in inputs)
            u_H = _grad(jac, inputs, dummies, create_graph=True)
            u_H = _zeros_where_missing(u_H, inputs, strict, True, "double_back_trick")
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        if fn_name == "hvp":
            grads = _grad(u_H, dummies, v, create_graph=create_graph)
        else:
            grads = _grad(jac, inputs, v, create_graph=create_graph)
        result = _zeros_where_missing(grads, inputs, strict, create_graph, "double_back")
    return (_untuple(_finish(outputs, create_graph), outputs_tuple),
            _untuple(_finish(result, create_graph), inputs_tuple))
