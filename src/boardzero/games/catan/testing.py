"""Build Catan positions without playing them (for tests and tools).

    from boardzero.games.catan import testing as T
    state = T.scenario(players=3)                  # beginner board, setup skipped, seat 0 in its main step
    T.settlement(state, 0, 10); T.road(state, 0, T.edge(10, 14))
    T.give(state, 0, wood=1, brick=1)
    state.apply(action_id("road", edge=...))

Every mutator keeps the engine's invariants: cards come from the bank (and
development cards from the deck), pieces come from the supply, harbours,
road lengths and the longest-road holder are updated, and the public
knowledge of hands follows (gifts are public). A mutated state is marked
``edited``: its record no longer replays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan import engine as E
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.game import Catan, CatanOptions, CatanState
from boardzero.games.catan.topology import EDGE_NODES

DEV_KEYS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
PHASES = {"pre_roll": E.PH_PRE_ROLL, "main": E.PH_MAIN, "robber": E.PH_ROBBER, "setup": E.PH_SETUP_SETTLEMENT}


def edge(a: int, b: int) -> int:
    """The edge id between intersections a and b."""
    for e, (x, y) in enumerate(EDGE_NODES):
        if {int(x), int(y)} == {a, b}:
            return e
    raise ValueError(f"nodes {a} and {b} are not adjacent")


def scenario(
    players: int = 4,
    *,
    board: str = "beginner",
    vp_to_win: int = 10,
    turn_limit: int | None = 500,
    seat: int = 0,
    phase: str = "main",
    seed: int = 0,
    **options,
) -> CatanState:
    """An empty board after setup (no pieces, no cards), ``seat`` to act in ``phase``."""
    game = Catan(CatanOptions(players=players, board=board, vp_to_win=vp_to_win, turn_limit=turn_limit, **options))
    state = game.new_state(seed=seed)
    s = state.s
    s[E.G_SETUP_STEP] = 2 * players
    state.edited = True
    set_turn(state, seat, phase)
    return state


def set_turn(state: CatanState, seat: int, phase: str = "main") -> CatanState:
    """Make it ``seat``'s turn at ``phase`` (pre_roll, main, robber or setup); clears per-turn flags."""
    s = state.s
    s[E.G_TURN_PLAYER] = seat
    s[E.G_DECIDER] = seat
    s[E.G_PHASE] = PHASES[phase]
    s[E.G_HAS_ROLLED] = 1 if phase in ("main", "robber") else 0
    s[E.G_DEV_PLAYED] = 0
    s[E.G_RETURN_PHASE] = E.PH_MAIN
    if E.trading_on(s):
        E.new_turn(s)
    state.edited = True
    return state


def give(state: CatanState, seat: int, **cards: int) -> CatanState:
    """Move cards from the bank to ``seat``: ``give(state, 0, wood=2, ore=1)``."""
    for name, count in cards.items():
        r = RESOURCE_NAMES.index(name)
        if state.s[E.BANK + r] < count:
            raise ValueError(f"the bank has only {int(state.s[E.BANK + r])} {name}")
        E.gain(state.s, seat, r, count)
    state.edited = True
    return state


def take(state: CatanState, seat: int, **cards: int) -> CatanState:
    """Return cards from ``seat`` to the bank."""
    for name, count in cards.items():
        E.lose(state.s, seat, RESOURCE_NAMES.index(name), count)
    state.edited = True
    return state


def set_bank(state: CatanState, **counts: int) -> CatanState:
    """Set how many of a resource the bank holds, by moving cards to or from the last seat's hand
    (a place outside the scenario); use small counts to test the bank limit."""
    dump = state.game.num_players - 1
    for name, count in counts.items():
        r = RESOURCE_NAMES.index(name)
        diff = int(state.s[E.BANK + r]) - count
        if diff > 0:
            E.gain(state.s, dump, r, diff)
        elif diff < 0:
            E.lose(state.s, dump, r, -diff)
    state.edited = True
    return state


