"""Perfect tic-tac-toe: plain minimax over the 5478 reachable positions, memoised.

Positions are given as move lists (cell ids 0..8, seat 0 first), so a solver
can rebuild a position from a seat view's history. Values are from the side
to move: 1 win, 0 draw, -1 loss (with perfect play by both).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

LINE_MASKS = tuple(
    sum(1 << c for c in line)
    for line in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
)
FULL = (1 << 9) - 1
ILLEGAL = -128  # move_values entry of a taken cell


def _has_line(bits: int) -> bool:
    return any(bits & m == m for m in LINE_MASKS)


@cache
def _value(mover: int, other: int) -> int:
    """Minimax value for the side to move with stones ``mover`` against ``other`` (no line yet)."""
    if mover | other == FULL:
        return 0
    best = -1
    for cell in range(9):
        bit = 1 << cell
        if (mover | other) & bit:
            continue
        if _has_line(mover | bit):
            return 1
        best = max(best, -_value(other, mover | bit))
        if best == 1:
            break
    return best


def _boards(history: Sequence[int]) -> tuple[int, int]:
    """(mover's stones, opponent's stones) after ``history``; ValueError on a bad or finished game."""
    boards = [0, 0]
    for ply, cell in enumerate(history):
        cell = int(cell)
        if not 0 <= cell < 9:
            raise ValueError(f"move {ply}: cell {cell} is not 0..8")
        if (boards[0] | boards[1]) & (1 << cell):
            raise ValueError(f"move {ply}: cell {cell} is already taken")
        if _has_line(boards[0]) or _has_line(boards[1]):
            raise ValueError(f"move {ply}: the game was already won")
        boards[ply % 2] |= 1 << cell
    mover = len(history) % 2
    if _has_line(boards[0]) or _has_line(boards[1]) or boards[0] | boards[1] == FULL:
        raise ValueError("the game is already over")
    return boards[mover], boards[1 - mover]


def position_value(history: Sequence[int]) -> int:
    """Value for the side to move after ``history``: 1 win, 0 draw, -1 loss."""
    return _value(*_boards(history))


def move_values(history: Sequence[int]) -> np.ndarray:
    """int[9]: the mover's result after each cell (1/0/-1), ILLEGAL for taken cells."""
    mover, other = _boards(history)
    out = np.full(9, ILLEGAL, dtype=np.int64)
    for cell in range(9):
        bit = 1 << cell
        if (mover | other) & bit:
            continue
        if _has_line(mover | bit):
            out[cell] = 1
        elif (mover | other | bit) == FULL:
            out[cell] = 0
        else:
            out[cell] = -_value(other, mover | bit)
    return out


def best_moves(history: Sequence[int]) -> np.ndarray:
    """The cells that keep the best achievable result."""
    values = move_values(history)
    legal = values != ILLEGAL
    return np.flatnonzero(legal & (values == values[legal].max()))
