"""How forward-mode AD sees every op: the OpLayer of a dual level, and the rules of last resort.

For each op with a dual input, ``ForwardADLayer.handle`` runs the op as usual and then finds the
tangent of its result:
1. a custom ``autograd.Function`` must define ``jvp(ctx, *tangents)``; it is called with the ctx
   its forward filled (``ctx.save_for_forward``);
2. a built-in op with a forward rule (``_forward_rules.py``) uses it;
3. any other built-in op uses the *double-backward trick* through its own backward formula:
   ``g(u) = J^T u`` is linear in a dummy ``u``, so ``d/du <g(u), t> = J t``. That is correct for every
   op whose backward is itself differentiable -- and tensorlab writes backward formulas with tensor
   ops so that it is. An op whose backward is not differentiable raises PyTorch's error.
In-place ops write an out-of-place result into the target (ops/inplace.py); the target then takes
the result's tangent (``handle_inplace``). See course/23_forward_mode_ad.
"""
from . import grad_mode
from .function import Function, OpLayer, _DelayedError, trace_forward
from .forward_ad import check_tangent_size, get_tangent, set_tangent, _same_layout, _with_layout_of
from ..tensor import Tensor


def _no_formula(name):
    return NotImplementedError(
        f"Trying to use forward AD with {name} that does not support it because it has not been "
        "implemented yet.\nPlease file an issue to PyTorch at "
        "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can "
        "prioritize its implementation or submit a PR adding the implementation to derivatives.yaml")


def _op_name(cls):
    """``MulBackward0`` -> ``mul``: the name PyTorch's error gives the op."""
    name = cls._backward_cls.__name__
    for suffix in ("Backward0", "Backward1", "Backward2", "Backward3", "Backward"):
        if name.endswith(suffix):
            name = name[:-len(suffix)]
            break
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(name))


class ForwardADLayer(OpLayer):
    """The layer a dual level pushes: ops with a dual input get a tangent on their result."""

    def __init__(self, level):
        self.level = level.idx

    def tangent_of(self, a):
        return get_tangent(a, self.level) if isinstance(a, Tensor) else None

    def _has_dual(self, values):
        for a in values:
            if isinstance(a, Tensor):
                if get_tangent(a, self.level) is not None:
                    return True
            elif isinstance(a, (list, tuple)) and self._has_dual(a):
                return True
        return False

    def handle(self, cls, args, kwargs, proceed):
        if grad_mode._State.inference or not (self._has_dual(args) or (kwargs and self._has_dual(kwargs.values()))):
            return proceed(args, kwargs)      # inference_mode switches forward AD off too, as PyTorch's
        if not cls._backward_cls._builtin:
            return _custom_function(self, cls, args, kwargs, proceed)
        from ._forward_rules import rule_for
        rule = rule_for(cls)
        out = proceed(args, kwargs)
        if rule is not None:
            tangents = rule(cls, out, args, kwargs, self.tangent_of)
        else:
            tangents = jvp_by_double_backward(cls, args, kwargs, self.tangent_of, self.level)
        attach(out, tangents, self.level)
        if cls.__module__ == "tensorlab.ops.shape_inplace":   # t_(), squeeze_()...: the input takes
            set_tangent(args[0], self.level, get_tangent(out, self.level))  # the view's geometry
        return out

    def handle_inplace(self, target, result):
        """``target`` was overwritten with ``result``'s values: it takes ``result``'s tangent too."""
        new = get_tangent(result, self.level)
        if new is None:
            return
        old = get_tangent(target, self.level)
        if old is None and target._base is not None and not target.__dict__.get("_fw_no_tangent"):
            from ..ops.creation import zeros_like
            base = target._base   # its tangent starts at zero; the view's window takes the new values
            set_tangent(base, self.level, _with_layout_of(base, zeros_like(base, dtype=new.dtype)))
            old = get_tangent(target, self.level)
        from ..ops.inplace import has_internal_overlap
        if old is None or has_internal_overlap(old) or old._requires_grad and old._grad_fn is None:
            set_tangent(target, self.level, new if _same_layout(new, target) else _with_layout_of(target, new))
        else:
            old.copy_(new)


def attach(out, tangents, level):
    """Give each floating-point output its tangent (broadcast to the output's shape if a rule left it
    smaller, as ``x + y`` with only ``x`` dual does)."""
    if isinstance(out, tuple):
        if not isinstance(tangents, (tuple, list)):
            tangents = (tangents,) + (None,) * (len(out) - 1)
        for o, t in zip(out, tangents):
            _attach_one(o, t, level)
    else:
        _attach_one(out, tangents[0] if isinstance(tangents, tuple) else tangents, level)


def _attach_one(out, tangent, level):
    if tangent is None or not isinstance(out, Tensor):
        return
    if not (out.dtype.is_floating_point or out.dtype.is_complex):
        return
    if tangent._shape != out._shape:
        tangent = tangent.expand(out._shape).contiguous()
    set_tangent(out, level, tangent)
    node = out._grad_fn
    for saved in getattr(node, "_saved", ()):   # the op saved its output for backward: that copy
        if saved is not None and saved.node is not None and saved.output_nr == out._output_nr:
            set_tangent(saved.tensor, level, tangent)   # carries the tangent too (forward-over-reverse)


