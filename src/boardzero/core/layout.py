"""How a game's flat observation and its actions sit on a 2-D grid, for networks with a board branch.

A game that has one returns it from ``Game.board_layout()``. The flat
observation splits into entries placed on the grid (each with a channel, row and
column) and the rest, a plain vector; some actions belong to a grid cell (read
from one output channel there), the others are not spatial.
"""

from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True, eq=False)
class BoardLayout:
    channels: int  # input channels of the grid
    height: int
    width: int
    grid_source: np.ndarray  # [K] index into the flat observation
    grid_target: np.ndarray  # [K] flat index into [channels, height, width]
    grid_ones: np.ndarray  # [M] flat indices into [channels, height, width] that are always 1 (cell-kind markers)
    vector_source: np.ndarray  # [V] flat observation entries that are not on the grid
    valid: np.ndarray  # [height, width] bool: cells that are part of the board
    action_channels: int  # output channels of spatial action logits
    action_target: np.ndarray  # [A] flat index into [action_channels, height, width], -1 if not spatial

    def __post_init__(self):
        size = self.channels * self.height * self.width
        assert self.grid_source.shape == self.grid_target.shape
        assert self.grid_target.size == 0 or (self.grid_target.min() >= 0 and self.grid_target.max() < size)
        assert len(np.unique(self.grid_target)) == len(self.grid_target), "two entries on one grid slot"
        assert self.valid.shape == (self.height, self.width)
        spatial = self.action_target[self.action_target >= 0]
        assert len(np.unique(spatial)) == len(spatial), "two actions on one output slot"
        assert spatial.size == 0 or spatial.max() < self.action_channels * self.height * self.width

    @property
    def vector_size(self) -> int:
        return len(self.vector_source)
