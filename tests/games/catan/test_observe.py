"""The observation: the ``rich`` per-seat features are seat-relative like the rest, and every feature of
``flat``, ``rich`` and ``planes`` matches its definition."""

import numpy as np
import pytest

from boardzero.core.registry import make
from boardzero.games.catan import engine as E, fields as F, observe as O, random_playout, testing as T
from boardzero.games.catan.topology import (
    EDGE_NODES,
    HEX_COL,
    HEX_EDGES,
    HEX_NODES,
    HEX_ROW,
    NODE_EDGES,
    NODE_HEXES,
    NODE_NODES,
)


def seat_rows(state, observer: int) -> np.ndarray:
    """The per-seat block of ``rich`` seen by ``observer``: one row per relative seat."""
    extra = state.observe(observer)["rich"][O.FLAT_SIZE :]
    return extra[54 * O.NODE_EXTRA : 54 * O.NODE_EXTRA + 4 * O.SEAT_EXTRA].reshape(4, O.SEAT_EXTRA)


def production(state, node: int, level: int) -> np.ndarray:
    """Pips per resource of a building of ``level`` on ``node`` (the robber is on the desert)."""
    s = state.s
    out = np.zeros(5)
    for h in NODE_HEXES[node]:
        if h >= 0 and s[E.HEX_RES + h] < 5:
            out[s[E.HEX_RES + h]] += level * (6 - abs(7 - s[E.HEX_NUM + h]))
    return out


@pytest.mark.parametrize("players", [3, 4])
def test_each_seats_production_is_in_its_row_relative_to_the_observer(players):
    """Seat 1 holds a city and seat 2 a settlement: every observer finds them at rows (1 - observer) % n and
    (2 - observer) % n, and nothing in the other rows."""
    state = T.scenario(players=players)
    T.settlement(state, 1, 12, city=True)
    T.settlement(state, 2, 40)
    expected = {1: production(state, 12, 2), 2: production(state, 40, 1)}
    assert expected[1].sum() > 0 and expected[2].sum() > 0 and not np.allclose(expected[1], expected[2])
    for observer in range(players):
        rows = seat_rows(state, observer)
        for owner, pips in expected.items():
            relative = (owner - observer) % players
            assert rows[relative, :5] == pytest.approx(pips / 10), (observer, owner)
            assert rows[relative, 5] == pytest.approx(pips.sum() / 20), (observer, owner)
        empty = [(q - observer) % players for q in range(players) if q not in expected]
        assert rows[empty, :6].sum() == 0, observer
        assert rows[players:].sum() == 0  # rows beyond the players at the table stay empty


# ---------------------------------------------------------------- every feature against its definition


