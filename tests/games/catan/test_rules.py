"""Scenario tests, one rule each, on the beginner board (see docs/catan.md for the numbering).

Beginner board hexes used here: #0 ore 10 (nodes 0 4 8 12 7 3), #3 wheat 12,
#4 brick 6 (nodes 8 13 18 23 17 12), #5 sheep 4, #9 desert (robber start).
Harbours: 3:1 at nodes 7/11, sheep 2:1 at 0/4.
"""

import numpy as np
import pytest

from boardzero.core.api import CHANCE, TERMINAL
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import make
from boardzero.games.catan import action_id as A, engine as E, testing as T
from boardzero.games.catan.topology import NODE_EDGES

LONG_ROAD = [7, 3, 0, 4, 1, 5, 2, 6, 10]  # 8 paths along the top coast
FIVE_A = [33, 38, 43, 47, 51, 48]  # 5 paths along the bottom coast
FIVE_B = [17, 23, 29, 35, 40, 45]  # 5 paths through the middle


def legal(state, *names):
    return [state.legal_mask()[a] for a in names]


def roll(state, total):
    state.apply(A("roll"))
    assert state.current_player == CHANCE
    state.apply(total)


# ---------------------------------------------------------------- setup
def test_setup_snake_order_distance_rule_and_second_settlement_yields():
    state = make("catan", players=3, board="beginner").new_state(seed=0)
    placed = [0, 10, 20, 12, 30, 40]  # seats 0 1 2 2 1 0
    seats = []
    for node in placed:
        seats.append(state.current_player)
        state.apply(A("settlement", node=node))
        roads = state.legal_actions()
        assert all(E.A_ROAD <= a < E.A_ROBBER for a in roads)
        assert {int(a - E.A_ROAD) for a in roads} <= {int(e) for e in NODE_EDGES[node] if e >= 0}
        state.apply(roads[0])
    assert seats == [0, 1, 2, 2, 1, 0]
    assert state.current_player == 0 and state.phase == E.PH_PRE_ROLL
    # second settlements yield: seat 2 at 12 (ore 10, wheat 12, brick 6), seat 0 at 40 (ore 3, wheat 4, wheat 6)
    assert T.hand(state, 2) == {"wood": 0, "brick": 1, "sheep": 0, "wheat": 1, "ore": 1}
    assert T.hand(state, 0) == {"wood": 0, "brick": 0, "sheep": 0, "wheat": 2, "ore": 1}
    assert T.hand(state, 1)["wood"] == 1  # 30: wood 3, wheat 4, desert


def test_setup_distance_rule():
    state = make("catan", players=2, board="beginner").new_state(seed=0)
    state.apply(A("settlement", node=12))
    state.apply(A("road", edge=T.edge(12, 8)))
    for neighbour in (7, 8, 17):
        assert not state.legal_mask()[A("settlement", node=neighbour)]
    with pytest.raises(IllegalActionError, match="distance rule"):
        state.apply(A("settlement", node=8))
    assert state.legal_mask()[A("settlement", node=13)]


# ---------------------------------------------------------------- building
def test_settlement_needs_own_road_and_distance_rule():
    state = T.scenario()
    T.settlement(state, 0, 12)
    T.road_path(state, 0, [12, 8, 13])
    T.give(state, 0, wood=2, brick=2, sheep=2, wheat=2)
    assert legal(state, A("settlement", node=13)) == [True]
    assert legal(state, A("settlement", node=8), A("settlement", node=9)) == [False, False]
    with pytest.raises(IllegalActionError, match="distance rule"):
        state.apply(A("settlement", node=8))
    with pytest.raises(IllegalActionError, match="not connected"):
        state.apply(A("settlement", node=30))
    state.apply(A("settlement", node=13))
    assert T.hand(state, 0) == {"wood": 1, "brick": 1, "sheep": 1, "wheat": 1, "ore": 0}
    assert state.victory_points(0) == 2


def _road_ending_at_an_opponent(**cards):
    """Seat 0 to act, its road 3-0-4 ending where seat 1 has settled (node 4), holding ``cards``."""
    state = T.scenario()
    T.settlement(state, 0, 3)
    T.road_path(state, 0, [3, 0, 4])
    T.settlement(state, 1, 4)
    return T.give(state, 0, **cards)


