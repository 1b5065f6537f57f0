"""One compiled handler per kind of action or chance outcome, and ``apply_action``, which dispatches to them.

A handler takes the state, the deciding seat and the action's argument (node, path, hex, seat, resource or
trade index) and assumes the action is legal; ``legal`` decides that."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan.offsets import (
    A_ACCEPT,
    A_BUY_DEV,
    A_CITY,
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
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    DECK,
    G_DECIDER,
    G_DEV_PLAYED,
    G_FREE_ROADS,
    G_HAS_ROLLED,
    G_LARGEST_ARMY,
    G_LAST_ROLL,
    G_LAST_SETTLEMENT,
    G_NUM_PLAYERS,
    G_PHASE,
    G_RETURN_PHASE,
    G_ROBBER,
    G_SETUP_STEP,
    G_STEPS,
    G_TURN_PLAYER,
    G_VICTIM,
    G_YOP_LEFT,
    HEX_RES,
    KNIGHT,
    MONOPOLY,
    NODE_LEVEL,
    O_DEV,
    O_STEAL,
    P_CARDS,
    P_CITIES_LEFT,
    P_DEV,
    P_DEV_NEW,
    P_DISCARD,
    P_HAND,
    P_KNIGHTS,
    P_PLAYED,
    P_ROADS_LEFT,
    P_SETTLEMENTS_LEFT,
    PH_DEV_DRAW,
    PH_DICE,
    PH_DISCARD,
    PH_MAIN,
    PH_OVER,
    PH_PRE_ROLL,
    PH_ROAD_BUILDING,
    PH_SETUP_ROAD,
    PH_SETUP_SETTLEMENT,
    PH_STEAL,
    PH_VICTIM,
    PH_YEAR_OF_PLENTY,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
    kn,
    pb,
)
from boardzero.games.catan.queries import any_road_ok, bank_total, robber_victims, setup_seat, trade_rate
from boardzero.games.catan.topology import NODE_HEXES
from boardzero.games.catan.trades import answer, close_offer, open_offer, trade_with
from boardzero.games.catan.transitions import (
    after_robber,
    check_win,
    end_turn,
    gain,
    lose,
    next_discarder,
    pay,
    place_road,
    place_settlement,
    produce,
    start_robber,
)


# ----------------------------------------------------------------------------- chance outcomes
@njit(cache=True)
def apply_dice(s, total):
    """The dice show ``total``: a seven sends the big hands to discard, then the robber; else production."""
    p = s[G_TURN_PLAYER]
    s[G_LAST_ROLL] = total
    s[G_HAS_ROLLED] = 1
    if total == 7:
        n = s[G_NUM_PLAYERS]
        for q in range(n):
            cards = s[pb(q) + P_CARDS]
            s[pb(q) + P_DISCARD] = cards // 2 if cards > 7 else 0
        d = next_discarder(s)
        if d >= 0:
            s[G_PHASE] = PH_DISCARD
            s[G_DECIDER] = d
            s[G_RETURN_PHASE] = PH_MAIN
        else:
            start_robber(s, PH_MAIN)
    else:
        produce(s, total)
        s[G_PHASE] = PH_MAIN
        s[G_DECIDER] = p


@njit(cache=True)
def apply_dev_draw(s, o):
    """The seat on turn draws development card ``o - O_DEV`` (seen by it alone)."""
    p = s[G_TURN_PLAYER]
    d = o - O_DEV
    s[DECK + d] -= 1
    s[pb(p) + P_DEV + d] += 1
    s[pb(p) + P_DEV_NEW + d] += 1
    s[G_PHASE] = PH_MAIN
    s[G_DECIDER] = p
    check_win(s)


@njit(cache=True)
def apply_steal(s, o):
    """The seat on turn takes resource ``o - O_STEAL`` from the victim; what each seat then knows follows."""
    p = s[G_TURN_PLAYER]
    r = o - O_STEAL
    v = s[G_VICTIM]
    s[pb(v) + P_HAND + r] -= 1
    s[pb(v) + P_CARDS] -= 1
    s[pb(p) + P_HAND + r] += 1
    s[pb(p) + P_CARDS] += 1
    # who knows what: the thief and the victim see the card, the others only that one moved
    for q in range(s[G_NUM_PLAYERS]):
        if q == p:
            k = kn(q, v, r)
            s[k] = max(s[k] - 1, 0)
        elif q == v:
            s[kn(q, p, r)] += 1
        else:
            known = 0
            kinds = 0
            for x in range(5):
                known += s[kn(q, v, x)]
                if s[kn(q, v, x)] > 0:
                    kinds += 1
            if kinds == 1 and known == s[pb(v) + P_CARDS] + 1:
                # q knew the victim's whole hand and it was of one kind: the card is no secret
                s[kn(q, v, r)] -= 1
                s[kn(q, p, r)] += 1
            else:  # any one card may have gone: every sure count drops by one
                for x in range(5):
                    k = kn(q, v, x)
                    s[k] = max(s[k] - 1, 0)
    s[G_VICTIM] = -1
    after_robber(s)


# ----------------------------------------------------------------------------- building
@njit(cache=True)
def apply_settlement(s, p, n):
    """A settlement of ``p`` on intersection ``n``: free in setup (the second one yields its hexes), else paid."""
    if s[G_PHASE] == PH_SETUP_SETTLEMENT:
        place_settlement(s, p, n)
        s[G_LAST_SETTLEMENT] = n
        if s[G_SETUP_STEP] >= s[G_NUM_PLAYERS]:
            for k in range(3):
                h = NODE_HEXES[n, k]
                if h >= 0 and s[HEX_RES + h] < 5:
                    gain(s, p, s[HEX_RES + h], 1)
        s[G_PHASE] = PH_SETUP_ROAD
    else:
        pay(s, p, COST_SETTLEMENT)
        place_settlement(s, p, n)
        check_win(s)


@njit(cache=True)
def apply_city(s, p, n):
    """``p``'s settlement on ``n`` becomes a city (the settlement goes back to the supply)."""
    b = pb(p)
    pay(s, p, COST_CITY)
    s[NODE_LEVEL + n] = 2
    s[b + P_CITIES_LEFT] -= 1
    s[b + P_SETTLEMENTS_LEFT] += 1
    check_win(s)


