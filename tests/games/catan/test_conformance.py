"""The Game API conformance check for 2, 3 and 4 players."""

import pytest

from boardzero.core.conformance import check_game
from boardzero.core.registry import make


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players):
    stats = check_game(make("catan", players=players), num_games=2, seed=players, deep_every=11)
    assert stats["min_length"] > 100  # setup alone takes 4 steps per seat; random games run to the points or the cap


def test_conformance_beginner_board_rank_returns():
    check_game(make("catan", players=3, board="beginner", returns="rank", turn_limit=60), num_games=2, seed=9)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_many_games(players):
    check_game(make("catan", players=players), num_games=25, seed=100 + players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_with_trading(players):
    stats = check_game(make("catan", players=players, trading=True), num_games=2, seed=20 + players, deep_every=11)
    assert stats["min_length"] > 100