def test_road_connects_to_own_network_not_through_opponent_building():
    state = _road_ending_at_an_opponent(wood=3, brick=3)
    assert legal(state, A("road", edge=T.edge(4, 1)), A("road", edge=T.edge(4, 8))) == [False, False]
    assert legal(state, A("road", edge=T.edge(3, 7))) == [True]
    with pytest.raises(IllegalActionError, match="not connected"):
        state.apply(A("road", edge=T.edge(4, 1)))
    state.apply(A("road", edge=T.edge(3, 7)))
    assert T.hand(state, 0) == {"wood": 2, "brick": 2, "sheep": 0, "wheat": 0, "ore": 0}


def test_apply_foreign_places_what_the_rules_refuse_and_marks_the_record():
    # for a state shadowing another engine's game, whose rules let a road go on past an opponent's settlement
    state = _road_ending_at_an_opponent(wood=1, brick=1)
    state.edited = False
    length = len(state.history)
    state.apply_foreign(A("road", edge=T.edge(4, 8)))
    assert state.s[E.EDGE_OWNER + T.edge(4, 8)] == 0 and T.hand(state, 0)["wood"] == 0
    assert state.history[length:] == [A("road", edge=T.edge(4, 8))] and state.edited
    T.check_invariants(state)
    T.set_turn(state, 0, "pre_roll").apply(A("roll"))  # the dice decide next, no player
    with pytest.raises(ValueError, match="takes a player's move"):
        state.apply_foreign(E.O_DICE + 7)


def test_city_only_on_own_settlement_and_returns_the_settlement():
    state = T.scenario()
    T.settlement(state, 0, 12)
    T.settlement(state, 1, 30)
    T.give(state, 0, wheat=4, ore=6)
    with pytest.raises(IllegalActionError, match="seat 0 has no settlement there"):
        state.apply(A("city", node=30))
    left = int(state.s[E.pb(0) + E.P_SETTLEMENTS_LEFT])
    state.apply(A("city", node=12))
    assert int(state.s[E.pb(0) + E.P_SETTLEMENTS_LEFT]) == left + 1
    assert int(state.s[E.pb(0) + E.P_CITIES_LEFT]) == 3
    assert state.victory_points(0) == 2
    with pytest.raises(IllegalActionError, match="has a city"):
        state.apply(A("city", node=12))


def test_piece_limits():
    state = T.scenario()
    for node in (0, 2, 12, 14, 30):
        T.settlement(state, 0, node)
    T.road_path(state, 0, [12, 8, 13])
    T.give(state, 0, wood=1, brick=1, sheep=1, wheat=1)
    assert not state.legal_mask()[A("settlement", node=13)]
    with pytest.raises(IllegalActionError, match="no settlements left"):
        state.apply(A("settlement", node=13))
    state2 = T.scenario()
    for node in (0, 2, 12, 14):
        T.settlement(state2, 0, node, city=True)
    T.settlement(state2, 0, 30)
    T.give(state2, 0, wheat=2, ore=3)
    with pytest.raises(IllegalActionError, match="no cities left"):
        state2.apply(A("city", node=30))
    state3 = T.scenario()
    T.road(state3, 0, *range(15))
    T.give(state3, 0, wood=1, brick=1)
    assert not state3.legal_mask()[E.A_ROAD : E.A_ROBBER].any()


# ---------------------------------------------------------------- dice, production, robber
def test_dice_chance_has_true_2d6_probabilities():
    state = T.scenario(phase="pre_roll")
    state.apply(A("roll"))
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == list(range(2, 13))
    assert outcomes[7] == pytest.approx(6 / 36) and outcomes[2] == pytest.approx(1 / 36)
    assert outcomes[8] == pytest.approx(5 / 36)


def test_production_settlement_one_city_two_robber_blocks():
    state = T.scenario(players=3, phase="pre_roll")
    T.settlement(state, 0, 12)
    T.settlement(state, 1, 18, city=True)
    roll(state, 6)
    assert T.hand(state, 0)["brick"] == 1 and T.hand(state, 1)["brick"] == 2
    state2 = T.scenario(players=3, phase="pre_roll")
    T.settlement(state2, 0, 12)
    T.robber(state2, 4)
    roll(state2, 6)
    assert T.hand(state2, 0)["brick"] == 0


def test_bank_limit_nobody_when_several_are_owed():
    state = T.scenario(players=3, phase="pre_roll")
    T.settlement(state, 0, 12)
    T.settlement(state, 1, 18, city=True)
    T.set_bank(state, brick=2)  # 3 owed, 2 in the bank, two players: nobody gets brick
    roll(state, 6)
    assert T.hand(state, 0)["brick"] == 0 and T.hand(state, 1)["brick"] == 0
    assert T.bank(state)["brick"] == 2


