"""Action and chance-outcome ids: names for people, ``action_id`` for code.

One id space of ``NUM_ACTIONS`` = 244 player actions:

    0..53     settlement at node n        (also the setup settlements)
    54..107   city at node n
    108..179  road at edge e              (also setup roads and road-building roads)
    180..198  move the robber to hex h
    199..202  rob seat p                  (after the robber, when several seats can be robbed)
    203..207  discard one card of resource r
    208..212  year of plenty: take resource r (two steps)
    213..217  play monopoly naming resource r
    218..237  bank/harbour trade: give resource g, get resource r (rate 4, 3 or 2 by harbours)
    238 buy development card, 239 play knight, 240 play road building,
    241 play year of plenty, 242 roll the dice, 243 end the turn

With the ``trading`` option, ``NUM_ACTIONS_TRADING`` = 371 (the ids above keep their numbers):

    244..363  offer catalogue entry i (``OFFER_GIVE[i]`` for ``OFFER_GET[i]``: 1 for 1, 2 for 1, 1 for 2)
    364 accept the open offer, 365 decline it
    366..369  trade with accepting seat k
    370 withdraw the offer

Chance outcomes: dice totals 2..12 (id = total), development-card draws
20 + card type (knight, victory point, road building, year of plenty,
monopoly), stolen cards 30 + resource.
"""

from __future__ import annotations

from boardzero.games.catan import engine as E
from boardzero.games.catan.board import RESOURCE_NAMES, TERRAIN_NAMES
from boardzero.games.catan.offsets import (  # noqa: F401  (the first id of each kind, for code that works with ids)
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
    NUM_ACTIONS_TRADING,
    NUM_OFFERS,
    O_DEV,
    O_DICE,
    O_STEAL,
    OFFER_GET,
    OFFER_GIVE,
)
from boardzero.games.catan.topology import EDGE_NODES, NODE_HEXES

DEV_NAMES = ("knight", "victory point", "road building", "year of plenty", "monopoly")
NUM_ACTIONS = E.NUM_ACTIONS

_SIMPLE = {
    "buy_dev": E.A_BUY_DEV,
    "knight": E.A_KNIGHT,
    "road_building": E.A_PLAY_ROAD_BUILDING,
    "year_of_plenty": E.A_PLAY_YOP,
    "roll": E.A_ROLL,
    "end_turn": E.A_END_TURN,
}
_TRADING_SIMPLE = {"accept": E.A_ACCEPT, "decline": E.A_DECLINE, "withdraw": E.A_WITHDRAW}
ACTION_KINDS = (
    ("settlement", "city", "road", "robber", "rob", "discard", "take", "monopoly", "trade")
    + tuple(_SIMPLE)
    + ("offer", "trade_with")
    + tuple(_TRADING_SIMPLE)
)
Cards = int | str | list | tuple | dict  # one side of an offer, see ``offer_cards``


def offer_cards(cards: Cards, side: str) -> tuple[int, ...]:
    """One side of an offer as 5 counts: a resource (one card), a list of resources (one card each) or a dict
    {resource: count}; resources by name or index."""
    counts = [0] * 5
    if isinstance(cards, dict):
        items = [(resource_index(r), int(n)) for r, n in cards.items()]
    elif isinstance(cards, (list, tuple)):
        items = [(resource_index(r), 1) for r in cards]
    else:
        items = [(resource_index(cards), 1)]
    for r, n in items:
        if n < 0:
            raise ValueError(f"offer {side}: {n} cards of {RESOURCE_NAMES[r]} is negative")
        counts[r] += n
    return tuple(counts)


_OFFER_INDEX = {(tuple(map(int, g)), tuple(map(int, r))): i for i, (g, r) in enumerate(zip(OFFER_GIVE, OFFER_GET))}


def offer_index(give: tuple[int, ...], get: tuple[int, ...]) -> int:
    """The catalogue index of the offer ``give`` for ``get`` (5 counts each); ValueError naming what is allowed."""
    i = _OFFER_INDEX.get((tuple(give), tuple(get)))
    if i is None:
        raise ValueError(
            f"no offer gives {cards_text(give) or 'nothing'} for {cards_text(get) or 'nothing'}; offers are 1 card "
            "for 1, 2 for 1 or 1 for 2 (two cards of one resource or one each of two), no resource on both sides"
        )
    return i


def cards_text(counts) -> str:
    """'1 wood + 1 brick' for counts (1, 1, 0, 0, 0)."""
    return " + ".join(f"{int(n)} {RESOURCE_NAMES[r]}" for r, n in enumerate(counts) if n > 0)


def offer_name(i: int) -> str:
    return f"offer {cards_text(OFFER_GIVE[i])} for {cards_text(OFFER_GET[i])}"


