"""Chance as a player: the two pseudo-seats a state's ``current_player`` may hold besides a real seat, and
drawing a chance outcome by its probabilities with one uniform number.

These sit below ``core.api`` so that modules the API itself builds on (``core.batched``) can use them.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

CHANCE = -1  # current_player at a chance node
TERMINAL = -2  # current_player once the game is over


class _AtChance(Protocol):
    def chance_outcome_at(self, u: float) -> int: ...


def sample_chance(state: _AtChance, rng: np.random.Generator) -> int:
    """Draw a chance outcome of ``state`` by its probabilities, with one ``rng.random()`` (the same
    draw and outcome as ``rng.choice(len(outcomes), p=probs)``)."""
    return state.chance_outcome_at(rng.random())


def chance_outcome_by_table(outcomes: list[tuple[int, float]], u: float) -> int:
    """The outcome whose slice of [0, 1) holds ``u``, the slices laid out by the (normalised)
    probabilities in order, as ``np.random.Generator.choice`` lays them out."""
    if not outcomes:
        raise ValueError("not a chance node: no chance outcomes")
    probs = np.fromiter((p for _, p in outcomes), dtype=np.float64, count=len(outcomes))
    cdf = np.cumsum(probs / probs.sum())
    cdf /= cdf[-1]
    return outcomes[min(int(np.searchsorted(cdf, u, side="right")), len(outcomes) - 1)][0]
