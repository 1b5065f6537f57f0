"""Catan's public view: the board as data, each seat's own cards, nothing hidden from others."""

import json

import numpy as np
import pytest

from boardzero.core.api import CHANCE, sample_chance
from boardzero.core.conformance import ConformanceError, check_game
from boardzero.games.catan import Catan, CatanOptions, CatanState, action_id, actions as A, testing as T
from boardzero.games.catan.public import PIPS
from boardzero.games.catan.topology import NODE_HEXES


def _swapped_hidden_cards(swap: bool) -> CatanState:
    """Seat 1 and seat 2 each hold one card and one development card; ``swap`` exchanges what they hold
    (as a steal between them would), so the bank, counts and deck size are the same either way."""
    state = T.scenario(3, seat=0)
    T.give(state, 1, wood=1)
    T.give(state, 2, ore=1)
    if swap:
        T.take(state, 1, wood=1), T.take(state, 2, ore=1)
        T.give(state, 1, ore=1), T.give(state, 2, wood=1)
    T.dev(state, 1, **({"victory_point": 1} if swap else {"knight": 1}))
    T.settlement(state, 1, 10)
    return state


def test_states_differing_only_in_hidden_cards_look_the_same_to_others():
    plain, swapped = _swapped_hidden_cards(False), _swapped_hidden_cards(True)
    assert plain.public_view(0) == swapped.public_view(0)
    assert plain.public_view(None) == swapped.public_view(None)
    assert plain.public_view(1) != swapped.public_view(1)  # seat 1 sees its own cards
    seat1 = swapped.public_view(1)["seats"][1]
    assert seat1["hand"]["ore"] == 1 and seat1["development"]["victory point"] == 1 and seat1["points"] == 2
    assert seat1["visible_points"] == 1


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    state = _swapped_hidden_cards(False)
    view = state.public_view(1)
    own, other = view["seats"][1], view["seats"][2]
    assert own["hand"] == {"wood": 1, "brick": 0, "sheep": 0, "wheat": 0, "ore": 0}
    assert own["development"]["knight"] == 1 and own["development_new"]["knight"] == 0
    assert {"hand", "development", "development_new", "points"}.isdisjoint(other)
    assert other["cards"] == 1 and other["dev_cards"] == 0
    assert all("hand" not in seat for seat in state.public_view(None)["seats"])


def test_board_harbours_buildings_and_awards_are_described():
    state = T.scenario(4, seat=2)
    T.settlement(state, 0, 10, city=True)
    T.road(state, 0, T.edge(10, 14))
    T.robber(state, 5)
    T.knights(state, 3, 3)
    view = state.public_view(2)
    assert json.loads(json.dumps(view)) == view
    assert len(view["hexes"]) == 19 and len(view["nodes"]) == 54 and len(view["edges"]) == 72
    terrains = [h["terrain"] for h in view["hexes"]]
    assert terrains.count("desert") == 1 and terrains.count("wood") == 4
    desert = view["hexes"][terrains.index("desert")]
    assert desert["number"] is None and desert["pips"] == 0
    assert {h["pips"] for h in view["hexes"] if h["number"] in (6, 8)} == {5}
    assert [h["id"] for h in view["hexes"] if h["robber"]] == [5] and view["robber"] == 5
    assert view["nodes"][10] == {**view["nodes"][10], "owner": 0, "building": "city"}
    assert view["edges"][T.edge(10, 14)]["owner"] == 0
    rates = sorted((h["rate"], h["resource"] or "") for h in view["harbours"])
    assert len(view["harbours"]) == 9 and [r for r, _ in rates].count(3) == 4
    assert sorted(res for _, res in rates if res) == ["brick", "ore", "sheep", "wheat", "wood"]
    assert view["largest_army"] == 3 and view["seats"][3]["largest_army"] and view["seats"][3]["knights"] == 3
    assert view["seats"][3]["visible_points"] == 2 and view["seats"][0]["visible_points"] == 2
    assert view["turn_player"] == 2 and view["to_move"] == 2 and view["phase"] == "main"
    assert view["bank"] == {"wood": 19, "brick": 19, "sheep": 19, "wheat": 19, "ore": 19}


