"""examples/connect4_one_ply.py: the look-ahead takes a win in one whatever the network says, and otherwise
scores moves by the policy (w = 0) or by the value after the move (w = 1)."""

from __future__ import annotations

import numpy as np

from boardzero.core.registry import make
from boardzero.core.view import SeatView
from tests.examples import load_example

one_ply = load_example("connect4_one_ply")


class StubEvaluator:
    """All policy mass on column 0; the value of a position for the seat to move is minus its column-5 count
    times 0.1 (so the mover after a move into column 5 is worse off: that move looks best with w = 1)."""

    def __init__(self, key: str):
        self.key = key

    def predict(self, obs: np.ndarray, mask: np.ndarray):
        priors = np.zeros(mask.shape)
        priors[:, 0] = 1.0
        filled = obs.reshape(len(obs), -1, 6, 7)[:, :2].sum(axis=(1, 2))  # pieces per column, both planes
        return priors, -0.1 * filled[:, 5:6].repeat(2, axis=1)


def _view(moves: list[int]) -> SeatView:
    state = make("connect4").new_state(seed=0)
    for move in moves:
        state.apply(move)
    return SeatView(state, state.current_player)


def test_a_win_in_one_is_taken_whatever_the_policy_and_values_say():
    view = _view([0, 0, 1, 1, 2, 2])  # the mover has columns 0-2 on the bottom row: column 3 wins
    stub = StubEvaluator(next(iter(view.observation)))
    rng = np.random.default_rng(0)
    assert one_ply.OnePly(stub, 0.0).act(view, rng) == 3
    assert one_ply.OnePly(stub, 1.0).act(view, rng) == 3


def test_without_a_win_the_weight_chooses_between_the_policy_and_the_value_after_the_move():
    view = _view([3, 3])
    stub = StubEvaluator(next(iter(view.observation)))
    rng = np.random.default_rng(0)
    assert one_ply.OnePly(stub, 0.0).act(view, rng) == 0  # the policy's move
    assert one_ply.OnePly(stub, 1.0).act(view, rng) == 5  # the move that leaves the opponent worst off