def dev(state: CatanState, seat: int, *, new: bool = False, **cards: int) -> CatanState:
    """Give ``seat`` development cards from the deck (``new=True``: bought this turn)."""
    s = state.s
    b = E.pb(seat)
    for name, count in cards.items():
        d = DEV_KEYS.index(name)
        if s[E.DECK + d] < count:
            raise ValueError(f"the deck has only {int(s[E.DECK + d])} {name}")
        s[E.DECK + d] -= count
        s[b + E.P_DEV + d] += count
        if new:
            s[b + E.P_DEV_NEW + d] += count
    state.edited = True
    return state


def settlement(state: CatanState, seat: int, node: int, *, city: bool = False) -> CatanState:
    """Put a settlement (or a city) of ``seat`` on ``node`` from its supply, ignoring the building rules."""
    s = state.s
    if s[E.NODE_OWNER + node] >= 0:
        raise ValueError(f"node {node} is taken")
    E.place_settlement(s, seat, node)
    if city:
        s[E.NODE_LEVEL + node] = 2
        s[E.pb(seat) + E.P_CITIES_LEFT] -= 1
        s[E.pb(seat) + E.P_SETTLEMENTS_LEFT] += 1
    state.edited = True
    return state


def road(state: CatanState, seat: int, *edges: int) -> CatanState:
    """Put roads of ``seat`` on ``edges`` from its supply, ignoring connection rules."""
    for e in edges:
        if state.s[E.EDGE_OWNER + e] >= 0:
            raise ValueError(f"edge {e} is taken")
        E.place_road(state.s, seat, e)
    state.edited = True
    return state


def road_path(state: CatanState, seat: int, nodes: list[int]) -> CatanState:
    """Roads of ``seat`` along a path of intersections: ``road_path(state, 0, [0, 4, 8, 12])``."""
    return road(state, seat, *[edge(a, b) for a, b in zip(nodes, nodes[1:])])


def knights(state: CatanState, seat: int, count: int) -> CatanState:
    """Record ``count`` knights as already played by ``seat`` (taken from the deck); updates largest army."""
    s = state.s
    b = E.pb(seat)
    s[E.DECK + E.KNIGHT] -= count
    s[b + E.P_KNIGHTS] += count
    s[b + E.P_PLAYED + E.KNIGHT] += count
    holder = int(s[E.G_LARGEST_ARMY])
    if s[b + E.P_KNIGHTS] >= 3 and (holder < 0 or s[b + E.P_KNIGHTS] > s[E.pb(holder) + E.P_KNIGHTS]):
        s[E.G_LARGEST_ARMY] = seat
    state.edited = True
    return state


def robber(state: CatanState, hex_id: int) -> CatanState:
    state.s[E.G_ROBBER] = hex_id
    state.edited = True
    return state


def hand(state: CatanState, seat: int) -> dict[str, int]:
    """``seat``'s resource cards as a dict, for readable assertions."""
    return {name: int(v) for name, v in zip(RESOURCE_NAMES, state.hand(seat))}


def bank(state: CatanState) -> dict[str, int]:
    return {name: int(state.s[E.BANK + r]) for r, name in enumerate(RESOURCE_NAMES)}


