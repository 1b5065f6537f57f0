"""The exact Connect 4 solver: known positions and agreement with brute force.

The empty board (first player wins only in the centre) is not tested: proving it
takes this solver tens of minutes without an opening book.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.core.registry import make
from boardzero.games.connect4.solver import ILLEGAL, Connect4Solver, default_solver, position_from_history

WIN_IN_ONE = [0, 6, 1, 6, 2, 5]  # X to move, column 3 completes the bottom row
BLOCK_IN_ONE = [6, 0, 6, 1, 5, 2]  # X to move, O threatens column 3
LATE = [5, 5, 3, 6, 6, 0, 1, 2, 3, 5, 3, 6, 2, 6, 4, 5, 1, 4, 5, 6, 6, 5]  # columns 5 and 6 full


@pytest.fixture(scope="module")
def solver() -> Connect4Solver:
    return default_solver()


def test_win_in_one(solver):
    assert solver.score(WIN_IN_ONE) == 1
    values = solver.move_values(WIN_IN_ONE)
    assert values[3] == 1
    assert solver.score(WIN_IN_ONE, weak=False) == (42 + 1 - 6) // 2  # win with the 4th stone: the fastest score


def test_block_in_one(solver):
    values = solver.move_values(BLOCK_IN_ONE)
    assert values[3] >= 0 and all(values[c] == -1 for c in range(7) if c != 3)
    assert list(solver.best_moves(BLOCK_IN_ONE)) == [3]


def test_full_column_is_illegal_and_bad_histories_are_rejected(solver):
    values = solver.move_values(LATE)
    assert values[5] == ILLEGAL and values[6] == ILLEGAL and (values[:5] != ILLEGAL).all()
    with pytest.raises(ValueError, match="full"):
        position_from_history(LATE + [6])
    with pytest.raises(ValueError, match="over"):
        solver.score([0, 6, 1, 6, 2, 5, 3])


def _brute_force(state, memo):
    key = (tuple(state.boards), state.current_player)
    if key not in memo:
        mover, best = state.current_player, -1
        for action in state.legal_actions():
            child = state.clone()
            child.apply(int(action))
            value = child.returns()[mover] if child.is_terminal() else -_brute_force(child, memo)
            best = max(best, int(value))
            if best == 1:
                break
        memo[key] = best
    return memo[key]


def test_agrees_with_brute_force_on_late_positions(solver):
    game, rng = make("connect4"), np.random.default_rng(3)
    checked = 0
    while checked < 8:
        state = game.new_state()
        for _ in range(int(rng.integers(30, 35))):
            state.apply(int(rng.choice(state.legal_actions())))
            if state.is_terminal():
                break
        if state.is_terminal():
            continue
        memo, expected = {}, np.full(7, ILLEGAL)
        for action in state.legal_actions():
            child = state.clone()
            child.apply(int(action))
            expected[action] = (
                child.returns()[state.current_player] if child.is_terminal() else -_brute_force(child, memo)
            )
        assert solver.move_values(state.history).tolist() == expected.tolist(), state.history
        checked += 1


def test_exact_scores_agree_with_the_weak_results(solver):
    strong = solver.move_values(LATE, weak=False)
    weak = solver.move_values(LATE)
    legal = weak != ILLEGAL
    assert (np.sign(strong[legal]) == weak[legal]).all()
    assert strong[legal].max() == solver.score(LATE, weak=False)
