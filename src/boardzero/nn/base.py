"""What every network of boardzero shares: the spec it was built from, a value head, and policy logits
restricted to the legal moves. Network bodies (``nn.nets``, ``nn.xdim``) and the networks made of other
networks (``nn.ensemble``) derive from ``Network``, so code that reads ``net.spec`` or ``net.values(obs)``
is typed for any of them."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from boardzero.nn.spec import NetworkSpec

MASKED_LOGIT = -1.0e9  # finite, so a zero target times a masked log-prob stays 0 (no NaN)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get a huge negative logit, so softmax gives them 0."""
    return logits.masked_fill(~mask, MASKED_LOGIT)


class Network(nn.Module):
    """A network built from ``spec``; ``values(obs)`` is its value vector per seat (seat-relative), and bodies
    with a policy also map ``net(obs, mask)`` to (masked logits, values)."""

    spec: NetworkSpec

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        """float[B, P]: the value head alone (value-based methods skip the policy)."""
        raise NotImplementedError

    def trunk(self, obs: torch.Tensor) -> Any:
        """The features both heads read (bodies with a policy)."""
        raise NotImplementedError

    def policy_logits(self, features: Any, mask: torch.Tensor) -> torch.Tensor:
        """The policy head's masked logits from the trunk's ``features`` (bodies with a policy)."""
        raise NotImplementedError