def check_invariants(state: CatanState) -> None:
    """Raise AssertionError if a conservation law or a cached value is off (used by the fuzz tests)."""
    s = state.s
    n = state.game.num_players
    for r in range(5):
        total = s[E.BANK + r] + sum(int(s[E.pb(p) + E.P_HAND + r]) for p in range(n))
        assert total == 19, f"{RESOURCE_NAMES[r]}: bank + hands = {total}"
    for d in range(5):
        total = s[E.DECK + d] + sum(int(s[E.pb(p) + E.P_DEV + d] + s[E.pb(p) + E.P_PLAYED + d]) for p in range(n))
        assert total == E.DEV_COUNTS[d], f"dev card {DEV_KEYS[d]}: {total} in play"
    for p in range(n):
        b = E.pb(p)
        hand_ = s[b + E.P_HAND : b + E.P_HAND + 5]
        assert (hand_ >= 0).all() and hand_.sum() == s[b + E.P_CARDS], f"seat {p}: hand {hand_} vs cards"
        roads = int(np.sum(s[E.EDGE_OWNER : E.EDGE_OWNER + 72] == p))
        settlements = int(
            np.sum((s[E.NODE_OWNER : E.NODE_OWNER + 54] == p) & (s[E.NODE_LEVEL : E.NODE_LEVEL + 54] == 1))
        )
        cities = int(np.sum((s[E.NODE_OWNER : E.NODE_OWNER + 54] == p) & (s[E.NODE_LEVEL : E.NODE_LEVEL + 54] == 2)))
        assert roads + s[b + E.P_ROADS_LEFT] == 15 and 0 <= roads <= 15, f"seat {p}: roads"
        assert settlements + s[b + E.P_SETTLEMENTS_LEFT] == 5, f"seat {p}: settlements"
        assert cities + s[b + E.P_CITIES_LEFT] == 4, f"seat {p}: cities"
        assert s[b + E.P_KNIGHTS] == s[b + E.P_PLAYED + E.KNIGHT]
        vp = settlements + 2 * cities + int(s[b + E.P_DEV + E.VICTORY_POINT])
        vp += 2 * (s[E.G_LONGEST_ROAD] == p) + 2 * (s[E.G_LARGEST_ARMY] == p)
        assert vp == state.victory_points(p), f"seat {p}: points"
        for o in range(n):
            if o != p:
                known = np.array([s[E.kn(o, p, r)] for r in range(5)])
                assert (known <= hand_).all(), f"seat {o}'s knowledge of seat {p} exceeds the hand"
    assert trade_consistent(s), INVARIANT_NAMES[10]


# ---------------------------------------------------------------- compiled fuzzing helpers
INVARIANT_NAMES = {
    1: "bank + hands != 19 for a resource",
    2: "development cards not conserved",
    3: "hand negative or card count cache wrong",
    4: "piece counts off or beyond the limits",
    5: "victory points differ from board + cards",
    6: "a seat's knowledge of a hand exceeds it",
    7: "cached road length differs from a fresh computation",
    8: "longest road holder inconsistent with road lengths",
    9: "largest army holder inconsistent with knights",
    10: "an open offer's cards are not held (proposer's or an accepting seat's), or offers past the limit",
}


