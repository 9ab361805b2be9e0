"""vmap: write a function for one sample, run it on a whole batch -- without a Python loop.

``vmap(f)(x)`` calls ``f`` once. Inside, ``f`` sees BatchedTensors (_batched.py): the shape of one sample,
the data of all of them. An OpLayer (tensorlab/autograd/function.py) is pushed for the duration of the
call, so every op ``f`` runs reaches ``VmapLayer.handle``; there a *batching rule* (_batching_rules.py)
runs the op once on the physical tensors -- ``x.sum(0)`` on one sample is ``sum(1)`` on the batch -- and an
op with no rule falls back to a loop over the samples, with PyTorch's performance warning. On the way out
the batch dim is moved to ``out_dims``.

Because the rules compute with ordinary ops on ordinary tensors, autograd records them as usual:
``vmap(grad(f))`` gives per-sample gradients. See course/24_function_transforms.

    >>> import tensorlab as torch
    >>> from tensorlab.func import vmap
    >>> vmap(torch.dot)(torch.ones(5, 3), torch.ones(5, 3)).shape
    torch.Size([5])
"""
import functools
import re
import itertools
import warnings

from ..autograd.function import OpLayer, op_layer
from ..tensor import Tensor
from . import _batched, _batching_rules
from ._batched import BatchedTensor, unwrap, wrap
from ._pytree import broadcast_prefix, tree_flatten, tree_unflatten

_levels = itertools.count(1)
active = []          # the VmapLayers of the vmaps now running, outermost first


class VmapLayer(OpLayer):
    """One vmap level: sees every op, handles those that take a BatchedTensor of its level."""

    def __init__(self, level, batch_size, randomness):
        self.level, self.batch_size, self.randomness = level, batch_size, randomness

    def handle(self, cls, args, kwargs, proceed):
        if not _takes_batched(args, self.level):
            return proceed(args, kwargs)
        rule = _batching_rules.RULES.get(cls)
        if rule is not None:
            out = rule(self, cls, args, kwargs, proceed)
            if out is not NotImplemented:
                return out
        return self.fallback(cls, args, kwargs, proceed)

    def fallback(self, cls, args, kwargs, proceed):
        """No batching rule: run the op on each sample and stack the results (PyTorch's slow path)."""
        warnings.warn(f"There is a performance drop because we have not yet implemented the batching rule for "
                      f"{_op_name(cls)}. Please file us an issue on GitHub so that we can prioritize its "
                      "implementation.", UserWarning, stacklevel=4)
        from ..ops import stack
        results = [proceed(_sample(args, self.level, b), kwargs) for b in range(self.batch_size)]
        first = results[0]
        if isinstance(first, tuple):
            parts = [self._stack_part([r[i] for r in results], stack) for i in range(len(first))]
            return type(first)(*parts) if hasattr(type(first), "_fields") else tuple(parts)
        return self._stack_part(results, stack)

    def _stack_part(self, items, stack):
        if not isinstance(items[0], Tensor):
            return items[0]
        return wrap(stack(items), self.level)


def _takes_batched(args, level):
    for a in args:
        if type(a) is BatchedTensor:
            if a._level == level:
                return True
        elif type(a) in (tuple, list):
            for b in a:
                if type(b) is BatchedTensor and b._level == level:
                    return True
    return False


def _sample(args, level, b):
    """The arguments of sample ``b``: each BatchedTensor of ``level`` replaced by its ``b``-th slice."""
    def pick(a):
        if type(a) is BatchedTensor and a._level == level:
            return a._value.select(0, b)
        if type(a) in (tuple, list):
            return type(a)(pick(x) for x in a)
        return a
    return tuple(pick(a) for a in args)


def _op_name(cls):
    """``Kthvalue`` -> ``aten::kthvalue``: PyTorch's warning names the aten op."""
    return "aten::" + re.sub(r"(?<=[a-z])(?=[A-Z])", "_", cls.__name__).lower()