@njit(cache=True)
def apply_road(s, p, e):
    """A road of ``p`` on path ``e``: free in setup (then the next seat places) and for road building, else paid."""
    ph = s[G_PHASE]
    if ph == PH_SETUP_ROAD:
        place_road(s, p, e)
        step = s[G_SETUP_STEP] + 1
        s[G_SETUP_STEP] = step
        if step >= 2 * s[G_NUM_PLAYERS]:
            s[G_PHASE] = PH_PRE_ROLL
            s[G_TURN_PLAYER] = 0
            s[G_DECIDER] = 0
        else:
            s[G_PHASE] = PH_SETUP_SETTLEMENT
            s[G_DECIDER] = setup_seat(s, step)
            s[G_TURN_PLAYER] = s[G_DECIDER]
    elif ph == PH_ROAD_BUILDING:
        place_road(s, p, e)
        s[G_FREE_ROADS] -= 1
        check_win(s)
        if s[G_PHASE] != PH_OVER:
            if s[G_FREE_ROADS] <= 0 or s[pb(p) + P_ROADS_LEFT] <= 0 or not any_road_ok(s, p):
                s[G_FREE_ROADS] = 0
                s[G_PHASE] = s[G_RETURN_PHASE]
    else:
        pay(s, p, COST_ROAD)
        place_road(s, p, e)
        check_win(s)


# ----------------------------------------------------------------------------- the robber and the seven
@njit(cache=True)
def apply_robber(s, p, h):
    """The robber goes to hex ``h``; with one seat to rob the steal follows at once, with several ``p`` picks."""
    s[G_ROBBER] = h
    victims = np.empty(4, dtype=np.int64)
    nv = robber_victims(s, h, p, victims)
    if nv == 0:
        after_robber(s)
    elif nv == 1:
        s[G_VICTIM] = victims[0]
        s[G_PHASE] = PH_STEAL
    else:
        s[G_PHASE] = PH_VICTIM


@njit(cache=True)
def apply_victim(s, p, victim):
    s[G_VICTIM] = victim
    s[G_PHASE] = PH_STEAL


@njit(cache=True)
def apply_discard(s, p, r):
    """``p`` discards one card of ``r``; when its last is down, the next seat discards or the robber moves."""
    b = pb(p)
    lose(s, p, r, 1)
    s[b + P_DISCARD] -= 1
    if s[b + P_DISCARD] == 0:
        d = next_discarder(s)
        if d >= 0:
            s[G_DECIDER] = d
        else:
            start_robber(s, PH_MAIN)


# ----------------------------------------------------------------------------- trading
@njit(cache=True)
def apply_trade(s, p, i):
    """Bank or harbour trade ``i`` = give * 4 + get' (get' skips the given resource), at ``p``'s best rate."""
    g = i // 4
    r = i % 4
    if r >= g:
        r += 1
    lose(s, p, g, trade_rate(s, p, g))
    gain(s, p, r, 1)


@njit(cache=True)
def apply_offer(s, p, i):
    """``p`` offers catalogue entry ``i`` to the other seats (``trades``)."""
    open_offer(s, p, i)


@njit(cache=True)
def apply_answer(s, q, accept):
    answer(s, q, accept)


@njit(cache=True)
def apply_trade_with(s, p, q):
    trade_with(s, p, q)


@njit(cache=True)
def apply_withdraw(s, p):
    close_offer(s)


# ----------------------------------------------------------------------------- development cards
@njit(cache=True)
def apply_buy_dev(s, p):
    pay(s, p, COST_DEV)
    s[G_PHASE] = PH_DEV_DRAW


@njit(cache=True)
def _play_dev(s, p, kind):
    b = pb(p)
    s[b + P_DEV + kind] -= 1
    s[b + P_PLAYED + kind] += 1
    s[G_DEV_PLAYED] = 1


