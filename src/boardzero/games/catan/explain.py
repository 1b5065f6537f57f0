"""Why an action is illegal: specific, readable reasons for IllegalActionError (not in the hot path)."""

from __future__ import annotations

import bisect

from boardzero.games.catan import engine as E
from boardzero.games.catan.actions import DEV_NAMES, NUM_ACTIONS, decode_trade
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.topology import EDGE_NODES, HEX_NODES, NODE_NODES

PHASE_NAMES = {
    E.PH_SETUP_SETTLEMENT: "setup: place a settlement",
    E.PH_SETUP_ROAD: "setup: place a road next to the settlement just placed",
    E.PH_PRE_ROLL: "start of the turn: roll the dice or play a development card",
    E.PH_DICE: "dice roll (chance)",
    E.PH_DISCARD: "discard half of the hand after a 7",
    E.PH_ROBBER: "move the robber",
    E.PH_VICTIM: "choose whom to rob",
    E.PH_STEAL: "stolen card (chance)",
    E.PH_MAIN: "build, trade, buy or play a card, or end the turn",
    E.PH_DEV_DRAW: "development card draw (chance)",
    E.PH_ROAD_BUILDING: "place a free road (road building)",
    E.PH_YEAR_OF_PLENTY: "take a resource (year of plenty)",
    E.PH_OVER: "game over",
}

_COSTS = {"road": E.COST_ROAD, "settlement": E.COST_SETTLEMENT, "city": E.COST_CITY,
          "development card": E.COST_DEV}


def _cost_text(cost) -> str:
    return ", ".join(f"{int(c)} {RESOURCE_NAMES[r]}" for r, c in enumerate(cost) if c)


def _afford(state, p, what: str) -> str | None:
    cost = _COSTS[what]
    hand = state.hand(p)
    if all(hand >= cost):
        return None
    held = ", ".join(f"{int(hand[r])} {RESOURCE_NAMES[r]}" for r in range(5) if cost[r])
    return f"seat {p} cannot afford a {what} (costs {_cost_text(cost)}; has {held})"


def _phase_reason(state, a: int) -> str | None:
    """Reason when the action's kind does not fit the current step of the turn."""
    ph = state.phase
    p = state.current_player
    allowed = {
        E.PH_SETUP_SETTLEMENT: ("settlement",),
        E.PH_SETUP_ROAD: ("road",),
        E.PH_PRE_ROLL: ("roll", "dev"),
        E.PH_DISCARD: ("discard",),
        E.PH_ROBBER: ("robber",),
        E.PH_VICTIM: ("rob",),
        E.PH_MAIN: ("settlement", "city", "road", "trade", "buy", "dev", "end"),
        E.PH_ROAD_BUILDING: ("road",),
        E.PH_YEAR_OF_PLENTY: ("take",),
    }.get(ph, ())
    if action_kind(a) in allowed:
        return None
    if ph == E.PH_DISCARD:
        left = int(state.s[E.pb(p) + E.P_DISCARD])
        return f"seat {p} must first discard {left} more card(s) after the 7"
    if ph == E.PH_PRE_ROLL and action_kind(a) in ("settlement", "city", "road", "trade", "buy", "end"):
        return f"seat {p} must roll the dice first (only a development card may be played before the roll)"
    return f"not allowed now: the current step is '{PHASE_NAMES[ph]}' for seat {p}"


# Action ids come in ranges, one per kind, in this order, then one id each for the rest.
_RANGE_STARTS = (0, E.A_CITY, E.A_ROAD, E.A_ROBBER, E.A_VICTIM, E.A_DISCARD, E.A_YOP, E.A_MONOPOLY, E.A_TRADE)
_RANGE_KINDS = ("settlement", "city", "road", "robber", "rob", "discard", "take", "dev", "trade")
_SINGLE_KINDS = {E.A_BUY_DEV: "buy", E.A_KNIGHT: "dev", E.A_PLAY_ROAD_BUILDING: "dev", E.A_PLAY_YOP: "dev",
                 E.A_ROLL: "roll", E.A_END_TURN: "end"}


def action_kind(a: int) -> str:
    """The kind of a Catan action id: settlement, city, road, robber, rob, discard, take, dev, trade, buy, roll, end."""
    if a >= E.A_BUY_DEV:
        return _SINGLE_KINDS[a]
    return _RANGE_KINDS[bisect.bisect_right(_RANGE_STARTS, a) - 1]


def _settlement_reason(state, p: int, n: int) -> str:
    s = state.s
    owner = int(s[E.NODE_OWNER + n])
    if owner >= 0:
        return f"node {n} is already taken by seat {owner}"
    for m in NODE_NODES[n]:
        if m >= 0 and s[E.NODE_OWNER + m] >= 0:
            return f"distance rule: node {m} next to node {n} has a building"
    if state.phase == E.PH_SETUP_SETTLEMENT:
        return "not legal here"
    if not E.node_touches_road(s, n, p):
        return f"node {n} is not connected to a road of seat {p}"
    if s[E.pb(p) + E.P_SETTLEMENTS_LEFT] <= 0:
        return f"seat {p} has no settlements left (5 at most)"
    return _afford(state, p, "settlement") or "not legal here"


