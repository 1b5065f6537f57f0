import numpy as np
import pytest

from boardzero.core.api import TERMINAL
from boardzero.core.errors import IllegalActionError
from tests.conftest import play_actions


@pytest.mark.parametrize(
    "moves,winner",
    [
        ([0, 1, 0, 1, 0, 1, 0], 0),  # vertical
        ([0, 0, 1, 1, 2, 2, 3], 0),  # horizontal
        ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0),  # diagonal up-right
        ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], 0),  # diagonal up-left
        ([6, 0, 6, 0, 6, 0, 5, 0], 1),  # second player wins vertically
    ],
)
def test_four_in_a_row_wins_in_every_direction(moves, winner):
    state = play_actions("connect4", moves)
    assert state.current_player == TERMINAL
    expected = np.array([1.0, -1.0]) if winner == 0 else np.array([-1.0, 1.0])
    assert np.array_equal(state.returns(), expected)


def test_three_in_a_row_is_not_a_win_and_rows_do_not_wrap():
    # stones in columns 4,5,6 of the bottom row and column 0 of the second row are not four in a row
    state = play_actions("connect4", [4, 4, 5, 5, 6, 6, 0, 1, 0])
    assert state.current_player == 1 and not state.returns().any()


def test_full_board_without_four_is_a_draw():
    # fill column pairs in a pattern that never makes four: (0,1),(2,3),(4,5) three times shifted, then 6
    order = []
    for pair in ((0, 1), (2, 3), (4, 5)):
        for _ in range(3):
            order += [pair[0], pair[1]]
        for _ in range(3):
            order += [pair[1], pair[0]]
    order += [6] * 6
    state = play_actions("connect4", order)
    assert state.is_terminal() and np.array_equal(state.returns(), [0.0, 0.0])


def test_a_full_column_is_illegal_with_a_reason_and_the_state_is_unchanged():
    state = play_actions("connect4", [2] * 6)
    assert not state.legal_mask()[2]
    before = state.to_record()
    with pytest.raises(IllegalActionError, match="column 2 is full"):
        state.apply(2)
    assert state.to_record() == before


def test_observation_is_from_the_observers_point_of_view():
    state = play_actions("connect4", [3])
    mine, theirs = state.observe(0)["planes"], state.observe(1)["planes"]
    assert mine[0, 5, 3] == 1 and mine[1].sum() == 0
    assert theirs[1, 5, 3] == 1 and theirs[0].sum() == 0
    assert mine.shape == (3, 6, 7) and (mine[2] == 1).all()
    assert (state.observe(0)["flat"] == mine[:2].reshape(-1)).all()
