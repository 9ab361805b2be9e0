"""Reference solutions of course/02_storage_and_strides.ipynb's exercises (checks: coursekit/lesson02.py)."""
import tensorlab as torch  # noqa: F401 - the solutions are written as in the lesson

# Exercise 1: with t = torch.zeros(2, 3, 4), the strides (or offset) of each line of the table.
layouts = ((12, 4, 1), 4, (1, 12, 4), (4, 12, 1), (12, 1), (12, 4, 2), 20, (6, 3, 1))


# Exercise 2: where element `index` of `t` lives in its storage, by the position formula.
def position(t, index):
    return t.storage_offset() + sum(i * s for i, s in zip(index, t.stride()))


# Exercise 3: PyTorch's contiguity rule, from the shape and the strides alone.
def is_contiguous(t):
    expected = 1                     # what the stride of the next dim (from the right) must be
    for size, stride in zip(reversed(t.shape), reversed(t.stride())):
        if size == 1:                # never stepped along: its stride does not matter
            continue
        if stride != expected:
            return False
        expected *= size
    return True
