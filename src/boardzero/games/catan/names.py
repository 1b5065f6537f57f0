"""Names of Catan moves for people: what a player needs to choose one, and the other names they may type.

Only public facts go into a name, since the log shows every player's moves by
these names: the hexes and harbour at an intersection, whose buildings touch a
hex, how many cards a seat holds, the trade rate of the seat to move.
"""

from __future__ import annotations

from boardzero.games.catan import actions as A
from boardzero.games.catan.actions import (
    A_ACCEPT,
    A_BUY_DEV,
    A_DISCARD,
    A_KNIGHT,
    A_MONOPOLY,
    A_OFFER,
    A_PLAY_ROAD_BUILDING,
    A_PLAY_YOP,
    A_ROAD,
    A_ROBBER,
    A_TRADE,
    A_VICTIM,
)
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.topology import EDGE_NODES, HEX_NODES
from boardzero.games.catan.view import CatanView

# a play-a-card move by the card's own name too ("knight", "monopoly wood")
_CARD_ALIASES = {
    A_KNIGHT: ("knight",),
    A_PLAY_ROAD_BUILDING: ("road building",),
    A_PLAY_YOP: ("year of plenty",),
    A_BUY_DEV: ("buy dev", "buy card"),
}


def describe(state, a: int) -> str:
    """The rich name of action ``a`` in ``state`` (see ``CatanState.describe``)."""
    view = state.view
    if A_TRADE <= a < A_BUY_DEV and state.current_player >= 0:
        g, r = A.decode_trade(a)
        rate = view.trade_rate(state.current_player, g)
        return f"trade {rate} {RESOURCE_NAMES[g]} for 1 {RESOURCE_NAMES[r]}"
    name = A.action_name(a, (view.hex_resources(), view.hex_numbers(), view.node_harbours()))
    if A_ROBBER <= a < A_VICTIM:
        return f"{name[:-1]}; {_buildings_on(view, a - A_ROBBER)})"
    if A_VICTIM <= a < A_DISCARD and a - A_VICTIM < state.game.num_players:
        cards = view.card_count(a - A_VICTIM)
        return f"{name} ({cards} card{'' if cards == 1 else 's'})"
    return name


def _buildings_on(view: CatanView, h: int) -> str:
    owners = sorted({int(view.node_owners()[n]) for n in HEX_NODES[h]} - {-1})
    if not owners:
        return "no buildings"
    return f"buildings of seat{'s' if len(owners) > 1 else ''} {', '.join(map(str, owners))}"


def aliases(a: int) -> tuple[str, ...]:
    """Other names of action ``a`` a person may type: a road by its two intersections ('road 29-35'), a trade
    or a monopoly without the rate or the verb, a card move by the card, an offer without the counts of one
    ('offer wood + brick for ore') or with 'and' ('offer 1 wood and 1 brick for 1 ore')."""
    if A_OFFER <= a < A_ACCEPT:
        name = A.action_name(a)
        short = " ".join(w for w in name.split() if w != "1")
        return tuple(
            dict.fromkeys(n for n in (short, name.replace(" + ", " and "), short.replace(" + ", " and ")) if n != name)
        )
    if A_ROAD <= a < A_ROBBER:
        first, second = EDGE_NODES[a - A_ROAD]
        return f"road {first}-{second}", f"road {second}-{first}"
    if A_TRADE <= a < A_BUY_DEV:
        return (A.action_name(a),)  # 'trade wood for ore'
    if A_MONOPOLY <= a < A_TRADE:
        return (f"monopoly {RESOURCE_NAMES[a - A_MONOPOLY]}",)
    return _CARD_ALIASES.get(a, ())
