"""Connect 4 on the standard 6x7 board.

Action id = column 0..6 (left to right); seat 0 moves first; stones fall to the
lowest empty row. The position is two bitboards (one per seat), so the win test
is four shift-and-mask lines. Returns are +1/-1 for a win/loss and 0/0 for a draw.

Bit layout: column ``c`` uses bits ``7c .. 7c+5`` (row 0 at the bottom); bit
``7c+6`` is a sentinel so shifts never wrap between columns.
"""

from __future__ import annotations

import numpy as np

from boardzero.core.api import TERMINAL, ExactSolver, Game, State, Symmetry, base_public_view, grid_symmetry

ROWS, COLS = 6, 7
COLUMN_BITS = ROWS + 1
BOTTOM_ROW = sum(1 << (COLUMN_BITS * c) for c in range(COLS))
FULL_BOARD = BOTTOM_ROW * ((1 << ROWS) - 1)
WIN_SHIFTS = (1, COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1)  # vertical, horizontal, two diagonals

# (row, col) of each bit of a column-major bitboard, for decoding into planes
_BIT_ROW = np.array([b % COLUMN_BITS for b in range(COLUMN_BITS * COLS)])
_BIT_COL = np.array([b // COLUMN_BITS for b in range(COLUMN_BITS * COLS)])
_PLAYABLE_BITS = np.flatnonzero(_BIT_ROW < ROWS)
_GRID_ROW = ROWS - 1 - _BIT_ROW[_PLAYABLE_BITS]
_GRID_COL = _BIT_COL[_PLAYABLE_BITS]
_PLAYABLE_SHIFTS = _PLAYABLE_BITS.astype(np.uint64)
DISCS_COLOURED = ("\x1b[1;31mX\x1b[0m", "\x1b[1;33mO\x1b[0m")  # red X, yellow O on a terminal


def has_four(bitboard: int) -> bool:
    """Whether a bitboard holds four in a row in any direction."""
    for shift in WIN_SHIFTS:
        pairs = bitboard & (bitboard >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_cells(grid: np.ndarray) -> list[list[int]]:
    """[row, column] of every disc of ``grid`` (bool[ROWS, COLS]) that is part of four in a row."""
    cells = set()
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(ROWS):
            for c in range(COLS):
                line = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= i < ROWS and 0 <= j < COLS and grid[i, j] for i, j in line):
                    cells.update(line)
    return [list(cell) for cell in sorted(cells)]


def bitboard_to_grid(bitboard: int) -> np.ndarray:
    """bool[ROWS, COLS] with row 0 at the top, as the board is drawn."""
    grid = np.zeros((ROWS, COLS), dtype=bool)
    grid[_GRID_ROW, _GRID_COL] = (np.uint64(bitboard) >> _PLAYABLE_SHIFTS) & np.uint64(1)
    return grid


class Connect4(Game):
    name = "connect4"
    num_players = 2
    return_bounds = (-1.0, 1.0)
    num_actions = COLS
    # planes: the observer's discs, the opponent's discs, and a constant plane of ones (so a conv net's
    # zero padding outside the board differs from an empty cell); flat: the first two planes
    observation_spec = {"planes": (3, ROWS, COLS), "flat": (2 * ROWS * COLS,)}

    def new_state(self, *, seed: int | None = None) -> Connect4State:
        return Connect4State(self, seed)

    def symmetries(self) -> list[Symmetry]:
        """The left-right mirror."""
        return [grid_symmetry("mirror", self.observation_spec, (ROWS, COLS), np.fliplr, action_grid=False)]

    def exact_solver(self) -> ExactSolver:
        """The bitboard solver (``connect4.solver``): seconds to minutes per position in the first plies, so
        the solver agent opens in the centre column (the first player wins only there) and searches until ply
        8, and accuracy test positions start at ply 10 (up to about a second per position from there,
        measured over half-random games; up to seconds at plies 7-9)."""
        return ExactSolver(
            _solved_move_values,
            phase_starts=(14, 28),
            accuracy_plies=(10, 32),
            test_set_plies=((10, 13), (14, 27), (28, 38)),
            exact_from=8,
            first_move=COLS // 2,
        )

    def action_name(self, action: int) -> str:
        return f"column {int(action)}"

    def action_fields(self, action: int) -> dict:
        return {"kind": "drop", "column": int(action)}


def _solved_move_values(history) -> np.ndarray:
    from boardzero.games.connect4.solver import default_solver  # compiles with numba: only where a game solves

    return default_solver().move_values(history)


class Connect4State(State):
    __slots__ = ("game", "seed", "history", "boards", "heights", "winner", "_player")

    def __init__(self, game: Connect4, seed: int | None = None):
        self.game = game
        self.seed = seed
        self.history: list[int] = []
        self.boards = [0, 0]  # bitboard per seat
        self.heights = [COLUMN_BITS * c for c in range(COLS)]  # next free bit per column
        self.winner = -1  # seat that won, -1 for none yet
        self._player = 0

    @property
    def current_player(self) -> int:
        return self._player

    def legal_mask(self) -> np.ndarray:
        if self._player == TERMINAL:
            return np.zeros(COLS, dtype=bool)
        return np.array([h % COLUMN_BITS < ROWS for h in self.heights], dtype=bool)

    def illegal_reason(self, action: int) -> str:
        return f"column {action} is full"

    def _apply(self, action: int) -> None:
        player = self._player
        self.boards[player] |= 1 << self.heights[action]
        self.heights[action] += 1
        if has_four(self.boards[player]):
            self.winner = player
            self._player = TERMINAL
        elif (self.boards[0] | self.boards[1]) == FULL_BOARD:
            self._player = TERMINAL
        else:
            self._player = 1 - player

    def clone(self) -> Connect4State:
        other = type(self).__new__(type(self))
        other.game = self.game
        other.seed = self.seed
        other.history = list(self.history)
        other.boards = list(self.boards)
        other.heights = list(self.heights)
        other.winner = self.winner
        other._player = self._player
        return other

    def returns(self) -> np.ndarray:
        out = np.zeros(2, dtype=np.float64)
        if self.winner >= 0:
            out[self.winner] = 1.0
            out[1 - self.winner] = -1.0
        return out

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        planes = np.ones((3, ROWS, COLS), np.float32)
        planes[0] = bitboard_to_grid(self.boards[seat])
        planes[1] = bitboard_to_grid(self.boards[1 - seat])
        return {"planes": planes, "flat": planes[:2].reshape(-1)}

    def public_view(self, seat: int | None = None) -> dict:
        """The base fields plus ``grid`` (rows top to bottom: the seat whose disc is there, or None),
        ``winner`` and the ``winning_cells`` [row, column] of the four (or more) in a row."""
        grids = (bitboard_to_grid(self.boards[0]), bitboard_to_grid(self.boards[1]))
        grid = [[0 if grids[0][r, c] else 1 if grids[1][r, c] else None for c in range(COLS)] for r in range(ROWS)]
        view = base_public_view(self, seat)
        view.update(
            {
                "rows": ROWS,
                "columns": COLS,
                "grid": grid,
                "winner": self.winner if self.winner >= 0 else None,
                "winning_cells": winning_cells(grids[self.winner]) if self.winner >= 0 else [],
            }
        )
        return view

    def render(self, seat: int | None = None, *, color: bool = False) -> str:
        marks = (bitboard_to_grid(self.boards[0]), bitboard_to_grid(self.boards[1]))
        discs = DISCS_COLOURED if color else ("X", "O")
        lines = [" " + " ".join(str(c) for c in range(COLS))]
        for r in range(ROWS):
            cells = [discs[0] if marks[0][r, c] else discs[1] if marks[1][r, c] else "." for c in range(COLS)]
            lines.append("|" + "|".join(cells) + "|")
        lines.append("+" + "-" * (2 * COLS - 1) + "+")
        if self.is_terminal():
            lines.append("X wins" if self.winner == 0 else "O wins" if self.winner == 1 else "draw")
        else:
            lines.append(f"{'X' if self._player == 0 else 'O'} (seat {self._player}) to move")
        return "\n".join(lines)
