"""A boardzero Catan position as a catanatron ``Game``, read through ``CatanState.public_view``.

``catanatron_game(state)`` needs a full state: the true one (``sight=full``) or
one drawn by ``view.sample_state(rng)`` (the fair default), whose hidden cards
(opponents' hands and development cards, the deck) are a draw consistent with
what the seat knows. Each seat's hand is read from that seat's own view of the
full state, so nothing here touches engine arrays.

What is translated: the board and harbours (``board.catan_map``), settlements,
cities and roads with catanatron's connected road networks, the robber, every
hand, development card (played, held, bought this turn), pieces left, points
(visible and actual), longest road and largest army, the bank, the deck, and
whose decision it is in which step (``PROMPTS``). boardzero steps that catanatron
makes in one action are mapped onto catanatron's single action; ``actions`` maps
the bot's choice back.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from catanatron import Color, state as cstate
from catanatron.game import Game
from catanatron.models import board as cboard
from catanatron.models.actions import generate_playable_actions
from catanatron.models.enums import Action, ActionPrompt, ActionType
from catanatron.models.player import Player

from boardzero.games.catan.actions import DEV_NAMES, action_id
from boardzero.games.catan.engine import DEV_COUNTS
from boardzero.integrations.catanatron.board import RESOURCES, catan_map, geometry

DEV_CARDS = ("KNIGHT", "VICTORY_POINT", "ROAD_BUILDING", "YEAR_OF_PLENTY", "MONOPOLY")  # boardzero's order
COLORS = tuple(Color)  # seat i plays COLORS[i]
HAS_OWNED_AT_START = "KNIGHT_OWNED_AT_START" in cstate.PLAYER_INITIAL_STATE  # catanatron >= 3.3

# boardzero phase -> (catanatron prompt, state flag set to True)
PROMPTS = {
    "setup_settlement": (ActionPrompt.BUILD_INITIAL_SETTLEMENT, "is_initial_build_phase"),
    "setup_road": (ActionPrompt.BUILD_INITIAL_ROAD, "is_initial_build_phase"),
    "pre_roll": (ActionPrompt.PLAY_TURN, None),
    "main": (ActionPrompt.PLAY_TURN, None),
    "road_building": (ActionPrompt.PLAY_TURN, "is_road_building"),
    "discard": (ActionPrompt.DISCARD, "is_discarding"),
    "robber": (ActionPrompt.MOVE_ROBBER, "is_moving_knight"),
    "victim": (ActionPrompt.MOVE_ROBBER, "is_moving_knight"),
}
assert tuple(d.replace(" ", "_").upper() for d in DEV_NAMES) == DEV_CARDS


def seat_cards(state, view: dict) -> list[dict]:
    """Every seat's resource and development cards in a full state: from its own public view for the seat
    to move (``view``) and the seat on turn (whose cards bought this turn matter), from ``hand`` and
    ``dev_cards`` for the others."""
    cards = []
    for seat in range(view["players"]):
        if seat in (view["to_move"], view["turn_player"]):
            facts = (view if seat == view["seat"] else state.public_view(seat))["seats"][seat]
            cards.append({k: facts[k] for k in ("hand", "development", "development_new")})
        else:
            hand, dev = state.hand(seat), state.dev_cards(seat)
            cards.append(
                {
                    "hand": {r.lower(): int(k) for r, k in zip(RESOURCES, hand)},
                    "development": {d: int(k) for d, k in zip(DEV_NAMES, dev)},
                    "development_new": dict.fromkeys(DEV_NAMES, 0),
                }
            )
    return cards


def catanatron_game(state, rng: np.random.Generator, legal, view: dict | None = None) -> Game:
    """The position of ``state`` (a full CatanState) as a catanatron Game, with its playable actions;
    ``legal`` are boardzero's legal action ids (they name the seats a robber may rob); ``view`` is the
    public view of the seat to move, when the caller has it."""
    view = view or state.public_view(state.current_player)
    cards = seat_cards(state, view)
    n = view["players"]
    colors = COLORS[:n]
    cstate_ = cstate.State([], None, initialize=False)
    cstate_.players = [Player(color) for color in colors]
    cstate_.colors = colors
    cstate_.color_to_index = {color: i for i, color in enumerate(colors)}
    cstate_.discard_limit = 7
    cstate_.friendly_robber = False
    cstate_.board = _board(state, view, colors)
    cstate_.player_state = _player_state(view, cards, colors)
    cstate_.resource_freqdeck = [view["bank"][r.lower()] for r in RESOURCES]
    cstate_.development_listdeck = _deck(view, cards, rng)
    cstate_.buildings_by_color = _buildings_by_color(view, colors)
    cstate_.action_records = []
    cstate_.actions = []  # catanatron < 3.3 keeps its log here
    cstate_.num_turns = view["turn"]
    cstate_.current_player_index = view["to_move"]
    cstate_.current_turn_index = view["turn_player"]
    _set_step(cstate_, view)
    game = Game(players=[], initialize=False)
    game.seed = 0
    game.id = "boardzero"
    game.vps_to_win = view["vp_to_win"]
    game.friendly_robber = False
    game.state = cstate_
    game.playable_actions = _playable_actions(cstate_, view, colors, legal)
    cstate_.playable_actions = game.playable_actions  # catanatron < 3.3 reads them from the state
    return game


def _board(state, view: dict, colors) -> cboard.Board:
    geo = geometry()
    layout = state.game.board(state.seed)
    board = cboard.Board(catan_map(layout.hex_resource, layout.hex_number, layout.harbours))
    for node in view["nodes"]:
        if node["owner"] is not None:
            cnode = int(geo.node_to_catanatron[node["id"]])
            board.buildings[cnode] = (colors[node["owner"]], "CITY" if node["building"] == "city" else "SETTLEMENT")
            board.board_buildable_ids.discard(cnode)
            for neighbour in cboard.STATIC_GRAPH.neighbors(cnode):
                board.board_buildable_ids.discard(neighbour)
    for edge in view["edges"]:
        if edge["owner"] is not None:
            a, b = geo.edge_to_catanatron[edge["id"]]
            board.roads[(a, b)] = board.roads[(b, a)] = colors[edge["owner"]]
    for seat, color in enumerate(colors):
        board.connected_components[color] = _road_networks(board, color)
        board.road_lengths[color] = view["seats"][seat]["road_length"]
    holder = view["longest_road"]
    lengths = [s["road_length"] for s in view["seats"]]
    board.road_color = colors[holder] if holder is not None else None
    board.road_length = lengths[holder] if holder is not None else max(lengths)  # the next holder needs more
    board.robber_coordinate = geo.coordinate_of_hex[view["robber"]]
    return board


def _road_networks(board, color) -> list[set]:
    """catanatron's connected components of ``color``: node sets joined by its roads; a building without
    roads is a network of its own. An opponent's building ends a network and is left out of it (catanatron
    keeps it in after a cut, which would let a road go on past it: boardzero's rules do not)."""
    owned = [n for n, (c, _) in board.buildings.items() if c == color]
    ends = {n for edge, c in board.roads.items() if c == color for n in edge}
    networks, seen = [], set()
    for start in owned + sorted(ends):
        if start in seen or board.is_enemy_node(start, color):
            continue
        network, frontier = {start}, [start]
        while frontier:
            node = frontier.pop()
            for other in cboard.STATIC_GRAPH.neighbors(node):
                if (
                    other not in network
                    and board.roads.get((node, other)) == color
                    and not board.is_enemy_node(other, color)
                ):
                    network.add(other)
                    frontier.append(other)
        seen |= network
        networks.append(network)
    return networks


