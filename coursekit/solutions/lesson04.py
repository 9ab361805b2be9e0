"""Reference solutions of course/04_ops_and_reductions.ipynb's exercises (checks: coursekit/lesson04.py)."""
import tensorlab as torch

# Exercise 1: the shapes of the eight lines of the table, for x of shape (2, 3, 4), w of (4, 5).
shapes = ((2, 4), (2, 1, 4), (3,), (2, 3, 4), (3, 4), (2, 3, 5), (2, 5), (2, 3, 8))


# Exercise 2: divide each row by its own sum, so that every row sums to 1.
def normalize_rows(scores):
    return scores / scores.sum(dim=1, keepdim=True)


# Exercise 3: the n dot products a[i] . b[i] of two (n, d) matrices.
def rowwise_dots(a, b):
    return torch.einsum("nd,nd->n", a, b)  # or (a * b).sum(dim=1)


# Exercise 4: the running mean: element k is the mean of x[0], ..., x[k].
def running_mean(x):
    return x.cumsum(dim=0) / torch.arange(1, len(x) + 1)
