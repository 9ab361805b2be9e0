"""Reference solutions of course/18_data_and_transforms.ipynb's exercises (checks: coursekit/lesson18.py)."""
import tensorlab as torch
from tensorlab.utils.data import Dataset

# Exercise 1: ceil(10/4) = 3 batches, floor = 2 with drop_last; the last batch has 2 rows;
# ceil(1438/64) = 23, floor = 22; a batch of 64 images (1, 8, 8); Python ints collate to int64.
predictions = (3, 2, (2, 3), 23, 22, (64, 1, 8, 8), torch.int64)


# Exercise 2: a window needs k values and one more to predict, so there are len(series) - k of them.
class Windows(Dataset):
    def __init__(self, series, k):
        self.series, self.k = series, k

    def __len__(self):
        return len(self.series) - self.k

    def __getitem__(self, i):
        return self.series[i:i + self.k], self.series[i + self.k]


# Exercise 3: random_split by hand -- fractions become floor(n * f) items, the leftover ones go one each
# to the first splits; then one permutation from the generator, cut in order.
def split_indices(n, lengths, generator):
    if all(isinstance(x, float) for x in lengths):
        counts = [int(n * x) for x in lengths]          # floor, for fractions between 0 and 1
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    order = torch.randperm(n, generator=generator).tolist()
    splits, start = [], 0
    for length in lengths:
        splits.append(order[start:start + length])
        start += length
    return splits
