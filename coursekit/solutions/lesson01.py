"""Reference solutions of course/01_tensors.ipynb's exercises (checks: coursekit/lesson01.py)."""
import tensorlab as torch

# Exercise 1: the dtypes of the eight lines of the table, in order.
dtypes = (torch.int64, torch.float32, torch.float32, torch.float32, torch.int32, torch.int64,
          torch.float32, torch.int64)


# Exercise 2: the mean of integer counts, as a float32 0-d tensor.
def mean_of(counts):
    return counts.float().mean()  # or counts.mean(dtype=torch.float32), or counts.sum() / len(counts)


# Exercise 3: a tensor that shares the array's memory, and one that is a copy (both keep its dtype).
def two_tensors(a):
    return torch.from_numpy(a), torch.tensor(a)
