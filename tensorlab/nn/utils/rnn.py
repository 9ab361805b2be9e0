"""``nn.utils.rnn``: batching sequences of different lengths.

``pad_sequence`` stacks sequences of shape ``(L_i, *)`` into one tensor, filling the short ones up
with ``padding_value`` -- the usual ``collate_fn`` for text or time series. It is built from ``cat``
and ``stack``, so gradients flow back to every sequence. See course/18_data_and_transforms and
course/21_sequences.

    >>> import tensorlab as torch
    >>> pad_sequence([torch.ones(2), torch.ones(3)], batch_first=True, padding_value=-1)
    tensor([[ 1.,  1., -1.],
            [ 1.,  1.,  1.]])
"""
from ...ops.creation import full
from ...ops import cat, stack

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """``(max_len, B, *)`` -- or ``(B, max_len, *)`` with ``batch_first`` -- from ``B`` sequences of
    shape ``(L_i, *)``, padded on ``padding_side`` ("right" or "left")."""
    if padding_side not in ("right", "left"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences)
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        missing = longest - s.shape[0]
        if missing:
            fill = full((missing, *s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
            s = cat([s, fill] if padding_side == "right" else [fill, s])
        padded.append(s)
    return stack(padded, 0 if batch_first else 1)
