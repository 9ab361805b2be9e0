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