def resource_index(resource: int | str) -> int:
    if isinstance(resource, str):
        if resource not in RESOURCE_NAMES:
            raise ValueError(f"unknown resource {resource!r}; resources: {', '.join(RESOURCE_NAMES)}")
        return RESOURCE_NAMES.index(resource)
    if not 0 <= int(resource) < 5:
        raise ValueError(f"resource index {resource} is not 0..4")
    return int(resource)


def _check(name: str, value, size: int) -> int:
    if value is None:
        raise ValueError(f"this action needs {name}=")
    if not 0 <= int(value) < size:
        raise ValueError(f"{name}={value} is not 0..{size - 1}")
    return int(value)


def action_id(
    kind: str,
    *,
    node: int | None = None,
    edge: int | None = None,
    hex: int | None = None,
    seat: int | None = None,
    resource: int | str | None = None,
    give: Cards | None = None,
    get: Cards | None = None,
) -> int:
    """The id of an action, e.g. ``action_id("settlement", node=23)``, ``action_id("trade", give="wood", get="ore")``.

    Kinds: settlement/city (node), road (edge), robber (hex), rob (seat),
    discard/take/monopoly (resource), trade (give, get), and buy_dev, knight,
    road_building, year_of_plenty, roll, end_turn (no argument); with trading: offer (give, get: a resource,
    a list of resources or a dict of counts, e.g. ``action_id("offer", give=["wood", "brick"], get="ore")``),
    accept, decline, withdraw (no argument), trade_with (seat).
    """
    if kind == "settlement":
        return E.A_SETTLEMENT + _check("node", node, 54)
    if kind == "city":
        return E.A_CITY + _check("node", node, 54)
    if kind == "road":
        return E.A_ROAD + _check("edge", edge, 72)
    if kind == "robber":
        return E.A_ROBBER + _check("hex", hex, 19)
    if kind == "rob":
        return E.A_VICTIM + _check("seat", seat, 4)
    if kind in ("discard", "take", "monopoly"):
        if resource is None:
            raise ValueError(f"{kind} needs resource=")
        base = {"discard": E.A_DISCARD, "take": E.A_YOP, "monopoly": E.A_MONOPOLY}[kind]
        return base + resource_index(resource)
    if kind == "trade":
        if give is None or get is None or isinstance(give, (list, tuple, dict)) or isinstance(get, (list, tuple, dict)):
            raise ValueError("a bank trade needs give= and get=, one resource each (offers to players: kind 'offer')")
        g, r = resource_index(give), resource_index(get)
        if g == r:
            raise ValueError("trade must give and get different resources")
        return E.A_TRADE + g * 4 + (r if r < g else r - 1)
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "offer":
        if give is None or get is None:
            raise ValueError("offer needs give= and get=")
        return E.A_OFFER + offer_index(offer_cards(give, "give"), offer_cards(get, "get"))
    if kind == "trade_with":
        return E.A_TRADE_WITH + _check("seat", seat, 4)
    if kind in _TRADING_SIMPLE:
        return _TRADING_SIMPLE[kind]
    raise ValueError(f"unknown action kind {kind!r}; kinds: {', '.join(ACTION_KINDS)}")


def decode_trade(action: int) -> tuple[int, int]:
    i = action - E.A_TRADE
    g, r = divmod(i, 4)
    return g, (r + 1 if r >= g else r)


def harbour_name(port: int) -> str:
    """'3:1' or '2:1 wood' for a harbour type (5 = generic, else the resource)."""
    return "3:1" if port == 5 else f"2:1 {RESOURCE_NAMES[port]}"


def node_context(node: int, hex_res, hex_num, node_port=None) -> str:
    """'brick 6, wood 11, desert' (the hexes around an intersection), with '; harbour 3:1' where there is one."""
    parts = []
    for h in NODE_HEXES[node]:
        if h >= 0:
            res = int(hex_res[h])
            parts.append(TERRAIN_NAMES[res] if res == 5 else f"{TERRAIN_NAMES[res]} {int(hex_num[h])}")
    harbour = -1 if node_port is None else int(node_port[node])
    return ", ".join(parts) + (f"; harbour {harbour_name(harbour)}" if harbour >= 0 else "")


