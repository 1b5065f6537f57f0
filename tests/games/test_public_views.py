"""Public views of the small games: JSON-ready boards, and cards only for those who may see them."""

import json

import pytest

from boardzero.core.conformance import ConformanceError, check_game
from boardzero.core.registry import make
from boardzero.games.kuhn_poker import BET, PASS, KuhnState
from tests.conftest import play_actions


def test_connect4_view_is_the_grid_top_down_and_marks_the_four():
    game = make("connect4")
    state = play_actions("connect4", [3, 4, 3, 4, 3, 4])
    view = state.public_view(None)
    assert view["grid"][5][3] == 0 and view["grid"][5][4] == 1 and view["grid"][0] == [None] * 7
    assert view["to_move"] == 0 and not view["over"] and view["winner"] is None and view["moves"] == 6
    state.apply(3)
    view = state.public_view(1)
    assert json.loads(json.dumps(view)) == view
    assert view["over"] and view["winner"] == 0 and view["returns"] == [1.0, -1.0] and view["to_move"] is None
    assert view["winning_cells"] == [[2, 3], [3, 3], [4, 3], [5, 3]]
    assert game.action_fields(5) == {"kind": "drop", "column": 5}


def test_tictactoe_view_lists_the_cells():
    state = play_actions("tictactoe", [4, 0])
    view = state.public_view(0)
    assert view["cells"] == [1, None, None, None, 0, None, None, None, None] and view["seat"] == 0


def test_kuhn_view_shows_only_the_viewers_card_until_the_showdown():
    game = make("kuhn_poker", players=2)
    state = play_actions("kuhn_poker", [2, 0], players=2)  # seat 0 holds K, seat 1 holds J
    assert [s["card"] for s in state.public_view(0)["seats"]] == ["K", None]
    assert [s["card"] for s in state.public_view(1)["seats"]] == [None, "J"]
    assert [s["card"] for s in state.public_view(None)["seats"]] == [None, None]
    assert [game.new_state().hidden_name(1), play_actions("kuhn_poker", [1], players=2).hidden_name(0)] == [
        "deal a card to seat 0",
        "deal a card to seat 1",
    ]
    state.apply(BET)
    state.apply(PASS)  # seat 1 folds: its card stays hidden, the winner's is shown
    view = state.public_view(None)
    assert view["over"] and view["winner"] == 0 and [s["card"] for s in view["seats"]] == ["K", None]
    assert view["seats"][1]["folded"] and view["pot"] == 3


def test_conformance_catches_a_kuhn_view_that_shows_every_card(monkeypatch):
    leaky_view = KuhnState.public_view
    monkeypatch.setattr(
        KuhnState, "public_view", lambda self, seat=None: {**leaky_view(self, seat), "cards": list(self.cards)}
    )
    with pytest.raises(ConformanceError, match="public_view leaks hidden cards"):
        check_game(make("kuhn_poker", players=3), num_games=10, deep_every=1)