def test_bank_limit_single_player_gets_what_is_left():
    state = T.scenario(players=3, phase="pre_roll")
    T.settlement(state, 1, 18, city=True)
    T.set_bank(state, brick=1)
    roll(state, 6)
    assert T.hand(state, 1)["brick"] == 1 and T.bank(state)["brick"] == 0


def test_seven_discards_card_by_card_in_seat_order_then_robber_and_steal():
    state = T.scenario(players=4, phase="pre_roll")
    T.give(state, 0, wood=8)
    T.give(state, 1, ore=9)
    T.give(state, 2, sheep=7)
    T.give(state, 3, wheat=4, brick=5)
    T.settlement(state, 1, 18)
    T.settlement(state, 3, 12)
    roll(state, 7)
    order = []
    while state.phase == E.PH_DISCARD:
        seat = state.current_player
        order.append(seat)
        state.apply(state.legal_actions()[0])
    assert order == [0] * 4 + [1] * 4 + [3] * 4
    assert [int(state.s[E.pb(p) + E.P_CARDS]) for p in range(4)] == [4, 5, 7, 5]
    assert state.phase == E.PH_ROBBER and state.current_player == 0
    assert not state.legal_mask()[A("robber", hex=9)]  # must move away from the desert
    state.apply(A("robber", hex=4))  # seats 1 and 3 touch brick 6
    assert sorted(state.legal_actions()) == [A("rob", seat=1), A("rob", seat=3)]
    with pytest.raises(IllegalActionError, match="no building on hex 4"):
        state.apply(A("rob", seat=2))
    state.apply(A("rob", seat=3))
    assert state.current_player == CHANCE
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {E.O_STEAL + 1: pytest.approx(0.2), E.O_STEAL + 3: pytest.approx(0.8)}
    state.apply(E.O_STEAL + 3)
    assert T.hand(state, 0)["wheat"] == 1 and state.phase == E.PH_MAIN


def test_robber_without_victims_and_single_victim_skip_the_choice():
    state = T.scenario(players=3, phase="robber")
    state.apply(A("robber", hex=0))
    assert state.phase == E.PH_MAIN
    state2 = T.scenario(players=3, phase="robber")
    T.settlement(state2, 1, 12)
    T.settlement(state2, 2, 17)  # no cards: cannot be robbed
    T.give(state2, 1, ore=1)
    state2.apply(A("robber", hex=4))
    assert state2.current_player == CHANCE and state2.chance_outcomes() == [(E.O_STEAL + 4, 1.0)]


# ---------------------------------------------------------------- development cards
def test_buying_draws_from_the_deck_composition():
    state = T.scenario()
    T.give(state, 0, sheep=1, wheat=1, ore=1)
    state.apply(A("buy_dev"))
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {
        20: pytest.approx(14 / 25),
        21: pytest.approx(5 / 25),
        22: pytest.approx(2 / 25),
        23: pytest.approx(2 / 25),
        24: pytest.approx(2 / 25),
    }
    state.apply(20)
    assert not state.legal_mask()[A("knight")]  # bought this turn
    with pytest.raises(IllegalActionError, match="bought this turn"):
        state.apply(A("knight"))
    state.apply(A("end_turn"))
    T.set_turn(state, 0, "pre_roll")
    assert state.legal_mask()[A("knight")]


def test_knight_before_the_roll_then_one_card_per_turn():
    state = T.scenario(phase="pre_roll")
    T.dev(state, 0, knight=2, monopoly=1)
    state.apply(A("knight"))
    assert state.phase == E.PH_ROBBER
    state.apply(A("robber", hex=0))
    assert state.phase == E.PH_PRE_ROLL and state.legal_mask()[A("roll")]
    assert not state.legal_mask()[A("knight")] and not state.legal_mask()[A("monopoly", resource="ore")]
    with pytest.raises(IllegalActionError, match="already played this turn"):
        state.apply(A("knight"))
    assert int(state.s[E.pb(0) + E.P_KNIGHTS]) == 1


def test_victory_point_cards_cannot_be_played_and_count_at_once():
    state = T.scenario(vp_to_win=3)
    T.settlement(state, 0, 0)
    T.settlement(state, 0, 30)
    T.give(state, 0, sheep=1, wheat=1, ore=1)
    state.apply(A("buy_dev"))
    state.apply(21)  # a victory point card: 3 points on own turn wins
    assert state.current_player == TERMINAL and state.winner == 0
    assert list(state.returns()) == [1.0, 0.0, 0.0, 0.0]