@njit(cache=True)
def invariant_error(s):
    """0 if the state is consistent, else a code of INVARIANT_NAMES."""
    n = s[E.G_NUM_PLAYERS]
    for r in range(5):
        total = s[E.BANK + r]
        for p in range(n):
            total += s[E.pb(p) + E.P_HAND + r]
        if total != 19 or s[E.BANK + r] < 0:
            return 1
    for d in range(5):
        total = s[E.DECK + d]
        for p in range(n):
            total += s[E.pb(p) + E.P_DEV + d] + s[E.pb(p) + E.P_PLAYED + d]
        if total != E.DEV_COUNTS[d] or s[E.DECK + d] < 0:
            return 2
    best = 0
    for p in range(n):
        b = E.pb(p)
        cards = 0
        for r in range(5):
            if s[b + E.P_HAND + r] < 0:
                return 3
            cards += s[b + E.P_HAND + r]
        if cards != s[b + E.P_CARDS]:
            return 3
        roads = 0
        for e in range(72):
            if s[E.EDGE_OWNER + e] == p:
                roads += 1
        settlements = 0
        cities = 0
        for v in range(54):
            if s[E.NODE_OWNER + v] == p:
                if s[E.NODE_LEVEL + v] == 1:
                    settlements += 1
                else:
                    cities += 1
        if (
            roads + s[b + E.P_ROADS_LEFT] != 15
            or settlements + s[b + E.P_SETTLEMENTS_LEFT] != 5
            or cities + s[b + E.P_CITIES_LEFT] != 4
            or s[b + E.P_ROADS_LEFT] < 0
            or s[b + E.P_SETTLEMENTS_LEFT] < 0
            or s[b + E.P_CITIES_LEFT] < 0
        ):
            return 4
        vp = settlements + 2 * cities + s[b + E.P_DEV + E.VICTORY_POINT]
        if s[E.G_LONGEST_ROAD] == p:
            vp += 2
        if s[E.G_LARGEST_ARMY] == p:
            vp += 2
        if vp != E.victory_points(s, p, True):
            return 5
        for o in range(n):
            if o != p:
                for r in range(5):
                    if s[E.kn(o, p, r)] > s[b + E.P_HAND + r] or s[E.kn(o, p, r)] < 0:
                        return 6
        if s[b + E.P_ROAD_LEN] != E.longest_road(s, p):
            return 7
        best = max(best, s[b + E.P_ROAD_LEN])
    holder = s[E.G_LONGEST_ROAD]
    count = 0
    for p in range(n):
        if s[E.pb(p) + E.P_ROAD_LEN] == best:
            count += 1
    if holder >= 0:
        if s[E.pb(holder) + E.P_ROAD_LEN] != best or best < 5:
            return 8
    elif best >= 5 and count == 1:
        return 8
    army = s[E.G_LARGEST_ARMY]
    for p in range(n):
        k = s[E.pb(p) + E.P_KNIGHTS]
        if army < 0 and k >= 3:
            return 9
        if army >= 0 and p != army and k > s[E.pb(army) + E.P_KNIGHTS]:
            return 9
    if army >= 0 and s[E.pb(army) + E.P_KNIGHTS] < 3:
        return 9
    if not trade_consistent(s):
        return 10
    return 0


@njit(cache=True)
def trade_consistent(s):
    """Offers within the turn's limit; with an offer open, the proposer holds what it gives and every seat that
    accepted holds what is asked."""
    if s[E.T_MADE] < 0 or s[E.T_MADE] > s[E.T_LIMIT]:
        return False
    ph = s[E.G_PHASE]
    if ph != E.PH_TRADE_ANSWER and ph != E.PH_TRADE_CHOOSE:
        return True
    i = s[E.T_OFFER]
    if i < 0 or i >= E.NUM_OFFERS or not E.holds(s, s[E.G_TURN_PLAYER], E.OFFER_GIVE[i]):
        return False
    for q in range(s[E.G_NUM_PLAYERS]):
        if s[E.T_ANSWER + q] == E.ANSWER_ACCEPT and not E.holds(s, q, E.OFFER_GET[i]):
            return False
    return True


@njit(cache=True)
def fuzz_play(s, seed, snapshots, every, max_steps):
    """Random play with an invariant check after every step; snapshots[k] = the state every `every`
    steps (as many as fit). Returns (steps, snapshots taken, error code, step of the error)."""
    np.random.seed(seed)
    buf = np.empty(E.MAX_ACTIONS, dtype=np.int64)
    taken = 0
    steps = 0
    while s[E.G_PHASE] != E.PH_OVER and steps < max_steps:
        ph = s[E.G_PHASE]
        if ph == E.PH_DICE or ph == E.PH_DEV_DRAW or ph == E.PH_STEAL:
            E.apply_action(s, E.sample_chance_outcome(s))
        else:
            c = E.legal_actions(s, buf)
            if c == 0:
                return steps, taken, 100, steps
            E.apply_action(s, buf[np.random.randint(0, c)])
        steps += 1
        code = invariant_error(s)
        if code != 0:
            return steps, taken, code, steps
        if steps % every == 0 and taken < snapshots.shape[0]:
            snapshots[taken, :] = s
            taken += 1
    return steps, taken, 0, -1
