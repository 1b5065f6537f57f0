"""Seat-relative observation encoding (compiled).

The observer is always "seat 0"; seat ``(seat + k) % n`` appears as relative
seat ``k``. Only what the observer may know is encoded: its own hand and
development cards, and for opponents their card counts, the cards the
observer knows for sure they hold (``KNOWN``), their number of unplayed
development cards, played cards, pieces left and visible points.

``flat`` = [global vector | hexes.ravel() | nodes.ravel() | edges.ravel()];
the structured views ``hexes``/``nodes``/``edges`` are slices of it.

``rich`` = [flat | per-intersection features | per-seat features | own costs]: what a flat-vector
network can hardly compute from the raw board, because it needs the board's adjacency: the pips of
each resource around every intersection, where each seat can settle now or after one more road, and
each seat's production per resource. These are facts of the position (no evaluation, no weights).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan import fields as F
from boardzero.games.catan.engine import node_free_for_settlement, victory_points
from boardzero.games.catan.offsets import COST_CITY, COST_DEV, COST_ROAD, COST_SETTLEMENT, NUM_BASE_PHASES, PH_MAIN
from boardzero.games.catan.topology import EDGE_NODES, HEX_COL, HEX_EDGES, HEX_NODES, HEX_ROW, NODE_EDGES, NODE_HEXES

HEX_FEATURES = 9  # resource one-hot (6, desert last), number/12, pips/5, robber
NODE_FEATURES = 15  # settlement by relative seat (4), city by relative seat (4), harbour (5 resources + 3:1), open
EDGE_FEATURES = 4  # road by relative seat
PLAYER_FEATURES = 27
GLOBAL_FEATURES = 5 + 10 + 4 * PLAYER_FEATURES + 1 + 6 + NUM_BASE_PHASES + 11 + 5 + 4  # 163
HEXES_AT = GLOBAL_FEATURES
NODES_AT = HEXES_AT + 19 * HEX_FEATURES
EDGES_AT = NODES_AT + 54 * NODE_FEATURES
FLAT_SIZE = EDGES_AT + 72 * EDGE_FEATURES
NODE_EXTRA = (
    10  # pips of each resource around it (5), all pips; settle now: me, an opponent; after one road: me, an opponent
)
SEAT_EXTRA = 9  # production per resource in pips (5), all pips, spots to settle now, after one road, best pips there
OWN_EXTRA = 4  # own hand pays for a road, settlement, city, development card
EXTRA_SIZE = 54 * NODE_EXTRA + 4 * SEAT_EXTRA + OWN_EXTRA
RICH_SIZE = FLAT_SIZE + EXTRA_SIZE
PLANE_CHANNELS = HEX_FEATURES + 12  # + settlements, cities, roads around the hex per relative seat
PLANE_H = 5
PLANE_W = 10
# the left one of each hex's two plane cells in its row (brick coordinates: rows offset by half a hex)
HEX_PLANE_COL = 2 * HEX_COL + np.abs(HEX_ROW - 2)

# Names of the global vector entries, for docs and debugging.
GLOBAL_NAMES = (
    [f"own_hand.{r}" for r in ("wood", "brick", "sheep", "wheat", "ore")]
    + [f"own_dev.{d}" for d in ("knight", "vp", "road_building", "year_of_plenty", "monopoly")]
    + [f"own_dev_new.{d}" for d in ("knight", "vp", "road_building", "year_of_plenty", "monopoly")]
    + [
        f"p{k}.{f}"
        for k in range(4)
        for f in (
            ["visible_vp", "cards"]
            + [f"known.{r}" for r in ("wood", "brick", "sheep", "wheat", "ore")]
            + ["dev_cards"]
            + [f"played.{d}" for d in ("knight", "vp", "road_building", "year_of_plenty", "monopoly")]
            + [
                "roads_left",
                "settlements_left",
                "cities_left",
                "road_length",
                "longest_road",
                "largest_army",
                "must_discard",
                "turn",
            ]
            + [f"harbour.{h}" for h in ("wood", "brick", "sheep", "wheat", "ore", "3:1")]
        )
    ]
    + ["own_vp"]
    + [f"bank.{r}" for r in ("wood", "brick", "sheep", "wheat", "ore")]
    + ["deck"]
    + [f"phase.{i}" for i in range(NUM_BASE_PHASES)]
    + [f"last_roll.{t}" for t in range(2, 13)]
    + ["has_rolled", "dev_played", "free_roads", "year_of_plenty_left", "turn_fraction"]
    + ["players.2", "players.3", "players.4", "vp_to_win"]
)
assert len(GLOBAL_NAMES) == GLOBAL_FEATURES


@njit(cache=True, inline="always")
def _rel(o, seat, n):
    """Relative seat of o seen from seat (no integer division: this runs ~130 times per observation)."""
    r = o - seat
    return r + n if r < 0 else r


@njit(cache=True)
def encode(s, seat, out, static=True):
    """Write the flat observation of ``seat`` into out (float32[FLAT_SIZE]).

    ``static=False`` skips what never changes during a game (terrain, numbers, harbours): use it to
    refresh a buffer that already holds an observation of the same game.
    """
    out[:HEXES_AT] = 0.0
    n = F.num_players(s)
    i = 0
    for r in range(5):
        out[i + r] = F.hand(s, seat, r) / 10.0
    i += 5
    for d in range(5):
        out[i + d] = F.dev_held(s, seat, d) / 5.0
        out[i + 5 + d] = F.dev_new(s, seat, d)
    i += 10
    for k in range(n):
        q = (seat + k) % n
        j = i + k * PLAYER_FEATURES
        out[j] = victory_points(s, q, False) / 10.0
        out[j + 1] = F.card_count(s, q) / 10.0
        for r in range(5):
            out[j + 2 + r] = (F.hand(s, q, r) if q == seat else F.known(s, seat, q, r)) / 10.0
        ndev = 0
        for d in range(5):
            ndev += F.dev_held(s, q, d)
            out[j + 8 + d] = F.dev_played(s, q, d) / 5.0
        out[j + 7] = ndev / 5.0
        out[j + 13] = F.roads_left(s, q) / 15.0
        out[j + 14] = F.settlements_left(s, q) / 5.0
        out[j + 15] = F.cities_left(s, q) / 4.0
        out[j + 16] = F.road_length(s, q) / 15.0
        out[j + 17] = 1.0 if F.longest_road_holder(s) == q else 0.0
        out[j + 18] = 1.0 if F.largest_army_holder(s) == q else 0.0
        out[j + 19] = F.to_discard(s, q) / 10.0
        out[j + 20] = 1.0 if F.turn_seat(s) == q else 0.0
        ports = F.harbour_mask(s, q)
        for h in range(6):
            if ports & (1 << h):
                out[j + 21 + h] = 1.0
    i += 4 * PLAYER_FEATURES
    out[i] = victory_points(s, seat, True) / 10.0
    i += 1
    deck = 0
    for r in range(5):
        out[i + r] = F.bank(s, r) / 19.0
        deck += F.deck(s, r)
    out[i + 5] = deck / 25.0
    i += 6
    ph = F.phase(s)
    out[i + (ph if ph < NUM_BASE_PHASES else PH_MAIN)] = 1.0  # the trade phases read as the action phase
    i += NUM_BASE_PHASES
    if F.last_roll(s) >= 2:
        out[i + F.last_roll(s) - 2] = 1.0
    i += 11
    out[i] = F.has_rolled(s)
    out[i + 1] = F.dev_played_this_turn(s)
    out[i + 2] = F.free_roads(s) / 2.0
    out[i + 3] = F.year_of_plenty_left(s) / 2.0
    limit = F.turn_limit(s) if F.turn_limit(s) > 0 else 500
    out[i + 4] = min(F.turn(s) / limit, 1.0)
    i += 5
    out[i + n - 2] = 1.0
    out[i + 3] = F.vp_to_win(s) / 10.0
    # hexes
    robber = F.robber(s)
    for h in range(19):
        j = HEXES_AT + h * HEX_FEATURES
        if static:
            for c in range(8):
                out[j + c] = 0.0
            out[j + F.hex_resource(s, h)] = 1.0
            num = F.hex_number(s, h)
            if num > 0:
                out[j + 6] = num / 12.0
                out[j + 7] = (6 - abs(7 - num)) / 5.0
        out[j + 8] = 1.0 if robber == h else 0.0
    # nodes
    for v in range(54):
        j = NODES_AT + v * NODE_FEATURES
        for c in range(8):
            out[j + c] = 0.0
        o = F.node_owner(s, v)
        if o >= 0:
            rel = _rel(o, seat, n)
            out[j + rel + (4 if F.node_level(s, v) == 2 else 0)] = 1.0
        if static:
            for c in range(8, 14):
                out[j + c] = 0.0
            port = F.node_harbour(s, v)
            if port >= 0:
                out[j + 8 + port] = 1.0
        out[j + 14] = 1.0 if node_free_for_settlement(s, v) else 0.0
    # edges
    for e in range(72):
        j = EDGES_AT + e * EDGE_FEATURES
        for c in range(4):
            out[j + c] = 0.0
        o = F.edge_owner(s, e)
        if o >= 0:
            out[j + _rel(o, seat, n)] = 1.0


_COSTS = np.stack([COST_ROAD, COST_SETTLEMENT, COST_CITY, COST_DEV])  # [4, 5]


@njit(cache=True)
def _pips(s, h):
    num = F.hex_number(s, h)
    return 6 - abs(7 - num) if num > 0 else 0


@njit(cache=True)
def encode_extra(s, seat, out):
    """Write the EXTRA_SIZE features of ``seat`` (the tail of ``rich``) into out."""
    out[:] = 0.0
    n = F.num_players(s)
    robber = F.robber(s)
    base = 54 * NODE_EXTRA
    touches = np.zeros((4, 54), np.bool_)  # [seat, node]: a road of the seat ends there
    for e in range(72):
        o = F.edge_owner(s, e)
        if o >= 0:
            touches[o, EDGE_NODES[e, 0]] = True
            touches[o, EDGE_NODES[e, 1]] = True
    road_ok = np.zeros((4, 72), np.bool_)  # [seat, edge]: a legal road (engine.road_ok) of the seat
    for e in range(72):
        if F.edge_owner(s, e) < 0:
            for i in range(2):
                v = EDGE_NODES[e, i]
                o = F.node_owner(s, v)
                for q in range(n):
                    if o == q or (o < 0 and touches[q, v]):
                        road_ok[q, e] = True
    for v in range(54):
        j = v * NODE_EXTRA
        total = 0
        for k in range(3):
            h = NODE_HEXES[v, k]
            if h >= 0 and F.hex_resource(s, h) < 5:
                pips = _pips(s, h)
                out[j + F.hex_resource(s, h)] += pips / 5.0
                total += pips
        out[j + 5] = total / 15.0
        o = F.node_owner(s, v)
        if o >= 0:  # production of the owner's building
            rel = _rel(o, seat, n)
            level = F.node_level(s, v)
            for k in range(3):
                h = NODE_HEXES[v, k]
                if h >= 0 and h != robber and F.hex_resource(s, h) < 5:
                    pips = _pips(s, h) * level
                    out[base + rel * SEAT_EXTRA + F.hex_resource(s, h)] += pips / 10.0
                    out[base + rel * SEAT_EXTRA + 5] += pips / 20.0
            continue
        if not node_free_for_settlement(s, v):
            continue
        for k in range(n):
            q = (seat + k) % n
            b = base + k * SEAT_EXTRA
            now = touches[q, v]
            later = False
            if not now:
                for m in range(3):
                    e = NODE_EDGES[v, m]
                    if e >= 0 and road_ok[q, e]:
                        later = True
            if now:
                out[j + (6 if k == 0 else 7)] = 1.0
                out[b + 6] += 1.0 / 5.0
            elif later:
                out[j + (8 if k == 0 else 9)] = 1.0
                out[b + 7] += 1.0 / 10.0
            if now or later:
                out[b + 8] = max(out[b + 8], total / 15.0)
    j = base + 4 * SEAT_EXTRA
    for c in range(4):
        ok = True
        for r in range(5):
            if F.hand(s, seat, r) < _COSTS[c, r]:
                ok = False
        out[j + c] = 1.0 if ok else 0.0


@njit(cache=True)
def encode_rich(s, seat, out, static=True):
    """Write the ``rich`` observation (RICH_SIZE floats): the flat one, then encode_extra's features."""
    encode(s, seat, out[:FLAT_SIZE], static)
    encode_extra(s, seat, out[FLAT_SIZE:])