def test_road_building_places_two_free_roads():
    state = T.scenario()
    T.settlement(state, 0, 12)
    T.dev(state, 0, road_building=1)
    state.apply(A("road_building"))
    assert state.phase == E.PH_ROAD_BUILDING
    state.apply(A("road", edge=T.edge(12, 8)))
    state.apply(A("road", edge=T.edge(8, 13)))
    assert state.phase == E.PH_MAIN and int(state.s[E.pb(0) + E.P_ROADS_LEFT]) == 13
    assert T.hand(state, 0) == T.hand(T.scenario(), 0)  # no cards spent


def test_road_building_with_one_piece_left_places_one():
    state = T.scenario(phase="pre_roll")
    T.settlement(state, 0, 12)
    T.road(state, 0, *range(50, 64))
    T.dev(state, 0, road_building=1)
    state.apply(A("road_building"))
    state.apply(A("road", edge=T.edge(12, 8)))
    assert state.phase == E.PH_PRE_ROLL  # back to before the roll, card used
    assert int(state.s[E.pb(0) + E.P_ROADS_LEFT]) == 0


def test_year_of_plenty_takes_two_cards_the_bank_has():
    state = T.scenario()
    T.dev(state, 0, year_of_plenty=1)
    T.set_bank(state, brick=0)
    state.apply(A("year_of_plenty"))
    assert not state.legal_mask()[A("take", resource="brick")]
    state.apply(A("take", resource="ore"))
    state.apply(A("take", resource="ore"))
    assert T.hand(state, 0)["ore"] == 2 and state.phase == E.PH_MAIN


def test_monopoly_takes_every_opponents_cards_of_one_resource():
    state = T.scenario(players=3)
    T.dev(state, 0, monopoly=1)
    T.give(state, 1, wheat=3, ore=1)
    T.give(state, 2, wheat=2)
    state.apply(A("monopoly", resource="wheat"))
    assert T.hand(state, 0)["wheat"] == 5
    assert T.hand(state, 1) == {"wood": 0, "brick": 0, "sheep": 0, "wheat": 0, "ore": 1}
    assert T.hand(state, 2)["wheat"] == 0


# ---------------------------------------------------------------- largest army
def test_largest_army_at_three_and_only_to_strictly_more():
    state = T.scenario(players=3)
    T.knights(state, 0, 2)
    T.dev(state, 0, knight=1)
    state.apply(A("knight"))
    state.apply(A("robber", hex=0))
    assert int(state.s[E.G_LARGEST_ARMY]) == 0 and state.victory_points(0) == 2
    T.knights(state, 1, 2)
    T.set_turn(state, 1)
    T.dev(state, 1, knight=2)
    state.apply(A("knight"))
    state.apply(A("robber", hex=1))
    assert int(state.s[E.G_LARGEST_ARMY]) == 0  # a tie at 3 does not take it
    T.set_turn(state, 1)
    state.apply(A("knight"))
    state.apply(A("robber", hex=2))
    assert int(state.s[E.G_LARGEST_ARMY]) == 1


# ---------------------------------------------------------------- longest road
def test_longest_road_from_five_and_only_to_strictly_more():
    state = T.scenario(players=3)
    T.road_path(state, 0, FIVE_A[:5])
    assert int(state.s[E.G_LONGEST_ROAD]) == -1
    T.give(state, 0, wood=1, brick=1)
    state.apply(A("road", edge=T.edge(51, 48)))
    assert int(state.s[E.G_LONGEST_ROAD]) == 0 and state.victory_points(0) == 2
    T.road_path(state, 1, FIVE_B)
    assert int(state.s[E.G_LONGEST_ROAD]) == 0  # 5 = 5: the holder keeps it
    T.set_turn(state, 1)
    T.give(state, 1, wood=1, brick=1)
    state.apply(A("road", edge=T.edge(45, 49)))
    assert int(state.s[E.G_LONGEST_ROAD]) == 1


def test_longest_road_broken_goes_to_the_sole_longest():
    state = T.scenario(players=3)
    T.road_path(state, 0, LONG_ROAD)
    T.road_path(state, 1, FIVE_A)
    assert int(state.s[E.G_LONGEST_ROAD]) == 0
    T.settlement(state, 2, 1)  # splits seat 0's road into 3 + 4
    assert int(state.s[E.pb(0) + E.P_ROAD_LEN]) == 4
    assert int(state.s[E.G_LONGEST_ROAD]) == 1


