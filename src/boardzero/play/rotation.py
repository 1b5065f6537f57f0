"""The one seat rotation: who sits where in game ``number`` of a match, for every caller (the arena,
tournaments, training's evaluations).

The entrants of a game are listed once each; when there are fewer entrants than seats the last one fills
the rest (``catan heuristic random``: one heuristic player and three random ones). Game ``number`` seats
them in the order ``seat_order(P, number)``: the P rotations of one order, then of the next, so every P
consecutive games give each entrant each seat equally often and P! games cover every seat order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence


def seat_order(num_players: int, number: int) -> list[int]:
    """Which slot of the lineup sits in each seat in game ``number`` (see the module docstring)."""
    bases = [(0, *rest) for rest in itertools.permutations(range(1, num_players))]
    base = bases[(number // num_players) % len(bases)]
    return [base[(seat + number) % num_players] for seat in range(num_players)]


def seat_slots(entrants: Sequence[str], num_players: int) -> list[str]:
    """The lineup of a game, one slot per seat: the entrants, the last repeated to fill the seats."""
    if not entrants or len(entrants) > num_players:
        raise ValueError(f"a game of {num_players} seats takes 1..{num_players} entrants, got {len(entrants)}")
    return list(entrants) + [entrants[-1]] * (num_players - len(entrants))


def seating(entrants: Sequence[str], num_players: int, number: int) -> tuple[str, ...]:
    """The entrant in each seat of game ``number`` of a match between ``entrants``."""
    slots = seat_slots(entrants, num_players)
    return tuple(slots[slot] for slot in seat_order(num_players, number))