@njit(cache=True)
def encode_planes(s, seat, flat, out):
    """Hex planes [PLANE_CHANNELS, 5, 10] in brick coordinates (each hex is two cells wide)."""
    out[:] = 0.0
    n = F.num_players(s)
    for h in range(19):
        row = HEX_ROW[h]
        col = HEX_PLANE_COL[h]
        for c in range(HEX_FEATURES):
            x = flat[HEXES_AT + h * HEX_FEATURES + c]
            out[c, row, col] = x
            out[c, row, col + 1] = x
        for k in range(6):
            v = HEX_NODES[h, k]
            o = F.node_owner(s, v)
            if o >= 0:
                rel = _rel(o, seat, n)
                c = HEX_FEATURES + rel + (4 if F.node_level(s, v) == 2 else 0)
                out[c, row, col] += 1.0 / 3.0
                out[c, row, col + 1] += 1.0 / 3.0
            e = HEX_EDGES[h, k]
            o = F.edge_owner(s, e)
            if o >= 0:
                c = HEX_FEATURES + 8 + _rel(o, seat, n)
                out[c, row, col] += 1.0 / 6.0
                out[c, row, col + 1] += 1.0 / 6.0


@njit(cache=True)
def encode_all(s, seat, flat, planes):
    """The flat observation and the planes of ``seat`` in one call."""
    encode(s, seat, flat, True)
    encode_planes(s, seat, flat, planes)


@njit(cache=True)
def encode_batch(states, seats, out, static=True):
    """Flat observations of many games: out[i] for states[i] seen by seats[i]."""
    for i in range(states.shape[0]):
        encode(states[i], seats[i], out[i], static)
