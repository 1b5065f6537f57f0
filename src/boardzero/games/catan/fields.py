"""Compiled accessors of a Catan state array, by name: what compiled code outside the rules reads.

Observations (``observe``) and hidden-card sampling (``hidden``) run compiled over the engine's array; they
read it through these functions instead of offsets, so the layout stays inside ``offsets`` and the rules.
Each is a numba function inlined where it is called, so a compiled caller pays nothing for the name; from
Python, ``view.CatanView`` is the faster and typed way. The ``set_*`` writers exist for hidden-card
sampling alone (redrawing what a seat cannot know); the rules change a state only by applying actions.
"""

from __future__ import annotations

from numba import njit

from boardzero.games.catan.offsets import (
    BANK,
    DECK,
    EDGE_OWNER,
    G_DECIDER,
    G_DEV_PLAYED,
    G_FREE_ROADS,
    G_HAS_ROLLED,
    G_LARGEST_ARMY,
    G_LAST_ROLL,
    G_LONGEST_ROAD,
    G_NUM_PLAYERS,
    G_PHASE,
    G_ROBBER,
    G_SETUP_STEP,
    G_TURN,
    G_TURN_LIMIT,
    G_TURN_PLAYER,
    G_VICTIM,
    G_VP_TO_WIN,
    G_WINNER,
    G_YOP_LEFT,
    HEX_NUM,
    HEX_RES,
    NODE_LEVEL,
    NODE_OWNER,
    NODE_PORT,
    P_CARDS,
    P_CITIES_LEFT,
    P_DEV,
    P_DEV_NEW,
    P_DISCARD,
    P_HAND,
    P_KNIGHTS,
    P_PLAYED,
    P_PORTS,
    P_ROAD_LEN,
    P_ROADS_LEFT,
    P_SETTLEMENTS_LEFT,
    kn,
    pb,
)


@njit(cache=True, inline="always")
def num_players(s):
    """Seats in the game (2-4)."""
    return s[G_NUM_PLAYERS]


@njit(cache=True, inline="always")
def vp_to_win(s):
    """Points that win."""
    return s[G_VP_TO_WIN]


@njit(cache=True, inline="always")
def turn_limit(s):
    """Turns after setup before the game stops (0: none)."""
    return s[G_TURN_LIMIT]


@njit(cache=True, inline="always")
def phase(s):
    """The phase (``offsets.PH_*``)."""
    return s[G_PHASE]


@njit(cache=True, inline="always")
def decider(s):
    """The seat that decides now (also during a discard or a robber move)."""
    return s[G_DECIDER]


@njit(cache=True, inline="always")
def turn_seat(s):
    """The seat whose turn it is."""
    return s[G_TURN_PLAYER]


@njit(cache=True, inline="always")
def turn(s):
    """Completed turns after setup."""
    return s[G_TURN]


@njit(cache=True, inline="always")
def setup_step(s):
    """Setup placements done (setup ends at 2 x players)."""
    return s[G_SETUP_STEP]


@njit(cache=True, inline="always")
def has_rolled(s):
    """1 once the seat on turn has rolled."""
    return s[G_HAS_ROLLED]


@njit(cache=True, inline="always")
def dev_played_this_turn(s):
    """1 once a development card was played this turn."""
    return s[G_DEV_PLAYED]


@njit(cache=True, inline="always")
def free_roads(s):
    """Roads left to place for a road-building card."""
    return s[G_FREE_ROADS]


@njit(cache=True, inline="always")
def year_of_plenty_left(s):
    """Cards left to take for a year-of-plenty card."""
    return s[G_YOP_LEFT]


@njit(cache=True, inline="always")
def robber(s):
    """The hex under the robber."""
    return s[G_ROBBER]


@njit(cache=True, inline="always")
def largest_army_holder(s):
    """Seat holding largest army, or -1."""
    return s[G_LARGEST_ARMY]


@njit(cache=True, inline="always")
def longest_road_holder(s):
    """Seat holding longest road, or -1."""
    return s[G_LONGEST_ROAD]


@njit(cache=True, inline="always")
def winner(s):
    """The winning seat, -1 while playing or after the turn limit."""
    return s[G_WINNER]


@njit(cache=True, inline="always")
def last_roll(s):
    """The last dice total (0 before the first roll)."""
    return s[G_LAST_ROLL]


