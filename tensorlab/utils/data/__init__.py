"""tensorlab.utils.data: feed a model batches of examples.

Three roles, one file each:

* a **Dataset** (dataset.py) answers "what is example ``i``?" (``__getitem__`` + ``__len__``), or,
  for an ``IterableDataset``, yields examples one after another;
* a **Sampler** (sampler.py) decides the *order* of the indices -- in sequence, shuffled, a subset
  -- and a ``BatchSampler`` groups them into lists of ``batch_size``;
* the **DataLoader** (dataloader.py) glues them: for each list of indices it fetches the examples
  and ``collate_fn`` (collate.py) stacks them into batch tensors.

See course/18_data_and_transforms.
"""
from .collate import default_collate, default_convert
from .dataloader import DataLoader, get_worker_info
from .dataset import ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset", "RandomSampler",
           "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset",
           "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info", "random_split"]