# -- the double-backward trick ----------------------------------------------------------------------
def jvp_by_double_backward(cls, args, kwargs, tangent_of, level):
    """``J t`` for an op without a forward rule, from its backward: run the op again on inputs that
    require grad, take ``g = J^T u`` for a dummy ``u`` with ``create_graph``, then ``d<g, t>/du``."""
    from . import grad
    from ..ops.creation import zeros_like
    duals, tangents = [], []
    _collect(args, tangent_of, duals, tangents)
    outer = _outer_levels(level)
    # the tangent gets a history only when a dual input or a tangent it comes from has one
    keep_graph = grad_mode.is_grad_enabled() and any(t._requires_grad for t in duals + tangents)
    with grad_mode.enable_grad():
        inputs = []
        new_args = [_fresh(a, tangent_of, inputs, keep_graph, outer) for a in args]
        outs = cls.apply(*new_args, **kwargs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        differentiable = [o for o in outs if isinstance(o, Tensor) and o._requires_grad]
        if not differentiable:
            return None
        dummies = [zeros_like(o).requires_grad_(True) for o in differentiable]
        try:
            vjps = grad(differentiable, inputs, dummies, create_graph=True, allow_unused=True)
            if any(isinstance(g, Tensor) and isinstance(g._grad_fn, _DelayedError._backward_cls) for g in vjps):
                raise RuntimeError("the backward of this op is only once differentiable")
            pairs = [(g, t) for g, t in zip(vjps, tangents) if g is not None and g._requires_grad]
            jvps = [None] * len(dummies)
            if pairs:
                total = sum((g * t).sum() for g, t in pairs)
                jvps = grad(total, dummies, allow_unused=True, create_graph=keep_graph or bool(outer))
        except (RuntimeError, NotImplementedError) as error:
            raise _no_formula(_op_name(cls)) from error
    found = iter([j if j is not None else zeros_like(d) for j, d in zip(jvps, dummies)])
    result = [next(found) if isinstance(o, Tensor) and o._requires_grad else None for o in outs]
    if not keep_graph:
        result = [_detach(r, outer) if r is not None else None for r in result]
    return tuple(result)


def _detach(t, outer_levels):
    """``t`` without reverse-mode history, keeping its tangents at the outer levels."""
    out = t.detach()
    for level in outer_levels:
        tangent = get_tangent(t, level)
        if tangent is not None:
            set_tangent(out, level, _detach(tangent, [lv for lv in outer_levels if lv < level]))
    return out


def _collect(args, tangent_of, duals, tangents):
    for a in args:
        if isinstance(a, (list, tuple)):
            _collect(a, tangent_of, duals, tangents)
        elif tangent_of(a) is not None:
            duals.append(a)
            tangents.append(tangent_of(a))


def _fresh(a, tangent_of, inputs, keep_graph, outer):
    """A dual input, made a leaf that requires grad (or a view of it, to keep its own history)."""
    if isinstance(a, (list, tuple)):
        return type(a)(_fresh(x, tangent_of, inputs, keep_graph, outer) for x in a)
    if tangent_of(a) is None:
        return a
    if keep_graph and a._requires_grad:
        x = a.view_as(a)
    else:
        x = _detach(a, outer).requires_grad_(True)   # nested levels: the outer tangents stay
    inputs.append(x)
    return x


def _outer_levels(level):
    """The dual levels open around ``level`` (``func.jvp`` inside ``func.jvp``)."""
    from .forward_ad import _levels
    return [lvl.idx for lvl in _levels if lvl.idx < level]


# -- custom Functions -------------------------------------------------------------------------------
def _custom_function(layer, cls, args, kwargs, proceed):
    """Run a custom Function's forward, then its ``jvp(ctx, *tangents)`` with the same ctx."""
    if cls.jvp is Function.jvp:
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use "
                                  "it with forward mode AD.")
    recording = grad_mode.is_grad_enabled() and any(
        isinstance(a, Tensor) and a._requires_grad for a in args)
    if recording:            # Function.apply records the node; trace_forward hands it (the ctx) over
        events = []
        with trace_forward(events.append):
            out = proceed(args, kwargs)
        ctx = next(e["node"] for e in events if isinstance(e["node"], cls._backward_cls))
    else:
        out, ctx = _run_forward(cls, args, kwargs)
    tangents = [_input_tangent(a, layer) for a in args]
    ctx._in_jvp = True
    try:
        result = cls.jvp(ctx, *tangents)
    finally:
        ctx._in_jvp = False
    outs = out if isinstance(out, tuple) else (out,)
    result = result if isinstance(result, tuple) else (result,)
    if len(result) != len(outs):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients (expected "
                           f"{len(outs)} but got {len(result)})")
    for o, t in zip(outs, result):
        if isinstance(o, Tensor) and t is not None:
            check_tangent_size(o, t)
    attach(out, result if isinstance(out, tuple) else result[0], layer.level)
    return out


def _input_tangent(a, layer):
    """What jvp receives for one forward argument: its tangent, zeros for a floating-point tensor
    without one, None for anything else."""
    if not isinstance(a, Tensor):
        return None
    t = layer.tangent_of(a)
    if t is None and a.dtype.is_floating_point:
        from ..ops.creation import zeros_like
        t = zeros_like(a)
    return t


def _run_forward(cls, args, kwargs):
    """Function.apply's unrecorded path, keeping the ctx (nothing requires grad, so no node joins a
    graph): forward fills the ctx, ``mark_dirty`` bumps versions."""
    from .function import _mark_dirty_outputs
    ctx = object.__new__(cls._backward_cls)
    ctx._args = args
    with grad_mode.no_grad():
        if cls._uses_setup_context:
            out = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, out)
        else:
            out = cls.forward(ctx, *args, **kwargs)
    if ctx._dirty:
        _mark_dirty_outputs(ctx, out)
    return out, ctx
