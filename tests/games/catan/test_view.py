"""The state API (``games.catan.view``): small positions set up with the test helpers, read back by name.

Beginner board: hex #0 ore 10 (nodes 0 4 8 12 7 3), hex #4 brick 6 (nodes 8 13 18 23 17 12), #9 the desert.
"""

import numpy as np
import pytest

from boardzero.core.api import CHANCE
from boardzero.games.catan import action_id as A, testing as T
from boardzero.games.catan.offsets import KNIGHT, MONOPOLY, PH_DISCARD, PH_MAIN
from boardzero.games.catan.view import Buildings, CatanView, Pieces

TOP_COAST = [7, 3, 0, 4, 1, 5]  # 5 paths along the top coast


def test_hands_cards_and_bank_by_seat():
    state = T.scenario(players=3)
    T.give(state, 1, wood=2, ore=1)
    T.dev(state, 1, knight=2)
    T.dev(state, 1, new=True, monopoly=1)
    view = state.view
    assert view.hand(1).tolist() == [2, 0, 0, 0, 1] and view.hand(0).tolist() == [0] * 5
    assert view.hand(1).dtype == np.int64 and view.card_count(1) == 3
    assert view.dev_cards(1)[KNIGHT] == 2 and view.dev_cards(1)[MONOPOLY] == 1
    assert view.dev_cards_new(1).tolist() == [0, 0, 0, 0, 1]
    assert view.bank().tolist() == [17, 19, 19, 19, 18]
    assert view.deck().tolist() == [12, 5, 2, 2, 1] and view.deck_size() == 22
    view.hand(1)[0] = 9  # a copy: the state keeps its cards
    assert state.view.hand(1)[0] == 2


def test_playing_a_card_shows_in_played_and_knights():
    state = T.scenario(players=2, phase="pre_roll")
    T.dev(state, 0, knight=1)
    state.apply(A("knight"))
    view = state.view
    assert view.dev_played(0).tolist() == [1, 0, 0, 0, 0] and view.knights(0) == 1
    assert view.dev_cards(0).tolist() == [0] * 5


def test_buildings_pieces_and_board_arrays():
    state = T.scenario(players=3)
    T.settlement(state, 2, 12)
    T.settlement(state, 2, 0, city=True)
    T.road(state, 2, T.edge(12, 8), T.edge(8, 4))
    view = state.view
    roads = tuple(sorted((T.edge(8, 12), T.edge(4, 8))))
    assert view.buildings(2) == Buildings(settlements=(12,), cities=(0,), roads=roads)
    assert view.buildings(1) == Buildings((), (), ())
    assert view.pieces_left(2) == Pieces(roads=13, settlements=4, cities=3)
    assert view.node_owners()[12] == 2 and view.node_levels()[0] == 2 and view.node_levels()[12] == 1
    assert view.edge_owners()[T.edge(8, 12)] == 2
    assert view.hex_resources()[0] == 4 and view.hex_numbers()[0] == 10  # ore 10
    with pytest.raises(ValueError):
        view.node_owners()[5] = 1  # read-only: only actions change the board


def test_robber_awards_and_their_lengths():
    state = T.scenario(players=3)
    assert state.view.robber() == 9  # the desert
    T.robber(state, 4)
    T.road_path(state, 1, TOP_COAST)
    T.knights(state, 2, 3)
    awards = state.view.awards()
    assert state.view.robber() == 4
    assert awards.longest_road_holder == 1 and awards.road_lengths == (0, 5, 0)
    assert awards.largest_army_holder == 2 and awards.knights == (0, 0, 3)
    assert state.view.victory_points(1) == 2 and state.view.victory_points(2, hidden=False) == 2


def test_phase_after_a_seven_names_who_discards():
    state = T.scenario(players=3, phase="pre_roll")
    T.give(state, 1, wood=4, brick=4)
    assert state.view.phase().key == "pre_roll" and not state.view.phase().has_rolled
    state.apply(A("roll"))
    assert state.view.phase().key == "dice" and state.view.phase().decider is None
    state.apply(7)
    phase = state.view.phase()
    assert phase.id == PH_DISCARD and phase.key == "discard" and phase.decider == 1 and phase.turn_seat == 0
    assert phase.to_discard == (0, 4, 0) and phase.last_roll == 7 and phase.has_rolled and not phase.in_setup
    assert state.view.to_discard(1) == 4


def test_what_each_seat_knows_of_the_others():
    state = T.scenario(players=3, phase="robber")
    T.settlement(state, 1, 12)
    T.give(state, 1, ore=1, wood=1)  # gifts are public
    assert state.view.known_hand(2, 1).tolist() == [1, 0, 0, 0, 1]
    state.apply(A("robber", hex=4))
    assert state.current_player == CHANCE
    state.apply(30 + 4)  # seat 0 steals the ore
    assert state.view.known_hand(0, 1).tolist() == [1, 0, 0, 0, 0]  # the thief saw it go
    assert state.view.known_hand(2, 1).tolist() == [0, 0, 0, 0, 0]  # the third seat lost track of both
    assert state.view.card_count(1) == 1


def test_queries_do_not_change_the_position():
    state = T.scenario(players=2)
    T.settlement(state, 0, 12)
    T.road_path(state, 0, [12, 8, 4, 0])
    view = state.view
    assert view.longest_road(0) == 3 and view.longest_road(0, with_edge=T.edge(0, 3)) == 4
    assert view.road_ok(T.edge(0, 3), 0) and not view.road_ok(T.edge(0, 3), 1)
    assert view.node_free(8) is False and view.node_free(0) is True  # 8 is next to the settlement on 12
    assert view.settlement_ok(0, 0) and not view.settlement_ok(0, 1)  # seat 1 has no road there
    T.give(state, 0, wood=1, brick=1)
    before = state.s.copy()
    after = state.view.after(A("road", edge=T.edge(0, 3)))
    assert isinstance(after, CatanView) and after.buildings(0).roads != state.view.buildings(0).roads
    assert np.array_equal(state.s, before)


def test_set_hand_exchanges_with_the_bank_in_public():
    state = T.scenario(players=3)
    T.give(state, 1, wood=3)
    state.set_hand(1, [1, 0, 2, 0, 0])
    assert state.view.hand(1).tolist() == [1, 0, 2, 0, 0]
    assert state.view.bank().tolist() == [18, 19, 17, 19, 19]
    assert state.view.known_hand(0, 1).tolist() == [1, 0, 2, 0, 0] and state.edited
    T.set_bank(state, ore=1)
    before = state.s.copy()
    with pytest.raises(ValueError, match="bank has only 1"):
        state.set_hand(1, [0, 0, 0, 0, 2])  # the wood would go back, but the bank lacks the ore: nothing changes
    assert np.array_equal(state.s, before)
    with pytest.raises(ValueError, match="5 counts"):
        state.set_hand(1, [1, 2])


def test_main_phase_record_matches_the_phase_constants():
    phase = T.scenario(players=4, seat=2).view.phase()
    assert phase.id == PH_MAIN and phase.decider == 2 and phase.turn_seat == 2 and phase.winner is None
