"""The public view of a Catan position: what one seat may see, as plain JSON-ready data.

``public_view(state, seat)`` describes the board (hexes with terrain, number and
pips; intersections and paths with their buildings and roads; the nine harbours
with their two intersections and rate; the robber), the bank, the size of the
development deck, every seat's public facts (card counts, knights and other cards
played, points showing, pieces left, road length, awards, trade rates) and, for
``seat`` itself only, its hand and development cards. ``seat=None`` is a
spectator: public facts only. Once the game is over every hand is shown.

Coordinates are the half units of ``topology`` (a hex centred at (x, y) has
corners at (x, y-2), (x+1, y-1), ...); a drawing scales y by about 0.87 to make
the hexes regular.
"""

from __future__ import annotations

from boardzero.core.api import base_public_view
from boardzero.games.catan import engine as E
from boardzero.games.catan.actions import DEV_NAMES
from boardzero.games.catan.board import RESOURCE_NAMES, TERRAIN_NAMES
from boardzero.games.catan.explain import PHASE_NAMES
from boardzero.games.catan.topology import EDGE_NODES, HARBOUR_EDGES, HARBOUR_NODES, HEX_CENTRES, HEX_NODES, NODE_XY

PIPS = (0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)  # dots on a number token, by number
PHASE_KEYS = {
    E.PH_SETUP_SETTLEMENT: "setup_settlement", E.PH_SETUP_ROAD: "setup_road", E.PH_PRE_ROLL: "pre_roll",
    E.PH_DICE: "dice", E.PH_DISCARD: "discard", E.PH_ROBBER: "robber", E.PH_VICTIM: "victim",
    E.PH_STEAL: "steal", E.PH_MAIN: "main", E.PH_DEV_DRAW: "dev_draw", E.PH_ROAD_BUILDING: "road_building",
    E.PH_YEAR_OF_PLENTY: "year_of_plenty", E.PH_OVER: "over",
}


def _seat_or_none(value) -> int | None:
    return int(value) if value >= 0 else None


def _by_name(names, values) -> dict[str, int]:
    return {name: int(v) for name, v in zip(names, values)}


def hexes(s) -> list[dict]:
    robber = int(s[E.G_ROBBER])
    out = []
    for h, (x, y) in enumerate(HEX_CENTRES):
        number = int(s[E.HEX_NUM + h])
        out.append({"id": h, "x": int(x), "y": int(y), "terrain": TERRAIN_NAMES[int(s[E.HEX_RES + h])],
                    "number": number or None, "pips": PIPS[number], "robber": h == robber,
                    "nodes": HEX_NODES[h].tolist()})
    return out


def nodes(s) -> list[dict]:
    out = []
    for v, (x, y) in enumerate(NODE_XY):
        owner = int(s[E.NODE_OWNER + v])
        building = None if owner < 0 else ("city" if s[E.NODE_LEVEL + v] == 2 else "settlement")
        out.append({"id": v, "x": int(x), "y": int(y), "owner": _seat_or_none(owner), "building": building})
    return out


def edges(s) -> list[dict]:
    return [{"id": e, "nodes": [int(a), int(b)], "owner": _seat_or_none(s[E.EDGE_OWNER + e])}
            for e, (a, b) in enumerate(EDGE_NODES)]


def harbours(s) -> list[dict]:
    out = []
    for edge, (a, b) in zip(HARBOUR_EDGES, HARBOUR_NODES):
        kind = int(s[E.NODE_PORT + a])
        generic = kind == 5
        out.append({"edge": int(edge), "nodes": [int(a), int(b)], "rate": 3 if generic else 2,
                    "resource": None if generic else RESOURCE_NAMES[kind]})
    return out


