"""Several value networks read as one: the weighted mean of their value vectors.

Two TD networks of one game learned from different self-play err in different
places; the mean of their values errs less than either (measured on 2-player
Catan in docs/training.md). ``MeanValueNet`` has the ``values(obs)`` and
``spec`` of a single network, so every agent and search that reads a value
network takes it unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from boardzero.core.errors import ConfigError


class MeanValueNet(nn.Module):
    """``values(obs)``: the mean of ``nets``' value vectors, weighted by ``weights`` (default: equal)."""

    def __init__(self, nets: Sequence[nn.Module], weights: Sequence[float] | None = None, *, what: str = "mean_with"):
        super().__init__()
        if not nets:
            raise ConfigError(what, "needs at least one network")
        first = nets[0].spec.to_dict()
        for i, net in enumerate(nets[1:], 1):
            if net.spec.to_dict() != first:
                raise ConfigError(what, f"network {i + 1} reads {net.spec.to_dict()}, not the first's {first}; "
                                        f"only networks of the same game, observation and shape can be averaged")
        weights = [1.0] * len(nets) if weights is None else [float(w) for w in weights]
        if len(weights) != len(nets) or not all(w > 0 for w in weights):
            raise ConfigError(what, f"needs one positive weight per network ({len(nets)}), got {weights}")
        self.nets = nn.ModuleList(nets)
        self.spec = nets[0].spec
        self.weights = [w / sum(weights) for w in weights]

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        """float[B, P]: the weighted mean of the networks' seat-relative value vectors."""
        total = None
        for weight, net in zip(self.weights, self.nets):
            part = net.values(obs).float() * weight
            total = part if total is None else total + part
        return total
