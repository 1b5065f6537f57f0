"""Why an action is illegal: specific, readable reasons for IllegalActionError (not in the hot path)."""

from __future__ import annotations

import bisect

from boardzero.games.catan.actions import (
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
    DEV_NAMES,
    cards_text,
    decode_trade,
)
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.offsets import (
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    KNIGHT,
    MONOPOLY,
    OFFER_GIVE,
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
    YEAR_OF_PLENTY,
)
from boardzero.games.catan.topology import EDGE_NODES, HEX_NODES, NODE_NODES

PHASE_NAMES = {
    PH_SETUP_SETTLEMENT: "setup: place a settlement",
    PH_SETUP_ROAD: "setup: place a road next to the settlement just placed",
    PH_PRE_ROLL: "start of the turn: roll the dice or play a development card",
    PH_DICE: "dice roll (chance)",
    PH_DISCARD: "discard half of the hand after a 7",
    PH_ROBBER: "move the robber",
    PH_VICTIM: "choose whom to rob",
    PH_STEAL: "stolen card (chance)",
    PH_MAIN: "build, trade, buy or play a card, or end the turn",
    PH_DEV_DRAW: "development card draw (chance)",
    PH_ROAD_BUILDING: "place a free road (road building)",
    PH_YEAR_OF_PLENTY: "take a resource (year of plenty)",
    PH_OVER: "game over",
    PH_TRADE_ANSWER: "answer the offer: accept or decline",
    PH_TRADE_CHOOSE: "trade with a seat that accepted, or withdraw the offer",
}

_COSTS = {"road": COST_ROAD, "settlement": COST_SETTLEMENT, "city": COST_CITY, "development card": COST_DEV}


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
        PH_SETUP_SETTLEMENT: ("settlement",),
        PH_SETUP_ROAD: ("road",),
        PH_PRE_ROLL: ("roll", "dev"),
        PH_DISCARD: ("discard",),
        PH_ROBBER: ("robber",),
        PH_VICTIM: ("rob",),
        PH_MAIN: ("settlement", "city", "road", "trade", "buy", "dev", "end", "offer"),
        PH_ROAD_BUILDING: ("road",),
        PH_YEAR_OF_PLENTY: ("take",),
        PH_TRADE_ANSWER: ("answer",),
        PH_TRADE_CHOOSE: ("trade_with",),
    }.get(ph, ())
    if action_kind(a) in allowed:
        return None
    if ph == PH_DISCARD:
        left = state.view.to_discard(p)
        return f"seat {p} must first discard {left} more card(s) after the 7"
    if ph == PH_PRE_ROLL and action_kind(a) in ("settlement", "city", "road", "trade", "buy", "end", "offer"):
        return f"seat {p} must roll the dice first (only a development card may be played before the roll)"
    if action_kind(a) == "offer":
        turn = state.view.phase().turn_seat
        if p != turn:
            return f"only the seat whose turn it is (seat {turn}) makes offers, in its action phase after the roll"
        return f"offers are made in the action phase after the roll; the current step is '{PHASE_NAMES[ph]}'"
    if action_kind(a) == "answer":
        return "no offer is waiting for an answer from this seat"
    if action_kind(a) == "trade_with":
        return "no offer is open with all the answers in"
    return f"not allowed now: the current step is '{PHASE_NAMES[ph]}' for seat {p}"


# Action ids come in ranges, one per kind, in this order, then one id each for the rest.
_RANGE_STARTS = (A_SETTLEMENT, A_CITY, A_ROAD, A_ROBBER, A_VICTIM, A_DISCARD, A_YOP, A_MONOPOLY, A_TRADE)
_RANGE_KINDS = ("settlement", "city", "road", "robber", "rob", "discard", "take", "dev", "trade")
_SINGLE_KINDS = {
    A_BUY_DEV: "buy",
    A_KNIGHT: "dev",
    A_PLAY_ROAD_BUILDING: "dev",
    A_PLAY_YOP: "dev",
    A_ROLL: "roll",
    A_END_TURN: "end",
}


def action_kind(a: int) -> str:
    """The kind of a Catan action id: settlement, city, road, robber, rob, discard, take, dev, trade, buy, roll, end,
    and with trading offer, answer (accept or decline), trade_with (a trade with a seat, or withdrawing)."""
    if a >= A_OFFER:
        return "offer" if a < A_ACCEPT else "answer" if a < A_TRADE_WITH else "trade_with"
    if a >= A_BUY_DEV:
        return _SINGLE_KINDS[a]
    return _RANGE_KINDS[bisect.bisect_right(_RANGE_STARTS, a) - 1]


def _settlement_reason(state, p: int, n: int) -> str:
    view = state.view
    owners = view.node_owners()
    owner = int(owners[n])
    if owner >= 0:
        return f"node {n} is already taken by seat {owner}"
    for m in NODE_NODES[n]:
        if m >= 0 and owners[m] >= 0:
            return f"distance rule: node {m} next to node {n} has a building"
    if state.phase == PH_SETUP_SETTLEMENT:
        return "not legal here"
    if not view.node_touches_road(n, p):
        return f"node {n} is not connected to a road of seat {p}"
    if view.pieces_left(p).settlements <= 0:
        return f"seat {p} has no settlements left (5 at most)"
    return _afford(state, p, "settlement") or "not legal here"


