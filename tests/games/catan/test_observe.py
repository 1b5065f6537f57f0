"""The ``rich`` observation's per-seat features are seat-relative, like the rest of the observation."""

import numpy as np
import pytest

from boardzero.games.catan import engine as E, observe as O, testing as T
from boardzero.games.catan.topology import NODE_HEXES


def seat_rows(state, observer: int) -> np.ndarray:
    """The per-seat block of ``rich`` seen by ``observer``: one row per relative seat."""
    extra = state.observe(observer)["rich"][O.FLAT_SIZE :]
    return extra[54 * O.NODE_EXTRA : 54 * O.NODE_EXTRA + 4 * O.SEAT_EXTRA].reshape(4, O.SEAT_EXTRA)


def production(state, node: int, level: int) -> np.ndarray:
    """Pips per resource of a building of ``level`` on ``node`` (the robber is on the desert)."""
    s = state.s
    out = np.zeros(5)
    for h in NODE_HEXES[node]:
        if h >= 0 and s[E.HEX_RES + h] < 5:
            out[s[E.HEX_RES + h]] += level * (6 - abs(7 - s[E.HEX_NUM + h]))
    return out


@pytest.mark.parametrize("players", [3, 4])
def test_each_seats_production_is_in_its_row_relative_to_the_observer(players):
    """Seat 1 holds a city and seat 2 a settlement: every observer finds them at rows (1 - observer) % n and
    (2 - observer) % n, and nothing in the other rows."""
    state = T.scenario(players=players)
    T.settlement(state, 1, 12, city=True)
    T.settlement(state, 2, 40)
    expected = {1: production(state, 12, 2), 2: production(state, 40, 1)}
    assert expected[1].sum() > 0 and expected[2].sum() > 0 and not np.allclose(expected[1], expected[2])
    for observer in range(players):
        rows = seat_rows(state, observer)
        for owner, pips in expected.items():
            relative = (owner - observer) % players
            assert rows[relative, :5] == pytest.approx(pips / 10), (observer, owner)
            assert rows[relative, 5] == pytest.approx(pips.sum() / 20), (observer, owner)
        empty = [(q - observer) % players for q in range(players) if q not in expected]
        assert rows[empty, :6].sum() == 0, observer
        assert rows[players:].sum() == 0  # rows beyond the players at the table stay empty
