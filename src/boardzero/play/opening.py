"""Random opening moves, so that two deterministic agents play varied games instead of one game over and over."""

from __future__ import annotations

import numpy as np

from boardzero.agents.base import Agent


class RandomOpening(Agent):
    """Plays uniformly random moves for the first ``plies`` entries of the history, then defers to ``agent``.

    The random moves come from ``rng`` when given (one generator shared by every seat of a game makes the
    opening a function of that generator's seed, so games with the seats swapped can share it), else from
    the rng ``act`` gets.
    """

    def __init__(self, agent: Agent, plies: int, rng: np.random.Generator | None = None):
        self.agent, self.plies, self.rng = agent, plies, rng
        self.spec = agent.spec
        self.full_sight = agent.full_sight  # the runner hands the wrapped agent the view it asked for

    def reset(self) -> None:
        self.agent.reset()

    def act(self, view, rng: np.random.Generator) -> int:
        if len(view.history) < self.plies:
            return int((self.rng or rng).choice(view.legal_actions))
        return self.agent.act(view, rng)
