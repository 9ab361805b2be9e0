"""``out=`` on the functions that are not pointwise: factories, reductions, matrix products, joins, sorts.

They share the pointwise functions' mechanics (ops/out.py): the ordinary op runs, then its result is
copied into ``out`` -- resized, with PyTorch's warning, when its shape differs; refused while grad mode is
on if an input requires grad. What differs from one PyTorch kernel to the next is which dtype of ``out``
it takes, so each function here names its rule:

- ``INTO``: the result is *made in* ``out``'s dtype -- ``torch.zeros(2, out=long_tensor)`` holds int64
  zeros, ``torch.sum(x, 0, out=int_tensor)`` sums into ints (the factories, and the reductions that take
  ``dtype=``);
- ``CAST``: any ``out`` the result can be cast to without changing category, as for pointwise ops
  (``ANY``: any ``out`` at all -- ``bernoulli`` draws into an int or bool tensor too);
- every other rule takes only ``out``'s of the result's own dtype, and differs only in its words.

Functions that return ``(values, indices)`` (``max(x, dim)``, ``sort``, ``topk``...) take a pair of
outs: ``torch.max(x, 1, out=(values, indices))``; the indices must be int64.
See course/08_inplace_and_versions.
"""
from .. import _dtype
from ..autograd import grad_mode
from .inplace import _LEGACY, can_cast, check_writable, write_into
from .out import _any_requires_grad, _resize
from ._pointwise import c_type_name
from .. import tensor as _t

INTO, CAST, ANY = "into", "cast", "any"
EXACT = "Expected out tensor to have dtype {result_c}, but got {out_c} instead"
CAT = "torch.cat(): input types can't be cast to the desired output type {out_l}"

# name: (rule, the op's name in PyTorch's autograd error -- None: the result has no gradient)
RULES = {
    **{name: (INTO, None) for name in ("zeros", "ones", "empty", "full", "arange", "range", "linspace",
                                       "logspace", "eye", "randint", "randperm")},
    "bernoulli": (ANY, None),
    **{name: ("random", None) for name in ("rand", "randn", "normal")},
    **{name: (INTO, name) for name in ("sum", "prod", "cumsum", "cumprod")},
    **{name: (CAST, name) for name in ("mean", "var", "std")},
    "outer": (CAST, "mul"), "ger": (CAST, "mul"),
    "logsumexp": ("logsumexp(): Expected floating point type for result tensor, but got: {out_l}", "logsumexp"),
    **{name: (EXACT, name) for name in ("mm", "bmm", "mv", "addmm", "matmul", "tril", "triu", "gather", "scatter",
                                        "scatter_add", "scatter_reduce", "index_add", "index_copy",
                                        "slice_scatter", "max", "min", "sort", "topk")},
    "norm": (EXACT, "linalg_vector_norm"), "inverse": (EXACT, "linalg_inv_ex"), "msort": (EXACT, "sort"),
    "take_along_dim": (EXACT, "gather"), "softmax": (EXACT, None), "log_softmax": (EXACT, None),
    "argmax": (EXACT, None), "argmin": (EXACT, None),
    **{name: (CAT, "cat") for name in ("cat", "concat", "concatenate", "hstack", "vstack", "row_stack", "dstack",
                                       "column_stack")},
    "stack": (CAT, "stack"),
    **{name: ("Expected the dtype for input and out to match, but got {result_l} for input's dtype and {out_l} "
              "for out's dtype.", name) for name in ("amax", "amin")},
    **{name: ("{name}(): self and result must have the same scalar type", name)
       for name in ("index_select", "masked_select")},
    **{name: ("result dtype {out_l} does not match input dtype {result_l}", name) for name in ("dot", "vdot")},
    **{name: ("{name} only supports bool tensor for result, got: {out_l}", None) for name in ("all", "any")},
    "nonzero": ("nonzero: Expected out tensor to have scalar type Long but got scalar type{out_l}", None),
    "multinomial": ("multinomial expects Long tensor out, got: {out_l}", None),
    "histc": ("torch.histogram: input tensor and hist tensor should have the same dtype, but got input {result_c} "
              "and hist {out_c}", None),
    "median": ("Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type "
               "{out_type} does not equal torch.{result_l}Tensor (while checking arguments for median)",
               "median"),
    "kthvalue": ("output values must be of same type as input", "kthvalue"),
    "mode": ("expected scalar type '{result_l}' but got '{out_l}' for values output", "mode"),
}
_KERNEL = {"rand": "check_uniform_bounds", "randn": "normal_kernel_cpu", "normal": "normal_kernel_cpu"}
_NO_BOOL_KERNEL = {"cumsum": "cumsum_out_cpu", "cumprod": "cumprod_out_cpu", "logspace": "logspace_cpu",
                   "randperm": "randperm"}


