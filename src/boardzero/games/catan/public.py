"""The public view of a Catan position: what one seat may see, as plain JSON-ready data.

``public_view(state, seat)`` describes the board (hexes with terrain, number and
pips; intersections and paths with their buildings and roads; the nine harbours
with their two intersections and rate; the robber), the bank, the size of the
development deck, every seat's public facts (card counts, knights and other cards
played, points showing, pieces left, road length, awards, trade rates) and, for
``seat`` itself only, its hand and development cards. ``seat=None`` is a
spectator: public facts only. Once the game is over every hand is shown. In a game with
player-to-player trading, ``trade`` holds this turn's offers: the open one and its answers.

Coordinates are the half units of ``topology`` (a hex centred at (x, y) has
corners at (x, y-2), (x+1, y-1), ...); a drawing scales y by about 0.87 to make
the hexes regular.
"""

from __future__ import annotations

from boardzero.core.api import base_public_view
from boardzero.games.catan.actions import DEV_NAMES
from boardzero.games.catan.board import RESOURCE_NAMES, TERRAIN_NAMES
from boardzero.games.catan.explain import PHASE_NAMES
from boardzero.games.catan.topology import EDGE_NODES, HARBOUR_EDGES, HARBOUR_NODES, HEX_CENTRES, HEX_NODES, NODE_XY
from boardzero.games.catan.view import CatanView, Offer, Trading

PIPS = (0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)  # dots on a number token, by number


def _seat_or_none(value) -> int | None:
    return int(value) if value >= 0 else None


def _by_name(names, values) -> dict[str, int]:
    return {name: int(v) for name, v in zip(names, values)}


def hexes(view: CatanView) -> list[dict]:
    robber = view.robber()
    terrain, numbers = view.hex_resources(), view.hex_numbers()
    out = []
    for h, (x, y) in enumerate(HEX_CENTRES):
        number = int(numbers[h])
        out.append(
            {
                "id": h,
                "x": int(x),
                "y": int(y),
                "terrain": TERRAIN_NAMES[int(terrain[h])],
                "number": number or None,
                "pips": PIPS[number],
                "robber": h == robber,
                "nodes": HEX_NODES[h].tolist(),
            }
        )
    return out


def nodes(view: CatanView) -> list[dict]:
    owners, levels = view.node_owners(), view.node_levels()
    out = []
    for v, (x, y) in enumerate(NODE_XY):
        owner = int(owners[v])
        building = None if owner < 0 else ("city" if levels[v] == 2 else "settlement")
        out.append({"id": v, "x": int(x), "y": int(y), "owner": _seat_or_none(owner), "building": building})
    return out


def edges(view: CatanView) -> list[dict]:
    owners = view.edge_owners()
    return [
        {"id": e, "nodes": [int(a), int(b)], "owner": _seat_or_none(owners[e])} for e, (a, b) in enumerate(EDGE_NODES)
    ]


def harbours(view: CatanView) -> list[dict]:
    ports = view.node_harbours()
    out = []
    for edge, (a, b) in zip(HARBOUR_EDGES, HARBOUR_NODES):
        kind = int(ports[a])
        generic = kind == 5
        out.append(
            {
                "edge": int(edge),
                "nodes": [int(a), int(b)],
                "rate": 3 if generic else 2,
                "resource": None if generic else RESOURCE_NAMES[kind],
            }
        )
    return out


def player(state, p: int, shows_hidden: bool) -> dict:
    """Public facts of seat ``p``; its hand, development cards and full points only when ``shows_hidden``."""
    view = state.view
    pieces, awards = view.pieces_left(p), view.awards()
    facts = {
        "seat": p,
        "visible_points": view.victory_points(p, hidden=False),
        "cards": view.card_count(p),
        "dev_cards": int(view.dev_cards(p).sum()),
        "knights": view.knights(p),
        "played": _by_name(DEV_NAMES, view.dev_played(p)),
        "roads_left": pieces.roads,
        "settlements_left": pieces.settlements,
        "cities_left": pieces.cities,
        "road_length": view.road_length(p),
        "longest_road": awards.longest_road_holder == p,
        "largest_army": awards.largest_army_holder == p,
        "to_discard": view.to_discard(p),
        "trade_rates": {name: view.trade_rate(p, r) for r, name in enumerate(RESOURCE_NAMES)},
    }
    if shows_hidden:
        facts["points"] = view.victory_points(p, hidden=True)
        facts["hand"] = _by_name(RESOURCE_NAMES, view.hand(p))
        facts["development"] = _by_name(DEV_NAMES, view.dev_cards(p))
        facts["development_new"] = _by_name(DEV_NAMES, view.dev_cards_new(p))
    return facts


def points_by_source(facts: dict) -> dict[str, int]:
    """Where a seat's points come from, from its facts in the view (``player``); they add up to its
    ``points`` when those are shown, else victory-point cards count 0."""
    return {
        "settlements": 5 - facts["settlements_left"],
        "cities": 2 * (4 - facts["cities_left"]),
        "victory_point_cards": facts.get("development", {}).get("victory point", 0),
        "longest_road": 2 * facts["longest_road"],
        "largest_army": 2 * facts["largest_army"],
    }


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
    board = state.view
    n = state.game.num_players
    phase = board.phase()
    awards = board.awards()
    over = phase.key == "over"
    view = base_public_view(state, seat)
    view.update(
        {
            "phase": phase.key,
            "phase_text": PHASE_NAMES[phase.id],
            "turn": phase.turn,
            "turn_player": phase.turn_seat,
            "dice": phase.last_roll,
            "dice_counts": state.dice_counts(),
            "has_rolled": phase.has_rolled,
            "dev_played_this_turn": phase.dev_played,
            "free_roads": phase.free_roads,
            "year_of_plenty_left": phase.year_of_plenty_left,
            "victim": phase.victim,
            "vp_to_win": board.vp_to_win,
            "winner": phase.winner,
            "robber": board.robber(),
            "longest_road": awards.longest_road_holder,
            "largest_army": awards.largest_army_holder,
            "bank": _by_name(RESOURCE_NAMES, board.bank()),
            "dev_deck": board.deck_size(),
            "hexes": hexes(board),
            "nodes": nodes(board),
            "edges": edges(board),
            "harbours": harbours(board),
            "seats": [player(state, p, over or p == seat) for p in range(n)],
        }
    )
    trade = board.trade()
    if trade is not None:  # only in games with player-to-player trading
        view["trade"] = trading(trade)
    return view


def trading(trade: Trading) -> dict:
    """Trading this turn: the limit, offers made, the open offer (cards given and asked, by the seat on turn) and
    each seat's answer (null: not yet, or the proposer), and the offers everyone declined this turn."""

    def cards(counts) -> dict[str, int]:
        return {RESOURCE_NAMES[r]: int(c) for r, c in enumerate(counts) if c > 0}

    offer = trade.offer
    return {
        "offers_per_turn": trade.offers_per_turn,
        "offers_made": trade.offers_made,
        "offer": None if offer is None else {"give": cards(offer.give), "get": cards(offer.get), "index": offer.index},
        "answers": list(trade.answers),
        "declined": [
            {"give": cards(o.give), "get": cards(o.get), "index": o.index} for o in map(Offer.of, trade.declined)
        ],
    }
