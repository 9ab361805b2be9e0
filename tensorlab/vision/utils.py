"""Look at a batch at once: ``make_grid`` tiles images into one, ``save_image`` writes it as a PNG.

The layout is torchvision's: ``nrow`` images per row, ``padding`` pixels of ``pad_value`` around and
between them. A batch ``B x C x H x W`` becomes one ``C x (rows*(H+p)+p) x (cols*(W+p)+p)`` image,
where ``cols = min(nrow, B)`` and ``rows = ceil(B / cols)``; image k sits in row ``k // cols``,
column ``k % cols``, its top-left corner at ``(p + row*(H+p), p + col*(W+p))``.
Single-channel images are repeated into three (grey RGB), as torchvision does.
"""
import math

import numpy as np


def make_grid(tensor, nrow=8, padding=2, normalize=False, value_range=None, scale_each=False, pad_value=0.0):
    """Tile a batch (``B x C x H x W`` tensor, or a list of ``C x H x W`` tensors) into one image.

    ``normalize=True`` maps values to [0, 1]: clamp to ``value_range = (low, high)`` (default: the
    batch's min and max; with ``scale_each=True`` each image's own) and compute ``(x - low) / (high - low)``.
    """
    batch, dtype = _as_batch(tensor)
    if normalize:
        if value_range is not None and not isinstance(value_range, tuple):
            raise TypeError("value_range has to be a tuple (min, max) if specified. min and max are numbers")
        images = batch if scale_each else [batch]
        for img in images:
            _normalize_in_place(img, value_range)
    if len(batch) == 1:
        return _tensor(batch[0], dtype)
    count, channels, height, width = batch.shape
    cols = min(nrow, count)
    rows = int(math.ceil(count / cols))
    cell_h, cell_w = height + padding, width + padding
    grid = np.full((channels, rows * cell_h + padding, cols * cell_w + padding), pad_value, dtype=batch.dtype)
    for k in range(count):
        top = (k // cols) * cell_h + padding
        left = (k % cols) * cell_w + padding
        grid[:, top:top + height, left:left + width] = batch[k]
    return _tensor(grid, dtype)


def save_image(tensor, fp, format=None, **grid_kwargs):
    """Save a tensor image (or a batch, tiled with ``make_grid(**grid_kwargs)``) as PNG/JPEG via Pillow.

    Values are taken to be in [0, 1]; a pixel is written as ``clamp(round(255 * v), 0, 255)``.
    """
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("save_image writes files with Pillow: pip install pillow "
                          "(or pip install tensorlab[vision]).") from None
    grid = make_grid(tensor, **grid_kwargs).numpy()
    pixels = np.clip(grid * 255 + 0.5, 0, 255).astype(np.uint8).transpose(1, 2, 0)
    if pixels.shape[2] == 1:
        pixels = pixels[:, :, 0]
    Image.fromarray(np.ascontiguousarray(pixels)).save(fp, format=format)


def _as_batch(tensor):
    """A ``B x C x H x W`` NumPy copy of the input (1-channel -> 3), and the tensor dtype to return."""
    from ..tensor import Tensor
    if isinstance(tensor, (list, tuple)) and tensor and all(isinstance(t, Tensor) for t in tensor):
        dtype = tensor[0].dtype
        shapes = {tuple(t.shape) for t in tensor}
        if len(shapes) != 1:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got shapes {sorted(shapes)}")
        batch = np.stack([t.detach().cpu().numpy() for t in tensor])
    elif isinstance(tensor, Tensor):
        dtype, batch = tensor.dtype, tensor.detach().cpu().numpy().copy()
    else:
        raise TypeError(f"tensor or list of tensors expected, got {type(tensor)}")
    if batch.ndim == 2:                         # one H x W image
        batch = batch[None]
    if batch.ndim == 3:                         # one C x H x W image
        batch = batch[None]
    if batch.ndim != 4:
        raise ValueError(f"make_grid expects images of shape (H, W), (C, H, W) or (B, C, H, W), "
                         f"got {batch.ndim} dimensions")
    if batch.shape[1] == 1:
        batch = np.concatenate([batch] * 3, axis=1)
    return batch, dtype


def _normalize_in_place(img, value_range):
    low, high = value_range if value_range is not None else (float(img.min()), float(img.max()))
    np.clip(img, low, high, out=img)
    img -= np.asarray(low, dtype=img.dtype)
    img /= np.asarray(max(high - low, 1e-5), dtype=img.dtype)


def _tensor(array, dtype):
    from .. import from_numpy
    return from_numpy(np.ascontiguousarray(array, dtype=dtype.np))
