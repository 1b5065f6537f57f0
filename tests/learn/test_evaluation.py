"""Periodic evaluation: the trained agent takes every seat in turn, and its score is counted from its own seat."""

import numpy as np
import pytest

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.learn.config import EvalConfig
from boardzero.learn.evaluation import against_opponents, score


class SeatRecorder(Agent):
    """A random player that notes the seat of every game it plays (its first decision of each game)."""

    def __init__(self, game):
        self.inner = make_agent("random", game)
        self.spec = "random"
        self.seats: list[int] = []
        self._new_game = True

    def reset(self) -> None:
        self._new_game = True

    def act(self, view, rng):
        if self._new_game:
            self.seats.append(view.seat)
            self._new_game = False
        return self.inner.act(view, rng)


@pytest.mark.parametrize("name,options,games", [("tictactoe", {}, 6), ("kuhn_poker", {"players": 3}, 9)])
def test_score_rotates_the_agent_over_every_seat(name, options, games):
    game = make(name, **options)
    agent = SeatRecorder(game)
    score(game, agent, lambda: make_agent("random", game), games, np.random.default_rng(0))
    assert sorted(agent.seats) == sorted(list(range(game.num_players)) * (games // game.num_players))


def test_training_evaluation_against_opponents_rotates_seats_too():
    game = make("tictactoe")
    agent = SeatRecorder(game)
    results = against_opponents(game, agent, EvalConfig(opponents=["random"], games=4), np.random.default_rng(1))
    assert set(results) == {"eval/vs_random"}
    assert sorted(agent.seats) == [0, 0, 1, 1]
