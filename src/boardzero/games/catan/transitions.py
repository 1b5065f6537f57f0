"""Compiled state changes shared by several action handlers: cards to and from the bank in public view, pieces
placed, production, the robber's and the turn's bookkeeping, and a fresh game's array."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan.offsets import (
    BANK,
    DECK,
    DEV_COUNTS,
    EDGE_OWNER,
    G_DECIDER,
    G_DEV_PLAYED,
    G_HAS_ROLLED,
    G_LARGEST_ARMY,
    G_LAST_SETTLEMENT,
    G_LONGEST_ROAD,
    G_NUM_PLAYERS,
    G_PHASE,
    G_RETURN_PHASE,
    G_ROBBER,
    G_TURN,
    G_TURN_LIMIT,
    G_TURN_PLAYER,
    G_VICTIM,
    G_VP_TO_WIN,
    G_WINNER,
    HEX_NUM,
    HEX_RES,
    MAX_PLAYERS,
    NODE_LEVEL,
    NODE_OWNER,
    NODE_PORT,
    P_CARDS,
    P_CITIES_LEFT,
    P_DEV_NEW,
    P_DISCARD,
    P_HAND,
    P_PORTS,
    P_ROAD_LEN,
    P_ROADS_LEFT,
    P_SETTLEMENTS_LEFT,
    PH_OVER,
    PH_PRE_ROLL,
    PH_ROBBER,
    PH_SETUP_SETTLEMENT,
    T_LIMIT,
    kn,
    pb,
)
from boardzero.games.catan.queries import victory_points
from boardzero.games.catan.roads import longest_road, update_longest_road_holder
from boardzero.games.catan.topology import HEX_NODES, NODE_EDGES
from boardzero.games.catan.trades import new_turn


@njit(cache=True)
def gain(s, p, r, n):
    """Seat p takes n of resource r from the bank, in public view."""
    s[pb(p) + P_HAND + r] += n
    s[pb(p) + P_CARDS] += n
    s[BANK + r] -= n
    for o in range(s[G_NUM_PLAYERS]):
        if o != p:
            s[kn(o, p, r)] += n


@njit(cache=True)
def lose(s, p, r, n):
    """Seat p gives n of resource r to the bank, in public view."""
    s[pb(p) + P_HAND + r] -= n
    s[pb(p) + P_CARDS] -= n
    s[BANK + r] += n
    for o in range(s[G_NUM_PLAYERS]):
        if o != p:
            k = kn(o, p, r)
            s[k] = max(s[k] - n, 0)


@njit(cache=True)
def pay(s, p, cost):
    for r in range(5):
        if cost[r] > 0:
            lose(s, p, r, cost[r])


@njit(cache=True)
def init_state(s, hex_res, hex_num, node_port, num_players, vp_to_win, turn_limit):
    s[:] = 0
    for h in range(19):
        s[HEX_RES + h] = hex_res[h]
        s[HEX_NUM + h] = hex_num[h]
        if hex_res[h] == 5:
            s[G_ROBBER] = h
    for n in range(54):
        s[NODE_PORT + n] = node_port[n]
        s[NODE_OWNER + n] = -1
    for e in range(72):
        s[EDGE_OWNER + e] = -1
    for p in range(MAX_PLAYERS):
        b = pb(p)
        s[b + P_ROADS_LEFT] = 15
        s[b + P_SETTLEMENTS_LEFT] = 5
        s[b + P_CITIES_LEFT] = 4
    for r in range(5):
        s[BANK + r] = 19
        s[DECK + r] = DEV_COUNTS[r]
    s[G_NUM_PLAYERS] = num_players
    s[G_VP_TO_WIN] = vp_to_win
    s[G_TURN_LIMIT] = turn_limit
    s[G_PHASE] = PH_SETUP_SETTLEMENT
    s[G_LARGEST_ARMY] = -1
    s[G_LONGEST_ROAD] = -1
    s[G_WINNER] = -1
    s[G_LAST_SETTLEMENT] = -1
    s[G_VICTIM] = -1


@njit(cache=True)
def check_win(s):
    p = s[G_TURN_PLAYER]
    if s[G_PHASE] != PH_OVER and victory_points(s, p) >= s[G_VP_TO_WIN]:
        s[G_WINNER] = p
        s[G_PHASE] = PH_OVER


@njit(cache=True)
def produce(s, total):
    n = s[G_NUM_PLAYERS]
    owed = np.zeros((MAX_PLAYERS, 5), dtype=np.int64)
    robber = s[G_ROBBER]
    for h in range(19):
        if s[HEX_NUM + h] == total and h != robber:
            r = s[HEX_RES + h]
            for k in range(6):
                node = HEX_NODES[h, k]
                o = s[NODE_OWNER + node]
                if o >= 0:
                    owed[o, r] += s[NODE_LEVEL + node]
    for r in range(5):
        want = 0
        takers = 0
        who = -1
        for p in range(n):
            if owed[p, r] > 0:
                want += owed[p, r]
                takers += 1
                who = p
        if want == 0:
            continue
        if want <= s[BANK + r]:
            for p in range(n):
                if owed[p, r] > 0:
                    gain(s, p, r, owed[p, r])
        elif takers == 1 and s[BANK + r] > 0:
            gain(s, who, r, s[BANK + r])


@njit(cache=True)
def after_robber(s):
    s[G_PHASE] = s[G_RETURN_PHASE]
    s[G_DECIDER] = s[G_TURN_PLAYER]


@njit(cache=True)
def next_discarder(s):
    n = s[G_NUM_PLAYERS]
    t = s[G_TURN_PLAYER]
    for i in range(n):
        p = (t + i) % n
        if s[pb(p) + P_DISCARD] > 0:
            return p
    return -1


@njit(cache=True)
def start_robber(s, return_phase):
    s[G_PHASE] = PH_ROBBER
    s[G_DECIDER] = s[G_TURN_PLAYER]
    s[G_RETURN_PHASE] = return_phase


@njit(cache=True)
def end_turn(s):
    p = s[G_TURN_PLAYER]
    b = pb(p)
    for d in range(5):
        s[b + P_DEV_NEW + d] = 0
    s[G_DEV_PLAYED] = 0
    s[G_HAS_ROLLED] = 0
    if s[T_LIMIT] > 0:
        new_turn(s)
    s[G_TURN] += 1
    if s[G_TURN_LIMIT] > 0 and s[G_TURN] >= s[G_TURN_LIMIT]:
        s[G_PHASE] = PH_OVER
        return
    q = (p + 1) % s[G_NUM_PLAYERS]
    s[G_TURN_PLAYER] = q
    s[G_DECIDER] = q
    s[G_PHASE] = PH_PRE_ROLL
    check_win(s)


@njit(cache=True)
def after_roads_changed(s, players_mask):
    for p in range(s[G_NUM_PLAYERS]):
        if players_mask & (1 << p):
            s[pb(p) + P_ROAD_LEN] = longest_road(s, p)
    update_longest_road_holder(s)


@njit(cache=True)
def place_road(s, p, e):
    s[EDGE_OWNER + e] = p
    s[pb(p) + P_ROADS_LEFT] -= 1
    after_roads_changed(s, 1 << p)


@njit(cache=True)
def place_settlement(s, p, n):
    s[NODE_OWNER + n] = p
    s[NODE_LEVEL + n] = 1
    b = pb(p)
    s[b + P_SETTLEMENTS_LEFT] -= 1
    port = s[NODE_PORT + n]
    if port >= 0:
        s[b + P_PORTS] |= 1 << port
    # a settlement may cut an opponent's road through this intersection
    mask = 0
    for k in range(3):
        e = NODE_EDGES[n, k]
        if e >= 0:
            o = s[EDGE_OWNER + e]
            if o >= 0 and o != p:
                mask |= 1 << o
    if mask:
        after_roads_changed(s, mask)
