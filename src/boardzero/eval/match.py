"""Games played for records and statistics: every move kept, and chance drawn from a key of the game alone
(``agents.play.play_game`` plays them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.play import play_game
from boardzero.core.api import CHANCE, Game, State


@dataclass
class PlayedGame:
    state: State  # the final position
    moves: list[tuple[int, int]]  # (player, action) for every step, CHANCE as the player of chance outcomes

    @property
    def decisions(self) -> int:
        """Player actions (chance outcomes not counted)."""
        return sum(player != CHANCE for player, _ in self.moves)


def play_seeded(game: Game, agents: Sequence[Agent], key: Sequence[int]) -> PlayedGame:
    """Play one game whose setup seed and chance draws come from ``key`` alone (e.g. ``(seed, game index)``),
    so a game's result does not depend on which worker plays it or on the games before it."""
    rng = np.random.default_rng(list(key))
    moves: list[tuple[int, int]] = []
    final = play_game(
        game,
        agents,
        rng,
        seed=int(rng.integers(2**31)),
        on_step=lambda _state, player, action: moves.append((player, action)),
    )
    return PlayedGame(final, moves)