def write_out(name, op, args, kwargs, out):
    """Run ``op`` and copy its result (or each of its results) into ``out``; returns ``out``."""
    rule, grad_name = RULES[name]
    outs = _outs(name, out, args, kwargs)
    if grad_name is not None and grad_mode._State.enabled and any(
            _any_requires_grad(o, args, kwargs) or _list_requires_grad(args) for o in outs):
        raise RuntimeError(f"{grad_name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if rule in (INTO, "random"):
        kwargs = _made_in(name, rule, kwargs, outs[0].dtype)
    result = op(*args, **kwargs)
    results = tuple(result) if isinstance(result, tuple) else (result,)
    if len(results) != len(outs) or isinstance(out, _t.Tensor) != (len(results) == 1):
        raise _invalid(name, args, kwargs, out)
    for i, (r, o) in enumerate(zip(results, outs)):
        _check_dtype(name, EXACT if i else rule, r.dtype, o.dtype)
        if r._device != o._device:
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, "
                               f"{r._device} and {o._device}!")
        check_writable(o)
    for r, o in zip(results, outs):
        if r._shape != o._shape:
            _resize(o, r._shape)
        write_into(o, r._array)
    if len(outs) == 1:
        return out
    from .. import return_types  # (values, indices) as ``torch.return_types.max_out``
    return getattr(return_types, name + "_out")(*outs)


def _outs(name, out, args, kwargs):
    if isinstance(out, _t.Tensor):
        return (out,)
    if isinstance(out, (tuple, list)) and out and all(isinstance(o, _t.Tensor) for o in out):
        return tuple(out)
    raise _invalid(name, args, kwargs, out)


def _invalid(name, args, kwargs, out):
    """PyTorch's TypeError for an ``out`` of the wrong kind (a tuple for one result, a tensor for two)."""
    got = [type(a).__name__ if not isinstance(a, _t.Tensor) else "Tensor" for a in args]
    got += [f"{k}={type(v).__name__}" for k, v in {**kwargs, "out": out}.items()]
    return TypeError(f"{name}() received an invalid combination of arguments - got ({', '.join(got)}), but "
                     "expected one of:")


def _list_requires_grad(args):
    """cat/stack take their inputs as a list."""
    return bool(args) and isinstance(args[0], (list, tuple)) and any(
        isinstance(t, _t.Tensor) and t._requires_grad for t in args[0])


def _made_in(name, rule, kwargs, out_dtype):
    """The op's ``dtype=`` for an INTO rule: ``out``'s, which a ``dtype=`` given too must equal."""
    given = kwargs.get("dtype")
    if given is not None:
        given = _dtype.resolve(given, name) if not isinstance(given, _dtype.dtype) else given
        if given is not out_dtype:
            raise RuntimeError(f"dtype {_LEGACY[given.name]} does not match dtype of out parameter "
                               f"({_LEGACY[out_dtype.name]})")
    if rule == "random" and not out_dtype.is_floating_point:
        raise NotImplementedError(f'"{_KERNEL[name]}" not implemented for \'{_LEGACY[out_dtype.name]}\'')
    if out_dtype is _dtype.bool and name in _NO_BOOL_KERNEL:
        raise NotImplementedError(f'"{_NO_BOOL_KERNEL[name]}" not implemented for \'Bool\'')
    if out_dtype is _dtype.bool and name == "randint":
        raise RuntimeError("to - 1 is out of bounds for bool")
    return {**kwargs, "dtype": out_dtype}


def _check_dtype(name, rule, result, out):
    if rule in (INTO, "random", ANY):
        return
    if rule == CAST or rule == CAT or rule.startswith("logsumexp"):
        if rule.startswith("logsumexp") and not out.is_floating_point:
            raise RuntimeError(rule.format(out_l=_LEGACY[out.name]))
        if not can_cast(result, out):
            if rule == CAT:
                raise TypeError(CAT.format(out_l=_LEGACY[out.name]))
            raise RuntimeError(f"result type {_LEGACY[result.name]} can't be cast to the desired output "
                               f"type {_LEGACY[out.name]}")
        return
    wanted = _dtype.bool if name in ("all", "any") else result
    if out is not wanted:
        out_type = "CPUBoolType" if out is _dtype.bool else f"torch.{_LEGACY[out.name]}Tensor"  # (PyTorch's words)
        raise RuntimeError(rule.format(name=name, result_c=c_type_name(result), out_c=c_type_name(out),
                                       result_l=_LEGACY[result.name], out_l=_LEGACY[out.name], out_type=out_type))


def with_out(op, name):
    """``op`` as a ``tensorlab.*`` function that also takes ``out=`` (rule: ``RULES[name]``)."""
    import functools

    from .out import _signature_with_out

    @functools.wraps(op)
    def op_with_out(*args, out=None, **kwargs):
        if out is None:
            return op(*args, **kwargs)
        return write_out(name, op, args, kwargs, out)
    del op_with_out.__wrapped__
    op_with_out.__signature__ = _signature_with_out(op)
    return op_with_out
