"""The solver agent and the tic-tac-toe solver."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.agents.registry import make_agent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.games.tictactoe.solver import ILLEGAL, best_moves, move_values, position_value
from boardzero.play.runner import play_game
from tests.conftest import play_actions


def test_tictactoe_known_values():
    assert position_value([]) == 0
    assert move_values([]).tolist() == [0] * 9
    after_centre = move_values([4])
    assert [after_centre[c] for c in (0, 2, 6, 8)] == [0, 0, 0, 0]  # corners hold the draw
    assert [after_centre[c] for c in (1, 3, 5, 7)] == [-1, -1, -1, -1]  # edges lose
    assert after_centre[4] == ILLEGAL
    assert sorted(best_moves([0, 4, 8])) == [1, 3, 5, 7]  # O must take an edge
    assert position_value([0, 3, 1, 4]) == 1  # X completes the top row


def test_tictactoe_solver_never_loses_to_random(rng):
    game = make("tictactoe")
    solver, random = make_agent("solver", game), make_agent("random", game)
    for i in range(200):
        seat = i % 2
        agents = [solver, random] if seat == 0 else [random, solver]
        final = play_game(game, agents, rng)
        assert final.returns()[seat] >= 0


def test_tictactoe_solver_against_itself_always_draws(rng):
    game = make("tictactoe")
    solver = make_agent("solver", game)
    for _ in range(20):
        assert play_game(game, [solver, solver], rng).returns().tolist() == [0.0, 0.0]


def test_picks_at_random_among_optimal_moves():
    game = make("tictactoe")
    agent = make_agent("solver", game)
    view = SeatView(game.new_state(), 0)
    moves = {agent.act(view, np.random.default_rng(seed)) for seed in range(40)}
    assert len(moves) > 4  # every first move draws


def test_connect4_takes_the_win_and_blocks(rng):
    game = make("connect4")
    agent = make_agent("solver:exact_from=0", game)
    assert agent.act(SeatView(play_actions("connect4", [0, 6, 1, 6, 2, 5]), 0), rng) == 3
    assert agent.act(SeatView(play_actions("connect4", [6, 0, 6, 1, 5, 2]), 0), rng) == 3


def test_connect4_opens_in_the_centre(rng):
    agent = make_agent("solver", make("connect4"))
    assert agent.act(SeatView(make("connect4").new_state(), 0), rng) == 3


def test_other_games_are_a_clear_config_error():
    with pytest.raises(ConfigError, match="no exact solver for game 'kuhn_poker'"):
        make_agent("solver", make("kuhn_poker"))


def test_any_game_that_declares_an_exact_solver_is_solved_without_its_name_known(rng):
    from boardzero.core.api import ExactSolver
    from boardzero.eval.accuracy import move_accuracy, phase_of, sample_positions
    from boardzero.games.tictactoe import TicTacToe

    class Noughts(TicTacToe):  # tic-tac-toe under a name nothing in boardzero knows
        name = "noughts"

        def exact_solver(self) -> ExactSolver:
            return ExactSolver(
                move_values, phase_starts=(2, 5), accuracy_plies=(1, 4), test_set_plies=((0, 1), (2, 4), (5, 7))
            )

    game = Noughts()
    state = play_game(game, [make_agent("solver", game), make_agent("solver", game)], rng)
    assert state.returns().tolist() == [0.0, 0.0]  # perfect play draws
    positions = sample_positions(game, 10, rng)
    assert positions and all(1 <= p.ply <= 4 for p in positions)
    assert move_accuracy("solver", game, positions, rng).accuracy == 1.0
    assert [phase_of(game, ply) for ply in (1, 2, 5)] == ["begin", "middle", "end"]