def _city_reason(state, p: int, n: int) -> str:
    view = state.view
    owner, level = view.node_owners()[n], view.node_levels()[n]
    if not (owner == p and level == 1):
        what = "a city" if owner == p else "no settlement"
        return f"seat {p} has {what} there"
    if view.pieces_left(p).cities <= 0:
        return f"seat {p} has no cities left (4 at most)"
    return _afford(state, p, "city") or "not legal here"


def _road_reason(state, p: int, e: int) -> str:
    view = state.view
    owner = int(view.edge_owners()[e])
    if owner >= 0:
        return f"edge {e} already has a road of seat {owner}"
    if state.phase == PH_SETUP_ROAD:
        return f"a setup road must touch the settlement just placed at node {view.last_settlement()}"
    if not view.road_ok(e, p):
        a, b = EDGE_NODES[e]
        return f"edge {e} (nodes {a}-{b}) is not connected to seat {p}'s roads or buildings (or only through an opponent's building)"
    if view.pieces_left(p).roads <= 0:
        return f"seat {p} has no roads left (15 at most)"
    if state.phase == PH_MAIN:
        return _afford(state, p, "road") or "not legal here"
    return "not legal here"


def _dev_reason(state, p: int, kind: int) -> str:
    view = state.view
    held, new = view.dev_cards(p)[kind], view.dev_cards_new(p)[kind]
    name = DEV_NAMES[kind]
    if view.phase().dev_played:
        return "a development card was already played this turn (one per turn)"
    if held <= 0:
        return f"seat {p} has no {name} card"
    if held - new <= 0:
        return f"seat {p}'s {name} card was bought this turn and cannot be played until a later turn"
    if kind == ROAD_BUILDING:
        return f"seat {p} has no road left to place or no legal place for one"
    if kind == YEAR_OF_PLENTY:
        return "the bank has no cards"
    return "not legal here"


def _trading_reason(state, p: int, a: int) -> str:
    view = state.view
    trade = view.trade()
    if trade is None:
        return "player-to-player trading is off in this game (option trading=true turns it on)"
    kind = action_kind(a)
    if kind == "offer":
        i = a - A_OFFER
        if trade.offers_made >= trade.offers_per_turn:
            return f"seat {p} has made its {trade.offers_per_turn} offers this turn (the limit per turn)"
        if i in trade.declined:
            return "everyone declined this offer earlier this turn; it cannot be made again until the next turn"
        give = OFFER_GIVE[i]
        return f"seat {p} does not hold {cards_text(give)} to give (has {cards_text(state.hand(p)) or 'no cards'})"
    if kind == "answer":
        get = trade.offer.get if trade.offer is not None else (0,) * 5
        return f"seat {p} cannot accept: it does not hold {cards_text(get)} (has {cards_text(state.hand(p)) or 'no cards'})"
    if a == A_WITHDRAW:
        return "not legal here"
    q = a - A_TRADE_WITH
    if q >= state.game.num_players or q == p:
        return f"seat {q} is not another seat of this game"
    return f"seat {q} did not accept the offer"


def illegal_reason(state, a: int) -> str:
    num_actions = state.game.num_actions
    if not 0 <= a < num_actions:
        return f"action ids are 0..{num_actions - 1}" + (
            "" if num_actions > A_OFFER else " (trading is off: option trading=true adds the ids of offers and answers)"
        )
    if state.current_player < 0:
        return "not a decision: the game is over or a chance outcome is due"
    reason = _phase_reason(state, a)
    if reason:
        return reason
    view = state.view
    p = state.current_player
    kind = action_kind(a)
    if kind in ("offer", "answer", "trade_with"):
        return _trading_reason(state, p, a)
    if kind == "settlement":
        return _settlement_reason(state, p, a - A_SETTLEMENT)
    if kind == "city":
        return _city_reason(state, p, a - A_CITY)
    if kind == "road":
        return _road_reason(state, p, a - A_ROAD)
    if kind == "robber":
        return f"the robber is already on hex {a - A_ROBBER}; it must move to a different hex"
    if kind == "rob":
        v = a - A_VICTIM
        h = view.robber()
        if v == p:
            return "a player cannot rob themself"
        if v >= state.game.num_players or not any(view.node_owners()[n] == v for n in HEX_NODES[h]):
            return f"seat {v} has no building on hex {h}"
        return f"seat {v} has no cards to steal"
    if kind == "discard":
        return f"seat {p} has no {RESOURCE_NAMES[a - A_DISCARD]} to discard"
    if kind == "take":
        return f"the bank has no {RESOURCE_NAMES[a - A_YOP]} left"
    if kind == "trade":
        g, r = decode_trade(a)
        rate = view.trade_rate(p, g)
        if state.hand(p)[g] < rate:
            return f"seat {p} needs {rate} {RESOURCE_NAMES[g]} for this trade, has {int(state.hand(p)[g])}"
        return f"the bank has no {RESOURCE_NAMES[r]} left"
    if kind == "buy":
        if view.deck_size() == 0:
            return "the development deck is empty"
        return _afford(state, p, "development card") or "not legal here"
    if kind == "dev":
        dev = {A_KNIGHT: KNIGHT, A_PLAY_ROAD_BUILDING: ROAD_BUILDING, A_PLAY_YOP: YEAR_OF_PLENTY}.get(a, MONOPOLY)
        return _dev_reason(state, p, dev)
    if kind == "roll":
        return "the dice were already rolled this turn"
    if kind == "end":
        return "the turn cannot end now"
    return "not legal here"
