"""The agent interface: a seat view and an rng in, an action id out."""

from __future__ import annotations

import abc

import numpy as np

from boardzero.core.view import SeatView


class Agent(abc.ABC):
    """A decision maker for one seat. Never sees the true state, only a ``SeatView``."""

    spec: str = "agent"  # the string that built it, e.g. "mcts:sims=400"
    # True only for comparisons with programs that read hidden cards: the match runner then hands this agent a
    # FullSightView (core/view.py) with the true state; every other agent sees only its seat
    full_sight: bool = False

    @abc.abstractmethod
    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        """Choose a legal action id for ``view.seat``."""

    def reset(self) -> None:
        """Forget anything kept from a previous game (search trees, caches)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"