def reference_flat(s, seat: int) -> np.ndarray:
    """The flat observation of ``seat`` written out feature by feature from the state's fields, in plain Python
    (the definitions of GLOBAL_NAMES and of the hex, node and edge features), to hold the compiled encoder to."""
    n = F.num_players(s)
    g: dict[str, float] = {}
    res, devs = (
        ("wood", "brick", "sheep", "wheat", "ore"),
        ("knight", "vp", "road_building", "year_of_plenty", "monopoly"),
    )
    for r, name in enumerate(res):
        g[f"own_hand.{name}"] = F.hand(s, seat, r) / 10
    for d, name in enumerate(devs):
        g[f"own_dev.{name}"] = F.dev_held(s, seat, d) / 5
        g[f"own_dev_new.{name}"] = F.dev_new(s, seat, d)
    for k in range(n):
        q, p = (seat + k) % n, f"p{k}."
        g[p + "visible_vp"] = E.victory_points(s, q, False) / 10
        g[p + "cards"] = F.card_count(s, q) / 10
        for r, name in enumerate(res):
            g[p + f"known.{name}"] = (F.hand(s, q, r) if q == seat else F.known(s, seat, q, r)) / 10
        g[p + "dev_cards"] = sum(F.dev_held(s, q, d) for d in range(5)) / 5
        for d, name in enumerate(devs):
            g[p + f"played.{name}"] = F.dev_played(s, q, d) / 5
        g[p + "roads_left"] = F.roads_left(s, q) / 15
        g[p + "settlements_left"] = F.settlements_left(s, q) / 5
        g[p + "cities_left"] = F.cities_left(s, q) / 4
        g[p + "road_length"] = F.road_length(s, q) / 15
        g[p + "longest_road"] = float(F.longest_road_holder(s) == q)
        g[p + "largest_army"] = float(F.largest_army_holder(s) == q)
        g[p + "must_discard"] = F.to_discard(s, q) / 10
        g[p + "turn"] = float(F.turn_seat(s) == q)
        for h, name in enumerate([*res, "3:1"]):
            g[p + f"harbour.{name}"] = float(bool(F.harbour_mask(s, q) & (1 << h)))
    g["own_vp"] = E.victory_points(s, seat, True) / 10
    for r, name in enumerate(res):
        g[f"bank.{name}"] = F.bank(s, r) / 19
    g["deck"] = sum(F.deck(s, d) for d in range(5)) / 25
    g[f"phase.{min(F.phase(s), E.PH_MAIN) if F.phase(s) >= O.NUM_BASE_PHASES else F.phase(s)}"] = 1.0
    if F.last_roll(s) >= 2:
        g[f"last_roll.{F.last_roll(s)}"] = 1.0
    g["has_rolled"] = F.has_rolled(s)
    g["dev_played"] = F.dev_played_this_turn(s)
    g["free_roads"] = F.free_roads(s) / 2
    g["year_of_plenty_left"] = F.year_of_plenty_left(s) / 2
    g["turn_fraction"] = min(F.turn(s) / (F.turn_limit(s) if F.turn_limit(s) > 0 else 500), 1.0)
    g[f"players.{n}"] = 1.0
    g["vp_to_win"] = F.vp_to_win(s) / 10
    assert set(g) <= set(O.GLOBAL_NAMES)
    out = [g.get(name, 0.0) for name in O.GLOBAL_NAMES]
    for h in range(19):
        row = [0.0] * O.HEX_FEATURES
        row[F.hex_resource(s, h)] = 1.0
        if F.hex_number(s, h) > 0:
            row[6] = F.hex_number(s, h) / 12
            row[7] = (6 - abs(7 - F.hex_number(s, h))) / 5
        row[8] = float(F.robber(s) == h)
        out += row
    for v in range(54):
        row = [0.0] * O.NODE_FEATURES
        if F.node_owner(s, v) >= 0:
            row[(F.node_owner(s, v) - seat) % n + (4 if F.node_level(s, v) == 2 else 0)] = 1.0
        if F.node_harbour(s, v) >= 0:
            row[8 + F.node_harbour(s, v)] = 1.0
        row[14] = float(E.node_free_for_settlement(s, v))
        out += row
    for e in range(72):
        row = [0.0] * O.EDGE_FEATURES
        if F.edge_owner(s, e) >= 0:
            row[(F.edge_owner(s, e) - seat) % n] = 1.0
        out += row
    return np.array(out)


def reference_extra(s, seat: int) -> np.ndarray:
    """encode_extra's features by their definitions: per intersection the pips of each resource around it and
    in all, and who can settle there now or after one more road; per relative seat its production (robbed hexes
    yield nothing, cities double), the spots it can settle now and after one road and the best pips there; and
    which of a road, settlement, city and development card the observer's hand pays for."""
    n = F.num_players(s)
    nodes, seats = np.zeros((54, O.NODE_EXTRA)), np.zeros((4, O.SEAT_EXTRA))
    touches = {(int(F.edge_owner(s, e)), int(v)) for e in range(72) if F.edge_owner(s, e) >= 0 for v in EDGE_NODES[e]}

    def pips(h):
        return 6 - abs(7 - F.hex_number(s, h)) if F.hex_number(s, h) > 0 else 0

    def road_ok(q, e):  # an empty edge with the seat's building, or its road and no other's building, at an end
        if F.edge_owner(s, e) >= 0:
            return False
        return any(
            F.node_owner(s, v) == q or (F.node_owner(s, v) < 0 and (q, int(v)) in touches) for v in EDGE_NODES[e]
        )

    for v in range(54):
        around = [h for h in NODE_HEXES[v] if h >= 0 and F.hex_resource(s, h) < 5]
        for h in around:
            nodes[v, F.hex_resource(s, h)] += pips(h) / 5
        total = sum(pips(h) for h in around)
        nodes[v, 5] = total / 15
        owner = F.node_owner(s, v)
        if owner >= 0:
            for h in around:
                if h != F.robber(s):
                    made = pips(h) * F.node_level(s, v)
                    seats[(owner - seat) % n, F.hex_resource(s, h)] += made / 10
                    seats[(owner - seat) % n, 5] += made / 20
            continue
        if not E.node_free_for_settlement(s, v):
            continue
        for k in range(n):
            q = (seat + k) % n
            now = (q, v) in touches
            later = not now and any(e >= 0 and road_ok(q, e) for e in NODE_EDGES[v])
            if now:
                nodes[v, 6 if k == 0 else 7] = 1.0
                seats[k, 6] += 1 / 5
            elif later:
                nodes[v, 8 if k == 0 else 9] = 1.0
                seats[k, 7] += 1 / 10
            if now or later:
                seats[k, 8] = max(seats[k, 8], total / 15)
    costs = [{0: 1, 1: 1}, {0: 1, 1: 1, 2: 1, 3: 1}, {3: 2, 4: 3}, {2: 1, 3: 1, 4: 1}]  # road, settlement, city, card
    own = [float(all(F.hand(s, seat, r) >= c for r, c in cost.items())) for cost in costs]
    return np.concatenate([nodes.ravel(), seats.ravel(), own])