def _player_state(view: dict, cards: list[dict], colors) -> dict:
    turn_player = view["turn_player"]
    out = {}
    for seat in range(len(colors)):
        facts = view["seats"][seat]
        key = f"P{seat}_"
        hand, dev, new = cards[seat]["hand"], cards[seat]["development"], cards[seat]["development_new"]
        on_turn = seat == turn_player
        values = {
            "VICTORY_POINTS": facts["visible_points"],
            "ACTUAL_VICTORY_POINTS": facts["visible_points"] + dev["victory point"],
            "ROADS_AVAILABLE": facts["roads_left"],
            "SETTLEMENTS_AVAILABLE": facts["settlements_left"],
            "CITIES_AVAILABLE": facts["cities_left"],
            "HAS_ROAD": facts["longest_road"],
            "HAS_ARMY": facts["largest_army"],
            "HAS_ROLLED": on_turn and view["has_rolled"],
            "HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN": on_turn and view["dev_played_this_turn"],
            "LONGEST_ROAD_LENGTH": facts["road_length"],
        }
        for resource in RESOURCES:
            values[f"{resource}_IN_HAND"] = hand[resource.lower()]
        for name, card in zip(DEV_NAMES, DEV_CARDS):
            values[f"{card}_IN_HAND"] = dev[name]
            values[f"PLAYED_{card}"] = facts["played"][name]
            if HAS_OWNED_AT_START and card != "VICTORY_POINT":  # cards bought this turn wait for the next
                values[f"{card}_OWNED_AT_START"] = (dev[name] - (new[name] if on_turn else 0)) > 0
        out.update({key + k: v for k, v in values.items()})
    return out