def action_name(action: int, board=None) -> str:
    """A readable name; with a board (hex_res, hex_num[, node_port]), settlements and cities name their hexes
    (and harbour)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS_TRADING:
        return f"invalid action {a}"
    if a >= E.A_OFFER:
        return _trading_name(a)
    if a < E.A_ROAD:
        kind, node = ("settlement", a) if a < E.A_CITY else ("city", a - E.A_CITY)
        text = f"{kind} at {node}"
        return f"{text} ({node_context(node, *board)})" if board is not None else text
    if a < E.A_ROBBER:
        e = a - E.A_ROAD
        return f"road at {e} (nodes {EDGE_NODES[e, 0]}-{EDGE_NODES[e, 1]})"
    if a < E.A_VICTIM:
        h = a - E.A_ROBBER
        if board is not None:
            res, num = int(board[0][h]), int(board[1][h])
            return f"robber to hex {h} ({TERRAIN_NAMES[res]}{'' if res == 5 else f' {num}'})"
        return f"robber to hex {h}"
    if a < E.A_DISCARD:
        return f"rob seat {a - E.A_VICTIM}"
    if a < E.A_YOP:
        return f"discard {RESOURCE_NAMES[a - E.A_DISCARD]}"
    if a < E.A_MONOPOLY:
        return f"take {RESOURCE_NAMES[a - E.A_YOP]} (year of plenty)"
    if a < E.A_TRADE:
        return f"play monopoly on {RESOURCE_NAMES[a - E.A_MONOPOLY]}"
    if a < E.A_BUY_DEV:
        g, r = decode_trade(a)
        return f"trade {RESOURCE_NAMES[g]} for {RESOURCE_NAMES[r]}"
    return {
        E.A_BUY_DEV: "buy development card",
        E.A_KNIGHT: "play knight",
        E.A_PLAY_ROAD_BUILDING: "play road building",
        E.A_PLAY_YOP: "play year of plenty",
        E.A_ROLL: "roll dice",
        E.A_END_TURN: "end turn",
    }[a]


def _trading_name(a: int) -> str:
    if a < E.A_ACCEPT:
        return offer_name(a - E.A_OFFER)
    if a < E.A_TRADE_WITH:
        return "accept" if a == E.A_ACCEPT else "decline"
    if a < E.A_WITHDRAW:
        return f"trade with seat {a - E.A_TRADE_WITH}"
    return "withdraw"


_FIELD_KINDS = {
    E.A_BUY_DEV: "buy_dev",
    E.A_KNIGHT: "knight",
    E.A_PLAY_ROAD_BUILDING: "road_building",
    E.A_PLAY_YOP: "year_of_plenty",
    E.A_ROLL: "roll",
    E.A_END_TURN: "end_turn",
}


def action_fields(action: int) -> dict:
    """The parts of an action id, in ``action_id``'s terms: ``{"kind": "trade", "give": "wood", "get": "ore"}``."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS_TRADING:
        raise ValueError(f"action ids are 0..{NUM_ACTIONS_TRADING - 1} (0..{NUM_ACTIONS - 1} without trading), got {a}")
    if a >= E.A_OFFER:
        return _trading_fields(a)
    spans = (
        ("settlement", E.A_SETTLEMENT, "node", None),
        ("city", E.A_CITY, "node", None),
        ("road", E.A_ROAD, "edge", None),
        ("robber", E.A_ROBBER, "hex", None),
        ("rob", E.A_VICTIM, "seat", None),
        ("discard", E.A_DISCARD, "resource", RESOURCE_NAMES),
        ("take", E.A_YOP, "resource", RESOURCE_NAMES),
        ("monopoly", E.A_MONOPOLY, "resource", RESOURCE_NAMES),
    )
    for (kind, start, field, names), end in zip(spans, [s[1] for s in spans[1:]] + [E.A_TRADE]):
        if start <= a < end:
            return {"kind": kind, field: names[a - start] if names else a - start}
    if a < E.A_BUY_DEV:
        give, get = decode_trade(a)
        return {"kind": "trade", "give": RESOURCE_NAMES[give], "get": RESOURCE_NAMES[get]}
    return {"kind": _FIELD_KINDS[a]}


def _trading_fields(a: int) -> dict:
    if a < E.A_ACCEPT:
        i = a - E.A_OFFER
        side = lambda counts: {RESOURCE_NAMES[r]: int(n) for r, n in enumerate(counts) if n > 0}  # noqa: E731
        return {"kind": "offer", "give": side(OFFER_GIVE[i]), "get": side(OFFER_GET[i])}
    if a < E.A_TRADE_WITH:
        return {"kind": "accept" if a == E.A_ACCEPT else "decline"}
    if a < E.A_WITHDRAW:
        return {"kind": "trade_with", "seat": a - E.A_TRADE_WITH}
    return {"kind": "withdraw"}


def outcome_name(outcome: int) -> str:
    o = int(outcome)
    if 2 <= o <= 12:
        return f"dice {o}"
    if E.O_DEV <= o < E.O_DEV + 5:
        return f"draw {DEV_NAMES[o - E.O_DEV]}"
    if E.O_STEAL <= o < E.O_STEAL + 5:
        return f"steal {RESOURCE_NAMES[o - E.O_STEAL]}"
    return f"invalid outcome {o}"