def test_longest_road_broken_with_others_tied_is_set_aside():
    state = T.scenario(players=3)
    T.road_path(state, 0, LONG_ROAD)
    T.road_path(state, 1, FIVE_A)
    T.road_path(state, 2, FIVE_B)
    T.settlement(state, 2, 1)
    assert int(state.s[E.G_LONGEST_ROAD]) == -1  # seats 1 and 2 tie at 5: nobody holds it
    T.give(state, 2, wood=1, brick=1)
    T.set_turn(state, 2)
    state.apply(A("road", edge=T.edge(45, 49)))
    assert int(state.s[E.G_LONGEST_ROAD]) == 2


def test_longest_road_holder_still_tied_after_the_break_keeps_it():
    state = T.scenario(players=3)
    T.road_path(state, 0, LONG_ROAD)
    T.road_path(state, 1, FIVE_A)
    T.settlement(state, 2, 5)  # seat 0 keeps 7-3-0-4-1-5: 5 long, tied with seat 1
    assert int(state.s[E.pb(0) + E.P_ROAD_LEN]) == 5
    assert int(state.s[E.G_LONGEST_ROAD]) == 0


def test_longest_road_broken_below_five_with_nobody_else_is_set_aside():
    state = T.scenario(players=2)
    T.road_path(state, 0, LONG_ROAD[:6])
    assert int(state.s[E.G_LONGEST_ROAD]) == 0
    T.settlement(state, 1, 4)
    assert int(state.s[E.G_LONGEST_ROAD]) == -1


def test_points_reached_on_another_seats_turn_win_at_the_start_of_ones_own():
    state = T.scenario(players=3, vp_to_win=4, seat=2)
    T.road_path(state, 0, LONG_ROAD)
    T.road_path(state, 1, FIVE_A)
    T.settlement(state, 1, 33)
    T.settlement(state, 1, 48)
    T.road_path(state, 2, [14, 9, 5])
    T.give(state, 2, wood=1, brick=1, sheep=1, wheat=1)
    state.apply(A("settlement", node=5))  # breaks seat 0's road on seat 2's turn (5 = 5, keeps it)
    assert int(state.s[E.G_LONGEST_ROAD]) == 0
    T.settlement(state, 2, 1)  # a second break: seat 0 drops to 4, seat 1 (5) takes it: 4 points
    assert int(state.s[E.G_LONGEST_ROAD]) == 1 and state.victory_points(1) == 4
    assert not state.is_terminal()
    state.apply(A("end_turn"))  # seat 0's turn: seat 1 has not won yet
    assert state.current_player == 0
    roll(state, 2)
    state.apply(A("end_turn"))
    assert state.is_terminal() and state.winner == 1


# ---------------------------------------------------------------- trades and harbours
def test_bank_trade_four_to_one():
    state = T.scenario()
    T.give(state, 0, wood=4)
    state.apply(A("trade", give="wood", get="ore"))
    assert T.hand(state, 0) == {"wood": 0, "brick": 0, "sheep": 0, "wheat": 0, "ore": 1}
    T.give(state, 0, wood=3)
    with pytest.raises(IllegalActionError, match="needs 4 wood"):
        state.apply(A("trade", give="wood", get="ore"))


def test_generic_harbour_three_to_one_and_matching_harbour_two_to_one():
    state = T.scenario()
    T.settlement(state, 0, 7)  # 3:1 harbour
    T.give(state, 0, wood=3, sheep=2)
    assert state.describe(A("trade", give="wood", get="ore")) == "trade 3 wood for 1 ore"
    state.apply(A("trade", give="wood", get="ore"))
    assert T.hand(state, 0)["wood"] == 0
    assert not state.legal_mask()[A("trade", give="sheep", get="ore")]
    T.settlement(state, 0, 0)  # sheep 2:1 harbour
    state.apply(A("trade", give="sheep", get="ore"))
    assert T.hand(state, 0) == {"wood": 0, "brick": 0, "sheep": 0, "wheat": 0, "ore": 2}


# ---------------------------------------------------------------- end of the game
def test_win_on_own_turn_by_building():
    state = T.scenario(vp_to_win=3)
    T.settlement(state, 0, 12)
    T.settlement(state, 0, 30)
    T.give(state, 0, wheat=2, ore=3)
    state.apply(A("city", node=12))
    assert state.is_terminal() and state.winner == 0
    assert list(state.returns()) == [1.0, 0.0, 0.0, 0.0]
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(A("end_turn"))


