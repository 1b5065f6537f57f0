"""One-ply greedy play for two-player alternating games such as Connect 4.

Win at once if possible; else block: keep to moves after which the opponent
has no immediate win (when the opponent threatens one square, that is the
square that blocks it); else play at random.
"""

from __future__ import annotations

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import Game, State
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView


def _wins_now(state: State, action: int, seat: int) -> bool:
    child = state.clone()
    child.apply(action)
    return child.is_terminal() and child.returns()[seat] > max(np.delete(child.returns(), seat))


class GreedyAgent(Agent):
    """Two-player games without chance: win now if possible, else block an immediate loss, else random."""

    def __init__(self, game: Game):
        if game.num_players != 2 or game.has_chance:
            raise ConfigError("agent greedy", f"needs a two-player game without chance, not {game.name!r}")
        self.game = game

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        state = view.sample_state(rng)
        seat = view.seat
        legal = [int(a) for a in view.legal_actions]
        winning = [a for a in legal if _wins_now(state, a, seat)]
        if winning:
            return winning[rng.integers(len(winning))]
        safe = []
        for action in legal:
            child = state.clone()
            child.apply(action)
            if child.is_terminal() or not any(_wins_now(child, reply, 1 - seat) for reply in child.legal_actions()):
                safe.append(action)
        choices = safe or legal
        return choices[rng.integers(len(choices))]