# -- in-place ops ------------------------------------------------------------------------------------------
def inplace(self, op, args, kwargs):
    """``x.add_(y)`` inside vmap (called by tensorlab/ops/inplace.py while a vmap runs): compute ``op`` out
    of place, then copy the result into ``self`` -- which must be batched wherever the result is."""
    if type(self) is not BatchedTensor and not any(type(a) is BatchedTensor for a in args):
        return None  # nothing batched: the ordinary in-place path
    result = op(self, *args, **kwargs)
    missing = set(_batched.levels_of(result)) - set(_batched.levels_of(self))
    if missing:
        name = getattr(op, "__name__", "inplace")
        if name in _SHAPE_CHECKED:   # PyTorch runs these on the physical tensors: a broadcasting error
            raise RuntimeError(f"output with shape [{', '.join(map(str, _batched.bottom(self).shape))}] doesn't "
                               "match the broadcast shape "
                               f"[{', '.join(map(str, _batched.bottom(result).shape))}]")
        what = _INPLACE_NAMES.get(name, f"{name}_")
        raise RuntimeError(inplace_error(what, depth(max(missing)) if what.startswith("aten::") else None))
    _batched.bottom(self).copy_(_batched.bottom(result))
    return self


def inplace_error(what, level=None):
    """PyTorch's refusal to write a batched result into a tensor that is not batched (its per-sample
    fallback names the vmap level)."""
    where = "in a vmap" if level is None else f"at level {level}"
    return (f"vmap: {what}(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args "
            "that has more elements than `self`. This happened due to `other` being vmapped over but `self` not "
            f"being vmapped over {where}. Please try to use out-of-place operators instead of {what}. If said "
            "operator is being called inside the PyTorch framework, please file a bug report instead.")


def depth(level):
    """The level as PyTorch numbers it: 1 for the outermost vmap now running, 2 inside it... (tensorlab's
    own level numbers only grow, so that a BatchedTensor of a finished vmap is never mistaken for one
    of a new vmap)."""
    for i, layer in enumerate(active):
        if layer.level == level:
            return i + 1
    return level


# How PyTorch names an in-place op that cannot write a batched result into an unbatched tensor: its binary
# arithmetic rules say "inplace arithmetic", ops without a batching rule their aten name; add_ and atan2_
# run on the physical tensors and fail to broadcast.
_SHAPE_CHECKED = {"add", "atan2"}
_INPLACE_NAMES = {"sub": "inplace arithmetic", "mul": "inplace arithmetic", "div": "inplace arithmetic",
                  "clamp_min": "inplace arithmetic", "masked_fill": "inplace arithmetic", "apply": "fill_",
                  "remainder": "aten::remainder_", "fmod": "aten::fmod_", "lerp": "aten::lerp_",
                  "pow": "aten::pow_", "clamp": "aten::clamp_", "addcmul": "aten::addcmul_",
                  "masked_scatter": "aten::masked_scatter_", "index_copy": "aten::index_copy_",
                  "scatter": "aten::scatter_"}


# -- random ops ----------------------------------------------------------------------------------------
RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either use the 'same' or "
                "'different' randomness flags on vmap or perform the randomness operation out of vmap")


def check_randomness():
    """Called before every random draw while a vmap runs (tensorlab/ops/sampling.py)."""
    if active and active[-1].randomness == "error":
        raise RuntimeError(RANDOM_ERROR)
    if active and active[-1].randomness == "different":
        raise RuntimeError("vmap: randomness='different' is not supported by tensorlab yet: each sample would "
                           "need its own draw. Use randomness='same', or draw the random values outside vmap "
                           "and pass them in as a batched input.")


# -- vmap ------------------------------------------------------------------------------------------------
def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``func`` mapped over dim ``in_dims`` of its inputs; results stacked along ``out_dims``.

    ``in_dims``: an int for every input, or a (nested) tuple matching the inputs -- None for one that is
    not mapped over (the same for every sample). ``out_dims``: an int, or a tuple matching the outputs.
    ``randomness``: 'error' (random ops raise) or 'same' (one draw shared by every sample).
    ``chunk_size``: map ``chunk_size`` samples at a time (less memory, more calls).
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
                           f"{randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    name = getattr(func, "__name__", repr(func))

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        flat_args, spec = tree_flatten(args)
        flat_dims = _check_in_dims(name, in_dims, args, flat_args)
        size = _batch_size(flat_args, flat_dims)
        if chunk_size is None or chunk_size >= size:
            return _call(func, name, spec, flat_args, flat_dims, size, kwargs, out_dims, randomness)
        from ..ops import cat
        pieces = []
        for start in range(0, size, chunk_size):
            n = min(chunk_size, size - start)
            chunk = [x.narrow(d, start, n) if d is not None else x for x, d in zip(flat_args, flat_dims)]
            pieces.append(_call(func, name, spec, chunk, flat_dims, n, kwargs, out_dims, randomness))
        out_leaves, out_spec = tree_flatten(pieces[0])
        dims = _out_dims_for(name, out_dims, pieces[0], out_leaves)
        joined = [cat([tree_flatten(p)[0][i] for p in pieces], d) if d is not None else out_leaves[i]
                  for i, d in enumerate(dims)]
        return tree_unflatten(joined, out_spec)
    return wrapped