def test_win_vp_returns_mix_the_win_with_each_seats_share_of_the_points():
    state = T.scenario(players=3, vp_to_win=4, returns="win_vp")
    T.settlement(state, 0, 12)
    T.settlement(state, 0, 30)
    T.settlement(state, 0, 40)
    T.settlement(state, 1, 0)
    T.give(state, 0, wheat=2, ore=3)
    state.apply(A("city", node=12))
    assert state.is_terminal() and state.winner == 0
    assert list(state.returns()) == [1.0, 0.25 * 1 / 4, 0.0]


def test_turn_limit_ends_the_game_and_ranks_by_points():
    state = T.scenario(players=3, turn_limit=3, phase="pre_roll")
    T.settlement(state, 1, 30)
    for _ in range(3):
        roll(state, 2)
        state.apply(A("end_turn"))
    assert state.is_terminal() and state.winner == -1
    assert list(state.returns()) == [0.0, 1.0, 0.0]
    rank = T.scenario(players=3, turn_limit=1, phase="pre_roll", returns="rank")
    T.settlement(rank, 1, 30)
    T.settlement(rank, 1, 40)
    T.settlement(rank, 2, 0)
    roll(rank, 2)
    rank.apply(A("end_turn"))
    assert list(rank.returns()) == [0.0, 1.0, 0.5]


# ---------------------------------------------------------------- errors and options
def test_illegal_action_names_the_action_and_reason_and_leaves_the_state():
    state = T.scenario()
    before = state.s.copy(), list(state.history)
    with pytest.raises(IllegalActionError) as err:
        state.apply(A("city", node=17))
    assert "city at 17 (wheat 12, brick 6, wood 11)" in str(err.value)
    assert "seat 0 has no settlement there" in str(err.value)
    assert np.array_equal(state.s, before[0]) and state.history == before[1]
    for action in (-1, 244, A("roll"), A("robber", hex=3)):
        with pytest.raises(IllegalActionError):
            state.apply(action)
    assert np.array_equal(state.s, before[0])


def test_must_roll_before_building():
    state = T.scenario(phase="pre_roll")
    T.give(state, 0, wood=1, brick=1)
    T.settlement(state, 0, 12)
    with pytest.raises(IllegalActionError, match="must roll the dice first"):
        state.apply(A("road", edge=T.edge(12, 8)))
    with pytest.raises(IllegalActionError, match="must roll the dice first"):
        state.apply(A("end_turn"))


def test_options_are_validated():
    with pytest.raises(ConfigError, match="trade_offers"):
        make("catan", trading=True, trade_offers=11)
    with pytest.raises(ConfigError, match="players"):
        make("catan", players=5)
    with pytest.raises(ConfigError, match="board"):
        make("catan", board="huge")


def test_impossible_chance_outcomes_are_rejected():
    state = T.scenario(phase="pre_roll")
    state.apply(A("roll"))
    for outcome in (1, 13, 20, 30):
        with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
            state.apply(outcome)
    steal = T.scenario(players=3, phase="robber")
    T.settlement(steal, 1, 12)
    T.give(steal, 1, ore=1)
    steal.apply(A("robber", hex=4))
    with pytest.raises(IllegalActionError):
        steal.apply(E.O_STEAL + 0)  # seat 1 holds no wood
    steal.apply(E.O_STEAL + 4)
    assert T.hand(steal, 0)["ore"] == 1


def test_longest_road_counts_a_ring_and_its_tail_but_not_branches():
    state = T.scenario(players=2)
    T.road_path(state, 0, [8, 13, 18, 23, 17, 12, 8])  # the six sides of hex 4
    assert int(state.s[E.pb(0) + E.P_ROAD_LEN]) == 6
    T.road_path(state, 0, [12, 7, 3])  # a tail of two from a ring corner
    assert int(state.s[E.pb(0) + E.P_ROAD_LEN]) == 8
    T.road_path(state, 0, [13, 9])  # a branch at another ring corner: no trail uses all 9 (4 odd ends)
    assert int(state.s[E.pb(0) + E.P_ROAD_LEN]) == 8
    T.settlement(state, 0, 18)  # own buildings do not cut
    assert int(state.s[E.pb(0) + E.P_ROAD_LEN]) == 8
    T.settlement(state, 1, 23)  # an opponent's does: 3-7-12-8-13-18-23 is the longest now
    assert int(state.s[E.pb(0) + E.P_ROAD_LEN]) == 6
