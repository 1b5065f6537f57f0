"""Legal actions and chance outcomes of a position (compiled)."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan.offsets import (
    A_ACCEPT,
    A_BUY_DEV,
    A_CITY,
    A_DECLINE,
    A_DISCARD,
    A_END_TURN,
    A_KNIGHT,
    A_MONOPOLY,
    A_OFFER,
    A_PLAY_ROAD_BUILDING,
    A_PLAY_YOP,
    A_ROAD,
    A_ROBBER,
    A_ROLL,
    A_SETTLEMENT,
    A_TRADE,
    A_TRADE_WITH,
    A_VICTIM,
    A_WITHDRAW,
    A_YOP,
    ANSWER_ACCEPT,
    BANK,
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    DECK,
    DICE_PROBS,
    EDGE_OWNER,
    G_DECIDER,
    G_DEV_PLAYED,
    G_LAST_SETTLEMENT,
    G_NUM_PLAYERS,
    G_PHASE,
    G_ROBBER,
    G_VICTIM,
    KNIGHT,
    MAX_ACTIONS,
    MONOPOLY,
    NODE_LEVEL,
    NODE_OWNER,
    NUM_OFFERS,
    O_DEV,
    O_DICE,
    O_STEAL,
    OFFER_GET,
    P_CARDS,
    P_CITIES_LEFT,
    P_HAND,
    P_ROADS_LEFT,
    P_SETTLEMENTS_LEFT,
    PH_DEV_DRAW,
    PH_DICE,
    PH_DISCARD,
    PH_MAIN,
    PH_OVER,
    PH_PRE_ROLL,
    PH_ROAD_BUILDING,
    PH_ROBBER,
    PH_SETUP_ROAD,
    PH_SETUP_SETTLEMENT,
    PH_STEAL,
    PH_TRADE_ANSWER,
    PH_TRADE_CHOOSE,
    PH_VICTIM,
    PH_YEAR_OF_PLENTY,
    ROAD_BUILDING,
    T_ANSWER,
    T_OFFER,
    YEAR_OF_PLENTY,
    pb,
)
from boardzero.games.catan.queries import (
    can_afford,
    can_play_dev,
    node_free_for_settlement,
    road_ok,
    robber_victims,
    settlement_ok,
    trade_rate,
)
from boardzero.games.catan.topology import NODE_EDGES
from boardzero.games.catan.trades import holds, may_offer, trading_on


@njit(cache=True)
def legal_actions(s, out):
    """Write the legal action ids into out (len >= MAX_ACTIONS); returns how many."""
    ph = s[G_PHASE]
    p = s[G_DECIDER]
    b = pb(p)
    c = 0
    if ph == PH_SETUP_SETTLEMENT:
        for n in range(54):
            if node_free_for_settlement(s, n):
                out[c] = A_SETTLEMENT + n
                c += 1
    elif ph == PH_SETUP_ROAD:
        n = s[G_LAST_SETTLEMENT]
        for k in range(3):
            e = NODE_EDGES[n, k]
            if e >= 0 and s[EDGE_OWNER + e] < 0:
                out[c] = A_ROAD + e
                c += 1
    elif ph == PH_PRE_ROLL or ph == PH_MAIN:
        if ph == PH_MAIN:
            if s[b + P_SETTLEMENTS_LEFT] > 0 and can_afford(s, p, COST_SETTLEMENT):
                for n in range(54):
                    if settlement_ok(s, n, p):
                        out[c] = A_SETTLEMENT + n
                        c += 1
            if s[b + P_CITIES_LEFT] > 0 and can_afford(s, p, COST_CITY):
                for n in range(54):
                    if s[NODE_OWNER + n] == p and s[NODE_LEVEL + n] == 1:
                        out[c] = A_CITY + n
                        c += 1
            if s[b + P_ROADS_LEFT] > 0 and can_afford(s, p, COST_ROAD):
                for e in range(72):
                    if road_ok(s, e, p):
                        out[c] = A_ROAD + e
                        c += 1
            for g in range(5):
                rate = trade_rate(s, p, g)
                if s[b + P_HAND + g] >= rate:
                    for r in range(5):
                        if r != g and s[BANK + r] > 0:
                            out[c] = A_TRADE + g * 4 + (r if r < g else r - 1)
                            c += 1
            if can_afford(s, p, COST_DEV):
                for d in range(5):
                    if s[DECK + d] > 0:
                        out[c] = A_BUY_DEV
                        c += 1
                        break
            if trading_on(s):
                for i in range(NUM_OFFERS):
                    if may_offer(s, p, i):
                        out[c] = A_OFFER + i
                        c += 1
        if s[G_DEV_PLAYED] == 0:
            if can_play_dev(s, p, KNIGHT):
                out[c] = A_KNIGHT
                c += 1
            if can_play_dev(s, p, ROAD_BUILDING):
                out[c] = A_PLAY_ROAD_BUILDING
                c += 1
            if can_play_dev(s, p, YEAR_OF_PLENTY):
                out[c] = A_PLAY_YOP
                c += 1
            if can_play_dev(s, p, MONOPOLY):
                for r in range(5):
                    out[c] = A_MONOPOLY + r
                    c += 1
        if ph == PH_PRE_ROLL:
            out[c] = A_ROLL
        else:
            out[c] = A_END_TURN
        c += 1
    elif ph == PH_DISCARD:
        for r in range(5):
            if s[b + P_HAND + r] > 0:
                out[c] = A_DISCARD + r
                c += 1
    elif ph == PH_ROBBER:
        for h in range(19):
            if h != s[G_ROBBER]:
                out[c] = A_ROBBER + h
                c += 1
    elif ph == PH_VICTIM:
        victims = np.empty(4, dtype=np.int64)
        nv = robber_victims(s, s[G_ROBBER], p, victims)
        for i in range(nv):
            out[c] = A_VICTIM + victims[i]
            c += 1
    elif ph == PH_ROAD_BUILDING:
        for e in range(72):
            if road_ok(s, e, p):
                out[c] = A_ROAD + e
                c += 1
    elif ph == PH_YEAR_OF_PLENTY:
        for r in range(5):
            if s[BANK + r] > 0:
                out[c] = A_YOP + r
                c += 1
    elif ph == PH_TRADE_ANSWER:
        if holds(s, p, OFFER_GET[s[T_OFFER]]):
            out[c] = A_ACCEPT
            c += 1
        out[c] = A_DECLINE
        c += 1
    elif ph == PH_TRADE_CHOOSE:
        for q in range(s[G_NUM_PLAYERS]):
            if s[T_ANSWER + q] == ANSWER_ACCEPT:
                out[c] = A_TRADE_WITH + q
                c += 1
        out[c] = A_WITHDRAW
        c += 1
    return c


@njit(cache=True)
def legal_mask(s, mask):
    mask[:] = False
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    c = legal_actions(s, buf)
    for i in range(c):
        mask[buf[i]] = True


@njit(cache=True)
def is_legal(s, a):
    if a < 0 or a >= MAX_ACTIONS:
        return False
    ph = s[G_PHASE]
    if ph == PH_OVER or ph == PH_DICE or ph == PH_STEAL or ph == PH_DEV_DRAW:
        return False
    buf = np.empty(MAX_ACTIONS, dtype=np.int64)
    c = legal_actions(s, buf)
    for i in range(c):
        if buf[i] == a:
            return True
    return False


@njit(cache=True)
def chance_outcomes(s, ids, probs):
    """Write chance outcome ids and probabilities; returns how many (0 at decision nodes)."""
    ph = s[G_PHASE]
    c = 0
    if ph == PH_DICE:
        for t in range(2, 13):
            ids[c] = O_DICE + t
            probs[c] = DICE_PROBS[t]
            c += 1
    elif ph == PH_DEV_DRAW:
        total = 0
        for d in range(5):
            total += s[DECK + d]
        for d in range(5):
            if s[DECK + d] > 0:
                ids[c] = O_DEV + d
                probs[c] = s[DECK + d] / total
                c += 1
    elif ph == PH_STEAL:
        b = pb(s[G_VICTIM])
        total = s[b + P_CARDS]
        for r in range(5):
            if s[b + P_HAND + r] > 0:
                ids[c] = O_STEAL + r
                probs[c] = s[b + P_HAND + r] / total
                c += 1
    return c


@njit(cache=True)
def chance_possible(s, o):
    """Whether o is a chance outcome with positive probability now."""
    ph = s[G_PHASE]
    if ph == PH_DICE:
        return 2 <= o <= 12
    if ph == PH_DEV_DRAW:
        return O_DEV <= o < O_DEV + 5 and s[DECK + o - O_DEV] > 0
    if ph == PH_STEAL:
        return O_STEAL <= o < O_STEAL + 5 and s[pb(s[G_VICTIM]) + P_HAND + o - O_STEAL] > 0
    return False
