"""Positions for benchmarks: random Connect 4 (or any game's) positions, shared by the bench scripts."""

from __future__ import annotations

import numpy as np


def random_positions(game, count: int, rng: np.random.Generator, low: int, high: int) -> list:
    """``count`` positions reached by ``low``..``high`` random moves from the start (games that end are skipped)."""
    positions = []
    while len(positions) < count:
        state = game.new_state()
        for _ in range(int(rng.integers(low, high + 1))):
            state.apply(int(rng.choice(state.legal_actions())))
            if state.is_terminal():
                break
        if not state.is_terminal():
            positions.append(state)
    return positions