def player(state, p: int, shows_hidden: bool) -> dict:
    """Public facts of seat ``p``; its hand, development cards and full points only when ``shows_hidden``."""
    s = state.s
    b = E.pb(p)
    dev_total = int(s[b + E.P_DEV:b + E.P_DEV + 5].sum())
    facts = {
        "seat": p,
        "visible_points": state.victory_points(p, hidden=False),
        "cards": int(s[b + E.P_CARDS]),
        "dev_cards": dev_total,
        "knights": int(s[b + E.P_KNIGHTS]),
        "played": _by_name(DEV_NAMES, s[b + E.P_PLAYED:b + E.P_PLAYED + 5]),
        "roads_left": int(s[b + E.P_ROADS_LEFT]),
        "settlements_left": int(s[b + E.P_SETTLEMENTS_LEFT]),
        "cities_left": int(s[b + E.P_CITIES_LEFT]),
        "road_length": int(s[b + E.P_ROAD_LEN]),
        "longest_road": int(s[E.G_LONGEST_ROAD]) == p,
        "largest_army": int(s[E.G_LARGEST_ARMY]) == p,
        "to_discard": int(s[b + E.P_DISCARD]),
        "trade_rates": {name: int(E.trade_rate(s, p, r)) for r, name in enumerate(RESOURCE_NAMES)},
    }
    if shows_hidden:
        facts["points"] = state.victory_points(p, hidden=True)
        facts["hand"] = _by_name(RESOURCE_NAMES, s[b + E.P_HAND:b + E.P_HAND + 5])
        facts["development"] = _by_name(DEV_NAMES, s[b + E.P_DEV:b + E.P_DEV + 5])
        facts["development_new"] = _by_name(DEV_NAMES, s[b + E.P_DEV_NEW:b + E.P_DEV_NEW + 5])
    return facts


def points_by_source(facts: dict) -> dict[str, int]:
    """Where a seat's points come from, from its facts in the view (``player``); they add up to its
    ``points`` when those are shown, else victory-point cards count 0."""
    return {"settlements": 5 - facts["settlements_left"], "cities": 2 * (4 - facts["cities_left"]),
            "victory_point_cards": facts.get("development", {}).get("victory point", 0),
            "longest_road": 2 * facts["longest_road"], "largest_army": 2 * facts["largest_army"]}


def production(view: dict) -> list[int]:
    """Pips under each seat's buildings in a view (``public_view``): a city counts twice, the hex under the
    robber gives nothing. A seat receives on average its production / 36 cards a roll."""
    out = [0] * len(view["seats"])
    nodes = view["nodes"]
    for hex_ in view["hexes"]:
        if hex_["robber"]:
            continue
        for v in hex_["nodes"]:
            owner = nodes[v]["owner"]
            if owner is not None:
                out[owner] += hex_["pips"] * (2 if nodes[v]["building"] == "city" else 1)
    return out


def public_view(state, seat: int | None) -> dict:
    """What ``seat`` may see of a Catan position (``None``: a spectator), as JSON-ready data."""
    s = state.s
    n = state.game.num_players
    phase = int(s[E.G_PHASE])
    over = phase == E.PH_OVER
    view = base_public_view(state, seat)
    view.update({
        "phase": PHASE_KEYS[phase],
        "phase_text": PHASE_NAMES[phase],
        "turn": int(s[E.G_TURN]),
        "turn_player": int(s[E.G_TURN_PLAYER]),
        "dice": int(s[E.G_LAST_ROLL]) or None,
        "dice_counts": state.dice_counts(),
        "has_rolled": bool(s[E.G_HAS_ROLLED]),
        "dev_played_this_turn": bool(s[E.G_DEV_PLAYED]),
        "free_roads": int(s[E.G_FREE_ROADS]),
        "year_of_plenty_left": int(s[E.G_YOP_LEFT]),
        "victim": _seat_or_none(s[E.G_VICTIM]) if phase in (E.PH_VICTIM, E.PH_STEAL) else None,
        "vp_to_win": int(s[E.G_VP_TO_WIN]),
        "winner": _seat_or_none(s[E.G_WINNER]) if over else None,
        "robber": int(s[E.G_ROBBER]),
        "longest_road": _seat_or_none(s[E.G_LONGEST_ROAD]),
        "largest_army": _seat_or_none(s[E.G_LARGEST_ARMY]),
        "bank": _by_name(RESOURCE_NAMES, s[E.BANK:E.BANK + 5]),
        "dev_deck": int(s[E.DECK:E.DECK + 5].sum()),
        "hexes": hexes(s),
        "nodes": nodes(s),
        "edges": edges(s),
        "harbours": harbours(s),
        "seats": [player(state, p, over or p == seat) for p in range(n)],
    })
    return view
