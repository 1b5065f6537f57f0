import numpy as np
import pytest

from boardzero.core.api import CHANCE, TERMINAL
from boardzero.core.errors import IllegalActionError
from boardzero.games.kuhn_poker import BET, PASS
from tests.conftest import play_actions


def test_tictactoe_diagonal_win_and_taken_cell():
    state = play_actions("tictactoe", [0, 1, 4, 2])
    with pytest.raises(IllegalActionError, match="cell 4 is already taken"):
        state.apply(4)
    state.apply(8)
    assert state.current_player == TERMINAL and state.returns().tolist() == [1.0, -1.0]


def test_tictactoe_draw():
    state = play_actions("tictactoe", [0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert state.is_terminal() and state.returns().tolist() == [0.0, 0.0]


def deal(cards, *betting, players=3):
    return play_actions("kuhn_poker", [*cards, *betting], players=players)


def test_kuhn_deal_is_a_chance_node_over_the_cards_left():
    state = deal([3], players=3)
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]


def test_kuhn_all_check_goes_to_showdown_and_returns_sum_to_zero():
    state = deal([0, 3, 1], PASS, PASS, PASS)
    assert state.is_terminal() and state.returns().tolist() == [-1.0, 2.0, -1.0]


def test_kuhn_bet_then_folds_wins_the_antes():
    state = deal([0, 1, 2], BET, PASS, PASS)  # the J bets and the others fold
    assert state.returns().tolist() == [2.0, -1.0, -1.0]


def test_kuhn_checkers_answer_a_later_bet_and_the_best_caller_wins():
    state = deal([2, 0, 1], PASS, BET, BET, BET)  # seat 1 bets; seats 2 and 0 call
    assert state.is_terminal() and state.returns().tolist() == [4.0, -2.0, -2.0]


def test_kuhn_hides_other_cards_and_resamples_only_them(rng):
    state = deal([2, 0, 1], PASS, players=3)
    assert state.public_history(1)[:3] == [None, 0, None]
    dealt = []
    for _ in range(200):
        sample = state.sample_hidden(1, rng)
        assert sample.cards[1] == 0 and len(set(sample.cards)) == 3 and set(sample.cards) <= {0, 1, 2, 3}
        assert sample.history[3:] == state.history[3:]  # the betting is public and kept
        assert np.array_equal(sample.observe(1)["flat"], state.observe(1)["flat"])
        dealt.append(sample.cards)
    # the others' cards are redrawn from every card seat 1 does not hold
    assert {c[0] for c in dealt} == {c[2] for c in dealt} == {1, 2, 3}