def test_every_hand_is_shown_once_the_game_is_over_and_dice_are_reported():
    game = Catan(CatanOptions(players=2, vp_to_win=3))
    state = game.new_state(seed=1)
    rng = np.random.default_rng(0)
    rolled = None
    while not state.is_terminal():
        if state.current_player < 0:
            state.apply(sample_chance(state, rng))
            rolled = rolled or state.public_view(None)["dice"]
        else:
            state.apply(int(rng.choice(state.legal_actions())))
    view = state.public_view(None)
    assert view["over"] and view["winner"] in (0, 1) and view["returns"][view["winner"]] == 1.0
    assert all("hand" in seat and "points" in seat for seat in view["seats"])
    assert 2 <= rolled <= 12
    rolls = [a for a, actor in zip(state.history, _actors(state)) if actor == CHANCE and 2 <= a <= 12]
    assert sum(view["dice_counts"]) == len(rolls) > 0 and view["dice_counts"][rolled - 2] >= 1


def _actors(state):
    """Who took each history entry, by replaying the record."""
    replay = state.game.new_state(seed=state.seed)
    actors = []
    for action in state.history:
        actors.append(replay.current_player)
        replay.apply(action)
    return actors


def test_action_fields_name_the_parts_action_id_takes():
    for action in range(A.NUM_ACTIONS):
        fields = A.action_fields(action)
        assert action_id(fields.pop("kind"), **fields) == action
    assert Catan().action_fields(action_id("trade", give="wood", get="ore")) == {
        "kind": "trade",
        "give": "wood",
        "get": "ore",
    }


def test_hidden_chance_outcomes_have_a_name_that_tells_nothing():
    state = T.scenario(3, seat=0)
    T.give(state, 1, wheat=2)
    state.s[T.E.G_PHASE] = T.E.PH_STEAL
    state.s[T.E.G_VICTIM] = 1
    assert state.hidden_name(30 + 3) == "steal a card from seat 1"


def test_conformance_catches_a_public_view_that_leaks_a_hand(monkeypatch):
    honest = CatanState.public_view

    def leaky(self, seat=None):
        view = honest(self, seat)
        view["seats"] = [{**p, "wood": int(self.hand(p["seat"])[0])} for p in view["seats"]]
        return view

    monkeypatch.setattr(CatanState, "public_view", leaky)
    with pytest.raises(ConformanceError, match="public_view leaks hidden cards"):
        check_game(Catan(CatanOptions(players=3)), num_games=3, deep_every=1)


def test_a_sampled_state_knows_who_saw_each_new_entry():
    game = Catan(CatanOptions(players=3))
    rng = np.random.default_rng(5)
    state = game.new_state(seed=5)
    checked = hidden = 0
    for _ in range(4000):
        if state.is_terminal():
            break
        seat = int(rng.integers(3))
        sampled = state.sample_hidden(seat, rng)  # its earlier history is rewritten only when read
        player = sampled.current_player
        sampled.apply(sample_chance(sampled, rng) if player == CHANCE else int(rng.choice(sampled.legal_actions())))
        fast = sampled.last_seen_by()
        derived = tuple(s for s in range(3) if sampled.public_history(s)[-1] is not None)
        assert fast == (None if len(derived) == 3 else derived)
        checked += 1
        hidden += fast is not None
        player = state.current_player
        state.apply(sample_chance(state, rng) if player == CHANCE else int(rng.choice(state.legal_actions())))
    assert checked > 500 and hidden > 0


def _pips_around(state, node: int, robber: int) -> int:
    """The pips of the land hexes around ``node``, the robber's left out (from the engine's arrays)."""
    _, numbers = state.board_arrays()
    return sum(PIPS[int(numbers[h])] for h in NODE_HEXES[node] if h >= 0 and h != robber)


def test_production_counts_the_pips_under_each_seats_buildings_a_city_twice_and_not_the_robbers_hex():
    state = T.scenario(2, seat=0)
    T.settlement(state, 0, 10)
    T.settlement(state, 0, 30)
    T.settlement(state, 1, 20, city=True)
    robbed = int(next(h for h in NODE_HEXES[30] if h >= 0 and state.board_arrays()[1][h] > 0))
    T.robber(state, robbed)
    expected = [_pips_around(state, 10, robbed) + _pips_around(state, 30, robbed), 2 * _pips_around(state, 20, robbed)]
    assert state.summary()["production"] == expected
    assert _pips_around(state, 30, robbed) < _pips_around(state, 30, -1)  # the robber took something away
    assert expected[0] > 0 and expected[1] > 0
