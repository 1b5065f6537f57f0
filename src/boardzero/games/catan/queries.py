"""Compiled questions about a Catan position that change nothing: points, rates, where a piece may go, who moves."""

from __future__ import annotations

from numba import njit

from boardzero.games.catan.offsets import (
    BANK,
    EDGE_OWNER,
    G_DECIDER,
    G_DEV_PLAYED,
    G_LARGEST_ARMY,
    G_LONGEST_ROAD,
    G_NUM_PLAYERS,
    G_PHASE,
    NODE_OWNER,
    P_CARDS,
    P_CITIES_LEFT,
    P_DEV,
    P_DEV_NEW,
    P_HAND,
    P_PORTS,
    P_ROADS_LEFT,
    P_SETTLEMENTS_LEFT,
    PH_DEV_DRAW,
    PH_DICE,
    PH_OVER,
    PH_STEAL,
    ROAD_BUILDING,
    VICTORY_POINT,
    YEAR_OF_PLENTY,
    pb,
)
from boardzero.games.catan.topology import EDGE_NODES, HEX_NODES, NODE_EDGES, NODE_NODES


@njit(cache=True)
def victory_points(s, p, hidden=True):
    """Points of seat p; hidden=False leaves out victory-point cards (what opponents see)."""
    b = pb(p)
    vp = (5 - s[b + P_SETTLEMENTS_LEFT]) + 2 * (4 - s[b + P_CITIES_LEFT])
    if s[G_LARGEST_ARMY] == p:
        vp += 2
    if s[G_LONGEST_ROAD] == p:
        vp += 2
    if hidden:
        vp += s[b + P_DEV + VICTORY_POINT]
    return vp


@njit(cache=True)
def can_afford(s, p, cost):
    b = pb(p) + P_HAND
    for r in range(5):
        if s[b + r] < cost[r]:
            return False
    return True


@njit(cache=True)
def trade_rate(s, p, r):
    ports = s[pb(p) + P_PORTS]
    if ports & (1 << r):
        return 2
    if ports & 32:
        return 3
    return 4


@njit(cache=True)
def node_free_for_settlement(s, n):
    """Empty and no building on a neighbouring intersection (the distance rule)."""
    if s[NODE_OWNER + n] >= 0:
        return False
    for k in range(3):
        m = NODE_NODES[n, k]
        if m >= 0 and s[NODE_OWNER + m] >= 0:
            return False
    return True


@njit(cache=True)
def node_touches_road(s, n, p):
    for k in range(3):
        e = NODE_EDGES[n, k]
        if e >= 0 and s[EDGE_OWNER + e] == p:
            return True
    return False


@njit(cache=True)
def road_ok(s, e, p):
    """Empty path connected to p's network, not through an opponent's building."""
    if s[EDGE_OWNER + e] >= 0:
        return False
    for i in range(2):
        n = EDGE_NODES[e, i]
        owner = s[NODE_OWNER + n]
        if owner == p:
            return True
        if owner < 0:
            for k in range(3):
                f = NODE_EDGES[n, k]
                if f >= 0 and f != e and s[EDGE_OWNER + f] == p:
                    return True
    return False


@njit(cache=True)
def settlement_ok(s, n, p):
    return node_free_for_settlement(s, n) and node_touches_road(s, n, p)


@njit(cache=True)
def any_road_ok(s, p):
    for e in range(72):
        if road_ok(s, e, p):
            return True
    return False


@njit(cache=True)
def bank_total(s):
    t = 0
    for r in range(5):
        t += s[BANK + r]
    return t


@njit(cache=True)
def can_play_dev(s, p, kind):
    b = pb(p)
    if s[G_DEV_PLAYED] != 0 or s[b + P_DEV + kind] - s[b + P_DEV_NEW + kind] <= 0:
        return False
    if kind == ROAD_BUILDING:
        return s[b + P_ROADS_LEFT] > 0 and any_road_ok(s, p)
    if kind == YEAR_OF_PLENTY:
        return bank_total(s) > 0
    return kind != VICTORY_POINT


@njit(cache=True)
def current_player(s):
    """Seat to move, -1 at a chance node, -2 once the game is over."""
    ph = s[G_PHASE]
    if ph == PH_OVER:
        return -2
    if ph == PH_DICE or ph == PH_STEAL or ph == PH_DEV_DRAW:
        return -1
    return s[G_DECIDER]


@njit(cache=True)
def robber_victims(s, h, thief, out):
    """Seats with a building on hex h and cards in hand (not the thief); returns how many."""
    count = 0
    for k in range(6):
        n = HEX_NODES[h, k]
        o = s[NODE_OWNER + n]
        if o >= 0 and o != thief and s[pb(o) + P_CARDS] > 0:
            seen = False
            for i in range(count):
                if out[i] == o:
                    seen = True
            if not seen:
                out[count] = o
                count += 1
    return count


@njit(cache=True)
def setup_seat(s, step):
    n = s[G_NUM_PLAYERS]
    return step if step < n else 2 * n - 1 - step
