"""functional_call and stack_module_state: a Module as a pure function of its parameters.

``functional_call(model, params, (x,))`` runs ``model(x)`` with the tensors in ``params`` standing in for the
model's own parameters and buffers (by their dotted names, ``"0.weight"``), and puts the originals back
afterwards. The model becomes a function ``f(params, x)`` -- one that ``grad`` can differentiate with
respect to ``params`` and ``vmap`` can map over stacked ``params``:

    params, buffers = stack_module_state(models)       # each entry: (num_models, *shape)
    vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)  # every model on the same x, in one call

See course/24_function_transforms.
"""
from ..tensor import Tensor


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True,
                    strict=False):
    """Call ``module(*args, **kwargs)`` with its parameters and buffers replaced by the given tensors.

    ``parameter_and_buffer_dicts``: a dict of name -> tensor, or a sequence of dicts (keys must not repeat).
    ``tie_weights``: a tensor given for one name of a parameter shared under several names is used for
    all of them. ``strict``: every parameter and buffer must be given, and nothing else.
    """
    replacements = _merge(parameter_and_buffer_dicts)
    if tie_weights:
        replacements = _tie(module, replacements)
    if strict:
        _check_strict(module, replacements)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    saved = [_swap(module, name, value) for name, value in replacements.items()]
    try:
        return module(*args, **(kwargs or {}))
    finally:
        for owner, registry, key, old in reversed(saved):
            _put(owner, registry, key, old)


def _merge(dicts):
    if isinstance(dicts, dict):
        return dict(dicts)
    if not isinstance(dicts, (list, tuple)):
        raise ValueError(f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                         f"{type(dicts)}")
    merged = {}
    for d in dicts:
        repeated = sorted(set(merged) & set(d))
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                             "ambiguous")
        merged.update(d)
    return merged


def _tie(module, replacements):
    """Names that share one tensor in the module all take the replacement given for any of them."""
    groups = {}
    for name, t in _all_named(module, remove_duplicate=False):
        groups.setdefault(id(t), []).append(name)
    out = dict(replacements)
    for names in groups.values():
        given = [n for n in names if n in replacements]
        if len(names) < 2 or not given:
            continue
        first = replacements[given[0]]
        for n in given[1:]:
            if replacements[n] is not first:
                raise ValueError(f"functional_call got multiple values for keys {sorted(given)}, which are tied. "
                                 "Consider using tie_weights=False")
        for n in names:
            out[n] = first
    return out


def _all_named(module, remove_duplicate=True):
    yield from module.named_parameters(remove_duplicate=remove_duplicate)
    yield from module.named_buffers(remove_duplicate=remove_duplicate)


def _check_strict(module, replacements):
    expected = {name for name, _ in _all_named(module, remove_duplicate=False)}
    missing = sorted(expected - set(replacements))
    unexpected = sorted(set(replacements) - expected)
    if missing or unexpected:
        parts = []
        if unexpected:
            parts.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected) + ".")
        if missing:
            parts.append("Missing key(s): " + ", ".join(repr(k) for k in missing) + ".")
        raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t" + "\n\t".join(parts))


def _swap(module, name, value):
    """Put ``value`` at the dotted ``name``; return what is needed to put the old value back."""
    *path, key = name.split(".")
    owner = module
    for part in path:
        owner = getattr(owner, part)
    d = owner.__dict__
    for registry in ("_parameters", "_buffers"):
        if key in d.get(registry, {}):
            old = d[registry][key]
            d[registry][key] = value
            return owner, registry, key, old
    old = d.get(key, _MISSING)
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"functional_call: the value for {name!r} must be a Tensor, got {type(value)}")
    object.__setattr__(owner, key, value)
    return owner, None, key, old


_MISSING = object()


def _put(owner, registry, key, old):
    if registry is not None:
        owner.__dict__[registry][key] = old
    elif old is _MISSING:
        owner.__dict__.pop(key, None)
    else:
        object.__setattr__(owner, key, old)


def stack_module_state(models):
    """``(params, buffers)``: dicts from each name to the models' tensors stacked along a new dim 0.

    The models must have the same structure. The stacked parameters are new leaves that require grad
    (as the originals did); buffers are stacked as they are.
    """
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    from .. import ops
    params = {name: _stacked(ops, [dict(m.named_parameters())[name] for m in models], leaf=True)
              for name, _ in models[0].named_parameters()}
    buffers = {name: _stacked(ops, [dict(m.named_buffers())[name] for m in models], leaf=False)
               for name, _ in models[0].named_buffers()}
    return params, buffers


def _stacked(ops, tensors, leaf):
    out = ops.stack([t.detach() for t in tensors])
    if leaf and tensors[0].requires_grad:
        out.requires_grad_(True)
    return out
