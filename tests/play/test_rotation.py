"""The one seat rotation: every entrant takes every seat equally often, and P! games cover every seat order."""

import itertools
from collections import Counter

import pytest

from boardzero.play.rotation import seat_order, seat_slots, seating


def test_rotations_come_first_then_the_next_order():
    assert [seat_order(3, g) for g in range(3)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert {tuple(seat_order(3, g)) for g in range(6)} == set(itertools.permutations(range(3)))
    assert [seat_order(2, g) for g in range(4)] == [[0, 1], [1, 0], [0, 1], [1, 0]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_block_of_p_games_gives_each_entrant_each_seat_once(players):
    entrants = [f"e{i}" for i in range(players)]
    for block in range(3):
        games = [seating(entrants, players, block * players + g) for g in range(players)]
        for seat in range(players):
            assert sorted(game[seat] for game in games) == entrants


def test_the_last_entrant_fills_the_other_seats():
    assert seat_slots(["a", "b"], 4) == ["a", "b", "b", "b"]
    seatings = [seating(["a", "b"], 4, g) for g in range(4)]
    assert seatings[0] == ("a", "b", "b", "b")
    for seat in range(4):
        assert Counter(s[seat] for s in seatings) == {"a": 1, "b": 3}
    with pytest.raises(ValueError, match="1..2 entrants"):
        seating(["a", "b", "c"], 2, 0)
