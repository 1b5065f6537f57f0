"""``td:<checkpoint>``: plays the move whose resulting position a TD-trained value network values most.

It looks at the position after each legal move, as its seat would see it, in
a state drawn by ``view.sample_state`` (hidden cards of the others resampled,
so nothing its seat cannot know enters the choice), and values them all in
one network call; a move that ends the game counts with its true result.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.batched import afterstates_of
from boardzero.core.view import SeatView


class TDAgent(Agent):
    def __init__(self, game: Game, net: nn.Module):
        self.game, self.net = game, net.eval()
        self.key = net.spec.observation_key

    def values(self, view: SeatView, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """(legal moves, seat-relative value vector after each) for ``view``'s seat."""
        from boardzero.learn.td import afterstate_values

        after = afterstates_of(view.sample_state(rng), view.seat, self.key)
        return after.action, afterstate_values(self.net, after, np.full(len(after.action), view.seat))

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return int(legal[0])
        actions, values = self.values(view, rng)
        return int(actions[int(np.argmax(values[:, 0]))])


def td(game: Game, path: str = "") -> Agent:
    """A TD(lambda) value network playing the move whose resulting position it values most.

    path: the checkpoint: a run directory (its newest checkpoint), a checkpoints directory, or a .json file
    """
    from boardzero.agents.az import load_for_play

    return TDAgent(game, load_for_play(game, path, trainers=("td",)))
