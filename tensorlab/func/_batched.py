"""BatchedTensor: what a function sees inside ``vmap`` -- one sample, backed by the whole batch.

Inside ``vmap(f)(x)`` with ``x`` of shape (64, 3), ``f`` is handed a tensor of *logical* shape (3,):
``x.shape``, ``x.dim()``, ``x.numel()`` answer for one sample. Behind it sits the *physical* tensor, all
64 samples, with the batch in dim 0 (vmap moves it there on the way in). Every op on a BatchedTensor is
seen by the vmap level's OpLayer (_vmap.py), which runs it once on the physical tensor by a batching rule
(_batching_rules.py) and wraps the result again. Nothing loops over the samples.

Each BatchedTensor belongs to one vmap *level*. ``vmap(vmap(f))`` nests: the inner level's
BatchedTensor wraps the outer level's, which wraps the plain tensor at the bottom -- whose dims are
(outer batch, inner batch, *logical). Autograd records on that bottom tensor, as ops on it are ordinary.

Reading the data of one sample directly -- ``.item()``, ``if x > 0:``, ``.numpy()`` -- has no meaning
for a whole batch at once: those raise, with PyTorch's messages. See course/24_function_transforms.
"""
from .. import _dtype
from ..tensor import Tensor

ITEM_ERROR = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
              ".item() on a Tensor, please try to rewrite what you're doing with other operations. If error "
              "is occurring somewhere inside PyTorch internals, please file a bug report.")
CONTROL_FLOW_ERROR = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
                      "flow. We don't support that yet, please file an issue at "
                      "https://github.com/pytorch/pytorch/issues .")
DATA_ERROR = ("vmap: this operation reads the memory of a batched tensor directly (it is not an "
              "autograd.Function, so vmap cannot run it on the whole batch). Rewrite it with other "
              "operations, or move it out of the vmapped function.")


# Public functions that are not autograd.Functions (so no OpLayer sees them) but act elementwise:
# BatchedTensor's ``__torch_function__`` runs them on the aligned physical tensors.
PYTHON_POINTWISE = {"eq", "ne", "not_equal", "lt", "less", "le", "less_equal", "gt", "greater", "ge",
                    "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and",
                    "bitwise_or", "bitwise_xor", "bitwise_not", "isnan", "isinf", "isfinite", "isposinf",
                    "isneginf", "signbit", "isclose", "__and__", "__or__", "__xor__", "__invert__",
                    "__rand__", "__ror__", "__rxor__"}


class BatchedTensor(Tensor):
    """One sample's view of ``value``, whose dim 0 is the batch of vmap level ``level``."""

    __slots__ = ("_value", "_level")

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """Every public call with a BatchedTensor argument comes here first (tensorlab/_torch_function.py).
        An elementwise function that is not an autograd.Function (``x > 0``) runs on the physical tensors;
        anything else runs as written, and its ops reach the vmap layers."""
        kwargs = kwargs or {}
        name = getattr(func, "_torch_function_name", "").rsplit(".", 1)[-1]
        if name in PYTHON_POINTWISE:
            return _python_pointwise(func, args, kwargs)
        _refuse_dynamic_shapes(name, args, kwargs)
        original = getattr(func, "_torch_function_original", func)
        try:
            return original(*args, **kwargs)
        except RuntimeError as error:
            if str(error) != DATA_ERROR:
                raise
            return _per_sample(original, name, args, kwargs, error)

    def __repr__(self, *, tensor_contents=None):
        inner = "\n".join("    " + line if line else line for line in repr(self._value).split("\n"))[4:]
        from ._vmap import depth
        return f"BatchedTensor(lvl={depth(self._level)}, bdim=0, value=\n    {inner}\n)"

    # -- what is not one sample's to answer ---------------------------------------------------------
    @property
    def _array(self):
        raise RuntimeError(DATA_ERROR)

    def _make_view(self, offset, shape, strides):
        raise RuntimeError(DATA_ERROR)

    def item(self):
        raise RuntimeError(ITEM_ERROR)

    def __bool__(self):
        raise RuntimeError(CONTROL_FLOW_ERROR)

    # -- metadata: the physical tensor's, less the batch dim ----------------------------------------
    @property
    def dtype(self):
        return self._value.dtype

    def element_size(self):
        return self._value.element_size()

    @property
    def itemsize(self):
        return self._value.itemsize

    @property
    def _requires_grad(self):
        return self._value._requires_grad

    @property
    def _grad_fn(self):
        return self._value._grad_fn

    def requires_grad_(self, requires_grad=True):
        self._value.requires_grad_(requires_grad)
        return self

    def detach(self):
        return wrap(self._value.detach(), self._level)

    @property
    def data(self):
        return wrap(self._value.data, self._level)


