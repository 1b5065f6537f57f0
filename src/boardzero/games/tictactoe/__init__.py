"""Tic-tac-toe. Action id = cell 0..8, row-major from the top left; seat 0 (X) moves first."""

from __future__ import annotations

import numpy as np

from boardzero.core.api import TERMINAL, ExactSolver, Game, State, Symmetry, base_public_view, grid_symmetry
from boardzero.games.tictactoe.solver import move_values

LINES = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]])
LINE_MASKS = tuple(sum(1 << int(c) for c in line) for line in LINES)
FULL = (1 << 9) - 1
_CELL_BITS = 1 << np.arange(9)
ROW_NAMES, COLUMN_NAMES = ("top", "middle", "bottom"), ("left", "centre", "right")


def has_line(bits: int) -> bool:
    return any(bits & m == m for m in LINE_MASKS)


class TicTacToe(Game):
    name = "tictactoe"
    num_players = 2
    return_bounds = (-1.0, 1.0)
    num_actions = 9
    observation_spec = {"planes": (2, 3, 3), "flat": (18,)}

    def new_state(self, *, seed: int | None = None) -> TicTacToeState:
        return TicTacToeState(self, seed)

    def symmetries(self) -> list[Symmetry]:
        """The seven non-identity symmetries of the square: rotations, mirrors, diagonal flips."""
        transforms = {
            "rotate 90": np.rot90,
            "rotate 180": lambda g: np.rot90(g, 2),
            "rotate 270": lambda g: np.rot90(g, 3),
            "mirror": np.fliplr,
            "flip": np.flipud,
            "transpose": np.transpose,
            "anti-transpose": lambda g: np.rot90(g, 2).T,
        }
        return [grid_symmetry(name, self.observation_spec, (3, 3), t) for name, t in transforms.items()]

    def exact_solver(self) -> ExactSolver:
        """Minimax over every reachable position (``tictactoe.solver``), exact from the first move."""
        return ExactSolver(
            move_values, phase_starts=(3, 6), accuracy_plies=(0, 7), test_set_plies=((0, 2), (3, 5), (6, 7))
        )

    def action_name(self, action: int) -> str:
        row, col = divmod(int(action), 3)
        place = "centre" if (row, col) == (1, 1) else f"{ROW_NAMES[row]} {COLUMN_NAMES[col]}"
        return f"cell {action} ({place})"

    def action_fields(self, action: int) -> dict:
        return {"kind": "mark", "cell": int(action)}


class TicTacToeState(State):
    game: TicTacToe

    def __init__(self, game: TicTacToe, seed: int | None = None):
        self.game = game
        self.seed = seed
        self.history: list[int] = []
        self.boards = [0, 0]
        self.winner = -1
        self._player = 0

    @property
    def current_player(self) -> int:
        return self._player

    def legal_mask(self) -> np.ndarray:
        if self._player == TERMINAL:
            return np.zeros(9, dtype=bool)
        return (_CELL_BITS & (self.boards[0] | self.boards[1])) == 0

    def illegal_reason(self, action: int) -> str:
        return f"cell {action} is already taken"

    def _apply(self, action: int) -> None:
        player = self._player
        self.boards[player] |= 1 << action
        if has_line(self.boards[player]):
            self.winner, self._player = player, TERMINAL
        elif self.boards[0] | self.boards[1] == FULL:
            self._player = TERMINAL
        else:
            self._player = 1 - player

    def clone(self) -> TicTacToeState:
        other = type(self)(self.game, self.seed)
        other.history = list(self.history)
        other.boards = list(self.boards)
        other.winner, other._player = self.winner, self._player
        return other

    def returns(self) -> np.ndarray:
        out = np.zeros(2)
        if self.winner >= 0:
            out[self.winner], out[1 - self.winner] = 1.0, -1.0
        return out

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        own = (_CELL_BITS & self.boards[seat]) != 0
        other = (_CELL_BITS & self.boards[1 - seat]) != 0
        planes = np.stack([own, other]).astype(np.float32).reshape(2, 3, 3)
        return {"planes": planes, "flat": planes.reshape(-1)}

    def public_view(self, seat: int | None = None) -> dict:
        """The base fields plus ``cells`` (0..8, row-major: the seat that marked it, or None) and ``winner``."""
        cells = [0 if self.boards[0] >> i & 1 else 1 if self.boards[1] >> i & 1 else None for i in range(9)]
        view = base_public_view(self, seat)
        view.update({"cells": cells, "winner": self.winner if self.winner >= 0 else None})
        return view

    def render(self, seat: int | None = None, *, color: bool = False) -> str:
        cells = ["X" if self.boards[0] >> i & 1 else "O" if self.boards[1] >> i & 1 else str(i) for i in range(9)]
        rows = [" " + " | ".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
        text = "\n---+---+---\n".join(rows)
        if self.is_terminal():
            status = "X wins" if self.winner == 0 else "O wins" if self.winner == 1 else "draw"
        else:
            status = f"{'XO'[self._player]} (seat {self._player}) to move"
        return f"{text}\n{status}"
