"""``tensorlab.functional``: the functions PyTorch writes in Python in ``torch/functional.py``.

Each is ``tensorlab.<name>`` itself (defined in tensorlab/ops/); this module exists so that
``import torch.functional as F`` -- which some tutorials write when they mean ``torch.nn.functional`` --
imports, and ``torch.functional.split`` and the rest are where PyTorch has them.
"""
from .ops import broadcast_shapes, broadcast_tensors, einsum, meshgrid, norm, split, unique, unique_consecutive

__all__ = ["broadcast_shapes", "broadcast_tensors", "einsum", "meshgrid", "norm", "split", "unique",
           "unique_consecutive"]