def reference_planes(s, seat: int, flat: np.ndarray) -> np.ndarray:
    """The hex planes: each hex's features in its two cells of a 5 x 10 brick grid, plus a third for each
    building and a sixth for each road of a relative seat on its corners and sides."""
    n = F.num_players(s)
    out = np.zeros((O.PLANE_CHANNELS, O.PLANE_H, O.PLANE_W))
    for h in range(19):
        row, col = HEX_ROW[h], 2 * HEX_COL[h] + abs(HEX_ROW[h] - 2)
        cells = (row, slice(col, col + 2))
        for c in range(O.HEX_FEATURES):
            out[(c, *cells)] = flat[O.HEXES_AT + h * O.HEX_FEATURES + c]
        for v in HEX_NODES[h]:
            if F.node_owner(s, v) >= 0:
                c = O.HEX_FEATURES + (F.node_owner(s, v) - seat) % n + (4 if F.node_level(s, v) == 2 else 0)
                out[(c, *cells)] += 1 / 3
        for e in HEX_EDGES[h]:
            if F.edge_owner(s, e) >= 0:
                out[(O.HEX_FEATURES + 8 + (F.edge_owner(s, e) - seat) % n, *cells)] += 1 / 6
    return out


def positions():
    """Positions along random games of 3 and 4 seats: setup, the first turns, and later with cards, dev cards,
    discards, harbours and longest roads about; and two hand-made ones."""
    found = []
    for players, seed in ((3, 1), (4, 2), (4, 3)):
        game = make("catan", players=players)
        for steps in (5, 30, 120, 400, 900):
            state = game.new_state(seed=seed)
            random_playout(state.s, seed, steps)
            found.append(state)
    rich = T.give(T.scenario(players=4, seat=2), 2, wood=1, brick=1, sheep=1, wheat=2, ore=3)
    T.settlement(rich, 1, 12, city=True)
    T.settlement(rich, 3, 40)
    T.road_path(rich, 3, [40, int(next(v for v in NODE_NODES[40] if v >= 0))])
    found.append(rich)
    return found


def test_every_feature_matches_its_definition_from_each_seat():
    """The whole ``flat``, ``rich`` and ``planes`` observations, from every seat, of positions along random
    games, against the definitions written out above: a feature scaled, placed or read from the wrong seat
    differs somewhere."""
    seen_known = seen_dev = 0
    for state in positions():
        s = state.s
        for seat in range(F.num_players(s)):
            obs = state.observe(seat)
            flat = reference_flat(s, seat)
            np.testing.assert_allclose(obs["flat"], flat, atol=1e-6, err_msg=f"flat, seat {seat}")
            extra = reference_extra(s, seat)
            np.testing.assert_allclose(obs["rich"][O.FLAT_SIZE :], extra, atol=1e-6, err_msg=f"extra, seat {seat}")
            np.testing.assert_allclose(obs["planes"], reference_planes(s, seat, flat), atol=1e-6)
            names = dict(zip(O.GLOBAL_NAMES, obs["flat"]))
            seen_known += any(names[f"p1.known.{r}"] > 0 for r in ("wood", "brick", "sheep", "wheat", "ore"))
            seen_dev += names["own_dev.knight"] > 0
    assert seen_known and seen_dev  # the positions reach the features that random play makes rare
