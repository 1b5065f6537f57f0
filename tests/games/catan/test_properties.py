"""Invariants of Catan under random legal play (hypothesis draws the moves and the chance outcomes of the
first steps, a drawn seed the rest, to the end of the game): cards are conserved between hands, bank, deck
and the cards played; pieces stay within the supply and match the board; points equal their sources."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from boardzero.core.registry import make
from boardzero.games.catan import engine as E
from tests.core.random_play import choices, play

RESOURCES = ("wood", "brick", "sheep", "wheat", "ore")
DEV_KINDS = ("knight", "victory point", "road building", "year of plenty", "monopoly")
DECK = {"knight": 14, "victory point": 5, "road building": 2, "year of plenty": 2, "monopoly": 2}
PIECES = {"roads": 15, "settlements": 5, "cities": 4}


def check_invariants(state) -> None:
    view = state.public_view(None)
    n = state.game.num_players
    hands = np.array([state.hand(p) for p in range(n)])
    assert (hands >= 0).all() and all(0 <= view["bank"][r] <= 19 for r in RESOURCES)
    for r, resource in enumerate(RESOURCES):
        assert view["bank"][resource] + hands[:, r].sum() == 19, f"{resource} cards not conserved"
    # development cards: held (bought this turn included) + played + left in the deck; the deck by kind is not
    # public, so it is read from the engine's array
    held = np.array([state.dev_cards(p) for p in range(n)])
    deck = state.s[E.DECK : E.DECK + 5]
    assert deck.sum() == view["dev_deck"] and (held >= 0).all()
    for d, kind in enumerate(DEV_KINDS):
        played = sum(seat["played"][kind] for seat in view["seats"])
        assert deck[d] + held[:, d].sum() + played == DECK[kind], f"{kind} cards not conserved"
    assert all(seat["played"]["victory point"] == 0 for seat in view["seats"])  # never played, they count at once
    for p, seat in enumerate(view["seats"]):
        roads = sum(edge["owner"] == p for edge in view["edges"])
        settlements = sum(node["owner"] == p and node["building"] == "settlement" for node in view["nodes"])
        cities = sum(node["owner"] == p and node["building"] == "city" for node in view["nodes"])
        assert roads + seat["roads_left"] == PIECES["roads"] and 0 <= seat["roads_left"] <= PIECES["roads"]
        assert settlements + seat["settlements_left"] == PIECES["settlements"]
        assert 0 <= seat["settlements_left"] <= PIECES["settlements"]
        assert cities + seat["cities_left"] == PIECES["cities"] and 0 <= seat["cities_left"] <= PIECES["cities"]
        assert seat["cards"] == hands[p].sum() and seat["dev_cards"] == held[p].sum()
        assert seat["knights"] == seat["played"]["knight"]
        awards = 2 * (view["longest_road"] == p) + 2 * (view["largest_army"] == p)
        assert seat["longest_road"] == (view["longest_road"] == p)
        assert seat["largest_army"] == (view["largest_army"] == p)
        visible = settlements + 2 * cities + awards
        assert state.victory_points(p, hidden=False) == seat["visible_points"] == visible
        assert state.victory_points(p) == visible + held[p, DEV_KINDS.index("victory point")]
    if view["largest_army"] is not None:
        assert view["seats"][view["largest_army"]]["knights"] >= 3
    if view["longest_road"] is not None:
        assert view["seats"][view["longest_road"]]["road_length"] >= 5
    if state.is_terminal() and view["winner"] is not None:
        assert state.victory_points(view["winner"]) >= view["vp_to_win"]


@pytest.mark.parametrize("players", [2, 3, 4])
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), steps=choices(300), every=st.integers(1, 40))
def test_random_games_keep_cards_pieces_and_points_consistent(players, seed, steps, every):
    """Checked after each of the drawn steps, then every ``every`` steps of the seeded rest, and at the end."""
    state = make("catan", players=players).new_state(seed=seed)
    check_invariants(state)
    for count, _ in enumerate(play(state, steps, np.random.default_rng(seed)), 1):
        if count <= len(steps) or count % every == 0:
            check_invariants(state)
    assert state.is_terminal()
    check_invariants(state)


def check_trade(state) -> None:
    """With an offer open, the proposer holds what it gives and every accepting seat what is asked; offers
    stay within the turn's limit."""
    trade = state.view.trade()
    assert 0 <= trade.offers_made <= trade.offers_per_turn
    if trade.offer is None:
        return
    turn = state.view.phase().turn_seat
    assert (state.hand(turn) >= np.array(trade.offer.give)).all()
    for p, answer in enumerate(trade.answers):
        assert p != turn or answer is None
        if answer == "accept":
            assert (state.hand(p) >= np.array(trade.offer.get)).all()


@pytest.mark.parametrize("players", [2, 3, 4])
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), steps=choices(300), every=st.integers(1, 40))
def test_random_games_with_trading_keep_cards_pieces_and_points_consistent(players, seed, steps, every):
    """As above with player-to-player trading on: trades move cards between hands only."""
    state = make("catan", players=players, trading=True).new_state(seed=seed)
    for count, _ in enumerate(play(state, steps, np.random.default_rng(seed)), 1):
        if count <= len(steps) or count % every == 0:
            check_invariants(state)
            check_trade(state)
    assert state.is_terminal()
    check_invariants(state)