def _python_pointwise(func, args, kwargs):
    """``func`` on the physical tensors of the innermost level among ``args``, padded to one logical rank
    (the pointwise batching rule of _batching_rules.py, for functions the vmap layer cannot see)."""
    level = max(a._level for a in args if type(a) is BatchedTensor)
    rank = max((a.dim() for a in args if isinstance(a, Tensor)), default=0)
    physical = []
    for a in args:
        if type(a) is BatchedTensor and a._level == level:
            v = a._value
            a = v.reshape((v.shape[0],) + (1,) * (rank - v.dim() + 1) + tuple(v.shape[1:]))
        physical.append(a)
    return wrap(func(*physical, **kwargs), level)


# Ops whose result's shape depends on the values: a batch of them would be ragged. PyTorch refuses them.
DYNAMIC_SHAPE = {"nonzero": "aten::nonzero", "unique": "aten::_unique2"}


def _refuse_dynamic_shapes(name, args, kwargs):
    if name in DYNAMIC_SHAPE:
        raise RuntimeError("vmap: We do not support batching operators that can output dynamic shape. Attempted to "
                           f"vmap over {DYNAMIC_SHAPE[name]}. Please file an issue at "
                           "https://github.com/pytorch/pytorch/issues if you need this feature.")
    if name == "__getitem__" and len(args) > 1:
        index = args[1] if isinstance(args[1], tuple) else (args[1],)
        if any(type(i) is BatchedTensor and i.dtype is _dtype.bool for i in index):
            raise RuntimeError("vmap: We do not support batching operators that can support dynamic shape. "
                               "Attempting to batch over indexing with a boolean mask.")
    if name == "masked_select":
        mask = args[1] if len(args) > 1 else kwargs.get("mask")
        if type(mask) is BatchedTensor:
            raise RuntimeError("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
                               "support this because for each batch this would return a differently shaped "
                               "Tensor. Please file an issue at https://github.com/pytorch/pytorch/issues if you "
                               "need this feature.")


def _per_sample(func, name, args, kwargs, error):
    """A function that reads a batched tensor's memory (no autograd.Function, so no batching rule can see
    it: ``histc``, ``argsort``...) run once per sample of the innermost level among its arguments, the
    results stacked -- vmap's slow path, with PyTorch's warning. Results that are not tensors (``tolist``,
    ``numpy``) have no batched form: then the original error stands."""
    import warnings
    from ..ops import stack
    level = max(a._level for a in _batched_args(args, kwargs))
    size = next(a._value.shape[0] for a in _batched_args(args, kwargs) if a._level == level)
    in_place = name.endswith("_") and not name.startswith("_")
    if in_place and not (args and type(args[0]) is BatchedTensor and args[0]._level == level):
        from ._vmap import depth, inplace_error    # one tensor for every sample cannot take a result each
        raise RuntimeError(inplace_error(f"aten::{name}", depth(level)))
    warnings.warn(f"There is a performance drop because we have not yet implemented the batching rule for "
                  f"aten::{name or func.__name__}. Please file us an issue on GitHub so that we can prioritize its "
                  "implementation.", UserWarning, stacklevel=4)

    def pick(a, b):
        if type(a) is BatchedTensor and a._level == level:
            return a._value.select(0, b)
        if type(a) in (tuple, list):
            return type(a)(pick(x, b) for x in a)
        return a
    results = [func(*[pick(a, b) for a in args], **{k: pick(v, b) for k, v in kwargs.items()}) for b in range(size)]
    if in_place:        # each sample wrote into its own slice of the physical tensor
        return args[0]
    first = results[0]
    if isinstance(first, Tensor):
        return wrap(stack(results), level)
    if isinstance(first, tuple) and first and all(isinstance(x, Tensor) for x in first):
        parts = [wrap(stack([r[i] for r in results]), level) for i in range(len(first))]
        return type(first)(*parts) if hasattr(type(first), "_fields") else tuple(parts)
    raise error


def _batched_args(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if type(a) is BatchedTensor:
            yield a
        elif type(a) in (tuple, list):
            yield from (x for x in a if type(x) is BatchedTensor)


def wrap(value, level):
    """A BatchedTensor of ``level`` over ``value`` (batch in dim 0)."""
    t = object.__new__(BatchedTensor)
    t._value, t._level = value, level
    t._storage, t._offset = value._storage, value._offset
    t._shape, t._stride = value._shape[1:], value._stride[1:]
    t._version_slot = None
    return t


def is_batched_at(x, level):
    return type(x) is BatchedTensor and x._level == level


def unwrap(x, level):
    """``(physical, True)`` for a BatchedTensor of ``level``, else ``(x, False)``."""
    if type(x) is BatchedTensor and x._level == level:
        return x._value, True
    return x, False


def bottom(x):
    """The plain tensor under every level of wrapping (its leading dims are the batches, outer first)."""
    while type(x) is BatchedTensor:
        x = x._value
    return x


def levels_of(x):
    """The levels ``x`` is batched at, innermost first."""
    levels = []
    while type(x) is BatchedTensor:
        levels.append(x._level)
        x = x._value
    return levels


def rewrap_like(template, new_bottom):
    """``new_bottom`` wrapped in the same levels as ``template`` (whose bottom has the same batch dims)."""
    levels = levels_of(template)
    out = new_bottom
    for level in reversed(levels):
        out = wrap(out, level)
    return out
