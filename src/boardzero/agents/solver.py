"""The ``solver`` agent: perfect play for a game that declares an exact solver (``Game.exact_solver()``:
Connect 4 and tic-tac-toe).

It rebuilds the position from the seat view's public history (a solved game
hides no move), asks the game's exact solver for the result of every legal
move and picks at random among those that keep the best achievable result
(win > draw > loss). Winning at once is preferred when possible, so won games
end quickly.

A solver that needs long for the first plies declares the ply it is quick from
(Connect 4: 8, proving the first few plies takes minutes to hours without an
opening book); before that ply the agent plays the game's known best first move
(the centre column) and otherwise a strong rollout MCTS (``opening_sims``
simulations). ``exact_from`` changes that ply; 0 makes every move exact, at that price.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.mcts_agent import MCTSAgent
from boardzero.core.api import ILLEGAL_MOVE, ExactSolver, Game
from boardzero.core.errors import ConfigError
from boardzero.core.registry import game_class, games
from boardzero.core.view import SeatView

ILLEGAL = ILLEGAL_MOVE  # move value of an illegal move


def solved_games() -> list[str]:
    """The registered games that declare an exact solver."""
    return [name for name in games() if game_class(name).exact_solver is not Game.exact_solver]


def solver_of(game: Game, where: str = "agent solver") -> ExactSolver:
    """``game``'s exact solver; a ConfigError naming ``where`` and the solved games where it has none."""
    solver = game.exact_solver()
    if solver is None:
        raise ConfigError(where, f"no exact solver for game {game.name!r}; solved games: {', '.join(solved_games())}")
    return solver


def solved_move_values(game: Game, history: Sequence[int]) -> np.ndarray:
    """int[num_actions]: the mover's exact result (1 win, 0 draw, -1 loss) after each move; ILLEGAL if illegal."""
    return np.asarray(solver_of(game).move_values(history))


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
    """Perfect play for a game with an exact solver (Connect 4, tic-tac-toe)."""

    def __init__(self, game: Game, *, exact_from: int = -1, opening_sims: int = 2000):
        """exact_from: ply from which every move is solved exactly (earlier: the game's best first move, then
            MCTS); -1: where the game's solver says it is quick (Connect 4: 8, tic-tac-toe: 0)
        opening_sims: MCTS simulations per move before that ply
        """
        self.solver = solver_of(game)
        if exact_from < -1:
            raise ConfigError("agent solver.exact_from", f"must be >= 0 (-1: the game's own), got {exact_from}")
        if opening_sims < 1:
            raise ConfigError("agent solver.opening_sims", f"must be >= 1, got {opening_sims}")
        self.game = game
        self.exact_from = self.solver.exact_from if exact_from == -1 else exact_from
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
        if not history and self.solver.first_move is not None:
            return self.solver.first_move
        if self._opening is None:
            self._opening = MCTSAgent(self.game, sims=self.opening_sims)
        return self._opening.act(view, rng)

    def reset(self) -> None:
        if self._opening is not None:
            self._opening.reset()