@njit(cache=True)
def apply_knight(s, p):
    """``p`` plays a knight: largest army may pass to it, then it moves the robber."""
    b = pb(p)
    _play_dev(s, p, KNIGHT)
    s[b + P_KNIGHTS] += 1
    holder = s[G_LARGEST_ARMY]
    if s[b + P_KNIGHTS] >= 3 and (holder < 0 or s[b + P_KNIGHTS] > s[pb(holder) + P_KNIGHTS]):
        s[G_LARGEST_ARMY] = p
    start_robber(s, PH_MAIN if s[G_HAS_ROLLED] else PH_PRE_ROLL)
    check_win(s)


@njit(cache=True)
def apply_play_road_building(s, p):
    _play_dev(s, p, ROAD_BUILDING)
    s[G_FREE_ROADS] = min(2, s[pb(p) + P_ROADS_LEFT])
    s[G_RETURN_PHASE] = s[G_PHASE]
    s[G_PHASE] = PH_ROAD_BUILDING


@njit(cache=True)
def apply_play_year_of_plenty(s, p):
    _play_dev(s, p, YEAR_OF_PLENTY)
    s[G_YOP_LEFT] = 2
    s[G_RETURN_PHASE] = s[G_PHASE]
    s[G_PHASE] = PH_YEAR_OF_PLENTY


@njit(cache=True)
def apply_year_of_plenty_pick(s, p, r):
    """``p`` takes one ``r`` for its year of plenty; after the second (or an empty bank) play goes on."""
    gain(s, p, r, 1)
    s[G_YOP_LEFT] -= 1
    if s[G_YOP_LEFT] <= 0 or bank_total(s) == 0:
        s[G_YOP_LEFT] = 0
        s[G_PHASE] = s[G_RETURN_PHASE]


@njit(cache=True)
def apply_monopoly(s, p, r):
    """``p`` plays monopoly on ``r``: every other seat hands over all of it, in public."""
    b = pb(p)
    _play_dev(s, p, MONOPOLY)
    taken = 0
    for q in range(s[G_NUM_PLAYERS]):
        if q != p:
            k = s[pb(q) + P_HAND + r]
            s[pb(q) + P_HAND + r] = 0
            s[pb(q) + P_CARDS] -= k
            taken += k
            for o in range(s[G_NUM_PLAYERS]):
                s[kn(o, q, r)] = 0
    s[b + P_HAND + r] += taken
    s[b + P_CARDS] += taken
    for o in range(s[G_NUM_PLAYERS]):
        if o != p:
            s[kn(o, p, r)] += taken


# ----------------------------------------------------------------------------- the turn
@njit(cache=True)
def apply_roll(s, p):
    s[G_PHASE] = PH_DICE


@njit(cache=True)
def apply_end_turn(s, p):
    end_turn(s)


# ----------------------------------------------------------------------------- the dispatcher
@njit(cache=True)
def apply_action(s, a):
    """Apply a legal player action or a chance outcome (no validation): one handler per kind."""
    s[G_STEPS] += 1
    ph = s[G_PHASE]
    if ph == PH_DICE:
        apply_dice(s, a)
        return
    if ph == PH_DEV_DRAW:
        apply_dev_draw(s, a)
        return
    if ph == PH_STEAL:
        apply_steal(s, a)
        return
    p = s[G_DECIDER]
    if a < A_CITY:
        apply_settlement(s, p, a - A_SETTLEMENT)
    elif a < A_ROAD:
        apply_city(s, p, a - A_CITY)
    elif a < A_ROBBER:
        apply_road(s, p, a - A_ROAD)
    elif a < A_VICTIM:
        apply_robber(s, p, a - A_ROBBER)
    elif a < A_DISCARD:
        apply_victim(s, p, a - A_VICTIM)
    elif a < A_YOP:
        apply_discard(s, p, a - A_DISCARD)
    elif a < A_MONOPOLY:
        apply_year_of_plenty_pick(s, p, a - A_YOP)
    elif a < A_TRADE:
        apply_monopoly(s, p, a - A_MONOPOLY)
    elif a < A_BUY_DEV:
        apply_trade(s, p, a - A_TRADE)
    elif a == A_BUY_DEV:
        apply_buy_dev(s, p)
    elif a == A_KNIGHT:
        apply_knight(s, p)
    elif a == A_PLAY_ROAD_BUILDING:
        apply_play_road_building(s, p)
    elif a == A_PLAY_YOP:
        apply_play_year_of_plenty(s, p)
    elif a == A_ROLL:
        apply_roll(s, p)
    elif a == A_END_TURN:
        apply_end_turn(s, p)
    elif a < A_ACCEPT:
        apply_offer(s, p, a - A_OFFER)
    elif a < A_TRADE_WITH:
        apply_answer(s, p, a == A_ACCEPT)
    elif a < A_WITHDRAW:
        apply_trade_with(s, p, a - A_TRADE_WITH)
    else:
        apply_withdraw(s, p)
