"""Masked logits for a policy of one's own (docs/python.md, "From Stable-Baselines3 / MaskablePPO /
CleanRL"): forbidden actions get the lowest finite value of the logits' dtype, so a softmax gives
them no probability, and a row whose mask allows nothing is left as it was instead of becoming
all -inf (which gives NaN). Works on torch tensors and numpy arrays alike; memplace never imports torch."""

from __future__ import annotations

import sys

import numpy as np

__all__ = ["masked_logits"]


def masked_logits(logits, mask):
    """`logits` with the entries `mask` forbids set to the dtype's lowest finite value. `mask`: a
    bool or 0/1 array (numpy or torch) of the same shape, e.g. env.action_masks(); a row that
    allows nothing keeps its logits."""
    if hasattr(logits, "masked_fill"):  # a torch tensor: torch is imported already
        torch = sys.modules["torch"]

        allowed = torch.as_tensor(np.asarray(mask) if not torch.is_tensor(mask) else mask,
                                  device=logits.device).to(torch.bool)
        if allowed.shape != logits.shape:
            raise ValueError(f"masked_logits: mask shape {tuple(allowed.shape)} is not the "
                             f"logits' {tuple(logits.shape)}")
        keep = allowed | ~allowed.any(dim=-1, keepdim=True)
        return logits.masked_fill(~keep, torch.finfo(logits.dtype).min)
    logits = np.asarray(logits)
    if not np.issubdtype(logits.dtype, np.floating):
        raise TypeError(f"masked_logits: logits must be floats, got {logits.dtype}")
    allowed = np.asarray(mask).astype(bool)
    if allowed.shape != logits.shape:
        raise ValueError(f"masked_logits: mask shape {allowed.shape} is not the logits' "
                         f"{logits.shape}")
    keep = allowed | ~allowed.any(axis=-1, keepdims=True)
    return np.where(keep, logits, np.finfo(logits.dtype).min)
