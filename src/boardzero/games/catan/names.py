"""Names of Catan moves for people: what a player needs to choose one, and the other names they may type.

Only public facts go into a name, since the log shows every player's moves by
these names: the hexes and harbour at an intersection, whose buildings touch a
hex, how many cards a seat holds, the trade rate of the seat to move.
"""

from __future__ import annotations

import numpy as np

from boardzero.games.catan import actions as A
from boardzero.games.catan import engine as E
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.topology import EDGE_NODES, HEX_NODES

# a play-a-card move by the card's own name too ("knight", "monopoly wood")
_CARD_ALIASES = {E.A_KNIGHT: ("knight",), E.A_PLAY_ROAD_BUILDING: ("road building",),
                 E.A_PLAY_YOP: ("year of plenty",), E.A_BUY_DEV: ("buy dev", "buy card")}


def describe(state, a: int) -> str:
    """The rich name of action ``a`` in ``state`` (see ``CatanState.describe``)."""
    s = state.s
    if E.A_TRADE <= a < E.A_BUY_DEV and state.current_player >= 0:
        g, r = A.decode_trade(a)
        rate = int(E.trade_rate(s, state.current_player, g))
        return f"trade {rate} {RESOURCE_NAMES[g]} for 1 {RESOURCE_NAMES[r]}"
    name = A.action_name(a, (*state.board_arrays(), s[E.NODE_PORT:E.NODE_PORT + 54]))
    if E.A_ROBBER <= a < E.A_VICTIM:
        return f"{name[:-1]}; {_buildings_on(s, a - E.A_ROBBER)})"
    if E.A_VICTIM <= a < E.A_DISCARD and a - E.A_VICTIM < state.game.num_players:
        cards = int(s[E.pb(a - E.A_VICTIM) + E.P_CARDS])
        return f"{name} ({cards} card{'' if cards == 1 else 's'})"
    return name


def _buildings_on(s: np.ndarray, h: int) -> str:
    owners = sorted({int(s[E.NODE_OWNER + n]) for n in HEX_NODES[h]} - {-1})
    if not owners:
        return "no buildings"
    return f"buildings of seat{'s' if len(owners) > 1 else ''} {', '.join(map(str, owners))}"


def aliases(a: int) -> tuple[str, ...]:
    """Other names of action ``a`` a person may type: a road by its two intersections ('road 29-35'), a trade
    or a monopoly without the rate or the verb, a card move by the card."""
    if E.A_ROAD <= a < E.A_ROBBER:
        first, second = EDGE_NODES[a - E.A_ROAD]
        return f"road {first}-{second}", f"road {second}-{first}"
    if E.A_TRADE <= a < E.A_BUY_DEV:
        return (A.action_name(a),)  # 'trade wood for ore'
    if E.A_MONOPOLY <= a < E.A_TRADE:
        return (f"monopoly {RESOURCE_NAMES[a - E.A_MONOPOLY]}",)
    return _CARD_ALIASES.get(a, ())
