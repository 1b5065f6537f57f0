"""The ``solver`` agent: perfect play for Connect 4 and tic-tac-toe.

It rebuilds the position from the seat view's public history (both games are
perfect-information and their action ids are columns / cells), asks the exact
solver for the result of every legal move and picks at random among those that
keep the best achievable result (win > draw > loss). Winning at once is
preferred when possible, so won games end quickly.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView

SOLVED_GAMES = ("connect4", "tictactoe")
ILLEGAL = -128  # move value of an illegal move (both solvers use it)


def solved_move_values(game: Game, history: Sequence[int]) -> np.ndarray:
    """int[num_actions]: the mover's exact result (1 win, 0 draw, -1 loss) after each move; ILLEGAL if illegal."""
    if game.name == "connect4":
        from boardzero.games.connect4.solver import default_solver

        return default_solver().move_values(history)
    if game.name == "tictactoe":
        from boardzero.games.tictactoe.solver import move_values

        return move_values(history)
    raise ConfigError("agent solver", f"no exact solver for game {game.name!r}; solved games: {', '.join(SOLVED_GAMES)}")


def immediate_wins(game: Game, history: Sequence[int]) -> np.ndarray:
    """bool[num_actions]: moves that end the game with a win for the mover at once."""
    state = game.new_state()
    for action in history:
        state.apply(action)
    mover = state.current_player
    wins = np.zeros(game.num_actions, dtype=bool)
    for action in state.legal_actions():
        child = state.clone()
        child.apply(int(action))
        wins[action] = child.is_terminal() and child.returns()[mover] > 0
    return wins


class SolverAgent(Agent):
    def __init__(self, game: Game):
        if game.name not in SOLVED_GAMES:
            raise ConfigError("agent solver",
                              f"no exact solver for game {game.name!r}; solved games: {', '.join(SOLVED_GAMES)}")
        self.game = game

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        history = [int(a) for a in view.history]
        wins = immediate_wins(self.game, history)
        if wins.any():
            choices = np.flatnonzero(wins)
        else:
            values = solved_move_values(self.game, history)
            legal = values != ILLEGAL
            choices = np.flatnonzero(legal & (values == values[legal].max()))
        return int(choices[rng.integers(len(choices))])