def _deck(view: dict, cards: list[dict], rng: np.random.Generator) -> list[str]:
    """The development deck of a full state: all cards less those held or played, shuffled (its order is
    never known: boardzero draws a card only when one is bought)."""
    counts = DEV_COUNTS.copy()
    for seat, facts in enumerate(view["seats"]):
        counts -= np.array([cards[seat]["development"][d] + facts["played"][d] for d in DEV_NAMES])
    deck = [card for card, k in zip(DEV_CARDS, counts) for _ in range(int(k))]
    return [deck[i] for i in rng.permutation(len(deck))]


def _buildings_by_color(view: dict, colors) -> dict:
    geo = geometry()
    out = {color: defaultdict(list) for color in colors}
    for node in view["nodes"]:
        if node["owner"] is not None:
            kind = "CITY" if node["building"] == "city" else "SETTLEMENT"
            out[colors[node["owner"]]][kind].append(int(geo.node_to_catanatron[node["id"]]))
    for edge in view["edges"]:
        if edge["owner"] is not None:
            out[colors[edge["owner"]]]["ROAD"].append(geo.edge_to_catanatron[edge["id"]])
    return out


def _set_step(state, view: dict) -> None:
    prompt, flag = PROMPTS[view["phase"]]
    state.current_prompt = prompt
    for name in (
        "is_initial_build_phase",
        "is_discarding",
        "is_moving_knight",
        "is_road_building",
        "is_resolving_trade",
    ):
        setattr(state, name, name == flag)
    n = view["players"]
    state.discard_counts = [s["to_discard"] for s in view["seats"]] if view["phase"] == "discard" else [0] * n
    state.free_roads_available = view["free_roads"] if view["phase"] == "road_building" else 0
    state.current_trade = (0,) * 11
    state.acceptees = (False,) * n


def _playable_actions(state, view: dict, colors, legal) -> list:
    """catanatron's moves in this step; the second half of a boardzero step catanatron takes in one action
    is narrowed to what is still open (the robber's hex is already chosen when the victim is)."""
    color = colors[view["to_move"]]
    if view["phase"] == "setup_road":
        _put_last_settlement_last(state, view, color)
    if view["phase"] == "victim":
        coordinate = geometry().coordinate_of_hex[view["robber"]]
        victims = [seat for seat in range(len(colors)) if action_id("rob", seat=seat) in set(legal.tolist())]
        return [Action(color, ActionType.MOVE_ROBBER, (coordinate, colors[seat])) for seat in victims]
    return generate_playable_actions(state)


def _put_last_settlement_last(state, view: dict, color) -> None:
    """catanatron places the setup road beside the settlement listed last: the one without a road yet."""
    settlements = state.buildings_by_color[color]["SETTLEMENT"]
    bare = [
        n
        for n in settlements
        if not any(state.board.roads.get((n, m)) == color for m in cboard.STATIC_GRAPH.neighbors(n))
    ]
    settlements.sort(key=lambda n: n in bare)