def _check_in_dims(name, in_dims, args, flat_args):
    if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
                         "(potentially nested) tuple matching the structure of inputs, got: "
                         f"{type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                         "trying to vmap over a function with no inputs. The latter is unsupported.")
    prefix = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args)
    flat_dims = broadcast_prefix(prefix, args)
    if flat_dims is None:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                         f"structure of `inputs`. in_dims has structure {tree_flatten(in_dims)[1]} but inputs has "
                         f"structure {tree_flatten(args)[1]}.")
    result = []
    for x, d in zip(flat_args, flat_dims):
        if d is not None and (not isinstance(d, int) or isinstance(d, bool)):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                             "in_dim must be either an integer dimension or None.")
        if d is not None and not isinstance(x, Tensor):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                             f"the input is of type {type(x)}. We cannot vmap over non-Tensor arguments, please "
                             "use None as the respective in_dim")
        if d is not None and not -x.dim() <= d < x.dim():
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, "
                             f"but that input is a Tensor of dimensionality {x.dim()} so expected in_dim to "
                             f"satisfy -{x.dim()} <= in_dim < {x.dim()}.")
        result.append(None if d is None else d % x.dim())
    if all(d is None for d in result):
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dims={in_dims}; at least "
                         "one input must be mapped over (an in_dim other than None).")
    return result


def _batch_size(flat_args, flat_dims):
    sizes = [x.shape[d] for x, d in zip(flat_args, flat_dims) if d is not None]
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0]


def _call(func, name, spec, flat_args, flat_dims, size, kwargs, out_dims, randomness):
    layer = VmapLayer(next(_levels), size, randomness)
    batched = [wrap(x.movedim(d, 0), layer.level) if d is not None else x for x, d in zip(flat_args, flat_dims)]
    active.append(layer)
    try:
        with _hooks(), op_layer(layer):
            out = func(*tree_unflatten(batched, spec), **kwargs)
    finally:
        active.pop()
    return _unbatch_outputs(name, out, out_dims, layer)


def _unbatch_outputs(name, out, out_dims, layer):
    leaves, out_spec = tree_flatten(out)
    dims = _out_dims_for(name, out_dims, out, leaves)
    result = []
    for x, d in zip(leaves, dims):
        if d is None:
            if _batched.is_batched_at(x, layer.level):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            result.append(x)
            continue
        if not isinstance(x, Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(x)}. Did you "
                             "mean to set out_dims= to None for output?")
        value, is_batched = unwrap(x, layer.level)
        if not is_batched:  # the same for every sample: repeat it (as a view) along the batch
            value = value.unsqueeze(0).expand(layer.batch_size, *value.shape)
        result.append(value.movedim(0, d))
    return tree_unflatten(result, out_spec)


def _out_dims_for(name, out_dims, out, leaves):
    prefix = out_dims
    if isinstance(out_dims, tuple) and not isinstance(out, tuple) and len(out_dims) == 1:
        prefix = out_dims[0]
    dims = broadcast_prefix(prefix, out)
    if dims is None:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
                         f"structure of `outputs`. out_dims has structure {tree_flatten(out_dims)[1]} but outputs "
                         f"has structure {tree_flatten(out)[1]}.")
    return dims


class _hooks:
    """While a vmap runs, in-place ops and random draws ask vmap first (tensorlab/ops/inplace.py, sampling.py)."""

    def __enter__(self):
        from ..ops import inplace as inplace_ops, sampling
        self.saved = inplace_ops.vmap_inplace, sampling.vmap_random_check
        inplace_ops.vmap_inplace, sampling.vmap_random_check = inplace, check_randomness

    def __exit__(self, *exc):
        from ..ops import inplace as inplace_ops, sampling
        inplace_ops.vmap_inplace, sampling.vmap_random_check = self.saved