def _city_reason(state, p: int, n: int) -> str:
    s = state.s
    if not (s[E.NODE_OWNER + n] == p and s[E.NODE_LEVEL + n] == 1):
        what = "a city" if s[E.NODE_OWNER + n] == p else "no settlement"
        return f"seat {p} has {what} there"
    if s[E.pb(p) + E.P_CITIES_LEFT] <= 0:
        return f"seat {p} has no cities left (4 at most)"
    return _afford(state, p, "city") or "not legal here"


def _road_reason(state, p: int, e: int) -> str:
    s = state.s
    owner = int(s[E.EDGE_OWNER + e])
    if owner >= 0:
        return f"edge {e} already has a road of seat {owner}"
    if state.phase == E.PH_SETUP_ROAD:
        return f"a setup road must touch the settlement just placed at node {int(s[E.G_LAST_SETTLEMENT])}"
    if not E.road_ok(s, e, p):
        a, b = EDGE_NODES[e]
        return f"edge {e} (nodes {a}-{b}) is not connected to seat {p}'s roads or buildings (or only through an opponent's building)"
    if s[E.pb(p) + E.P_ROADS_LEFT] <= 0:
        return f"seat {p} has no roads left (15 at most)"
    if state.phase == E.PH_MAIN:
        return _afford(state, p, "road") or "not legal here"
    return "not legal here"


def _dev_reason(state, p: int, kind: int) -> str:
    s = state.s
    b = E.pb(p)
    name = DEV_NAMES[kind]
    if s[E.G_DEV_PLAYED]:
        return "a development card was already played this turn (one per turn)"
    if s[b + E.P_DEV + kind] <= 0:
        return f"seat {p} has no {name} card"
    if s[b + E.P_DEV + kind] - s[b + E.P_DEV_NEW + kind] <= 0:
        return f"seat {p}'s {name} card was bought this turn and cannot be played until a later turn"
    if kind == E.ROAD_BUILDING:
        return f"seat {p} has no road left to place or no legal place for one"
    if kind == E.YEAR_OF_PLENTY:
        return "the bank has no cards"
    return "not legal here"


def illegal_reason(state, a: int) -> str:
    if not 0 <= a < NUM_ACTIONS:
        return f"action ids are 0..{NUM_ACTIONS - 1}"
    if state.current_player < 0:
        return "not a decision: the game is over or a chance outcome is due"
    reason = _phase_reason(state, a)
    if reason:
        return reason
    s = state.s
    p = state.current_player
    kind = action_kind(a)
    if kind == "settlement":
        return _settlement_reason(state, p, a - E.A_SETTLEMENT)
    if kind == "city":
        return _city_reason(state, p, a - E.A_CITY)
    if kind == "road":
        return _road_reason(state, p, a - E.A_ROAD)
    if kind == "robber":
        return f"the robber is already on hex {a - E.A_ROBBER}; it must move to a different hex"
    if kind == "rob":
        v = a - E.A_VICTIM
        h = int(s[E.G_ROBBER])
        if v == p:
            return "a player cannot rob themself"
        if v >= state.game.num_players or not any(s[E.NODE_OWNER + n] == v for n in HEX_NODES[h]):
            return f"seat {v} has no building on hex {h}"
        return f"seat {v} has no cards to steal"
    if kind == "discard":
        return f"seat {p} has no {RESOURCE_NAMES[a - E.A_DISCARD]} to discard"
    if kind == "take":
        return f"the bank has no {RESOURCE_NAMES[a - E.A_YOP]} left"
    if kind == "trade":
        g, r = decode_trade(a)
        rate = int(E.trade_rate(s, p, g))
        if state.hand(p)[g] < rate:
            return f"seat {p} needs {rate} {RESOURCE_NAMES[g]} for this trade, has {int(state.hand(p)[g])}"
        return f"the bank has no {RESOURCE_NAMES[r]} left"
    if kind == "buy":
        if s[E.DECK:E.DECK + 5].sum() == 0:
            return "the development deck is empty"
        return _afford(state, p, "development card") or "not legal here"
    if kind == "dev":
        dev = {E.A_KNIGHT: E.KNIGHT, E.A_PLAY_ROAD_BUILDING: E.ROAD_BUILDING,
               E.A_PLAY_YOP: E.YEAR_OF_PLENTY}.get(a, E.MONOPOLY)
        return _dev_reason(state, p, dev)
    if kind == "roll":
        return "the dice were already rolled this turn"
    if kind == "end":
        return "the turn cannot end now"
    return "not legal here"


