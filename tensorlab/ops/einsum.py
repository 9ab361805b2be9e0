"""``einsum``: products and sums described by index letters, e.g. ``einsum('ij,jk->ik', a, b)`` is a @ b.

Each operand's dims are named by letters. Letters shared between operands are multiplied together;
letters missing from the output (after ``->``) are summed over. The backward is itself an einsum:
the gradient of operand k is ``einsum('<output>,<other operands>-><operand k>', grad, *others)`` --
the output's gradient multiplied by everything operand k was multiplied by. Two details need care:
a letter that appears only in operand k (it was just summed) comes back by broadcasting, and a
letter repeated in operand k (``'ii->i'``, a diagonal) puts the gradient back on the diagonal.
PyTorch rewrites einsum into permutes and ``bmm``; tensorlab runs the array library's einsum, so
its graph shows one ``EinsumBackward`` node instead.
See course/04_ops_and_reductions.
"""
from ..autograd.function import Function
from ._util import wrap, xp_of
from .. import tensor as _t

Tensor = _t.Tensor
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def parse(equation, operands):
    """``(input subscripts, output subscript)`` with every ``...`` replaced by explicit letters.

    >>> import tensorlab as t
    >>> parse("...ij,jk", [t.ones(2, 3, 4), t.ones(4, 5)])
    (['aij', 'jk'], 'aik')
    """
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    inputs = lhs.split(",")
    if len(inputs) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(inputs) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    used = set(equation) - set(".,->")
    spare = [c for c in _LETTERS if c not in used]
    n_ellipsis = max((t.dim() - len(s.replace("...", "")) for s, t in zip(inputs, operands) if "..." in s),
                     default=0)
    ellipsis = "".join(spare[:n_ellipsis])
    explicit = []
    for k, (s, t) in enumerate(zip(inputs, operands)):
        if "..." in s:
            own = t.dim() - len(s.replace("...", ""))
            s = s.replace("...", ellipsis[n_ellipsis - own:] if own else "")
        if len(s) != t.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s)}) does not match the "
                               f"number of dimensions ({t.dim()}) for operand {k} and no ellipsis was given")
        explicit.append(s)
    if arrow:
        output = rhs.replace("...", ellipsis)
        for c in output:
            if not any(c in s for s in explicit):
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                                   "operand")
    else:  # implicit output: the ellipsis dims, then the letters used once, in alphabetical order
        counts = "".join(explicit)
        output = ellipsis + "".join(sorted(c for c in set(counts) if counts.count(c) == 1 and c not in ellipsis))
    _check_sizes(explicit, operands)
    return explicit, output


def _check_sizes(subscripts, operands):
    """A letter must have one size everywhere (size 1 broadcasts)."""
    sizes = {}
    for k, (s, t) in enumerate(zip(subscripts, operands)):
        for c, n in zip(s, t._shape):
            seen = sizes.get(c, 1)
            if n != 1 and seen != 1 and n != seen:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {k} which does not "
                                   f"broadcast with previously seen size {seen}")
            sizes[c] = max(seen, n) if n != 1 else seen


class Einsum(Function):
    @staticmethod
    def forward(ctx, subscripts, output, *operands):
        dtype = operands[0].dtype
        for t in operands[1:]:
            if t.dtype is not dtype:
                raise RuntimeError(f"expected scalar type {dtype._legacy[:-6]} but found {t.dtype._legacy[:-6]}")
        equation = ",".join(subscripts) + "->" + output
        xp = xp_of(operands[0])
        out = xp.einsum(equation, *(t._array for t in operands), optimize=len(operands) > 1)
        ctx.save_for_backward(*operands)
        ctx.subscripts, ctx.output = subscripts, output
        return wrap(xp.asarray(out, dtype=dtype.np), operands[0].device)

    @staticmethod
    def backward(ctx, grad):
        operands = ctx.saved_tensors
        grads = [None, None]
        for k, t in enumerate(operands):
            grads.append(_operand_grad(ctx, grad, operands, k) if ctx.needs_input_grad[k + 2] else None)
        return tuple(grads)


def _operand_grad(ctx, grad, operands, k):
    """``einsum('<out>,<others>-><operand k>')``, then broadcast its own summed letters and fill diagonals."""
    own = ctx.subscripts[k]
    others = [(s, t) for j, (s, t) in enumerate(zip(ctx.subscripts, operands)) if j != k]
    available = set(ctx.output).union(*(set(s) for s, _ in others))
    unique = "".join(dict.fromkeys(own))
    reachable = "".join(c for c in unique if c in available)
    g = Einsum.apply([ctx.output] + [s for s, _ in others], reachable, grad, *(t for _, t in others))
    sizes = dict(zip(own, operands[k]._shape))
    for i, c in enumerate(unique):  # letters summed inside operand k alone: the gradient broadcasts
        if c not in available:
            g = g.unsqueeze(i)
    g = g.expand(tuple(sizes[c] if c not in available else g._shape[i] for i, c in enumerate(unique)))
    if len(unique) != len(own):
        g = _onto_diagonals(g, unique, own, sizes)
    return _to_shape(g, operands[k]._shape)


def _to_shape(g, shape):
    """Broadcasting in the forward, undone: where the operand had size 1 the gradient is summed; where the
    gradient has size 1 (the letter had size 1 everywhere else) it is expanded."""
    if g._shape == shape:
        return g
    return g.expand(tuple(max(a, b) for a, b in zip(g._shape, shape))).sum_to_size(shape)


def _onto_diagonals(g, unique, own, sizes):
    """Spread ``g`` (one dim per distinct letter) over ``own`` (letters may repeat) along its diagonals,
    multiplying by identity matrices that tie each repeated dim to its first occurrence."""
    from .creation import eye
    spare = iter(c for c in _LETTERS if c not in own)
    target, eyes = "", []
    for c in own:
        if c in target:
            fresh = next(spare)
            eyes.append((c + fresh, eye(sizes[c], dtype=g.dtype, device=g.device)))
            target += fresh
        else:
            target += c
    return Einsum.apply([unique] + [s for s, _ in eyes], target, g, *(e for _, e in eyes))


def einsum(equation, *operands):
    """Sum of products over index letters: ``einsum('bij,bjk->bik', a, b)`` is a batched matmul."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    for t in operands:
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, not {type(t).__name__}")
    subscripts, output = parse(equation, operands)
    return Einsum.apply(subscripts, output, *operands)


__all__ = ["einsum"]
