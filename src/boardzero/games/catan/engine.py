"""The compiled Catan engine: one game is one flat int32 array.

Everything here is a numba ``@njit(cache=True)`` function over a state array
``s`` (``int32[STATE_SIZE]``) laid out by the named offsets of ``offsets``, plus the
static tables of ``topology``. Python code (``game.py``) only wraps it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan.topology import (
    EDGE_NODES,
    HEX_NODES,
    NODE_EDGES,
    NODE_HEXES,
    NODE_NODES,
)
from boardzero.games.catan.offsets import *  # noqa: F401,F403  (the layout, re-exported for the rules)


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


# ----------------------------------------------------------------------------- longest road
@njit(cache=True)
def longest_road(s, p):
    """Length of p's longest simple path of roads; opponents' buildings cut it."""
    best = 0
    used = np.zeros(72, dtype=np.bool_)
    stack_node = np.empty(17, dtype=np.int64)
    stack_k = np.empty(17, dtype=np.int64)
    stack_edge = np.empty(17, dtype=np.int64)
    for start in range(54):
        if not node_touches_road(s, start, p):
            continue
        depth = 0
        stack_node[0] = start
        stack_k[0] = 0
        while depth >= 0:
            n = stack_node[depth]
            k = stack_k[depth]
            if k >= 3:
                if depth > 0:
                    used[stack_edge[depth]] = False
                depth -= 1
                continue
            stack_k[depth] = k + 1
            e = NODE_EDGES[n, k]
            if e < 0 or used[e] or s[EDGE_OWNER + e] != p:
                continue
            if depth > 0:
                owner = s[NODE_OWNER + n]
                if owner >= 0 and owner != p:
                    continue
            used[e] = True
            depth += 1
            if depth > best:
                best = depth
            stack_node[depth] = NODE_NODES[n, k]
            stack_k[depth] = 0
            stack_edge[depth] = e
    return best


@njit(cache=True)
def update_longest_road_holder(s):
    """5th-edition Almanac: the holder keeps the card while tied for longest; otherwise a sole longest
    road of 5+ takes it; if several tie (without the holder) or nobody has 5+, it is set aside."""
    n = s[G_NUM_PLAYERS]
    holder = s[G_LONGEST_ROAD]
    best = 0
    for p in range(n):
        best = max(best, s[pb(p) + P_ROAD_LEN])
    if holder >= 0 and s[pb(holder) + P_ROAD_LEN] == best and best >= 5:
        return
    count = 0
    who = -1
    for p in range(n):
        if s[pb(p) + P_ROAD_LEN] == best:
            count += 1
            who = p
    if best >= 5 and count == 1:
        s[G_LONGEST_ROAD] = who
    else:
        s[G_LONGEST_ROAD] = -1


# ----------------------------------------------------------------------------- setup
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
def setup_seat(s, step):
    n = s[G_NUM_PLAYERS]
    return step if step < n else 2 * n - 1 - step


# ----------------------------------------------------------------------------- queries
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
def legal_actions(s, out):
    """Write the legal action ids into out (len >= NUM_ACTIONS); returns how many."""
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
    return c


@njit(cache=True)
def legal_mask(s, mask):
    mask[:] = False
    buf = np.empty(NUM_ACTIONS, dtype=np.int64)
    c = legal_actions(s, buf)
    for i in range(c):
        mask[buf[i]] = True


@njit(cache=True)
def is_legal(s, a):
    if a < 0 or a >= NUM_ACTIONS:
        return False
    ph = s[G_PHASE]
    if ph == PH_OVER or ph == PH_DICE or ph == PH_STEAL or ph == PH_DEV_DRAW:
        return False
    buf = np.empty(NUM_ACTIONS, dtype=np.int64)
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


# ----------------------------------------------------------------------------- transitions
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


@njit(cache=True)
def apply_chance(s, o):
    ph = s[G_PHASE]
    p = s[G_TURN_PLAYER]
    if ph == PH_DICE:
        s[G_LAST_ROLL] = o
        s[G_HAS_ROLLED] = 1
        if o == 7:
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
            produce(s, o)
            s[G_PHASE] = PH_MAIN
            s[G_DECIDER] = p
    elif ph == PH_DEV_DRAW:
        d = o - O_DEV
        s[DECK + d] -= 1
        s[pb(p) + P_DEV + d] += 1
        s[pb(p) + P_DEV_NEW + d] += 1
        s[G_PHASE] = PH_MAIN
        s[G_DECIDER] = p
        check_win(s)
    elif ph == PH_STEAL:
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


@njit(cache=True)
def apply_action(s, a):
    """Apply a legal player action or a chance outcome (no validation)."""
    s[G_STEPS] += 1
    ph = s[G_PHASE]
    if ph == PH_DICE or ph == PH_DEV_DRAW or ph == PH_STEAL:
        apply_chance(s, a)
        return
    p = s[G_DECIDER]
    b = pb(p)
    if a < A_CITY:
        n = a - A_SETTLEMENT
        if ph == PH_SETUP_SETTLEMENT:
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
    elif a < A_ROAD:
        n = a - A_CITY
        pay(s, p, COST_CITY)
        s[NODE_LEVEL + n] = 2
        s[b + P_CITIES_LEFT] -= 1
        s[b + P_SETTLEMENTS_LEFT] += 1
        check_win(s)
    elif a < A_ROBBER:
        e = a - A_ROAD
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
                if s[G_FREE_ROADS] <= 0 or s[b + P_ROADS_LEFT] <= 0 or not any_road_ok(s, p):
                    s[G_FREE_ROADS] = 0
                    s[G_PHASE] = s[G_RETURN_PHASE]
        else:
            pay(s, p, COST_ROAD)
            place_road(s, p, e)
            check_win(s)
    elif a < A_VICTIM:
        h = a - A_ROBBER
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
    elif a < A_DISCARD:
        s[G_VICTIM] = a - A_VICTIM
        s[G_PHASE] = PH_STEAL
    elif a < A_YOP:
        r = a - A_DISCARD
        lose(s, p, r, 1)
        s[b + P_DISCARD] -= 1
        if s[b + P_DISCARD] == 0:
            d = next_discarder(s)
            if d >= 0:
                s[G_DECIDER] = d
            else:
                start_robber(s, PH_MAIN)
    elif a < A_MONOPOLY:
        gain(s, p, a - A_YOP, 1)
        s[G_YOP_LEFT] -= 1
        if s[G_YOP_LEFT] <= 0 or bank_total(s) == 0:
            s[G_YOP_LEFT] = 0
            s[G_PHASE] = s[G_RETURN_PHASE]
    elif a < A_TRADE:
        r = a - A_MONOPOLY
        s[b + P_DEV + MONOPOLY] -= 1
        s[b + P_PLAYED + MONOPOLY] += 1
        s[G_DEV_PLAYED] = 1
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
    elif a < A_BUY_DEV:
        i = a - A_TRADE
        g = i // 4
        r = i % 4
        if r >= g:
            r += 1
        lose(s, p, g, trade_rate(s, p, g))
        gain(s, p, r, 1)
    elif a == A_BUY_DEV:
        pay(s, p, COST_DEV)
        s[G_PHASE] = PH_DEV_DRAW
    elif a == A_KNIGHT:
        s[b + P_DEV + KNIGHT] -= 1
        s[b + P_PLAYED + KNIGHT] += 1
        s[b + P_KNIGHTS] += 1
        s[G_DEV_PLAYED] = 1
        holder = s[G_LARGEST_ARMY]
        if s[b + P_KNIGHTS] >= 3 and (holder < 0 or s[b + P_KNIGHTS] > s[pb(holder) + P_KNIGHTS]):
            s[G_LARGEST_ARMY] = p
        start_robber(s, PH_MAIN if s[G_HAS_ROLLED] else PH_PRE_ROLL)
        check_win(s)
    elif a == A_PLAY_ROAD_BUILDING:
        s[b + P_DEV + ROAD_BUILDING] -= 1
        s[b + P_PLAYED + ROAD_BUILDING] += 1
        s[G_DEV_PLAYED] = 1
        s[G_FREE_ROADS] = min(2, s[b + P_ROADS_LEFT])
        s[G_RETURN_PHASE] = ph
        s[G_PHASE] = PH_ROAD_BUILDING
    elif a == A_PLAY_YOP:
        s[b + P_DEV + YEAR_OF_PLENTY] -= 1
        s[b + P_PLAYED + YEAR_OF_PLENTY] += 1
        s[G_DEV_PLAYED] = 1
        s[G_YOP_LEFT] = 2
        s[G_RETURN_PHASE] = ph
        s[G_PHASE] = PH_YEAR_OF_PLENTY
    elif a == A_ROLL:
        s[G_PHASE] = PH_DICE
    elif a == A_END_TURN:
        end_turn(s)


# ----------------------------------------------------------------------------- the per-step Game API
# the dice totals' cumulative probabilities laid out as np.random.Generator.choice lays them out
DICE_CDF = np.cumsum(DICE_PROBS[2:] / DICE_PROBS[2:].sum())
DICE_CDF /= DICE_CDF[-1]


@njit(cache=True)
def chance_outcome_at(s, u):
    """The chance outcome that the uniform draw u (0 <= u < 1) picks, -1 at a decision node: the outcomes
    of chance_outcomes cover [0, 1) in order, with the same floating-point slices as
    ``rng.choice(len(outcomes), p=probs)`` (so a draw gives the same outcome either way)."""
    if s[G_PHASE] == PH_DICE:
        for i in range(11):
            if DICE_CDF[i] > u:
                return O_DICE + 2 + i
        return O_DICE + 12
    ids = np.empty(11, dtype=np.int64)
    cdf = np.empty(11, dtype=np.float64)
    c = chance_outcomes(s, ids, cdf)
    if c == 0:
        return -1
    total = 0.0
    for i in range(c):  # numpy sums fewer than 8 numbers one by one too
        total += cdf[i]
    acc = 0.0
    for i in range(c):
        acc += cdf[i] / total
        cdf[i] = acc
    for i in range(c):
        if cdf[i] / acc > u:
            return ids[i]
    return ids[c - 1]


@njit(cache=True)
def apply_if_possible(s, a):
    """Apply a player action or chance outcome if it is possible now; returns whether it was (else s is unchanged)."""
    ph = s[G_PHASE]
    if ph == PH_OVER:
        return False
    if ph == PH_DICE or ph == PH_DEV_DRAW or ph == PH_STEAL:
        if not chance_possible(s, a):
            return False
    elif not is_legal(s, a):
        return False
    apply_action(s, a)
    return True


# ----------------------------------------------------------------------------- random play
@njit(cache=True)
def sample_chance_outcome(s):
    ph = s[G_PHASE]
    if ph == PH_DICE:
        return np.random.randint(1, 7) + np.random.randint(1, 7)
    if ph == PH_DEV_DRAW:
        total = 0
        for d in range(5):
            total += s[DECK + d]
        x = np.random.randint(0, total)
        for d in range(5):
            x -= s[DECK + d]
            if x < 0:
                return O_DEV + d
    b = pb(s[G_VICTIM])
    x = np.random.randint(0, s[b + P_CARDS])
    for r in range(5):
        x -= s[b + P_HAND + r]
        if x < 0:
            return O_STEAL + r
    return O_STEAL


@njit(cache=True)
def seed_numba(seed):
    np.random.seed(seed)


@njit(cache=True)
def play_random(s, max_steps):
    """Play uniformly random legal moves (true chance) until the end; returns the steps taken."""
    buf = np.empty(NUM_ACTIONS, dtype=np.int64)
    steps = 0
    while s[G_PHASE] != PH_OVER and steps < max_steps:
        ph = s[G_PHASE]
        if ph == PH_DICE or ph == PH_DEV_DRAW or ph == PH_STEAL:
            apply_action(s, sample_chance_outcome(s))
        else:
            c = legal_actions(s, buf)
            apply_action(s, buf[np.random.randint(0, c)])
        steps += 1
    return steps


@njit(cache=True)
def random_playout(s, seed, max_steps=1_000_000):
    """Seed numba's generator, then play ``s`` to the end with random moves (in place)."""
    np.random.seed(seed)
    return play_random(s, max_steps)


@njit(cache=True)
def play_random_games(template, num_games, seed):
    """Play num_games random games from copies of ``template``; returns [turns, winner] per game."""
    np.random.seed(seed)
    out = np.empty((num_games, 2), dtype=np.int64)
    s = template.copy()
    for i in range(num_games):
        s[:] = template
        play_random(s, 10_000_000)
        out[i, 0] = s[G_TURN]
        out[i, 1] = s[G_WINNER]
    return out
