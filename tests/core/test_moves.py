"""Typing a move: its number, its name or another name the game accepts; reasons and "did you mean"."""

from __future__ import annotations

import pytest

from boardzero.core.moves import canonical, match_move
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.games.catan import action_id as A, testing as T


def view_of(state) -> SeatView:
    return SeatView(state, state.current_player)


@pytest.fixture
def catan_main():
    """Seat 0 to build, with a settlement at 29 and the cards for a road."""
    state = T.scenario(players=3)
    T.settlement(state, 0, 29)
    T.give(state, 0, wood=1, brick=1)
    return view_of(state)


def test_canonical_names():
    assert canonical("Road at 43 (nodes 29-35)") == "road 43"
    assert canonical("robber to hex #14") == "robber 14"
    assert canonical("  settlement   at 12 ") == "settlement 12"


@pytest.mark.parametrize(
    "typed", ["151", "road 43", "road at 43", "Road at 43 (nodes 29-35)", "road 29-35", "road 35 29"]
)
def test_one_road_by_every_name(catan_main, typed):
    assert A("road", edge=43) == 151
    assert match_move(catan_main, typed).action == 151


def test_a_bare_number_is_the_listed_number_and_suggests_moves_that_mention_it(catan_main):
    match = match_move(catan_main, "43")  # settlement at 43 is not legal; road at 43 is
    assert match.action is None
    assert "43: settlement at 43" in match.message and "is not legal now" in match.message
    assert "did you mean 151: road at 43 (nodes 29-35)" in match.message


def test_an_illegal_move_gets_the_engine_reason(catan_main):
    match = match_move(catan_main, "city at 35")
    assert match.action is None
    assert match.message.startswith("89: city at 35 (")
    assert "is not legal now: seat 0 has no settlement there" in match.message
    assert "cannot afford a city" in match_move(catan_main, "city 29").message


def test_first_words_typos_and_ambiguity(catan_main):
    assert match_move(catan_main, "end").action == A("end_turn")
    assert "did you mean 243: end turn?" in match_move(catan_main, "end tun").message
    many = match_move(catan_main, "road")
    assert many.action is None and "fits 3 moves" in many.message and "type the number" in many.message
    assert match_move(catan_main, "999").message.startswith("no move has the number 999")
    assert "is not a move here" in match_move(catan_main, "fly away").message


def test_kuhn_moves_are_named_as_the_prompt_says():
    state = make("kuhn_poker", players=2).new_state(seed=0)
    state.apply(0)
    state.apply(1)
    assert [state.action_name(a) for a in (0, 1)] == ["check", "bet"]
    assert state.render().endswith("seat 0 to act (check or bet)")
    state.apply(1)  # seat 0 bets
    assert [state.action_name(a) for a in (0, 1)] == ["fold", "call"]
    assert state.render().endswith("seat 1 to act (fold or call)")
    view = view_of(state)
    assert match_move(view, "call").action == 1 and match_move(view, "fold").action == 0
    assert match_move(view, "bet").action == 1 and match_move(view, "pass").action == 0


def test_connect4_columns():
    view = view_of(make("connect4").new_state())
    assert match_move(view, "column 3").action == 3 and match_move(view, "3").action == 3
    assert match_move(view, "9").message.startswith("no move has the number 9")
