"""The cross-dimensional network: a convolutional branch over the board and a dense branch over the rest of
the observation, exchanging information in every block.

It reads a game's flat observation and places it on the game's grid with the
game's ``BoardLayout`` (for Catan, brick coordinates: a 3 x 5 kernel covers a
hex with its corners and sides). In every residual block the board planes get
the dense features broadcast over every cell ("inflation"), and the dense
vector gets each channel's mean and variance over the grid ("deflation"). Spatial actions (settlements, cities, roads, robber moves) take
their logits from output channels at their own cell; the others, and the value
per seat, come from the dense vector joined with the deflated planes.
"""

from __future__ import annotations

import torch
from torch import nn

from boardzero.core.layout import BoardLayout
from boardzero.nn.base import Network, masked_logits
from boardzero.nn.spec import NetworkSpec


def _deflate(x: torch.Tensor) -> torch.Tensor:
    """[B, C, H, W] -> [B, 2C]: mean and variance of each channel over the grid (in float32, whose channels-last
    reductions are about 10x faster on CPU than torch.var_mean's)."""
    x = x.float()
    mean = x.mean(dim=(2, 3))
    return torch.cat([mean, (x * x).mean(dim=(2, 3)) - mean * mean], dim=1)


class XdimBlock(nn.Module):
    """Two cross-dimensional layers with a residual path around them on both branches."""

    def __init__(self, channels: int, width: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, (3, 5), padding=(1, 2))
        self.conv2 = nn.Conv2d(channels, channels, (3, 5), padding=(1, 2))
        self.inflate1 = nn.Linear(width, channels)
        self.inflate2 = nn.Linear(width, channels)
        self.dense1 = nn.Linear(width, width)
        self.dense2 = nn.Linear(width, width)
        self.deflate1 = nn.Linear(2 * channels, width)
        self.deflate2 = nn.Linear(2 * channels, width)
        self.norm_x = nn.GroupNorm(1, channels)
        self.norm_d = nn.LayerNorm(width)

    def forward(self, x, d):
        y = torch.relu(self.conv1(x) + self.inflate1(d)[:, :, None, None])
        e = torch.relu(self.dense1(d) + self.deflate1(_deflate(x)))
        y2 = self.conv2(y) + self.inflate2(e)[:, :, None, None]
        e2 = self.dense2(e) + self.deflate2(_deflate(y))
        return torch.relu(self.norm_x(x + y2)), torch.relu(self.norm_d(d + e2))


class CrossDimensional(Network):
    # buffers (index tensors that place the observation and the actions), declared for the type checker
    grid_source: torch.Tensor
    grid_target: torch.Tensor
    grid_ones: torch.Tensor
    vector_source: torch.Tensor
    spatial_actions: torch.Tensor
    spatial_slots: torch.Tensor
    other_actions: torch.Tensor

    def __init__(self, spec: NetworkSpec, layout: BoardLayout):
        super().__init__()
        self.spec = spec
        c, w = spec.channels, spec.hidden
        h, wd = layout.height, layout.width
        self.grid_shape = (layout.channels, h, wd)
        self.register_buffer("grid_source", torch.from_numpy(layout.grid_source), persistent=False)
        self.register_buffer("grid_target", torch.from_numpy(layout.grid_target), persistent=False)
        self.register_buffer("grid_ones", torch.from_numpy(layout.grid_ones), persistent=False)
        self.register_buffer("vector_source", torch.from_numpy(layout.vector_source), persistent=False)
        spatial = torch.from_numpy(layout.action_target)
        self.register_buffer("spatial_actions", torch.nonzero(spatial >= 0).flatten(), persistent=False)
        self.register_buffer("spatial_slots", spatial[spatial >= 0], persistent=False)
        self.register_buffer("other_actions", torch.nonzero(spatial < 0).flatten(), persistent=False)
        self.stem_x = nn.Conv2d(layout.channels, c, (3, 5), padding=(1, 2))
        self.stem_d = nn.Linear(layout.vector_size, w)
        self.blocks = nn.ModuleList([XdimBlock(c, w) for _ in range(spec.blocks)])
        self.action_planes = nn.Conv2d(c, layout.action_channels, 1)
        joined = w + 2 * c
        self.other_logits = nn.Linear(joined, int((spatial < 0).sum()))
        self.value = nn.Sequential(nn.Linear(joined, w), nn.ReLU(), nn.Linear(w, spec.num_players))
        # CPU convolutions run faster channels-last (see nets.py); torch's stubs lack Module.to's memory_format
        self.to(memory_format=torch.channels_last)  # type: ignore[call-overload]

    def place(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Flat observations [B, F] -> board planes [B, C, H, W] and the dense vector [B, V]."""
        batch = obs.shape[0]
        grid = obs.new_zeros(batch, self.grid_shape[0] * self.grid_shape[1] * self.grid_shape[2])
        grid[:, self.grid_target] = obs[:, self.grid_source]
        grid[:, self.grid_ones] = 1.0
        return grid.view(batch, *self.grid_shape), obs[:, self.vector_source]

    def trunk(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        grid, vector = self.place(obs.flatten(1))
        x = torch.relu(self.stem_x(grid.contiguous(memory_format=torch.channels_last)))
        d = torch.relu(self.stem_d(vector))
        for block in self.blocks:
            x, d = block(x, d)
        return x, torch.cat([d, _deflate(x)], dim=1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.trunk(obs)
        return self.policy_logits(features, mask), self.value(features[1])

    def policy_logits(self, features: tuple[torch.Tensor, torch.Tensor], mask: torch.Tensor) -> torch.Tensor:
        x, joined = features
        planes = self.action_planes(x).flatten(1)
        other = self.other_logits(joined)
        logits = other.new_zeros(x.shape[0], self.spec.num_actions)
        logits[:, self.spatial_actions] = planes[:, self.spatial_slots].to(other.dtype)
        logits[:, self.other_actions] = other
        return masked_logits(logits, mask)

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        return self.value(self.trunk(obs)[1])
