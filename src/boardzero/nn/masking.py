"""Policy logits restricted to the legal moves, shared by every network body."""

from __future__ import annotations

import torch

MASKED_LOGIT = -1.0e9  # finite, so a zero target times a masked log-prob stays 0 (no NaN)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get a huge negative logit, so softmax gives them 0."""
    return logits.masked_fill(~mask, MASKED_LOGIT)
