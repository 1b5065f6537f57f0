"""The agent interface: a seat view and an rng in, an action id out."""

from __future__ import annotations

import abc
from dataclasses import dataclass

import numpy as np

from boardzero.core.view import SeatView


@dataclass(frozen=True)
class MoveAdvice:
    action: int
    weight: float  # the agent's preference: share of the search's visits, policy probability, or 1 for its pick
    value: float | None  # expected return of the move for the seat to move, where the agent estimates one


@dataclass(frozen=True)
class Advice:
    """What an agent would do in a position: its top moves (best first) and how it rates the position."""

    moves: list[MoveAdvice]
    values: np.ndarray | None  # [P] expected return of each seat (absolute order); None without an estimate


class Agent(abc.ABC):
    """A decision maker for one seat. Never sees the true state, only a ``SeatView``."""

    spec: str = "agent"  # the string that built it, e.g. "mcts:sims=400"
    # True only for comparisons with programs that read hidden cards: the match runner then hands this agent a
    # FullSightView (core/view.py) with the true state; every other agent sees only its seat
    full_sight: bool = False

    @abc.abstractmethod
    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        """Choose a legal action id for ``view.seat``."""

    def advise(self, view: SeatView, rng: np.random.Generator, *, top: int = 3) -> Advice:
        """The agent's top moves here and its estimate of each seat's return (for hints to a person).
        By default its one pick with no estimate; agents that search or have a value network say more."""
        return Advice([MoveAdvice(self.act(view, rng), 1.0, None)], None)

    def reset(self) -> None:
        """Forget anything kept from a previous game (search trees, caches)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def ranked_advice(
    weights: np.ndarray, legal: np.ndarray, values: np.ndarray | None, top: int, move_values: np.ndarray | None = None
) -> Advice:
    """Advice from per-action ``weights`` (visits or priors): the ``top`` legal moves by weight, best first,
    each with its share of the legal weight and its value from ``move_values`` (nan: unknown)."""
    weights = np.where(legal, np.asarray(weights, np.float64), 0.0)
    total = weights.sum()
    order = [int(a) for a in np.argsort(-weights, kind="stable")[:top] if weights[a] > 0]
    if not order:
        order = [int(a) for a in np.flatnonzero(legal)[:1]]
        total = 1.0
    moves = []
    for a in order:
        value = None if move_values is None or np.isnan(move_values[a]) else float(move_values[a])
        moves.append(MoveAdvice(a, float(weights[a] / total) if total > 0 else 1.0, value))
    return Advice(moves, None if values is None else np.asarray(values, np.float64))
