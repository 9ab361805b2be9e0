"""Reference solutions of course/03_views_and_broadcasting.ipynb's exercises (checks: coursekit/lesson03.py)."""
import tensorlab as torch  # noqa: F401 - the solutions are written as in the lesson

# Exercise 1: with x = torch.arange(12).view(3, 4), which results share x's storage (True: a view)?
views = (False, True, False, True, True, False, True, False)

# Exercise 2: the shape of a + b for tensors of these shapes, or "error".
shapes = ((3, 4), (2, 3), "error", (5, 3, 4), (2, 2, 3), "error", (2, 3))


# Exercise 3: the column `col` (shape (n, 1)) read k times, as an (n, k) view -- no copy.
def stretch(col, k):
    return col.expand(-1, k)


# Exercise 4: the gradient of an operand of shape `shape` that was broadcast to grad.shape.
def unbroadcast(grad, shape):
    extra = grad.dim() - len(shape)
    if extra:                                    # dims the operand did not have: summed away
        grad = grad.sum(dim=tuple(range(extra)))
    stretched = tuple(d for d, n in enumerate(shape) if n == 1 and grad.shape[d] != 1)
    if stretched:                                # dims where it had size 1: summed, kept as size 1
        grad = grad.sum(dim=stretched, keepdim=True)
    return grad                                  # (grad.sum_to_size(shape) does the same)
