"""Several value networks read as one: the weighted mean of their value vectors.

Two TD networks of one game learned from different self-play err in different
places; the mean of their values errs less than either (measured on 2-player
Catan in docs/results/catan.md). ``MeanValueNet`` has the ``values(obs)`` and
``spec`` of a single network, so every agent and search that reads a value
network takes it unchanged.

``SymmetricValueNet`` averages one network over a game's symmetries instead:
a position and its images (Catan's board turned by 120 and 240 degrees) are
equally good, so the mean of the network's values for all of them is a value
of the position too, with the network's errors on each view partly averaged
out. One network call reads all the views (a batch as many times larger).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from boardzero.core.api import Symmetry
from boardzero.core.errors import ConfigError
from boardzero.nn.base import Network


class MeanValueNet(Network):
    """``values(obs)``: the mean of ``nets``' value vectors, weighted by ``weights`` (default: equal)."""

    def __init__(self, nets: Sequence[Network], weights: Sequence[float] | None = None, *, what: str = "mean_with"):
        super().__init__()
        if not nets:
            raise ConfigError(what, "needs at least one network")
        first = nets[0].spec.to_dict()
        for i, net in enumerate(nets[1:], 1):
            if net.spec.to_dict() != first:
                raise ConfigError(
                    what,
                    f"network {i + 1} reads {net.spec.to_dict()}, not the first's {first}; "
                    f"only networks of the same game, observation and shape can be averaged",
                )
        weights = [1.0] * len(nets) if weights is None else [float(w) for w in weights]
        if len(weights) != len(nets) or not all(w > 0 for w in weights):
            raise ConfigError(what, f"needs one positive weight per network ({len(nets)}), got {weights}")
        self.nets = nn.ModuleList(nets)
        self.members = list(nets)  # the same networks, typed (the ModuleList registers their parameters)
        self.spec = nets[0].spec
        self.weights = [w / sum(weights) for w in weights]

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        """float[B, P]: the weighted mean of the networks' seat-relative value vectors."""
        total: torch.Tensor | None = None
        for weight, net in zip(self.weights, self.members):
            part = net.values(obs).float() * weight
            total = part if total is None else total + part
        assert total is not None  # at least one network, checked at construction
        return total


class SymmetricValueNet(Network):
    """``values(obs)``: the mean of ``net``'s value vectors for each observation and its images under
    ``symmetries`` (a game's ``symmetries()``, which leave seats and values unchanged)."""

    gathers: torch.Tensor  # a buffer: [V, size] where each input of view k comes from

    def __init__(self, net: Network, symmetries: Sequence[Symmetry], *, what: str = "symmetries"):
        super().__init__()
        if not symmetries:
            raise ConfigError(what, "this game declares no symmetries to average over")
        key = net.spec.observation_key
        missing = [s.name for s in symmetries if key not in s.observation]
        if missing:
            raise ConfigError(what, f"symmetries {missing} do not map the observation {key!r} the network reads")
        self.net = net
        self.spec = net.spec
        # row k of the gathers: where each input of view k comes from in the flattened observation
        size = int(np.prod(net.spec.input_shape))
        self.register_buffer(
            "gathers",
            torch.as_tensor(
                np.stack([np.arange(size)] + [np.asarray(s.observation[key], np.int64) for s in symmetries])
            ),
            persistent=False,
        )

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        """float[B, P]: the mean over the views of the network's seat-relative value vectors."""
        flat = obs.reshape(obs.shape[0], -1)
        views = flat[:, self.gathers]  # [B, V, size]
        batch = views.transpose(0, 1).reshape(-1, *obs.shape[1:])  # view-major, so a view's rows stay together
        return self.net.values(batch).float().reshape(len(self.gathers), obs.shape[0], -1).mean(0)
