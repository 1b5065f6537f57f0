"""Chance as a player: the two pseudo-seats a state's ``current_player`` may hold besides a real seat, and
drawing a chance outcome by its probabilities with one uniform number, from a generator or keyed by a seed
and a key (a session's key: the outcome's lane and the count drawn in that lane, ``chance_key``).

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


_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    """splitmix64's output function of ``x + golden gamma``: a bijection of 64-bit words that mixes every
    input bit into every output bit (Steele, Lea and Flood, 2014)."""
    z = (x + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def keyed_uniform(seed: int, key: int) -> float:
    """A uniform number in [0, 1) that depends on ``(seed, key)`` alone (53 random bits of a splitmix64 hash;
    ``key`` is any integer, a session's ``chance_key``): a chance stream that needs no generator object, so
    games with one seed draw the same number for the same key whatever was drawn before. ``seed`` and ``key``
    are integers in 0 .. 2**64 - 1."""
    if not (0 <= seed <= _MASK64 and 0 <= key <= _MASK64):
        raise ValueError(f"keyed_uniform takes a seed and a key in 0 .. 2**64 - 1, got seed {seed} and key {key}")
    return (_splitmix64(_splitmix64(seed) ^ key) >> 11) * 2.0**-53


def chance_key(lane: int, count: int) -> int:
    """The key of the ``count``-th chance outcome (from 0) drawn in ``lane``: one integer per (lane, count)."""
    if not (0 <= lane < 2**16 and 0 <= count < 2**47):
        raise ValueError(
            f"chance_key takes a lane in 0 .. 2**16 - 1 and a count in 0 .. 2**47 - 1, got {lane}, {count}"
        )
    return lane << 47 | count


def keyed_chance(state: _AtChance, seed: int, key: int) -> int:
    """Draw a chance outcome of ``state`` by its probabilities with ``keyed_uniform(seed, key)``."""
    return state.chance_outcome_at(keyed_uniform(seed, key))


def chance_outcome_by_table(outcomes: list[tuple[int, float]], u: float) -> int:
    """The outcome whose slice of [0, 1) holds ``u``, the slices laid out by the (normalised)
    probabilities in order, as ``np.random.Generator.choice`` lays them out."""
    if not outcomes:
        raise ValueError("not a chance node: no chance outcomes")
    probs = np.fromiter((p for _, p in outcomes), dtype=np.float64, count=len(outcomes))
    cdf = np.cumsum(probs / probs.sum())
    cdf /= cdf[-1]
    return outcomes[min(int(np.searchsorted(cdf, u, side="right")), len(outcomes) - 1)][0]
