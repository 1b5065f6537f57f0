"""Uniformly random legal moves."""

from __future__ import annotations

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.view import SeatView


class RandomAgent(Agent):
    """Uniformly random legal moves, in any game."""

    def __init__(self, game: Game):
        self.game = game

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        return int(legal[rng.integers(len(legal))])
