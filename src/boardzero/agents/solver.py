"""The ``solver`` agent: perfect play for Connect 4 and tic-tac-toe.

It rebuilds the position from the seat view's public history (both games are
perfect-information and their action ids are columns / cells), asks the exact
solver for the result of every legal move and picks at random among those that
keep the best achievable result (win > draw > loss). Winning at once is
preferred when possible, so won games end quickly.

Tic-tac-toe is exact from the first move. Connect 4 is exact from ply
``exact_from`` (default 8): proving the first few plies takes this solver
minutes to hours without an opening book, so before that it plays the known
best first move (the centre column; the first player wins only there) and
otherwise a strong rollout MCTS (``opening_sims`` simulations). ``exact_from=0``
makes every move exact, at that price.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.mcts_agent import MCTSAgent
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.games.connect4.solver import default_solver
from boardzero.games.tictactoe.solver import move_values

SOLVED_GAMES = ("connect4", "tictactoe")
ILLEGAL = -128  # move value of an illegal move (both solvers use it)


def solved_move_values(game: Game, history: Sequence[int]) -> np.ndarray:
    """int[num_actions]: the mover's exact result (1 win, 0 draw, -1 loss) after each move; ILLEGAL if illegal."""
    if game.name == "connect4":
        return default_solver().move_values(history)
    if game.name == "tictactoe":
        return move_values(history)
    raise ConfigError(
        "agent solver", f"no exact solver for game {game.name!r}; solved games: {', '.join(SOLVED_GAMES)}"
    )


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


CONNECT4_CENTRE = 3


class SolverAgent(Agent):
    """Perfect play for Connect 4 and tic-tac-toe from an exact solver."""

    def __init__(self, game: Game, *, exact_from: int = 8, opening_sims: int = 2000):
        """exact_from: Connect 4 ply from which every move is solved exactly (earlier: centre, then MCTS)
        opening_sims: MCTS simulations per move before that ply
        """
        if game.name not in SOLVED_GAMES:
            raise ConfigError(
                "agent solver", f"no exact solver for game {game.name!r}; solved games: {', '.join(SOLVED_GAMES)}"
            )
        if exact_from < 0:
            raise ConfigError("agent solver.exact_from", f"must be >= 0, got {exact_from}")
        if opening_sims < 1:
            raise ConfigError("agent solver.opening_sims", f"must be >= 1, got {opening_sims}")
        self.game = game
        self.exact_from = exact_from if game.name == "connect4" else 0
        self.opening_sims = opening_sims
        self._opening: MCTSAgent | None = None

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        history = [int(a) for a in cast("list[int]", view.history)]  # solved games hide no move
        if len(history) < self.exact_from:
            return self._opening_move(view, history, rng)
        wins = immediate_wins(self.game, history)
        if wins.any():
            choices = np.flatnonzero(wins)
        else:
            values = solved_move_values(self.game, history)
            legal = values != ILLEGAL
            choices = np.flatnonzero(legal & (values == values[legal].max()))
        return int(choices[rng.integers(len(choices))])

    def _opening_move(self, view: SeatView, history: list[int], rng: np.random.Generator) -> int:
        if not history:
            return CONNECT4_CENTRE
        if self._opening is None:
            self._opening = MCTSAgent(self.game, sims=self.opening_sims)
        return self._opening.act(view, rng)

    def reset(self) -> None:
        if self._opening is not None:
            self._opening.reset()