@njit(cache=True, inline="always")
def victim(s):
    """The seat being robbed, or -1."""
    return s[G_VICTIM]


@njit(cache=True, inline="always")
def hex_resource(s, h):
    """Terrain of hex h (resource 0-4, 5 desert)."""
    return s[HEX_RES + h]


@njit(cache=True, inline="always")
def hex_number(s, h):
    """Number token of hex h (0 on the desert)."""
    return s[HEX_NUM + h]


@njit(cache=True, inline="always")
def node_harbour(s, v):
    """Harbour at intersection v: resource 0-4, 5 generic 3:1, -1 none."""
    return s[NODE_PORT + v]


@njit(cache=True, inline="always")
def node_owner(s, v):
    """Owner seat of the building at intersection v, or -1."""
    return s[NODE_OWNER + v]


@njit(cache=True, inline="always")
def node_level(s, v):
    """0 empty, 1 settlement, 2 city at intersection v."""
    return s[NODE_LEVEL + v]


@njit(cache=True, inline="always")
def edge_owner(s, e):
    """Owner seat of the road on path e, or -1."""
    return s[EDGE_OWNER + e]


@njit(cache=True, inline="always")
def hand(s, p, r):
    """Cards of resource r in seat p's hand."""
    return s[pb(p) + P_HAND + r]


@njit(cache=True, inline="always")
def card_count(s, p):
    """Resource cards in seat p's hand (public)."""
    return s[pb(p) + P_CARDS]


@njit(cache=True, inline="always")
def dev_held(s, p, d):
    """Unplayed development cards of type d held by seat p."""
    return s[pb(p) + P_DEV + d]


@njit(cache=True, inline="always")
def dev_new(s, p, d):
    """Of those, bought this turn."""
    return s[pb(p) + P_DEV_NEW + d]


@njit(cache=True, inline="always")
def dev_played(s, p, d):
    """Development cards of type d seat p has played."""
    return s[pb(p) + P_PLAYED + d]


@njit(cache=True, inline="always")
def knights(s, p):
    """Knights seat p has played."""
    return s[pb(p) + P_KNIGHTS]


@njit(cache=True, inline="always")
def roads_left(s, p):
    """Roads left in seat p's supply."""
    return s[pb(p) + P_ROADS_LEFT]


@njit(cache=True, inline="always")
def settlements_left(s, p):
    """Settlements left in seat p's supply."""
    return s[pb(p) + P_SETTLEMENTS_LEFT]


@njit(cache=True, inline="always")
def cities_left(s, p):
    """Cities left in seat p's supply."""
    return s[pb(p) + P_CITIES_LEFT]


@njit(cache=True, inline="always")
def road_length(s, p):
    """Length of seat p's longest road."""
    return s[pb(p) + P_ROAD_LEN]


@njit(cache=True, inline="always")
def to_discard(s, p):
    """Cards seat p still has to discard."""
    return s[pb(p) + P_DISCARD]


@njit(cache=True, inline="always")
def harbour_mask(s, p):
    """Seat p's harbours: bit r a 2:1 of resource r, bit 5 a 3:1."""
    return s[pb(p) + P_PORTS]


@njit(cache=True, inline="always")
def known(s, observer, p, r):
    """Cards of resource r ``observer`` knows for sure seat p holds."""
    return s[kn(observer, p, r)]


@njit(cache=True, inline="always")
def bank(s, r):
    """Cards of resource r in the bank."""
    return s[BANK + r]


@njit(cache=True, inline="always")
def deck(s, d):
    """Development cards of type d left in the deck (hidden)."""
    return s[DECK + d]


# ----------------------------------------------------------------------------- writers for hidden-card sampling


@njit(cache=True, inline="always")
def set_hand(s, p, r, n):
    s[pb(p) + P_HAND + r] = n


@njit(cache=True, inline="always")
def set_dev_held(s, p, d, n):
    s[pb(p) + P_DEV + d] = n


@njit(cache=True, inline="always")
def set_dev_new(s, p, d, n):
    s[pb(p) + P_DEV_NEW + d] = n


@njit(cache=True, inline="always")
def set_deck(s, d, n):
    s[DECK + d] = n


@njit(cache=True, inline="always")
def set_known(s, observer, p, r, n):
    s[kn(observer, p, r)] = n
