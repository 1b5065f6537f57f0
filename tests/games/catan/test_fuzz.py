"""Invariant fuzzing over many random games.

The compiled check (``testing.invariant_error``) runs after every step of
every game; snapshots taken along the way are checked again in plain Python,
including a from-scratch longest-road computation written independently of
the engine's.
"""

import numpy as np
import pytest

from boardzero.core.registry import make
from boardzero.games.catan import engine as E, testing as T
from boardzero.games.catan.topology import EDGE_NODES


def reference_longest_road(s, seat) -> int:
    """Longest trail (no path used twice) of seat's roads, not passing through an opponent's building."""
    own = [e for e in range(72) if s[E.EDGE_OWNER + e] == seat]
    ends = {e: tuple(int(v) for v in EDGE_NODES[e]) for e in own}

    def blocked(node):
        owner = s[E.NODE_OWNER + node]
        return owner >= 0 and owner != seat

    def walk(node, used):
        best = 0
        if used and blocked(node):
            return 0
        for e in own:
            if e not in used and node in ends[e]:
                a, b = ends[e]
                best = max(best, 1 + walk(b if node == a else a, used | {e}))
        return best

    nodes = {v for e in own for v in ends[e]}
    return max((walk(v, frozenset()) for v in nodes), default=0)


def check_snapshot(state_row, players):
    lengths = [reference_longest_road(state_row, p) for p in range(players)]
    for p in range(players):
        assert int(state_row[E.pb(p) + E.P_ROAD_LEN]) == lengths[p], f"seat {p}: road length"
    best = max(lengths)
    holder = int(state_row[E.G_LONGEST_ROAD])
    if holder >= 0:
        assert lengths[holder] == best >= 5
    else:
        assert not (best >= 5 and lengths.count(best) == 1)


def run_fuzz(players, games, seed, snapshots_per_game=3, turn_limit=500, trading=False):
    game = make("catan", players=players, turn_limit=turn_limit, trading=trading)
    rng = np.random.default_rng(seed)
    snaps = np.zeros((snapshots_per_game, E.STATE_SIZE), dtype=np.int32)
    ended = 0
    for g in range(games):
        s = game.initial_array(int(rng.integers(2**31)))
        every = int(rng.integers(150, 600))
        steps, taken, code, at = T.fuzz_play(s, int(rng.integers(2**31)), snaps, every, 2_000_000)
        assert code == 0, f"game {g}: {T.INVARIANT_NAMES.get(code, code)} at step {at}"
        assert s[E.G_PHASE] == E.PH_OVER, f"game {g} did not end in {steps} steps"
        ended += 1
        for row in list(snaps[:taken]) + [s]:
            check_snapshot(row, players)
        if g < 5:  # the Python-level invariant check as well
            state = game.new_state(seed=0)
            state.s[:] = s
            T.check_invariants(state)
            assert state.winner >= 0 or state.turn >= turn_limit
            if state.winner >= 0:
                assert state.victory_points(state.winner) >= game.options.vp_to_win
    return ended


@pytest.mark.parametrize("players,games", [(2, 600), (3, 600), (4, 1000)])
def test_random_games_keep_every_invariant(players, games):
    assert run_fuzz(players, games, seed=players) == games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_trading_keep_every_invariant(players):
    """Trading on: cards conserved, and an open offer's cards held by the proposer and every accepting seat."""
    assert run_fuzz(players, 150, seed=10 + players, trading=True) == 150


def test_games_without_turn_limit_end():
    assert run_fuzz(4, 30, seed=11, turn_limit=None) == 30


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_keep_every_invariant(players):
    assert run_fuzz(players, 20_000, seed=100 + players, snapshots_per_game=2) == 20_000
