"""Reference answers to the tensor puzzles (course/build/puzzles.ipynb): each one keeps the rules
of coursekit/build/puzzles.py -- no loops, only ``torch.arange``, ``torch.where``, ``.sum``,
``.shape``, operators, indexing and earlier puzzles."""
import tensorlab as torch


def outer(a, b):
    return a[:, None] * b[None, :]


def eye(n):
    return (torch.arange(n)[:, None] == torch.arange(n)) * 1.0


def diag(a):
    return a[torch.arange(a.shape[0]), torch.arange(a.shape[0])]


def trace(a):
    return diag(a).sum()


def triu(a, k):
    return torch.where(torch.arange(a.shape[1])[None, :] - torch.arange(a.shape[0])[:, None] >= k, a, 0)


def cumsum(a):
    n = a.shape[0]
    return torch.where(torch.arange(n)[None, :] <= torch.arange(n)[:, None], a[None, :], 0).sum(1)


def flip(a):
    return a[a.shape[0] - 1 - torch.arange(a.shape[0])]


def roll(a, s):
    return a[(torch.arange(a.shape[0]) - s) % a.shape[0]]


def one_hot(a, n):
    return (a[:, None] == torch.arange(n)) * 1


def bincount(a, n):
    return one_hot(a, n).sum(0)


def sequence_mask(values, lengths):
    return torch.where(torch.arange(values.shape[1])[None, :] < lengths[:, None], values, 0)


def pad_to(a, j):
    return (a[:, None] * (torch.arange(a.shape[0])[:, None] == torch.arange(j))).sum(0)


def repeat_interleave(a, r):
    return a[torch.arange(a.shape[0] * r) // r]


def linspace(start, stop, n):
    return start + (stop - start) * torch.arange(n) / (n - 1)


def vstack(a, b):
    return torch.where(torch.arange(2)[:, None] == 0, a, b)


def heaviside(a, b):
    return torch.where(a > 0, 1.0, torch.where(a == 0, b, 0.0))


def compress(g, v, i):
    position = cumsum(g * 1) - 1
    return (torch.where(g, v, 0)[:, None] * (position[:, None] == torch.arange(i))).sum(0)


def scatter_add(values, index, n):
    return torch.where(index[:, None] == torch.arange(n), values[:, None], 0).sum(0)
