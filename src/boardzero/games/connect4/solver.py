"""An exact Connect 4 solver: bitboards, negamax alpha-beta, a transposition table, move ordering.

The algorithm follows Pascal Pons' well known solver: the position is two
49-bit bitboards (the mover's stones and all stones, 7 bits per column with a
sentinel bit), moves that hand the opponent an immediate win are pruned, moves
are ordered by how many winning spots they create (centre columns first on
ties), and a null-window search over the score bounds stores upper and lower
bounds in a transposition table shared between calls. The hot functions are
compiled with numba (cached on disk after the first run).

Scores are from the side to move: positive = win, 0 = draw, negative = loss.
``weak=True`` (the default everywhere here) only separates win / draw / loss,
which is all an agent needs to keep the best achievable result, and is much
faster than the exact distance to the end.

Cost: positions from about ply 8 on solve in milliseconds to a second; the
empty board and the first few plies can take minutes (the first-player win
from the centre needs a deep proof), so callers that sweep many positions
draw them from later plies (see ``boardzero.eval.accuracy``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

WIDTH, HEIGHT = 7, 6
H1 = HEIGHT + 1
CELLS = WIDTH * HEIGHT
BOTTOM_MASK = sum(1 << (c * H1) for c in range(WIDTH))
BOARD_MASK = BOTTOM_MASK * ((1 << HEIGHT) - 1)
MIN_SCORE = -(CELLS // 2) + 3  # -18: the fastest possible loss
MAX_SCORE = (CELLS + 1) // 2 - 3  # 18: the fastest possible win
COLUMN_ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)  # centre first
TABLE_SIZE = 8388593  # a prime just below 2**23: ~75 MB of keys and values
ILLEGAL = -128  # move_values entry of a full column

LOSS, DRAW, WIN = -1, 0, 1


# --------------------------------------------------------------------------- compiled core
@numba.njit(cache=True, inline="always")
def _tdiv(a, b):
    """Integer division truncating toward zero (as in C)."""
    q = abs(a) // b
    return q if a >= 0 else -q


@numba.njit(cache=True, inline="always")
def _popcount(m):
    count = 0
    while m:
        m &= m - 1
        count += 1
    return count


@numba.njit(cache=True)
def _winning_spots(position, mask):
    """Empty cells where the owner of ``position`` would complete four."""
    # vertical
    r = (position << 1) & (position << 2) & (position << 3)
    # horizontal
    p = (position << H1) & (position << 2 * H1)
    r |= p & (position << 3 * H1)
    r |= p & (position >> H1)
    p = (position >> H1) & (position >> 2 * H1)
    r |= p & (position << H1)
    r |= p & (position >> 3 * H1)
    # diagonal 1
    p = (position << HEIGHT) & (position << 2 * HEIGHT)
    r |= p & (position << 3 * HEIGHT)
    r |= p & (position >> HEIGHT)
    p = (position >> HEIGHT) & (position >> 2 * HEIGHT)
    r |= p & (position << HEIGHT)
    r |= p & (position >> 3 * HEIGHT)
    # diagonal 2
    p = (position << (H1 + 1)) & (position << 2 * (H1 + 1))
    r |= p & (position << 3 * (H1 + 1))
    r |= p & (position >> (H1 + 1))
    p = (position >> (H1 + 1)) & (position >> 2 * (H1 + 1))
    r |= p & (position << (H1 + 1))
    r |= p & (position >> 3 * (H1 + 1))
    return r & (BOARD_MASK ^ mask)


@numba.njit(cache=True, inline="always")
def _possible(mask):
    return (mask + BOTTOM_MASK) & BOARD_MASK


@numba.njit(cache=True, inline="always")
def _column_mask(col):
    return ((1 << HEIGHT) - 1) << (col * H1)


@numba.njit(cache=True)
def _non_losing_moves(position, mask):
    possible = _possible(mask)
    opponent_win = _winning_spots(position ^ mask, mask)
    forced = possible & opponent_win
    if forced:
        if forced & (forced - 1):
            return 0  # two threats at once: every move loses
        possible = forced
    return possible & ~(opponent_win >> 1)  # never play just below an opponent's winning spot


@numba.njit(cache=True)
def _negamax(position, mask, moves, alpha, beta, keys, values, order_moves, order_scores):
    """Score of a position where the mover cannot win at once, within [alpha, beta]."""
    nxt = _non_losing_moves(position, mask)
    if nxt == 0:
        return -((CELLS - moves) // 2)
    if moves >= CELLS - 2:
        return 0
    low = -((CELLS - 2 - moves) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (CELLS - 1 - moves) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    key = position + mask + BOTTOM_MASK
    slot = key % TABLE_SIZE
    if keys[slot] == key:
        val = np.int64(values[slot])
        if val > MAX_SCORE - MIN_SCORE + 1:  # a lower bound
            low = val + 2 * MIN_SCORE - MAX_SCORE - 2
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        else:  # an upper bound
            high = val + MIN_SCORE - 1
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta
    # order: more winning spots created first; centre columns first on ties
    count = 0  # order_moves[moves] / order_scores[moves]: this ply's row of preallocated scratch
    for i in range(WIDTH):
        move = nxt & _column_mask(COLUMN_ORDER[i])
        if move:
            score = _popcount(_winning_spots(position | move, mask))
            j = count
            while j > 0 and order_scores[moves, j - 1] < score:
                order_moves[moves, j] = order_moves[moves, j - 1]
                order_scores[moves, j] = order_scores[moves, j - 1]
                j -= 1
            order_moves[moves, j] = move
            order_scores[moves, j] = score
            count += 1
    for i in range(count):
        move = order_moves[moves, i]
        score = -_negamax(
            position ^ mask, mask | move, moves + 1, -beta, -alpha, keys, values, order_moves, order_scores
        )
        if score >= beta:
            keys[slot] = key
            values[slot] = score + MAX_SCORE - 2 * MIN_SCORE + 2
            return score
        if score > alpha:
            alpha = score
    keys[slot] = key
    values[slot] = alpha - MIN_SCORE + 1
    return alpha


@numba.njit(cache=True)
def _solve(position, mask, moves, weak, keys, values):
    """Exact score (weak: its sign only) of a position where no one has won yet."""
    if moves >= CELLS:
        return 0
    if _winning_spots(position, mask) & _possible(mask):
        return (CELLS + 1 - moves) // 2
    low = -((CELLS - moves) // 2)
    high = (CELLS + 1 - moves) // 2
    if weak:
        low, high = -1, 1
    order_moves = np.zeros((CELLS + 1, WIDTH), dtype=np.int64)
    order_scores = np.zeros((CELLS + 1, WIDTH), dtype=np.int64)
    while low < high:
        med = low + (high - low) // 2
        if med <= 0 and _tdiv(low, 2) < med:
            med = _tdiv(low, 2)
        elif med >= 0 and _tdiv(high, 2) > med:
            med = _tdiv(high, 2)
        r = _negamax(position, mask, moves, med, med + 1, keys, values, order_moves, order_scores)
        if r <= med:
            high = r
        else:
            low = r
    return low


# --------------------------------------------------------------------------- Python interface
def position_from_history(history: Sequence[int]) -> tuple[int, int, int]:
    """(mover's stones, all stones, number of moves) after playing ``history`` (columns) from the empty board.

    Raises ValueError for a full column or a move after the game was won.
    """
    position, mask = 0, 0
    for ply, col in enumerate(history):
        col = int(col)
        if not 0 <= col < WIDTH:
            raise ValueError(f"move {ply}: column {col} is not 0..{WIDTH - 1}")
        if mask & (1 << (HEIGHT - 1 + col * H1)):
            raise ValueError(f"move {ply}: column {col} is full")
        if _is_win(position ^ mask):
            raise ValueError(f"move {ply}: the game was already won")
        move = (mask + (1 << (col * H1))) & _column_mask_py(col)
        position ^= mask
        mask |= move
    return position, mask, len(history)


def _column_mask_py(col: int) -> int:
    return ((1 << HEIGHT) - 1) << (col * H1)


def _is_win(stones: int) -> bool:
    for shift in (1, H1, HEIGHT, H1 + 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


class Connect4Solver:
    """Solves positions given as move lists; the transposition table is kept between calls."""

    def __init__(self, table_size: int = TABLE_SIZE):
        if table_size != TABLE_SIZE:
            raise ValueError("the table size is compiled in; use TABLE_SIZE")
        self.keys = np.zeros(TABLE_SIZE, dtype=np.int64)
        self.values = np.zeros(TABLE_SIZE, dtype=np.int8)

    def score(self, history: Sequence[int], *, weak: bool = True) -> int:
        """Score for the side to move after ``history``; weak: -1 loss, 0 draw, 1 win."""
        position, mask, moves = position_from_history(history)
        if _is_win(position ^ mask):
            raise ValueError("the game is already over")
        value = int(_solve(np.int64(position), np.int64(mask), moves, weak, self.keys, self.values))
        return int(np.sign(value)) if weak else value

    def move_values(self, history: Sequence[int], *, weak: bool = True) -> np.ndarray:
        """int[7]: for each column, the mover's result after playing it (weak: -1/0/1); ILLEGAL if full.

        With ``weak=False`` entries are exact scores (bigger = faster win / slower loss).
        """
        position, mask, moves = position_from_history(history)
        if _is_win(position ^ mask):
            raise ValueError("the game is already over")
        out = np.full(WIDTH, ILLEGAL, dtype=np.int64)
        for col in range(WIDTH):
            if mask & (1 << (HEIGHT - 1 + col * H1)):
                continue
            move = (mask + (1 << (col * H1))) & _column_mask_py(col)
            if _is_win(position | move):
                out[col] = 1 if weak else (CELLS + 1 - moves) // 2
                continue
            child = -int(
                _solve(np.int64(position ^ mask), np.int64(mask | move), moves + 1, weak, self.keys, self.values)
            )
            out[col] = int(np.sign(child)) if weak else child
        return out

    def best_moves(self, history: Sequence[int], *, weak: bool = True) -> np.ndarray:
        """The columns that keep the best achievable result."""
        values = self.move_values(history, weak=weak)
        legal = values != ILLEGAL
        return np.flatnonzero(legal & (values == values[legal].max()))


_DEFAULT: Connect4Solver | None = None


def default_solver() -> Connect4Solver:
    """A process-wide solver, so its transposition table is shared by every caller."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Connect4Solver()
    return _DEFAULT
